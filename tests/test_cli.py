"""The `wsd` command: run in this process (the ``run_cli`` fixture), and as a user runs it, a
subprocess of the installed entry point, where a test needs a process of its own (a closed
pipe, a fresh NLTK data path, ``python -m wsd``)."""

import itertools
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.resources import has_nltk_resource

WSD = shutil.which("wsd", path=str(Path(sys.executable).parent)) or "wsd"


def run(*args, stdin=None, env=None, cwd=None):
    given = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run(
        [WSD, *args], **given, capture_output=True, text=True, timeout=600,
        env={**os.environ, **(env or {})}, cwd=cwd,
    )


def assert_clean_error(result, *fragments):
    """One error, no traceback; the fragments in its line, or in the indented lines after it
    that list the bad rows of a file."""
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    starts = [k for k, line in enumerate(lines) if "error:" in line]
    assert len(starts) == 1, result.stderr
    listed = itertools.takewhile(lambda line: line.startswith("  "), lines[starts[0] + 1 :])
    block = [lines[starts[0]], *listed]
    for fragment in fragments:
        assert any(fragment in line for line in block), result.stderr


@pytest.mark.parametrize(
    "command", ["disambiguate", "train", "predict", "evaluate", "compare", "curves", "demo", "run",
                "allwords", "annotate", "lexsample", "senses"]
)
def test_every_command_has_help(command, run_cli):
    result = run_cli(command, "--help")
    assert result.returncode == 0
    assert "usage: wsd " + command in result.stdout


def test_disambiguate_trains_on_the_bundled_corpus_and_explains(run_cli):
    result = run_cli("disambiguate", "He plays bass in a jazz band", "--target", "bass")
    assert result.returncode == 0, result.stderr
    assert "bass -> bass.instrument" in result.stdout
    assert "margin" in result.stdout and "bow=band" in result.stdout


def test_disambiguate_reads_stdin_and_prints_json(run_cli):
    text = "We caught a <<bass>> in the lake.\nThe <<bass>> player tuned her strings.\n"
    result = run_cli("disambiguate", "--target", "bass", "--file", "-", "--json", stdin=text)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["sense"] for r in records] == ["bass.fish", "bass.instrument"]
    assert all(r["gloss"] and r["features"] for r in records)


def test_disambiguate_reads_files_in_other_encodings(tmp_path, run_cli):
    """A Latin-1 file is refused with the line of its first bad byte and a hint, and read with
    --encoding; a UTF-16 file with its byte-order mark (Windows "Unicode") is read as is."""
    text = "The café sold a <<bass>> fish.\nA <<bass>> guitar, naïvely.\n"
    (tmp_path / "latin1.txt").write_bytes(("A <<bass>> line.\n" + text).encode("latin-1"))
    (tmp_path / "utf16.txt").write_bytes(text.encode("utf-16"))
    refused = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / "latin1.txt"))
    assert_clean_error(refused, "latin1.txt:2: not UTF-8", "--encoding")
    unknown = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / "utf16.txt"),
                  "--encoding", "klingon")  # fmt: skip
    assert_clean_error(unknown, "unknown encoding 'klingon'")
    answers = []
    for name, options in (("latin1.txt", ["--encoding", "latin-1"]), ("utf16.txt", [])):
        result = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / name),
                     "--json", *options)  # fmt: skip
        assert result.returncode == 0, result.stderr
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert records[-2]["sentence"].startswith("The café")
        answers.append([r["sense"] for r in records[-2:]])
    assert answers[0] == answers[1] == ["bass.fish", "bass.instrument"]


def test_a_sentence_without_the_target_is_named_by_file_and_line(tmp_path, run_cli):
    """Blank lines are skipped but counted: the error names the file's line, not the
    sentence's rank among the non-blank ones (it had said *sentence 2*)."""
    (tmp_path / "s.txt").write_text("A <<bass>> fish.\n\n# notes\nThe bass player.\n")
    result = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / "s.txt"))
    assert_clean_error(result, "s.txt:3: 'bass' does not occur in '# notes'")
    result = run_cli("disambiguate", "--target", "bass", "A bass.", "No fish here.")
    assert_clean_error(result, "sentence 2: 'bass' does not occur")


def test_a_broken_or_second_marker_is_named_by_file_and_line(tmp_path, run_cli):
    """An unclosed << had given the Python API's advice (*give target= or offset=*) with no
    line; a second marker quoted the sentence with the first one removed."""
    (tmp_path / "s.txt").write_text("A <<bass>> fish.\nThe <<bass player.\n")
    result = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / "s.txt"))
    assert_clean_error(result, "s.txt:2: no <<word>> marker (a << without its >>, or an "
                               "empty <<>>) in 'The <<bass player.'")  # fmt: skip
    assert "target=" not in result.stderr
    result = run_cli("disambiguate", "--target", "bass", "A <<bass>> or <<bass>>.")
    assert_clean_error(result, "sentence 1: more than one <<word>> marker in "
                               "'A <<bass>> or <<bass>>.'")  # fmt: skip


_LINES = st.lists(st.sampled_from(["", "  ", "a <<bass>> fish", " the bass ", "\t"]),
                  max_size=12)


@given(_LINES, st.sampled_from(["\n", "\r\n", "\r"]))
@settings(max_examples=100, deadline=None)
def test_each_sentence_read_from_a_file_is_named_by_its_line(lines, newline):
    """Whatever the blank lines and line ends, every line with text is read, stripped, once,
    and named by its own line number in the file."""
    import tempfile

    from wsd.experiments.textinput import read_lines

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.txt"
        path.write_bytes(newline.join(lines).encode())
        sentences, places = read_lines(["given"], str(path), encoding=None)
    expected = [(line.strip(), f"{path}:{n}") for n, line in enumerate(lines, start=1)
                if line.strip()]  # fmt: skip
    assert list(zip(sentences, places, strict=True)) == [("given", "sentence 1"), *expected]


def test_bundled_models_read_web_and_terminal_text_as_a_person_sees_it(tmp_path, run_cli):
    """A pasted tag or a colour code against the word had hidden it (*<b>bass* is no token
    *bass*); the record still shows the sentence as given."""
    lines = ["<p>He plays <b>bass</b> in a jazz band</p>", "\x1b[1mBASS\x1b[0m guitar strings"]
    (tmp_path / "s.txt").write_text("\n".join(lines) + "\n")
    result = run_cli("disambiguate", "--target", "bass", "--file", str(tmp_path / "s.txt"),
                 "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["sentence"] for r in records] == lines
    assert [r["sense"] for r in records] == ["bass.instrument", "bass.instrument"]
    names = [name for r in records for name, _ in r["features"] + r["against"]]
    assert "bow=band" in names and "bow=guitar" in names
    assert not any(name in ("bow=p", "bow=b") or "[" in name or "<" in name for name in names)


def test_output_to_a_reader_that_stops_early_ends_quietly(tmp_path):
    """`wsd disambiguate ... | head -1`: the reader closes the pipe; wsd had printed
    "error: [Errno 32] Broken pipe"; now it stops with no message, status 141 as cat does."""
    (tmp_path / "many.txt").write_text("We caught a <<bass>> in the lake.\n" * 1000)
    process = subprocess.Popen(
        [WSD, "disambiguate", "--target", "bass", "--file", str(tmp_path / "many.txt"),
         "--json"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=600) == 141
    assert json.loads(first)["sense"] == "bass.fish"
    assert "error" not in stderr and "Traceback" not in stderr


def test_disambiguate_with_a_model_of_the_wrong_kind_is_one_clear_line(tmp_path, run_cli):
    (tmp_path / "x.json").write_text('{"format": "wsd-model", "version": 1, "kind": "Nope"}')
    result = run_cli("disambiguate", "--model", str(tmp_path / "x.json"), "a <<bass>>")
    assert_clean_error(result, "unknown model kind")


def test_a_model_file_of_the_other_kind_names_the_command_that_makes_each(tmp_path, run_cli):
    """*could not be loaded: expected a AllWordsWSD model, found a SupervisedWSD* before."""
    one_word = tmp_path / "bass.json"
    assert run_cli("train", "--corpus", "bundled:bass", "--out", str(one_word),
               "--epochs", "2").returncode == 0
    from test_allwords import _bank_sentences, _corpus

    test = _corpus(tmp_path, "test", [_bank_sentences(2)])
    assert_clean_error(run_cli("allwords", "--model", str(one_word), "--evaluate", str(test)),
                       f"error: model file '{one_word}' holds a SupervisedWSD model (from `wsd "
                       "train`), not an AllWordsWSD (from `wsd allwords --save`)")


def test_train_predict_evaluate_round_trip(tmp_path, run_cli):
    model = tmp_path / "crane.json"
    result = run_cli("train", "--corpus", "bundled:crane", "--out", str(model), "--epochs", "3")
    assert result.returncode == 0, result.stderr
    assert json.loads(model.read_text())["format"] == "wsd-model"

    sentences = tmp_path / "new.tsv"
    sentences.write_text(
        "crane.machine\tThe <<crane>> hoisted a container off the ship.\n"
        "crane.bird\tA <<crane>> stood on one leg in the shallow marsh.\n"
    )
    result = run_cli("predict", "--model", str(model), str(sentences))
    assert result.returncode == 0, result.stderr
    assert [line.split("\t")[1] for line in result.stdout.splitlines()] == [
        "crane.machine", "crane.bird"]

    key = tmp_path / "out.key"
    result = run_cli("evaluate", "--model", str(model), "--corpus", str(sentences), "--key",
                     str(key))
    assert result.returncode == 0, result.stderr
    assert "accuracy 1.0000 on 2 instances" in result.stdout
    assert len(key.read_text().splitlines()) == 2

    result = run_cli("disambiguate", "--model", str(model), "A <<crane>> lifted the roof beams.")
    assert result.returncode == 0 and "crane.machine" in result.stdout
    wrong = run_cli("disambiguate", "--model", str(model), "--target", "bass", "a <<bass>> swam")
    assert_clean_error(wrong, "trained for crane, not 'bass'")


def test_bad_model_files_are_refused_clearly(tmp_path, run_cli):
    pickled = tmp_path / "model.pkl"
    pickled.write_bytes(b"\x80\x04\x95\x00")
    assert_clean_error(run_cli("disambiguate", "--model", str(pickled), "a <<bass>>"), "pickle")
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}')
    assert_clean_error(run_cli("predict", "--model", str(other), str(other)),
                       "not a wsd model file")
    newer = tmp_path / "newer.json"
    newer.write_text('{"format": "wsd-model", "version": 99, "kind": "SupervisedWSD"}')
    assert_clean_error(run_cli("evaluate", "--model", str(newer), "--corpus", "bundled:bass"),
                       "version 99")


def test_missing_and_malformed_input_files(tmp_path, run_cli):
    assert_clean_error(run_cli("predict", "--model", str(tmp_path / "nope.json"), "x.tsv"),
                       f"error: {tmp_path / 'nope.json'}: no such file or directory")
    assert_clean_error(run_cli("disambiguate", "--file", str(tmp_path), "--target", "bass"),
                       f"error: {tmp_path}: a folder, not a file")  # not Python's [Errno 21]
    assert_clean_error(run_cli("compare", "--corpus", "no-such-corpus"), "no corpus")
    bad = tmp_path / "bad.tsv"
    bad.write_text("bass.fish\tno marker here\n")
    assert_clean_error(run_cli("compare", "--corpus", str(bad)), "bad.tsv:1")


def test_each_bad_row_of_a_file_is_a_line_of_the_error(tmp_path, run_cli):
    """The rows had been run together into one line of the error message."""
    bad = tmp_path / "bad.tsv"
    bad.write_text("bass.fish\tno marker here\nbass.fish\tfine <<bass>>\n\tno <<sense>>\n")
    result = run_cli("train", "--corpus", str(bad), "--out", str(tmp_path / "m.json"))
    assert_clean_error(result, "bad.tsv: 2 bad row(s)")
    assert result.stderr.splitlines()[1:] == [
        f"  {bad}:1: no <<target>> marker in the sentence",
        f"  {bad}:3: empty sense (label the row: training and scoring need one; wsd predict "
        "and load_user_file(..., require_senses=False) read unlabelled rows)"]


def test_bad_options_fail_cleanly(run_cli):
    assert_clean_error(run_cli("compare", "--corpus", "bundled:bass", "--systems", "mfs,oracle"),
                       "oracle")
    assert_clean_error(run_cli("train", "--corpus", "bundled:bass", "--out", "x.json",
                           "--epochs", "0"), "--epochs")
    # --folds in the command line's words (the API's "k must be an integer >= 2" before)
    assert_clean_error(run_cli("compare", "--corpus", "bundled:bass", "--folds", "1"),
                       "error: --folds 1: give at least 2 (or 0 for one 80/20 split)")
    assert_clean_error(run_cli("demo", "--folds", "0"), "error: --folds 0: give at least 2")


def test_more_folds_than_instances_is_one_clear_error(tmp_path, run_cli):
    rows = tmp_path / "few.tsv"
    rows.write_text("b.f\tA <<bass>> swam.\nb.m\tThe <<bass>> played.\nb.f\tA <<bass>>.\n",
                    encoding="utf-8")
    assert_clean_error(run_cli("compare", "--corpus", str(rows), "--folds", "5", "--quiet"),
                       "error: --folds 5: the corpus has 3 instances; use --folds 3 or fewer")


def test_compare_writes_csv_and_markdown(tmp_path, run_cli):
    out = tmp_path / "table"
    result = run_cli("compare", "--corpus", "bundled:bass", "--systems", "mfs,lesk,averaged",
                 "--folds", "3", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    csv = (tmp_path / "table.csv").read_text().splitlines()
    assert csv[0].startswith("system,accuracy,ci_low,ci_high,macro_f1")
    assert [row.split(",")[0] for row in csv[1:]] == ["mfs", "lesk", "averaged"]
    assert "| averaged |" in (tmp_path / "table.md").read_text()


def test_compare_is_repeatable_with_a_seed(run_cli):
    args = ("compare", "--corpus", "bundled:crane", "--systems", "mfs,perceptron", "--folds",
            "3", "--seed", "7", "--quiet")
    assert run_cli(*args).stdout == run_cli(*args).stdout


def test_curves_write_numbers_and_a_plot(tmp_path, run_cli):
    result = run_cli("curves", "--corpus", "bundled:crane", "--epochs", "3", "--shuffles", "3",
                 "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    for name in ("epochs.csv", "orders.csv", "sizes.csv", "curves-epochs.png",
                 "curves-orders.png", "curves-sizes.png"):
        assert (tmp_path / name).stat().st_size > 0
    assert len((tmp_path / "epochs.csv").read_text().splitlines()) == 1 + 2 * 3


def test_config_file_runs_a_command(tmp_path, run_cli):
    config = tmp_path / "exp.json"
    config.write_text(json.dumps({"command": "compare", "corpus": "bundled:plant",
                                  "systems": ["mfs", "averaged"], "folds": 3, "quiet": True,
                                  "out": str(tmp_path / "res")}))
    result = run_cli("run", str(config))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "res.csv").exists()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert_clean_error(run_cli("run", str(broken)), "broken.json")
    # a value the command refuses: the config's file and key, not the command's usage text
    for body, problem in ({"folds": "five", "corpus": "bundled:bass"}, "folds: invalid int "
                          "value: 'five'"), ({"folds": 3}, "missing key(s): corpus"):
        config.write_text(json.dumps({"command": "compare", **body}))
        result = run_cli("run", str(config))
        assert_clean_error(result, f"wsd run: error: {config}: {problem}")
        assert "usage:" not in result.stderr


def test_demo_runs_offline_without_nltk_data(tmp_path):
    empty = tmp_path / "no_nltk_data"
    empty.mkdir()
    result = run("demo", "--folds", "3", env={"NLTK_DATA": str(empty)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for target in ("bass", "crane", "plant", "bank"):
        assert f"== {target}:" in result.stdout
    assert "bass -> bass.fish" in result.stdout
    assert "Traceback" not in result.stderr


def test_disambiguate_answers_the_bundled_words_without_nltk_data(tmp_path):
    """On a fresh machine (no NLTK data) raw text without a model answers the words of the
    bundled targets (the marked one where a line has a marker) by their bundled models, as
    --target does, with one notice; text without one, or a format of the raw-text path, is
    the downloader's error."""
    empty = tmp_path / "no_nltk_data"
    empty.mkdir()
    env = {"NLTK_DATA": str(empty), "WSD_CACHE_DIR": str(tmp_path / "cache")}
    result = run("disambiguate", "He caught a huge bass.", env=env)
    assert result.returncode == 0, result.stderr
    assert "bass -> bass.fish" in result.stdout
    assert result.stdout == run("disambiguate", "He caught a huge bass.", "--target", "bass",
                                env=env).stdout  # fmt: skip
    assert "only the bundled words are answered (bass)" in result.stderr
    assert "python -m nltk.downloader wordnet" in result.stderr
    marked = run("disambiguate", "The <<bass>> player and the bank.", env=env)
    assert marked.returncode == 0 and "bass -> bass.instrument" in marked.stdout
    assert "bank ->" not in marked.stdout
    text = "The bank by the river.\nNothing here.\nA crane and two basses.\n"
    piped = run("disambiguate", "--json", stdin=text, env=env)
    assert piped.returncode == 0, piped.stderr
    records = [json.loads(line) for line in piped.stdout.splitlines()]
    assert [(r["sentence"], r["target"]) for r in records] == [
        ("The bank by the river.", "bank"), ("A crane and two basses.", "crane"),
        ("A crane and two basses.", "basses")]
    assert records[0]["sense"] == "bank.river"
    for args in (["The violin played."], ["The <<violin>> and the bass."],
                 ["A bass.", "--format", "conll"]):
        assert_clean_error(run("disambiguate", *args, env=env), "python -m nltk.downloader")


_WORDS = ["bass", "basses", "bank", "crane", "cranes", "line", "the", "river", "fish", "a",
          "played", "violin"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6).flatmap(
    lambda words: st.sampled_from([" ".join(words), *(
        " ".join([*words[:k], f"<<{words[k]}>>", *words[k + 1:]]) for k in range(len(words)))])),
    min_size=1, max_size=4))  # fmt: skip
def test_bundled_words_only_answers_each_lines_bundled_words_in_order(lines):
    """The fallback without NLTK's data (read straight, the bundled models stood in for):
    each line's bundled words, the first form of each target in order, or its marked word
    alone; text without one is the resource's error again."""
    from wsd.corpora.bundled import bundled_target
    from wsd.experiments import disambiguate as command
    from wsd.requests import DisambiguateRequest
    from wsd.resources import MissingResourceError

    asked = []

    def disambiguate(model, sentences, target, places, top):
        asked.append((sentences[0], target))
        return [{"sentence": sentences[0], "target": target}]

    missing = MissingResourceError("NLTK resource 'wordnet' is not installed.")
    expected = []
    for line in lines:
        marked = [w[2:-2] for w in line.split() if w.startswith("<<")]
        words = marked or line.split()
        targets = dict.fromkeys(t for t in map(bundled_target, words) if t)
        expected += [(line, target) for target in targets]
    text = "\n".join(lines)
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        patch.setattr(command, "train_bundled_model", lambda target, settings: target)
        patch.setattr(command, "disambiguate", disambiguate)
        if expected:
            out = command._bundled_words_only(text, DisambiguateRequest(json=True), missing)
        else:
            with pytest.raises(MissingResourceError):
                command._bundled_words_only(text, DisambiguateRequest(), missing)
            out = ""
    assert [str(w.message).startswith("only the bundled words") for w in caught] == (
        [True] if expected else [])
    assert asked == expected
    assert [tuple(json.loads(row).values()) for row in out.splitlines()] == expected


@pytest.mark.skipif(
    not (has_nltk_resource("wordnet") and has_nltk_resource("averaged_perceptron_tagger_eng")),
    reason="NLTK wordnet or averaged_perceptron_tagger_eng data absent (allwords defaults)",
)
def test_allwords_trains_writes_keys_scores_and_reuses_a_saved_model(tmp_path, run_cli):
    from test_allwords import _bank_sentences, _corpus

    train = _corpus(tmp_path, "train", [_bank_sentences(16)])
    test = _corpus(tmp_path, "test", [_bank_sentences(6, offset=16)])
    model, keys = tmp_path / "allwords.npz", tmp_path / "keys"
    result = run_cli("allwords", "--train", str(train), "--evaluate", str(test), "--out", str(keys),
                 "--save", str(model), "--epochs", "5", "--models", "2", "--prior", "0.5",
                 "--gloss-weight", "0", "--discourse-weight", "0", "--prior-count", "5",
                 "--backoff-margin", "0", "--temperature", "3")
    assert result.returncode == 0, result.stderr
    from wsd.systems.allwords import AllWordsWSD

    saved = AllWordsWSD.load(model).get_params()
    assert (saved["n_models"], saved["prior"], saved["gloss_weight"], saved["discourse_weight"],
            saved["prior_count"], saved["margin"], saved["temperature"]) == (
                2, 0.5, 0.0, 0.0, 5.0, 0.0, 3.0)  # fmt: skip
    assert "test" in result.stdout and "F1" in result.stdout
    answers = (keys / "test.key.txt").read_text().splitlines()
    assert len(answers) == 6
    again = run_cli("allwords", "--model", str(model), "--evaluate", str(test))
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-1] == result.stdout.splitlines()[1]
    assert_clean_error(run_cli("allwords", "--model", str(model), "--evaluate",
                           str(tmp_path / "missing.data.xml")), "missing.data.xml")
    assert_clean_error(run_cli("allwords", "--train", str(train), "--evaluate", str(test),
                           "--gloss-weight", "-1"),
                       "error: --gloss-weight must be a number from 0 to 1e+06, got -1")
    assert_clean_error(run_cli("allwords", "--model", str(model), "--evaluate", str(test),
                           "--temperature", "0"),
                       "error: --temperature must be a number above 0 and at most 1e+06, got 0")
    # prediction-time weights act on a saved model; training options are refused
    assert_clean_error(run_cli("allwords", "--model", str(model), "--evaluate", str(test),
                           "--prior", "-2"), "error: --prior must be a number from 0")
    assert_clean_error(run_cli("allwords", "--model", str(model), "--evaluate", str(test),
                           "--discourse-weight", "nan"), "error: --discourse-weight must be")
    assert_clean_error(run_cli("allwords", "--model", str(model), "--evaluate", str(test),
                           "--epochs", "3", "--seed", "1"),
                       "error: --seed, --epochs only act when training",
                       "prediction-time options: --prior, --prior-count, --gloss-weight")
    # --save without --evaluate only trains
    only = run_cli("allwords", "--train", str(train), "--save", str(tmp_path / "only.npz"),
               "--epochs", "2", "--models", "1", "--quiet")
    assert only.returncode == 0, only.stderr
    assert "F1" not in only.stdout and (tmp_path / "only.npz").is_file()


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_compare_first_sense_maps_wordnet_order_onto_bundled_senses(tmp_path, run_cli):
    # WordNet lists the machine sense of "crane" before the bird, and the machine is also the
    # most frequent bundled sense: both systems give the same answers everywhere.
    out = tmp_path / "crane"
    result = run_cli("compare", "--corpus", "bundled:crane", "--systems", "mfs,first-sense",
                 "--folds", "2", "--quiet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = {line.split(",")[0]: line.split(",")[1] for line in
            (tmp_path / "crane.csv").read_text().splitlines()[1:]}
    assert rows["first-sense"] == rows["mfs"]
    assert float(rows["mfs"]) > 0.6


def test_train_refuses_a_corpus_of_several_words(tmp_path, run_cli):
    mixed = tmp_path / "mixed.tsv"
    mixed.write_text("bass.fish\tA <<bass>> bit.\ncrane.bird\tA <<crane>> flew.\n")
    assert_clean_error(run_cli("train", "--corpus", str(mixed), "--out", str(tmp_path / "m.json")),
                       "holds 2 target words")


def test_python_dash_m_wsd_is_the_command():
    """``python -m wsd`` runs the same CLI: its help, and an error's exit code."""
    module = subprocess.run([sys.executable, "-m", "wsd", "--help"], capture_output=True,
                            text=True, timeout=120)
    assert module.returncode == 0 and module.stdout == run("--help").stdout
    assert module.stdout.startswith("usage: wsd ")
    bad = subprocess.run([sys.executable, "-m", "wsd", "senses", "bass", "--pos", "BOGUS"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_missing_framework_names_the_option_and_where_to_get_it(tmp_path, run_cli):
    result = run_cli("allwords", "--framework", str(tmp_path / "nowhere"), "--evaluate",
                 "semeval2007")
    assert_clean_error(result, "--framework", "WSD_FRAMEWORK_DIR", "Raganato",
                       "Sapienza NLP")


def test_train_refuses_an_npz_name_before_training(tmp_path, run_cli):
    """It had written JSON under the .npz name, which says the all-words format."""
    result = run_cli("train", "--corpus", "bundled:bass", "--out", tmp_path / "bass.npz")
    assert_clean_error(result, "bass.npz: a one-word model is saved as JSON",
                       "give a path ending in .json")
    assert not (tmp_path / "bass.npz").exists()
