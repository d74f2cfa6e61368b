"""Words and POS tags at fixed offsets from the target: ``w-1=the``, ``pos+2=NN``.

Offsets are relative to the target span (-1 is just before its first token, +1 just after its
last), and positions past the sentence edges read ``<s>`` / ``</s>``, so "the target starts the
sentence" is itself a feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wsd.features.extractors import Extractor, around, check_window
from wsd.instance import Instance


def _prefixes(name: str, window: int) -> tuple[str, ...]:
    """``name-window=`` .. ``name-1=``, ``name+1=`` .. ``name+window=``, in ``around`` order."""
    offsets = list(range(-window, 0)) + list(range(1, window + 1))
    return tuple(f"{name}{o:+d}=" for o in offsets)


@dataclass(frozen=True)
class PositionalWords(Extractor):
    """The word at each offset -window..-1, +1..+window: ``w-1=the``, ``w+1=player``."""

    window: int = 2
    lowercase: bool = True
    _prefixes: tuple[str, ...] = field(init=False, repr=False, compare=False)

    name = "words"

    def __post_init__(self) -> None:
        check_window(self.window, allow_none=False)
        object.__setattr__(self, "_prefixes", _prefixes("w", self.window))

    def __call__(self, inst: Instance) -> dict[str, float]:
        words = around(inst.tokens, inst.span, self.window, self.window)
        if self.lowercase:
            words = [w.lower() for w in words]
        return dict.fromkeys(map(str.__add__, self._prefixes, words), 1.0)


@dataclass(frozen=True)
class PosTags(Extractor):
    """The POS tag at each offset -window..-1, +1..+window: ``pos-1=DT``, ``pos+2=NN``.

    Reads ``inst.pos``; an instance without tags yields no features (see ``ensure_pos``).
    """

    window: int = 3
    _prefixes: tuple[str, ...] = field(init=False, repr=False, compare=False)

    name = "pos"
    uses_pos = True

    def __post_init__(self) -> None:
        check_window(self.window, allow_none=False)
        object.__setattr__(self, "_prefixes", _prefixes("pos", self.window))

    def __call__(self, inst: Instance) -> dict[str, float]:
        if inst.pos is None:
            return {}
        tags = around(inst.pos, inst.span, self.window, self.window)
        return dict.fromkeys(map(str.__add__, self._prefixes, tags), 1.0)
