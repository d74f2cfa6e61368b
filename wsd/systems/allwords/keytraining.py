"""Training one key's classifier: featurize its instances, fit the weighting and the mean of
several averaged perceptrons, optionally keep it only if it beats the most frequent sense."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import sparse

from wsd.features import FeatureVectorizer
from wsd.features.weighting import make_weighting
from wsd.instance import Instance
from wsd.learners.engine import CSRAveragedPerceptron, task_seed
from wsd.systems.allwords.context import SentenceId
from wsd.systems.allwords.instance_features import InstanceFeatures
from wsd.systems.allwords.keymodel import KeyModel, most_frequent


def fit_linear_svc(X, labels: Sequence[str], key: str, learning: Mapping[str, Any]):
    """``(classes, coef (n_features, n_classes), intercept)`` of scikit-learn's LinearSVC
    (one-vs-rest, ``C``): the large-margin peer of the perceptrons on the same features. Two
    classes get the scores -f/2 and +f/2 of its one decision function f."""
    try:
        from sklearn.svm import LinearSVC  # optional: scikit-learn
    except ImportError as err:
        raise ImportError("learner='linear_svc' needs scikit-learn: pip install 'wsd[bench]'") \
            from err
    svc = LinearSVC(C=learning["C"], random_state=task_seed(learning["seed"], key)).fit(X, labels)
    coef, intercept = svc.coef_.T, svc.intercept_
    if coef.shape[1] == 1:
        coef, intercept = np.hstack([-coef, coef]) / 2, np.array([-intercept[0], intercept[0]]) / 2
    return svc.classes_.tolist(), coef, intercept


def fit_perceptron(X, labels: Sequence[str], key: str, learning: Mapping[str, Any]):
    """``(classes, coef (n_features, n_classes), intercept)``: the mean of ``n_models``
    perceptrons trained on different shuffles (seeds from ``key``, ``key#1``, ...), each with
    the ``update`` rule (perceptron or PA-I with ``C``) and ``train_margin``; ``learner=
    "linear_svc"`` fits ``fit_linear_svc`` instead."""
    if learning.get("learner") == "linear_svc":
        return fit_linear_svc(X, labels, key, learning)
    coef, intercept = 0.0, 0.0
    for r in range(learning["n_models"]):
        learner = CSRAveragedPerceptron(
            epochs=learning["epochs"],
            average=learning["average"],
            seed=task_seed(learning["seed"], key if r == 0 else f"{key}#{r}"),
            margin=learning.get("train_margin", 0.0),
            update=learning.get("update", "perceptron"),
            C=learning.get("C", 1.0),
        ).fit(X, labels)
        coef = coef + learner.coef_.T
        intercept = intercept + learner.intercept_
    n = learning["n_models"]
    return learner.classes_.tolist(), coef / n, intercept / n


def beats_mfs(X, labels: Sequence[str], key: str, learning: Mapping[str, Any]) -> bool:
    """Whether the classifier answers more held-out examples right than the most frequent
    sense does, in ``cv_folds``-fold cross-validation on the key's training data."""
    folds = learning["cv_folds"]
    order = np.random.default_rng(task_seed(learning["seed"], f"{key}#cv")).permutation(len(labels))
    labels = np.asarray(labels)
    wins = 0
    for fold in range(folds):
        test, train = order[fold::folds], np.setdiff1d(order, order[fold::folds])
        mfs = most_frequent(Counter(labels[train].tolist()))
        if len(set(labels[train].tolist())) < 2:
            continue  # the classifier would be the MFS
        classes, coef, intercept = fit_perceptron(X[train], labels[train].tolist(), key,
                                                  learning)  # fmt: skip
        guesses = np.asarray(classes)[np.argmax(X[test] @ coef + intercept, axis=1)]
        wins += int(np.sum(guesses == labels[test])) - int(np.sum(labels[test] == mfs))
    return wins > 0


def train_key(
    key: str,
    instances: Sequence[Instance],
    context: Mapping[SentenceId, tuple[str, ...]] | None,
    spec_json: str,
    weighting: str,
    learning: Mapping[str, Any],
    dense: np.ndarray | None = None,
    dense_names: Sequence[str] = (),
) -> tuple[str, KeyModel | None]:
    """Featurize one key's training instances, fit its weighting and its perceptron(s).

    ``learning``: epochs, average, seed, n_models, cv_folds, learner, update, train_margin
    and C; ``dense``: the instances' scaled contextual block (columns ``dense_names``), beside
    the weighted sparse features. The model is None when cross-validation (cv_folds > 1) finds
    the classifier no better than the most frequent sense.
    """
    rows = InstanceFeatures(spec_json, context).extract(instances)
    weigher = make_weighting(weighting)
    rows = weigher.fit_transform(rows)
    vectorizer = FeatureVectorizer()
    X = vectorizer.fit_transform(rows)
    names = list(vectorizer.feature_names_)
    if dense is not None:
        X = sparse.hstack([X, sparse.csr_matrix(dense)], format="csr")
        names += dense_names
    labels = [inst.senses[0] for inst in instances]
    if learning["cv_folds"] > 1 and not beats_mfs(X, labels, key, learning):
        return key, None
    classes, coef, intercept = fit_perceptron(X, labels, key, learning)
    used = np.flatnonzero(np.any(coef != 0.0, axis=1))  # features whose weights stayed 0 go
    model = KeyModel(
        classes=classes,
        features=[sys.intern(names[j]) for j in used],  # one copy of a name across keys
        coef=coef[used],
        intercept=intercept,
        weighting=weigher,
    )
    return key, model
