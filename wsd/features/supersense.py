"""WordNet supersenses of the context: ``ss_right=noun.food``, ``ss_bag=verb.motion``.

A supersense is the lexicographer file of a word's first (most frequent) WordNet sense:
one of 26 noun classes (noun.person, noun.artifact, ...) and 15 verb classes. They let a
classifier generalise over words it saw too rarely: "he played the cello" and "the oboe"
both give ``ss_right=noun.artifact``. For verbs the nearest nouns on either side stand in
for subject and object, which decide many verb senses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from wsd.features.extractors import Extractor
from wsd.features.sentencebag import SentenceBag
from wsd.instance import Instance
from wsd.knowledge.inventory import require_wordnet, tag_letter, wordnet_reader


@functools.lru_cache(maxsize=200_000)
def supersense(word: str, letter: str) -> str | None:
    """The lexicographer file of the first WordNet sense of ``word`` as ``letter`` (n, v, a,
    r), e.g. ``supersense("bass", "n") == "noun.food"``; None when WordNet lacks the word.
    Inflected forms are looked up through WordNet's morphy."""
    synsets = wordnet_reader().synsets(word.lower().replace(" ", "_"), letter)
    return synsets[0].lexname() if synsets else None


BAG_PREFIX = "ss_bag="


@dataclass(frozen=True)
class Supersenses(Extractor):
    """Supersenses of the nearest noun before (``ss_left``) and after (``ss_right``) the
    target within ``reach`` tokens, and (``bag=True``) of every other noun and verb of the
    sentence (``ss_bag``, binary). Needs POS tags (``inst.pos``, Penn or universal) and the
    ``wordnet`` NLTK data; words are the corpus lemmas when the instance carries them.
    """

    reach: int = 5
    bag: bool = True

    name = "supersense"
    uses_pos = True

    def __post_init__(self) -> None:
        if isinstance(self.reach, bool) or not isinstance(self.reach, int) or self.reach < 0:
            raise ValueError(f"reach must be an int >= 0 (tokens), got {self.reach!r}")
        require_wordnet()  # the download command, before any work is done

    def __call__(self, inst: Instance) -> dict[str, float]:
        if inst.pos is None:
            return {}
        words = inst.corpus_lemmas or inst.tokens
        letters, bag = sentence_supersenses(tuple(words), tuple(inst.pos))
        start, end = inst.span
        features: dict[str, float] = {}
        sides = (
            ("ss_left", range(start - 1, max(-1, start - 1 - self.reach), -1)),
            ("ss_right", range(end, min(len(words), end + self.reach))),
        )
        for name, positions in sides:
            for i in positions:
                if letters[i] == "n":  # a noun's bag feature carries its supersense
                    found = bag.keys[i][len(BAG_PREFIX):]
                    if found:
                        features[f"{name}={found}"] = 1.0
                    break
        if self.bag:
            features.update(dict.fromkeys(bag.without(start, end), 1.0))
        return features


# A sentence's instances ask in turn; the all-words model asks key by key, not in text order
# (256 sentences had missed on two thirds of the instances of a 1,600-sentence text).
@functools.lru_cache(maxsize=4096)
def sentence_supersenses(words: tuple[str, ...], tags: tuple[str, ...]
                         ) -> tuple[list[str | None], SentenceBag]:  # fmt: skip
    """A sentence's WordNet letters (from its ``tags``) and the ``ss_bag=`` feature of each
    position ("" for none: words that are no noun or verb, or have no supersense)."""
    letters = [tag_letter(tag) for tag in tags]
    features = []
    for word, letter in zip(words, letters, strict=True):
        found = supersense(word, letter) if letter in ("n", "v") else None
        features.append(BAG_PREFIX + found if found else "")
    return letters, SentenceBag(features)
