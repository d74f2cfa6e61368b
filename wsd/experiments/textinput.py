"""The text a command is given to disambiguate: its arguments, then a file (``-``: stdin), or
text piped in when neither is given."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wsd.persistence import check_text, codec_name, decode_text, regular_file

# The most bytes of text `wsd disambiguate` reads from --file or stdin (--max-size): its memory
# grows with the text, about half a GB per MB with a SemCor model (0.6 GB peak for 360 KB,
# 1.3 GB for 1.8 MB), so the default bounds it near 1 GB; `wsd annotate` reads longer corpora
# document by document, each at most as long by default.
MAX_TEXT_BYTES = 1_000_000


def read_file(name: str, encoding: str | None = None, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The text of ``--file`` (``-``: stdin) in ``encoding`` (default UTF-8, or what a
    byte-order mark says); ValueError naming it where a byte does not decode, it holds a
    character no text holds (``check_text``: a NUL, a byte-order mark after the start), or it
    is longer than ``max_bytes``. Stdin gets the same checks as a file."""
    codec = codec_name(encoding).replace("utf-8", "utf-8-sig") if encoding else "utf-8-sig"
    source = "<stdin>" if name == "-" else name
    raw = getattr(sys.stdin, "buffer", None)  # None when stdin was replaced by a StringIO
    if name == "-" and raw is None:
        text = sys.stdin.read(max_bytes + 1)
        size = len(text.encode("utf-8", "surrogatepass"))
    elif name == "-":  # stdin as bytes, decoded here: in a C locale bad bytes pass as escapes
        data = raw.read(max_bytes + 1)
        size = len(data)
    else:
        path = regular_file(name, "--file")
        size = path.stat().st_size
        data = b"" if size > max_bytes else path.read_bytes()
    if size > max_bytes:
        raise ValueError(f"{source} is longer than {max_bytes:,} bytes, the most wsd "
                         "disambiguate reads at once (memory grows with the text, about half a "
                         "GB per MB): raise --max-size, or split the text (wsd annotate reads "
                         "a folder of documents)")
    if name != "-" or raw is not None:
        try:
            text = decode_text(data, source, codec)
        except ValueError as err:
            hint = "" if encoding else "; give its encoding with --encoding (e.g. latin-1)"
            raise ValueError(f"{err}{hint}") from None
    check_text(text, source)
    return text


def _piped_stdin() -> bool:
    """Whether text is piped in (``echo ... | wsd disambiguate``): stdin is readable and not a
    terminal, so that it is read as ``--file -`` when no text is given otherwise."""
    try:
        return sys.stdin is not None and sys.stdin.readable() and not sys.stdin.isatty()
    except (OSError, ValueError):  # closed or detached
        return False


def _file_given(sentences: Sequence[str], file: str | None) -> str | None:
    """``file``, or ``-`` (stdin) when neither text nor a file is given and text is piped in."""
    return "-" if not sentences and not file and _piped_stdin() else file


def _no_text(file: str | None, what: str) -> ValueError:
    where = f"{'<stdin>' if file == '-' else file} holds no {what}" if file else f"no {what}"
    return ValueError(f"{where}: give {'them' if what.endswith('s') else 'it'} as arguments, "
                      "with --file PATH, or on stdin (echo TEXT | wsd ...)")


def read_lines(sentences: Sequence[str], file: str | None, encoding: str | None = None,
               max_bytes: int = MAX_TEXT_BYTES) -> tuple[list[str], list[str]]:  # fmt: skip
    """The sentences given (arguments, then the lines of ``file`` or stdin that hold text)
    and where each is, for messages: *sentence 2* (the second argument), *story.txt:7*."""
    file = _file_given(sentences, file)
    lines_read = list(sentences)
    places = [f"sentence {n}" for n in range(1, len(lines_read) + 1)]
    if file:
        text = read_file(file, encoding, max_bytes)
        source = "<stdin>" if file == "-" else file
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(lines, start=1):
            if line.strip():
                lines_read.append(line.strip())
                places.append(f"{source}:{number}")
    if not lines_read:
        raise _no_text(file, "sentences")
    return lines_read, places


def read_text(sentences: Sequence[str], file: str | None, encoding: str | None = None,
              max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The text given: the arguments, one per line, or ``file`` (or stdin), not both: the
    offsets given for raw text point into the one text read."""
    file = _file_given(sentences, file)
    if sentences and file:
        raise ValueError(f"give the text as arguments or with --file {file}, not both: the "
                         "answers' offsets point into one text")
    text = read_file(file, encoding, max_bytes) if file else "\n".join(sentences)
    if not text.strip():
        raise _no_text(file, "text")
    return text
