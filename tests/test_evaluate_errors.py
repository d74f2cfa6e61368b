"""`wsd evaluate`: confusion matrix and the wrong answers for error analysis (atomic TSV)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

import wsd.experiments.report as report
from wsd.cli import main
from wsd.corpora.bundled import load_bundled
from wsd.experiments.evaluate import evaluate_model, marked_sentence, write_errors
from wsd.instance import Instance
from wsd.systems.named import make_system, small_corpus_settings
from wsd.systems.supervised import SupervisedWSD


@pytest.fixture(scope="module")
def weak_model_and_test():
    """A deliberately weak model (1 epoch, a tenth of the data) so that it makes mistakes."""
    instances = load_bundled("bass")
    train, test = instances[::10], instances[1::6]
    model = make_system("averaged", small_corpus_settings(epochs=1, lemmatize=False))
    return model.fit(train), test


def test_errors_are_exactly_the_wrong_answers(weak_model_and_test):
    model, test = weak_model_and_test
    result = evaluate_model(model, test)
    wrong = [i for i, p in zip(test, model.predict(test), strict=True) if p != i.sense]
    assert len(wrong) > 0
    assert list(result.errors["id"]) == [i.id for i in wrong]
    assert list(result.errors["gold"]) == [i.sense for i in wrong]
    assert result.accuracy == pytest.approx(1 - len(wrong) / len(test))
    matrix = result.confusion.to_numpy()
    assert matrix.sum() == len(test)
    assert matrix.sum() - np.trace(matrix) == len(wrong)  # off-diagonal = the error rows


def test_margin_is_how_far_the_gold_sense_lost_by(weak_model_and_test):
    model, test = weak_model_and_test
    result = evaluate_model(model, test)
    by_id = {inst.id: inst for inst in test}
    for row in result.errors.itertuples():
        scores = model.learner.predict_scores(model.featurizer.transform([by_id[row.id]])[0])
        assert row.margin == pytest.approx(scores[row.predicted] - scores[row.gold], abs=1e-4)
        assert row.margin >= 0  # the predicted sense has the top score


def test_marked_sentence_marks_a_multiword_target():
    inst = Instance(id="x", tokens=("we", "ate", "ice", "cream", "today"), span=(2, 4),
                    lemma="ice cream", senses=("s",))
    assert marked_sentence(inst) == "we ate <<ice cream>> today"


def test_cli_prints_the_confusion_matrix_and_writes_the_errors(tmp_path, capsys):
    model_path, errors = tmp_path / "bass.json", tmp_path / "out" / "errors.tsv"
    assert main(["train", "--corpus", "bundled:bass", "--out", str(model_path),
                 "--epochs", "1", "--no-lemmatize"]) == 0
    # a bass model refuses plant instances (issue 15), so it is scored on its own corpus
    assert main(["evaluate", "--model", str(model_path), "--corpus", "bundled:bass",
                 "--errors", str(errors)]) == 0
    out = capsys.readouterr().out
    assert "confusion matrix (rows: gold sense, columns: predicted sense)" in out
    assert "bass.fish" in out and "bass.instrument" in out
    with open(errors, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    bass = load_bundled("bass")
    predicted = SupervisedWSD.load(model_path).predict(bass)
    assert len(rows) == sum(p not in inst.senses for inst, p in zip(bass, predicted, strict=True))
    assert list(rows[0]) == ["id", "sentence", "gold", "predicted", "margin"]
    assert all("<<" in r["sentence"] and r["predicted"] != r["gold"] for r in rows)
    assert list(tmp_path.glob("out/.*")) == []  # no temp file left behind


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch,
                                                             weak_model_and_test):
    model, test = weak_model_and_test
    path = tmp_path / "errors.tsv"
    path.write_text("old\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(report.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        write_errors(evaluate_model(model, test).errors, path)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["errors.tsv"]
