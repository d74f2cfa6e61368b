"""What every learner shares: input checks with clear messages, scoring, NLTK's ClassifierI
and JSON persistence."""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Hashable, Mapping, Sequence
from math import isfinite
from pathlib import Path
from typing import Any

from nltk.classify.api import ClassifierI

from wsd import persistence, validation

# A feature dict after checking: (name, value) pairs with finite non-zero float values.
Example = tuple[tuple[str, float], ...]


class NotFittedError(ValueError, AttributeError):
    """A learner was asked to predict (or explain, or save its weights) before ``fit``."""


def check_epochs(epochs: Any) -> int:
    """``epochs`` as an int >= 1, or ValueError."""
    if isinstance(epochs, bool) or not isinstance(epochs, numbers.Integral) or epochs < 1:
        raise ValueError(f"epochs must be an integer >= 1, got {epochs!r}")
    return int(epochs)


def check_labels(y: Sequence[Hashable], n_examples: int, what: str = "y") -> list:
    """The labels as a list; ValueError for empty data or a length that does not match X."""
    labels = list(y)
    if n_examples == 0:
        raise ValueError("no training examples: X is empty")
    if len(labels) != n_examples:
        raise ValueError(f"X has {n_examples} examples but {what} has {len(labels)} labels; "
                         "they must match one to one")
    return labels


def sorted_classes(labels: Sequence[Hashable], minimum: int = 2) -> list:
    """The distinct labels in sorted order (the order of ``classes_``).

    A single class is refused: a word-sense classifier must choose between >= 2 senses.
    """
    try:
        classes = sorted(set(labels))
    except TypeError as err:
        raise ValueError(f"labels must be mutually comparable (e.g. all strings): {err}") from err
    if len(classes) < minimum:
        found = f"only the label {classes[0]!r}" if classes else "no labels"
        raise ValueError(
            f"the training data has {found}; a word-sense classifier needs at least two "
            "senses to choose from. For a word with one observed sense use the "
            "most-frequent-sense baseline (MFS) instead")
    return classes


def check_feature_dicts(X: Sequence[Mapping[str, float]], what: str = "X") -> list[Example]:
    """Check every feature dict once and return it as (name, float value) pairs.

    Feature names must be strings (they become JSON keys in model files) and values finite
    real numbers; zero values are dropped since they neither score nor update.
    """
    examples = []
    for i, features in enumerate(X):
        if not isinstance(features, Mapping):
            raise ValueError(f"{what}[{i}] is a {type(features).__name__}, expected a feature "
                             "dict {name: value}")
        pairs = []
        for name, value in features.items():
            if not isinstance(name, str):
                raise ValueError(f"{what}[{i}] has a feature name {name!r} of type "
                                 f"{type(name).__name__}; feature names must be strings")
            if type(value) is not float:  # the common case skips the slower ABC check
                if not isinstance(value, numbers.Real):
                    raise ValueError(f"{what}[{i}] feature {name!r} has the non-numeric value "
                                     f"{value!r}; feature values must be real numbers")
                value = float(value)
            if not isfinite(value):
                raise ValueError(f"{what}[{i}] feature {name!r} has the value {value}; "
                                 "feature values must be finite (no NaN or inf)")
            if value != 0.0:
                pairs.append((name, value))
        examples.append(tuple(pairs))
    return examples


def check_is_fitted(learner: Any, attribute: str = "classes_") -> None:
    """Raise NotFittedError unless ``learner`` has been trained."""
    if getattr(learner, attribute, None) is None:
        raise NotFittedError(f"this {type(learner).__name__} is not fitted yet; call fit() "
                             "before using it")


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


class DictClassifierMixin(ScoreMixin, ClassifierI):
    """NLTK's ClassifierI on top of ``predict`` over feature dicts, so that
    ``nltk.classify.accuracy(clf, [(features, label), ...])`` works."""

    def classify(self, featureset: Mapping[str, float]) -> Hashable:
        return self.predict([featureset])[0]

    def classify_many(self, featuresets: Sequence[Mapping[str, float]]) -> list:
        return self.predict(featuresets)

    def labels(self) -> list:
        check_is_fitted(self)
        return list(self.classes_)


class PersistentMixin:
    """``to_dict``/``from_dict`` and ``save``/``load`` for learners.

    Subclasses provide ``_get_state()`` (a JSON-able dict of what training learned) and
    ``_set_state(state)``; constructor arguments are stored as given (scikit-learn style), so
    ``get_params()`` reads them back by name.
    """

    def get_params(self) -> dict[str, Any]:
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: getattr(self, name) for name in names}

    def to_dict(self) -> dict[str, Any]:
        fitted = getattr(self, "classes_", None) is not None
        return {"kind": type(self).__name__, "params": to_plain(self.get_params()),
                "state": self._get_state() if fitted else None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]):
        if data.get("kind") != cls.__name__:
            raise ValueError(f"expected a {cls.__name__} model, found {data.get('kind')!r}")
        learner = cls(**validation.check_params(cls, data["params"]))
        if validation.check_state(data.get("state")) is not None:
            learner._set_state(data["state"])
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
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value.item() if hasattr(value, "item") and not isinstance(value, str) else value
