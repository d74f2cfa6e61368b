"""The target's own form and POS: ``target=basses``, ``target_pos=NNS``.

A multiword target joins its tokens (and tags) with ``_``: ``target=ice_cream``,
``target_pos=NN_NN``.
"""

from __future__ import annotations

from dataclasses import dataclass

from wsd.features.extractors import Extractor
from wsd.instance import Instance


@dataclass(frozen=True)
class TargetWord(Extractor):
    """The target's surface form (``form``) and its POS tags from ``inst.pos`` (``pos``)."""

    form: bool = True
    pos: bool = True
    lowercase: bool = True

    name = "target"

    @property
    def uses_pos(self) -> bool:  # type: ignore[override]
        return self.pos

    def __call__(self, inst: Instance) -> dict[str, float]:
        start, end = inst.span
        features: dict[str, float] = {}
        if self.form:
            written = "_".join(inst.tokens[start:end])
            features["target=" + (written.lower() if self.lowercase else written)] = 1.0
        if self.pos and inst.pos is not None:
            features["target_pos=" + "_".join(inst.pos[start:end])] = 1.0
        return features
