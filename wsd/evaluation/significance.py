"""How sure are we? Bootstrap confidence intervals and paired tests for comparing two systems.

All tests take per-item outcomes on the same test items (1 = correct, 0 = wrong), so they compare
systems pairwise, item by item. Random choices come from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

EXACT_BELOW = 25  # McNemar: exact binomial test when the discordant pairs b + c are fewer
_CHUNK = 4_000_000  # resampled values held in memory at once


def _outcomes(values: Sequence[float] | np.ndarray, name: str = "correct") -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of per-item values")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds NaN or infinite values")
    return array


def _binary(values: Sequence[float] | np.ndarray, name: str) -> np.ndarray:
    array = _outcomes(values, name)
    if not np.all((array == 0) | (array == 1)):
        raise ValueError(f"{name} must hold only 0/1 (or False/True) per-item outcomes")
    return array.astype(bool)


def _rows_per_chunk(n_items: int) -> int:
    return max(1, _CHUNK // n_items)


def bootstrap_ci(
    correct: Sequence[float] | np.ndarray,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = 0,
    metric: Callable[[np.ndarray], float] | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval (low, high).

    Without ``metric`` the statistic is the mean of ``correct`` (per-item scores, e.g. 0/1 for
    accuracy), computed for all resamples at once with numpy. With ``metric`` the statistic of a
    resample is ``metric(indices)``, where ``indices`` are the resampled item positions into
    ``correct`` (for instance macro-F1 of ``gold[indices]`` against ``predicted[indices]``).
    """
    values = _outcomes(correct)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n = values.size
    rng = np.random.default_rng(seed)
    statistics = np.empty(n_resamples)
    step = _rows_per_chunk(n) if metric is None else 1
    for start in range(0, n_resamples, step):
        stop = min(start + step, n_resamples)
        indices = rng.integers(0, n, size=(stop - start, n))
        if metric is None:
            statistics[start:stop] = values[indices].mean(axis=1)
        else:
            statistics[start] = metric(indices[0])
    tail = (1 - confidence) / 2
    low, high = np.quantile(statistics, [tail, 1 - tail])
    return float(low), float(high)


def mcnemar(
    correct_a: Sequence[float] | np.ndarray,
    correct_b: Sequence[float] | np.ndarray,
    exact: bool | None = None,
) -> dict[str, float | int | bool]:
    """McNemar's test of two systems' paired 0/1 outcomes.

    b = items only A gets right, c = items only B gets right. With ``exact`` (the default when
    b + c < 25) the p-value is the two-sided binomial test of b out of b + c at 1/2 and the
    statistic is min(b, c); otherwise the statistic is the continuity-corrected
    (|b - c| - 1)^2 / (b + c), chi-square with one degree of freedom. No discordant pairs: p = 1.
    """
    a, b_ = _binary(correct_a, "correct_a"), _binary(correct_b, "correct_b")
    if a.size != b_.size:
        raise ValueError(f"{a.size} outcomes for system A but {b_.size} for system B")
    b = int(np.sum(a & ~b_))
    c = int(np.sum(~a & b_))
    discordant = b + c
    if exact is None:
        exact = discordant < EXACT_BELOW
    if discordant == 0:
        statistic, p_value = 0.0, 1.0
    elif exact:
        statistic = float(min(b, c))
        p_value = float(stats.binomtest(b, discordant, 0.5).pvalue)
    else:
        statistic = (abs(b - c) - 1) ** 2 / discordant
        p_value = float(stats.chi2.sf(statistic, df=1))
    return {"b": b, "c": c, "statistic": statistic, "p_value": p_value, "exact": bool(exact)}


def pairwise_mcnemar(outcomes: Mapping[str, Sequence[float] | np.ndarray]) -> pd.DataFrame:
    """McNemar p-values between every two systems' outcomes on the same items: a symmetric
    table (rows and columns in the order given), NaN on the diagonal. No correction for
    multiple comparisons is applied: with m systems there are m(m-1)/2 tests."""
    names = list(outcomes)  # any hashable names, tuples included
    p_values = np.full((len(names), len(names)), np.nan)
    for i, first in enumerate(names):
        for j in range(i + 1, len(names)):
            p_value = mcnemar(outcomes[first], outcomes[names[j]])["p_value"]
            p_values[i, j] = p_values[j, i] = p_value
    index = pd.Index(names, name="system", tupleize_cols=False)
    return pd.DataFrame(p_values, index=index, columns=pd.Index(names, tupleize_cols=False))


def approximate_randomization(
    scores_a: Sequence[float] | np.ndarray,
    scores_b: Sequence[float] | np.ndarray,
    n_resamples: int = 10_000,
    seed: int | None = 0,
) -> dict[str, float | int]:
    """Paired approximate randomization test of the difference in mean score.

    Under the null hypothesis the two systems' outputs are exchangeable on every item, so each
    round swaps A's and B's score on each item with probability 1/2 and recomputes the mean
    difference. p = (1 + rounds at least as extreme as observed) / (1 + rounds), two-sided.
    """
    a, b = _outcomes(scores_a, "scores_a"), _outcomes(scores_b, "scores_b")
    if a.size != b.size:
        raise ValueError(f"{a.size} scores for system A but {b.size} for system B")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    differences = a - b
    observed = differences.mean()
    rng = np.random.default_rng(seed)
    extreme = 0
    step = _rows_per_chunk(a.size)
    tolerance = 1e-12 * max(1.0, abs(observed))
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        signs = np.where(rng.random((rows, a.size)) < 0.5, -1.0, 1.0)
        shuffled = signs @ differences / a.size
        extreme += int(np.sum(np.abs(shuffled) >= abs(observed) - tolerance))
    return {
        "difference": float(observed),
        "p_value": (extreme + 1) / (n_resamples + 1),
        "n_resamples": n_resamples,
    }
