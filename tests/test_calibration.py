"""Calibration measures and the fitted softmax temperature (``wsd.evaluation.calibration``),
on hand-worked numbers and on scores drawn from a known temperature."""

import math

import numpy as np
import pytest
from scipy.special import expit

from wsd.evaluation.calibration import (
    expected_calibration_error,
    fit_temperature,
    gold_log_likelihood,
    softmax_with_temperature,
)


def test_gold_log_likelihood_by_hand():
    scores = np.array([[2.0, 0.0], [1.0, 3.0]])
    gold = np.array([[True, False], [True, False]])
    # row 1: p(gold) = e^2 / (e^2 + 1); row 2: e^1 / (e^1 + e^3)
    expected = (math.log(expit(2.0)) + math.log(expit(-2.0))) / 2
    assert gold_log_likelihood(scores, gold, 1.0) == pytest.approx(expected)
    expected_t10 = (math.log(expit(0.2)) + math.log(expit(-0.2))) / 2
    assert gold_log_likelihood(scores, gold, 10.0) == pytest.approx(expected_t10)


def test_several_gold_classes_add_up_and_padded_classes_count_for_nothing():
    scores = np.array([[1.0, 1.0, 0.0, -np.inf]])
    both = np.array([[True, True, False, False]])
    # p = (e + e) / (e + e + 1)
    assert gold_log_likelihood(scores, both, 1.0) == pytest.approx(
        math.log(2 * math.e / (2 * math.e + 1)))
    probabilities = softmax_with_temperature(scores, 2.0)
    assert probabilities[0, 3] == 0.0 and probabilities.sum() == pytest.approx(1.0)


def test_rows_without_a_gold_class_are_left_out():
    scores = np.array([[2.0, 0.0], [5.0, 0.0]])
    gold = np.array([[True, False], [False, False]])
    assert gold_log_likelihood(scores, gold, 1.0) == pytest.approx(math.log(expit(2.0)))


@pytest.mark.parametrize("temperature", [0.5, 4.0, 12.0])
def test_fit_temperature_finds_the_temperature_the_answers_were_drawn_with(temperature):
    rng = np.random.default_rng(7)
    scores = rng.normal(0.0, 3.0 * temperature, size=(20_000, 4))
    probabilities = softmax_with_temperature(scores, temperature)
    drawn = (rng.random(len(scores))[:, None] > probabilities.cumsum(axis=1)).sum(axis=1)
    gold = np.zeros(scores.shape, dtype=bool)
    gold[np.arange(len(scores)), drawn] = True
    fitted = fit_temperature(scores, gold)
    assert fitted == pytest.approx(temperature, rel=0.05)
    assert gold_log_likelihood(scores, gold, fitted) >= max(
        gold_log_likelihood(scores, gold, fitted * f) for f in (0.8, 1.25))


def test_expected_calibration_error_by_hand():
    # bin 0.9-1.0: confidence 0.95, accuracy 0.5; bin 0.5-0.6: confidence 0.55, accuracy 1
    confidence = np.array([0.95, 0.95, 0.55, 0.55])
    correct = np.array([True, False, True, True])
    assert expected_calibration_error(confidence, correct) == pytest.approx(0.45)
    assert expected_calibration_error(np.array([0.7, 1.0]), np.array([0.7 > 0.5, True]),
                                      bins=1) == pytest.approx(0.15)
    assert expected_calibration_error(np.array([1.0, 0.0]), np.array([True, False])) == 0.0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="one shape"):
        fit_temperature(np.zeros((2, 3)), np.zeros((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="finite"):
        gold_log_likelihood(np.array([[np.nan, 0.0]]), np.array([[True, False]]), 1.0)
    with pytest.raises(ValueError, match="at least one finite"):
        gold_log_likelihood(np.array([[-np.inf, -np.inf]]), np.array([[True, False]]), 1.0)
    with pytest.raises(ValueError, match="no row has a gold"):
        fit_temperature(np.array([[1.0, 0.0]]), np.array([[False, False]]))
    with pytest.raises(ValueError, match="positive"):
        softmax_with_temperature(np.array([[1.0, 0.0]]), 0.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        expected_calibration_error(np.array([1.5]), np.array([True]))
    with pytest.raises(ValueError, match="non-empty"):
        expected_calibration_error(np.array([]), np.array([]))
