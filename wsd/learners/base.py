"""What every learner shares: scikit-learn's estimator protocol, scoring, NLTK's ClassifierI
and JSON persistence."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from wsd import persistence, validation
from wsd.learners.inputs import as_sklearn
from wsd.params import ParamsMixin


class NotFittedError(ValueError, AttributeError):
    """A learner was asked to predict (or explain, or save its weights) before ``fit``."""


def check_is_fitted(learner: Any, attribute: str = "classes_") -> None:
    """Raise NotFittedError unless ``learner`` has been trained."""
    if not hasattr(learner, attribute):
        raise as_sklearn(NotFittedError)(f"this {type(learner).__name__} is not fitted yet; "
                                         "call fit() before using it")


class ScoreMixin:
    """``score(X, y)``: the fraction of examples whose predicted label equals the gold one."""

    def score(self, X: Any, y: Sequence[Hashable]) -> float:
        labels = list(y)
        predictions = self.predict(X)
        if len(predictions) != len(labels):
            raise ValueError(f"X has {len(predictions)} examples but y has {len(labels)} labels")
        if not labels:
            raise ValueError("cannot score on no examples")
        return sum(p == g for p, g in zip(predictions, labels, strict=True)) / len(labels)


class EstimatorMixin(ParamsMixin):
    """scikit-learn's estimator protocol without importing scikit-learn: the parameters of
    ``ParamsMixin`` plus the tags its tools read (``__sklearn_tags__`` imports scikit-learn,
    which only its own tools call) and ``__sklearn_is_fitted__``.

    Subclasses describe themselves with ``_tags`` (overrides of scikit-learn's InputTags /
    ClassifierTags fields, e.g. ``{"sparse": True}`` or ``{"multi_class": False}``).
    """

    _tags: dict[str, Any] = {}

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "classes_")

    def __sklearn_tags__(self):
        # optional: scikit-learn
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        def pick(kind: type) -> dict[str, Any]:
            names = {f.name for f in fields(kind)}
            return {k: v for k, v in self._tags.items() if k in names}

        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(**pick(ClassifierTags)),
                    input_tags=InputTags(**pick(InputTags)))


class PersistentMixin:
    """``to_dict``/``from_dict`` and ``save``/``load`` for learners.

    Subclasses provide ``_get_state()`` (a JSON-able dict of what training learned) and
    ``_set_state(state)``; constructor arguments are stored as given (scikit-learn style), so
    ``get_params()`` reads them back by name.
    """

    def to_dict(self) -> dict[str, Any]:
        fitted = hasattr(self, "classes_")
        data = {"kind": type(self).__name__, "params": to_plain(self.get_params(deep=False)),
                "state": self._get_state() if fitted else None}
        if fitted and hasattr(self, "n_features_in_"):
            data["n_features"] = self.n_features_in_
        if hasattr(self, "temperature_"):
            data["temperature"] = self.temperature_
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        if data.get("kind") != cls.__name__:
            raise ValueError(f"expected a {cls.__name__} model, found {data.get('kind')!r}")
        learner = cls(**validation.check_params(cls, data["params"]))
        if validation.check_state(data.get("state")) is not None:
            learner._set_state(data["state"])
        for key, attribute in (("n_features", "n_features_in_"), ("temperature", "temperature_")):
            if data.get(key) is not None:
                setattr(learner, attribute, data[key])
        return learner

    def save(self, path: str | Path) -> Path:
        """Write the learner to ``path`` as a versioned JSON model file."""
        return persistence.save_model(self, path)

    @classmethod
    def load(cls, path: str | Path):
        """Read a learner written by ``save``; ValueError if the file holds something else."""
        return persistence.load_model(path, expected=cls)


def to_plain(value: Any) -> Any:
    """Numpy scalars (e.g. a seed drawn with numpy) as plain Python values for JSON."""
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [to_plain(v) for v in value]
    return value.item() if hasattr(value, "item") and not isinstance(value, str) else value
