"""Words and POS tags at fixed offsets from the target: ``w-1=the``, ``pos+2=NN``.

Offsets are relative to the target span (-1 is just before its first token, +1 just after its
last), and positions past the sentence edges read ``<s>`` / ``</s>``, so "the target starts the
sentence" is itself a feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wsd.features.extractors import Extractor, check_window, neighbour
from wsd.instance import Instance


def _offsets(window: int) -> tuple[int, ...]:
    return tuple(range(-window, 0)) + tuple(range(1, window + 1))


def _label(offset: int) -> str:
    return f"{offset:+d}"  # -1, +2


@dataclass(frozen=True)
class PositionalWords(Extractor):
    """The word at each offset -window..-1, +1..+window: ``w-1=the``, ``w+1=player``."""

    window: int = 2
    lowercase: bool = True
    _prefixes: tuple[tuple[int, str], ...] = field(init=False, repr=False, compare=False)

    name = "words"

    def __post_init__(self) -> None:
        check_window(self.window, allow_none=False)
        prefixes = tuple((o, f"w{_label(o)}=") for o in _offsets(self.window))
        object.__setattr__(self, "_prefixes", prefixes)

    def __call__(self, inst: Instance) -> dict[str, float]:
        tokens, span = inst.tokens, inst.span
        if self.lowercase:
            return {p + neighbour(tokens, span, o).lower(): 1.0 for o, p in self._prefixes}
        return {p + neighbour(tokens, span, o): 1.0 for o, p in self._prefixes}


@dataclass(frozen=True)
class PosTags(Extractor):
    """The POS tag at each offset -window..-1, +1..+window: ``pos-1=DT``, ``pos+2=NN``.

    Reads ``inst.pos``; an instance without tags yields no features (see ``ensure_pos``).
    """

    window: int = 3
    _prefixes: tuple[tuple[int, str], ...] = field(init=False, repr=False, compare=False)

    name = "pos"
    uses_pos = True

    def __post_init__(self) -> None:
        check_window(self.window, allow_none=False)
        prefixes = tuple((o, f"pos{_label(o)}=") for o in _offsets(self.window))
        object.__setattr__(self, "_prefixes", prefixes)

    def __call__(self, inst: Instance) -> dict[str, float]:
        tags, span = inst.pos, inst.span
        if tags is None:
            return {}
        return {p + neighbour(tags, span, o): 1.0 for o, p in self._prefixes}
