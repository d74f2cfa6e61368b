"""Binary perceptrons: hand-worked examples, the three averaging formulations, Novikoff."""

import numpy as np
import pytest
import scipy.sparse as sp

from wsd.learners import AveragedPerceptron, NotFittedError, Perceptron, VotedPerceptron
from wsd.learners.training import epoch_orders

# The hand-worked example.  Labels: "fish" -> -1 (first in sorted order), "music" -> +1.
#   A = (1, 0) music,  B = (0, 1) fish,  C = (1, 1) music;  2 epochs, no shuffling.
# Epoch 1:  A: a = 0, y*a = 0 <= 0  -> mistake, w = (1, 0),  b = 1
#           B: a = 0 + 1 = 1, y*a = -1 -> mistake, w = (1, -1), b = 0
#           C: a = 1 - 1 + 0 = 0       -> mistake, w = (2, 0),  b = 1
# Epoch 2:  A: a = 2 + 1 = 3 > 0       -> correct
#           B: a = 0 + 1 = 1, y*a = -1 -> mistake, w = (2, -1), b = 0
#           C: a = 2 - 1 + 0 = 1 > 0   -> correct
HAND_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
HAND_Y = ["music", "fish", "music"]


def random_sparse_problem(seed, n=60, d=25):
    """Noisy linearly-labelled sparse data, so training keeps making mistakes."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.25, format="csr", random_state=seed,
                  data_rvs=lambda k: rng.normal(size=k))
    scores = X @ rng.normal(size=d) + rng.normal(scale=0.5, size=n)
    y = np.where(scores > 0, "music", "fish")
    return X, list(y)


def all_weight_vectors(X, y, epochs, seed, shuffle=True):
    """PerceptronTrain written out densely; returns every (w, b) held: w_0 = 0, then one
    after each example."""
    dense = X.toarray()
    signs = np.where(np.array(y) == "music", 1.0, -1.0)
    w, b = np.zeros(dense.shape[1]), 0.0
    held = [(w.copy(), b)]
    for order in epoch_orders(len(y), epochs, seed, shuffle):
        for i in order:
            if signs[i] * (w @ dense[i] + b) <= 0:
                w = w + signs[i] * dense[i]
                b = b + signs[i]
            held.append((w.copy(), b))
    return held


def johansson_average(X, y, epochs, seed):
    """Johansson's "better averaged perceptron": each update weighted by the steps left."""
    dense = X.toarray()
    signs = np.where(np.array(y) == "music", 1.0, -1.0)
    w, b = np.zeros(dense.shape[1]), 0.0
    a, a_b = np.zeros_like(w), 0.0
    total = epochs * len(y)
    step = total
    for order in epoch_orders(len(y), epochs, seed, True):
        for i in order:
            if signs[i] * (w @ dense[i] + b) <= 0:
                w += signs[i] * dense[i]
                b += signs[i]
                a += step / total * signs[i] * dense[i]
                a_b += step / total * signs[i]
            step -= 1
    return a, a_b


def test_perceptron_hand_worked_example():
    model = Perceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y)
    assert model.coef_.tolist() == [2.0, -1.0]
    assert model.intercept_ == 0.0
    assert [h["mistakes"] for h in model.history_] == [3, 1]
    # (1, 2): 2 - 2 + 0 = 0, an activation of 0 predicts the first label.
    assert model.predict([[1.0, 2.0], [3.0, 0.0]]).tolist() == ["fish", "music"]


def test_averaged_perceptron_hand_worked_example():
    # Updates at c = 1 (A), 2 (B), 3 (C), 5 (B):
    #   u = 1*(1,0) + 2*(0,-1) + 3*(1,1) + 5*(0,-1) = (4, -4);  beta = 1 - 2 + 3 - 5 = -3
    #   c ends at 7, so w - u/c = (2 - 4/7, -1 + 4/7) = (10/7, -3/7), b - beta/c = 3/7:
    #   the mean of the 7 vectors held (0,0), (1,0), (1,-1), (2,0), (2,0), (2,-1), (2,-1).
    model = AveragedPerceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y)
    np.testing.assert_allclose(model.coef_, [10 / 7, -3 / 7], atol=1e-12)
    assert model.intercept_ == pytest.approx(3 / 7, abs=1e-12)
    assert model.counter_ == 7


def test_voted_perceptron_hand_worked_example():
    # Vectors with survival counts (one count per example after which a vector was current):
    #   v1 = (1, 0),  b 1: after A of epoch 1                 -> 1
    #   v2 = (1, -1), b 0: after B                            -> 1
    #   v3 = (2, 0),  b 1: after C and after A of epoch 2     -> 2
    #   v4 = (2, -1), b 0: after B and after C of epoch 2     -> 2
    # Votes at x = (1, 2):  v1 +1, v2 sign(-1) = -1, v3 +1, v4 sign(0) = 0
    #   -> 1 - 1 + 2*1 + 2*0 = 2 > 0: music (the last vector alone scores 0: fish).
    # At (0, 1): 1 - 1 + 2 - 2 = 0 -> fish.  At (-1, 0): 0 - 1 - 2 - 2 = -5 -> fish.
    model = VotedPerceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y)
    got = [(w.tolist(), b, count) for w, b, count in model.vectors_]
    assert got == [([1.0, 0.0], 1.0, 1), ([1.0, -1.0], 0.0, 1),
                   ([2.0, 0.0], 1.0, 2), ([2.0, -1.0], 0.0, 2)]
    points = np.array([[1.0, 2.0], [0.0, 1.0], [-1.0, 0.0]])
    assert model.decision_function(points).tolist() == [2.0, 0.0, -5.0]
    assert model.predict(points).tolist() == ["music", "fish", "fish"]
    first = Perceptron(epochs=2, shuffle=False).fit(HAND_X, HAND_Y)
    assert first.predict(points[:1]).tolist() == ["fish"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_efficient_average_equals_naive_average_of_all_weight_vectors(seed):
    X, y = random_sparse_problem(seed)
    held = all_weight_vectors(X, y, epochs=4, seed=seed)
    updates = sum(not np.array_equal(a[0], b[0]) for a, b in zip(held[:-1], held[1:], strict=True))
    assert updates > 10
    mean_w = np.mean([w for w, _ in held], axis=0)
    mean_b = np.mean([b for _, b in held])

    efficient = AveragedPerceptron(epochs=4, seed=seed).fit(X, y)
    naive = AveragedPerceptron(epochs=4, seed=seed, naive_average=True).fit(X, y)
    for model in (efficient, naive):
        np.testing.assert_allclose(model.coef_, mean_w, rtol=0, atol=1e-9)
        assert model.intercept_ == pytest.approx(mean_b, abs=1e-9)
    assert efficient.counter_ == naive.counter_ == len(held)


@pytest.mark.parametrize("seed", [0, 3])
def test_johansson_countdown_average_agrees_with_the_others(seed):
    # Johansson divides by the N vectors after each example; the counter trick (c ends at
    # N + 1) also counts the zero start vector.  Same direction, so same predictions, and
    # rescaling by c / (c - 1) makes the weights equal.
    X, y = random_sparse_problem(seed)
    a, a_b = johansson_average(X, y, epochs=3, seed=seed)
    held = all_weight_vectors(X, y, epochs=3, seed=seed)[1:]
    np.testing.assert_allclose(a, np.mean([w for w, _ in held], axis=0), rtol=0, atol=1e-9)
    assert a_b == pytest.approx(np.mean([b for _, b in held]), abs=1e-9)

    model = AveragedPerceptron(epochs=3, seed=seed).fit(X, y)
    c = model.counter_
    np.testing.assert_allclose(model.coef_ * c / (c - 1), a, rtol=0, atol=1e-9)
    assert model.intercept_ * c / (c - 1) == pytest.approx(a_b, abs=1e-9)
    johansson_labels = np.where(X @ a + a_b > 0, "music", "fish").tolist()
    assert model.predict(X).tolist() == johansson_labels


def test_perceptron_converges_within_the_novikoff_bound():
    # Separator w* = (1, -1), b* = 0.2, keeping only points at distance >= 0.1 from it.
    # With the bias as a constant feature 1 the theorem applies to x' = (x, 1) and the unit
    # vector u = (w*, b*) / ||(w*, b*)||:  mistakes <= R^2 / gamma^2,
    # R = max ||x'||,  gamma = min y u.x'.
    rng = np.random.default_rng(7)
    points = rng.uniform(-1, 1, size=(400, 2))
    separator = np.array([1.0, -1.0, 0.2])
    augmented = np.hstack([points, np.ones((400, 1))])
    distance = augmented @ separator / np.linalg.norm(separator)
    keep = np.abs(distance) >= 0.1
    X, augmented, distance = points[keep], augmented[keep], distance[keep]
    y = np.where(distance > 0, "music", "fish")
    signs = np.where(distance > 0, 1.0, -1.0)
    R = np.linalg.norm(augmented, axis=1).max()
    gamma = (signs * distance).min()
    bound = R**2 / gamma**2

    model = Perceptron(epochs=int(bound) + 2, seed=0).fit(X, y)
    mistakes = [h["mistakes"] for h in model.history_]
    assert sum(mistakes) <= bound
    assert mistakes[-1] == 0
    assert model.score(X, y) == 1.0


def test_dense_and_sparse_inputs_train_the_same_model():
    X, y = random_sparse_problem(4)
    for cls in (Perceptron, AveragedPerceptron):
        dense = cls(epochs=3, seed=1).fit(X.toarray(), y)
        sparse = cls(epochs=3, seed=1).fit(X, y)
        np.testing.assert_array_equal(dense.coef_, sparse.coef_)
        assert dense.intercept_ == sparse.intercept_


def test_same_seed_same_weights_other_seed_other_order():
    X, y = random_sparse_problem(5)
    first = Perceptron(epochs=3, seed=11).fit(X, y)
    again = Perceptron(epochs=3, seed=11).fit(X, y)
    other = Perceptron(epochs=3, seed=12).fit(X, y)
    np.testing.assert_array_equal(first.coef_, again.coef_)
    assert not np.array_equal(first.coef_, other.coef_)


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron])
def test_save_load_round_trip_predicts_identically(cls, tmp_path):
    X, y = random_sparse_problem(6)
    model = cls(epochs=3, seed=2).fit(X, y)
    path = model.save(tmp_path / "model.json")
    loaded = cls.load(path)
    assert loaded.get_params() == model.get_params()
    np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))
    assert loaded.predict(X).tolist() == model.predict(X).tolist()


def test_labels_keep_their_type_and_predict_returns_them():
    model = Perceptron(epochs=2, shuffle=False).fit(HAND_X, [1, -1, 1])
    assert model.classes_.tolist() == [-1, 1]
    assert model.predict(HAND_X).tolist() == [1, -1, 1]


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.zeros((0, 2)), [], r"0 sample\(s\)"),
        (HAND_X, ["a", "b"], "3 examples but y has 2"),
        (HAND_X, ["a", "a", "a"], "at least two"),
        (HAND_X, ["a", "b", "c"], "MulticlassPerceptron"),
        ([[1.0, np.nan], [0.0, 1.0]], ["a", "b"], r"X\[0, 1\] is nan"),
        ([[1.0, np.inf], [0.0, 1.0]], ["a", "b"], r"X\[0, 1\] is inf"),
        ([["x", 1.0], [0.0, 1.0]], ["a", "b"], "numbers"),
        ([1.0, 2.0], ["a", "b"], "Expected 2D array"),
    ],
)
def test_bad_training_data_gives_clear_errors(X, y, message):
    with pytest.raises(ValueError, match=message):
        AveragedPerceptron().fit(X, y)


def test_bad_epochs_and_use_before_fit():
    with pytest.raises(ValueError, match="epochs must be an integer >= 1"):
        Perceptron(epochs=0).fit(HAND_X, HAND_Y)
    with pytest.raises(NotFittedError, match="fit"):
        VotedPerceptron().predict(HAND_X)
    assert issubclass(NotFittedError, ValueError)
    model = Perceptron().fit(HAND_X, HAND_Y)
    with pytest.raises(ValueError, match="X has 3 features, but Perceptron is expecting 2"):
        model.predict(np.ones((1, 3)))
