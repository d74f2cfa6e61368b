"""The text a command is given to disambiguate: its arguments, then a file (``-``: stdin), or
text piped in when neither is given."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wsd.persistence import check_text, codec_name, decode_text, read_bytes


def read_file(name: str, encoding: str | None = None) -> str:
    """The text of ``--file`` (``-``: stdin) in ``encoding`` (default UTF-8, or what a
    byte-order mark says); ValueError naming it where a byte does not decode."""
    codec = codec_name(encoding).replace("utf-8", "utf-8-sig") if encoding else "utf-8-sig"
    raw = getattr(sys.stdin, "buffer", None)  # None when stdin was replaced by a StringIO
    if name == "-" and raw is None:
        return sys.stdin.read()
    try:  # stdin as bytes, decoded here: in a C locale it lets bad bytes through as escapes
        data = raw.read() if name == "-" else read_bytes(name, "--file")
        text = decode_text(data, "<stdin>" if name == "-" else name, codec)
        if name != "-":
            check_text(text, name)
        return text
    except ValueError as err:
        hint = "" if encoding else "; give its encoding with --encoding (e.g. latin-1)"
        raise ValueError(f"{err}{hint}") from None


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


def read_lines(sentences: Sequence[str], file: str | None,
               encoding: str | None = None) -> tuple[list[str], list[str]]:  # fmt: skip
    """The sentences given (arguments, then the lines of ``file`` or stdin that hold text)
    and where each is, for messages: *sentence 2* (the second argument), *story.txt:7*."""
    file = _file_given(sentences, file)
    lines_read = list(sentences)
    places = [f"sentence {n}" for n in range(1, len(lines_read) + 1)]
    if file:
        text = read_file(file, encoding)
        source = "<stdin>" if file == "-" else file
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(lines, start=1):
            if line.strip():
                lines_read.append(line.strip())
                places.append(f"{source}:{number}")
    if not lines_read:
        raise _no_text(file, "sentences")
    return lines_read, places


def read_text(sentences: Sequence[str], file: str | None, encoding: str | None = None) -> str:
    """The text given: the arguments, then ``file`` (or stdin), one per line."""
    file = _file_given(sentences, file)
    parts = list(sentences)
    if file:
        parts.append(read_file(file, encoding))
    text = "\n".join(parts)
    if not text.strip():
        raise _no_text(file, "text")
    return text
