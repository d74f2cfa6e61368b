"""Issue 15: bad input gives one clear error naming the file, never a traceback, a silent wrong
answer or a lost file. One test per class of failure found by trying hostile input."""

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from wsd import cli
from wsd.corpora.framework import load_framework, read_key_file, write_key_file
from wsd.corpora.userfile import load_user_file, write_user_file
from wsd.experiments.config import load_config, read_config
from wsd.experiments.report import write_table
from wsd.instance import Instance
from wsd.persistence import load_model, save_model
from wsd.requests import config_options
from wsd.systems.supervised import SupervisedWSD


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    """A small averaged-perceptron model of 'bass' (the bundled corpus, bag of words)."""
    from wsd.corpora.bundled import load_bundled
    from wsd.systems.named import make_system, small_corpus_settings

    model = make_system("averaged", small_corpus_settings(lemmatize=False, epochs=2))
    model.fit(load_bundled("bass"))
    return model.save(tmp_path_factory.mktemp("model") / "bass.json")


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def run_cli(capsys, *argv) -> tuple[int, str]:
    code = cli.main([str(a) for a in argv])
    return code, capsys.readouterr().err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# -- data loss --------------------------------------------------------------------------


def test_a_failed_save_leaves_the_old_model_whole(tmp_path, model_file):
    path = tmp_path / "model.json"
    path.write_bytes(model_file.read_bytes())
    model = SupervisedWSD.load(path)
    model.glosses = {"bass.fish": "fails half-way \ud800"}  # a lone surrogate cannot be encoded
    with pytest.raises(UnicodeEncodeError):
        model.save(path)
    assert path.read_bytes() == model_file.read_bytes()
    assert os.listdir(tmp_path) == ["model.json"]  # no temporary file left behind


def test_failed_key_file_and_table_writes_leave_old_files_whole(tmp_path):
    key = write(tmp_path / "answers.key.txt", "d1 bass%1:13:02::\n")
    with pytest.raises(UnicodeEncodeError):
        write_key_file(key, {"d1": "ok", "d2": "\ud800"})
    assert key.read_text() == "d1 bass%1:13:02::\n"
    table = write(tmp_path / "run.csv", "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_table(pd.DataFrame({"\ud800": [1.0]}), tmp_path / "run")
    assert table.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["answers.key.txt", "run.csv"]


def test_atomic_open_keeps_mode_and_replaces_in_one_step(tmp_path):
    from wsd.persistence import atomic_open

    path = write(tmp_path / "out.txt", "old")
    path.chmod(0o640)
    with atomic_open(path) as stream:
        stream.write("new")
        assert path.read_text() == "old"  # readers see the old file until the rename
    assert path.read_text() == "new"
    assert path.stat().st_mode & 0o777 == 0o640


def test_table_names_with_dots_stay_apart(tmp_path):
    table = pd.DataFrame({"accuracy": [0.5]}, index=pd.Index(["mfs"], name="system"))
    first = write_table(table, tmp_path / "run.seed1")
    second = write_table(table, tmp_path / "run.seed2")
    assert {p.name for p in first + second} == {
        "run.seed1.csv", "run.seed1.md", "run.seed2.csv", "run.seed2.md"}
    assert [p.name for p in write_table(table, tmp_path / "t.csv")] == ["t.csv", "t.md"]


def test_train_checks_the_output_folder_before_training(tmp_path, capsys, monkeypatch):
    def no_training(*args, **kwargs):
        raise AssertionError("trained before checking the output folder")

    monkeypatch.setattr(SupervisedWSD, "fit", no_training)
    code, err = run_cli(capsys, "train", "--corpus", "bundled:bass", "--out",
                        tmp_path / "missing" / "m.json")
    assert_one_line_error(code, err, "missing", "does not exist")


# -- silent drops ---------------------------------------------------------------------


def test_tsv_sense_starting_with_hash_is_refused_not_skipped(tmp_path):
    path = write(tmp_path / "d.tsv", "# a comment\nbass.fish\tA <<bass>> bit.\n"
                                     "#1\tThe <<bass>> was loud.\n")
    with pytest.raises(ValueError, match=r"d\.tsv:3: starts with '#'"):
        load_user_file(path)


XML_HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n'


def framework_xml(path: Path, body: str) -> Path:
    return write(path, XML_HEAD + f'<corpus lang="en"><text id="d0">{body}</text></corpus>\n')


def test_framework_duplicate_instance_id_is_refused(tmp_path):
    sentence = ('<sentence id="d0.s{n}"><wf lemma="the" pos="DET">The</wf>'
                '<instance id="d0.s0.t0" lemma="bass" pos="NOUN">bass</instance></sentence>')
    xml = framework_xml(tmp_path / "d.data.xml", sentence.format(n=0) + sentence.format(n=1))
    with pytest.raises(ValueError, match=r"d\.data\.xml: instance id 'd0\.s0\.t0' appears twice"):
        load_framework(xml)


def test_framework_instance_outside_a_sentence_is_refused(tmp_path):
    xml = framework_xml(tmp_path / "d.data.xml",
                        '<instance id="t9" lemma="bass" pos="NOUN">bass</instance>'
                        '<sentence id="s1"><instance id="t1" lemma="bass" pos="NOUN">bass'
                        '</instance></sentence>')
    with pytest.raises(ValueError, match=r"d\.data\.xml: the <instance> 't9' is outside"):
        load_framework(xml)


# -- XML safety -----------------------------------------------------------------------


def test_entity_expansion_bomb_is_refused(tmp_path):
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
    xml = write(tmp_path / "bomb.data.xml",
                XML_HEAD + f"<!DOCTYPE corpus [{entities}]>\n"
                '<corpus><text id="d"><sentence id="s"><instance id="t" lemma="x" pos="NOUN">'
                "&i;</instance></sentence></text></corpus>\n")
    with pytest.raises(ValueError, match=r"bomb\.data\.xml: refused"):
        load_framework(xml)


# -- silent wrong results ----------------------------------------------------------------


def test_tab_inside_a_tsv_sentence_is_refused(tmp_path):
    path = write(tmp_path / "d.tsv", "bass.fish\tHe caught a <<bass>>\tand a trout too.\n")
    with pytest.raises(ValueError, match=r"d\.tsv:1: the id 'and a trout too\.' holds whitespace"):
        load_user_file(path)
    path = write(tmp_path / "e.tsv", "bass.fish\tHe caught\ta <<bass>> yesterday.\n")
    with pytest.raises(ValueError, match=r"e\.tsv:1: the <<target>> marker is in the id column"):
        load_user_file(path)


def _edited(model_file: Path, tmp_path: Path, edit) -> Path:
    data = json.loads(model_file.read_text())
    edit(data)
    return write(tmp_path / "edited.json", json.dumps(data))


def _learner_state(data):
    return data["learner"]["state"]


@pytest.mark.parametrize("edit, fragment", [
    (lambda d: _learner_state(d)["bias"].__setitem__(0, "1.5"), "state.bias[0] must be a number"),
    (lambda d: _learner_state(d)["bias"].__setitem__(0, True), "state.bias[0] must be a number"),
    (lambda d: _learner_state(d).__setitem__("counter", 0), "state.counter must be an integer"),
    (lambda d: _learner_state(d).__setitem__("counter", 10**400), "state.counter"),
    (lambda d: d["learner"]["params"].__setitem__("epochs", 0), "params.epochs"),
    (lambda d: d["learner"]["params"].__setitem__("engine", "fast"), "params.engine"),
    (lambda d: d["learner"]["params"].__setitem__("average", "yes"), "params.average"),
    (lambda d: d.__setitem__("featurizer", 5), "'featurizer' must be an object"),
    (lambda d: _learner_state(d).__setitem__("weights", [1.0]), "state.weights must be an object"),
    (lambda d: d.__setitem__("training", {"instances": 3}), "training"),
    (lambda d: d["featurizer"]["weighting"]["state"]["idf"].update(x="2"), "idf"),
])
def test_damaged_model_files_are_refused(tmp_path, model_file, edit, fragment):
    path = _edited(model_file, tmp_path, edit)
    with pytest.raises(ValueError) as caught:
        load_model(path)
    assert "edited.json" in str(caught.value)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_model_files_with_non_finite_numbers_are_refused(tmp_path, model_file, number):
    text = model_file.read_text()
    data = json.loads(text)
    first = next(iter(_learner_state(data)["weights"]))
    data["learner"]["state"]["weights"][first][0] = "@@"
    path = write(tmp_path / "m.json", json.dumps(data).replace('"@@"', number))
    with pytest.raises(ValueError, match=r"m\.json.*finite"):
        load_model(path)


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_deeply_nested_json_is_refused_not_a_recursion_error(tmp_path, suffix):
    deep = "[" * 100_000 + "]" * 100_000
    if suffix == ".json":
        path = write(tmp_path / f"m{suffix}", '{"format": "wsd-model", "version": 1, "x": '
                                              + deep + "}")
        with pytest.raises(ValueError, match=r"m\.json.*nested"):
            load_model(path)
    else:
        path = write(tmp_path / f"d{suffix}", '{"text": "a <<b>>", "sense": ' + deep + "}\n")
        with pytest.raises(ValueError, match=r"d\.jsonl:1:.*nested"):
            load_user_file(path)


def test_a_model_refuses_another_words_instances(tmp_path, capsys, model_file):
    crane = write(tmp_path / "crane.tsv", "\tThe <<crane>> lifted the beam.\n")
    code, err = run_cli(capsys, "predict", "--model", model_file, crane)
    assert_one_line_error(code, err, "crane.tsv", "'crane'", "trained for bass")
    code, err = run_cli(capsys, "evaluate", "--model", model_file, "--corpus", "bundled:crane")
    assert_one_line_error(code, err, "bundled:crane", "trained for bass")
    code, err = run_cli(capsys, "disambiguate", "--model", model_file,
                        "The <<crane>> lifted the beam.")
    assert_one_line_error(code, err, "sentence 1", "'crane'", "bass")
    model = SupervisedWSD.load(model_file)
    assert model.training_["lemmas"] == ["bass"] and model.training_["instances"] > 300
    with pytest.raises(ValueError, match="trained for bass"):
        model.predict(load_user_file(crane, require_senses=False))


def test_evaluate_warns_when_the_test_data_is_the_training_data(capsys, model_file):
    code = cli.main(["evaluate", "--model", str(model_file), "--corpus", "bundled:bass"])
    assert code == 0
    assert "bundled:bass is the data this model was trained on" in capsys.readouterr().err


def test_a_plural_target_with_a_lemma_column_is_one_word(tmp_path, model_file):
    from wsd.systems.provenance import check_single_target

    path = write(tmp_path / "d.tsv", "sense\tsentence\tlemma\n"
                                     "bass.fish\tTwo <<basses>> swam by.\tbass\n"
                                     "bass.fish\tA <<bass>> swam by.\t\n")
    instances = load_user_file(path)
    assert [i.lemma for i in instances] == ["bass", "bass"]
    check_single_target(instances, str(path))
    assert SupervisedWSD.load(model_file).predict(instances)
    round_trip = write_user_file(tmp_path / "back.tsv", instances) or tmp_path / "back.tsv"
    assert [i.lemma for i in load_user_file(round_trip)] == ["bass", "bass"]


def test_two_target_words_error_names_where_each_starts(tmp_path, capsys):
    path = write(tmp_path / "d.tsv", "bass.fish\tA <<bass>> swam.\ncrane.bird\tA <<crane>> flew.\n"
                 "bass.sound\tTwo <<basses>>.\n")  # an inflection of bass is bass
    code, err = run_cli(capsys, "train", "--corpus", path, "--out", tmp_path / "m.json")
    assert_one_line_error(code, err, "'bass' (first: d:1), 'crane' (first: d:2)", "lemma column")
    assert "basses" not in err


def test_config_false_and_lists(tmp_path, capsys):
    toml = write(tmp_path / "c.toml", 'command = "compare"\ncorpus = "bundled:bass"\n'
                                      'lemmatize = false\nquiet = false\n'
                                      'systems = ["mfs", "averaged"]\n')
    argv = load_config(toml, config_options)
    assert "--no-lemmatize" in argv and "--quiet" not in argv
    assert argv[argv.index("--systems") + 1] == "mfs,averaged"
    bad = write(tmp_path / "bad.toml", 'command = "train"\ncorpus = ["a.tsv", "b.tsv"]\n'
                                       'out = "m.json"\n')
    code, err = run_cli(capsys, "run", bad)
    assert_one_line_error(code, err, "bad.toml", "'corpus' takes one value")
    listed = write(tmp_path / "list.json", '["compare"]')
    code, err = run_cli(capsys, "run", listed)
    assert_one_line_error(code, err, "list.json", "must be an object")
    unknown = write(tmp_path / "u.json", '{"command": "train", "corpuss": "x"}')
    code, err = run_cli(capsys, "run", unknown)
    assert_one_line_error(code, err, "u.json", "unknown key 'corpuss'")


# -- tracebacks and vague errors ---------------------------------------------------------


def test_cli_input_errors_are_one_line_and_bugs_keep_their_traceback(capsys, monkeypatch):
    code, err = run_cli(capsys, "compare", "--corpus", "bundled:bass", "--systems", ",")
    assert_one_line_error(code, err, "--systems ','", "names no system")
    with pytest.raises(ValueError, match="names no system"):
        cli.main(["--debug", "compare", "--corpus", "bundled:bass", "--systems", ","])
    with pytest.raises(ValueError, match="names no system"):
        cli.main(["compare", "--corpus", "bundled:bass", "--systems", ",", "--debug"])

    def bug(request):
        raise TypeError("a genuine bug")

    monkeypatch.setattr("wsd.experiments.demo.demo_command", bug)
    with pytest.raises(TypeError, match="a genuine bug"):
        cli.main(["demo"])


def test_non_utf8_files_are_named_with_their_line(tmp_path, capsys):
    key = write(tmp_path / "gold.key.txt", b"d1 a%1:00:00::\nd2 b\xff\n")
    with pytest.raises(ValueError, match=r"gold\.key\.txt:2: not UTF-8"):
        read_key_file(key)
    config = write(tmp_path / "c.json", b'{"command": "demo", "x": "\xff"}')
    with pytest.raises(ValueError, match=r"c\.json:1: not UTF-8"):
        read_config(config)
    sentences = write(tmp_path / "s.txt", b"A <<bass>> swam.\nThe \xff <<bass>>.\n")
    code, err = run_cli(capsys, "disambiguate", "--target", "bass", "--file", sentences)
    assert_one_line_error(code, err, "s.txt", "not UTF-8")


def test_framework_instance_pos_must_be_a_universal_tag(tmp_path):
    xml = framework_xml(tmp_path / "d.data.xml", '<sentence id="s"><instance id="t" '
                                                 'lemma="play" pos="verb">play</instance>'
                                                 "</sentence>")
    with pytest.raises(ValueError, match=r"d\.data\.xml: instance 't' has pos 'verb'.*VERB"):
        load_framework(xml)


def test_model_save_round_trips_training_record(tmp_path, model_file):
    model = SupervisedWSD.load(model_file)
    again = SupervisedWSD.load(save_model(model, tmp_path / "again.json"))
    assert again.training_ == model.training_
    assert Instance.from_text("a <<bass>>", id="x").lemma in again.lemmas_
