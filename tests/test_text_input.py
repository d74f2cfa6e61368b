"""The text `wsd disambiguate` reads: arguments, --file or stdin, checked alike and bounded in
size; <<word>> markers found in linear time; messages that quote a line cut it short."""

import subprocess
import time

import pytest

from wsd.experiments.textinput import read_file
from wsd.instance import quoted, unmark
from wsd.resources import has_nltk_resource

needs_data = pytest.mark.skipif(
    not (has_nltk_resource("wordnet") and has_nltk_resource("averaged_perceptron_tagger_eng")),
    reason="NLTK WordNet and the tagger are not installed")


def test_unmark_reads_text_full_of_brackets_in_linear_time():
    """The marker's search had gone on to the end of the line from every <<, and each marker
    summed the lengths of the parts before it: 40k '<' took 12 s, 40k markers 70 s."""
    for text, marked in (("<" * 200_000, 0), ("x << y " * 50_000, 0), ("<<a>> " * 50_000, 50_000)):
        began = time.process_time()
        plain, starts = unmark(text)
        assert time.process_time() - began < 2.0
        assert len(starts) == marked
    assert unmark("<<a>> <<b>>") == ("a b", [0, 2])


def test_a_marker_holds_no_bracket_and_no_line_break():
    assert unmark("a << b << c >> d") == ("a << b << c >> d", [])  # shift operators
    assert unmark("a << b <<c>> d") == ("a << b c d", [7])
    assert unmark("<<ice cream>> and <<x>>") == ("ice cream and x", [0, 14])
    assert unmark("cout << x;\nthe bank >> river") == ("cout << x;\nthe bank >> river", [])
    assert unmark("a <<bass>> and <<crane>>s") == ("a bass and cranes", [2, 11])


def test_quoted_cuts_a_long_line():
    assert quoted("a short line") == "'a short line'"
    long = quoted("x" * 5_000_000)
    assert long.startswith("'" + "x" * 80 + "'...") and "5,000,000 characters" in long
    assert len(long) < 120


@needs_data
def test_shift_operators_leave_every_word_answered():
    """Before, *<< x << endl; the bank >>* was one marker and only its words were answered."""
    from wsd.systems.allwords.plaintext import tag_text

    text = "cout << x << endl; the bank >> river.\nThe plant grows by the river."
    sentences, words = tag_text("lesk", text)
    assert {"bank", "plant", "river"} <= {w.token for w in words}
    assert all(text[w.start : w.end] == w.token for w in words)


def test_read_file_takes_a_file_at_its_limit_and_refuses_one_byte_more(tmp_path):
    path = tmp_path / "story.txt"
    path.write_text("The bank is steep.\n")
    size = path.stat().st_size
    assert read_file(str(path), max_bytes=size) == "The bank is steep.\n"
    with pytest.raises(ValueError, match=rf"story.txt is longer than {size - 1} bytes.*--max-size"):
        read_file(str(path), max_bytes=size - 1)


def test_too_long_a_file_or_stdin_is_refused_before_any_work(tmp_path, run_cli):
    from tests.test_cli import assert_clean_error

    (tmp_path / "long.txt").write_text("The bank is steep. " * 100)
    result = run_cli("disambiguate", "--model", "lesk", "--max-size", "1000", "--file",
                     tmp_path / "long.txt")  # fmt: skip
    assert_clean_error(result, "long.txt is longer than 1,000 bytes", "raise --max-size")
    piped = run_cli("disambiguate", "--model", "lesk", "--max-size", "1000",
                    stdin="The bank is steep. " * 100)  # fmt: skip
    assert_clean_error(piped, "<stdin> is longer than 1,000 bytes")
    refused = run_cli("disambiguate", "--max-size", "0", "x")
    assert_clean_error(refused, "--max-size must be at least 1")


def test_stdin_gets_the_checks_a_file_gets(run_cli):
    """UTF-16 text without its byte-order mark had been read from stdin as letters and NULs
    (*T* answered as a group); through --file it was refused."""
    from tests.test_cli import assert_clean_error

    utf16 = "The bank raised rates.\n".encode("utf-16-le").decode("latin-1")
    result = run_cli("disambiguate", "--model", "lesk", "--file", "-", stdin=utf16)
    assert_clean_error(result, "<stdin>:1: holds a NUL character")
    assert "--encoding" not in result.stderr  # the hint is for bytes that do not decode
    joined = run_cli("disambiguate", "--model", "lesk", stdin="The bank.\n\ufeffA river.\n")
    assert_clean_error(joined, "<stdin>:2: holds a byte-order mark")


def test_text_arguments_and_a_file_are_not_joined(tmp_path, run_cli):
    """Joined, the file's offsets had pointed past its own text by the arguments' length."""
    from tests.test_cli import assert_clean_error

    (tmp_path / "s.txt").write_text("The bank is steep.\n")
    result = run_cli("disambiguate", "--model", "lesk", "Hello bank.", "--file", tmp_path / "s.txt")
    assert_clean_error(result, "give the text as arguments or with --file", "not both")


def test_a_bundled_target_error_quotes_a_long_line_cut_short(tmp_path, run_cli):
    from tests.test_cli import assert_clean_error

    (tmp_path / "long.txt").write_text("a" * 200_000 + "\n")
    result = run_cli("disambiguate", "--target", "bass", "--file", tmp_path / "long.txt")
    assert_clean_error(result, "long.txt:1: 'bass' does not occur in", "200,000 characters")
    assert len(result.stderr) < 1_000


def test_a_closed_standard_output_is_an_error_not_silence():
    from tests.test_cli import WSD

    result = subprocess.run(f"'{WSD}' disambiguate --target bass 'He caught a bass.' >&-",
                            shell=True, capture_output=False, stderr=subprocess.PIPE, text=True,
                            timeout=300)  # fmt: skip
    assert result.returncode == 2
    assert "standard output is closed" in result.stderr and "Traceback" not in result.stderr


def test_a_lone_surrogate_in_the_text_is_one_clear_error():
    """The gloss path had failed deep in its vector cache (UnicodeEncodeError) where Lesk and
    a model answered; an argument with a byte that is not UTF-8 arrives so."""
    from wsd.systems.allwords.plaintext import tag_text

    for model in ("lesk", "gloss", None):
        with pytest.raises(ValueError, match=r"lone surrogate \(U\+D800\)"):
            tag_text(model, "He caught a \ud800 bass.")


def test_a_model_name_that_is_no_file_is_named_with_the_names_there_are(tmp_path, monkeypatch):
    """``model=""`` had read the working folder (IsADirectoryError), *LESK* and *mfs* had
    been looked for as files."""
    import wsd

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="model is empty"):
        wsd.disambiguate("The bank.", model="")
    for name in ("LESK", "mfs", "Gloss"):
        with pytest.raises(ValueError, match=rf"model '{name}' is no model file here.*'lesk'"):
            wsd.disambiguate("The bank.", model=name)
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=str(tmp_path / "nope.npz")):
        wsd.disambiguate("The bank.", model="~/nope.npz")  # ~ expanded, as spaCy's config does


def test_the_command_line_names_the_systems_as_the_api_does(tmp_path, run_cli):
    """``--model Gloss`` had said only "Gloss: no such file or directory"; `wsd annotate`
    named no reason for refusing *gloss*."""
    from tests.test_cli import assert_clean_error

    for name in ("LESK", "Gloss", "mfs"):
        result = run_cli("disambiguate", "--model", name, "The bank.", cwd=tmp_path)
        assert_clean_error(result, f"model '{name}' is no model file here", "'gloss', 'lesk'")
    (tmp_path / "in.txt").write_text("The bank.", encoding="utf-8")
    result = run_cli("annotate", tmp_path / "in.txt", "--model", "gloss", "--out",
                     tmp_path / "out", cwd=tmp_path)  # fmt: skip
    assert_clean_error(result, "wsd annotate needs a model file",
                       "gloss and lesk answer `wsd disambiguate` only")
    assert not (tmp_path / "out").exists()


@needs_data
def test_a_marked_word_that_is_not_the_target_is_an_error_not_an_empty_answer():
    import wsd

    with pytest.raises(ValueError, match="no <<marked>> word is a form of target 'bank'"):
        wsd.disambiguate("He plays <<bass>> in a jazz band by the bank.", model="lesk",
                         target="bank")  # fmt: skip
    (bank,) = wsd.disambiguate("He sat on the <<banks>> of the river.", model="lesk",
                               target="bank")  # fmt: skip
    assert bank.token == "banks"


def test_tag_text_names_a_bad_explain_or_reader():
    """Had failed deep in the decisions (*'>' not supported*) or the pipeline (*'str' object
    has no attribute 'units'*)."""
    from wsd.systems.allwords.plaintext import tag_text

    for explain in ("3", None, 3.5, True):
        with pytest.raises(TypeError, match="explain must be an int >= 0"):
            tag_text("lesk", "The bank.", explain=explain)
    with pytest.raises(ValueError, match="explain must be 0 or more .*got -1"):
        tag_text("lesk", "The bank.", explain=-1)
    with pytest.raises(TypeError, match="reader must read text into units.*not a str"):
        tag_text("lesk", "The bank.", reader="junk")
