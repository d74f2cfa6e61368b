"""Issue 15, second sweep: the readers and formats merged after the first one (Senseval lexical
sample, key files, sense maps, dictionaries, the all-words .npz model, `disambiguate --file`,
`annotate` inputs, the vector cache, outputs that are inputs). One test per class of failure
found by trying hostile input through the CLI; each failed before its fix."""

import gzip
import io
import json
import os
import subprocess
import sys
import warnings
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_allwords import QUICK, _bank_sentences, _corpus, _load
from test_cli import WSD
from test_reliability import assert_one_line_error, run_cli, write

from wsd import cli
from wsd.corpora.bundled import load_bundled
from wsd.corpora.lexsample import read_dictionary, read_key, read_lexsample
from wsd.evaluation.scorer2 import read_sense_map
from wsd.features.vector_cache import VectorCache
from wsd.persistence import load_model
from wsd.resources import has_nltk_resource
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.allwords.modelfile import ModelFileError

DATA = Path(__file__).parent / "data" / "lexsample"
TRAIN = (DATA / "train.xml").read_text(encoding="utf-8")
TEST = (DATA / "test.xml").read_text(encoding="utf-8")
KEY = (DATA / "test.key").read_text(encoding="utf-8")
DICTIONARY = (DATA / "dictionary.xml").read_text(encoding="utf-8")


# -- lexical-sample XML: declarations, encodings, ids ----------------------------------------

LAUGHS = ('<!DOCTYPE lexelt [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>\n')


@pytest.mark.parametrize("text, line", [
    ('<!DOCTYPE x [<!ENTITY e "motor">]>\n' + TRAIN.replace("the lever", "&e;"), 1),
    ('<!DOCTYPE x [<!ENTITY e "a>b">]>\n' + TRAIN, 1),  # the old regex cut at the first '>'
    ('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
     + TRAIN.replace("the lever", "&e;"), 1),
    ('<!DOCTYPE x [<!ENTITY % p SYSTEM "http://example.org/p.dtd"> %p;]>\n' + TRAIN, 1),
    (LAUGHS + TRAIN.replace("the lever", "&c;"), 1),
    (TRAIN.replace("</lexelt>", '</lexelt>\n<!DOCTYPE y [<!ENTITY z "q">]>', 1), 28),
    ('<!ENTITY e "x">\n' + TRAIN, 1),
])
def test_lexsample_refuses_doctype_subsets_and_entity_declarations(tmp_path, text, line):
    path = write(tmp_path / "train.xml", text)
    with pytest.raises(ValueError, match=rf"train\.xml:{line}: DOCTYPE internal subsets and "
                                         "ENTITY declarations are refused"):
        read_lexsample(path)
    if text.startswith("<!"):  # the dictionary shares the reader's parser
        with pytest.raises(ValueError, match=r"d\.xml:1: DOCTYPE internal subsets"):
            read_dictionary(write(tmp_path / "d.xml", text.split("\n", 1)[0] + "\n" + DICTIONARY))


def test_lexsample_reads_a_doctype_that_only_names_its_dtd(tmp_path):
    path = write(tmp_path / "train.xml", '<!DOCTYPE corpus SYSTEM "lexical-sample.dtd">\n' + TRAIN)
    expected = read_lexsample(DATA / "train.xml")
    assert [i.id for i in read_lexsample(path)] == [i.id for i in expected]


def test_lexsample_bytes_that_do_not_decode_name_file_and_line(tmp_path):
    latin = TRAIN.replace("the motor", "the mot\xe9r").encode("latin-1")
    path = write(tmp_path / "train.xml", latin)
    with pytest.raises(ValueError, match=r"train\.xml:5: not UTF-8 text"):
        read_lexsample(path)  # was read with U+FFFD in place of the byte, silently


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16-le", "utf-16-be", "utf-32-le",
                                   "utf-32-be"])  # fmt: skip
def test_text_files_with_a_byte_order_mark_are_read_in_its_encoding(codec):
    from wsd.persistence import decode_text

    text = "naïve café\nline two €"
    bom = "\ufeff".encode(codec.replace("-sig", ""))
    assert decode_text(bom + text.encode(codec.replace("-sig", "")), "x.txt") == text
    with pytest.raises(ValueError, match=r"x\.txt:2: not UTF-8"):
        decode_text("ok\nnaïve".encode("latin-1"), "x.txt")


@given(st.text(max_size=40).filter(lambda text: not text.startswith("\x00")),
       st.sampled_from(["utf-8-sig", "utf-16", "utf-32"]))
@settings(max_examples=150, deadline=None)
def test_any_text_saved_with_a_byte_order_mark_reads_back_as_it_was(text, codec):
    """A text file from any editor that writes a byte-order mark (Windows' "Unicode" is
    UTF-16 with one) reads back as its text; Python's utf-16/32 codecs write the mark. (A
    UTF-16 text that starts with a NUL has the bytes of UTF-32's mark: read as UTF-32.)"""
    from wsd.persistence import decode_text

    assert decode_text(text.encode(codec), "x.txt") == text


def test_lexsample_honours_the_declared_encoding_and_a_utf16_bom(tmp_path):
    text = TRAIN.replace("the motor", "the mot\xe9r")
    latin = write(tmp_path / "latin.xml",
                  ('<?xml version="1.0" encoding="ISO-8859-1"?>\n' + text).encode("latin-1"))
    wide = write(tmp_path / "wide.xml", text.encode("utf-16"))
    for path in (latin, wide):
        assert "motér" in read_lexsample(path)[0].tokens
    unknown = write(tmp_path / "k.xml", '<?xml version="1.0" encoding="klingon"?>\n' + TRAIN)
    with pytest.raises(ValueError, match=r"k\.xml:1: unknown encoding 'klingon'"):
        read_lexsample(unknown)


@pytest.mark.parametrize("old, new, line, message", [
    ('id="activate.v.1"', 'id="activate v.1"', 2, "<instance> id 'activate v.1' holds whitespace"),
    ('item="activate.v"', 'item="activate v"', 1, "<lexelt> item 'activate v' holds whitespace"),
    ("</context>\n</instance>",
     "</context>\n<context>more <head>activate</head></context>\n</instance>", 7,
     "a second <context> in instance 'activate.v.1'"),
    ('<lexelt item="different.a">', '<lexelt item="different.a"><lexelt item="x.n">', 28,
     "<lexelt> inside lexelt 'different.a'"),
])
def test_lexsample_structure_that_answer_files_could_not_carry_is_refused(
        tmp_path, old, new, line, message):
    path = write(tmp_path / "train.xml", TRAIN.replace(old, new, 1))
    with pytest.raises(ValueError, match=rf"train\.xml:{line}: ") as error:
        read_lexsample(path)
    assert message in str(error.value)


# -- key files, sense maps, dictionaries ------------------------------------------------------


def test_key_file_not_utf8_names_file_and_line_and_a_bom_is_dropped(tmp_path):
    bad = write(tmp_path / "t.key", KEY.encode("utf-8").replace(b"38202", b"3820\xff"))
    with pytest.raises(ValueError, match=r"t\.key:2: not UTF-8 text"):
        read_key(bad)
    assert read_key(write(tmp_path / "b.key", "\ufeff" + KEY)) == read_key(DATA / "test.key")


def test_sense_map_follows_chains_refuses_cycles_and_names_bad_bytes(tmp_path):
    chain = write(tmp_path / "map", "38202 38201\n38201 38200\n38203 38200 !!\n")
    assert read_sense_map(chain) == {"38202": "38200", "38201": "38200", "38203": "!!"}
    with pytest.raises(ValueError, match=r"map:1: the sense map has a cycle: a -> b -> a"):
        read_sense_map(write(tmp_path / "map", "a b\nb a\n"))
    with pytest.raises(ValueError, match=r"map:2: not UTF-8"):
        read_sense_map(write(tmp_path / "map", b"a b\nc \xff\n"))


def _lexsample_argv(tmp_path, *extra, learner="mfs"):
    train = write(tmp_path / "train.xml", TRAIN)
    test = write(tmp_path / "test.xml", TEST)
    return ["lexsample", "--train", train, "--test", test, "--out", tmp_path / "answers.txt",
            "--learner", learner, *extra]


def test_sense_map_matching_no_key_sense_is_a_notice(tmp_path, capsys):
    key = write(tmp_path / "k.key", KEY)
    smap = write(tmp_path / "map", "zz1 zz2\n")
    code, err = run_cli(capsys, *_lexsample_argv(tmp_path, "--test-key", key,
                                                 "--sense-map", smap))
    assert code == 0
    assert f"note: {smap} maps none of the senses in {key}" in err


def test_lesk_with_a_dictionary_lacking_a_lexelt_names_the_dictionary(tmp_path, capsys):
    dictionary = write(tmp_path / "dict.xml",
                       DICTIONARY.split('<lexelt item="different.a"')[0] + "</dictionary>")
    code, err = run_cli(capsys, *_lexsample_argv(tmp_path, "--dictionary", dictionary,
                                                 learner="lesk"))
    assert_one_line_error(code, err, "dict.xml has no senses for 1 lexelt(s)", "different.a")


# -- outputs that are inputs -----------------------------------------------------------------


@pytest.mark.parametrize("out", ["test.xml", "train.xml", "k.key"])
def test_lexsample_out_naming_an_input_is_refused_and_the_input_kept(tmp_path, capsys, out):
    key = write(tmp_path / "k.key", KEY)
    argv = _lexsample_argv(tmp_path, "--test-key", key)
    argv[argv.index("--out") + 1] = tmp_path / out
    before = (tmp_path / out).read_bytes()
    code, err = run_cli(capsys, *argv)
    assert_one_line_error(code, err, "--out", out, "is also an input")
    assert (tmp_path / out).read_bytes() == before


def test_train_evaluate_and_allwords_outputs_naming_an_input_are_refused(tmp_path, capsys):
    corpus = write(tmp_path / "c.xml", TRAIN.split('<lexelt item="different.a">')[0])
    code, err = run_cli(capsys, "train", "--corpus", f"lexsample:{corpus}", "--out", corpus)
    assert_one_line_error(code, err, "--out", "c.xml", "is also an input")
    user = write(tmp_path / "u.tsv", "bass.fish\tA <<bass>> swam.\n")
    model = tmp_path / "m.json"
    assert run_cli(capsys, "train", "--corpus", "bundled:bass", "--out", model,
                   "--epochs", "1", "--no-lemmatize")[0] == 0
    for option in ("--key", "--errors"):
        code, err = run_cli(capsys, "evaluate", "--model", model, "--corpus", user, option, user)
        assert_one_line_error(code, err, option, "u.tsv", "is also an input")
    data = _corpus(tmp_path, "t", [_bank_sentences(4)])
    code, err = run_cli(capsys, "allwords", "--train", data, "--save", data, "--quiet")
    assert_one_line_error(code, err, "--save", "t.data.xml", "is also an input")
    assert corpus.read_text().startswith("<lexelt") and user.read_text().startswith("bass.fish")
    assert data.read_text().startswith("<?xml")


# -- the all-words .npz model ----------------------------------------------------------------


@pytest.fixture(scope="module")
def npz_model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("aw")
    seeds = [(["a", "seed", "grew", "tall"], 1, "seed%1:20:00::", "seed"),
             (["seed", "the", "players"], 0, "seed%2:33:00::", "seed")] * 3
    train = _load(_corpus(folder, "train", [_bank_sentences(8) + seeds]))
    return AllWordsWSD(**QUICK, epochs=2).fit(train).save(folder / "m.npz")


def _members(path):
    with np.load(path, allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _with_metadata(arrays, text):
    arrays["metadata"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    return arrays


def _edit_metadata(change):
    def edit(arrays):
        metadata = json.loads(arrays["metadata"].tobytes())
        change(metadata)
        return _with_metadata(arrays, json.dumps(metadata))
    return edit


def _raw_metadata(old, new):
    def edit(arrays):
        return _with_metadata(arrays, arrays["metadata"].tobytes().decode().replace(old, new, 1))
    return edit


def _bad_vocabulary(arrays):
    arrays["vocabulary"] = np.concatenate([np.frombuffer(b"\xff", np.uint8), arrays["vocabulary"]])
    return arrays


def _first_key(metadata):
    return next(iter(metadata["sense_counts"]))


@pytest.mark.parametrize("edit, message", [
    (_raw_metadata('"sense_counts": {', '"sense_counts": {"x#NOUN": NaN, '), "NaN is not a number"),
    (_raw_metadata('"params": {', '"params": {"prior": 1e999, '), "too large"),
    (_raw_metadata('"format"', '"x": ' + "[" * 5000 + "]" * 5000 + ', "format"'), "nested"),
    (_edit_metadata(lambda m: m.update(keys=list(range(len(m["keys"]))))), "distinct strings"),
    (_edit_metadata(lambda m: m.update(keys=[m["keys"][0]] * len(m["keys"]))), "distinct strings"),
    (_edit_metadata(lambda m: m["classes"][0].__setitem__(1, m["classes"][0][0])), "class twice"),
    (_edit_metadata(lambda m: m.update(trained_on="semcor")), "'trained_on'"),
    (_edit_metadata(lambda m: m.update(trained_on=5)), "'trained_on'"),
    (_edit_metadata(lambda m: m["sense_counts"].update({_first_key(m): "x"})), "sense counts"),
    (_edit_metadata(lambda m: m["sense_counts"].update({_first_key(m): {"s": -5}})),
     "sense counts"),
    (_edit_metadata(lambda m: m["sense_counts"].update({_first_key(m): {"s": "7"}})),
     "sense counts"),
    (_edit_metadata(lambda m: m["params"].update(epochs=-1)), "epochs must be an integer >= 1"),
    (_bad_vocabulary, "vocabulary that is not UTF-8"),
    # found by tests/test_fuzz_readers.py: a traceback at load, an OverflowError at predict
    (_edit_metadata(lambda m: m.update(weightings=[None])), "invalid weighting"),
    (_edit_metadata(lambda m: m["params"].update(prior=10**400)), "prior must be a number"),
    (_edit_metadata(lambda m: m["params"].update(features=[])), "names no feature extractor"),
    (_edit_metadata(lambda m: m["sense_counts"].update({_first_key(m): {"s": 10**400}})),
     "sense counts"),
])
def test_npz_model_with_bad_metadata_or_vocabulary_is_refused(tmp_path, npz_model, edit, message):
    path = tmp_path / "bad.npz"
    with open(path, "wb") as stream:
        np.savez(stream, **edit(_members(npz_model)))
    with pytest.raises(ModelFileError, match="bad.npz") as error:
        load_model(path)
    assert message in str(error.value)


def _rezip(source, target, change):
    with zipfile.ZipFile(source) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    change(members)
    with zipfile.ZipFile(target, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return target


def test_damaged_npz_archives_are_refused_naming_the_file(tmp_path, npz_model, capsys):
    raw = bytearray(npz_model.read_bytes())
    with zipfile.ZipFile(npz_model) as archive:
        info = archive.getinfo("coef.npy")
    start = info.header_offset + 30 + len(info.filename) + 20
    raw[start:start + 40] = bytes(b ^ 0x5A for b in raw[start:start + 40])
    flipped = write(tmp_path / "flipped.npz", bytes(raw))  # zlib.error before the fix
    header = _rezip(npz_model, tmp_path / "header.npz", lambda m: m.update(
        {"coef.npy": m["coef.npy"].replace(b"'shape': (", b"'shape': ((", 1)}))  # TokenError
    short = _rezip(npz_model, tmp_path / "short.npz", lambda m: m.update(
        {"coef.npy": m["coef.npy"][:-8]}))
    for path in (flipped, header, short):
        code, err = run_cli(capsys, "disambiguate", "--model", path, "The bank of the river.")
        assert_one_line_error(code, err, path.name, "damaged")


# -- disambiguate --file and stdin --------------------------------------------------------


def test_disambiguate_file_errors_name_the_file(tmp_path, npz_model, capsys, monkeypatch):
    text = write(tmp_path / "t.txt", b"The bank\nof the \xff river.")
    code, err = run_cli(capsys, "disambiguate", "--model", npz_model, "--file", text)
    assert_one_line_error(code, err, "t.txt:2: not UTF-8 text")
    empty = write(tmp_path / "e.txt", " \n")
    code, err = run_cli(capsys, "disambiguate", "--model", npz_model, "--file", empty)
    assert_one_line_error(code, err, "e.txt holds no text")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"bank\nriver \xff"),
                                                      encoding="utf-8"))  # fmt: skip
    code, err = run_cli(capsys, "disambiguate", "--model", npz_model, "--file", "-")
    assert_one_line_error(code, err, "<stdin>:2: not UTF-8 text")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=20).map(lambda t: t.encode("utf-8"))
       | st.sampled_from([b"\xfe\xff", b"\xff\xfe", b"\xff\xfe\x00\x00"]).flatmap(
           lambda bom: st.binary(max_size=20).map(lambda rest: bom + rest)))
@example(b"\xfe\xff\x00")
def test_stdin_is_given_back_whole_or_refused_at_its_first_bad_line(raw):
    """Any bytes on stdin: the text exactly as UTF-8 decodes it (a BOM dropped; a UTF-16 or
    UTF-32 byte-order mark names its encoding), or one error naming the line of the first byte
    that is not text in it, or of the first character no text holds (a NUL, a byte-order mark
    after the start), as for a file; never escaped bad bytes."""
    import codecs
    import sys

    from wsd.experiments.textinput import read_file

    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        encoding, name = "utf-32", "utf-32"
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding, name = "utf-16", "utf-16"
    else:
        encoding, name = "utf-8-sig", "UTF-8"
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="surrogateescape")
    try:
        try:
            expected = raw.decode(encoding)
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1
            with pytest.raises(ValueError, match=f"^<stdin>:{line}: not {name} text"):
                read_file("-")
        else:
            bad = next((k for k, char in enumerate(expected)
                        if char == "\0" or (char == "\ufeff" and k > 0)), None)  # fmt: skip
            if bad is None:
                assert read_file("-") == expected
            else:
                line = expected.count("\n", 0, bad) + 1
                with pytest.raises(ValueError, match=f"^<stdin>:{line}: holds a"):
                    read_file("-")
    finally:
        sys.stdin = saved


@pytest.mark.parametrize("target", ["", "  "])
def test_disambiguate_refuses_an_empty_target(npz_model, capsys, target):
    for model in (("--model", npz_model), ()):
        code, err = run_cli(capsys, "disambiguate", *model, "--target", target, "The bank.")
        assert_one_line_error(code, err, "--target is empty")


needs_text_data = pytest.mark.skipif(
    not (has_nltk_resource("wordnet") and has_nltk_resource("averaged_perceptron_tagger_eng")),
    reason="NLTK wordnet or averaged_perceptron_tagger_eng data absent")


def cli_main(*argv) -> int:
    return cli.main(["disambiguate", *map(str, argv)])


@needs_text_data
def test_disambiguate_reads_piped_text_without_file(npz_model, capsys, monkeypatch):
    """``echo TEXT | wsd disambiguate --model M``: piped text is read as ``--file -``; an
    empty pipe is one error naming stdin; text given as arguments leaves stdin alone."""
    given = ("--model", npz_model, "--json")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"The bank of the river.\n")))
    assert cli_main(*given, "The bank of the river.") == 0
    by_argument = capsys.readouterr().out
    assert sys.stdin.read() == "The bank of the river.\n"  # not consumed
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"The bank of the river.\n")))
    assert cli_main(*given) == 0
    assert capsys.readouterr().out == by_argument
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b" \n")))
    code, err = run_cli(capsys, "disambiguate", *given)
    assert_one_line_error(code, err, "<stdin> holds no text")


@needs_text_data
def test_disambiguate_reads_a_real_pipe(npz_model):
    result = subprocess.run([WSD, "disambiguate", "--model", str(npz_model), "--json"],
                            input=b"The bank of the river.\n", capture_output=True, timeout=300,
                            check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    words = json.loads(result.stdout.decode().splitlines()[0])["words"]
    assert [w["token"] for w in words if w["token"] == "bank"] == ["bank"]


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_disambiguate_refuses_bad_bytes_on_a_real_stdin_in_any_locale(npz_model, locale):
    """A C locale's stdin decodes bad bytes to escapes instead of failing: they must still be
    refused, with the line, and nothing printed for the good line before them."""
    env = {**os.environ, "LC_ALL": locale, "PYTHONUTF8": "0"}
    env.pop("PYTHONIOENCODING", None)
    result = subprocess.run(
        [WSD, "disambiguate", "--model", str(npz_model), "--file", "-"],
        input=b"The bank of the river.\nbank \xff\xfe\n", capture_output=True, env=env,
        timeout=300, check=False,
    )  # fmt: skip
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2 and "Traceback" not in err, err
    assert "<stdin>:2: not UTF-8 text" in err and not result.stdout


# -- annotate inputs and output folder --------------------------------------------------------


def _annotate(capsys, npz_model, out, *inputs, extra=()):
    return run_cli(capsys, "annotate", *inputs, "--model", npz_model, "--out", out, "--quiet",
                   *extra)


@needs_text_data
def test_annotate_reports_damaged_gzip_and_deep_json_as_bad_documents(tmp_path, npz_model,
                                                                      capsys):
    lines = b"".join(b'{"id": "d%d", "text": "The bank of the river."}\n' % i for i in range(40))
    cut = write(tmp_path / "cut.jsonl.gz", gzip.compress(lines)[:-30])
    plain = write(tmp_path / "plain.txt.gz", b"The bank of the river.")
    deep = write(tmp_path / "deep.jsonl", b'{"text": "The bank."}\n' + b"[" * 100_000
                 + b"]" * 100_000 + b"\n")
    code, _ = _annotate(capsys, npz_model, tmp_path / "out", cut, plain, deep)
    assert code in (0, None)
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    bad = {(Path(b["source"]).name, b["line"]): b["problem"] for b in manifest["bad_documents"]}
    assert any(name == "cut.jsonl.gz" and "unreadable" in p for (name, _), p in bad.items())
    assert "unreadable" in bad[("plain.txt.gz", 0)]
    assert bad[("deep.jsonl", 2)] == "JSON nested too deeply"
    counts = manifest["counts"]
    assert counts["annotated"] + counts["bad"] == counts["documents"]


def test_annotate_bad_partition_size_and_manifest_are_one_line_errors(tmp_path, npz_model,
                                                                      capsys):
    text = write(tmp_path / "a.txt", "The bank of the river.")
    code, err = _annotate(capsys, npz_model, tmp_path / "o1", text,
                          extra=("--partition-size", "0"))
    assert_one_line_error(code, err, "--partition-size must be at least 1")
    (tmp_path / "o2").mkdir()
    write(tmp_path / "o2" / "manifest.json", "[" * 100_000 + "]" * 100_000)
    code, err = _annotate(capsys, npz_model, tmp_path / "o2", text)
    assert_one_line_error(code, err, "manifest.json is not a wsd annotate manifest")


# -- vector cache -----------------------------------------------------------------------------


def test_vector_cache_leaves_out_damaged_shards_with_a_notice(tmp_path):
    (tmp_path / "ns").mkdir()
    with open(tmp_path / "ns" / "good.npz", "wb") as stream:
        np.savez(stream, keys=np.array(["a"], dtype="U64"), vectors=np.ones((1, 4), np.float32))
    write(tmp_path / "ns" / "cut.npz", b"PK\x03\x04 not a whole archive")
    with open(tmp_path / "ns" / "nan.npz", "wb") as stream:
        np.savez(stream, keys=np.array(["b"], dtype="U64"),
                 vectors=np.full((1, 4), np.nan, dtype=np.float32))
    with open(tmp_path / "ns" / "wide.npz", "wb") as stream:
        np.savez(stream, keys=np.array(["c"], dtype="U64"), vectors=np.ones((1, 9), np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = VectorCache("ns", root=tmp_path).get(["a", "b", "c"])
    assert list(found) == ["a"]
    notices = sorted(str(w.message) for w in caught)
    assert len(notices) == 3
    for notice, name in zip(notices, ("cut.npz", "nan.npz", "wide.npz"), strict=True):
        assert notice.startswith(f"vector cache shard {tmp_path / 'ns' / name} left out")


def test_vector_cache_reads_a_shards_vectors_only_when_it_holds_a_key_asked_for(tmp_path):
    """A shard's keys and its vectors' header are read first: a shard without the keys asked
    for is not read further (its NaN values are never used, so never reported), but one whose
    header shows another width is still left out with its notice."""
    (tmp_path / "ns").mkdir()
    for name, key, vectors in (("a.npz", "a", np.ones((1, 4), np.float32)),
                               ("b.npz", "b", np.full((1, 4), np.nan, np.float32)),
                               ("c.npz", "c", np.ones((1, 9), np.float32))):  # fmt: skip
        with open(tmp_path / "ns" / name, "wb") as stream:
            np.savez(stream, keys=np.array([key], dtype="U64"), vectors=vectors)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = VectorCache("ns", root=tmp_path).get(["a"])
    assert list(found) == ["a"] and np.array_equal(found["a"], np.ones(4, np.float16))
    assert [str(w.message).split(" (")[0] for w in caught] == [
        f"vector cache shard {tmp_path / 'ns' / 'c.npz'} left out"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert list(VectorCache("ns", root=tmp_path).get(["b"])) == []
    assert "b.npz left out (it holds NaN or infinite values)" in str(caught[0].message)


# -- evaluate: test data that overlaps the training data ---------------------------------------


def test_evaluate_warns_with_the_count_of_test_instances_seen_in_training(tmp_path, capsys):
    from wsd.corpora.userfile import write_user_file

    bass = load_bundled("bass")[::4]  # every sense in the first 60
    train = tmp_path / "train.jsonl"
    write_user_file(train, bass[:60])
    model = tmp_path / "m.json"
    assert run_cli(capsys, "train", "--corpus", train, "--out", model, "--epochs", "1",
                   "--no-lemmatize")[0] == 0
    renamed = [replace(inst, id=f"new{i}") for i, inst in enumerate(bass[50:60])]
    test = tmp_path / "test.jsonl"
    write_user_file(test, renamed + bass[60:80])
    code, err = run_cli(capsys, "evaluate", "--model", model, "--corpus", test)
    assert code == 0
    assert f"note: 10 of the 30 instances of {test} also occur in the training data" in err
    code, err = run_cli(capsys, "evaluate", "--model", model, "--corpus", train)
    assert "is the data this model was trained on" in err and "also occur" not in err
    fresh = tmp_path / "fresh.jsonl"
    write_user_file(fresh, bass[60:80])
    assert "also occur" not in run_cli(capsys, "evaluate", "--model", model, "--corpus", fresh)[1]

