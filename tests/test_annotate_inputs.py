"""wsd annotate's inputs (issue 35): every entry of a folder is read or accounted for, links
are followed once, an input is read once; the --out folder and the model are checked before
any work, and a run that produced nothing leaves nothing behind."""

import json
import os
from pathlib import Path

import pytest
from annotate_data import save_bass_model
from test_cli import assert_clean_error

from wsd.annotate import annotate_corpus
from wsd.annotate.documents import BadDocument, read_documents
from wsd.annotate.listing import input_files
from wsd.experiments.textinput import read_file


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return save_bass_model(tmp_path_factory.mktemp("model") / "bass.json")


def qa_corpus(root):
    """The QA report's folder: a file, a link to a folder elsewhere, a dangling link, a FIFO."""
    (root / "corpus").mkdir()
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "r.txt").write_text("The bass raised rates.", encoding="utf-8")
    (root / "corpus" / "a.txt").write_text("She caught a bass.", encoding="utf-8")
    (root / "corpus" / "linked_dir").symlink_to("../elsewhere")
    (root / "corpus" / "dangling.txt").symlink_to("/nonexistent")
    os.mkfifo(root / "corpus" / "pipe.txt")
    return root / "corpus"


def names(files):
    return [name for _, name in files]


def test_links_in_a_folder_are_followed_and_what_is_read_twice_is_named(tmp_path):
    """rglob had skipped a linked folder unsaid; a loop back up, or a second way to a file,
    is read once and named in a notice."""
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "r.txt").write_text("Elsewhere.", encoding="utf-8")
    (folder / "a.txt").write_text("A.", encoding="utf-8")
    (folder / "sub" / "notes.md").write_text("not read", encoding="utf-8")
    (folder / "linked_dir").symlink_to("../elsewhere")
    (folder / "linked_file.txt").symlink_to(tmp_path / "elsewhere" / "r.txt")
    (folder / "sub" / "up").symlink_to("..")  # a loop
    (folder / "z_same.txt").symlink_to("a.txt")
    with pytest.warns(UserWarning) as caught:
        files = input_files([folder], note_left_out=True)
    assert names(files) == ["a.txt", "linked_dir/r.txt"]
    assert [str(w.message) for w in caught] == [
        f"{folder}: left out 1 file(s) of other types (.md 1); wsd annotate reads .txt, "
        ".txt.gz, .jsonl, .jsonl.gz",
        f"{folder}: left out 3 folder(s) or file(s) read already by another path (symbolic "
        f"links), each read once: {folder}/linked_file.txt (read as {folder}/linked_dir/r.txt); "
        f"{folder}/sub/up (read as {folder}); {folder}/z_same.txt (read as {folder}/a.txt)"]


@pytest.mark.parametrize("entry, message", [
    ("dangling.txt", "is a symbolic link that leads to no file (to '/nonexistent'"),
    ("pipe.txt", "is a FIFO, not a regular file")])
def test_a_dangling_link_or_fifo_in_a_folder_is_an_error_naming_it(tmp_path, entry, message):
    folder = qa_corpus(tmp_path)
    (folder / ("pipe.txt" if entry == "dangling.txt" else "dangling.txt")).unlink()
    with pytest.raises(ValueError, match="input '.*' ") as caught:
        input_files([folder])
    assert str(caught.value).startswith(f"input {str(folder / entry)!r} {message}")


def test_an_unreadable_folder_or_file_is_an_error_naming_it(tmp_path, monkeypatch):
    """Tests run as root here, where permissions do not stop reading: the refusals are
    simulated at the calls that would meet them."""
    folder = tmp_path / "corpus"
    (folder / "locked").mkdir(parents=True)
    (folder / "a.txt").write_text("A.", encoding="utf-8")
    scandir = os.scandir

    def refuse_locked(path):
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse_locked)
    with pytest.raises(ValueError, match=f"folder {str(folder / 'locked')!r} cannot be read "
                                         r"\(Permission denied\)"):  # fmt: skip
        input_files([folder])
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", lambda path, mode: not str(path).endswith("a.txt"))
    with pytest.raises(ValueError, match=f"input {str(folder / 'a.txt')!r} cannot be read"):
        input_files([folder])


def test_cli_refuses_the_qa_folder_before_any_work(model, tmp_path, run_cli):
    folder = qa_corpus(tmp_path)
    result = run_cli("annotate", "--model", model, "--out", tmp_path / "out", folder)
    assert_clean_error(result, str(folder / "dangling.txt"), "leads to no file")
    assert not (tmp_path / "out").exists()
    (folder / "dangling.txt").unlink()
    (folder / "pipe.txt").unlink()
    result = run_cli("annotate", "--model", model, "--out", tmp_path / "out", "--quiet", folder)
    assert result.returncode == 0, result.stderr
    assert "annotated 2 of 2 documents" in result.stdout


@pytest.mark.parametrize("twice, message", [
    (lambda d: [d, d], "is given twice"),
    (lambda d: [d, d / ".." / d.name], "is given twice (as"),
    (lambda d: [d, d / "a.txt"], "lies in the input folder"),
    (lambda d: [d / "a.txt", d], "holds the input"),
    (lambda d: [d / "link", d / "a.txt"], "lies in the input folder"),
    (lambda d: [d, d.parent / "elsewhere" / "r.txt"], "is read already as")])
def test_an_input_given_twice_is_an_error(tmp_path, twice, message):
    """`annotate c/corpus c/corpus` had annotated each document twice."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("A.", encoding="utf-8")
    (folder / "link").symlink_to(folder)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "r.txt").write_text("R.", encoding="utf-8")
    (folder / "linked_dir").symlink_to(tmp_path / "elsewhere")  # r.txt read through it
    with pytest.raises(ValueError, match="give each") as caught:
        input_files(twice(folder))
    assert message in str(caught.value)


def test_a_link_in_an_input_folder_into_out_is_refused(model, tmp_path):
    """The part files of --out, reached through a link, would be read as input."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("The bass swam.", encoding="utf-8")
    annotate_corpus([folder], model, tmp_path / "out", progress=False)
    (folder / "old").symlink_to(tmp_path / "out")
    with pytest.raises(ValueError, match=r"input .*in/old/journal.jsonl lies in the output"), \
            pytest.warns(UserWarning, match="left out 2 file"):  # manifest.json and .lock
        annotate_corpus([folder], model, tmp_path / "out", progress=False)


# ---------------------------------------------------------------- the --out folder and the model


def test_an_out_folder_of_other_files_is_refused_and_left_as_it_was(model, tmp_path, run_cli):
    """A user's part-00000.jsonl in --out had been written over."""
    (tmp_path / "in.txt").write_text("The bass swam.", encoding="utf-8")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "part-00000.jsonl").write_text("keep me\n", encoding="utf-8")
    (out / "notes.txt").write_text("mine too\n", encoding="utf-8")
    result = run_cli("annotate", tmp_path / "in.txt", "--model", model, "--out", out)
    assert_clean_error(result, f"--out {out} holds files wsd annotate did not write "
                               "(notes.txt, part-00000.jsonl) and no manifest.json")
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "part-00000.jsonl"]
    assert (out / "part-00000.jsonl").read_text(encoding="utf-8") == "keep me\n"


def test_a_wsd_folder_resumes_and_one_only_begun_is_taken(model, tmp_path):
    """A wsd run's own folder is resumed; one a run was killed in before its manifest (only
    the lock and an empty journal) is no stranger's."""
    (tmp_path / "in.txt").write_text("The bass swam.", encoding="utf-8")
    first = annotate_corpus([tmp_path / "in.txt"], model, tmp_path / "out", progress=False)
    again = annotate_corpus([tmp_path / "in.txt"], model, tmp_path / "out", progress=False)
    assert first["counts"] == again["counts"] and again["status"] == "complete"
    begun = tmp_path / "begun"
    begun.mkdir()
    (begun / ".lock").touch()
    (begun / "journal.jsonl").touch()
    manifest = annotate_corpus([tmp_path / "in.txt"], model, begun, progress=False)
    assert manifest["counts"]["annotated"] == 1


def test_a_file_that_is_no_model_is_refused_before_out_is_made(model, tmp_path, run_cli):
    """It had left --out/manifest.json naming the wrong model, so the retry with the right
    one was refused ("holds a run with other model")."""
    (tmp_path / "in.txt").write_text("The bass swam.", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a model\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("annotate", tmp_path / "in.txt", "--model", tmp_path / "notes.txt",
                     "--out", out)  # fmt: skip
    assert_clean_error(result, "notes.txt", "neither an .npz archive")
    assert not out.exists()
    result = run_cli("annotate", tmp_path / "in.txt", "--model", model, "--out", out, "--quiet")
    assert result.returncode == 0, result.stderr
    assert "annotated 1 of 1 documents" in result.stdout


def test_a_run_that_produces_nothing_leaves_nothing_behind(model, tmp_path, monkeypatch):
    """A failure before the first partition is written: a folder the run made is removed, a
    folder that was there is left empty, as it was."""
    import wsd.annotate.run as run_module

    def fail(partitions, reference):
        raise OSError(28, "No space left on device")
        yield  # a generator, as run_local is

    (tmp_path / "in.txt").write_text("The bass swam.", encoding="utf-8")
    monkeypatch.setattr(run_module, "run_local", fail)
    with pytest.raises(OSError, match="No space"):
        annotate_corpus([tmp_path / "in.txt"], model, tmp_path / "new" / "out", progress=False)
    assert not (tmp_path / "new" / "out").exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(OSError, match="No space"):
        annotate_corpus([tmp_path / "in.txt"], model, tmp_path / "empty", progress=False)
    assert list((tmp_path / "empty").iterdir()) == []


def test_a_folder_of_a_run_that_produced_nothing_takes_another_model(model, tmp_path):
    """What a failed run of an earlier version left (a manifest naming another model, no
    partition) no longer blocks the retry; a run that finished a partition still does."""
    (tmp_path / "in.txt").write_text("The bass swam.", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    failed = {"format": "wsd-annotate-manifest", "version": 1, "inputs": ["elsewhere"],
              "model": {"path": "notes.txt", "sha256": "0" * 64}, "settings": {},
              "status": "failed", "counts": {}, "partitions": {}, "bad_documents": []}
    (out / "manifest.json").write_text(json.dumps(failed), encoding="utf-8")
    (out / "journal.jsonl").write_text("", encoding="utf-8")
    manifest = annotate_corpus([tmp_path / "in.txt"], model, out, progress=False)
    assert manifest["status"] == "complete" and manifest["counts"]["annotated"] == 1
    other = save_bass_model(tmp_path / "other.json")
    (tmp_path / "other.json").write_text(other.read_text(encoding="utf-8") + "\n",
                                         encoding="utf-8")  # fmt: skip
    with pytest.raises(ValueError, match="holds a run with other model"):
        annotate_corpus([tmp_path / "in.txt"], tmp_path / "other.json", out, progress=False)


# ---------------------------------------------------------------- text checks, repeated ids


def test_text_is_checked_as_disambiguate_checks_it_whatever_the_encoding(model, tmp_path,
                                                                         run_cli):  # fmt: skip
    """--encoding latin-1 on a UTF-16 file had annotated `ÿþT\\x00h\\x00...` where `wsd
    disambiguate --file` refuses it; the bad document is reported, the good ones kept."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "utf16.txt").write_bytes("He sat on the bass.".encode("utf-16"))
    (folder / "good.txt").write_bytes("The café served bass.".encode("latin-1"))
    (folder / "docs.jsonl").write_bytes(b'{"id": "a", "text": "A bass."}\n'
                                        b'{"id": "nul", "text": "A bass."}\x00\n'
                                        b'{"id": "c", "text": "Caf\xe9 bass."}\n')
    records = list(read_documents([folder], encoding="latin-1"))
    assert [getattr(r, "id", None) for r in records] == ["a", None, "c", "good.txt", None]
    nul, utf16 = records[1], records[4]
    assert (nul.source, nul.line) == (str(folder / "docs.jsonl"), 2)
    assert (utf16.source, utf16.line) == (str(folder / "utf16.txt"), 1)
    assert nul.problem.startswith("holds a NUL character")
    assert utf16.problem == (
        "starts with a UTF-16 or UTF-32 byte-order mark: not iso8859-1 text (read as iso8859-1 "
        "it holds a NUL character); annotate it without --encoding, or save it in the files' "
        "encoding")
    with pytest.raises(ValueError) as refused:
        read_file(str(folder / "utf16.txt"), "latin-1")
    assert nul.problem.split("?")[0] in str(refused.value)
    result = run_cli("annotate", folder, "--model", model, "--out", tmp_path / "out",
                     "--encoding", "latin-1", "--quiet")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "annotated 3 of 5 documents" in result.stdout and "2 bad documents" in result.stdout
    assert f"bad document {folder / 'utf16.txt'}:1: starts with a UTF-16" in result.stderr


def test_a_byte_order_mark_inside_a_jsonl_file_is_reported_at_its_line(tmp_path):
    """Each line had been decoded as UTF-8 with a leading mark dropped, so a file joined
    from two passed where `wsd disambiguate --file` refuses it; the first line's mark is the
    file's and is dropped."""
    path = tmp_path / "joined.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": "a", "text": "A bass."}\n'
                     b'\xef\xbb\xbf{"id": "b", "text": "Joined here."}\n')
    for encoding in (None, "utf-8"):
        first, second = read_documents([path], encoding=encoding)
        assert (first.id, first.text) == ("a", "A bass.")
        assert isinstance(second, BadDocument) and second.line == 2
        assert second.problem.startswith("holds a byte-order mark (U+FEFF) after the start")


def test_an_id_repeated_in_a_jsonl_file_is_a_bad_document_at_its_line(tmp_path, monkeypatch):
    """Two output lines with one id had been written; the first keeps it, the repeat is
    reported with its file and line. Ids may repeat across files (each numbering its own)."""
    monkeypatch.chdir(tmp_path)  # the default ids, FILE:LINE, short
    path = Path("docs.jsonl")
    path.write_text('{"id": "d1", "text": "A bass."}\n'
                    '{"id": 7, "text": "Seven."}\n'
                    '{"id": "d1", "text": "Again."}\n'
                    '{"id": "7", "text": "Seven as a string."}\n'
                    f'{{"id": "{path}:6", "text": "Takes line 6\'s default id."}}\n'
                    '{"text": "No id: FILE:6."}\n', encoding="utf-8")  # fmt: skip
    Path("more.jsonl").write_text('{"id": "d1", "text": "Another file."}\n', encoding="utf-8")
    records = list(read_documents([path, "more.jsonl"]))
    assert [(type(r).__name__, r.line) for r in records] == [
        ("Document", 1), ("Document", 2), ("BadDocument", 3), ("BadDocument", 4),
        ("Document", 5), ("BadDocument", 6), ("Document", 1)]
    assert [(r.source, r.problem) for r in records if isinstance(r, BadDocument)] == [
        (str(path), "id 'd1' repeats that of line 1; give each document its own id"),
        (str(path), "id '7' repeats that of line 2; give each document its own id"),
        (str(path), f"id '{path}:6' repeats that of line 5; give each document its own id")]


def test_two_folders_whose_txt_files_would_share_ids_are_refused_before_any_work(
        model, tmp_path, run_cli):
    """``x/a.txt`` and ``y/a.txt`` had both been written as the document 'a.txt'."""
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.txt").write_text("The bass swam.", encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("annotate", tmp_path / "x", tmp_path / "y", "--model", model, "--out", out)
    assert_clean_error(result, "would both be the document 'a.txt'", "give the folder that holds")
    assert not out.exists()
    result = run_cli("annotate", tmp_path / "x", tmp_path / "y" / "a.txt", "--model", model,
                     "--out", out, "--quiet")  # fmt: skip
    assert result.returncode == 0, result.stderr  # the file given by its path: another id
