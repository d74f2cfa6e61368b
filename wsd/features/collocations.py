"""Local collocations as in IMS (Zhong & Ng 2010): ordered n-grams around the target.

``coll(-1,1)=the_played`` is the word before the target joined to the word after it. Offsets
skip the target span (C(-1,1) spans the target without including it), words are joined with
``_``, and positions past the sentence edges read ``<s>`` / ``</s>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from wsd.features.extractors import Extractor, around
from wsd.instance import Instance
from wsd.validation import MAX_OFFSET

IMS_COLLOCATIONS: tuple[tuple[int, int], ...] = (
    (-2, -2), (-1, -1), (1, 1), (2, 2),
    (-2, -1), (-1, 1), (1, 2),
    (-3, -1), (-2, 1), (-1, 2), (1, 3),
)  # fmt: skip


def _positions(i: int, j: int) -> tuple[int, ...]:
    return tuple(o for o in range(i, j + 1) if o != 0)


@dataclass(frozen=True)
class Collocations(Extractor):
    """The words at offsets i..j (0, the target, left out) for each (i, j) in ``spans``."""

    spans: Sequence[Sequence[int]] = IMS_COLLOCATIONS
    lowercase: bool = True
    _reach: tuple[int, int] = field(init=False, repr=False, compare=False)
    _takes: tuple[tuple[str, Any, Any], ...] = field(init=False, repr=False, compare=False)

    name = "collocations"

    def __post_init__(self) -> None:
        spans = tuple((int(i), int(j)) for i, j in self.spans)
        for i, j in spans:
            if max(abs(i), abs(j)) > MAX_OFFSET:
                raise ValueError(f"collocation ({i},{j}) reaches beyond {MAX_OFFSET} words of the "
                                 "target")
            if i > j or not _positions(i, j):
                raise ValueError(f"collocation ({i},{j}) must have i <= j and a non-target word")
        object.__setattr__(self, "spans", spans)  # a tuple of pairs, also after a JSON round trip
        left = max([0] + [-i for i, _ in spans])
        right = max([0] + [j for _, j in spans])
        # Each n-gram as indices into the ``around(tokens, span, left, right)`` list.
        plan = tuple(
            (
                f"coll({i},{j})=",
                tuple(left + o if o < 0 else left + o - 1 for o in _positions(i, j)),
            )
            for i, j in spans
        )
        object.__setattr__(self, "_reach", (left, right))
        # Per n-gram: its words taken at once (one word: itself, several: joined by "_").
        takes = tuple((prefix, itemgetter(*ks), "_".join if len(ks) > 1 else str)
                      for prefix, ks in plan)  # fmt: skip
        object.__setattr__(self, "_takes", takes)

    def __call__(self, inst: Instance) -> dict[str, float]:
        words = around(inst.tokens, inst.span, *self._reach)
        if self.lowercase:
            words = [w.lower() for w in words]
        return {prefix + join(take(words)): 1.0 for prefix, take, join in self._takes}
