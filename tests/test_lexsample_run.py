"""``wsd lexsample``: scorer2 scoring, one model per lexelt, answers written atomically."""

import json
from pathlib import Path

import pytest

from wsd.cli import main
from wsd.evaluation.scorer2 import read_sense_map, score_lexsample
from wsd.experiments.lexsample_run import run_lexsample, write_answers
from wsd.learners.glosses import GlossOverlap, MostFrequentLabel
from wsd.persistence import load_model

DATA = Path(__file__).parent / "data" / "lexsample"
FILES = {"train": DATA / "train.xml", "test": DATA / "test.xml"}


def test_scorer2_hand_worked_fine_and_coarse(tmp_path):
    gold = {"a": ("1",), "b": ("2", "3"), "c": ("U",), "d": ("4",)}
    answers = {"a": "1", "b": "3", "c": "2", "d": ["4", "5"]}
    fine = score_lexsample(gold, answers)
    # a right, b right (any gold sense), c wrong, d half (two answers share the credit)
    assert fine["correct"] == pytest.approx(2.5)
    assert fine["precision"] == pytest.approx(2.5 / 4)
    partial = score_lexsample(gold, {"a": "1", "b": None})
    assert (partial["precision"], partial["recall"], partial["attempted"]) == (1.0, 0.25, 0.25)
    mapping = tmp_path / "map"
    mapping.write_text("5 4\n2 20\nU 20\n")
    coarse = score_lexsample(gold, answers, read_sense_map(mapping))
    assert coarse["correct"] == pytest.approx(4.0)  # c: 2 and U share 20; d: 5 is under 4
    with pytest.raises(ValueError, match="not in the key"):
        score_lexsample(gold, {"z": "1"})


def test_mfs_run_answers_every_lexelt_and_scores_like_scorer2(tmp_path):
    out = tmp_path / "answers.txt"
    run = run_lexsample(**FILES, out=out, test_key=DATA / "test.key", learner="mfs")
    assert out.read_text() == ("activate.v activate.v.10 38201\nactivate.v activate.v.11 38201\n"
                               "different.a different.a.10 d1\n")
    assert run.lexelts == 2
    assert run.fine["correct"] == 1.0 and run.fine["total"] == 3


def test_lesk_reads_the_dictionary_glosses(tmp_path):
    run = run_lexsample(**FILES, out=None, test_key=DATA / "test.key",
                        dictionary=DATA / "dictionary.xml", learner="lesk")
    # "charcoal ... steam" overlaps the gloss of 38202, though MFS says 38201
    assert run.answers["activate.v.11"] == ("activate.v", "38202")
    assert run.fine["correct"] == 2.0


def test_answers_are_sorted_and_replace_the_file_only_when_complete(tmp_path):
    out = tmp_path / "answers.txt"
    out.write_text("old\n")
    write_answers(out, {"b.2": ("b.n", "s"), "a.9": ("a.n", "t"), "a.10": ("a.n", "u")})
    assert out.read_text().splitlines() == ["a.n a.10 u", "a.n a.9 t", "b.n b.2 s"]
    with pytest.raises(TypeError):
        write_answers(out, {"x": ("x.n", None)})
    assert out.read_text().splitlines()[0] == "a.n a.10 u"
    assert [p.name for p in tmp_path.iterdir()] == ["answers.txt"]


def test_cli_lexsample_prints_scorer2_and_fails_cleanly(tmp_path, capsys):
    out = tmp_path / "answers.txt"
    code = main(["lexsample", "--train", str(FILES["train"]), "--test", str(FILES["test"]),
                 "--out", str(out), "--test-key", str(DATA / "test.key"), "--learner", "mfs"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "precision: 0.333 (1.00 correct of 3.00 attempted)" in printed
    bad = tmp_path / "bad.xml"
    bad.write_text('<lexelt item="w.n">\n<instance id="w.1">\n<context>x</context>\n'
                   "</instance></lexelt>")
    code = main(["lexsample", "--train", str(bad), "--test", str(FILES["test"]),
                 "--out", str(tmp_path / "never.txt")])
    error = capsys.readouterr().err
    assert code == 2
    assert "bad.xml:4:" in error and "Traceback" not in error
    assert not (tmp_path / "never.txt").exists()


def test_training_needs_a_sense_for_every_instance(tmp_path):
    with pytest.raises(ValueError, match="test.xml:4: training instance 'activate.v.10'"):
        run_lexsample(FILES["test"], FILES["test"], learner="mfs")


def test_baseline_learners_save_and_load(tmp_path):
    X = [{"bow=fish": 1.0}, {"bow=guitar": 1.0}, {"bow=river": 1.0}]
    y = ["fish", "music", "fish"]
    mfs = MostFrequentLabel().fit(X, y)
    assert mfs.predict([{"bow=guitar": 1.0}]) == ["fish"]
    lesk = GlossOverlap(glosses={"fish": "a fish of the river", "music": "guitar music",
                                 "voice": "the lowest singing voice"}, lemmatize=False).fit(X, y)
    assert lesk.classes_ == ["fish", "music", "voice"]
    assert lesk.predict([{"bow=guitar": 1.0}, {"bow=singing": 1.0}, {"bow=cat": 1.0}]) == [
        "music", "voice", "fish"]
    for model in (mfs, lesk):
        path = model.save(tmp_path / "model.json")
        again = load_model(path)
        assert again.predict(X) == model.predict(X)
        assert json.loads(path.read_text())["kind"] == type(model).__name__


def test_train_command_accepts_mfs_and_lesk(tmp_path, capsys):
    for learner in ("mfs", "lesk"):
        model = tmp_path / f"{learner}.json"
        assert main(["train", "--corpus", "bundled:bass", "--learner", learner,
                     "--out", str(model)]) == 0
        assert load_model(model).learner.classes_
    capsys.readouterr()


def test_perceptron_options_reach_the_learner_of_every_lexelt(tmp_path, capsys):
    args = ["lexsample", "--train", str(FILES["train"]), "--test", str(FILES["test"]),
            "--out", str(tmp_path / "a.txt"), "--features", "bow", "--no-lemmatize"]
    assert main([*args, "--update", "pa", "--C", "0.5", "--models", "2"]) == 0
    assert main([*args, "--learner", "voted"]) == 0
    assert main([*args, "--learner", "voted", "--margin", "1"]) == 2
    assert "the voted perceptron takes none of margin" in capsys.readouterr().err
    assert main([*args, "--update", "pa", "--C", "-1"]) == 2
    assert "C must be a number > 0" in capsys.readouterr().err
