"""Feature dicts to ``scipy.sparse`` CSR matrices over a stable, fitted vocabulary.

The vocabulary is the training features kept by ``min_count``, sorted alphabetically (Python
string order), so column numbers do not depend on the order of the training data and are the
same on every run. Features outside the vocabulary are dropped at transform time, and zero
values are not stored, so ``inverse_transform(transform(dicts))`` gives back every dict whose
values are non-zero and whose features are all in the vocabulary exactly (with float64).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd.features.records import check_record
from wsd.features.weighting import document_frequencies

FORMAT = "wsd.vectorizer"
VERSION = 1

if TYPE_CHECKING:  # scipy.sparse is imported on use: reading raw text needs none of it
    from scipy.sparse import csr_matrix


class FeatureVectorizer:
    """Fit a vocabulary on training dicts; map dicts to CSR rows and back.

    ``min_count``: keep features that occur (with a non-zero value) in at least this many
    training dicts. ``dtype``: the matrix's number type.
    """

    def __init__(self, min_count: int = 1, dtype: Any = np.float64) -> None:
        self.min_count = min_count
        self.dtype = dtype

    def fit(self, dicts: Iterable[Mapping[str, float]]) -> FeatureVectorizer:
        if not isinstance(self.min_count, int) or self.min_count < 1:
            raise ValueError(f"min_count must be a positive int, got {self.min_count!r}")
        counts = document_frequencies(dicts)
        names = sorted(f for f, c in counts.items() if c >= self.min_count)
        self._set_vocabulary(names)
        return self

    def _set_vocabulary(self, names: list[str]) -> None:
        self.feature_names_ = names
        self.vocabulary_ = {f: j for j, f in enumerate(names)}

    def _check_fitted(self) -> None:
        if not hasattr(self, "vocabulary_"):
            raise ValueError("FeatureVectorizer is not fitted: call fit(training dicts) first")

    def transform(self, dicts: Iterable[Mapping[str, float]]) -> csr_matrix:
        """CSR matrix with one row per dict; unknown features and zero values are dropped."""
        self._check_fitted()
        lookup = self.vocabulary_.get
        columns: list[int] = []
        values: list[float] = []
        row_lengths: list[int] = []
        for features in dicts:  # C-level map/extend: unknown features get column -1 for now
            columns.extend(map(lookup, features, repeat(-1, len(features))))
            values.extend(features.values())
            row_lengths.append(len(features))
        cols = np.asarray(columns, dtype=np.int64)
        data = np.asarray(values, dtype=self.dtype)
        rows = np.repeat(np.arange(len(row_lengths)), row_lengths)
        keep = (cols >= 0) & (data != 0)
        indptr = np.zeros(len(row_lengths) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows[keep], minlength=len(row_lengths)), out=indptr[1:])
        from scipy.sparse import csr_matrix

        matrix = csr_matrix(
            (data[keep], cols[keep].astype(np.int32), indptr),
            shape=(len(row_lengths), len(self.vocabulary_)),
        )
        matrix.sort_indices()
        return matrix

    def fit_transform(self, dicts: Sequence[Mapping[str, float]]) -> csr_matrix:
        return self.fit(dicts).transform(dicts)

    def inverse_transform(self, matrix: Any) -> list[dict[str, float]]:
        """One ``{feature: value}`` dict per row, with the stored non-zero entries."""
        self._check_fitted()
        from scipy.sparse import csr_matrix

        matrix = csr_matrix(matrix)
        names = self.feature_names_
        rows = []
        for i in range(matrix.shape[0]):
            lo, hi = matrix.indptr[i], matrix.indptr[i + 1]
            cols, vals = matrix.indices[lo:hi].tolist(), matrix.data[lo:hi].tolist()
            rows.append({names[j]: v for j, v in zip(cols, vals, strict=True) if v})
        return rows

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: format, version, min_count, dtype and the vocabulary in column order."""
        self._check_fitted()
        return {
            "format": FORMAT,
            "version": VERSION,
            "min_count": self.min_count,
            "dtype": np.dtype(self.dtype).name,
            "feature_names": list(self.feature_names_),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FeatureVectorizer:
        check_record(data, FORMAT, VERSION)
        vectorizer = cls(min_count=data["min_count"], dtype=np.dtype(data["dtype"]))
        vectorizer._set_vocabulary(list(data["feature_names"]))
        return vectorizer
