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
stores the mistakes -- the example x_m, gold y_m and predicted p_m -- and replays the score
trajectory for each test example, since W_m.x = W_{m-1}.x + (x_m.x + 1)(e_{y_m} - e_{p_m}):
the compiled kernel in ``wsd.learners.votekernel`` takes the dot products x_m.x through an
index of the mistake examples by feature (built once, at fit or load time) and then walks the
mistakes once, so the vote costs O(vectors x classes) per example and no per-call set-up.
``predict``, which needs only the winner, lets the last vectors (most of the votes) vote
first and stops once the rest cannot change the winner: same answers, fewer argmaxes.
Features never seen in a mistake example have weight 0 in every vector and are ignored.
Scores are running sums (from W_0, or for the last vectors from a stored copy of one vector),
so in a near-tie they can differ from a direct dot product by rounding (exact for integer
feature values).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

from wsd.learners.base import EstimatorMixin, PersistentMixin, check_is_fitted, to_plain
from wsd.learners.dictclassifier import DictClassifierMixin
from wsd.learners.inputs import Example, check_epochs, sorted_classes
from wsd.learners.multiclass import activations, argmax, score_terms, top_contributions
from wsd.learners.training import epoch_orders
from wsd.persistence import register_model

if TYPE_CHECKING:
    import scipy.sparse as sp

Weights = dict[str, list[float]]  # feature -> weight of every class, in classes_ order
TAIL_SHARE = 0.75  # predict first counts the votes of the last vectors holding this share


def tail_start(counts: np.ndarray) -> int:
    """The first vector of the tail, the last vectors that hold at least ``TAIL_SHARE`` of
    the votes: from 1 (W_0 is never in it) to the last vector (when it holds them alone)."""
    later = np.cumsum(counts[::-1])[::-1]  # later[m]: the votes of W_m .. W_U
    last = len(counts) - 1
    return min(max(1, int(np.count_nonzero(later >= TAIL_SHARE * later[0])) - 1), max(1, last))


@register_model
class MulticlassVotedPerceptron(DictClassifierMixin, PersistentMixin, EstimatorMixin):
    """Multiclass voted perceptron on feature dicts (see the module docstring).

    Parameters (stored as given, checked by ``fit``):
      epochs: passes over the training data (>= 1).
      shuffle, seed: visit examples in a fresh seeded permutation every epoch.
      verbose: show a progress bar over epochs.

    After ``fit``: ``classes_`` (sorted labels), ``counts_`` (survival counts c_0 .. c_U of
    the U + 1 weight vectors, c_0 that of the zero vector), ``history_`` (one dict per epoch:
    epoch, mistakes, train_accuracy), ``features_`` (the features of the mistaken examples:
    the only ones with weights) and the mistakes that rebuild every vector; ``n_features_in_``
    when trained on a matrix.
    """

    def __init__(self, epochs: int = 10, shuffle: bool = True, seed: int | None = 0,
                 verbose: bool = False):
        self.epochs = epochs
        self.shuffle = shuffle
        self.seed = seed
        self.verbose = verbose

    # -- training -----------------------------------------------------------------------

    def fit(self, X: Any, y: Sequence[Hashable]) -> MulticlassVotedPerceptron:
        """Train for ``epochs`` passes, recording every mistake and every survival count.
        ``X``: feature dicts, or a matrix (dense or scipy.sparse) whose column j is "x<j>"."""
        epochs = check_epochs(self.epochs)
        examples, labels = self._training_data(X, y)
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
        self._counts = np.array(counts, dtype=float)
        self._earlier = np.concatenate([[0.0], np.cumsum(self._counts[:-1])])
        self._tail = tail_start(self._counts)
        self._set_checkpoint(mistakes[:self._tail - 1])
        self._postings = self._examples.tocsc()
        self._postings.sort_indices()
        self._final_w: Weights = {}
        self._final_b = [0.0] * len(classes)
        for r, t, p in mistakes:
            _update(self._final_w, self._final_b, mistake_examples[r], t, p)

    def _set_checkpoint(self, mistakes: list[tuple[int, int, int]]) -> None:
        """The vector W_{tail-1} where the scores of the tail start (see votekernel), dense
        over ``features_`` x classes, with its biases: the updates of its ``mistakes``."""
        matrix = self._examples
        self._checkpoint = np.zeros((matrix.shape[1], len(self.classes_)))
        self._checkpoint_bias = np.zeros(len(self.classes_))
        for r, gold, predicted in mistakes:
            columns = matrix.indices[matrix.indptr[r]:matrix.indptr[r + 1]]
            values = matrix.data[matrix.indptr[r]:matrix.indptr[r + 1]]
            self._checkpoint[columns, gold] += values
            self._checkpoint[columns, predicted] -= values
            self._checkpoint_bias[gold] += 1.0
            self._checkpoint_bias[predicted] -= 1.0

    def _csr_arrays(self, examples: list[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indptr, indices, data) of the examples over ``features_`` (in each example's own
        order; unknown features are left out), built in one pass over plain lists: no
        per-call overhead of a scipy matrix or of numpy steps when one sentence is
        disambiguated at a time."""
        lookup = self._vocabulary.get
        columns: list[int] = []
        values: list[float] = []
        indptr = [0]
        for x in examples:
            for feature, value in x:
                column = lookup(feature)
                if column is not None:
                    columns.append(column)
                    values.append(value)
            indptr.append(len(columns))
        return (np.array(indptr, dtype=np.int64), np.array(columns, dtype=np.int64),
                np.array(values, dtype=float))

    def _as_matrix(self, examples: list[Example]) -> sp.csr_matrix:
        """Examples as a CSR matrix over ``features_``; unknown features are left out."""
        import scipy.sparse as sp  # scipy: a fifth of a second, off a cold start's path

        indptr, indices, data = self._csr_arrays(examples)
        return sp.csr_matrix((data, indices, indptr), shape=(len(examples), len(self._vocabulary)))

    # -- prediction ---------------------------------------------------------------------

    def _vote(self, examples: list[Example], keep_steps: bool = False,
              winner_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Vote totals (examples x classes) and, with ``keep_steps``, each vector's class.
        With ``winner_only`` the totals are partial, counted only until the winner (their
        argmax) is settled."""
        from wsd.learners.votekernel import vote  # numba: compiles on first use

        indptr, indices, data = self._csr_arrays(examples)
        n, n_vectors = len(examples), len(self.counts_)
        votes = np.zeros((n, len(self.classes_)))
        steps = np.zeros((n_vectors, n) if keep_steps else (0, 0), dtype=np.int64)
        postings = self._postings
        vote(indptr, indices, data, postings.indptr, postings.indices, postings.data,
             self._rows, self._gold, self._predicted, self._counts, self._earlier,
             self._checkpoint, self._checkpoint_bias, self._tail, self._examples.shape[0],
             votes, steps, keep_steps, winner_only)
        return votes, steps

    def vector_predictions(self, X: Any) -> np.ndarray:
        """The class index each stored vector W_0 .. W_U predicts for every example,
        shape (U + 1, n_examples): the votes before weighting (for analysis and tests)."""
        return self._vote(self._examples_of(X), keep_steps=True)[1]

    def _scores(self, examples: list[Example]) -> np.ndarray:
        return self._vote(examples)[0]

    def decision_function(self, X: Any) -> np.ndarray:
        """The vote totals sum_m c_m [W_m predicts k], shape (n_examples, n_classes), columns
        in ``classes_`` order; every row sums to epochs x training examples. With two classes,
        scikit-learn's shape (n_examples,): the votes for ``classes_[1]`` minus the others."""
        return self._decision(self._vote(self._examples_of(X))[0])

    def predict(self, X: Any) -> list:
        """The class with the most votes for every example (ties: lowest class index)."""
        votes = self._vote(self._examples_of(X), winner_only=True)[0]
        return [self.classes_[k] for k in np.argmax(votes, axis=1).tolist()]

    def _probability_scores(self, examples: list[Example]) -> np.ndarray:
        """The share of the votes each class gets (what ``prob_classify`` softmaxes)."""
        votes = self._vote(examples)[0]
        return votes / np.maximum(votes.sum(axis=1, keepdims=True), 1.0)

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
        return top_contributions(self._examples_of([x])[0], self._final_w,
                                 self._column(label), k)

    def score_terms(self, x: Mapping[str, float], label: Hashable) -> tuple[float, list]:
        """``label``'s score under the last weight vector as (bias, [(feature, value x
        weight), ...]): the linear part an explanation can split (the vote cannot be)."""
        return score_terms(self._examples_of([x])[0], self._final_w, self._final_b,
                           self._column(label))

    explained_scores = "the last weight vector"

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
