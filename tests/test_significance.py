"""Bootstrap CI, McNemar and approximate randomization against hand computations."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from wsd.evaluation.significance import approximate_randomization, bootstrap_ci, mcnemar


def _paired(b, c, both_right=5, both_wrong=4):
    """Outcomes with b items only A gets right and c items only B gets right."""
    a = [1] * b + [0] * c + [1] * both_right + [0] * both_wrong
    other = [0] * b + [1] * c + [1] * both_right + [0] * both_wrong
    return a, other


def test_mcnemar_exact_by_hand():
    result = mcnemar(*_paired(3, 10))
    # Two-sided binomial: 2 * P(X <= 3), X ~ Bin(13, 1/2) = 2 * (1 + 13 + 78 + 286) / 2^13.
    assert result["b"] == 3 and result["c"] == 10 and result["exact"] is True
    assert result["p_value"] == pytest.approx(2 * 378 / 8192, abs=1e-15)
    assert result["statistic"] == 3.0


def test_mcnemar_chi_square_by_hand():
    result = mcnemar(*_paired(10, 25))
    assert result["exact"] is False  # b + c = 35 >= 25
    assert result["statistic"] == pytest.approx((15 - 1) ** 2 / 35)  # = 5.6
    # Chi-square with 1 df: P(X > s) = erfc(sqrt(s / 2)).
    assert result["p_value"] == pytest.approx(math.erfc(math.sqrt(5.6 / 2)), rel=1e-12)
    assert result["p_value"] == pytest.approx(stats.chi2.sf(5.6, 1), rel=1e-12)


def test_mcnemar_forced_modes_and_symmetry():
    a, b = _paired(10, 25)
    exact = mcnemar(a, b, exact=True)
    assert exact["p_value"] == pytest.approx(stats.binomtest(10, 35, 0.5).pvalue)
    assert mcnemar(b, a)["p_value"] == pytest.approx(mcnemar(a, b)["p_value"])
    assert mcnemar(*_paired(0, 0))["p_value"] == 1.0
    assert mcnemar([True, False], [True, False])["b"] == 0


def test_mcnemar_bad_input():
    with pytest.raises(ValueError, match="0/1"):
        mcnemar([0, 2], [0, 1])
    with pytest.raises(ValueError, match="3 outcomes for system A but 2"):
        mcnemar([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="non-empty"):
        mcnemar([], [])


def test_bootstrap_matches_a_plain_loop_with_the_same_draws():
    rng = np.random.default_rng(1)
    correct = (rng.random(200) < 0.7).astype(int)
    low, high = bootstrap_ci(correct, n_resamples=500, confidence=0.9, seed=4)
    draws = np.random.default_rng(4)
    means = [correct[draws.integers(0, 200, size=(1, 200))[0]].mean() for _ in range(500)]
    assert (low, high) == pytest.approx(tuple(np.quantile(means, [0.05, 0.95])))
    by_metric = bootstrap_ci(
        correct, n_resamples=500, confidence=0.9, seed=4, metric=lambda i: correct[i].mean()
    )
    assert by_metric == pytest.approx((low, high))


def test_bootstrap_width_matches_the_normal_approximation():
    correct = np.array([1] * 700 + [0] * 300)
    low, high = bootstrap_ci(correct, n_resamples=2000, seed=0)
    half_width = 1.96 * math.sqrt(0.7 * 0.3 / 1000)  # about 0.028
    assert low < 0.7 < high
    assert (high - low) / 2 == pytest.approx(half_width, rel=0.15)


def test_bootstrap_degenerate_and_seeded():
    assert bootstrap_ci([1, 1, 1, 1]) == (1.0, 1.0)
    data = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    assert bootstrap_ci(data, seed=3) == bootstrap_ci(data, seed=3)
    assert bootstrap_ci(data, n_resamples=50, seed=3) != bootstrap_ci(data, n_resamples=50, seed=9)
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci(data, confidence=95)
    with pytest.raises(ValueError, match="non-empty"):
        bootstrap_ci([])


def _exact_permutation_p(a, b):
    """All 2^n swap patterns: the distribution approximate randomization samples from."""
    d = np.asarray(a, float) - np.asarray(b, float)
    observed = abs(d.mean())
    patterns = np.array(list(itertools.product([-1.0, 1.0], repeat=len(d))))
    return np.mean(np.abs(patterns @ d / len(d)) >= observed - 1e-12)


def test_approximate_randomization_agrees_with_exact_permutation():
    a = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1]
    b = [0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1]
    exact = _exact_permutation_p(a, b)  # 4 discordant items, all for A: 2/16 = 0.125
    assert exact == pytest.approx(0.125)
    result = approximate_randomization(a, b, n_resamples=20_000, seed=0)
    assert result["difference"] == pytest.approx(4 / 12)
    assert result["p_value"] == pytest.approx(exact, abs=0.01)


def test_approximate_randomization_edges():
    same = [1, 0, 1, 1, 0]
    assert approximate_randomization(same, same, n_resamples=100)["p_value"] == 1.0
    a, b = [1] * 60, [0] * 60
    assert approximate_randomization(a, b, n_resamples=999)["p_value"] == pytest.approx(1 / 1000)
    x = np.random.default_rng(0).random(30)
    y = np.random.default_rng(1).random(30)
    assert approximate_randomization(x, y, seed=5) == approximate_randomization(x, y, seed=5)
    with pytest.raises(ValueError, match="2 scores for system A but 3"):
        approximate_randomization([1, 0], [1, 0, 1])
