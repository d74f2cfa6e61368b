"""The bilinear ranking perceptron (``wsd.learners.bilinear``): a hand-worked 2-d example,
the averaging trick against the naive average of the states, and what it learns."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.learners.bilinear import BilinearRankingPerceptron

# Two examples, no shuffle: x = (1, 2) with the first of e1, e2 right, then x = (2, 1) with
# the second right. Worked by hand in the test docstrings below.
CONTEXTS = np.array([[1.0, 2.0], [2.0, 1.0]])
CANDIDATES = [np.eye(2), np.eye(2)]
RIGHT = [np.array([True, False]), np.array([False, True])]


def test_diagonal_update_and_average_by_hand():
    """Example 1: scores (1, 2), the second wins by mistake: D += (1, 2) * ((1, 0) - (0, 1))
    = (1, -2), u = (1, -2), c = 2. Example 2: scores x + D * x = (4, -1), the first wins by
    mistake: step (2, 1) * (-1, 1) = (-2, 1), D = (-1, -1), u += 2 * step = (-3, 0), c = 3.
    Averaged: D - u / c = (0, -1) (the mean of the states 0, (1, -2), (-1, -1))."""
    model = BilinearRankingPerceptron(diagonal=True, epochs=1, shuffle=False).fit(
        CONTEXTS, CANDIDATES, RIGHT)
    np.testing.assert_allclose(model.D_, [0.0, -1.0])
    np.testing.assert_allclose(model.scores([1.0, 2.0], np.eye(2)), [1.0, 0.0])


def test_full_update_and_average_by_hand():
    """Example 1: D = outer((1, 2), (1, -1)) = [[1, -1], [2, -2]]. Example 2: x + x D =
    (2, 1) + (4, -4) = (6, -3), the first wins by mistake: step outer((2, 1), (-1, 1)) =
    [[-2, 2], [-1, 1]], D = [[-1, 1], [1, -1]]. Averaged: the mean of 0 and the two states,
    [[0, 0], [1, -1]]."""
    model = BilinearRankingPerceptron(diagonal=False, epochs=1, shuffle=False).fit(
        CONTEXTS, CANDIDATES, RIGHT)
    np.testing.assert_allclose(model.D_, [[0.0, 0.0], [1.0, -1.0]])
    # x^T (I + D) g for x = (1, 1): (1, 1) + (1, -1) = (2, 0)
    np.testing.assert_allclose(model.scores([1.0, 1.0], np.eye(2)), [2.0, 0.0])


def naive_average(contexts, candidates, right, diagonal, epochs, seed, rate):
    """Every state of D (the start and the one after each example) kept and averaged."""
    d = contexts.shape[1]
    D = np.zeros(d if diagonal else (d, d))
    states = [D.copy()]
    rng = np.random.default_rng(seed)
    keep = [i for i in range(len(contexts)) if len(candidates[i]) > 1 and right[i].any()]
    for _ in range(epochs):
        for j in rng.permutation(len(keep)):
            i = keep[j]
            x, G = contexts[i], candidates[i]
            W = np.diag(1 + D) if diagonal else np.eye(d) + D
            scores = [x @ W @ g for g in G]
            p = int(np.argmax(scores))
            if not right[i][p]:
                r = max(np.flatnonzero(right[i]), key=lambda k: (scores[k], -k))
                D = D + rate * (x * (G[r] - G[p]) if diagonal else np.outer(x, G[r] - G[p]))
            states.append(D.copy())
    return np.mean(states, axis=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), diagonal=st.booleans(), epochs=st.integers(1, 3),
       rate=st.sampled_from([1.0, 0.5, 0.01]))
def test_averaging_trick_equals_the_naive_average(seed, diagonal, epochs, rate):
    rng = np.random.default_rng(seed)
    n, d = 12, 3
    contexts = rng.normal(size=(n, d))
    candidates = [rng.normal(size=(int(rng.integers(1, 5)), d)) for _ in range(n)]
    right = [rng.random(len(g)) < 0.4 for g in candidates]
    model = BilinearRankingPerceptron(diagonal=diagonal, epochs=epochs, seed=seed,
                                      rate=rate).fit(contexts, candidates, right)
    np.testing.assert_allclose(model.D_, naive_average(contexts, candidates, right, diagonal,
                                                       epochs, seed, rate), atol=1e-9)
    assert len(model.history_) == epochs


def test_learns_a_dimension_the_dot_product_overweights():
    """The right candidate agrees with x on dimension 0, a wrong one on dimension 1 with more
    weight: the plain dot product prefers the wrong one, the learned one the right one."""
    rng = np.random.default_rng(0)
    contexts = np.abs(rng.normal(size=(200, 2))) + 0.5
    candidates = [np.array([[1.0, 0.0], [0.0, 1.0]])] * 200
    right = [np.array([True, False])] * 200
    contexts[:, 1] *= 3  # dimension 1 dominates the plain dot product
    model = BilinearRankingPerceptron(epochs=3).fit(contexts, candidates, right)
    plain = (contexts @ np.eye(2).T).argmax(axis=1)
    learned = np.array([model.scores(x, np.eye(2)).argmax() for x in contexts])
    assert (plain == 0).mean() < 0.2
    assert (learned == 0).mean() > 0.95


def test_rejects_no_epochs_and_a_rate_not_above_zero():
    with pytest.raises(ValueError, match="epochs"):
        BilinearRankingPerceptron(epochs=0)
    with pytest.raises(ValueError, match="rate"):
        BilinearRankingPerceptron(rate=0.0)


def test_buffered_rank_one_steps_equal_the_steps_added_one_by_one():
    """The full matrix's steps kept aside and flushed every 3 (and at the end) give the same
    D and averaging sum u as outer products added at once."""
    from wsd.learners.bilinear import _RankOneSteps

    rng = np.random.default_rng(1)
    steps, D, u = _RankOneSteps(4, size=3), np.zeros((4, 4)), np.zeros((4, 4))
    for c in range(1, 9):
        x, y = rng.normal(size=4), rng.normal(size=4)
        probe = rng.normal(size=4)
        np.testing.assert_allclose(steps.apply(probe), probe @ D, atol=1e-12)
        steps.add(x, y, c)
        D, u = D + np.outer(x, y), u + c * np.outer(x, y)
    steps.flush()
    np.testing.assert_allclose(steps.D, D, atol=1e-12)
    np.testing.assert_allclose(steps.u, u, atol=1e-12)
