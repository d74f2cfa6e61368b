"""Feature weighting fitted on training contexts only, then applied unchanged to new ones.

All weightings map feature dicts (the extractors' counts) to weighted feature dicts, row by
row: the weights of one instance depend only on that instance and on the fitted state, never on
the other instances being transformed, so no test data can leak into a model.

- ``binary``: 1.0 for every feature present.
- ``count``: the raw counts.
- ``tfidf``: ``tf * idf`` with the smoothed idf ``idf(f) = ln((1 + N) / (1 + df(f))) + 1``, N the
  number of training contexts and df(f) how many of them contain f (scikit-learn's
  ``smooth_idf=True``). A feature never seen in training has df = 0. ``norm="l2"`` (default)
  scales each row to unit Euclidean length; ``norm=None`` leaves it.
- ``ppmi``: positive pointwise mutual information on the training instance x feature count
  matrix C with total T: ``ppmi(i, f) = max(0, ln(p(i, f) / (p(i) p(f))))
  = max(0, ln(C[i, f] T / (rowsum_i colsum_f)))``. For any row x, new or old, we use p(f|x) =
  x_f / rowsum_x from the row itself and p(f) = colsum_f / T from training:
  ``ppmi(x, f) = max(0, ln((x_f / rowsum_x) / (colsum_f / T)))``. For a training row this is
  the formula above exactly; features unseen in training (p(f) = 0) are dropped and do not
  count in rowsum_x. Zero-weight features are left out of the result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from operator import methodcaller
from typing import Any, ClassVar

from wsd.features.records import check_record
from wsd.validation import check_params, check_state

FORMAT = "wsd.weighting"
VERSION = 1

FeatureDict = Mapping[str, float]
_values = methodcaller("values")


def document_frequencies(dicts: Iterable[FeatureDict]) -> Counter[str]:
    """How many of the dicts hold each feature with a non-zero value."""
    dicts = list(dicts)
    if all(map(all, map(_values, dicts))):  # the usual case, counted at C speed
        return Counter(chain.from_iterable(dicts))
    return Counter(f for features in dicts for f, v in features.items() if v)


class Weighting:
    """Base class: ``fit`` on training dicts, ``transform`` any dicts row by row."""

    kind: ClassVar[str] = ""
    _registry: ClassVar[dict[str, type[Weighting]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            Weighting._registry[cls.kind] = cls

    def fit(self, dicts: Sequence[FeatureDict]) -> Weighting:
        """Learn the training statistics (none for binary and count)."""
        return self

    def transform_one(self, features: FeatureDict) -> dict[str, float]:
        """The weighted features of one instance (needs only it and the fitted state)."""
        raise NotImplementedError

    def transform(self, dicts: Iterable[FeatureDict]) -> list[dict[str, float]]:
        return [self.transform_one(d) for d in dicts]

    def fit_transform(self, dicts: Sequence[FeatureDict]) -> list[dict[str, float]]:
        return self.fit(dicts).transform(dicts)

    def params(self) -> dict[str, Any]:
        return {}

    def state(self) -> dict[str, Any]:
        return {}

    def load_state(self, state: Mapping[str, Any]) -> None:
        """Restore what ``state`` returned (stateless weightings have nothing to restore)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form: format, version, kind, params and the fitted state."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": self.kind,
            "params": self.params(),
            "state": self.state(),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Weighting:
        check_record(data, FORMAT, VERSION)
        kind = data["kind"]
        if kind not in Weighting._registry:
            raise ValueError(f"unknown weighting {kind!r}")
        params = check_params(Weighting._registry[kind], data.get("params", {}), "weighting")
        weighting = make_weighting(kind, **params)
        weighting.load_state(check_state(data.get("state", {}), "weighting state") or {})
        return weighting

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


def make_weighting(kind: str | Weighting, **params: Any) -> Weighting:
    """A weighting from its name (binary, count, tfidf, block-tfidf, ppmi) or the object."""
    if isinstance(kind, Weighting):
        return kind
    if kind not in Weighting._registry:
        raise ValueError(
            f"unknown weighting {kind!r}; choose one of {', '.join(sorted(Weighting._registry))}"
        )
    return Weighting._registry[kind](**params)


class _Fitted(Weighting):
    """A weighting with training statistics; transforming before ``fit`` is an error."""

    _fitted = False

    def _check_fitted(self) -> None:
        if not self._fitted:
            raise ValueError(f"{self.kind} weighting is not fitted: call fit(training dicts) first")

    def transform(self, dicts: Iterable[FeatureDict]) -> list[dict[str, float]]:
        self._check_fitted()
        return super().transform(dicts)

    def state(self) -> dict[str, Any]:
        self._check_fitted()
        return self._state()

    def _state(self) -> dict[str, Any]:
        raise NotImplementedError


class Binary(Weighting):
    """1.0 for every feature with a non-zero value."""

    kind = "binary"

    def transform_one(self, features: FeatureDict) -> dict[str, float]:
        if all(features.values()):  # the extractors' usual case: no zero to drop
            return dict.fromkeys(features, 1.0)
        return {f: 1.0 for f, v in features.items() if v}


class Count(Weighting):
    """The extractors' raw counts."""

    kind = "count"

    def transform_one(self, features: FeatureDict) -> dict[str, float]:
        return {f: float(v) for f, v in features.items() if v}


class TfIdf(_Fitted):
    """tf x smoothed idf from the training contexts, optionally l2-normalised per row."""

    kind = "tfidf"

    def __init__(self, norm: str | None = "l2") -> None:
        if norm not in ("l2", None):
            raise ValueError(f"norm must be 'l2' or None, got {norm!r}")
        self.norm = norm

    def params(self) -> dict[str, Any]:
        return {"norm": self.norm}

    def fit(self, dicts: Sequence[FeatureDict]) -> TfIdf:
        df = document_frequencies(dicts)
        self.n_contexts_ = len(dicts)
        self.idf_ = {f: math.log((1 + self.n_contexts_) / (1 + d)) + 1.0 for f, d in df.items()}
        self._unseen_idf = math.log(1 + self.n_contexts_) + 1.0
        self._fitted = True
        return self

    def transform_one(self, features: FeatureDict) -> dict[str, float]:
        idf, unseen = self.idf_, self._unseen_idf
        weighted = {f: v * idf.get(f, unseen) for f, v in features.items() if v}
        if self.norm == "l2" and weighted:
            length = math.hypot(*weighted.values())
            weighted = {f: w / length for f, w in weighted.items()}
        return weighted

    def _state(self) -> dict[str, Any]:
        return {"n_contexts": self.n_contexts_, "idf": self.idf_}

    def load_state(self, state: Mapping[str, Any]) -> None:
        self.n_contexts_ = int(state["n_contexts"])
        self.idf_ = {f: float(v) for f, v in state["idf"].items()}
        self._unseen_idf = math.log(1 + self.n_contexts_) + 1.0
        self._fitted = True


class BlockTfIdf(TfIdf):
    """Presence x smoothed idf, l2-normalised separately within two blocks of features.

    Features whose names start with ``prefix`` (default ``bow=``, the bag of words) form one
    block, all others the local block; each block is scaled to unit Euclidean length and the
    first one multiplied by ``bow_weight``. The idf is ``TfIdf``'s, fitted the same way:
    ``ln((1 + N) / (1 + df)) + 1`` from the training contexts (unseen features: df = 0).
    """

    kind = "block-tfidf"

    def __init__(self, bow_weight: float = 0.85, prefix: str = "bow=") -> None:
        super().__init__(norm="l2")
        if (
            isinstance(bow_weight, bool)
            or not isinstance(bow_weight, (int, float))
            or not (bow_weight > 0)
        ):
            raise ValueError(f"bow_weight must be a positive number, got {bow_weight!r}")
        self.bow_weight = float(bow_weight)
        self.prefix = prefix

    def params(self) -> dict[str, Any]:
        return {"bow_weight": self.bow_weight, "prefix": self.prefix}

    def transform_one(self, features: Mapping[str, float]) -> dict[str, float]:
        idf, unseen, prefix = self.idf_, self._unseen_idf, self.prefix
        bow: dict[str, float] = {}
        local: dict[str, float] = {}
        for f, v in features.items():
            if v:
                (bow if f.startswith(prefix) else local)[f] = idf.get(f, unseen)
        weighted: dict[str, float] = {}
        for block, scale in ((bow, self.bow_weight), (local, 1.0)):
            if block:
                factor = scale / math.sqrt(sum(w * w for w in block.values()))
                weighted.update((f, w * factor) for f, w in block.items())
        return weighted


class PPMI(_Fitted):
    """Positive PMI against the training column sums (see the module docstring).

    Counts must be non-negative; zero and negative values are ignored.
    """

    kind = "ppmi"

    def fit(self, dicts: Sequence[FeatureDict]) -> PPMI:
        column: dict[str, float] = {}
        for features in dicts:
            for f, v in features.items():
                if v > 0:
                    column[f] = column.get(f, 0.0) + float(v)
        self.column_sums_ = column
        self.total_ = sum(column.values())
        self._fitted = True
        return self

    def transform_one(self, features: FeatureDict) -> dict[str, float]:
        column, total = self.column_sums_, self.total_
        known = {f: float(v) for f, v in features.items() if v > 0 and f in column}
        row_sum = sum(known.values())
        weighted = {}
        for f, v in known.items():
            pmi = math.log(v * total / (row_sum * column[f]))
            if pmi > 0.0:
                weighted[f] = pmi
        return weighted

    def _state(self) -> dict[str, Any]:
        return {"total": self.total_, "column_sums": self.column_sums_}

    def load_state(self, state: Mapping[str, Any]) -> None:
        self.column_sums_ = {f: float(v) for f, v in state["column_sums"].items()}
        self.total_ = float(state["total"])
        self._fitted = True
