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
    return _REGISTRY[name](**dict(config.get("params", {})))


def neighbour(seq: Sequence[str], span: tuple[int, int], offset: int) -> str:
    """The item ``offset`` positions away from the target span, padded at the sentence edges.

    Negative offsets count left from the span's start (-1 is the token just before it), positive
    offsets count right from its end (+1 is the token just after it), so the target itself, one
    token or several, is never returned. Offset 0 is not allowed.
    """
    if offset < 0:
        index = span[0] + offset
        return seq[index] if index >= 0 else LEFT_PAD
    if offset > 0:
        index = span[1] + offset - 1
        return seq[index] if index < len(seq) else RIGHT_PAD
    raise ValueError("offset 0 is the target itself; use the target extractor for it")


def check_window(window: int | None, *, allow_none: bool) -> None:
    """ValueError unless ``window`` is a positive int (or None when allowed)."""
    if window is None and allow_none:
        return
    if not isinstance(window, int) or isinstance(window, bool) or window < 1:
        hint = "a positive number of tokens"
        if allow_none:
            hint += " or None for the whole sentence"
        raise ValueError(f"window must be {hint}, got {window!r}")
