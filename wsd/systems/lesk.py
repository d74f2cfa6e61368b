"""The Lesk family: choose the sense whose dictionary text overlaps most with the context.

- :class:`SimplifiedLesk` compares the context words with each sense's gloss (+ examples).
- :class:`OriginalLesk` compares each sense's gloss with the glosses of the senses of the
  context words (Lesk 1986).
- :class:`ExtendedLesk` (Banerjee & Pedersen 2003) enlarges every signature with the
  glosses of related synsets and scores each shared phrase of n words as n².
- :class:`LeskWithPrior` adds sense-frequency information to any of them; the three
  above are "pure" and use nothing but the dictionary text (and its sense order).

All are instance-level systems (``fit`` / ``predict`` / ``score``). When no sense overlaps
at all, ``backoff`` decides: ``"first_sense"`` (default: the inventory's first sense,
WordNet's most frequent), ``"mfs"`` (the most frequent training sense of the key, learned
by ``fit``; the first sense for unseen keys) or ``"none"`` (no answer). Among senses with
the same positive score the one listed first wins, as in ``nltk.wsd.lesk``.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence

from wsd.instance import Instance
from wsd.knowledge.inventory import (
    Sense,
    SenseInventory,
    WordNetInventory,
    tag_letter,
)
from wsd.knowledge.normalise import Normaliser
from wsd.systems.baselines import InstanceSystem, InventorySystem, MostFrequentSense

Answer = str | None
_BACKOFFS = ("first_sense", "mfs", "none")
_BOUNDARY = None  # separates glosses in a sequence so that no phrase spans two of them


def phrase_overlap(first: Sequence[Hashable | None], second: Sequence[Hashable | None]) -> int:
    """Banerjee & Pedersen's overlap score: the sum of n² over shared phrases of n words.

    Greedily takes the longest phrase the two sequences share (the earliest one on a
    tie), counts it, and removes it from both so that no word is counted twice; repeats
    until nothing is shared. ``None`` items are boundaries that no phrase crosses.
    """
    positions: dict[Hashable, list[int]] = defaultdict(list)
    for j, token in enumerate(second):
        if token is not None:
            positions[token].append(j)
    shared = [(i, positions[token]) for i, token in enumerate(first) if token in positions]
    used_first = [token is None for token in first]
    used_second = [token is None for token in second]
    total = 0
    while shared:
        best_len, best_i, best_j = 0, -1, -1
        for i, matches in shared:
            if used_first[i]:
                continue
            for j in matches:
                if used_second[j]:
                    continue
                n = 1
                while (
                    i + n < len(first)
                    and j + n < len(second)
                    and not used_first[i + n]
                    and not used_second[j + n]
                    and first[i + n] == second[j + n]
                ):
                    n += 1
                if n > best_len:
                    best_len, best_i, best_j = n, i, j
        if best_len == 0:
            break
        total += best_len * best_len
        for k in range(best_len):
            used_first[best_i + k] = used_second[best_j + k] = True
        shared = [(i, matches) for i, matches in shared if not used_first[i]]
    return total


def _first_best(scored: list[tuple[Sense, float]]) -> tuple[Sense, float]:
    """The highest-scoring (sense, score); the first listed among equals, as NLTK's max."""
    return max(scored, key=lambda pair: pair[1])


# Sentences whose normalised words are kept: the all-words model asks for a text's instances
# key by key, not in text order (256 had missed on two thirds of a 1,600-sentence text).
_SENTENCES_KEPT = 4096
# A sentence's words normalised with their letters, and the counts of its distinct words.
_NormalisedSentence = tuple[list[tuple[str | None, str | None]], Counter]


class _Lesk(InventorySystem):
    """What every Lesk variant shares: options, context, backoff, fit/predict/score."""

    def __init__(
        self,
        inventory: SenseInventory | None = None,
        stopwords=True,
        lemmatize: bool = True,
        window: int | None = None,
        backoff: str = "first_sense",
        use_examples: bool = True,
        include_target: bool = False,
        raw_tokens: bool = False,
        related: bool = False,
    ) -> None:
        self.inventory = inventory
        self.stopwords = stopwords
        self.lemmatize = lemmatize
        self.window = window
        self.backoff = backoff
        self.use_examples = use_examples
        self.include_target = include_target
        self.raw_tokens = raw_tokens
        self.related = related
        if backoff not in _BACKOFFS:
            raise ValueError(f"backoff must be one of {', '.join(_BACKOFFS)}, not {backoff!r}")
        if window is not None and (not isinstance(window, int) or window < 0):
            raise ValueError(f"window must be None (whole sentence) or an int >= 0, not {window!r}")
        self._norm: Normaliser | None = None
        self._signatures: dict[tuple[str, str], object] = {}
        self._sentences: dict[tuple, _NormalisedSentence] = {}

    # -- shared machinery -------------------------------------------------------------
    def _normaliser(self) -> Normaliser:
        if self._norm is None:
            self._norm = Normaliser(self.stopwords, self.lemmatize, self.raw_tokens)
        return self._norm

    def _gloss_texts(self, sense: Sense) -> list[str]:
        return [sense.gloss, *sense.examples] if self.use_examples else [sense.gloss]

    def _word_set(self, sense: Sense) -> frozenset[str]:
        """The distinct words of the sense's gloss (+ examples), and with ``related`` those
        of the glosses of its related senses: its signature."""
        key = ("words", sense.id)
        known = self._signatures.get(key)
        if known is not None:  # each sense's signature is asked for by every instance
            return known  # type: ignore[return-value]
        inventory = self._inventory()
        found = inventory.compiled_signature(sense) if self._compiled_signatures() else None
        if found is None:
            norm = self._normaliser()
            texts = self._gloss_texts(sense)
            if self.related:
                texts = [*texts, *inventory.related_glosses(sense)]
            found = frozenset(w for text in texts for w in norm.text(text))
        self._signatures[key] = found
        return found

    def _compiled_signatures(self) -> bool:
        """Whether signatures come precomputed from the compiled lexicon: WordNet through it,
        related glosses with their examples, and the normalisation it was compiled with."""
        inventory = self._inventory()
        return (self.related and self.use_examples and self.stopwords is True
                and self.lemmatize and not self.raw_tokens
                and isinstance(inventory, WordNetInventory) and inventory.include_examples
                and hasattr(inventory._wn, "signature"))  # fmt: skip

    def context_positions(self, inst: Instance) -> list[int]:
        """Token positions of the context: the window around the target (target excluded
        unless ``include_target``)."""
        start, end = inst.span
        low, high = 0, len(inst.tokens)
        if self.window is not None:
            low, high = max(0, start - self.window), min(high, end + self.window)
        return [
            i for i in range(low, high) if self.include_target or not start <= i < end
        ]

    def context_words(self, inst: Instance) -> list[tuple[str, str | None]]:
        """Normalised context words with their WordNet POS letter (None when unknown)."""
        normalised = self._normalised(inst)
        return [normalised[i] for i in self.context_positions(inst)  # type: ignore[misc]
                if normalised[i][0] is not None]  # fmt: skip

    def context_set(self, inst: Instance) -> set[str]:
        """The distinct words of ``context_words``. With the whole sentence as context: the
        sentence's words less those it has only inside the target, from counts made once per
        sentence (each of its instances asks)."""
        if self.window is not None or self.include_target:
            return {word for word, _ in self.context_words(inst)}
        normalised, counts = self._sentence(inst)
        start, end = inst.span
        if end - start == 1:  # most targets: one token, whose word goes if only it has it
            word = normalised[start][0]
            return counts.keys() - {word} if counts.get(word) == 1 else set(counts)
        inside = Counter(normalised[i][0] for i in range(start, end))
        return counts.keys() - {word for word, n in inside.items() if counts.get(word) == n}

    def _normalised(self, inst: Instance) -> list[tuple[str | None, str | None]]:
        """Every token of the instance's sentence normalised, with its letter."""
        return self._sentence(inst)[0]

    def _sentence(self, inst: Instance) -> _NormalisedSentence:
        """The instance's sentence normalised (``_normalised``) and its words' counts: kept
        for the last ``_SENTENCES_KEPT`` sentences, since each of a sentence's instances asks."""
        key = (tuple(inst.tokens), None if inst.pos is None else tuple(inst.pos))
        if key not in self._sentences:
            if len(self._sentences) >= _SENTENCES_KEPT:
                del self._sentences[next(iter(self._sentences))]
            norm = self._normaliser()
            letters = ([tag_letter(tag) for tag in inst.pos] if inst.pos is not None
                       else [None] * len(inst.tokens))  # fmt: skip
            normalised = [(norm.word(token, letter), letter)
                          for token, letter in zip(inst.tokens, letters, strict=True)]
            counts = Counter(word for word, _ in normalised if word is not None)
            self._sentences[key] = (normalised, counts)
        return self._sentences[key]

    def sense_scores(self, inst: Instance) -> list[tuple[Sense, float]]:
        """Every candidate sense of the instance with its overlap score, in inventory order."""
        senses = self._inventory().senses(inst.lemma, inst.target_pos)
        if not senses:
            return []
        return list(zip(senses, self._scores(inst, senses), strict=True))

    def _scores(self, inst: Instance, senses: list[Sense]) -> list[float]:
        raise NotImplementedError

    def fit(self, instances: Sequence[Instance] = ()):
        """Learn the most frequent senses for ``backoff="mfs"``; otherwise nothing to learn."""
        if self.backoff == "mfs":
            self.mfs_ = MostFrequentSense(fallback="none").fit(instances)
        return self

    def answer(self, inst: Instance) -> Answer:
        """The chosen sense id for one instance (None when there is no answer)."""
        scored = self.sense_scores(inst)
        if not scored:
            return None
        best_sense, best_score = _first_best(scored)
        if best_score > 0:
            return best_sense.id
        if self.backoff == "none":
            return None
        if self.backoff == "mfs":
            if not hasattr(self, "mfs_"):
                raise ValueError('backoff="mfs" needs training counts: call fit(instances)')
            learned = self.mfs_.predict([inst])[0]
            if learned is not None:
                return learned
        return scored[0][0].id


class SimplifiedLesk(_Lesk):
    """Score each sense by the number of distinct context words in its gloss (+ examples).

    Options: ``stopwords`` (True: a built-in English list, "nltk", False, or your own
    words), ``lemmatize`` (WordNet base forms, using the context's POS tags when present),
    ``window`` (tokens on each side; None = the sentence), ``use_examples``, ``backoff``,
    ``inventory`` (WordNet by default); ``related=True`` adds the glosses of related senses
    (hypernyms, hyponyms, ... as the inventory lists them) to each signature, as Extended
    Lesk does, but still counts distinct shared words. ``raw_tokens=True`` compares tokens
    as written (glosses split on whitespace, no lowercasing) — with ``stopwords=False``,
    ``lemmatize=False``, ``use_examples=False``, ``include_target=True`` and
    ``WordNetInventory(exact_lemma=False)`` this is exactly ``nltk.wsd.lesk`` (for nouns,
    verbs and adverbs; for adjectives NLTK also drops satellite synsets).
    """

    def _scores(self, inst: Instance, senses: list[Sense]) -> list[float]:
        return self.overlaps(inst, senses)

    def overlaps(self, inst: Instance, senses: Sequence[Sense]) -> list[float]:
        """Each of ``senses``' score: the distinct context words its signature shares."""
        context = self.context_set(inst)
        return [len(context & self._word_set(sense)) for sense in senses]

    def shared_words(self, inst: Instance, sense: Sense) -> list[str]:
        """The context words the sense's signature shares, which its score counts: why it
        scored (sorted)."""
        return sorted(self.context_set(inst) & self._word_set(sense))


class OriginalLesk(_Lesk):
    """Gloss-to-gloss overlap (Lesk 1986): each target sense is compared with the senses of
    every context word that the inventory knows.

    For one context word, ``combine="max"`` (default) takes its best-matching sense (Lesk's
    "which sense of pine fits a sense of cone"), ``"sum"`` adds over all its senses; the
    target sense's score is the sum over context words. Overlaps count distinct shared
    words of the two signatures (gloss + examples). Other options as SimplifiedLesk.
    """

    def __init__(self, inventory=None, combine: str = "max", **options) -> None:
        super().__init__(inventory, **options)
        if combine not in ("max", "sum"):
            raise ValueError(f"combine must be 'max' or 'sum', not {combine!r}")
        self.combine = combine

    def context_senses(self, inst: Instance) -> list[list[Sense]]:
        """The inventory senses of each context word (words without senses are skipped)."""
        inventory = self._inventory()
        found = []
        for word, letter in self.context_words(inst):
            senses = inventory.senses(word, letter)
            if senses:
                found.append(senses)
        return found

    def _relatedness(self, sense: Sense, other: Sense) -> float:
        return len(self._word_set(sense) & self._word_set(other))

    def _scores(self, inst: Instance, senses: list[Sense]) -> list[float]:
        neighbours = self.context_senses(inst)
        pick = max if self.combine == "max" else sum
        return [
            sum(pick(self._relatedness(sense, other) for other in word) for word in neighbours)
            for sense in senses
        ]


class ExtendedLesk(OriginalLesk):
    """Extended Lesk (Banerjee & Pedersen 2003): signatures hold the gloss (+ examples) and
    the glosses of related synsets (``inventory.related_glosses``: hypernyms, hyponyms,
    meronyms, holonyms, also-sees, similar-tos, attributes, pertainyms, ...), and every
    phrase of n consecutive words the two sides share scores n² (see :func:`phrase_overlap`;
    stopwords are removed first, so phrases are runs of the remaining words).

    ``compare="glosses"`` is the gloss-to-gloss measure of the paper: each target sense
    against the extended signatures of the senses of the context words within ``window``
    tokens (default 5 here, as the measure is quadratic in the context and a small window
    did best on the development set; None = the sentence), combined over senses by
    ``combine`` like OriginalLesk. ``compare="context"`` matches each extended signature
    against the context words in sentence order instead (faster, and the only useful mode
    with the bundled inventory, whose only senses are those of its targets). The default,
    None, picks "glosses" for WordNet (the inventory by default) and "context" otherwise.
    """

    def __init__(
        self, inventory=None, compare: str | None = None, window: int | None = 5, **options
    ) -> None:
        super().__init__(inventory, window=window, **options)
        if compare not in ("context", "glosses", None):
            raise ValueError(f"compare must be 'context', 'glosses' or None, not {compare!r}")
        self.compare = compare

    def _compare(self) -> str:
        if self.compare is not None:
            return self.compare
        return "glosses" if isinstance(self._inventory(), WordNetInventory) else "context"

    def _sequence(self, sense: Sense) -> tuple[str | None, ...]:
        key = ("extended", sense.id)
        if key not in self._signatures:
            norm = self._normaliser()
            texts = self._gloss_texts(sense) + list(self._inventory().related_glosses(sense))
            sequence: list[str | None] = []
            for text in texts:
                sequence.extend(norm.text(text))
                sequence.append(_BOUNDARY)
            self._signatures[key] = tuple(sequence)
        return self._signatures[key]  # type: ignore[return-value]

    def _relatedness(self, sense: Sense, other: Sense) -> float:
        return phrase_overlap(self._sequence(sense), self._sequence(other))

    def _scores(self, inst: Instance, senses: list[Sense]) -> list[float]:
        if self._compare() == "glosses":
            return super()._scores(inst, senses)
        context = [word for word, _ in self.context_words(inst)]
        return [phrase_overlap(context, self._sequence(sense)) for sense in senses]


def log_prior(senses: Sequence[Sense], extra: Mapping[str, int], smoothing: float) -> list[float]:
    """``log P(s)`` of each sense: ``(count(s) + extra(s) + smoothing) / Σ (...)`` with
    ``count`` the inventory's (WordNet's ``lemma.count()``) and ``extra`` training counts."""
    counts = [sense.count + extra.get(sense.id, 0) + smoothing for sense in senses]
    total = sum(counts)
    return [math.log(count / total) for count in counts]


class LeskWithPrior(InstanceSystem):
    """A Lesk variant combined with sense frequencies: ``score = P(s) · (1 + overlap)^weight``.

    (Compared as ``log P(s) + weight · log(1 + overlap)``.) ``P(s)`` is ``(count(s) +
    smoothing) / Σ (count + smoothing)`` over the lemma's senses, with counts from the
    inventory (WordNet ``lemma.count()``) plus, after ``fit``, the training instances' gold
    senses. With no counts at all the prior is uniform and the system ranks like its Lesk
    variant; ties go to the inventory's first sense. The defaults (``SimplifiedLesk()``,
    ``weight=2``, ``smoothing=1``) were chosen on semeval2007, where a broad range of
    weights (1-3) and smoothings (0.5-2) scored alike. Unlike the pure variants, this uses
    sense-frequency data.
    """

    def __init__(
        self, lesk: _Lesk | None = None, weight: float = 2.0, smoothing: float = 1.0
    ) -> None:
        if smoothing <= 0:
            raise ValueError(f"smoothing must be > 0 (it keeps log P finite), not {smoothing!r}")
        self.lesk = lesk
        self.weight = weight
        self.smoothing = smoothing

    def _system(self) -> _Lesk:
        if self.lesk is None:
            self.lesk = SimplifiedLesk()
        return self.lesk

    def fit(self, instances: Sequence[Instance] = ()) -> LeskWithPrior:
        """Add the training instances' first gold senses to the sense counts."""
        self.counts_ = Counter(inst.senses[0] for inst in instances if inst.senses)
        self._system().fit(instances)
        return self

    def sense_terms(self, inst: Instance) -> list[tuple[Sense, float, float]]:
        """Every candidate sense with the two terms of its score, in inventory order: ``log
        P(s)`` and ``weight · log(1 + overlap)``."""
        scored = self._system().sense_scores(inst)
        priors = log_prior([sense for sense, _ in scored], getattr(self, "counts_", Counter()),
                           self.smoothing)
        return [(sense, prior, self.weight * math.log1p(overlap))
                for (sense, overlap), prior in zip(scored, priors, strict=True)]  # fmt: skip

    def sense_scores(self, inst: Instance) -> list[tuple[Sense, float]]:
        """Every candidate sense with its combined score, in inventory order."""
        return [(sense, prior + overlap) for sense, prior, overlap in self.sense_terms(inst)]

    def answer(self, inst: Instance) -> Answer:
        scored = self.sense_scores(inst)
        return _first_best(scored)[0].id if scored else None


__all__ = [
    "ExtendedLesk",
    "LeskWithPrior",
    "OriginalLesk",
    "SimplifiedLesk",
    "log_prior",
    "phrase_overlap",
    "tag_letter",
]
