"""wsd annotate in one process: reading inputs, partitions, the one-word annotator, the output
folder (atomic files, manifest, resume) and the command line."""

import gzip
import importlib.util
import json
import re
import signal
import subprocess
import sys

import pytest
from annotate_data import (
    LONG_RUN_PARTITIONS,
    journal_partitions,
    long_run_arguments,
    long_run_corpus,
    output_lines,
    save_allwords_model,
    save_bass_model,
    stop_after_first_partition,
    write_allwords_corpus,
    write_jsonl_corpus,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import assert_clean_error, run

from wsd.annotate import annotate_corpus, load_annotator
from wsd.annotate import annotator as annotator_module
from wsd.annotate.annotator import ModelRef, preload
from wsd.annotate.documents import BadDocument, Document, Partition, partitions, read_documents
from wsd.annotate.process import annotate_partition
from wsd.features.encoders import EncoderError, MissingExtraError
from wsd.features.gloss_vectors import GlossCacheError
from wsd.instance import Instance
from wsd.resources import has_nltk_resource
from wsd.systems.supervised import SupervisedWSD
from wsd.text.sentences import document_sentence_spans


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return save_bass_model(tmp_path_factory.mktemp("model") / "bass.json")


# ---------------------------------------------------------------- reading and partitions


def test_reads_text_files_jsonl_and_gzip_in_order(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (folder / "b.txt").write_text("Second file.", encoding="utf-8")
    (folder / "sub" / "a.txt").write_text("In a sub-folder.", encoding="utf-8")
    (folder / "notes.md").write_text("not an input", encoding="utf-8")
    with gzip.open(tmp_path / "more.jsonl.gz", "wt", encoding="utf-8") as stream:
        stream.write('{"id": 7, "text": "Seven."}\n\n{"text": "No id."}\n')
    records = list(read_documents([folder, tmp_path / "more.jsonl.gz"]))
    assert [(r.id, r.text, r.line) for r in records] == [
        ("b.txt", "Second file.", 0),
        ("sub/a.txt", "In a sub-folder.", 0),
        ("7", "Seven.", 1),
        (f"{tmp_path / 'more.jsonl.gz'}:3", "No id.", 3),
    ]


def test_bad_documents_keep_their_place_with_file_and_line(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_bytes(b'{"id": "ok", "text": "Fine."}\n'
                     b'{"id": "empty", "text": "  "}\n'
                     b'{"id": "bytes", "text": "caf\xe9"}\n'
                     b'{"id": "huge", "text": "' + b"x" * 10_000_000 + b'"}\n'
                     b'not json\n'
                     b'{"id": "no text"}\n'
                     b'{"id": "last", "text": "Also fine."}\n')
    records = list(read_documents([path]))
    assert [type(r) for r in records] == [Document] + [BadDocument] * 5 + [Document]
    problems = {r.line: r.problem for r in records if isinstance(r, BadDocument)}
    assert problems[2] == "empty text"
    assert problems[3].startswith("not UTF-8")
    assert "longer than 1000000 bytes" in problems[4]
    assert problems[5].startswith("not JSON")
    assert '"text"' in problems[6]
    assert all(r.source == str(path) for r in records)
    assert [r.line for r in records] == [1, 2, 3, 4, 5, 6, 7]


def test_a_bad_text_file_is_reported_at_its_first_bad_line(tmp_path):
    (tmp_path / "latin1.txt").write_bytes(b"Fine line.\nAnother.\nna\xefve\nmore\n")
    (tmp_path / "empty.txt").write_bytes(b" \n\n")
    (tmp_path / "long.txt").write_bytes(b"word " * 30)
    records = list(read_documents([tmp_path], max_bytes=100))
    assert [(r.source, r.line) for r in records] == [
        (str(tmp_path / "empty.txt"), 0), (str(tmp_path / "latin1.txt"), 3),
        (str(tmp_path / "long.txt"), 0)]
    assert [r.problem.split(" (")[0] for r in records] == [
        "empty text", "not UTF-8 text", "longer than 100 bytes"]


def test_an_encoding_reads_latin1_files_and_a_utf16_byte_order_mark_is_followed(tmp_path):
    """Latin-1 documents had only been reported as bad; with --encoding they are read, in
    .txt and JSONL files alike. A .txt file with a UTF-16 byte-order mark (Windows' "Unicode"
    text) is read in it without one."""
    (tmp_path / "a.txt").write_bytes("The café by the bank.".encode("latin-1"))
    (tmp_path / "b.jsonl").write_bytes('{"id": "n", "text": "A naïve bass."}\n'.encode("latin-1"))
    (tmp_path / "c.txt").write_bytes("He sat on the bank.".encode("utf-16"))  # BOM first
    default = list(read_documents([tmp_path]))
    assert [type(r) for r in default] == [BadDocument, BadDocument, Document]
    assert [(r.line, r.problem) for r in default[:2]] == [
        (1, "not UTF-8 text (invalid continuation byte at byte 7); give the files' encoding "
            "with --encoding (e.g. latin-1)"),
        (1, "not UTF-8 text (invalid continuation byte at byte 25); give the files' encoding "
            "with --encoding (e.g. latin-1)")]
    assert default[2].text == "He sat on the bank."
    latin = list(read_documents([tmp_path / "a.txt", tmp_path / "b.jsonl"], encoding="latin-1"))
    assert [r.text for r in latin] == ["The café by the bank.", "A naïve bass."]
    assert read_documents([tmp_path], encoding="utf-8").__next__().problem.endswith(
        "(invalid continuation byte at byte 7)")  # an encoding was given: no hint


latin_texts = st.text(st.characters(codec="latin-1", blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.lists(latin_texts, max_size=8), st.sampled_from(["latin-1", "cp1252", "utf-8"]))
def test_documents_in_an_encoding_read_back_as_written_or_are_reported(tmp_path_factory,
                                                                       written, encoding):
    """Every JSONL line and .txt file written in ``encoding`` reads back as its text with
    ``encoding=``, or is reported with its file and line (empty text, a character the
    encoding cannot write, a NUL in a .txt file): none is dropped."""
    folder = tmp_path_factory.mktemp("encoded")
    lines, files = [], []
    for n, text in enumerate(written):
        try:
            lines.append(json.dumps({"id": n, "text": text}, ensure_ascii=False).encode(encoding))
            (folder / f"t{n:02}.txt").write_bytes(text.encode(encoding))
            files.append(text)
        except UnicodeEncodeError:  # cp1252 lacks a few latin-1 controls
            lines.append(b"{}")
    (folder / "docs.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    records = list(read_documents([folder], encoding=encoding))
    assert len(records) == len(lines) + len(files)
    for record, text in zip(records[len(lines):], files, strict=True):
        if "\0" in text:  # as `wsd disambiguate --file` has it, whatever the encoding
            assert isinstance(record, BadDocument) and "NUL character" in record.problem
        elif text.strip():
            assert isinstance(record, Document) and record.text == text
        else:
            assert isinstance(record, BadDocument) and record.problem == "empty text"
    for n, (record, text) in enumerate(zip(records[: len(lines)], written, strict=True), 1):
        assert record.line == n
        if isinstance(record, Document):
            assert record.text == text


@pytest.mark.parametrize("encoding, message", [
    ("nope", "unknown encoding 'nope'"), ("utf-16", "writes ASCII as ASCII"),
    ("utf-32-le", "writes ASCII as ASCII")])
def test_an_unknown_encoding_or_one_not_read_line_by_line_is_refused(tmp_path, encoding,
                                                                     message):
    (tmp_path / "a.txt").write_text("The bass.", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        list(read_documents([tmp_path], encoding=encoding))


def test_a_missing_input_or_unknown_file_type_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        list(read_documents([tmp_path / "nothing.jsonl"]))
    (tmp_path / "table.csv").write_text("a,b\n", encoding="utf-8")
    with pytest.raises(ValueError, match="table.csv: not an input"):
        list(read_documents([tmp_path / "table.csv"]))


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.lists(texts, max_size=12))
def test_jsonl_reader_gives_every_line_back_or_reports_it(tmp_path_factory, written):
    path = tmp_path_factory.mktemp("jsonl") / "docs.jsonl"
    path.write_text("".join(json.dumps({"id": n, "text": t}) + "\n"
                            for n, t in enumerate(written)), encoding="utf-8")
    records = list(read_documents([path]))
    assert len(records) == len(written)
    for n, (record, text) in enumerate(zip(records, written, strict=True)):
        assert record.line == n + 1
        if text.strip():
            assert (record.id, record.text) == (str(n), text)
        else:
            assert record == BadDocument(str(path), n + 1, "empty text")


@given(st.lists(st.integers(), max_size=40), st.integers(1, 9))
def test_partitions_cut_the_stream_in_order(items, size):
    cut = list(partitions(items, size))
    assert [p.index for p in cut] == list(range(len(cut)))
    assert [x for p in cut for x in p.records] == items
    assert all(len(p.records) == size for p in cut[:-1])
    assert not cut or 1 <= len(cut[-1].records) <= size


def test_sentences_are_split_at_paragraphs_sentence_ends_and_lines_that_end():
    text = ("  He sat by the bank. Then Mr. Smith left!\n\n  A new paragraph\nwithout a stop\r\n"
            "Last one? Yes.\nA Headline\nThe text.\n- eggs\n- milk")
    spans = document_sentence_spans(text)
    assert [text[s:e] for s, e in spans] == [
        "He sat by the bank.", "Then Mr. Smith left!", "A new paragraph\nwithout a stop",
        "Last one?", "Yes.", "A Headline", "The text.", "- eggs", "- milk"]


def test_hard_wrapped_prose_is_read_across_its_line_breaks():
    """Text wrapped at a fixed width (a book, an e-mail) had a sentence cut at every line:
    2.4 F1 lost on semeval2007 wrapped at 72 columns (60.42 -> 57.99; now 60.20)."""
    text = ("The bank of the river was full of water after the storm, and the\n"
            "fish swam near the banks. It rained all day long over the town and\n"
            "River Thames rose over its banks again.\n\nA short line\nAnother one")
    assert [text[s:e].split() for s, e in document_sentence_spans(text)] == [
        "The bank of the river was full of water after the storm, and the fish swam near the "
        "banks.".split(), "It rained all day long over the town and River Thames rose over its "
        "banks again.".split(), ["A", "short", "line"], ["Another", "one"]]


lines = st.text(st.sampled_from("ab .!?A\n\r\t"), max_size=40)


@given(lines)
def test_document_sentences_are_stripped_ordered_and_cover_every_word(text):
    spans = document_sentence_spans(text)
    assert all(0 <= s < e <= len(text) for s, e in spans)
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:], strict=False))
    for s, e in spans:
        assert text[s:e] == text[s:e].strip()
        assert all(line.strip() for line in text[s:e].splitlines())  # nor over a blank line
    covered = "".join(text[s:e] for s, e in spans)
    assert "".join(covered.split()) == "".join(text.split())  # no character lost


@given(st.text(st.sampled_from("ab ,;.A-\n\t"), max_size=120), st.integers(1, 6))
def test_long_sentences_are_cut_into_pieces_of_at_most_longest_words(text, longest):
    import re

    spans = document_sentence_spans(text, longest=longest)
    whole = document_sentence_spans(text, longest=len(text) + 1)
    assert all(len(re.findall(r"\w+", text[s:e])) <= longest for s, e in spans)
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:], strict=False))
    assert all(text[s:e] == text[s:e].strip() and s < e for s, e in spans)
    for s, e in spans:  # a piece lies in one sentence and ends a word: no word is cut
        assert any(ws <= s and e <= we for ws, we in whole)
        assert not (text[e - 1 : e + 1].isalnum() and len(text[e - 1 : e + 1]) == 2)
    # every character kept, in order
    assert "".join("".join(text[s:e].split()) for s, e in spans) == "".join(
        "".join(text[s:e].split()) for s, e in whole)


def test_a_text_without_sentence_ends_is_cut_after_a_comma_when_it_can():
    text = "one two three, four five; six seven eight nine"
    spans = document_sentence_spans(text, longest=4)  # a piece's second half: its words 3-4
    assert [text[s:e] for s, e in spans] == ["one two three,", "four five; six seven",
                                             "eight nine"]
    from wsd.text.sentences import LONGEST_SENTENCE

    long = " ".join(["word"] * (3 * LONGEST_SENTENCE))
    assert [len(long[s:e].split()) for s, e in document_sentence_spans(long)] == [
        LONGEST_SENTENCE] * 3
    # no space at all: a list run together by commas is cut between its words
    text = "bank,river," * 3
    assert [text[s:e] for s, e in document_sentence_spans(text, longest=4)] == [
        "bank,river,bank,river,", "bank,river,"]
    text = "a b c d-e f"  # a space is preferred to the hyphen inside d-e
    assert [text[s:e] for s, e in document_sentence_spans(text, longest=4)] == [
        "a b c", "d-e f"]


def test_both_annotators_split_sentences_as_the_text_pipeline(model, monkeypatch):
    import wsd.text.pipeline as pipeline

    monkeypatch.setattr(pipeline, "_tokens", lambda *args: pipeline._Tokens([], [], set()))
    text = "We caught a bass\nin the lake. Dr. Lee plays bass!\n\n  A bass   \n"
    one_word = [s["text"] for s in load_annotator(model).annotate(text)]
    assert one_word == [s.text for s in pipeline.analyze(text)]
    assert one_word == ["We caught a bass\nin the lake.", "Dr. Lee plays bass!", "A bass"]


# ---------------------------------------------------------------- the one-word annotator


def test_one_word_annotator_tags_each_occurrence_as_the_model_does(model):
    text = ("We caught a huge bass off the pier. He plays bass in a jazz band.\n\n"
            "Basses and bass guitars. Nothing here.")
    sentences = load_annotator(model).annotate(text)
    assert [s["text"] for s in sentences] == [
        "We caught a huge bass off the pier.", "He plays bass in a jazz band.",
        "Basses and bass guitars.", "Nothing here."]
    assert [len(s["words"]) for s in sentences] == [1, 1, 2, 0]
    system = SupervisedWSD.load(model)
    for sentence in sentences:
        for word in sentence["words"]:
            assert text[word["start"]:word["end"]] == word["token"]
            at = sentence["text"].index(word["token"], word["start"] - text.index(
                sentence["text"]))
            marked = (sentence["text"][:at] + "<<" + word["token"] + ">>"
                      + sentence["text"][at + len(word["token"]):])
            expected = system.explain(Instance.from_text(marked, lemma="bass"))
            assert word["sense_key"] == expected.sense
            assert word["gloss"] == expected.gloss
            assert word["margin"] == pytest.approx(expected.margin, abs=1e-4)
            assert word["lemma"] == "bass" and word["source"] == "classifier"


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_an_all_words_model_tags_every_content_word_as_the_text_pipeline_does(tmp_path):
    from wsd.systems.allwords.plaintext import annotate_text

    model = save_allwords_model(tmp_path)
    texts = write_allwords_corpus(tmp_path / "docs.jsonl")
    manifest = annotate_corpus([tmp_path / "docs.jsonl"], model, tmp_path / "out",
                               partition_size=2, progress=False)  # fmt: skip
    rows = {row["id"]: row["sentences"] for row in map(json.loads, output_lines(tmp_path / "out"))}
    assert rows == {f"a{n}": annotate_text(model, text) for n, text in enumerate(texts)}
    first = {w["token"]: w for s in rows["a0"] for w in s["words"]}
    assert first["bank"]["sense_key"] == "bank%1:14:00::"
    assert first["banks"]["sense_key"] == "bank%1:17:01::"
    assert manifest["counts"]["tagged"] == sum(len(s["words"]) for v in rows.values() for s in v)
    bass = load_annotator(save_bass_model(tmp_path / "bass.json"))
    for n, text in enumerate(texts):  # one sentence splitter for both kinds of model
        assert [s["text"] for s in bass.annotate(text)] == [s["text"] for s in rows[f"a{n}"]]
    if importlib.util.find_spec("pyarrow"):
        annotate_corpus([tmp_path / "docs.jsonl"], model, tmp_path / "parquet", partition_size=1,
                        output_format="parquet", progress=False)  # fmt: skip
        assert parquet_lines(tmp_path / "parquet") == output_lines(tmp_path / "out")


def test_a_document_the_annotator_fails_on_is_reported_and_the_others_annotated():
    class Fragile:
        def annotate(self, text):
            if "boom" in text:
                raise KeyError("boom")
            return [{"text": text, "words": []}]

    reference = ModelRef("fragile.json", "0" * 64)
    preload(reference, Fragile)
    part = Partition(4, (Document("a", "Fine.", "f.jsonl", 1),
                         Document("b", "It goes boom.", "f.jsonl", 2),
                         BadDocument("f.jsonl", 3, "empty text"),
                         Document("c", "Fine too.", "f.jsonl", 4)))  # fmt: skip
    result = annotate_partition(part, reference)
    assert [json.loads(line)["id"] for line in result.lines] == ["a", "c"]
    assert result.bad == [
        {"source": "f.jsonl", "line": 2, "problem": "the annotator failed (KeyError: 'boom')"},
        {"source": "f.jsonl", "line": 3, "problem": "empty text"}]
    assert (result.index, result.documents, result.sentences) == (4, 4, 2)


@pytest.mark.parametrize("fault", [
    EncoderError("the encoder file m.onnx cannot be loaded (DecodeError: ...)"),
    GlossCacheError("g.npz: gloss vectors of encoder 'x', not 'y'"),
    MissingExtraError("contextual features need onnxruntime"), OSError(28, "No space left"),
    MemoryError()])
def test_a_fault_of_the_models_resources_is_the_partitions_not_a_bad_document(fault):
    class Broken:
        def annotate(self, text):
            if "fault" in text:
                raise fault
            if "odd" in text:
                raise ValueError("text the reader refuses")
            return [{"text": text, "words": []}]

    reference = ModelRef(f"broken-{type(fault).__name__}.json", "0" * 64)
    preload(reference, Broken)
    odd = Partition(0, (Document("a", "Fine.", "f.jsonl", 1), Document("b", "odd", "f.jsonl", 2)))
    assert annotate_partition(odd, reference).bad == [
        {"source": "f.jsonl", "line": 2, "problem": "text the reader refuses"}]
    with pytest.raises(type(fault)):
        annotate_partition(Partition(1, (Document("c", "a fault", "f.jsonl", 3),)), reference)


def test_a_run_failed_by_its_model_is_one_error_and_its_rerun_redoes_the_rest(
        model, tmp_path, monkeypatch, run_cli):  # fmt: skip
    """The encoder breaks after the first partition: one error line, exit code 2, the
    manifest's status failed with one partition done; fixed, the same command does the rest."""
    copy = tmp_path / "bass.json"
    copy.write_bytes(model.read_bytes())
    working = load_annotator(copy)

    class BreaksAfterTwo:
        calls = 0

        def annotate(self, text):
            self.calls += 1
            if self.calls > 2:
                raise EncoderError("the encoder file m.onnx cannot be loaded (DecodeError)")
            return working.annotate(text)

    monkeypatch.setitem(annotator_module._LOADED, ModelRef.of(copy), BreaksAfterTwo())
    ids = write_jsonl_corpus(tmp_path / "docs.jsonl", 6)
    out = tmp_path / "out"
    args = ("annotate", tmp_path / "docs.jsonl", "--model", copy, "--out", out,
            "--partition-size", "2", "--quiet")
    failed = run_cli(*args)
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1, failed.stderr
    assert failed.stderr.startswith("wsd annotate: error: the encoder file m.onnx")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "failed" and journal_partitions(out) == ["part-00000"]
    assert manifest["counts"]["bad"] == 0
    monkeypatch.setitem(annotator_module._LOADED, ModelRef.of(copy), working)
    done = run_cli(*args)
    assert done.returncode == 0 and "annotated 6 of 6 documents" in done.stdout, done.stderr
    assert sorted(json.loads(line)["id"] for line in output_lines(out)) == sorted(ids)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_the_annotator_is_loaded_once_per_process_and_file_version(model, tmp_path):
    assert load_annotator(model) is load_annotator(model)
    copy = tmp_path / "copy.json"
    copy.write_bytes(model.read_bytes())
    assert load_annotator(copy) is not load_annotator(model)


# ---------------------------------------------------------------- whole runs


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "docs.jsonl"
    write_jsonl_corpus(path, 40)
    with open(path, "ab") as stream:  # two bad documents among the good ones
        stream.write(b'{"id": "empty", "text": ""}\n{"id": "latin1", "text": "na\xefve"}\n')
    write_jsonl_corpus(path.with_name("more.jsonl"), 15, seed=1)
    return [path, path.with_name("more.jsonl")]


@pytest.fixture(scope="module")
def reference(model, corpus, tmp_path_factory):
    """The output of one local run with the default partition size."""
    out = tmp_path_factory.mktemp("reference")
    manifest = annotate_corpus(corpus, model, out, progress=False)
    return out, manifest


def test_the_lexicon_is_compiled_before_a_run_not_before_a_refused_one(model, corpus, tmp_path,
                                                                      monkeypatch):  # fmt: skip
    """WordNet and the tagger are compiled (once; later runs only find them) before the
    documents are read, as `wsd disambiguate` has them; bad arguments fail before that."""
    from wsd.knowledge import lexicon_compiler

    calls = []
    monkeypatch.setattr(lexicon_compiler, "ensure", lambda: calls.append(len(calls)))
    with pytest.raises(ValueError):
        annotate_corpus(corpus, model, tmp_path / "bad", partition_size=0, progress=False)
    with pytest.raises(ValueError, match="does not exist"):
        annotate_corpus([tmp_path / "missing.txt"], model, tmp_path / "none", progress=False)
    assert calls == []
    manifest = annotate_corpus(corpus[1:], model, tmp_path / "out", progress=False)
    assert manifest["status"] == "complete" and calls == [0]


def test_manifest_counts_every_document(reference, corpus):
    out, manifest = reference
    lines = output_lines(out)
    assert manifest["status"] == "complete"
    counts = manifest["counts"]
    assert counts["documents"] == 57 == counts["annotated"] + counts["bad"]
    assert counts["annotated"] == len(lines) == 55
    assert counts["partitions"] == 1 and counts["bad"] == 2
    rows = [json.loads(line) for line in lines]
    assert counts["sentences"] == sum(len(r["sentences"]) for r in rows)
    assert counts["tagged"] == sum(len(s["words"]) for r in rows for s in r["sentences"])
    assert counts["tokens"] == sum(len(s["text"].split()) for r in rows for s in r["sentences"])
    assert [(b["source"], b["line"]) for b in manifest["bad_documents"]] == [
        (str(corpus[0]), 41), (str(corpus[0]), 42)]
    assert json.loads((out / "manifest.json").read_text()) == manifest


@pytest.mark.parametrize("size", [1, 7])
def test_output_lines_do_not_depend_on_the_partition_size(reference, model, corpus, tmp_path,
                                                          size):
    manifest = annotate_corpus(corpus, model, tmp_path, partition_size=size, progress=False)
    assert output_lines(tmp_path) == output_lines(reference[0])
    assert manifest["counts"]["partitions"] == -(-57 // size)
    assert {k: v for k, v in manifest["counts"].items() if k != "partitions"} == {
        k: v for k, v in reference[1]["counts"].items() if k != "partitions"}


def test_bad_documents_are_reported_on_stderr(model, corpus, tmp_path, capsys):
    annotate_corpus(corpus, model, tmp_path, progress=False)
    err = capsys.readouterr().err
    assert f"bad document {corpus[0]}:41: empty text" in err
    assert f"bad document {corpus[0]}:42: not UTF-8" in err


def test_an_interrupted_run_resumes_without_duplicates(reference, model, corpus, tmp_path):
    done = []

    def interrupt_after_three(result):
        done.append(result.index)
        if len(done) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        annotate_corpus(corpus, model, tmp_path, partition_size=5, progress=False,
                        on_result=interrupt_after_three)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and list(manifest["partitions"]) == [
        "part-00000", "part-00001", "part-00002"]
    assert manifest["partitions_expected"] == 12
    assert {p["status"] for p in manifest["partitions"].values()} == {"done"}
    # what a kill leaves: a temporary file, a partition file the journal does not list yet,
    # a journal line cut short
    (tmp_path / ".part-00003.jsonl.abc.tmp").write_text('{"id": "doc1', encoding="utf-8")
    (tmp_path / "part-00004.jsonl").write_text('{"id": "doc2', encoding="utf-8")
    with open(tmp_path / "journal.jsonl", "a", encoding="utf-8") as journal:
        journal.write('{"partition": "part-00004", "file": "part-0')
    resumed = []
    manifest = annotate_corpus(corpus, model, tmp_path, partition_size=5, progress=False,
                               on_result=lambda r: resumed.append(r.index))
    assert resumed == list(range(3, 12))
    assert output_lines(tmp_path) == output_lines(reference[0])
    assert not list(tmp_path.glob(".*.tmp"))
    assert manifest["counts"]["documents"] == 57 and manifest["status"] == "complete"
    journal = (tmp_path / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["partition"] for line in journal) == list(
        manifest["partitions"])


def test_ctrl_c_just_after_a_journal_line_keeps_that_partition_in_the_manifest(
        model, corpus, tmp_path, monkeypatch):  # fmt: skip
    """The window a user's Ctrl-C can hit: the journal line is on disk, the run is stopped
    before it does anything else; the manifest must list what the journal lists."""
    from wsd.annotate.output import OutputFolder

    read_journal = OutputFolder._read_journal

    class StopAfterSecondLine:
        def __init__(self, stream):
            self.stream, self.lines = stream, 0

        def write(self, text):
            self.lines += text.count("\n")
            return self.stream.write(text)

        def flush(self):
            self.stream.flush()
            if self.lines == 2:
                raise KeyboardInterrupt

        def close(self):
            self.stream.close()

    def read_and_wrap(folder):
        read_journal(folder)
        folder._journal = StopAfterSecondLine(folder._journal)

    monkeypatch.setattr(OutputFolder, "_read_journal", read_and_wrap)
    with pytest.raises(KeyboardInterrupt):
        annotate_corpus(corpus, model, tmp_path, partition_size=5, progress=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert list(manifest["partitions"]) == journal_partitions(tmp_path) == [
        "part-00000", "part-00001"]


def test_a_folder_of_another_run_is_not_mixed_in(reference, model, corpus):
    with pytest.raises(ValueError, match="other settings"):
        annotate_corpus(corpus, model, reference[0], partition_size=3, progress=False)
    with pytest.raises(ValueError, match="other inputs"):
        annotate_corpus(corpus[:1], model, reference[0], progress=False)


def test_a_folder_of_a_run_on_files_since_changed_is_not_resumed(model, tmp_path):
    """The paths given were the same, so a re-run had resumed output that held a document
    removed since, and missed one added."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("The bass swam.", encoding="utf-8")
    annotate_corpus([folder], model, tmp_path / "out", progress=False)
    again = annotate_corpus([folder], model, tmp_path / "out", progress=False)
    assert again["status"] == "complete" and again["counts"]["documents"] == 1
    (folder / "b.txt").write_text("He played the bass.", encoding="utf-8")
    with pytest.raises(ValueError, match=r"other input files \(1 then, 2 now"):
        annotate_corpus([folder], model, tmp_path / "out", progress=False)
    (folder / "b.txt").unlink()
    (folder / "a.txt").write_text("The bass swam away.", encoding="utf-8")  # edited
    with pytest.raises(ValueError, match="other input files"):
        annotate_corpus([folder], model, tmp_path / "out", progress=False)


def test_a_run_in_another_encoding_is_not_resumed(model, tmp_path):
    (tmp_path / "a.txt").write_bytes("The bass swam by the café.".encode("latin-1"))
    first = annotate_corpus([tmp_path / "a.txt"], model, tmp_path / "out", progress=False)
    assert first["settings"]["encoding"] == "utf-8" and first["counts"]["bad"] == 1
    with pytest.raises(ValueError, match="other settings"):
        annotate_corpus([tmp_path / "a.txt"], model, tmp_path / "out", encoding="latin-1",
                        progress=False)  # fmt: skip
    second = annotate_corpus([tmp_path / "a.txt"], model, tmp_path / "latin", encoding="latin1",
                             progress=False)  # fmt: skip
    assert second["settings"]["encoding"] == "iso8859-1" and second["counts"]["annotated"] == 1


def test_a_folders_files_of_other_types_are_named_in_one_notice(model, tmp_path):
    """A folder's .md notes had been left out unsaid: the run counted only its .txt files."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("The bass swam.", encoding="utf-8")
    for name in ("notes.md", "sub/more.md", ".DS_Store"):
        (folder / name).write_text("x", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        manifest = annotate_corpus([folder], model, tmp_path / "out", progress=False)
    assert [str(w.message) for w in caught] == [
        f"{folder}: left out 3 file(s) of other types (.DS_Store 1, .md 2); wsd annotate "
        "reads .txt, .txt.gz, .jsonl, .jsonl.gz"]
    assert manifest["counts"]["documents"] == 1


def parquet_lines(folder):
    """The documents of every Parquet partition in ``folder``, read as one dataset, as sorted
    JSON lines; each file must have the one schema."""
    from pyarrow import dataset, parquet

    from wsd.annotate.output import parquet_schema

    files = sorted(map(str, folder.glob("part-*.parquet")))
    assert all(parquet.read_schema(f) == parquet_schema() for f in files)
    rows = dataset.dataset(files, format="parquet").to_table().to_pylist()
    return sorted(json.dumps(row, ensure_ascii=False) for row in rows)


def test_parquet_output_holds_the_same_documents(reference, model, corpus, tmp_path):
    pytest.importorskip("pyarrow", reason="--format parquet needs pyarrow (the [parquet] extra)")
    manifest = annotate_corpus(corpus, model, tmp_path, output_format="parquet",
                               partition_size=7, progress=False)  # fmt: skip
    assert manifest["counts"]["partitions"] == 9 and not list(tmp_path.glob("*.jsonl.*"))
    assert parquet_lines(tmp_path) == output_lines(reference[0])


def test_a_parquet_partition_of_bad_documents_only_has_the_schema_and_no_rows(model,
                                                                              tmp_path):
    pytest.importorskip("pyarrow", reason="--format parquet needs pyarrow (the [parquet] extra)")
    (tmp_path / "bad.jsonl").write_bytes(b'{"text": ""}\n{"text": "\xff"}\n')
    manifest = annotate_corpus([tmp_path / "bad.jsonl"], model, tmp_path / "out",
                               output_format="parquet", progress=False)  # fmt: skip
    assert manifest["counts"]["bad"] == 2 and parquet_lines(tmp_path / "out") == []


def test_parquet_fields_are_those_of_the_json_word_records():
    from wsd.annotate.output import WORD_FIELDS
    from wsd.systems.allwords.plaintext import RECORD_FIELDS

    assert tuple(WORD_FIELDS) == RECORD_FIELDS


def test_cli_annotates_reports_bad_input_and_shows_progress(model, corpus, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"id": "ok", "text": "He plays bass."}\n'
                    b'{"id": "huge", "text": "' + b"bass " * 2_000_000 + b'"}\n'
                    b'{"id": "bytes", "text": "caf\xe9 bass"}\n'
                    b'{"id": "empty", "text": ""}\n'
                    b'{"id": "ok2", "text": "A bass. Then a crane."}\n')
    result = run("annotate", *map(str, corpus), str(bad), "--model", str(model), "--out",
                 str(tmp_path / "out"), "--partition-size", "20")
    assert result.returncode == 0, result.stderr
    assert "annotated 57 of 62 documents" in result.stdout
    assert "4 partitions; 5 bad documents" in result.stdout
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    reported = [(b["source"], b["line"], b["problem"].split(":")[0].split(" (")[0])
                for b in manifest["bad_documents"]]
    assert reported == [(str(corpus[0]), 41, "empty text"), (str(corpus[0]), 42, "not UTF-8 text"),
                        (str(bad), 2, "line longer than 1000000 bytes"),
                        (str(bad), 3, "not UTF-8 text"), (str(bad), 4, "empty text")]
    for source, line, problem in reported:
        assert f"bad document {source}:{line}: {problem}" in result.stderr
    assert {json.loads(line)["id"] for line in output_lines(tmp_path / "out")} >= {"ok", "ok2"}
    progress = result.stderr.split("\r")[-1]  # the bar's last state
    assert re.search(r"annotate: 100%.* 4/4 .*[\d,]+ tokens/s", progress), progress


@pytest.fixture(scope="module")
def long_run(model, tmp_path_factory):
    return long_run_corpus(tmp_path_factory.mktemp("long"), model)


@pytest.mark.parametrize("signum, code, status", [(signal.SIGKILL, -signal.SIGKILL, "running"),
                                                   (signal.SIGINT, 130, "interrupted")])
def test_cli_run_killed_or_stopped_with_ctrl_c_resumes_without_duplicates(
        model, long_run, tmp_path, signum, code, status):  # fmt: skip
    corpus, expected = long_run
    args = long_run_arguments(corpus, model, tmp_path)
    returncode, err = stop_after_first_partition(args, tmp_path, signum)
    assert returncode == code and "Traceback" not in err, err
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["status"] == status  # a killed run never got to say how it ended
    assert 1 <= len(journal_partitions(tmp_path)) < LONG_RUN_PARTITIONS
    result = run("annotate", *args)
    assert result.returncode == 0, result.stderr
    assert "annotated 1500 of 1500 documents" in result.stdout
    assert output_lines(tmp_path) == expected  # no document lost, none twice
    assert sorted(journal_partitions(tmp_path)) == [
        f"part-{n:05d}" for n in range(LONG_RUN_PARTITIONS)]
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("problem, messages", [
    (("missing.jsonl",), ("missing.jsonl", "does not exist")),
    (("--workers", "0"), ("--workers must be at least 1, got 0",)),
    (("--partition-size", "0"), ("--partition-size must be at least 1, got 0",)),
    (("--max-document-size", "0"), ("--max-document-size must be at least 1, got 0",)),
    (("--encoding", "utf-16"), ("--encoding utf-16", "line by line")),
    (("--encoding", "klingon"), ("unknown encoding 'klingon'",))])
def test_cli_checks_its_arguments_before_any_work(model, corpus, tmp_path, run_cli, problem,
                                                  messages):
    inputs = [str(tmp_path / problem[0])] if problem[0].endswith(".jsonl") else [
        *map(str, corpus), *problem]
    result = run_cli("annotate", *inputs, "--model", str(model), "--out",
                     str(tmp_path / "out"))  # fmt: skip
    assert_clean_error(result, *messages)
    assert not (tmp_path / "out").exists()


def test_an_out_path_that_is_a_file_is_one_error_and_left_as_it_was(model, corpus, tmp_path,
                                                                   run_cli):
    """It had been *x.jsonl: file exists*, which did not say that --out names a folder."""
    out = tmp_path / "annotated.jsonl"
    out.write_text("keep me\n", encoding="utf-8")
    result = run_cli("annotate", *map(str, corpus), "--model", str(model),
                     "--out", str(out))  # fmt: skip
    assert_clean_error(result, f"--out {out}: a file, not a folder")
    assert out.read_text(encoding="utf-8") == "keep me\n"


def test_one_process_needs_no_dask_and_cluster_options_name_the_extra(model, reference, corpus,
                                                                      tmp_path, monkeypatch,
                                                                      run_cli):
    without_dask = ("import sys; sys.modules['dask'] = sys.modules['distributed'] = None; "
                    "from wsd.cli import main; sys.exit(main(sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", without_dask, "annotate", *map(str, corpus),
                             "--model", str(model), "--quiet", "--out", str(tmp_path / "one")],
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert output_lines(tmp_path / "one") == output_lines(reference[0])
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the [dask] extra were absent
    result = run_cli("annotate", *map(str, corpus), "--model", str(model),
                     "--out", str(tmp_path / "two"), "--workers", "2")  # fmt: skip
    assert_clean_error(result, "need Dask", "wsd-perceptron[dask]")
    assert not (tmp_path / "two").exists()


def test_one_word_annotator_reads_web_text_as_the_pipeline_does(model):
    """Markup is no context word and a block's tag ends a sentence, as in ``analyze``."""
    text = "<p>We caught a <b>bass</b> off the pier.</p><p>He plays bass &amp; drums.</p>"
    sentences = load_annotator(model).annotate(text)
    assert [s["text"] for s in sentences] == ["We caught a <b>bass</b> off the pier.",
                                              "He plays bass &amp; drums."]  # fmt: skip
    words = [w for s in sentences for w in s["words"]]
    assert [text[w["start"] : w["end"]] for w in words] == ["bass", "bass"]
