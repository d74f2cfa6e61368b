"""A sentence's features counted once, each target's bag being the sentence's less its own span.

An all-words text asks for the bag of every content word of a sentence in turn; counting the
rest of the sentence afresh for each had cost a twentieth of the raw-text path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

SENTENCES_KEPT = 4096  # sentences whose bag is kept (a text's words are asked for key by key)


def float_counts(keys: Sequence[str]) -> dict[str, float]:
    """Each key's count as a float, in order of first occurrence ("" is no feature)."""
    counts = Counter(keys)
    counts.pop("", None)
    return {key: float(n) for key, n in counts.items()}


class SentenceBag:
    """The feature at each position of a sentence ("" for none), counted once."""

    __slots__ = ("keys", "counts", "first")

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = keys
        self.counts = float_counts(keys)
        self.first: dict[str, int] = {}
        for i, key in enumerate(keys):
            self.first.setdefault(key, i)

    def without(self, start: int, end: int) -> dict[str, float]:
        """``float_counts`` of the keys outside ``[start, end)``: the sentence's counts less
        the span's, or, where a key first seen inside the span occurs again (its place in the
        order could differ), the rest counted afresh."""
        counts = dict(self.counts)
        for key in self.keys[start:end]:
            if not key:
                continue
            left = counts[key] - 1.0
            if not left:
                del counts[key]
            elif self.first[key] >= start:
                return float_counts([*self.keys[:start], *self.keys[end:]])
            else:
                counts[key] = left
        return counts


class SentenceBags:
    """Bounded store of ``SentenceBag``s by sentence (the oldest goes first)."""

    def __init__(self) -> None:
        self._bags: dict[Hashable, SentenceBag] = {}

    def get(self, sentence: Hashable) -> SentenceBag | None:
        return self._bags.get(sentence)

    def add(self, sentence: Hashable, bag: SentenceBag) -> SentenceBag:
        if len(self._bags) >= SENTENCES_KEPT:
            del self._bags[next(iter(self._bags))]
        self._bags[sentence] = bag
        return bag
