"""What a sense-tagged corpus teaches about proper names.

SemCor tags a name WordNet does not know as one unit whose lemma is its kind: *Durwood Pye*
and *Mayor William B. Hartsfield* are person, *Hudson's Bay Company* group, *Vadstena*
location (person%1:03:00:: and its like; 8,666 instances, 3.8% of SemCor). Raw text that
left such names as words with no sense would lose them, and would also read the context of
the words around them otherwise than the corpus the classifiers were trained on, whose bag
of lemmas says *person* there. So the raw-text pipeline joins a run of proper nouns with a
word WordNet has no sense for into one name (``wsd.text.pipeline``), and ``NameKinds``
chooses its kind: naive Bayes over the name's words and the words just before and after it,
from ``count_names``' counts of the corpus's names (features seen at least
``MIN_FEATURE_COUNT`` times), add-one smoothed. On held-out SemCor documents it picks the
right kind for 85% of the names (person alone: 77%); ``benchmarks/raw_text.py --parts f1``
measures what the joins bring.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from wsd.instance import Instance

NAME_KINDS = ("person", "group", "location")
MIN_FEATURE_COUNT = 2
TOTALS = "names"  # the counts' entry for how many names of each kind the corpus has
START, END = "<s>", "</s>"  # the word before a sentence's first word, after its last
NameCounts = Mapping[str, tuple[int, ...]]  # "w=pye" -> (person, group, location)


def name_features(words: Sequence[str], before: str, after: str) -> list[str]:
    """The features of a name: its words, the word before and the word after it (``START``
    and ``END`` at the sentence's edges), in lowercase, a multi-word token's spaces as '_'."""
    def norm(word: str) -> str:
        return word.lower().replace(" ", "_")

    return [*(f"w={norm(word)}" for word in words), f"b={norm(before)}", f"a={norm(after)}"]


def name_kind(inst: Instance) -> str | None:
    """The kind of name an instance of the corpus is (*Durwood_Pye* tagged person), or None:
    its lemma is one of ``NAME_KINDS`` and its text a capitalised word other than that lemma
    (not *Person*, nor *a person*)."""
    start, end = inst.span
    text = " ".join(inst.tokens[start:end])
    if inst.lemma in NAME_KINDS and text[:1].isupper() and text.lower() != inst.lemma:
        return inst.lemma
    return None


def count_names(instances: Iterable[Instance],
                min_count: int = MIN_FEATURE_COUNT) -> dict[str, tuple[int, ...]]:  # fmt: skip
    """``feature -> counts per kind`` (``NAME_KINDS``) of the corpus's names (``name_kind``),
    for the features (``name_features``) seen at least ``min_count`` times, and ``TOTALS``:
    the names of each kind. Empty when the corpus tags no name."""
    counts: dict[str, Counter[str]] = {}
    totals: Counter[str] = Counter()
    for inst in instances:
        kind = name_kind(inst)
        if kind is None:
            continue
        start, end = inst.span
        words = " ".join(inst.tokens[start:end]).replace("_", " ").split()
        before = inst.tokens[start - 1] if start > 0 else START
        after = inst.tokens[end] if end < len(inst.tokens) else END
        totals[kind] += 1
        for feature in name_features(words, before, after):
            counts.setdefault(feature, Counter())[kind] += 1
    if not totals:
        return {}
    found = {feature: tuple(seen[kind] for kind in NAME_KINDS)
             for feature, seen in sorted(counts.items()) if seen.total() >= min_count}
    return {TOTALS: tuple(totals[kind] for kind in NAME_KINDS), **found}


class NameKinds:
    """The kind of a name (``NAME_KINDS``) by naive Bayes over ``count_names``' counts."""

    def __init__(self, counts: NameCounts) -> None:
        totals = counts[TOTALS]
        self.counts = counts
        self.log_prior = [math.log(n + 1) for n in totals]
        features = [values for key, values in counts.items() if key != TOTALS]
        seen = [sum(values[k] for values in features) for k in range(len(NAME_KINDS))]
        # add-one: 1 / (n + V); with no feature (every name rare) the prior decides alone
        self.log_unit = [-math.log(max(n + len(features), 1)) for n in seen]

    def kind(self, words: Sequence[str], before: str, after: str) -> str:
        """The most probable kind of the name ``words`` between ``before`` and ``after``."""
        scores = list(self.log_prior)
        for feature in name_features(words, before, after):
            values = self.counts.get(feature)
            if values is None:
                continue
            for k, n in enumerate(values):
                scores[k] += math.log(n + 1) + self.log_unit[k]
        return NAME_KINDS[scores.index(max(scores))]
