"""The extractor contract: callables ``Instance -> dict[str, float]`` rebuilt from their config.

Every concrete extractor is a frozen dataclass whose init fields are its whole configuration, so
``extractor_to_dict`` / ``extractor_from_dict`` let a saved model featurize new text exactly as at
training time. Subclasses register themselves under their ``name``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, ClassVar

from wsd.instance import Instance
from wsd.validation import check_params

LEFT_PAD = "<s>"
RIGHT_PAD = "</s>"

_REGISTRY: dict[str, type[Extractor]] = {}


class Extractor:
    """Base class: a named, configurable feature extractor."""

    name: ClassVar[str] = ""
    uses_pos: ClassVar[bool] = False  # True when the features read ``inst.pos``

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            _REGISTRY[cls.name] = cls

    def __call__(self, inst: Instance) -> dict[str, float]:
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        """The constructor arguments that rebuild this extractor."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}  # type: ignore[arg-type]


def extractor_names() -> list[str]:
    """Names accepted by ``extractor_from_dict`` (sorted)."""
    return sorted(_REGISTRY)


def extractor_to_dict(extractor: Any) -> dict[str, Any]:
    """``{"name": ..., "params": {...}}`` for a built-in extractor (ValueError for others)."""
    if not isinstance(extractor, Extractor) or not extractor.name:
        raise ValueError(
            f"extractor {extractor!r} cannot be saved: only the built-in extractors "
            f"({', '.join(extractor_names())}) can be rebuilt from a model file"
        )
    return {"name": extractor.name, "params": extractor.params()}


def extractor_from_dict(config: Mapping[str, Any]) -> Extractor:
    """Rebuild an extractor from ``extractor_to_dict`` output."""
    name = config.get("name")
    if name not in _REGISTRY:
        raise ValueError(
            f"unknown feature extractor {name!r}; known: {', '.join(extractor_names())}"
        )
    return _REGISTRY[name](**check_params(_REGISTRY[name], config.get("params", {}), name))


def around(seq: Sequence[str], span: tuple[int, int], left: int, right: int) -> list[str]:
    """The ``left`` items before the target span and the ``right`` items after it, padded.

    Offsets count from the span's edges (-1 is the item just before its first token, +1 the
    item just after its last), so the target itself, one token or several, is never included.
    Positions past the sentence edges read ``<s>`` / ``</s>``. The result is in offset order
    -left..-1, +1..+right: offset o < 0 is at index ``left + o``, o > 0 at ``left + o - 1``.
    """
    start, end = span
    before = list(seq[max(0, start - left) : start])
    after = list(seq[end : end + right])
    return [LEFT_PAD] * (left - len(before)) + before + after + [RIGHT_PAD] * (right - len(after))


def check_window(window: int | None, *, allow_none: bool) -> None:
    """ValueError unless ``window`` is a positive int (or None when allowed)."""
    if window is None and allow_none:
        return
    if not isinstance(window, int) or isinstance(window, bool) or window < 1:
        hint = "a positive number of tokens"
        if allow_none:
            hint += " or None for the whole sentence"
        raise ValueError(f"window must be {hint}, got {window!r}")
