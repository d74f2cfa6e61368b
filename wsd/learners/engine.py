"""The fast engine: averaged perceptrons compiled with numba over ``scipy.sparse`` CSR rows.

Same algorithm, same example order (``epoch_orders``) and therefore the same averaged weights
as the dict-based learners in ``wsd.learners.multiclass`` / ``wsd.learners.binary``; this one
trades readability for speed. Contract (multiclass): classes are ``sorted(set(y))``; the score of
class k is ``x·W[:, k] + b[k]``; the prediction is the argmax with ties going to the lowest class
index; on a mistake (prediction p, gold t) ``W[:, t] += x, W[:, p] -= x`` with the same update,
scaled by the counter c, on the auxiliary ``U``, ``β``; c starts at 1 and grows by one after every
example, across epochs and ``partial_fit`` calls; the averaged model is ``W - U/c, b - β/c``.
The binary variant has one weight vector, labels ±1 and updates when ``y(w·x + b) <= 0``.
The multiclass options ``margin``, ``update="pa"`` (with ``C``), ``n_models``, ``prior`` and
``backoff_margin`` are those of ``MulticlassPerceptron`` (its module docstring says what each
updates, and when), with the same weights and predictions.

Weights are stored only for the *active* features (columns that were non-zero in some training
row), so a model fitted on a small slice of a huge vocabulary stays small; columns never seen in
training carry weight 0 and are ignored at prediction.

The options are those of ``MulticlassPerceptron`` (epochs, average, shuffle, seed, patience,
verbose), so a dict-based learner can hand its work over in three lines::

    vectorizer = FeatureVectorizer().fit(X_dicts)          # min_count=1: keep every feature
    model = CSRAveragedPerceptron(**learner.get_params()).fit(vectorizer.transform(X_dicts), y)
    weights, biases = model.to_dicts(vectorizer.feature_names_)   # learner.weights() layout

and ``model.dict_state(vectorizer.feature_names_)`` is the learner's full saved state (weights,
sums, counter, history), so the learner can take over as if it had trained itself.
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed
from numba import njit
from tqdm.auto import tqdm

from wsd.learners.base import EstimatorMixin, NotFittedError
from wsd.learners.inputs import (
    as_sklearn,
    check_epochs,
    check_labels,
    check_matrix,
    check_patience,
    check_prediction_options,
    check_update_options,
)
from wsd.learners.training import EarlyStopping, epoch_orders

__all__ = ["CSRAveragedPerceptron", "BinaryCSRAveragedPerceptron", "task_seed", "train_many"]


# --------------------------------------------------------------------------- compiled kernels


@njit(cache=True, nogil=True)
def _multiclass_epochs(indptr, indices, data, y, orders, W, b, U, beta, counter, mistakes,
                       margin, pa, C):
    """Passes over the rows, one per row of ``orders``; updates W, b, U, beta in place.

    The step against the rival class is 1 on a mistake (``margin`` 0, ``pa`` False), 1 when
    the gold class wins by less than ``margin``, or PA-I's min(C, loss / (2 (|x|^2 + 1))) with
    ``pa`` (see ``wsd.learners.multiclass``). Writes the number of mistakes of each pass into
    ``mistakes``; returns the new counter.
    """
    n_classes = W.shape[1]
    scores = np.empty(n_classes)
    plain = margin == 0.0 and not pa
    for epoch in range(orders.shape[0]):
        wrong = 0
        for i in orders[epoch]:
            start = indptr[i]
            end = indptr[i + 1]
            for k in range(n_classes):
                scores[k] = b[k]
            for j in range(start, end):
                f = indices[j]
                x = data[j]
                for k in range(n_classes):
                    scores[k] += x * W[f, k]
            guess = 0
            for k in range(1, n_classes):
                if scores[k] > scores[guess]:
                    guess = k
            gold = y[i]
            if guess != gold:
                wrong += 1
            tau = 0.0
            if plain:
                if guess != gold:
                    tau = 1.0
            else:
                guess = 1 if gold == 0 else 0
                for k in range(n_classes):
                    if k != gold and scores[k] > scores[guess]:
                        guess = k
                won_by = scores[gold] - scores[guess]
                if pa:
                    loss = 1.0 - won_by
                    if loss > 0.0:
                        norm = 1.0
                        for j in range(start, end):
                            norm += data[j] * data[j]
                        tau = min(C, loss / (2.0 * norm))
                elif won_by < margin:
                    tau = 1.0
            if tau != 0.0:
                c = float(counter)
                for j in range(start, end):
                    f = indices[j]
                    x = data[j]
                    W[f, gold] += tau * x
                    W[f, guess] -= tau * x
                    U[f, gold] += c * tau * x
                    U[f, guess] -= c * tau * x
                b[gold] += tau
                b[guess] -= tau
                beta[gold] += c * tau
                beta[guess] -= c * tau
            counter += 1
        mistakes[epoch] = wrong
    return counter


@njit(cache=True, nogil=True)
def _binary_epochs(indptr, indices, data, y, orders, W, b, U, beta, counter, mistakes):
    """The binary averaged perceptron (labels ±1 in ``y``; W, U have one column), otherwise
    as ``_multiclass_epochs``."""
    for epoch in range(orders.shape[0]):
        wrong = 0
        for i in orders[epoch]:
            start = indptr[i]
            end = indptr[i + 1]
            activation = b[0]
            for j in range(start, end):
                activation += data[j] * W[indices[j], 0]
            gold = y[i]
            if gold * activation <= 0.0:
                wrong += 1
                c = float(counter)
                for j in range(start, end):
                    f = indices[j]
                    W[f, 0] += gold * data[j]
                    U[f, 0] += c * gold * data[j]
                b[0] += gold
                beta[0] += c * gold
            counter += 1
        mistakes[epoch] = wrong
    return counter


@njit(cache=True, nogil=True)
def _count_correct(indptr, indices, data, y, W, b, binary):
    """How many rows the fixed model (W, b) labels as ``y`` (no scores matrix is allocated).

    Multiclass: argmax, lowest index on ties; binary: +1 when the activation is > 0, else -1.
    Rows whose gold label is unknown to the model (y = -1 multiclass) are never correct.
    """
    n_rows = indptr.shape[0] - 1
    n_classes = W.shape[1]
    scores = np.empty(n_classes)
    correct = 0
    for i in range(n_rows):
        for k in range(n_classes):
            scores[k] = b[k]
        for j in range(indptr[i], indptr[i + 1]):
            f = indices[j]
            x = data[j]
            for k in range(n_classes):
                scores[k] += x * W[f, k]
        if binary:
            if (1.0 if scores[0] > 0.0 else -1.0) == y[i]:
                correct += 1
            continue
        guess = 0
        for k in range(1, n_classes):
            if scores[k] > scores[guess]:
                guess = k
        if guess == y[i]:
            correct += 1
    return correct


# --------------------------------------------------------------------------- input checks


def _dense_lookup(n_columns: int, n_entries: int) -> bool:
    """Whether a table over all columns is cheaper than sorting/searching the entries."""
    return n_columns <= 16 * n_entries + 1024


def _distinct(columns: np.ndarray, n_columns: int) -> np.ndarray:
    """The sorted distinct values of ``columns`` (all < ``n_columns``) as int64."""
    if _dense_lookup(n_columns, len(columns)):
        return np.flatnonzero(np.bincount(columns, minlength=n_columns)).astype(np.int64)
    return np.unique(columns).astype(np.int64)


def _positions(active: np.ndarray, columns: np.ndarray, n_columns: int) -> np.ndarray:
    """For each entry of ``columns``, its position in the sorted ``active``, or -1."""
    if _dense_lookup(n_columns, len(columns)):
        table = np.full(max(n_columns, 1), -1, dtype=np.int64)
        inside = active[active < n_columns]
        table[inside] = np.arange(len(inside))
        return table[columns]
    positions = np.searchsorted(active, columns)
    known = positions < len(active)
    known[known] = active[positions[known]] == columns[known]
    return np.where(known, positions, -1)


# --------------------------------------------------------------------------- the learners


class _Rows(NamedTuple):
    """CSR arrays whose columns are positions in a model's ``active_features_``."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    n_rows: int
    n_columns: int

    def matrix(self) -> sp.csr_matrix:
        return sp.csr_matrix((self.data, self.indices, self.indptr),
                             shape=(self.n_rows, self.n_columns))


class _CSRPerceptronBase(EstimatorMixin):
    """Shared training loop: active-feature bookkeeping, epochs, history and early stopping.

    Options and their meaning match ``wsd.learners.multiclass.MulticlassPerceptron``. ``X`` is
    a dense array or any scipy.sparse matrix (converted to CSR once).
    """

    _binary = False
    _tags = {"sparse": True}

    def __init__(
        self,
        epochs: int = 10,
        average: bool = True,
        shuffle: bool = True,
        seed: int | None = 0,
        patience: int | None = None,
        verbose: bool = False,
        margin: float = 0.0,
        update: str = "perceptron",
        C: float = 1.0,
        n_models: int = 1,
        prior: float = 0.0,
        backoff_margin: float = 0.0,
    ) -> None:
        self.epochs = epochs
        self.average = average
        self.shuffle = shuffle
        self.seed = seed
        self.patience = patience
        self.verbose = verbose
        self.margin = margin
        self.update = update
        self.C = C
        self.n_models = n_models
        self.prior = prior
        self.backoff_margin = backoff_margin

    # ---- public API ------------------------------------------------------------------

    def fit(self, X: Any, y: Sequence, X_dev: Any = None, y_dev: Sequence | None = None):
        """Train from scratch for ``epochs`` passes.

        With a development set the dev accuracy is recorded per epoch and the model ends in
        the state (weights, sums, counter) of its best epoch; ``patience`` stops training after
        that many epochs without a better dev accuracy.
        """
        self._check_params()
        if (X_dev is None) != (y_dev is None):
            raise ValueError("give both X_dev and y_dev for early stopping, or neither")
        if self.patience is not None and X_dev is None:
            raise ValueError("patience needs a development set: call fit(X, y, X_dev, y_dev)")
        X = check_matrix(X)
        labels = check_labels(y, X.shape[0])
        if self.n_models > 1:
            return self._fit_mean(X, labels, X_dev, y_dev)
        self._reset(self._classes_from(labels))
        self._add_features(X)
        train = self._local(X), self._encode(labels)
        dev = None
        if X_dev is not None:
            X_dev = check_matrix(X_dev, X.shape[1], "X_dev", type(self).__name__)
            dev = self._local(X_dev), self._encode(check_labels(y_dev, X_dev.shape[0], "y_dev"))
        orders = epoch_orders(X.shape[0], self.epochs, self.seed, self.shuffle)
        self._run(train, orders, dev, total=self.epochs)
        self._class_counts = self._count_classes(train[1])
        self._set_model()
        return self

    def _fit_mean(self, X: sp.csr_matrix, labels: list, X_dev: Any, y_dev: Any):
        """``n_models`` models on seeds seed, seed + 1, ...; keep the mean of their prediction
        weights as this model's weights, with zero sums (as ``MulticlassPerceptron``)."""
        params = {**self.get_params(deep=False), "n_models": 1, "prior": 0.0, "backoff_margin": 0.0}
        models = []
        for i in range(self.n_models):
            params["seed"] = None if self.seed is None else self.seed + i
            models.append(type(self)(**params).fit(X, labels, X_dev, y_dev))
        first = models[0]
        self._reset(first.classes_.tolist())
        self._add_features(X)
        self._W = sum(model._coef for model in models) / len(models)
        self._b = sum(model._intercept for model in models) / len(models)
        self._U = np.zeros_like(self._W)
        self._counter, self.history_, self.best_epoch_ = (
            first._counter, first.history_, first.best_epoch_)
        self._class_counts = first._class_counts
        self._set_model()
        return self

    def partial_fit(self, X: Any, y: Sequence, classes: Sequence | None = None):
        """One more pass over ``X`` in the given row order, continuing weights and counter.

        The first call fixes ``classes_`` (from ``classes``, else from ``y``); new feature
        columns may appear in later calls (a wider matrix), but a narrower one is an error.
        """
        self._check_params()
        X = check_matrix(X)
        labels = check_labels(y, X.shape[0])
        if hasattr(self, "classes_"):
            self._check_width(X)
        else:
            self._reset(self._classes_from(labels if classes is None else list(classes)))
        if classes is not None and sorted(set(classes)) != self.classes_.tolist():
            raise ValueError(
                f"classes {sorted(set(classes))!r} differ from the classes of the first "
                f"partial_fit call {self.classes_.tolist()!r}"
            )
        unknown = sorted({repr(label) for label in labels if label not in self._index})
        if unknown:
            raise ValueError(
                f"labels {', '.join(unknown)} are not among classes_ {self.classes_.tolist()!r}; "
                "pass every label with classes= on the first partial_fit call"
            )
        self._add_features(X)
        order = np.arange(X.shape[0], dtype=np.int64)
        codes = self._encode(labels)
        self._class_counts = self._class_counts + self._count_classes(codes)
        self._run((self._local(X), codes), [order], None, total=1)
        return self

    def _scores(self, X: Any) -> np.ndarray:
        """Scores ``X @ coef + intercept`` from one sparse-dense product: one column per class
        (the binary model: one column)."""
        self._check_fitted()
        X = check_matrix(X, self.n_features_in_, learner=type(self).__name__)
        return self._local(X).matrix() @ self._coef + self._intercept

    def _check_width(self, X: sp.csr_matrix) -> None:
        """partial_fit may add columns (a wider ``X``) but not lose any."""
        if X.shape[1] < self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is "
                             f"expecting {self.n_features_in_} features as input (or more, "
                             "for new columns).")

    def decision_function(self, X: Any) -> np.ndarray:
        """Scores, shape (n, n_classes); scikit-learn's shape (n,) for two classes: the
        binary model's activation, or the score of ``classes_[1]`` minus that of
        ``classes_[0]`` (> 0 predicts ``classes_[1]``)."""
        scores = self._scores(X)
        if self._binary:
            return scores[:, 0]
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X: Any) -> np.ndarray:
        """The label of each row (an array of ``classes_`` entries)."""
        scores = self._scores(X)
        if self._binary:
            return self.classes_[(scores[:, 0] > 0.0).astype(np.int64)]
        best = np.argmax(scores, axis=1)
        if self.backoff_margin and scores.shape[1] > 1:
            rows = np.arange(len(best))
            top = scores[rows, best]
            scores[rows, best] = -np.inf
            unsure = top - scores.max(axis=1) < self.backoff_margin
            best[unsure] = int(np.argmax(self._class_counts))
        return self.classes_[best]

    def score(self, X: Any, y: Sequence) -> float:
        """Accuracy of ``predict(X)`` against ``y``."""
        X = check_matrix(X)
        labels = check_labels(y, X.shape[0])
        predicted = self.predict(X).tolist()
        return sum(p == g for p, g in zip(predicted, labels, strict=True)) / len(labels)

    @property
    def coef_(self) -> np.ndarray:
        """Model weights as a dense array over all ``n_features_in_`` columns (built on access).

        Shape (n_classes, n_features) like scikit-learn, (1, n_features) for the binary model.
        """
        self._check_fitted()
        dense = np.zeros((self._coef.shape[1], self.n_features_in_))
        dense[:, self.active_features_] = self._coef.T
        return dense

    @property
    def intercept_(self) -> np.ndarray:
        """Biases: shape (n_classes,), or (1,) for the binary model."""
        self._check_fitted()
        return self._intercept.copy()

    @property
    def counter_(self) -> int:
        """The example counter c (1 + examples seen in training)."""
        self._check_fitted()
        return self._counter

    # ---- training loop ---------------------------------------------------------------

    def _run(self, train: tuple[_Rows, np.ndarray], orders, dev, total: int) -> None:
        """Train over ``orders`` (one index array per epoch) and record the history.

        Without a dev set or progress bar all epochs go to the compiled loop in one call.
        """
        X, y = train
        if dev is None and not self.verbose:
            chunks = [np.array(list(orders), dtype=np.int64)]
        else:
            chunks = (np.asarray(order, dtype=np.int64)[None, :] for order in orders)
        stopping = EarlyStopping(self.patience)
        for chunk in self._progress(chunks, total):
            for mistakes in self._epochs(X, y, chunk).tolist():
                self.history_.append({
                    "epoch": len(self.history_) + 1,
                    "mistakes": mistakes,
                    "train_accuracy": (X.n_rows - mistakes) / X.n_rows,
                    "dev_accuracy": None,
                })
            if dev is None:
                continue
            record = self.history_[-1]
            self._set_model()
            record["dev_accuracy"] = self._accuracy(*dev)
            if stopping.update(record["dev_accuracy"], record["epoch"], self._snapshot):
                break
        if stopping.best is not None:
            _, self.best_epoch_, snapshot = stopping.best
            self._W, self._U, self._b, self._beta, self._counter = snapshot
        self._set_model()

    def _epochs(self, X: _Rows, y: np.ndarray, orders: np.ndarray) -> np.ndarray:
        """Run the compiled loop over the rows of ``orders``; the mistakes of each pass."""
        mistakes = np.zeros(orders.shape[0], dtype=np.int64)
        arrays = (X.indptr, X.indices, X.data, y, orders, self._W, self._b, self._U, self._beta,
                  self._counter, mistakes)
        if self._binary:
            self._counter = _binary_epochs(*arrays)
        else:
            self._counter = _multiclass_epochs(*arrays, float(self.margin), self.update == "pa",
                                               float(self.C))
        return mistakes

    def _snapshot(self) -> tuple:
        return self._W.copy(), self._U.copy(), self._b.copy(), self._beta.copy(), self._counter

    def _set_model(self) -> None:
        """Make the prediction model the averaged (or current) weights, reusing its buffers."""
        if self._coef.shape != self._W.shape:
            self._coef = np.empty_like(self._W)
        if self.average:
            np.divide(self._U, self._counter, out=self._coef)
            np.subtract(self._W, self._coef, out=self._coef)
            self._intercept = self._b - self._beta / self._counter
        else:
            np.copyto(self._coef, self._W)
            self._intercept = self._b.copy()
        n = int(self._class_counts.sum())
        if self.prior and n and not self._binary:
            smoothed = (self._class_counts + 1.0) / (n + len(self._class_counts))
            self._intercept = self._intercept + self.prior / (self.prior + n) * np.log(smoothed)

    def _accuracy(self, X: _Rows, y: np.ndarray) -> float:
        correct = _count_correct(X.indptr, X.indices, X.data, y, self._coef, self._intercept,
                                 self._binary)
        return correct / X.n_rows

    def _progress(self, orders, total: int):
        if not self.verbose:
            return orders

        return tqdm(orders, total=total, desc=type(self).__name__, unit="epoch")

    # ---- state ------------------------------------------------------------------------

    def _check_params(self) -> None:
        check_update_options(self.margin, self.update, self.C)
        check_prediction_options(self.n_models, self.prior, self.backoff_margin)
        multiclass_only = (self.margin, self.update, self.n_models, self.prior,
                           self.backoff_margin) != (0.0, "perceptron", 1, 0.0, 0.0)
        if self._binary and multiclass_only:
            raise ValueError("margin, update, n_models, prior and backoff_margin are options of "
                             "the multiclass engine only")
        check_epochs(self.epochs)
        check_patience(self.patience)

    def _check_fitted(self) -> None:
        if not hasattr(self, "classes_"):
            raise as_sklearn(NotFittedError)(f"this {type(self).__name__} is not fitted yet; "
                                             "call fit() before using it")

    def _classes_from(self, labels: list) -> list:
        try:
            classes = sorted(set(labels))
        except TypeError as err:
            raise ValueError(f"labels must be mutually comparable (e.g. all strings): {err}") \
                from err
        if len(classes) < 2:
            raise ValueError(
                f"training data needs at least 2 classes, found {len(classes)} "
                f"({classes!r}): one class is not a choice; for a word with one observed "
                "sense use its most frequent sense"
            )
        return classes

    def _reset(self, classes: list) -> None:
        self.classes_ = np.asarray(classes)
        self._index = {label: k for k, label in enumerate(classes)}
        width = 1 if self._binary else len(classes)
        self.n_features_in_ = 0
        self.active_features_ = np.zeros(0, dtype=np.int64)
        self._W = np.zeros((0, width))
        self._U = np.zeros((0, width))
        self._b = np.zeros(width)
        self._beta = np.zeros(width)
        self._coef = np.zeros((0, width))
        self._intercept = np.zeros(width)
        self._counter = 1
        self._class_counts = np.zeros(len(classes), dtype=np.int64)
        self.history_: list[dict] = []
        self.best_epoch_: int | None = None

    def _add_features(self, X: sp.csr_matrix) -> None:
        """Extend the active columns by those non-zero in ``X``, keeping learned weights."""
        self.n_features_in_ = max(self.n_features_in_, X.shape[1])
        used = _distinct(X.indices[X.data != 0.0], X.shape[1])
        active = self.active_features_
        merged = np.union1d(active, used) if len(active) else used
        if len(merged) == len(active):
            return
        rows = np.searchsorted(merged, self.active_features_)

        def grow(array: np.ndarray) -> np.ndarray:
            bigger = np.zeros((len(merged), array.shape[1]))
            bigger[rows] = array
            return bigger

        self._W, self._U, self._coef = grow(self._W), grow(self._U), grow(self._coef)
        self.active_features_ = merged

    def _local(self, X: sp.csr_matrix) -> _Rows:
        """``X`` with its columns renumbered to positions in ``active_features_``.

        Entries in columns the model has no weight for (unseen at training, or explicit zeros)
        are dropped, which is the same as giving them weight 0.
        """
        positions = _positions(self.active_features_, X.indices, X.shape[1])
        known = positions >= 0
        width = len(self.active_features_)
        if known.all():
            return _Rows(X.indptr, positions, X.data, X.shape[0], width)
        rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
        indptr = np.zeros(X.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows[known], minlength=X.shape[0]), out=indptr[1:])
        return _Rows(indptr, positions[known], X.data[known], X.shape[0], width)

    def _count_classes(self, codes: np.ndarray) -> np.ndarray:
        """Examples per class (for the prior and the backoff; zeros for the binary model)."""
        if self._binary:
            return np.zeros(len(self.classes_), dtype=np.int64)
        return np.bincount(codes[codes >= 0], minlength=len(self.classes_))

    def _encode(self, labels: list) -> np.ndarray:
        """Class indices (-1 for labels the model does not know); ±1.0 for the binary model."""
        index = self._index
        codes = np.fromiter((index.get(label, -1) for label in labels), np.int64, len(labels))
        if self._binary:
            return np.where(codes == 1, 1.0, np.where(codes == 0, -1.0, 0.0))
        return codes

    # ---- hand-over to the dict-based learners ---------------------------------------------

    def _weight_table(self, feature_names: Sequence[str]) -> list[tuple[str, np.ndarray]]:
        self._check_fitted()
        if len(feature_names) < self.n_features_in_:
            raise ValueError(
                f"feature_names has {len(feature_names)} names but the model has "
                f"{self.n_features_in_} columns; pass the vectorizer's feature_names_"
            )
        pairs = zip(self.active_features_, self._coef, strict=True)
        return [(feature_names[f], row) for f, row in pairs]


class CSRAveragedPerceptron(_CSRPerceptronBase):
    """Multiclass averaged perceptron over CSR input, compiled with numba.

    ``fit(X, y, X_dev=None, y_dev=None)``, ``partial_fit``, ``predict``, ``decision_function``
    (shape (n, n_classes)), ``score``. Attributes: ``classes_`` (sorted labels), ``coef_``
    (n_classes, n_features), ``intercept_`` (n_classes,), ``history_`` (one dict per epoch:
    epoch, mistakes made while training, train_accuracy and dev_accuracy of the model after the
    epoch), ``best_epoch_`` (with early stopping), ``active_features_`` (columns with weights).
    ``average=False`` gives the plain multiclass perceptron (the final weights).
    """

    def to_dicts(self, feature_names: Sequence[str]) -> tuple[dict, dict]:
        """The model as ``({feature: {class: weight}}, {class: bias})``, the dict learner's shape.

        ``feature_names[j]`` names column j (the vectorizer's ``feature_names_``); zero weights
        are left out.
        """
        classes = self.classes_.tolist()
        weights = {
            name: {classes[k]: float(w) for k, w in enumerate(row) if w != 0.0}
            for name, row in self._weight_table(feature_names)
        }
        weights = {name: per_class for name, per_class in weights.items() if per_class}
        biases = {label: float(b) for label, b in zip(classes, self._intercept, strict=True)}
        return weights, biases

    def dict_state(self, feature_names: Sequence[str]) -> dict[str, Any]:
        """The whole training state in the layout of ``MulticlassPerceptron``'s saved state.

        ``MulticlassPerceptron.from_dict({"kind": ..., "params": ..., "state": this})`` then
        predicts, saves and continues with ``partial_fit`` exactly as if it had trained itself.
        Features whose weights and sums are all zero are left out.
        """
        self._check_fitted()
        self._weight_table(feature_names)  # checks the names
        touched = np.flatnonzero(np.any(self._W != 0.0, axis=1) | np.any(self._U != 0.0, axis=1))
        names = [feature_names[f] for f in self.active_features_[touched].tolist()]
        return {
            "classes": self.classes_.tolist(),
            "counter": self._counter,
            "bias": self._b.tolist(),
            "bias_sums": self._beta.tolist(),
            "weights": dict(zip(names, self._W[touched].tolist(), strict=True)),
            "weight_sums": dict(zip(names, self._U[touched].tolist(), strict=True)),
            "history": [dict(record) for record in self.history_],
            "best_epoch": self.best_epoch_,
            "class_counts": self._class_counts.tolist(),
        }


class BinaryCSRAveragedPerceptron(_CSRPerceptronBase):
    """Binary averaged perceptron over CSR input, compiled with numba.

    The two labels, sorted, stand for -1 and +1 (so labels -1/1 keep their meaning); the model
    updates when ``y(w·x + b) <= 0`` and predicts ``classes_[1]`` when ``w·x + b > 0``.
    ``decision_function`` returns the activations, shape (n,); ``coef_`` has shape
    (1, n_features) and ``intercept_`` shape (1,), as in scikit-learn. Other options and
    attributes as in ``CSRAveragedPerceptron``.
    """

    _binary = True
    _tags = {"sparse": True, "multi_class": False}

    def _classes_from(self, labels: list) -> list:
        classes = super()._classes_from(labels)
        if len(classes) != 2:
            raise ValueError(
                f"Only binary classification is supported. The binary perceptron needs "
                f"exactly 2 classes, found {len(classes)} ({classes!r}); use "
                "CSRAveragedPerceptron for more"
            )
        return classes

    def to_dicts(self, feature_names: Sequence[str]) -> tuple[dict, float]:
        """The model as ``({feature: weight}, bias)``; zero weights are left out."""
        weights = {name: float(row[0]) for name, row in self._weight_table(feature_names)}
        return {name: w for name, w in weights.items() if w != 0.0}, float(self._intercept[0])


# --------------------------------------------------------------------------- many tasks


def task_seed(seed: int | None, key: Hashable) -> int | None:
    """A per-task seed from the base ``seed`` and the task key (stable across processes/runs).

    Uses CRC-32 of ``str(key)``, not ``hash()``, which Python salts per process.
    """
    if seed is None:
        return None
    return zlib.crc32(f"{seed}\x1f{key}".encode())


def _train_one(key, task, params: dict, seed: int | None, binary: bool):
    model_class = BinaryCSRAveragedPerceptron if binary else CSRAveragedPerceptron
    model = model_class(seed=task_seed(seed, key), **params)
    return key, model.fit(*task)


def train_many(
    tasks: Mapping[Hashable, tuple],
    n_jobs: int = 1,
    seed: int | None = 0,
    binary: bool = False,
    prefer: str = "threads",
    verbose: bool = False,
    **params: Any,
) -> dict:
    """Fit one model per task, e.g. per ``lemma#pos``, in parallel with joblib.

    ``tasks`` maps a key to ``(X, y)`` or ``(X, y, X_dev, y_dev)``; ``params`` go to the model
    (epochs, shuffle, average, patience). Each task's seed is ``task_seed(seed, key)``, so the
    models do not depend on ``n_jobs`` or on the order of the tasks. The compiled loops release
    the GIL, so threads (the default) share the data without copying; ``prefer="processes"``
    must pickle every task and model (much slower for many small words). ``binary`` trains
    ``BinaryCSRAveragedPerceptron`` models; ``verbose`` shows a progress bar over the tasks.
    Tasks with fewer than two classes are an error: answer those with their only sense.
    Returns ``{key: fitted model}`` in the order of ``tasks``.
    """
    single = [key for key, task in tasks.items() if len(set(task[1])) < 2]
    if single:
        raise ValueError(
            f"{len(single)} task(s) have fewer than 2 classes (e.g. {single[:3]!r}); "
            "leave them out and answer them with their only sense"
        )
    jobs = (delayed(_train_one)(key, task, params, seed, binary) for key, task in tasks.items())
    if verbose:
        jobs = tqdm(jobs, total=len(tasks), desc="train_many", unit="task")
    results = Parallel(n_jobs=n_jobs, prefer=prefer)(jobs)
    return dict(results)
