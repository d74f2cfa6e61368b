"""How far a system's confidence can be trusted: expected calibration error, the negative log
likelihood of the gold senses, and the softmax temperature that makes scores probabilities.

A perceptron's scores are margins, not log-probabilities: their softmax says 0.99 where the
answer is right six times in ten. Dividing the scores by a temperature T before the softmax
(Guo et al. 2017, "On calibration of modern neural networks") keeps every answer and fixes
the confidence; T is fitted by maximum likelihood on held-out answers.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special

# Temperatures searched: far below and above any useful value (scores are finite numbers).
LOWEST_TEMPERATURE, HIGHEST_TEMPERATURE = 1e-3, 1e4


def _checked(scores: np.ndarray, gold: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scores, gold = np.asarray(scores, dtype=float), np.asarray(gold, dtype=bool)
    if scores.ndim != 2 or scores.shape != gold.shape:
        raise ValueError(f"scores and gold must be matrices of one shape, got {scores.shape} "
                         f"and {gold.shape}")  # fmt: skip
    if np.isnan(scores).any() or np.isposinf(scores).any():
        raise ValueError("scores must be finite numbers (-inf marks a padded class)")
    if not np.isfinite(scores).any(axis=1).all():
        raise ValueError("every row needs at least one finite score")
    return scores, gold


def softmax_with_temperature(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Row-wise softmax of ``scores / temperature`` (-inf entries get probability 0)."""
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature!r}")
    return special.softmax(np.asarray(scores, dtype=float) / temperature, axis=-1)


def gold_log_likelihood(scores: np.ndarray, gold: np.ndarray, temperature: float) -> float:
    """Mean log probability of the gold senses (a row's gold classes summed) over the rows
    with a gold class among their columns."""
    scores, gold = _checked(scores, gold)
    rows = gold.any(axis=1)
    if not rows.any():
        raise ValueError("no row has a gold class among its scores")
    logits = scores[rows] / temperature
    log_gold = special.logsumexp(np.where(gold[rows], logits, -np.inf), axis=1)
    return float(np.mean(log_gold - special.logsumexp(logits, axis=1)))


def fit_temperature(scores: np.ndarray, gold: np.ndarray) -> float:
    """The temperature that maximises ``gold_log_likelihood`` (a bounded search over log T;
    one parameter, so a few hundred held-out answers suffice)."""
    scores, gold = _checked(scores, gold)
    found = optimize.minimize_scalar(
        lambda log_t: -gold_log_likelihood(scores, gold, float(np.exp(log_t))),
        bounds=(np.log(LOWEST_TEMPERATURE), np.log(HIGHEST_TEMPERATURE)), method="bounded",
        options={"xatol": 1e-4},
    )  # fmt: skip
    return float(np.exp(found.x))


def expected_calibration_error(confidence: np.ndarray, correct: np.ndarray, bins: int = 10
                               ) -> float:  # fmt: skip
    """Expected calibration error: the answers cut into ``bins`` equal-width confidence bins,
    the mean over answers of |mean confidence - accuracy| of their bin (0 is perfect)."""
    confidence = np.asarray(confidence, dtype=float)
    correct = np.asarray(correct, dtype=float)
    if confidence.shape != correct.shape or confidence.ndim != 1 or not len(confidence):
        raise ValueError("confidence and correct must be non-empty vectors of one length")
    if ((confidence < 0) | (confidence > 1)).any():
        raise ValueError("confidence must lie in [0, 1]")
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    which = np.minimum((confidence * bins).astype(int), bins - 1)
    gaps = np.zeros(bins)
    np.add.at(gaps, which, confidence - correct)
    return float(np.abs(gaps).sum() / len(confidence))
