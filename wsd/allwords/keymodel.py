"""The classifier of one ``lemma#pos``: its classes, feature rows, weights, biases and the
weighting fitted on its training data."""

from __future__ import annotations

import base64
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from wsd.features.weighting import Weighting

DENSE_PREFIX = "context:"  # the contextual block's feature names (ContextualEmbedding.name)


def most_frequent(counts: Mapping[str, int]) -> str:
    """The label with the highest count, ties to the smallest label."""
    return min(counts.items(), key=lambda item: (-item[1], item[0]))[0]


def _pack(array: np.ndarray) -> str:
    """Little-endian float32 bytes in base64 (the JSON model format of version 1)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f4").tobytes()).decode("ascii")


def _unpack(text: str, n_columns: int) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f4").reshape(-1, n_columns).copy()


class KeyModel:
    """One key's linear classifier over its own feature names.

    Weights are kept as float32 (what every model file stores), so a loaded model scores
    exactly as the one that was trained; scores are summed in float64, feature by feature.
    """

    def __init__(
        self,
        classes: list[str],
        features: list[str],
        coef: np.ndarray,
        intercept: np.ndarray,
        weighting: Weighting,
    ) -> None:
        self.classes = classes
        self.features = features
        self.coef = np.asarray(coef, dtype=np.float32)
        self.intercept = np.asarray(intercept, dtype=np.float32)
        self.weighting = weighting

    @functools.cached_property
    def rows(self) -> dict[str, int]:
        """Feature name -> weight row, built on first use (a trained model that is only saved
        never needs it)."""
        return dict(zip(self.features, range(len(self.features)), strict=True))

    @functools.cached_property
    def dense_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(dimensions, weight rows)`` of the contextual block's features ``context:<j>``."""
        found = [(int(f[len(DENSE_PREFIX):]), i) for i, f in enumerate(self.features)
                 if f.startswith(DENSE_PREFIX)]
        dims, rows = zip(*found, strict=True) if found else ((), ())
        return np.array(dims, dtype=np.int64), np.array(rows, dtype=np.int64)

    def weighted(self, features: Mapping[str, float],
                 extra: Mapping[str, float] | None = None) -> dict[str, float]:
        """The weighted feature dict, plus ``extra`` features (the sense cosines) unweighted."""
        weighted = self.weighting.transform_one(features)
        return {**weighted, **extra} if extra else weighted

    def scores(self, features: Mapping[str, float], dense: np.ndarray | None = None,
               extra: Mapping[str, float] | None = None) -> np.ndarray:
        """One score per class for an unweighted feature dict and, with a contextual block,
        the instance's scaled ``dense`` row and its ``extra`` sense-cosine features (both
        bypass the weighting)."""
        total = self.intercept.astype(np.float64)
        rows = self.rows
        found = [(rows[f], v) for f, v in self.weighted(features, extra).items()
                 if f in rows]  # fmt: skip
        if found:  # one product of the rows it knows: a sum of rows had cost 6% of raw text
            ids, values = zip(*found, strict=True)
            total += np.array(values) @ self.coef[list(ids)].astype(np.float64)
        if dense is not None:
            dims, dense_rows = self.dense_rows
            total += dense[dims].astype(np.float64) @ self.coef[dense_rows].astype(np.float64)
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "classes": self.classes,
            "features": self.features,
            "coef": _pack(self.coef),
            "intercept": _pack(self.intercept),
            "weighting": self.weighting.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KeyModel:
        n_classes = len(data["classes"])
        return cls(
            classes=list(data["classes"]),
            features=list(data["features"]),
            coef=_unpack(data["coef"], n_classes),
            intercept=_unpack(data["intercept"], n_classes)[0],
            weighting=Weighting.from_dict(data["weighting"]),
        )
