"""What the feature-dict learners share: dicts or matrices in, scikit-learn's output shapes,
and NLTK's classifier idioms (``ClassifierI``'s methods, ``train``, ``prob_classify``,
``show_most_informative_features``). NLTK is imported only by ``prob_classify``: a learner
answers NLTK's classifier protocol without subclassing ``ClassifierI``, whose import costs
seconds (it loads all of NLTK, and scipy.stats through it)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from wsd.learners.base import ScoreMixin, check_is_fitted
from wsd.learners.inputs import (
    Example,
    check_feature_dicts,
    check_labels,
    check_matrix,
    is_feature_dicts,
    matrix_examples,
)

if TYPE_CHECKING:
    from nltk.probability import DictionaryProbDist  # NLTK: over a second to import


class DictClassifierMixin(ScoreMixin):
    """Feature dicts (NLTK's featuresets) or a feature matrix in -- a matrix column j is the
    feature "x<j>", so the learner gives the same answers before or after a DictVectorizer --
    and every method of NLTK's ClassifierI out (``labels``, ``classify``, ``classify_many``,
    ``prob_classify``, ``prob_classify_many``), so that ``nltk.classify.accuracy(clf, pairs)``
    works.

    Subclasses provide ``_scores(examples)`` (examples x classes) and, for ``prob_classify``,
    may override ``_probability_scores``.
    """

    _tags = {"sparse": True, "dict": True}

    @classmethod
    def train(cls, labeled_featuresets: Iterable[tuple[Mapping[str, float], Hashable]],
              **params: Any):
        """NLTK's constructor idiom: ``Learner.train([(featureset, label), ...], epochs=5)``;
        ValueError naming the first item that is not such a pair."""
        pairs = list(labeled_featuresets)
        for k, pair in enumerate(pairs):
            if not (isinstance(pair, tuple | list) and len(pair) == 2
                    and isinstance(pair[0], Mapping)):  # fmt: skip
                raise ValueError(f"train takes (featureset, label) pairs, a featureset a dict "
                                 f"of feature -> value; item {k} is {type(pair).__name__} "
                                 f"{str(pair)[:60]}")
        return cls(**params).fit([features for features, _ in pairs],
                                 [label for _, label in pairs])

    # -- inputs ---------------------------------------------------------------------------

    def _training_data(self, X: Any, y: Any) -> tuple[list[Example], list]:
        """Checked training examples and labels; remembers the width of a matrix ``X``."""
        vars(self).pop("n_features_in_", None)
        if is_feature_dicts(X):
            examples = check_feature_dicts(X)
        else:
            matrix = check_matrix(X)
            examples = matrix_examples(matrix)
            self.n_features_in_ = matrix.shape[1]
        return examples, check_labels(y, len(examples))

    def _examples_of(self, X: Any, what: str = "X", fitted: bool = True) -> list[Example]:
        """Checked examples for a (``fitted``) learner: dicts, or a matrix as wide as the
        training one."""
        if fitted:
            check_is_fitted(self)
        if is_feature_dicts(X):
            return check_feature_dicts(X, what=what)
        n_features = getattr(self, "n_features_in_", None)
        if n_features is None:
            raise ValueError(f"this {type(self).__name__} was trained on feature dicts; give "
                             f"{what} as feature dicts too")
        return matrix_examples(check_matrix(X, n_features, what, type(self).__name__))

    def _column(self, label: Hashable) -> int:
        """The index of ``label`` in ``classes_``, or ValueError."""
        check_is_fitted(self)
        if label not in self._index:
            raise ValueError(f"unknown label {label!r}; the labels are {self.classes_!r}")
        return self._index[label]

    def _decision(self, scores: np.ndarray) -> np.ndarray:
        """scikit-learn's shape: one column per class, or for two classes the score of
        ``classes_[1]`` minus that of ``classes_[0]`` (> 0 predicts ``classes_[1]``)."""
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict_scores(self, x: Mapping[str, float]) -> dict[Hashable, float]:
        """The score of every class for one feature dict, as {label: score}."""
        scores = self._scores(self._examples_of([x]))[0].tolist()
        return dict(zip(self.classes_, scores, strict=True))

    # -- NLTK ClassifierI -----------------------------------------------------------------

    def classify(self, featureset: Mapping[str, float]) -> Hashable:
        return self.predict([featureset])[0]

    def classify_many(self, featuresets: Sequence[Mapping[str, float]]) -> list:
        return self.predict(featuresets)

    def labels(self) -> list:
        check_is_fitted(self)
        return list(self.classes_)

    def _probability_scores(self, examples: list[Example]) -> np.ndarray:
        return self._scores(examples)

    def _probabilities(self, examples: list[Example]) -> np.ndarray:
        from scipy.special import softmax  # scipy.special: probabilities only

        temperature = getattr(self, "temperature_", 1.0)
        return softmax(self._probability_scores(examples) / temperature, axis=1)

    def prob_classify(self, featureset: Mapping[str, float]) -> DictionaryProbDist:
        """An NLTK ProbDist over ``classes_``: the softmax of the scores divided by
        ``temperature_``. Until ``calibrate`` has fitted it on held-out data the temperature is
        1 and the probabilities are uncalibrated (they rank the classes like the scores, but
        their size means little: perceptron scores grow with the epochs)."""
        return self.prob_classify_many([featureset])[0]

    def prob_classify_many(self, featuresets: Sequence[Mapping[str, float]]
                           ) -> list[DictionaryProbDist]:  # fmt: skip
        """``prob_classify`` of each feature dict, in one pass."""
        from nltk.probability import DictionaryProbDist  # NLTK: over a second to import

        probabilities = self._probabilities(self._examples_of(featuresets)).tolist()
        return [DictionaryProbDist(dict(zip(self.classes_, row, strict=True)))
                for row in probabilities]  # fmt: skip

    def calibrate(self, X_dev: Any, y_dev: Sequence[Hashable]):
        """Fit ``temperature_`` on held-out data (never the training data, where the scores are
        overconfident): the T that minimises the log loss of softmax(scores / T). Returns self."""
        from scipy.optimize import minimize_scalar  # scipy.optimize: calibration only
        from scipy.special import log_softmax  # scipy.special: calibration only

        examples = self._examples_of(X_dev, what="X_dev")
        labels = check_labels(y_dev, len(examples), what="y_dev")
        unknown = sorted({repr(label) for label in labels if label not in self._index})
        if unknown:
            raise ValueError(f"y_dev has labels the model does not know: {', '.join(unknown)}")
        scores = self._probability_scores(examples)
        rows, gold = np.arange(len(labels)), np.array([self._index[label] for label in labels])

        def log_loss(log_temperature: float) -> float:
            return -log_softmax(scores / np.exp(log_temperature), axis=1)[rows, gold].mean()

        best = minimize_scalar(log_loss, bounds=(-10.0, 10.0), method="bounded")
        self.temperature_ = float(np.exp(best.x))
        return self

    def most_informative_features(self, n: int = 10) -> list[tuple[str, Hashable, float,
                                                                   Hashable, float]]:
        """The ``n`` features whose weights differ most between two classes, as (feature,
        label it favours most, that weight, label it favours least, that weight)."""
        table = []
        for feature, row in self.weights().items():
            high = max(row, key=lambda label: (row[label], str(label)))
            low = min(row, key=lambda label: (row[label], str(label)))
            table.append((feature, high, row[high], low, row[low]))
        table.sort(key=lambda entry: (-(entry[2] - entry[4]), entry[0]))
        return table[:n]

    def show_most_informative_features(self, n: int = 10) -> None:
        """Print ``most_informative_features(n)``, one line each, as NLTK's classifiers do."""
        print("Most Informative Features")
        for feature, high, w_high, low, w_low in self.most_informative_features(n):
            print(f"{feature:>30}   {high!s} {w_high:+.3f} : {low!s} {w_low:+.3f}")
