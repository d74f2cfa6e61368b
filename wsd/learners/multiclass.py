"""The multiclass perceptron and averaged perceptron over sparse feature dicts.

This is the readable reference learner of the toolkit (the compiled engine in
``wsd.learners.engine`` must reproduce it to 1e-9).  The training step below follows the
lecture pseudocode (Kuhlmann; the averaging trick of Daumé) line by line::

    for each class k:  w_k <- 0;  b_k <- 0;  u_k <- 0;  beta_k <- 0
    c <- 1
    for each epoch:
        for each training example (x, y):
            p <- the class k with the largest activation x.w_k + b_k
            if p != y:
                w_y <- w_y + x;  b_y <- b_y + 1;  u_y <- u_y + c*x;  beta_y <- beta_y + c
                w_p <- w_p - x;  b_p <- b_p - 1;  u_p <- u_p - c*x;  beta_p <- beta_p - c
            c <- c + 1
    averaged model:  w_k - u_k / c,  b_k - beta_k / c

Two options change *when* and *by how much* the step updates, never what it touches (the gold
class y and the best-scoring other class r, here the prediction p when p != y):

- ``margin`` (perceptron with margin): update not only on a mistake but whenever the gold
  class wins by less than ``margin``, ``x.w_y + b_y - (x.w_r + b_r) < margin``; the step is
  still 1, so the weights are pushed until every training example is won by a margin.
  ``margin=0`` is the plain rule (update iff p != y).
- ``update="pa"`` (passive-aggressive, PA-I of Crammer et al. 2006): the hinge loss
  l = max(0, 1 - (x.w_y + b_y - x.w_r - b_r)) decides (update iff l > 0), and the step is
  tau = min(C, l / (2 (||x||^2 + 1))) instead of 1 -- the smallest change that wins the example
  by 1, capped by C (the bias counts as a feature of value 1 in each class's row)::

        w_y += tau x;  b_y += tau;  u_y += c tau x;  beta_y += c tau     (and -tau for r)

Averaging is unchanged, so both options also exist averaged. Three more options act around
the training loop, not inside it:

- ``n_models`` (mean of several averaged perceptrons over shuffles): train ``n_models`` copies
  whose example orders come from seeds seed, seed + 1, ... and predict with the mean of their
  (averaged) weights and biases -- one linear model, less dependent on one order of the data.
- ``prior`` (the sense prior, scaled by training-set size): add m/(m + n) x log P(k) to each
  class's bias at prediction, with m = ``prior`` a pseudo-count, n the number of training
  examples and P(k) the add-one smoothed training frequency: a word with few examples leans on
  its most frequent sense, a well-trained one hardly at all.
- ``backoff_margin`` (confidence-aware backoff): when the best class beats the runner-up by
  less than this, answer the most frequent training class instead.

The exact contract: ``classes_ = sorted(set(y))``; ties in the argmax go to the lowest class
index; examples are visited in the order of ``epoch_orders(n, epochs, seed, shuffle)``; the
counter ``c`` grows after every example and keeps growing across epochs and ``partial_fit``
calls.  Feature values are used as given (real values, not just presence).

Weights are stored as feature -> class -> weight: a dict from feature name to a row of one
weight per class (a list indexed like ``classes_``), created when the feature is first
updated.  A step costs O(non-zero features x touched classes): scoring reads one row per
feature of the example, an update touches two entries per feature, and the ``u`` trick makes
averaging lazy -- nothing is done per step for features the example does not have.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
from tqdm import tqdm

from wsd.learners.base import EstimatorMixin, PersistentMixin, check_is_fitted, to_plain
from wsd.learners.dictclassifier import DictClassifierMixin
from wsd.learners.inputs import (
    Example,
    check_epochs,
    check_labels,
    check_patience,
    check_prediction_options,
    check_update_options,
    sorted_classes,
)
from wsd.learners.training import EarlyStopping, epoch_orders
from wsd.persistence import register_model

Weights = dict[str, list[float]]  # feature -> weight of every class, in classes_ order
ENGINES = ("auto", "dict", "compiled")
# Below this many non-zero feature values the dict loop is quick and the compiled engine's
# start-up (importing numba, vectorizing) would cost more than it saves.
COMPILED_FROM = 200_000


def activations(x: Example, weights: Weights, bias: list[float]) -> list[float]:
    """x.w_k + b_k for every class k; features without weights are ignored.

    The rows x_f * w_f are summed column by column with ``zip`` and ``sum`` (starting from
    b_k, then feature by feature in the order of x), which keeps the per-class loop in C.
    """
    rows = []
    for feature, value in x:
        row = weights.get(feature)
        if row is not None:
            rows.append(row if value == 1.0 else [value * weight for weight in row])
    if not rows:
        return list(bias)
    return [sum(column, b_k) for column, b_k in zip(zip(*rows, strict=True), bias, strict=True)]


def top_contributions(x: Example, weights: Weights, column: int,
                      k: int) -> list[tuple[str, float]]:
    """The ``k`` largest value x weight terms of class ``column``'s activation, as (feature,
    contribution) pairs, largest first (ties by feature name); zero weights are skipped."""
    contributions = []
    for feature, value in x:
        row = weights.get(feature)
        weight = 0.0 if row is None else row[column]
        if weight != 0.0:
            contributions.append((feature, value * weight))
    contributions.sort(key=lambda pair: (-pair[1], pair[0]))
    return contributions[:k]


def score_terms(x: Example, weights: Weights, bias: list[float],
                column: int) -> tuple[float, list[tuple[str, float]]]:
    """Class ``column``'s activation split into its bias and one value x weight term per
    feature of ``x`` that has a weight row (in the order of ``x``): they sum to the score."""
    terms = []
    for feature, value in x:
        row = weights.get(feature)
        if row is not None:
            terms.append((feature, value * row[column]))
    return bias[column], terms


def argmax(scores: list[float]) -> int:
    """The index of the largest score; ties go to the lowest index."""
    return scores.index(max(scores))


def runner_up(scores: list[float], gold: int) -> int:
    """The best-scoring class other than ``gold`` (ties to the lowest index)."""
    best = 1 if gold == 0 else 0
    for k, score in enumerate(scores):
        if k != gold and score > scores[best]:
            best = k
    return best


def step_size(scores: list[float], x: Example, gold: int, rival: int, margin: float,
              update: str, C: float) -> float:
    """How far the lecture's update moves for one example: 0 (no update), 1 (perceptron,
    when the gold class does not win by ``margin``) or the PA-I step for the hinge loss."""
    won_by = scores[gold] - scores[rival]
    if update == "pa":
        loss = 1.0 - won_by
        if loss <= 0.0:
            return 0.0
        return min(C, loss / (2.0 * (sum(value * value for _, value in x) + 1.0)))
    return 1.0 if won_by < margin else 0.0


@register_model
class MulticlassPerceptron(DictClassifierMixin, PersistentMixin, EstimatorMixin):
    """Multiclass perceptron on feature dicts; ``average=True`` gives the averaged perceptron.

    Parameters (stored as given, checked by ``fit``):
      epochs: passes over the training data (>= 1).
      average: predict with the average of all weight vectors seen during training.
      shuffle, seed: visit examples in a fresh seeded permutation every epoch.
      patience: with a development set, stop after this many epochs without a better dev
        accuracy (None: run all epochs).  With a development set the model always ends with
        the weights of its best epoch.
      verbose: show a progress bar over epochs.
      margin: with the perceptron update, also update when the gold class wins by less than
        this (0: only on mistakes); see the module docstring.
      update: "perceptron" (step 1) or "pa" (passive-aggressive PA-I, step capped by ``C``).
      C: the PA-I aggressiveness cap (ignored by the perceptron update).
      n_models: predict with the mean weights of this many copies trained on different
        shuffles (seeds seed, seed + 1, ...); 1: a single model.
      prior: pseudo-count m of the size-scaled log sense prior added to the biases (0: none).
      backoff_margin: answer the most frequent training class when the winning margin is
        below this (0: never).
      engine: "dict" trains with the loop below; "compiled" with the numba engine over CSR
        (``wsd.learners.engine``), which reaches the same weights to 1e-9 many times faster;
        "auto" (default) picks the compiled engine for data with at least COMPILED_FROM
        non-zero feature values. ``partial_fit`` always uses the loop below.

    ``X`` is a list of feature dicts or a matrix (dense or scipy.sparse, e.g. the output of
    scikit-learn's DictVectorizer) whose column j is the feature "x<j>".

    After ``fit``: ``classes_`` (sorted labels), ``history_`` (one dict per epoch: epoch,
    mistakes, train_accuracy -- the fraction of examples the weights classified correctly as
    they were visited -- and dev_accuracy or None), ``best_epoch_`` (None without a dev set)
    and ``counter_`` (the example counter c); ``n_features_in_`` when trained on a matrix.
    """

    def __init__(self, epochs: int = 10, average: bool = False, shuffle: bool = True,
                 seed: int | None = 0, patience: int | None = None, verbose: bool = False,
                 engine: str = "auto", margin: float = 0.0, update: str = "perceptron",
                 C: float = 1.0, n_models: int = 1, prior: float = 0.0,
                 backoff_margin: float = 0.0):
        self.epochs = epochs
        self.average = average
        self.shuffle = shuffle
        self.seed = seed
        self.patience = patience
        self.verbose = verbose
        self.engine = engine
        self.margin = margin
        self.update = update
        self.C = C
        self.n_models = n_models
        self.prior = prior
        self.backoff_margin = backoff_margin

    # -- training -----------------------------------------------------------------------

    def fit(self, X: Any, y: Sequence[Hashable], X_dev: Any = None,
            y_dev: Sequence[Hashable] | None = None) -> MulticlassPerceptron:
        """Train from scratch for ``epochs`` passes; with a dev set keep the best epoch."""
        epochs = check_epochs(self.epochs)
        check_update_options(self.margin, self.update, self.C)
        examples, labels = self._training_data(X, y)
        dev = self._check_dev(X_dev, y_dev)
        check_prediction_options(self.n_models, self.prior, self.backoff_margin)
        if self.n_models > 1:
            self._fit_mean(X, labels, X_dev, y_dev)
        elif self._use_compiled_engine(examples):
            self._fit_compiled(examples, labels, dev)
        else:
            self._fit_loop(examples, labels, dev, epochs)
        self._class_counts = _counts(labels, self._index)
        self._publish()
        return self

    def _fit_loop(self, examples: list[Example], labels: list, dev, epochs: int) -> None:
        """The lecture's training: ``epochs`` passes, keeping the best epoch with a dev set."""
        self._start(sorted_classes(labels))
        targets = [self._index[label] for label in labels]
        stopping = EarlyStopping(self.patience)
        progress = tqdm(total=epochs, desc=type(self).__name__, unit="epoch",
                        disable=not self.verbose)
        for order in epoch_orders(len(examples), epochs, self.seed, self.shuffle):
            record = self._epoch(examples, targets, order.tolist(), dev)
            progress.update()
            progress.set_postfix(mistakes=record["mistakes"], dev=record["dev_accuracy"])
            if dev is not None and stopping.update(record["dev_accuracy"], record["epoch"],
                                                   self._snapshot):
                break
        progress.close()
        if stopping.best is not None:
            _, self.best_epoch_, snapshot = stopping.best
            self._restore(snapshot)

    def _fit_mean(self, X, labels, X_dev, y_dev) -> None:
        """Train ``n_models`` single models on seeds seed, seed + 1, ... and keep the mean of
        their prediction weights as this model's weights (sums zero, so ``average`` leaves them
        as they are); the history is that of the first model."""
        params = {**self.get_params(deep=False), "n_models": 1, "prior": 0.0, "backoff_margin": 0.0}
        models = []
        for i in range(self.n_models):
            params["seed"] = None if self.seed is None else self.seed + i
            models.append(type(self)(**params).fit(X, labels, X_dev, y_dev))
        self._start(models[0].classes_)
        n_classes, share = len(self.classes_), 1.0 / len(models)
        for model in models:
            for feature, row in model._model_w.items():
                mean = self._w.setdefault(feature, [0.0] * n_classes)
                for k, weight in enumerate(row):
                    mean[k] += share * weight
            self._b = [b + share * b_model for b, b_model in zip(self._b, model._model_b,
                                                                 strict=True)]
        self._u = {feature: [0.0] * n_classes for feature in self._w}
        self._c = models[0]._c
        self.history_ = models[0].history_
        self.best_epoch_ = models[0].best_epoch_

    def _use_compiled_engine(self, examples: list[Example]) -> bool:
        """``engine``: "dict" (this readable loop), "compiled" (numba over CSR, same weights),
        or "auto": compiled once the data has COMPILED_FROM non-zero values or more."""
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {self.engine!r}")
        if self.engine == "auto":
            return sum(len(x) for x in examples) >= COMPILED_FROM
        return self.engine == "compiled"

    def _fit_compiled(self, examples: list[Example], labels: list,
                      dev: tuple[list[Example], list] | None) -> MulticlassPerceptron:
        """Train with the compiled engine and take over its state: identical weights, history
        and counter, so prediction, saving and ``partial_fit`` go on in this class."""
        from wsd.features.vectorize import FeatureVectorizer  # scipy.sparse: compiled engine only
        from wsd.learners.engine import CSRAveragedPerceptron  # numba: compiled engine only

        X = [dict(x) for x in examples]
        vectorizer = FeatureVectorizer(min_count=1).fit(X)
        params = {k: v for k, v in self.get_params(deep=False).items() if k != "engine"}
        fast = CSRAveragedPerceptron(**params)
        if dev is None:
            fast.fit(vectorizer.transform(X), labels)
        else:
            X_dev = vectorizer.transform([dict(x) for x in dev[0]])
            fast.fit(vectorizer.transform(X), labels, X_dev, dev[1])
        self._set_state(fast.dict_state(vectorizer.feature_names_))

    def partial_fit(self, X: Any, y: Sequence[Hashable],
                    classes: Sequence[Hashable] | None = None) -> MulticlassPerceptron:
        """One pass over (X, y) in the given order, continuing the weights and the counter.

        The first call fixes ``classes_`` (from ``classes``, else from ``y``) and, for a
        matrix, the number of columns; pass ``classes`` when the first batch does not show
        every label.
        """
        check_update_options(self.margin, self.update, self.C)
        if not hasattr(self, "classes_"):
            examples, labels = self._training_data(X, y)
            self._start(sorted_classes(labels if classes is None else list(classes)))
        else:
            examples = self._examples_of(X)
            labels = check_labels(y, len(examples))
        if classes is not None and sorted(set(classes)) != self.classes_:
            raise ValueError(f"classes {sorted(set(classes))!r} differ from the classes of the "
                             f"first partial_fit call {self.classes_!r}")
        unknown = sorted({repr(label) for label in labels if label not in self._index})
        if unknown:
            raise ValueError(f"labels {', '.join(unknown)} are not among classes_ "
                             f"{self.classes_!r}; pass every label with classes= on the first "
                             "partial_fit call")
        targets = [self._index[label] for label in labels]
        self._class_counts = [n + new for n, new in zip(self._class_counts,
                                                        _counts(labels, self._index), strict=True)]
        self._epoch(examples, targets, range(len(examples)), None)
        self._publish()
        return self

    def _start(self, classes: list) -> None:
        """Fresh zero weights for ``classes``: w, b, u, beta and the counter c = 1."""
        self.classes_ = classes
        self._index = {label: k for k, label in enumerate(classes)}
        self._w: Weights = {}
        self._u: Weights = {}
        self._b = [0.0] * len(classes)
        self._beta = [0.0] * len(classes)
        self._c = 1
        self._class_counts = [0] * len(classes)
        self.history_: list[dict[str, Any]] = []
        self.best_epoch_: int | None = None

    def _epoch(self, examples: list[Example], targets: list[int], order: Sequence[int],
               dev: tuple[list[Example], list] | None) -> dict[str, Any]:
        """One pass over the examples in ``order``; append and return its history record."""
        mistakes = self._train_pass(examples, targets, order)
        dev_accuracy = None
        if dev is not None:
            self._publish()
            dev_accuracy = self._accuracy(*dev)
        record = {"epoch": len(self.history_) + 1, "mistakes": mistakes,
                  "train_accuracy": (len(order) - mistakes) / len(order),
                  "dev_accuracy": dev_accuracy}
        self.history_.append(record)
        return record

    def _train_pass(self, examples: list[Example], targets: list[int],
                    order: Sequence[int]) -> int:
        """The lecture's inner loop over one epoch; returns the number of mistakes."""
        w, u, b, beta = self._w, self._u, self._b, self._beta
        average = self.average
        margin, update, C = float(self.margin), self.update, float(self.C)
        plain = update == "perceptron" and margin == 0.0
        n_classes = len(b)
        c = self._c
        mistakes = 0
        for i in order:
            x, y = examples[i], targets[i]
            scores = activations(x, w, b)
            p = argmax(scores)
            mistakes += p != y
            if plain:  # the lecture's rule: a full step on every mistake, against p
                tau = 1.0 if p != y else 0.0
            else:
                p = runner_up(scores, y)
                tau = step_size(scores, x, y, p, margin, update, C)
            if tau:
                for feature, value in x:
                    w_f = w.get(feature)
                    if w_f is None:
                        w_f = w[feature] = [0.0] * n_classes
                    w_f[y] += tau * value
                    w_f[p] -= tau * value
                b[y] += tau
                b[p] -= tau
                if average:
                    for feature, value in x:
                        u_f = u.get(feature)
                        if u_f is None:
                            u_f = u[feature] = [0.0] * n_classes
                        u_f[y] += c * tau * value
                        u_f[p] -= c * tau * value
                    beta[y] += c * tau
                    beta[p] -= c * tau
            c += 1
        self._c = c
        return mistakes

    def _publish(self) -> None:
        """Set the weights predictions use: the average w - u/c, b - beta/c, or w, b."""
        if self.average:
            self._model_w = {feature: _averaged(w_f, self._u[feature], self._c)
                             for feature, w_f in self._w.items()}
            self._model_b = _averaged(self._b, self._beta, self._c)
        else:
            self._model_w = {feature: list(w_f) for feature, w_f in self._w.items()}
            self._model_b = list(self._b)
        n = sum(self._class_counts)
        if self.prior and n:
            scale = self.prior / (self.prior + n)
            n_classes = len(self._class_counts)
            self._model_b = [b + scale * math.log((count + 1) / (n + n_classes))
                             for b, count in zip(self._model_b, self._class_counts, strict=True)]
        self.counter_ = self._c

    def _snapshot(self) -> tuple:
        return ({f: list(w_f) for f, w_f in self._w.items()},
                {f: list(u_f) for f, u_f in self._u.items()},
                list(self._b), list(self._beta), self._c)

    def _restore(self, snapshot: tuple) -> None:
        self._w, self._u, self._b, self._beta, self._c = snapshot

    def _check_dev(self, X_dev, y_dev) -> tuple[list[Example], list] | None:
        if (X_dev is None) != (y_dev is None):
            raise ValueError("give both X_dev and y_dev for early stopping, or neither")
        patience = check_patience(self.patience)
        if X_dev is None:
            if patience is not None:
                raise ValueError("patience needs a development set: call fit(X, y, X_dev, y_dev)")
            return None
        examples = self._examples_of(X_dev, what="X_dev", fitted=False)
        return examples, check_labels(y_dev, len(examples), what="y_dev")

    def _accuracy(self, examples: list[Example], labels: list) -> float:
        predictions = self._predict_checked(examples, backoff=False)
        return sum(p == g for p, g in zip(predictions, labels, strict=True)) / len(labels)

    # -- prediction ---------------------------------------------------------------------

    def predict(self, X: Any) -> list:
        """The predicted label of every example."""
        return self._predict_checked(self._examples_of(X))

    def _predict_checked(self, examples: list[Example], backoff: bool = True) -> list:
        """Predictions; ``backoff=False`` (dev accuracy in training) ignores backoff_margin."""
        w, b, classes = self._model_w, self._model_b, self.classes_
        if not (backoff and self.backoff_margin) or len(classes) < 2:
            return [classes[argmax(activations(x, w, b))] for x in examples]
        counts = self._class_counts
        most_frequent = counts.index(max(counts))
        answers = []
        for x in examples:
            scores = activations(x, w, b)
            best = argmax(scores)
            confident = scores[best] - scores[runner_up(scores, best)] >= self.backoff_margin
            answers.append(classes[best if confident else most_frequent])
        return answers

    def _scores(self, examples: list[Example]) -> np.ndarray:
        rows = [activations(x, self._model_w, self._model_b) for x in examples]
        return np.array(rows, dtype=float).reshape(len(examples), len(self.classes_))

    def decision_function(self, X: Any) -> np.ndarray:
        """Activations, shape (n_examples, n_classes), columns in ``classes_`` order; with two
        classes scikit-learn's shape (n_examples,): the activation of ``classes_[1]`` minus
        that of ``classes_[0]``."""
        return self._decision(self._scores(self._examples_of(X)))

    def explain(self, x: Mapping[str, float], label: Hashable,
                k: int = 5) -> list[tuple[str, float]]:
        """The ``k`` features of ``x`` that add most to ``label``'s activation, as
        (feature, value x weight) pairs, largest first (ties by feature name)."""
        return top_contributions(self._examples_of([x])[0], self._model_w,
                                 self._column(label), k)

    def score_terms(self, x: Mapping[str, float], label: Hashable) -> tuple[float, list]:
        """``label``'s activation for ``x`` as (bias, [(feature, value x weight), ...]); the
        bias and the terms add up to ``predict_scores(x)[label]``."""
        return score_terms(self._examples_of([x])[0], self._model_w, self._model_b,
                           self._column(label))

    explained_scores = "the scores"

    def weights(self) -> dict[str, dict[Hashable, float]]:
        """The weights predictions use (averaged when ``average``) as {feature: {label: w}}."""
        check_is_fitted(self)
        classes = self.classes_
        return {feature: dict(zip(classes, row, strict=True))
                for feature, row in self._model_w.items()}

    def biases(self) -> dict[Hashable, float]:
        """The biases predictions use as {label: b}."""
        check_is_fitted(self)
        return dict(zip(self.classes_, self._model_b, strict=True))

    # -- persistence --------------------------------------------------------------------

    def _get_state(self) -> dict[str, Any]:
        return {"classes": to_plain(self.classes_), "counter": self._c,
                "bias": list(self._b), "bias_sums": list(self._beta),
                "weights": {feature: list(row) for feature, row in self._w.items()},
                "weight_sums": {feature: list(row) for feature, row in self._u.items()},
                "history": [dict(record) for record in self.history_],
                "best_epoch": self.best_epoch_, "class_counts": list(self._class_counts)}

    def _set_state(self, state: Mapping[str, Any]) -> None:
        self._start(list(state["classes"]))
        self._c = int(state["counter"])
        self._b = [float(v) for v in state["bias"]]
        self._beta = [float(v) for v in state["bias_sums"]]
        self._w = _rows(state["weights"], len(self.classes_))
        self._u = _rows(state["weight_sums"], len(self.classes_))
        self.history_ = list(state["history"])
        self.best_epoch_ = state["best_epoch"]
        self._class_counts = [int(n) for n in state.get("class_counts", self._class_counts)]
        self._publish()


@register_model
class MulticlassAveragedPerceptron(MulticlassPerceptron):
    """The multiclass perceptron with ``average=True`` by default (see MulticlassPerceptron)."""

    def __init__(self, epochs: int = 10, average: bool = True, shuffle: bool = True,
                 seed: int | None = 0, patience: int | None = None, verbose: bool = False,
                 engine: str = "auto", margin: float = 0.0, update: str = "perceptron",
                 C: float = 1.0, n_models: int = 1, prior: float = 0.0,
                 backoff_margin: float = 0.0):
        super().__init__(epochs=epochs, average=average, shuffle=shuffle, seed=seed,
                         patience=patience, verbose=verbose, engine=engine, margin=margin,
                         update=update, C=C, n_models=n_models, prior=prior,
                         backoff_margin=backoff_margin)


def _counts(labels: Sequence[Hashable], index: Mapping[Hashable, int]) -> list[int]:
    """How many of ``labels`` each class has, in ``classes_`` order."""
    counts = [0] * len(index)
    for label in labels:
        counts[index[label]] += 1
    return counts


def _averaged(weights: list[float], sums: list[float], c: int) -> list[float]:
    """The lecture's w - u/c for one row of weights."""
    return [w_k - u_k / c for w_k, u_k in zip(weights, sums, strict=True)]


def _rows(data: Mapping[str, list], n_classes: int) -> Weights:
    """Weight rows read from a model file, each checked to have one weight per class."""
    rows = {}
    for feature, row in data.items():
        if len(row) != n_classes:
            raise ValueError(f"feature {feature!r} has {len(row)} weights for {n_classes} classes")
        rows[feature] = [float(weight) for weight in row]
    return rows
