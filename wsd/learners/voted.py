"""The multiclass voted perceptron (Freund & Schapire 1999) over sparse feature dicts.

Training is exactly that of ``MulticlassPerceptron(average=False)``: classes sorted, the score
of class k is ``sum_f x_f w[f][k] + b_k``, the prediction the argmax with ties to the lowest
class index, examples visited in ``epoch_orders(n, epochs, seed, shuffle)`` order, and on a
mistake (gold y, predicted p) ``w_y += x, b_y += 1, w_p -= x, b_p -= 1``.

The voted perceptron keeps every weight vector the perceptron held, W_0 = 0 and W_m after
the m-th mistake, each with its survival count c_m: the number of examples after which it
was the current vector.  This is the convention of ``binary.VotedPerceptron`` and of Freund
& Schapire's pseudocode: a vector born on a mistake starts with count 1 (the example that
created it), and every correctly classified example adds 1 to the current vector.  So
c_0 = the number of correct examples before the first mistake (0 if the very first example
is a mistake), c_m >= 1 for m >= 1, and the counts sum to epochs x examples.  The prediction
is the class with the most votes, each vector voting for its own argmax with weight c_m;
ties in the vote go to the lowest class index.

No weight vector is copied (that would cost O(mistakes x features x classes)).  The learner
stores the mistakes -- the example x_m, gold y_m and predicted p_m -- and rebuilds the score
trajectory at prediction time, since W_m.x = W_{m-1}.x + (x_m.x + 1)(e_{y_m} - e_{p_m}):
one sparse product G = M @ X.T (mistake examples x test examples) and a cumulative sum per
class give every intermediate score; test examples go in chunks so that memory stays
O(mistakes x chunk).  Features never seen in a mistake example have weight 0 in every vector
and are ignored.  Scores are cumulative sums, so in a near-tie they can differ from a direct
dot product by rounding (exact for integer feature values).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from tqdm import tqdm

from wsd.learners.base import (
    DictClassifierMixin,
    Example,
    PersistentMixin,
    check_epochs,
    check_feature_dicts,
    check_is_fitted,
    check_labels,
    sorted_classes,
    to_plain,
)
from wsd.learners.multiclass import activations, argmax, top_contributions
from wsd.learners.training import epoch_orders
from wsd.persistence import register_model

Weights = dict[str, list[float]]  # feature -> weight of every class, in classes_ order

# Floats per working array when rebuilding score trajectories (about 16 MB each).
_CHUNK_BUDGET = 1 << 21


@register_model
class MulticlassVotedPerceptron(PersistentMixin, DictClassifierMixin):
    """Multiclass voted perceptron on feature dicts (see the module docstring).

    Parameters (stored as given, checked by ``fit``):
      epochs: passes over the training data (>= 1).
      shuffle, seed: visit examples in a fresh seeded permutation every epoch.
      verbose: show a progress bar over epochs.

    After ``fit``: ``classes_`` (sorted labels), ``counts_`` (survival counts c_0 .. c_U of
    the U + 1 weight vectors, c_0 that of the zero vector), ``history_`` (one dict per epoch:
    epoch, mistakes, train_accuracy), ``features_`` (the features of the mistaken examples:
    the only ones with weights) and the mistakes that rebuild every vector.
    """

    def __init__(self, epochs: int = 10, shuffle: bool = True, seed: int | None = 0,
                 verbose: bool = False):
        self.epochs = epochs
        self.shuffle = shuffle
        self.seed = seed
        self.verbose = verbose
        self.classes_: list | None = None

    # -- training -----------------------------------------------------------------------

    def fit(self, X: Sequence[Mapping[str, float]],
            y: Sequence[Hashable]) -> MulticlassVotedPerceptron:
        """Train for ``epochs`` passes, recording every mistake and every survival count."""
        epochs = check_epochs(self.epochs)
        examples = check_feature_dicts(X)
        labels = check_labels(y, len(examples))
        classes = sorted_classes(labels)
        index = {label: k for k, label in enumerate(classes)}
        targets = [index[label] for label in labels]
        w: Weights = {}
        b = [0.0] * len(classes)
        counts = [0]
        mistakes: list[tuple[int, int, int]] = []  # (training example, gold, predicted)
        history = []
        progress = tqdm(total=epochs, desc=type(self).__name__, unit="epoch",
                        disable=not self.verbose)
        for epoch, order in enumerate(
                epoch_orders(len(examples), epochs, self.seed, self.shuffle), start=1):
            before = len(mistakes)
            for i in order.tolist():
                x, t = examples[i], targets[i]
                p = argmax(activations(x, w, b))
                if p == t:
                    counts[-1] += 1
                    continue
                _update(w, b, x, t, p)
                mistakes.append((i, t, p))
                counts.append(1)
            made = len(mistakes) - before
            history.append({"epoch": epoch, "mistakes": made,
                            "train_accuracy": (len(order) - made) / len(order)})
            progress.update()
            progress.set_postfix(mistakes=made)
        progress.close()
        rows: dict[int, int] = {}  # training example -> row of the mistake-example matrix
        for i, _, _ in mistakes:
            rows.setdefault(i, len(rows))
        self._set_fitted(classes, [examples[i] for i in rows],
                         [(rows[i], t, p) for i, t, p in mistakes], counts, history)
        return self

    def _set_fitted(self, classes: list, mistake_examples: list[Example],
                    mistakes: list[tuple[int, int, int]], counts: list[int],
                    history: list[dict[str, Any]]) -> None:
        """Store the mistakes compactly: each distinct mistaken example once, as a CSR row
        over the vocabulary of those examples, and (row, gold, predicted) per mistake."""
        self.classes_ = classes
        self._index = {label: k for k, label in enumerate(classes)}
        self.features_ = sorted({f for x in mistake_examples for f, _ in x})
        self._vocabulary = {f: j for j, f in enumerate(self.features_)}
        self._examples = self._as_matrix(mistake_examples)
        self._rows = np.array([r for r, _, _ in mistakes], dtype=np.int64)
        self._gold = np.array([t for _, t, _ in mistakes], dtype=np.int64)
        self._predicted = np.array([p for _, _, p in mistakes], dtype=np.int64)
        self.counts_ = list(counts)
        self.history_ = history
        self._final_w: Weights = {}
        self._final_b = [0.0] * len(classes)
        for r, t, p in mistakes:
            _update(self._final_w, self._final_b, mistake_examples[r], t, p)

    def _as_matrix(self, examples: list[Example]) -> sp.csr_matrix:
        """Examples as a CSR matrix over ``features_``; unknown features are left out."""
        vocabulary = self._vocabulary
        indptr, indices, data = [0], [], []
        for x in examples:
            for feature, value in x:
                j = vocabulary.get(feature)
                if j is not None:
                    indices.append(j)
                    data.append(value)
            indptr.append(len(indices))
        return sp.csr_matrix((np.array(data, dtype=float), np.array(indices, dtype=np.int64),
                              np.array(indptr, dtype=np.int64)),
                             shape=(len(examples), len(vocabulary)))

    # -- prediction ---------------------------------------------------------------------

    def vector_predictions(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        """The class index each stored vector W_0 .. W_U predicts for every feature dict,
        shape (U + 1, n_examples): the votes before weighting (for analysis and tests)."""
        check_is_fitted(self)
        matrix = self._as_matrix(check_feature_dicts(X))
        steps = [self._step_classes(matrix[start:stop])
                 for start, stop in self._chunks(matrix.shape[0])]
        return np.hstack(steps) if steps else np.zeros((len(self.counts_), 0), dtype=np.int64)

    def decision_function(self, X: Sequence[Mapping[str, float]]) -> np.ndarray:
        """The vote totals sum_m c_m [W_m predicts k], shape (n_examples, n_classes), columns
        in ``classes_`` order; every row sums to epochs x training examples."""
        check_is_fitted(self)
        matrix = self._as_matrix(check_feature_dicts(X))
        counts = np.array(self.counts_, dtype=float)
        n_classes = len(self.classes_)
        votes = np.zeros((matrix.shape[0], n_classes))
        for start, stop in self._chunks(matrix.shape[0]):
            steps = self._step_classes(matrix[start:stop])
            n = stop - start
            cells = (steps + n_classes * np.arange(n)).ravel()  # (example, class) per vote
            votes[start:stop] = np.bincount(cells, np.repeat(counts, n),
                                            minlength=n * n_classes).reshape(n, n_classes)
        return votes

    def predict(self, X: Sequence[Mapping[str, float]]) -> list:
        """The class with the most votes for every feature dict (ties: lowest class index)."""
        votes = self.decision_function(X)
        return [self.classes_[k] for k in np.argmax(votes, axis=1).tolist()]

    def predict_scores(self, x: Mapping[str, float]) -> dict[Hashable, float]:
        """The vote total of every class for one feature dict, as {label: votes}."""
        return dict(zip(self.classes_, self.decision_function([x])[0].tolist(), strict=True))

    def _chunks(self, n: int) -> Iterator[tuple[int, int]]:
        """(start, stop) slices of the test examples that keep each working array of
        (U + 1) x chunk floats under the budget."""
        size = max(1, _CHUNK_BUDGET // len(self.counts_))
        return ((start, min(start + size, n)) for start in range(0, n, size))

    def _step_classes(self, matrix: sp.csr_matrix) -> np.ndarray:
        """The argmax class of every vector W_0 .. W_U on every row of ``matrix``.

        Row m of class k's ``scores`` is W_m.x + b_m for that class: the cumulative sum
        over the first m mistakes of (x_m.x + 1) (+1 if y_m = k, -1 if p_m = k).
        A running argmax over classes keeps the lowest index on ties (strict >).
        """
        n = matrix.shape[0]
        gains = (self._examples @ matrix.T).toarray()[self._rows] + 1.0
        best = None
        best_class = np.zeros((len(self.counts_), n), dtype=np.int64)
        for k in range(len(self.classes_)):
            sign = (self._gold == k).astype(float) - (self._predicted == k)
            scores = np.zeros((len(self.counts_), n))
            np.cumsum(gains * sign[:, None], axis=0, out=scores[1:])
            if best is None:
                best = scores
                continue
            better = scores > best
            best = np.where(better, scores, best)
            best_class[better] = k
        return best_class

    # -- the final weight vector --------------------------------------------------------

    def weights(self) -> dict[str, dict[Hashable, float]]:
        """The last weight vector W_U (what MulticlassPerceptron(average=False) ends with),
        rebuilt from the mistakes, as {feature: {label: w}}."""
        check_is_fitted(self)
        classes = self.classes_
        return {feature: dict(zip(classes, row, strict=True))
                for feature, row in self._final_w.items()}

    def biases(self) -> dict[Hashable, float]:
        """The biases of the last weight vector as {label: b}."""
        check_is_fitted(self)
        return dict(zip(self.classes_, self._final_b, strict=True))

    def explain(self, x: Mapping[str, float], label: Hashable,
                k: int = 5) -> list[tuple[str, float]]:
        """The ``k`` features of ``x`` that add most to ``label``'s score under the *last*
        weight vector, as (feature, value x weight) pairs, largest first (ties by name).

        The vote itself has no per-feature decomposition; the last vector is the one the
        perceptron converged to and the one with the largest share of late votes.
        """
        check_is_fitted(self)
        if label not in self._index:
            raise ValueError(f"unknown label {label!r}; the labels are {self.classes_!r}")
        return top_contributions(check_feature_dicts([x])[0], self._final_w,
                                 self._index[label], k)

    # -- persistence --------------------------------------------------------------------

    def _get_state(self) -> dict[str, Any]:
        matrix = self._examples
        examples = [[[int(j), float(v)] for j, v in zip(
            matrix.indices[matrix.indptr[r]:matrix.indptr[r + 1]].tolist(),
            matrix.data[matrix.indptr[r]:matrix.indptr[r + 1]].tolist(), strict=True)]
            for r in range(matrix.shape[0])]
        mistakes = np.column_stack([self._rows, self._gold, self._predicted]).tolist()
        return {"classes": to_plain(self.classes_), "features": self.features_,
                "examples": examples, "mistakes": mistakes, "counts": self.counts_,
                "history": self.history_}

    def _set_state(self, state: Mapping[str, Any]) -> None:
        features = list(state["features"])
        examples = [tuple((features[int(j)], float(v)) for j, v in row)
                    for row in state["examples"]]
        mistakes = [(int(r), int(t), int(p)) for r, t, p in state["mistakes"]]
        counts = [int(c) for c in state["counts"]]
        if any(not (0 <= r < len(examples) and 0 <= t < len(state["classes"])
                        and 0 <= p < len(state["classes"])) for r, t, p in mistakes):
            raise ValueError("a mistake refers to an example or class the model does not have")
        if len(counts) != len(mistakes) + 1:
            raise ValueError(f"{len(mistakes)} mistakes need {len(mistakes) + 1} survival "
                             f"counts, found {len(counts)}")
        self._set_fitted(list(state["classes"]), examples, mistakes, counts,
                         list(state["history"]))


def _update(w: Weights, b: list[float], x: Example, gold: int, predicted: int) -> None:
    """The perceptron update on a mistake: w_gold += x, b_gold += 1; w_pred -= x, b_pred -= 1."""
    for feature, value in x:
        row = w.get(feature)
        if row is None:
            row = w[feature] = [0.0] * len(b)
        row[gold] += value
        row[predicted] -= value
    b[gold] += 1.0
    b[predicted] -= 1.0
