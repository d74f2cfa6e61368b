"""The classifier of one ``lemma#pos``: its classes, feature rows, weights, biases and the
weighting fitted on its training data."""

from __future__ import annotations

import base64
import functools
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from wsd.features.weighting import Weighting

DENSE_PREFIX = "context:"  # the contextual block's feature names (ContextualEmbedding.name)
SCORED_TOGETHER = 512  # instances whose weight rows are gathered at once (bounded memory)


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

    def row_ids(self, names: Sequence[str]) -> np.ndarray:
        """The weight row of each feature name, -1 for names this classifier lacks."""
        rows = self.rows
        return np.fromiter((rows.get(f, -1) for f in names), dtype=np.int64, count=len(names))

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
        return self.scores_many([features], [dense], [extra])[0]

    def scores_many(self, features: Sequence[Mapping[str, float]],
                    dense: Sequence[np.ndarray | None],
                    extra: Sequence[Mapping[str, float] | None] | None = None,
                    ) -> list[np.ndarray]:  # fmt: skip
        """``scores`` of several instances: their feature names looked up together, then
        one product per instance of the rows it knows (the same sums as one at a time)."""
        return list(self.score_matrix(features, dense, extra))

    def score_matrix(self, features: Sequence[Mapping[str, float]],
                     dense: Sequence[np.ndarray | None],
                     extra: Sequence[Mapping[str, float] | None] | None = None,
                     ) -> np.ndarray:  # fmt: skip
        """``scores_many`` as one matrix, a row per instance (what the decisions sum on)."""
        extra = extra if extra is not None else [None] * len(features)
        chunks = []
        for at in range(0, len(features), SCORED_TOGETHER):
            part = slice(at, at + SCORED_TOGETHER)
            weighted = [self.weighted(f, e) for f, e in zip(features[part], extra[part],
                                                             strict=True)]  # fmt: skip
            chunks.append(self._sums(weighted, dense[part]))
        if len(chunks) == 1:
            return chunks[0]
        return np.concatenate(chunks) if chunks else np.zeros((0, len(self.classes)))

    def _sums(self, weighted: Sequence[Mapping[str, float]],
              dense: Sequence[np.ndarray | None]) -> np.ndarray:  # fmt: skip
        """Each instance's bias plus its weighted features' rows (and its dense row's), a row
        each: the known rows of all of them gathered at once, each instance's stretch of them
        (``bounds``) in its features' order, so the sums are those of one at a time."""
        found = self.row_ids(list(chain.from_iterable(weighted)))
        values = np.array(list(chain.from_iterable(w.values() for w in weighted)),
                          dtype=np.float64)  # fmt: skip
        known = found >= 0
        bounds = np.concatenate([[0], np.cumsum(known)])[np.cumsum([0, *map(len, weighted)])]
        # only the rows used are cast to float64 (exactly), not the whole matrix: no float64
        # copy of every classifier's weights stays in memory
        rows, values = self.coef[found[known]].astype(np.float64), values[known]
        totals = np.empty((len(weighted), len(self.intercept)))
        totals[:] = self.intercept  # each row: the bias plus (commutes exactly) its features'
        for k, (start, end) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist(),
                                                   strict=True)):
            if end > start:
                totals[k] += values[start:end] @ rows[start:end]
        if any(row is not None for row in dense):
            dims, dense_rows = self.dense_rows
            dense_weights = self.coef[dense_rows].astype(np.float64)  # gathered once
            for k, row in enumerate(dense):
                if row is not None:
                    totals[k] += row[dims].astype(np.float64) @ dense_weights
        return totals

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
