"""The compiled CSR engine reproduces the averaged-perceptron contract exactly."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import scipy.sparse as sp

from wsd.learners.engine import (
    BinaryCSRAveragedPerceptron,
    CSRAveragedPerceptron,
    task_seed,
    train_many,
)
from wsd.learners.training import epoch_orders

# --------------------------------------------------------------------------- references


def reference_multiclass(X, y, epochs, seed, shuffle, average=True):
    """Direct dense re-implementation of the multiclass contract (numpy, one example at a time).

    Returns (weights (n_features, K), biases (K,), mistakes per epoch).
    """
    dense = X.toarray()
    classes = sorted(set(y))
    gold = np.array([classes.index(label) for label in y])
    W = np.zeros((dense.shape[1], len(classes)))
    U = np.zeros_like(W)
    b = np.zeros(len(classes))
    beta = np.zeros_like(b)
    c = 1
    mistakes = []
    for order in epoch_orders(len(y), epochs, seed, shuffle):
        wrong = 0
        for i in order:
            x, t = dense[i], gold[i]
            p = int(np.argmax(x @ W + b))
            if p != t:
                wrong += 1
                W[:, t] += x
                W[:, p] -= x
                U[:, t] += c * x
                U[:, p] -= c * x
                b[t] += 1
                b[p] -= 1
                beta[t] += c
                beta[p] -= c
            c += 1
        mistakes.append(wrong)
    if not average:
        return W, b, mistakes
    return W - U / c, b - beta / c, mistakes


def reference_binary(X, y, epochs, seed, shuffle):
    """Dense binary averaged perceptron (labels ±1): returns (w, b)."""
    dense = X.toarray()
    w = np.zeros(dense.shape[1])
    u = np.zeros_like(w)
    b = beta = 0.0
    c = 1
    for order in epoch_orders(len(y), epochs, seed, shuffle):
        for i in order:
            if y[i] * (dense[i] @ w + b) <= 0:
                w += y[i] * dense[i]
                b += y[i]
                u += c * y[i] * dense[i]
                beta += c * y[i]
            c += 1
    return w - u / c, b - beta / c


def random_data(n=120, d=40, k=4, seed=0, integer=False):
    """Sparse rows with real (or small whole) values and labels from k classes."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.15, random_state=rng, format="csr")
    if integer:
        X.data = rng.integers(1, 4, X.nnz).astype(float)
    else:
        X.data = rng.normal(size=X.nnz)
    y = [f"s{label}" for label in rng.integers(0, k, n)]
    return X, y


# --------------------------------------------------------------------------- exactness


@pytest.mark.parametrize("integer", [False, True])
@pytest.mark.parametrize("shuffle", [False, True])
def test_multiclass_weights_equal_dense_reference(integer, shuffle):
    X, y = random_data(integer=integer)
    model = CSRAveragedPerceptron(epochs=5, seed=3, shuffle=shuffle).fit(X, y)
    W, b, mistakes = reference_multiclass(X, y, 5, 3, shuffle)
    assert model.classes_.tolist() == sorted(set(y))
    np.testing.assert_allclose(model.coef_, W.T, rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, b, rtol=0, atol=1e-9)
    assert [h["mistakes"] for h in model.history_] == mistakes


def test_plain_perceptron_keeps_final_weights():
    X, y = random_data(seed=5)
    model = CSRAveragedPerceptron(epochs=3, seed=1, average=False).fit(X, y)
    W, b, _ = reference_multiclass(X, y, 3, 1, True, average=False)
    np.testing.assert_allclose(model.coef_, W.T, rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, b, rtol=0, atol=1e-9)


def test_averaged_weights_are_the_mean_of_every_intermediate_vector():
    """W - U/c is the mean of the N + 1 weight vectors held: the zero start and one per step."""
    X, y = random_data(n=30, d=10, k=3, seed=7)
    dense = X.toarray()
    gold = np.array([sorted(set(y)).index(label) for label in y])
    W = np.zeros((10, 3))
    b = np.zeros(3)
    total_W, total_b, steps = np.zeros_like(W), np.zeros_like(b), 0
    for order in epoch_orders(30, 3, 11, True):
        for i in order:
            p = int(np.argmax(dense[i] @ W + b))
            if p != gold[i]:
                W[:, gold[i]] += dense[i]
                W[:, p] -= dense[i]
                b[gold[i]] += 1
                b[p] -= 1
            total_W += W
            total_b += b
            steps += 1
    model = CSRAveragedPerceptron(epochs=3, seed=11).fit(X, y)
    np.testing.assert_allclose(model.coef_, (total_W / (steps + 1)).T, rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, total_b / (steps + 1), rtol=0, atol=1e-9)


def test_ties_go_to_the_lowest_class():
    """Hand-worked: two examples, classes a < b, no averaging, no shuffling."""
    X = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0]]))
    model = CSRAveragedPerceptron(epochs=1, shuffle=False, average=False).fit(X, ["b", "a"])
    # Example 1 (gold b): all scores 0, the tie goes to a -> W_b = [1, 0], b_b = 1,
    # W_a = [-1, 0], b_a = -1.  Example 2 (gold a): scores a = -1, b = 1 -> predicts b ->
    # W_a = [-1, 1], b_a = 0, W_b = [1, -1], b_b = 0.
    assert [h["mistakes"] for h in model.history_] == [2]
    np.testing.assert_array_equal(model.coef_, [[-1.0, 1.0], [1.0, -1.0]])
    np.testing.assert_array_equal(model.intercept_, [0.0, 0.0])
    assert model.predict(sp.csr_matrix(np.zeros((1, 2)))).tolist() == ["a"]
    assert model.predict(sp.csr_matrix(np.ones((1, 2)))).tolist() == ["a"]


@pytest.mark.parametrize("shuffle", [False, True])
def test_binary_weights_equal_dense_reference(shuffle):
    X, labels = random_data(k=2, seed=2)
    y = np.where(np.array(labels) == "s0", -1, 1)
    model = BinaryCSRAveragedPerceptron(epochs=4, seed=9, shuffle=shuffle).fit(X, y)
    w, b = reference_binary(X, y, 4, 9, shuffle)
    assert model.classes_.tolist() == [-1, 1]
    np.testing.assert_allclose(model.coef_, [w], rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, [b], rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.decision_function(X), X @ w + b, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(model.predict(X), np.where(X @ w + b > 0, 1, -1))


# --------------------------------------------------------------------------- prediction


def test_prediction_is_the_argmax_of_the_averaged_scores():
    X, y = random_data(seed=4)
    model = CSRAveragedPerceptron(epochs=3).fit(X, y)
    scores = X @ model.coef_.T + model.intercept_
    np.testing.assert_allclose(model.decision_function(X), scores, rtol=0, atol=1e-9)
    assert model.predict(X).tolist() == model.classes_[np.argmax(scores, axis=1)].tolist()
    assert model.score(X, y) == pytest.approx(np.mean(model.predict(X) == np.array(y)))


def test_never_active_columns_are_ignored_and_the_width_must_match():
    X, y = random_data(d=30, seed=6)
    assert (X.indices == 5).any()
    X.data[X.indices == 5] = 0.0  # explicit zeros: no weight is learned for them
    model = CSRAveragedPerceptron(epochs=2).fit(X, y)
    assert 5 not in model.active_features_
    changed = X.copy()
    changed.data[changed.indices == 5] = 7.0
    np.testing.assert_allclose(model.decision_function(changed), model.decision_function(X))
    assert model.coef_.shape == (len(model.classes_), 30)
    extra = sp.random(len(y), 10, density=0.5, random_state=np.random.default_rng(1))
    with pytest.raises(ValueError, match="X has 40 features, but CSRAveragedPerceptron is "
                                         "expecting 30"):
        model.predict(sp.hstack([X, extra], format="csr"))


def test_to_dicts_gives_the_dict_learner_layout():
    X, y = random_data(d=12, seed=8)
    names = [f"f{j}" for j in range(12)]
    model = CSRAveragedPerceptron(epochs=2).fit(X, y)
    weights, biases = model.to_dicts(names)
    coef = model.coef_
    for j, name in enumerate(names):
        for k, label in enumerate(model.classes_):
            assert weights.get(name, {}).get(label, 0.0) == coef[k, j]
    assert biases == dict(zip(model.classes_.tolist(), model.intercept_.tolist(), strict=True))
    binary = BinaryCSRAveragedPerceptron(epochs=2).fit(X, [label == "s0" for label in y])
    w, b = binary.to_dicts(names)
    assert [w.get(name, 0.0) for name in names] == binary.coef_[0].tolist()
    assert b == binary.intercept_[0]


# --------------------------------------------------------------------------- training options


def test_partial_fit_continues_the_counter_and_weights():
    X, y = random_data(seed=10)
    once = CSRAveragedPerceptron(epochs=2, shuffle=False).fit(X, y)
    stepwise = CSRAveragedPerceptron(shuffle=False)
    stepwise.partial_fit(X[:50], y[:50], classes=sorted(set(y)))
    stepwise.partial_fit(X[50:], y[50:])
    stepwise.partial_fit(X, y)
    np.testing.assert_allclose(stepwise.coef_, once.coef_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(stepwise.intercept_, once.intercept_, rtol=0, atol=1e-9)
    assert [h["epoch"] for h in stepwise.history_] == [1, 2, 3]


def test_partial_fit_accepts_new_columns_but_not_new_labels():
    X, y = random_data(d=20, k=3, seed=12)
    model = CSRAveragedPerceptron(shuffle=False)
    model.partial_fit(X[:60, :10], y[:60], classes=["s0", "s1", "s2"])
    assert model.coef_.shape == (3, 10)
    model.partial_fit(X[60:], y[60:])
    assert model.coef_.shape == (3, 20)
    W, b, _ = reference_multiclass(
        sp.vstack([sp.hstack([X[:60, :10], sp.csr_matrix((60, 10))]), X[60:]], format="csr"),
        y, 1, 0, False)
    np.testing.assert_allclose(model.coef_, W.T, rtol=0, atol=1e-9)
    with pytest.raises(ValueError, match="not among classes_"):
        model.partial_fit(X[:5], ["s9"] * 5)
    with pytest.raises(ValueError, match="differ from the classes"):
        model.partial_fit(X[:5], y[:5], classes=["s0", "s1"])


def test_early_stopping_keeps_the_best_epoch():
    X, y = random_data(n=200, d=30, k=3, seed=13)
    X_dev, y_dev = random_data(n=80, d=30, k=3, seed=14)
    model = CSRAveragedPerceptron(epochs=30, seed=2, patience=2).fit(X, y, X_dev, y_dev)
    dev = [h["dev_accuracy"] for h in model.history_]
    best = model.best_epoch_
    assert dev[best - 1] == max(dev)
    assert len(dev) == min(30, best + 2) and len(dev) < 30
    replay = CSRAveragedPerceptron(epochs=best, seed=2).fit(X, y)
    np.testing.assert_allclose(model.coef_, replay.coef_, rtol=0, atol=1e-9)
    assert model.score(X_dev, y_dev) == pytest.approx(max(dev))


def test_a_dev_set_without_patience_runs_every_epoch_and_keeps_the_best():
    X, y = random_data(n=200, d=30, k=3, seed=13)
    X_dev, y_dev = random_data(n=80, d=30, k=3, seed=14)
    model = CSRAveragedPerceptron(epochs=8, seed=2).fit(X, y, X_dev, y_dev)
    dev = [h["dev_accuracy"] for h in model.history_]
    assert len(dev) == 8
    assert model.best_epoch_ == 1 + dev.index(max(dev))
    assert model.score(X_dev, y_dev) == pytest.approx(max(dev))
    replay = CSRAveragedPerceptron(epochs=model.best_epoch_, seed=2).fit(X, y)
    assert model.counter_ == replay.counter_ == 1 + 200 * model.best_epoch_


def test_history_train_accuracy_is_the_online_accuracy():
    X, y = random_data(seed=15)
    model = CSRAveragedPerceptron(epochs=3).fit(X, y)
    for record in model.history_:
        assert record["train_accuracy"] == (len(y) - record["mistakes"]) / len(y)
        assert record["dev_accuracy"] is None


# --------------------------------------------------------------------------- many tasks


def make_tasks():
    tasks = {}
    for number, key in enumerate(["bank#n", "play#v", "line#n", "hard#a", "serve#v"]):
        tasks[key] = random_data(n=40 + 10 * number, d=25, k=2 + number % 3, seed=number)
    return tasks


def test_train_many_is_independent_of_workers_and_order():
    tasks = make_tasks()
    serial = train_many(tasks, n_jobs=1, seed=5, epochs=3)
    threaded = train_many(tasks, n_jobs=2, seed=5, epochs=3)
    reordered = train_many(dict(reversed(tasks.items())), n_jobs=2, seed=5, epochs=3)
    assert list(serial) == list(tasks)
    for key, (X, y) in tasks.items():
        alone = CSRAveragedPerceptron(epochs=3, seed=task_seed(5, key)).fit(X, y)
        for other in (serial, threaded, reordered):
            np.testing.assert_array_equal(other[key].coef_, alone.coef_)
            np.testing.assert_array_equal(other[key].intercept_, alone.intercept_)


def test_task_seeds_are_stable_and_distinct():
    assert task_seed(0, "bank#n") == zlib.crc32(b"0\x1fbank#n")  # not salted like hash()
    assert task_seed(0, "bank#n") == task_seed(0, "bank#n")
    assert task_seed(0, "bank#n") != task_seed(1, "bank#n") != task_seed(1, "bank#v")
    assert task_seed(None, "bank#n") is None


def test_train_many_binary_and_dev_sets():
    X, labels = random_data(n=80, k=2, seed=20)
    tasks = {"a": (X[:60], labels[:60], X[60:], labels[60:])}
    models = train_many(tasks, binary=True, epochs=5, patience=1)
    assert isinstance(models["a"], BinaryCSRAveragedPerceptron)
    assert models["a"].history_[0]["dev_accuracy"] is not None


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda X, y: CSRAveragedPerceptron().fit(X, y[:-1]), "must match"),
        (lambda X, y: CSRAveragedPerceptron().fit(X, ["one"] * len(y)), "at least 2 classes"),
        (lambda X, y: CSRAveragedPerceptron(epochs=0).fit(X, y), "epochs"),
        (lambda X, y: CSRAveragedPerceptron(epochs=2.5).fit(X, y), "epochs"),
        (lambda X, y: CSRAveragedPerceptron(patience=2).fit(X, y), "development set"),
        (lambda X, y: CSRAveragedPerceptron(patience=0).fit(X, y, X, y), "patience"),
        (lambda X, y: CSRAveragedPerceptron().fit(X, y, X), "X_dev and y_dev"),
        (lambda X, y: CSRAveragedPerceptron().fit(X[:0], []), r"0 sample\(s\)"),
        (lambda X, y: CSRAveragedPerceptron().fit(np.ones(3), y[:3]), "Expected 2D array"),
        (lambda X, y: CSRAveragedPerceptron().predict(X), "not fitted"),
        (lambda X, y: BinaryCSRAveragedPerceptron().fit(X, y), "exactly 2 classes"),
        (lambda X, y: train_many({"k": (X, ["one"] * len(y))}), "fewer than 2 classes"),
    ],
)
def test_bad_input_is_a_clear_value_error(make, message):
    X, y = random_data(k=3, seed=30)
    with pytest.raises(ValueError, match=message):
        make(X, y)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_values_are_rejected(bad):
    X, y = random_data(seed=31)
    X.data[0] = bad
    with pytest.raises(ValueError, match="must be finite"):
        CSRAveragedPerceptron().fit(X, y)


# --------------------------------------------------------------------------- dict-based learners


def as_dicts(X):
    """Rows of a CSR matrix as feature dicts named f<column>."""
    return [{f"f{j}": float(v) for j, v in zip(X[i].indices, X[i].data, strict=True)}
            for i in range(X.shape[0])]


@pytest.mark.parametrize("average", [True, False])
def test_equals_the_dict_based_multiclass_learner(average):
    from wsd.learners.multiclass import MulticlassPerceptron

    X, y = random_data(n=150, d=50, k=5, seed=40)
    X_dev, y_dev = random_data(n=50, d=50, k=5, seed=41)
    params = {"epochs": 6, "seed": 4, "shuffle": True, "average": average, "patience": 2}
    ours = CSRAveragedPerceptron(**params).fit(X, y, X_dev, y_dev)
    theirs = MulticlassPerceptron(**params).fit(as_dicts(X), y, as_dicts(X_dev), y_dev)
    weights, biases = theirs.weights(), theirs.biases()
    coef = ours.coef_
    for j in range(50):
        for k, label in enumerate(ours.classes_):
            assert coef[k, j] == pytest.approx(weights.get(f"f{j}", {}).get(label, 0.0),
                                               abs=1e-9)
    np.testing.assert_allclose(ours.intercept_, [biases[c] for c in ours.classes_], atol=1e-9)
    assert ours.history_ == theirs.history_
    assert ours.best_epoch_ == theirs.best_epoch_ and ours.counter_ == theirs.counter_
    # Both continue identically after early stopping.
    ours.partial_fit(X[:30], y[:30])
    theirs.partial_fit(as_dicts(X[:30]), y[:30])
    assert ours.predict(X_dev).tolist() == theirs.predict(as_dicts(X_dev))
    np.testing.assert_allclose(ours.decision_function(X_dev),
                               theirs.decision_function(as_dicts(X_dev)), atol=1e-9)


def test_to_dicts_matches_the_dict_learner_weights():
    from wsd.learners.multiclass import MulticlassAveragedPerceptron

    X, y = random_data(n=80, d=20, k=3, seed=42)
    names = [f"f{j}" for j in range(20)]
    weights, biases = CSRAveragedPerceptron(epochs=3).fit(X, y).to_dicts(names)
    theirs = MulticlassAveragedPerceptron(epochs=3).fit(as_dicts(X), y)
    expected = {}
    for name, per_class in theirs.weights().items():
        nonzero = {label: w for label, w in per_class.items() if w != 0.0}
        if nonzero:
            expected[name] = nonzero
    assert weights.keys() == expected.keys()
    for name, per_class in expected.items():
        assert weights[name] == pytest.approx(per_class, abs=1e-9)
    assert biases == pytest.approx(theirs.biases(), abs=1e-9)


@pytest.mark.parametrize("shuffle", [False, True])
def test_equals_the_dict_based_binary_learner(shuffle):
    from wsd.learners.binary import AveragedPerceptron

    X, labels = random_data(n=150, d=50, k=2, seed=43)
    ours = BinaryCSRAveragedPerceptron(epochs=5, seed=6, shuffle=shuffle).fit(X, labels)
    theirs = AveragedPerceptron(epochs=5, seed=6, shuffle=shuffle).fit(X, labels)
    np.testing.assert_allclose(ours.coef_[0], theirs.coef_, rtol=0, atol=1e-9)
    assert ours.intercept_[0] == pytest.approx(theirs.intercept_, abs=1e-9)
    assert ours.counter_ == theirs.counter_
    assert ours.predict(X).tolist() == theirs.predict(X).tolist()
    assert [h["mistakes"] for h in ours.history_] == [h["mistakes"] for h in theirs.history_]


def test_hand_over_from_the_dict_learner_through_the_vectorizer():
    """The three-line recipe in the engine's docstring reproduces the dict learner."""
    from wsd.features.vectorize import FeatureVectorizer
    from wsd.learners.multiclass import MulticlassAveragedPerceptron

    X, y = random_data(n=100, d=30, k=3, seed=44)
    dicts = [{f"w={j}": value for j, value in row.items()} for row in as_dicts(X)]
    learner = MulticlassAveragedPerceptron(epochs=4, seed=8, engine="dict")
    vectorizer = FeatureVectorizer().fit(dicts)
    params = {k: v for k, v in learner.get_params().items() if k != "engine"}
    model = CSRAveragedPerceptron(**params).fit(vectorizer.transform(dicts), y)
    weights, biases = model.to_dicts(vectorizer.feature_names_)
    learner.fit(dicts, y)
    for name, per_class in learner.weights().items():
        for label, weight in per_class.items():
            assert weights.get(name, {}).get(label, 0.0) == pytest.approx(weight, abs=1e-9)
    assert biases == pytest.approx(learner.biases(), abs=1e-9)


def test_dict_state_turns_into_an_identical_dict_learner():
    from wsd.learners.multiclass import MulticlassAveragedPerceptron

    X, y = random_data(n=120, d=30, k=4, seed=45)
    X_dev, y_dev = random_data(n=40, d=30, k=4, seed=46)
    names = [f"f{j}" for j in range(30)]
    params = MulticlassAveragedPerceptron(epochs=5, seed=3, patience=2, engine="dict").get_params()
    engine = CSRAveragedPerceptron(
        **{k: v for k, v in params.items() if k != "engine"}).fit(X, y, X_dev, y_dev)
    handed = MulticlassAveragedPerceptron.from_dict(
        {"kind": "MulticlassAveragedPerceptron", "params": params,
         "state": engine.dict_state(names)})
    trained = MulticlassAveragedPerceptron(**params).fit(as_dicts(X), y, as_dicts(X_dev), y_dev)
    for learner in (handed, trained):  # both continue from the same state
        learner.partial_fit(as_dicts(X[:40]), y[:40])
    assert handed.history_ == trained.history_
    assert handed.counter_ == trained.counter_
    np.testing.assert_allclose(handed.decision_function(as_dicts(X_dev)),
                               trained.decision_function(as_dicts(X_dev)), rtol=0, atol=1e-9)
    assert handed.weights().keys() == trained.weights().keys()
