"""Issue 38, the third hostile-input sweep (benchmarks/hostile.py): one test per class of
failure it found (a run that cannot finish, lost files, special files, unbounded memory,
silent wrong results, silent drops, vague errors and floods, concurrency and resume state).
Each failed before its fix."""
# ruff: noqa: F811 - the shared fixtures model_file and npz_model are imported, then requested

import fcntl
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_allwords import _bank_sentences, _corpus
from test_reliability import assert_one_line_error, model_file, run_cli, write  # noqa: F401
from test_reliability_readers import npz_model  # noqa: F401 - a fixture

from wsd.corpora import userfile
from wsd.corpora.userfile import load_user_file, user_file_batches
from wsd.experiments.allwords_run import run_allwords
from wsd.persistence import atomic_open, load_model, read_text, regular_file
from wsd.resources import has_nltk_resource
from wsd.systems.allwords.modelfile import ModelFileError

FISH, MUSIC = "bass%1:13:02::", "bass%1:10:00::"
ROWS = "".join(f"{FISH}\tI caught a <<bass>> in the lake {i}\n{MUSIC}\tplay the <<bass>> loud "
               f"{i}\n" for i in range(3))



# wsd annotate reads raw text: without WordNet and the tagger every document is a bad one.
needs_text_data = pytest.mark.skipif(
    not (has_nltk_resource("wordnet") and has_nltk_resource("averaged_perceptron_tagger_eng")),
    reason="needs NLTK's wordnet and averaged_perceptron_tagger_eng")

def _docs(n: int) -> str:
    return "".join(f'{{"id": "d{i}", "text": "The bank of the river {i}."}}\n' for i in range(n))


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# -- 1. a run that can never finish -----------------------------------------------------------

SURROGATE = st.integers(0xD800, 0xDFFF).map(chr)


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=20), SURROGATE, st.integers(0, 20),
       st.integers(0, 3))
def test_jsonl_text_with_a_lone_surrogate_is_refused_at_read_naming_file_and_line(
        tmp_path_factory, text, surrogate, at, before):
    """A JSON escape of a lone surrogate anywhere in a row is refused when the file is read,
    with its file and line (it was accepted, and failed at write time naming no file)."""
    cut = min(at, len(text))
    bad = text[:cut] + surrogate + text[cut:]
    path = tmp_path_factory.mktemp("s") / "rows.jsonl"
    good = [json.dumps({"text": f"a <<bass>> {n}", "sense": FISH}) for n in range(before)]
    row = json.dumps({"text": f"the <<bass>> {bad}", "sense": MUSIC})  # ASCII: \\udXXX escape
    path.write_text("\n".join([*good, row]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"rows.jsonl:{before + 1}: .*lone surrogate"):
        load_user_file(path)


@needs_text_data
def test_annotate_reports_an_unwritable_document_and_finishes(tmp_path, npz_model, capsys):
    docs = write(tmp_path / "docs.jsonl", '{"id": "a", "text": "The bank \\ud800 here."}\n'
                 + _docs(5))
    for _ in range(2):  # a re-run finds the run complete; it used to fail at the same place
        code, err = run_cli(capsys, "annotate", docs, "--model", npz_model, "--out",
                            tmp_path / "out", "--quiet")
        assert code == 0, err
    manifest = _manifest(tmp_path / "out")
    assert manifest["status"] == "complete"
    assert manifest["counts"]["annotated"] == 5 and manifest["counts"]["bad"] == 1
    assert "lone surrogate" in manifest["bad_documents"][0]["problem"]


# -- 2. lost files ----------------------------------------------------------------------------


@pytest.mark.parametrize("option, value", [("--window", "20000"), ("--seed", "4294967296"),
                                           ("--seed", "-1"), ("--epochs", "1000000")])
def test_train_refuses_what_the_loader_would_refuse_before_replacing_a_model(
        tmp_path, capsys, model_file, option, value):
    out = write(tmp_path / "m.json", model_file.read_bytes())
    code, err = run_cli(capsys, "train", "--corpus", "bundled:bass", "--out", out, option, value)
    assert_one_line_error(code, err, option)
    assert out.read_bytes() == model_file.read_bytes()


def test_allwords_outputs_never_overwrite_inputs_or_each_other(tmp_path, npz_model):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    first = _corpus(one, "same", [_bank_sentences(4)])
    second = _corpus(two, "same", [_bank_sentences(6)])
    gold = first.with_name("same.gold.key.txt")
    kept = gold.read_bytes()
    with pytest.raises(ValueError, match="--save .*also an input"):
        run_allwords(train=second, evaluate=[first], model_path=gold, n_models=1, epochs=1)
    assert gold.read_bytes() == kept
    with pytest.raises(ValueError, match="both named 'same'"):
        run_allwords(evaluate=[first, second], model=npz_model, out_dir=tmp_path / "keys")
    assert not (tmp_path / "keys" / "same.key.txt").exists()


def test_evaluate_key_and_errors_naming_one_file_are_refused(tmp_path, capsys,
                                                            model_file):
    corpus = write(tmp_path / "c.tsv", ROWS)
    code, err = run_cli(capsys, "evaluate", "--model", model_file, "--corpus", corpus,
                        "--key", tmp_path / "x.txt", "--errors", tmp_path / "x.txt")
    assert_one_line_error(code, err, "--key and --errors both name")
    assert not (tmp_path / "x.txt").exists()


def test_annotate_out_inside_an_input_folder_is_refused(tmp_path, capsys, npz_model):
    (tmp_path / "in").mkdir()
    write(tmp_path / "in" / "a.txt", "The bank of the river.")
    code, err = run_cli(capsys, "annotate", tmp_path / "in", "--model", npz_model, "--out",
                        tmp_path / "in" / "out", "--quiet")
    assert_one_line_error(code, err, "--out", "overlap")
    assert not (tmp_path / "in" / "out").exists()


# -- 3. special files -------------------------------------------------------------------------


def test_a_fifo_as_model_is_refused_at_once_not_waited_on(tmp_path, capsys):
    fifo = tmp_path / "m.json"
    os.mkfifo(fifo)
    code, err = run_cli(capsys, "predict", "--model", fifo, tmp_path / "x.tsv")
    assert code == 2 and "is a FIFO, not a regular file" in err


@pytest.mark.parametrize("argv", [
    ("predict", "--model", "MODEL", "/dev/zero"),
    ("disambiguate", "--model", "/dev/zero", "a bank"),
    ("disambiguate", "--target", "bass", "--file", "/dev/zero"),
    ("run", "/dev/zero"),
    ("train", "--corpus", "/dev/zero", "--out", "OUT"),
])
def test_dev_zero_as_an_input_is_refused_naming_it(tmp_path, capsys, model_file,
                                                   argv):
    argv = [str(model_file) if a == "MODEL" else str(tmp_path / "o.json") if a == "OUT" else a
            for a in argv]
    code, err = run_cli(capsys, *argv)
    assert code == 2 and "/dev/zero" in err and "Traceback" not in err, err


def test_special_outputs_are_refused_and_a_symlink_is_written_through(tmp_path, capsys,
                                                                     model_file):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    code, err = run_cli(capsys, "train", "--corpus", "bundled:bass", "--out", fifo, "--epochs",
                        "1")
    assert_one_line_error(code, err, "fifo.json", "not a regular file")
    assert fifo.is_fifo()
    corpus = write(tmp_path / "c.tsv", ROWS)
    device = tmp_path / "device.txt"  # a link to a device: written through, so refused
    device.symlink_to("/dev/zero")
    code, err = run_cli(capsys, "evaluate", "--model", model_file, "--corpus", corpus, "--key",
                        device)
    assert_one_line_error(code, err, "device.txt", "not a regular file")
    assert device.is_symlink()
    target = write(tmp_path / "target.json", "old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, err = run_cli(capsys, "train", "--corpus", "bundled:bass", "--out", link, "--epochs",
                        "1")
    assert code == 0, err
    assert link.is_symlink() and load_model(target).lemmas_ == ["bass"]


@settings(max_examples=30, deadline=None)
@given(st.binary(max_size=50), st.booleans())
def test_regular_files_and_links_to_them_are_read_whole(tmp_path_factory, data, linked):
    folder = tmp_path_factory.mktemp("r")
    path = folder / "f.txt"
    path.write_bytes(data)
    if linked:
        (folder / "l.txt").symlink_to(path)
        path = folder / "l.txt"
    assert regular_file(path) == path and path.read_bytes() == data


# -- 4. unbounded memory ----------------------------------------------------------------------


def _rezip(source: Path, target: Path, name: str, data: bytes) -> Path:
    with zipfile.ZipFile(source) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    members[name] = data
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in members.items():
            archive.writestr(member, content)
    return target


def _npy(shape: tuple[int, ...], payload: bytes) -> bytes:
    import io

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f4", "fortran_order": False,
                                                  "shape": shape})
    return header.getvalue() + payload


def test_npz_members_are_checked_before_they_are_decompressed(tmp_path, npz_model,
                                                              monkeypatch):
    from wsd.systems.allwords import modelfile

    monkeypatch.setattr(modelfile, "MAX_PLAIN_BYTES", 1 << 16)
    bomb = _rezip(npz_model, tmp_path / "bomb.npz", "coef.npy", _npy((1 << 18,), bytes(1 << 20)))
    with pytest.raises(ModelFileError, match="bomb.npz.*would decompress to 1,048,7"):
        load_model(bomb)
    lying = _rezip(npz_model, tmp_path / "lying.npz", "coef.npy", _npy((10**9,), bytes(64)))
    with pytest.raises(ModelFileError, match="lying.npz.*declares 4,000,000,128 bytes"):
        load_model(lying)


def _with_params(npz_model: Path, target: Path, **params) -> Path:
    with np.load(npz_model, allow_pickle=False) as archive:
        arrays = {name: archive[name] for name in archive.files}
    metadata = json.loads(arrays["metadata"].tobytes())
    metadata["params"].update(params)
    arrays["metadata"] = np.frombuffer(json.dumps(metadata).encode(), dtype=np.uint8)
    with open(target, "wb") as stream:
        np.savez(stream, **arrays)
    return target


@pytest.mark.parametrize("params, message", [
    ({"context_sentences": 10**9}, "context_sentences must be at most 100"),
    ({"n_models": 10**6}, "n_models must be at most 1000"),
    ({"features": [{"name": "collocations", "params": {"spans": [[-10**9, 10**9]]}}]},
     "reaches beyond 10000 words"),
    ({"temperature": 1e-300}, "temperature must be at least 0.001"),
])
def test_model_parameters_that_allocate_are_bounded_at_load(tmp_path, npz_model,
                                                            params, message):
    path = _with_params(npz_model, tmp_path / "p.npz", **params)
    with pytest.raises(ValueError, match=message):
        load_model(path)


@pytest.mark.parametrize("argv, flag", [
    (("annotate", "IN", "--max-document-size", str(10**12)), "--max-document-size"),
    (("annotate", "IN", "--workers", "1000000"), "--workers"),
    (("annotate", "IN", "--partition-size", str(10**9)), "--partition-size"),
    (("allwords", "--jobs", "0"), "--jobs"),
    (("allwords", "--workers", "1000000"), "--workers"),
    (("allwords", "--temperature", "1e-300"), "--temperature"),
])
def test_sizes_set_by_options_are_bounded_before_work(tmp_path, capsys, npz_model,
                                                      argv, flag):
    text = write(tmp_path / "a.txt", "The bank of the river.")
    argv = [str(text) if a == "IN" else a for a in argv]
    extra = ["--out", str(tmp_path / "o"), "--quiet"] if argv[0] == "annotate" else []
    code, err = run_cli(capsys, *argv, "--model", npz_model, *extra)
    assert_one_line_error(code, err, flag)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["good", "good", "bad", "blank", "long"]), min_size=1,
                max_size=12), st.integers(1, 4))
def test_user_files_stream_in_batches_and_are_checked_whole_first(tmp_path_factory, kinds,
                                                                  size):
    """Batches hold at most ``size`` instances and, together, every row in order; a file with
    a bad or overlong row gives no batch at all, only the error naming each such line."""
    userfile_limit = 200
    lines = {"good": "\tthe <<bass>> swam", "bad": "\tno marker", "blank": "",
             "long": "\tthe <<bass>> " + "very " * userfile_limit}
    path = tmp_path_factory.mktemp("b") / "rows.tsv"
    path.write_text("\n".join(lines[k] for k in kinds) + "\n", encoding="utf-8")
    saved, userfile.MAX_LINE_BYTES = userfile.MAX_LINE_BYTES, userfile_limit
    try:
        if "bad" in kinds or "long" in kinds or "good" not in kinds:
            with pytest.raises(ValueError, match="rows.tsv") as error:
                user_file_batches(path, size, require_senses=False)
            bad = [n for n, k in enumerate(kinds, 1) if k in ("bad", "long")]
            assert all(f"rows.tsv:{n}:" in str(error.value) for n in bad[:20])
            return
        got = list(user_file_batches(path, size, require_senses=False))
    finally:
        userfile.MAX_LINE_BYTES = saved
    assert all(1 <= len(batch) <= size for batch in got)
    lines_read = [int(inst.id.rsplit(":", 1)[1]) for batch in got for inst in batch]
    assert lines_read == [n for n, k in enumerate(kinds, 1) if k == "good"]


# -- 5. silent wrong results ------------------------------------------------------------------


@pytest.mark.parametrize("name, text, fragment", [
    ("bom.tsv", ROWS + "\ufeff" + ROWS, "bom.tsv:7: holds a byte-order mark"),
    ("mk.tsv", ROWS + "<<bass>>\tthe <<bass>> x\n", "mk.tsv:7: the sense '<<bass>>' holds"),
    ("u16.tsv", ROWS.encode("utf-16-le").decode("latin-1"), "u16.tsv:1: holds a NUL"),
])
def test_tsv_that_would_train_a_wrong_model_is_refused(tmp_path, name, text, fragment):
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1") if name == "u16.tsv" else text.encode("utf-8"))
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        load_user_file(path)


@pytest.mark.parametrize("value", ["true", "false", '{"a": 1}', "[1]", "1.5", "1e999", '""'])
def test_jsonl_ids_of_the_wrong_type_are_refused_not_stringified(tmp_path, value):
    path = write(tmp_path / "ids.jsonl", f'{{"id": {value}, "text": "a <<bass>> fish"}}\n')
    with pytest.raises(ValueError, match="ids.jsonl:1: "):
        load_user_file(path, require_senses=False)


def test_annotate_utf16_without_mark_is_a_bad_document(tmp_path, capsys, npz_model):
    text = write(tmp_path / "u16.txt", ("The bank of the river. " * 4).encode("utf-16-le"))
    code, err = run_cli(capsys, "annotate", text, "--model", npz_model, "--out", tmp_path / "o",
                        "--quiet")
    assert code == 0, err
    bad = _manifest(tmp_path / "o")["bad_documents"]
    assert len(bad) == 1 and "NUL" in bad[0]["problem"] and "utf-16" in bad[0]["problem"].lower()


@needs_text_data
def test_annotate_resume_notices_content_changed_with_size_and_mtime_kept(tmp_path, capsys,
                                                                         npz_model):
    (tmp_path / "in").mkdir()
    doc = write(tmp_path / "in" / "a.txt", "The bank of the river.")
    argv = ("annotate", tmp_path / "in", "--model", npz_model, "--out", tmp_path / "o", "--quiet")
    assert run_cli(capsys, *argv)[0] == 0
    stat = doc.stat()
    doc.write_text("The cash in the banks.")
    os.utime(doc, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    code, err = run_cli(capsys, *argv)
    assert_one_line_error(code, err, "other input files")


@pytest.mark.parametrize("argv, fragment", [
    (("disambiguate", "--target", "bass", "I play the <<guitar>> loud"), "not a form of"),
    (("disambiguate", "--target", "bass", "--unsure-below", "nan", "a <<bass>>"),
     "--unsure-below"),
    (("disambiguate", "--target", "bass", "--unsure-below", "inf", "a <<bass>>"),
     "--unsure-below"),
])
def test_options_and_markers_that_gave_wrong_answers_are_refused(capsys, argv, fragment):
    code, err = run_cli(capsys, *argv)
    assert_one_line_error(code, err, fragment)


def test_disambiguate_file_in_utf16_without_mark_is_refused(tmp_path, capsys, npz_model):
    text = write(tmp_path / "t.txt", "The bank of the river.\n".encode("utf-16-le"))
    code, err = run_cli(capsys, "disambiguate", "--model", npz_model, "--file", text)
    assert_one_line_error(code, err, "t.txt:1: holds a NUL")


def test_models_with_overflowing_weights_are_refused_at_load(tmp_path, model_file):
    data = json.loads(model_file.read_text())
    text = json.dumps(data)
    start = text.index('"weights": {') + len('"weights": {')
    row = text.index("[", start)
    edited = text[: row + 1] + "1.7e308, " + text[text.index(",", row) + 2 :]
    path = write(tmp_path / "huge.json", edited)
    with pytest.raises(ValueError, match="huge.json.*must be a number from -1e\\+30 to 1e\\+30"):
        load_model(path)


# -- 6. silent drops --------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(st.text(st.characters(blacklist_characters="\t\n<\x00\ufeff", codec="utf-8"),
               max_size=15), st.booleans())
def test_a_hash_line_is_a_comment_or_refused_never_a_dropped_row(tmp_path_factory, text,
                                                                 marked):
    """A '#' line without a tab is a comment; one holding a <<marker>> could be a sentence
    (a one-column predict row), so it is refused naming its line, never dropped."""
    path = tmp_path_factory.mktemp("h") / "rows.tsv"
    line = "#" + text + (" <<bass>>" if marked else "")
    path.write_text(f"{line}\n\tthe <<bass>> swam\n", encoding="utf-8")
    if marked:
        with pytest.raises(ValueError, match="rows.tsv:1: starts with '#' but holds a"):
            load_user_file(path, require_senses=False)
    else:
        assert len(load_user_file(path, require_senses=False)) == 1


@pytest.mark.parametrize("replacement, fragment", [
    ('<wf lemma="near" pos="X">ne<b>ar</b></wf>', "holds or is followed by a <b> element"),
    ('<wf lemma="near" pos="X">near</wf> stray', "holds or is followed by the text 'stray'"),
])
def test_framework_text_that_would_be_dropped_is_refused(tmp_path, replacement, fragment):
    from wsd.corpora.framework import load_framework

    xml = _corpus(tmp_path, "nest", [_bank_sentences(2)])
    text = xml.read_text()
    assert '<wf lemma="near" pos="X">near</wf>' in text
    xml.write_text(text.replace('<wf lemma="near" pos="X">near</wf>', replacement, 1))
    with pytest.raises(ValueError, match=f"nest.data.xml: .*{fragment}"):
        load_framework(xml, xml.with_name("nest.gold.key.txt"))


# -- 7. vague errors and floods ---------------------------------------------------------------


def test_a_write_failure_names_the_output_not_the_temporary_file(tmp_path, monkeypatch):
    def full(_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "out.txt"
    with pytest.raises(OSError) as error, atomic_open(target) as stream:
        stream.write("x")
    assert error.value.filename == str(target) and os.listdir(tmp_path) == []


def test_a_flood_of_bad_rows_is_cut_to_twenty_and_a_count(tmp_path, capsys):
    path = write(tmp_path / "flood.tsv", "x\n" * 50_000)
    code, err = run_cli(capsys, "train", "--corpus", path, "--out", tmp_path / "m.json")
    assert code == 2 and len(err.splitlines()) == 22, err[:2000]
    assert "flood.tsv: 50000 bad row(s)" in err and "and 49980 more not shown" in err


def test_a_single_sense_corpus_names_its_file(tmp_path, capsys):
    path = write(tmp_path / "one.tsv", ROWS.replace(MUSIC, FISH))
    code, err = run_cli(capsys, "train", "--corpus", path, "--out", tmp_path / "m.json")
    assert_one_line_error(code, err, "one.tsv: every instance has only the sense")


# -- 8. concurrency and resume state ----------------------------------------------------------


@needs_text_data
def test_a_second_annotate_run_on_one_folder_is_refused(tmp_path, capsys, npz_model):
    docs = write(tmp_path / "d.jsonl", _docs(3))
    out = tmp_path / "out"
    out.mkdir()
    with open(out / ".lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running first run holds it
        code, err = run_cli(capsys, "annotate", docs, "--model", npz_model, "--out", out,
                            "--quiet")
    assert_one_line_error(code, err, f"--out {out} is in use by another wsd annotate run")
    code, err = run_cli(capsys, "annotate", docs, "--model", npz_model, "--out", out, "--quiet")
    assert code == 0, err  # released: the folder is free again


@needs_text_data
def test_a_damaged_journal_line_is_reported_and_its_partition_redone(tmp_path, capsys,
                                                                    npz_model):
    docs = write(tmp_path / "d.jsonl", _docs(3))
    argv = ("annotate", docs, "--model", npz_model, "--out", tmp_path / "o", "--quiet")
    assert run_cli(capsys, *argv)[0] == 0
    (tmp_path / "o" / "journal.jsonl").write_text(
        '{"partition": "part-00000", "file": "part-00000.jsonl"}\n')
    code, err = run_cli(capsys, *argv)
    assert code == 0 and "journal.jsonl:1: damaged resume state" in err, err
    assert _manifest(tmp_path / "o")["counts"]["annotated"] == 3


@pytest.mark.parametrize("body", ["[" * 900 + "]" * 900, "{a = " * 300 + "1" + "}" * 300,
                                  "[" * 70 + "]" * 70])
def test_deeply_nested_toml_configs_are_refused_naming_the_file(tmp_path, capsys, body):
    config = write(tmp_path / "deep.toml", f'command = "demo"\nx = {body}\n')
    code, err = run_cli(capsys, "run", config)
    assert_one_line_error(code, err, "deep.toml", "nested")


def test_read_text_refuses_a_fifo_without_waiting(tmp_path):
    fifo = tmp_path / "f.txt"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="f.txt is a FIFO"):
        read_text(fifo)
