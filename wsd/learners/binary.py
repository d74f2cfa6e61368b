"""Binary perceptrons (plain, averaged, voted) on dense or scipy.sparse feature matrices.

These follow the lecture pseudocode for two classes: the two labels are mapped to -1 (the
first in sorted order) and +1 (the second); predictions give the original labels back.
PerceptronTrain, which all three share::

    w <- 0;  b <- 0
    for iter = 1 .. epochs:
        for (x, y) in the data:
            a <- w.x + b
            if y*a <= 0:  w <- w + y*x;  b <- b + y

An activation of exactly 0 predicts the first (negative) label.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from wsd.learners.base import (
    EstimatorMixin,
    PersistentMixin,
    ScoreMixin,
    check_is_fitted,
    to_plain,
)
from wsd.learners.inputs import check_epochs, check_labels, check_matrix, sorted_classes
from wsd.learners.training import epoch_orders
from wsd.persistence import register_model

Row = tuple[np.ndarray, np.ndarray]  # (column indices, values) of one example's non-zeros


def matrix_rows(matrix: sp.csr_matrix) -> list[Row]:
    """The non-zero (indices, values) of every row, sliced once so the loop stays cheap."""
    ptr = matrix.indptr
    return [(matrix.indices[ptr[i]:ptr[i + 1]], matrix.data[ptr[i]:ptr[i + 1]])
            for i in range(matrix.shape[0])]


Step = tuple[int, Row, float, bool, np.ndarray, float]


def perceptron_steps(rows: list[Row], signs: np.ndarray, n_features: int,
                     orders: Iterator[np.ndarray]) -> Iterator[Step]:
    """Run PerceptronTrain; after every example yield (epoch, x, y, mistake, w, b).

    ``x`` is the example's (indices, values), ``y`` its sign and ``w`` the learner's weight
    vector itself, updated in place: copy it to keep it.
    """
    w = np.zeros(n_features)
    b = 0.0
    for epoch, order in enumerate(orders, start=1):
        for i in order.tolist():
            x, y = rows[i], signs[i]
            indices, values = x
            mistake = bool(y * (values @ w[indices] + b) <= 0)
            if mistake:
                w[indices] += y * values
                b += y
            yield epoch, x, y, mistake, w, b


class _BinaryPerceptronBase(ScoreMixin, PersistentMixin, EstimatorMixin):
    """Label mapping, input checks, prediction and the epoch history shared by the three."""

    _tags = {"sparse": True, "multi_class": False}

    def __init__(self, epochs: int = 10, shuffle: bool = True, seed: int | None = 0):
        self.epochs = epochs
        self.shuffle = shuffle
        self.seed = seed

    def _steps(self, X: Any, y: Sequence[Hashable]) -> Iterator[Step]:
        """Check the data, set ``classes_`` and the history, and return the training steps."""
        epochs = check_epochs(self.epochs)
        matrix = check_matrix(X)
        labels = check_labels(y, matrix.shape[0])
        classes = sorted_classes(labels)
        if len(classes) > 2:
            raise ValueError(f"Only binary classification is supported. {type(self).__name__} is "
                             f"binary but y has {len(classes)} labels; use "
                             "MulticlassPerceptron or MulticlassAveragedPerceptron")
        self.classes_ = np.asarray(classes)
        self.n_features_in_ = matrix.shape[1]
        self.history_: list[dict[str, int]] = []
        signs = np.array([1.0 if label == classes[1] else -1.0 for label in labels])
        orders = epoch_orders(matrix.shape[0], epochs, self.seed, self.shuffle)
        for step in perceptron_steps(matrix_rows(matrix), signs, matrix.shape[1], orders):
            epoch, mistake = step[0], step[3]
            if epoch > len(self.history_):
                self.history_.append({"epoch": epoch, "mistakes": 0})
            self.history_[-1]["mistakes"] += int(mistake)
            yield step

    def _checked(self, X: Any) -> sp.csr_matrix:
        check_is_fitted(self)
        return check_matrix(X, self.n_features_in_, learner=type(self).__name__)

    def predict(self, X: Any) -> np.ndarray:
        """The predicted label of every row: the second label where the score is > 0."""
        scores = self.decision_function(X)
        return self.classes_[(scores > 0).astype(np.int64)]

    def _common_state(self) -> dict[str, Any]:
        return {"classes": to_plain(self.classes_), "n_features": self.n_features_in_,
                "history": self.history_}

    def _set_common_state(self, state: dict[str, Any]) -> None:
        self.classes_ = np.asarray(state["classes"])
        self.n_features_in_ = int(state["n_features"])
        self.history_ = list(state["history"])


class _LinearBinaryBase(_BinaryPerceptronBase):
    """A learner that ends with one weight vector ``coef_`` and bias ``intercept_``."""

    def decision_function(self, X: Any) -> np.ndarray:
        """w.x + b for every row."""
        return self._checked(X) @ self.coef_ + self.intercept_

    def _get_state(self) -> dict[str, Any]:
        return {**self._common_state(), "coef": self.coef_.tolist(),
                "intercept": self.intercept_}

    def _set_state(self, state: dict[str, Any]) -> None:
        self._set_common_state(state)
        self.coef_ = np.array(state["coef"], dtype=float)
        self.intercept_ = float(state["intercept"])


@register_model
class Perceptron(_LinearBinaryBase):
    """The plain perceptron: predicts with the last weight vector ``coef_``, ``intercept_``."""

    def fit(self, X: Any, y: Sequence[Hashable]) -> Perceptron:
        """Train for ``epochs`` passes and keep the final weights."""
        *_, w, b = deque(self._steps(X, y), maxlen=1)[0]
        self.coef_, self.intercept_ = w.copy(), float(b)
        return self


@register_model
class AveragedPerceptron(_LinearBinaryBase):
    """The averaged perceptron with Daumé's trick (lecture's AveragedPerceptronTrain)::

        u <- 0;  beta <- 0;  c <- 1
        ... on a mistake also:  u <- u + y*c*x;  beta <- beta + y*c
        after every example:  c <- c + 1
        return w - u/c,  b - beta/c

    With counter c starting at 1, after N examples c = N + 1 and ``w - u/c`` is the mean of
    the N + 1 weight vectors the perceptron held: the zero vector it starts from and the one
    after each example.  ``naive_average=True`` computes that same mean the slow way, by
    summing the whole weight vector after every example (for teaching and tests).
    """

    def __init__(self, epochs: int = 10, shuffle: bool = True, seed: int | None = 0,
                 naive_average: bool = False):
        super().__init__(epochs=epochs, shuffle=shuffle, seed=seed)
        self.naive_average = naive_average

    def fit(self, X: Any, y: Sequence[Hashable]) -> AveragedPerceptron:
        """Train for ``epochs`` passes and keep the averaged weights."""
        steps = self._steps(X, y)
        if self.naive_average:
            total_w, total_b, held = None, 0.0, 1  # the zero start vector counts as one
            for _, _, _, _, w, b in steps:
                total_w = w.copy() if total_w is None else total_w + w
                total_b += b
                held += 1
            self.coef_, self.intercept_ = total_w / held, total_b / held
            self.counter_ = held
            return self
        u, beta, c = None, 0.0, 1
        for step in steps:
            _, (indices, values), y, mistake, w, b = step
            if u is None:
                u = np.zeros_like(w)
            if mistake:
                u[indices] += y * c * values
                beta += y * c
            c += 1
        self.coef_, self.intercept_ = w - u / c, b - beta / c
        self.counter_ = c
        return self

    def _get_state(self) -> dict[str, Any]:
        return {**super()._get_state(), "counter": self.counter_}

    def _set_state(self, state: dict[str, Any]) -> None:
        super()._set_state(state)
        self.counter_ = int(state["counter"])


@register_model
class VotedPerceptron(_BinaryPerceptronBase):
    """The voted perceptron (Freund & Schapire 1999).

    Keeps every weight vector with its survival count -- the number of examples after which
    it was the current vector (a new vector is born on a mistake with count 1, and each
    correctly classified example adds 1 to the current one) -- in ``vectors_`` as
    (w, b, count).  Predicts sign(sum_k count_k * sign(w_k.x + b_k)); sign(0) = 0.
    """

    def fit(self, X: Any, y: Sequence[Hashable]) -> VotedPerceptron:
        """Train for ``epochs`` passes and keep every weight vector with its count."""
        vectors: list[list] = []
        for _, _, _, mistake, w, b in self._steps(X, y):
            if mistake or not vectors:
                vectors.append([w.copy(), float(b), 1])
            else:
                vectors[-1][2] += 1
        self.vectors_ = [(w, b, count) for w, b, count in vectors]
        self._stack()
        return self

    def _stack(self) -> None:
        """Stack the vectors once (at fit or load time), so that a call to predict costs one
        matrix product and no per-call set-up."""
        self._weights = np.array([w for w, _, _ in self.vectors_]).T
        self._biases = np.array([b for _, b, _ in self.vectors_])
        self._counts = np.array([count for _, _, count in self.vectors_], dtype=float)

    def decision_function(self, X: Any) -> np.ndarray:
        """The count-weighted vote sum_k count_k * sign(w_k.x + b_k) for every row."""
        return np.sign(self._checked(X) @ self._weights + self._biases) @ self._counts

    def _get_state(self) -> dict[str, Any]:
        return {**self._common_state(),
                "vectors": [[w.tolist(), b, count] for w, b, count in self.vectors_]}

    def _set_state(self, state: dict[str, Any]) -> None:
        self._set_common_state(state)
        self.vectors_ = [(np.array(w, dtype=float), float(b), int(count))
                         for w, b, count in state["vectors"]]
        self._stack()
