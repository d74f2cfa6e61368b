"""The all-words scorer against hand-computed figures and the framework's own gold keys."""

import subprocess
import sys

import pytest

from wsd.evaluation.metrics import accuracy
from wsd.evaluation.scorer import format_scores, main, score_framework, score_key_files
from wsd.resources import framework_dir, has_framework

GOLD = {
    "d0.s0.t0": {"bass%1:13:00::"},
    "d0.s0.t1": {"play%2:36:00::", "play%2:36:01::"},
    "d0.s1.t0": {"crane%1:06:00::"},
    "d0.s1.t1": {"bank%1:17:01::"},
    "d0.s2.t0": {"plant%1:03:00::"},
}


def test_hand_computed_with_partial_and_missing_answers():
    predictions = {
        "d0.s0.t0": "bass%1:13:00::",  # right: 1
        "d0.s0.t1": "play%2:36:01::",  # one of two gold keys: 1
        "d0.s1.t0": "crane%1:05:00::",  # wrong: 0
        "d0.s1.t1": ["bank%1:17:01::", "bank%1:14:00::"],  # one right of two answered: 1/2
        "d0.s2.t0": None,  # no answer
    }
    scores = score_framework(GOLD, predictions)
    assert scores["correct"] == 2.5
    assert scores["answered"] == 4 and scores["total"] == 5
    assert scores["P"] == pytest.approx(2.5 / 4)
    assert scores["R"] == pytest.approx(2.5 / 5)
    assert scores["F1"] == pytest.approx(2 * 0.625 * 0.5 / (0.625 + 0.5))


def test_repeated_answers_count_once_and_absent_ids_are_unanswered():
    scores = score_framework(GOLD, {"d0.s0.t0": ["bass%1:13:00::", "bass%1:13:00::", "x"]})
    assert scores["correct"] == 0.5 and scores["answered"] == 1
    assert scores["P"] == 0.5 and scores["R"] == pytest.approx(0.1)
    assert score_framework(GOLD, {"d0.s2.t0": []})["answered"] == 0


def test_nothing_answered_gives_zeros():
    assert score_framework(GOLD, {}) == {
        "P": 0.0, "R": 0.0, "F1": 0.0, "correct": 0.0, "answered": 0, "total": 5
    }


def test_single_answers_agree_with_accuracy_as_recall():
    predictions = {"d0.s0.t0": "bass%1:13:00::", "d0.s1.t0": "no", "d0.s2.t0": "plant%1:03:00::"}
    ids = list(GOLD)
    recall = score_framework(GOLD, predictions)["R"]
    gold_items, answers = [GOLD[i] for i in ids], [predictions.get(i) for i in ids]
    assert recall == pytest.approx(accuracy(gold_items, answers))


def test_unknown_ids_are_an_error_unless_ignored():
    predictions = {"d0.s0.t0": "bass%1:13:00::", "d9.s9.t9": "bass%1:13:00::"}
    with pytest.raises(ValueError, match="d9.s9.t9"):
        score_framework(GOLD, predictions)
    scores = score_framework(GOLD, predictions, ignore_unknown=True)
    assert scores["answered"] == 1 and scores["P"] == 1.0


def test_bad_gold():
    with pytest.raises(ValueError, match="empty"):
        score_framework({}, {})
    with pytest.raises(ValueError, match="d0"):
        score_framework({"d0": set()}, {})


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_key_files_and_command_line(tmp_path, capsys):
    gold_lines = [f"{i} {' '.join(sorted(keys))}" for i, keys in GOLD.items()]
    gold = _write(tmp_path / "gold.key.txt", gold_lines)
    system = _write(tmp_path / "system.key.txt", [
        "d0.s0.t0 bass%1:13:00::",
        "d0.s0.t1 play%2:36:00::",
        "d0.s1.t0 crane%1:05:00::",
        "d0.s1.t1 bank%1:17:01:: bank%1:14:00::",
    ])
    scores = score_key_files(gold, system)
    assert scores["correct"] == 2.5 and scores["answered"] == 4
    assert main([str(gold), str(system)]) == 0
    assert capsys.readouterr().out.split() == ["P=", "62.5%", "R=", "50.0%", "F1=", "55.6%"]
    bad = _write(tmp_path / "bad.key.txt", ["d0.s0.t0 bass%1:13:00::", "d0.s0.t1"])
    with pytest.raises(ValueError, match="bad.key.txt:2"):
        score_key_files(gold, bad)
    assert main([str(gold), str(bad)]) == 1
    assert "bad.key.txt:2" in capsys.readouterr().err
    assert main([str(gold)]) == 2


def test_printout_rounds_half_up_like_java():
    # Java's %.1f rounds the shortest decimal form half up: 0.125 -> 12.5%, 0.0625 -> 6.3%.
    text = format_scores({"P": 0.125, "R": 0.0625, "F1": 2 / 3})
    assert text.split() == ["P=", "12.5%", "R=", "6.3%", "F1=", "66.7%"]




@pytest.mark.skipif(
    not has_framework(),
    reason="WSD evaluation framework data (../shared/data/wsd_framework) absent")
def test_gold_key_scores_itself_perfectly_on_semeval2007(tmp_path):
    gold_path = framework_dir() / "Evaluation_Datasets/semeval2007/semeval2007.gold.key.txt"
    scores = score_key_files(gold_path, gold_path)
    assert scores["total"] == 455
    assert scores["P"] == scores["R"] == scores["F1"] == 1.0
    # Answering only the first gold key is still fully correct; dropping every other line halves R.
    lines = gold_path.read_text().split("\n")
    first_keys = [" ".join(line.split()[:2]) for line in lines if line.strip()]
    half = _write(tmp_path / "half.key.txt", first_keys[::2])
    scores = score_key_files(gold_path, half)
    assert scores["P"] == 1.0 and scores["answered"] == 228
    assert scores["R"] == pytest.approx(228 / 455)
    completed = subprocess.run(
        [sys.executable, "-m", "wsd.evaluation.scorer", str(gold_path), str(half)],
        capture_output=True, text=True, check=True,
    )
    assert completed.stdout.split()[:2] == ["P=", "100.0%"]
