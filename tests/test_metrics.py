"""Metrics against hand-computed contingency tables, plus the edge cases the module defines."""

import math

import numpy as np
import pandas as pd
import pytest

from wsd.evaluation.metrics import (
    NO_ANSWER,
    accuracy,
    classification_report,
    cohen_kappa,
    confusion_matrix,
    contingency_table,
    contingency_tables,
    precision_recall_fscore,
)

# The "bass" example by hand: 10 test items, gold fish x6 / music x4.
GOLD = ["fish"] * 6 + ["music"] * 4
PRED = ["fish", "fish", "fish", "fish", "music", "music", "music", "music", "music", "fish"]
# fish:  tp=4 (items 0-3), fp=1 (item 9), fn=2 (items 4, 5), tn=3
# music: tp=3 (items 6-8), fp=2 (items 4, 5), fn=1 (item 9), tn=4


def test_contingency_table_by_hand():
    assert contingency_table(GOLD, PRED, "fish") == {"tp": 4, "fp": 1, "fn": 2, "tn": 3}
    assert contingency_table(GOLD, PRED, "music") == {"tp": 3, "fp": 2, "fn": 1, "tn": 4}
    tables = contingency_tables(GOLD, PRED)
    assert list(tables.index) == ["fish", "music"]
    assert tables.loc["music"].tolist() == [3, 2, 1, 4]
    assert (tables.sum(axis=1) == len(GOLD)).all()


def test_precision_recall_f_by_hand():
    table = precision_recall_fscore(GOLD, PRED)
    assert table.loc["fish", "precision"] == pytest.approx(4 / 5)
    assert table.loc["fish", "recall"] == pytest.approx(4 / 6)
    assert table.loc["fish", "fscore"] == pytest.approx(2 * 0.8 * (2 / 3) / (0.8 + 2 / 3))
    assert table.loc["music", "precision"] == pytest.approx(3 / 5)
    assert table.loc["music", "recall"] == pytest.approx(3 / 4)
    assert table["support"].tolist() == [6, 4]


def test_f_beta_is_the_lectures_weighted_harmonic_mean():
    p, r = 4 / 5, 4 / 6
    for beta in (0.5, 1.0, 2.0):
        alpha = 1 / (beta**2 + 1)  # beta^2 = 1/alpha - 1
        expected = 1 / (alpha / p + (1 - alpha) / r)
        got = precision_recall_fscore(GOLD, PRED, beta=beta).loc["fish", "fscore"]
        assert got == pytest.approx(expected)
    assert precision_recall_fscore(GOLD, PRED, beta=0).loc["fish", "fscore"] == pytest.approx(p)


def test_averages_by_hand():
    micro = precision_recall_fscore(GOLD, PRED, average="micro")
    assert micro["precision"] == pytest.approx(7 / 10)
    assert micro["recall"] == pytest.approx(7 / 10)
    assert micro["support"] == 10
    macro = precision_recall_fscore(GOLD, PRED, average="macro")
    assert macro["precision"] == pytest.approx((4 / 5 + 3 / 5) / 2)
    assert macro["recall"] == pytest.approx((4 / 6 + 3 / 4) / 2)
    f_fish, f_music = 2 * 4 / (2 * 4 + 1 + 2), 2 * 3 / (2 * 3 + 2 + 1)
    assert macro["fscore"] == pytest.approx((f_fish + f_music) / 2)
    weighted = precision_recall_fscore(GOLD, PRED, average="weighted")
    assert weighted["recall"] == pytest.approx(0.6 * 4 / 6 + 0.4 * 3 / 4)
    assert weighted["fscore"] == pytest.approx(0.6 * f_fish + 0.4 * f_music)


def test_matches_scikit_learn_on_random_labels():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    gold = list(rng.choice(["a", "b", "c", "d"], size=200, p=[0.5, 0.3, 0.15, 0.05]))
    pred = list(rng.choice(["a", "b", "c", "e"], size=200))
    for average in (None, "micro", "macro", "weighted"):
        for beta in (0.5, 1.0, 2.0):
            ours = precision_recall_fscore(gold, pred, beta=beta, average=average)
            theirs = metrics.precision_recall_fscore_support(
                gold, pred, beta=beta, average=average, zero_division=0.0
            )
            if average is None:
                ours = ours[["precision", "recall", "fscore"]].to_numpy().T
            else:
                ours = [ours["precision"], ours["recall"], ours["fscore"]]
            np.testing.assert_allclose(ours, np.array(theirs[:3], dtype=float), atol=1e-12)
    assert cohen_kappa(gold, pred) == pytest.approx(metrics.cohen_kappa_score(gold, pred))


def test_class_never_predicted_takes_zero_division():
    gold, pred = ["a", "b", "b"], ["b", "b", "b"]
    table = precision_recall_fscore(gold, pred)
    assert table.loc["a"].tolist() == [0.0, 0.0, 0.0, 1]
    table = precision_recall_fscore(gold, pred, zero_division=1.0)
    assert table.loc["a", "precision"] == 1.0  # 0/0
    assert table.loc["a", "recall"] == 0.0  # 0/1
    assert table.loc["a", "fscore"] == 0.0
    assert math.isnan(precision_recall_fscore(gold, pred, zero_division=np.nan).loc["a", "fscore"])


def test_class_absent_from_gold():
    gold, pred = ["a", "a", "b"], ["a", "c", "b"]
    table = precision_recall_fscore(gold, pred, zero_division=1.0)
    assert table.loc["c"].tolist() == [0.0, 1.0, 0.0, 0]  # P = 0/1, R = 0/0
    # A requested label that nobody used: all three ratios are 0/0.
    table = precision_recall_fscore(gold, pred, labels=["a", "z"], zero_division=0.5)
    assert table.loc["z"].tolist() == [0.5, 0.5, 0.5, 0]
    assert table.loc["a", "recall"] == pytest.approx(1 / 2)


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="empty"):
        accuracy([], [])
    with pytest.raises(ValueError, match="empty"):
        precision_recall_fscore([], [])
    with pytest.raises(ValueError, match="2 gold items but 1 prediction"):
        accuracy(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="2 gold items"):
        confusion_matrix(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="average"):
        precision_recall_fscore(["a"], ["a"], average="samples")
    with pytest.raises(ValueError, match="beta"):
        precision_recall_fscore(["a"], ["a"], beta=-1)
    with pytest.raises(ValueError, match="no sense"):
        accuracy([()], ["a"])


def test_accuracy_accepts_any_gold_sense_and_none_is_wrong():
    gold = ["a", ("b", "c"), {"d", "e"}, "f"]
    assert accuracy(gold, ["a", "c", "e", None]) == 0.75
    assert accuracy(gold, ["x", "b", "d", "f"]) == 0.75


def test_multi_sense_item_counts_as_the_predicted_sense_when_correct():
    gold = [("b", "c"), ("b", "c")]
    table = contingency_tables(gold, ["c", "a"])
    # item 0 is a correct "c"; item 1 is wrong, so it belongs to its first gold sense "b".
    assert table.loc["c"].tolist() == [1, 0, 0, 1]
    assert table.loc["b"].tolist() == [0, 0, 1, 1]
    assert table.loc["a"].tolist() == [0, 1, 0, 1]


def test_micro_averages_match_correct_over_answered_and_total():
    gold = ["a", ("a", "b"), "b", "c", "c"]
    pred = ["a", "b", None, "a", None]
    micro = precision_recall_fscore(gold, pred, average="micro")
    assert micro["precision"] == pytest.approx(2 / 3)  # correct / answered
    assert micro["recall"] == pytest.approx(2 / 5) == accuracy(gold, pred)


def test_confusion_matrix_by_hand():
    matrix = confusion_matrix(GOLD, PRED)
    expected = pd.DataFrame([[4, 2], [1, 3]], index=["fish", "music"], columns=["fish", "music"])
    np.testing.assert_array_equal(matrix.to_numpy(), expected.to_numpy())
    assert matrix.index.name == "gold" and matrix.columns.name == "predicted"
    assert list(matrix.index) == ["fish", "music"]


def test_confusion_matrix_with_no_answers_and_label_subset():
    matrix = confusion_matrix(["a", "a", "b"], ["a", None, "c"])
    assert list(matrix.columns) == ["a", "b", "c", NO_ANSWER]
    assert matrix.loc["a", NO_ANSWER] == 1 and matrix.loc["b", "c"] == 1
    assert matrix.to_numpy().sum() == 3
    only_a = confusion_matrix(["a", "a", "b"], ["a", "b", "b"], labels=["a"])
    assert only_a.to_numpy().tolist() == [[1]]


def test_classification_report_rows():
    report = classification_report(GOLD, PRED, beta=2.0)
    assert list(report.index) == ["fish", "music", "micro avg", "macro avg", "weighted avg"]
    assert list(report.columns) == ["precision", "recall", "fscore", "support"]
    assert report.attrs["beta"] == 2.0
    assert report.loc["weighted avg", "support"] == 10
    macro = precision_recall_fscore(GOLD, PRED, beta=2.0, average="macro")
    assert report.loc["macro avg", "fscore"] == pytest.approx(macro["fscore"])


def test_cohen_kappa_by_hand():
    # Two annotators, 10 items, each uses x six times and y four times.
    a = ["x"] * 6 + ["y"] * 4
    b = ["x", "x", "x", "x", "y", "y", "y", "y", "x", "x"]
    p_o = 6 / 10  # items 0-3 agree on x, 6-7 agree on y
    p_e = 0.6 * 0.6 + 0.4 * 0.4
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert cohen_kappa(a, a) == 1.0
    assert math.isnan(cohen_kappa(["x", "x"], ["x", "x"]))
