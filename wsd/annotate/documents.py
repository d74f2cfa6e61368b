"""Reading the documents of ``wsd annotate`` and cutting them into partitions, as a stream.

Inputs are ``.txt`` files (one document per file, id = its path as given or below the folder
given) and JSONL files (``{"id": ..., "text": ...}`` per line, id defaulting to
``FILE:LINE``), either possibly gzip-compressed (``.gz``); folders are searched for them, in
sorted order. Their bytes are UTF-8 unless an ``encoding`` is given (one where a line break
is one byte, as JSONL is read line by line); a .txt file that starts with a UTF-16 or UTF-32
byte-order mark (a Windows "Unicode" file) is read in it. A document that cannot be
annotated (undecodable bytes, a NUL or a byte-order mark after the file's start, whatever the
encoding, bad JSON, no or empty text, more than ``max_bytes``) becomes a
:class:`BadDocument` at its place in the stream, so it is reported, never skipped silently,
and partition boundaries do not depend on it. So does a file that cannot be read to its end
(a cut or corrupt ``.gz``, a ``.gz`` that is not gzip): one BadDocument where reading stopped,
after the documents read before it.

Partition ``k`` holds records ``k * size`` to ``(k + 1) * size - 1`` of the stream: a pure
function of the inputs, so a re-run cuts the same partitions and can skip the finished ones.
Memory holds one line (at most ``max_bytes`` of it) at a time, plus the partitions in flight
and the ids of the JSONL file being read (each must be unique within its file).
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from wsd.annotate.listing import JSONL_SUFFIXES, input_files
from wsd.instance import quoted
from wsd.persistence import (
    WIDE_BOMS,
    TextDecodeError,
    bounded_lines,
    check_text,
    codec_name,
    decode_text,
)

DEFAULT_PARTITION_SIZE = 100
DEFAULT_MAX_BYTES = 1_000_000
# What reading a damaged file raises: a cut gzip stream (EOFError), not gzip or a bad CRC
# (gzip.BadGzipFile, an OSError), corrupt deflate data (zlib.error), an I/O error.
UNREADABLE = (EOFError, OSError, zlib.error)


@dataclass(frozen=True)
class Document:
    id: str
    text: str
    source: str
    line: int  # 1-based line of a JSONL file; 0 for a .txt file (the whole file)


@dataclass(frozen=True)
class BadDocument:
    source: str
    line: int  # 0: the whole .txt file (too long, empty)
    problem: str

    def to_dict(self) -> dict[str, str | int]:
        return {"source": self.source, "line": self.line, "problem": self.problem}


Record = Document | BadDocument


@dataclass(frozen=True)
class Partition:
    index: int
    records: tuple[Record, ...]


def _open(path: Path) -> BinaryIO:
    return gzip.open(path, "rb") if path.name.endswith(".gz") else open(path, "rb")


def checked_encoding(encoding: str | None) -> str | None:
    """``encoding``'s codec name (None: UTF-8, the default); ValueError for an unknown one or
    one where a line break is not the byte ``\\n`` (UTF-16: JSONL is read line by line)."""
    if encoding is None:
        return None
    name = codec_name(encoding)
    if '\n{"a"}'.encode(name, errors="replace") != b'\n{"a"}':
        raise ValueError(f"--encoding {encoding}: wsd annotate reads files line by line and "
                         "needs an encoding that writes ASCII as ASCII (e.g. utf-8, latin-1, "
                         "cp1252); a .txt file with a UTF-16 byte-order mark is read without "
                         "--encoding")
    return name


def read_documents(
    inputs: Sequence[str | os.PathLike], max_bytes: int = DEFAULT_MAX_BYTES,
    encoding: str | None = None,
) -> Iterator[Record]:
    """Every document of ``inputs`` in order, bad ones as BadDocument at their place;
    ``encoding``: their bytes' (default UTF-8; see ``checked_encoding``)."""
    codec = checked_encoding(encoding)
    for path, name in input_files(inputs):
        if path.name.endswith(JSONL_SUFFIXES):
            yield from _jsonl_documents(path, max_bytes, codec)
        else:
            yield _text_document(path, name, max_bytes, codec)


def _text_document(path: Path, name: str, max_bytes: int, codec: str | None) -> Record:
    try:
        with _open(path) as stream:
            raw = _read_at_most(stream, max_bytes + 1)
    except UNREADABLE as err:
        return BadDocument(str(path), 0, f"unreadable ({err})")
    if len(raw) > max_bytes:
        return BadDocument(str(path), 0, f"longer than {max_bytes} bytes (--max-document-size)")
    return _checked(raw, str(path), 0, lambda text: Document(name, text, str(path), 0), codec)


def _read_at_most(stream: BinaryIO, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``stream``, read in blocks: ``read(limit)`` would allocate
    ``limit`` bytes at once, however short the file."""
    blocks, size = [], 0
    while size < limit:
        block = stream.read(min(1 << 20, limit - size))
        if not block:
            break
        blocks.append(block)
        size += len(block)
    return b"".join(blocks)


def _jsonl_documents(path: Path, max_bytes: int, codec: str | None) -> Iterator[Record]:
    """The records of a JSONL file; a document repeating an earlier line's id is a bad one
    (two output lines of one id could not be told apart)."""
    number = 0
    first_line: dict[str, int] = {}  # id -> the line that had it first
    try:
        with _open(path) as stream:
            for number, raw in enumerate(bounded_lines(stream, max_bytes), start=1):
                if raw is None:
                    yield BadDocument(str(path), number,
                                      f"line longer than {max_bytes} bytes (--max-document-size)")
                elif raw.strip():
                    record = _checked(raw, str(path), number,
                                      lambda text, n=number: _json_document(text, path, n), codec)
                    yield _unique(record, first_line)
    except UNREADABLE as err:
        yield BadDocument(str(path), number + 1, f"unreadable from this line on ({err})")


def _unique(record: Record, first_line: dict[str, int]) -> Record:
    """``record``, or a BadDocument when its id is that of an earlier line of its file
    (``first_line``: id -> line, filled here)."""
    if not isinstance(record, Document):
        return record
    first = first_line.setdefault(record.id, record.line)
    if first == record.line:
        return record
    return BadDocument(record.source, record.line, f"id {quoted(record.id)} repeats that of "
                       f"line {first}; give each document its own id")


def _checked(raw: bytes, source: str, line: int, build, codec: str | None) -> Record:
    """The document ``build`` makes of ``raw`` decoded, or a BadDocument naming the line (in a
    .txt file, the line of the first bad byte)."""
    try:  # a file's leading byte-order mark is dropped (and names the encoding: UTF-16 too)
        text = decode_text(raw, source, _line_codec(codec, line))
        # the checks of `wsd disambiguate --file`, whatever the encoding: a NUL (UTF-16 read
        # as bytes, which would annotate nothing), a byte-order mark after the start
        check_text(text, source, max(line, 1))
    except TextDecodeError as err:
        return BadDocument(source, line or err.line, _problem(err.problem, raw, codec))
    try:
        document = build(text)
    except ValueError as err:
        return BadDocument(source, line, str(err))
    if not document.text.strip():
        return BadDocument(source, line, "empty text")
    return document


def _line_codec(codec: str | None, line: int) -> str:
    """The codec of a .txt file (``line`` 0) or JSONL line: UTF-8 drops a byte-order mark at
    the start of the file only (one later is reported, as in a joined file)."""
    if codec not in (None, "utf-8"):
        return codec
    return "utf-8-sig" if line <= 1 else "utf-8"


def _problem(problem: str, raw: bytes, codec: str | None) -> str:
    """What is wrong with bytes that are not text in ``codec`` (None: the default, UTF-8), and
    what to do about it."""
    if codec is None:
        return f"{problem}; give the files' encoding with --encoding (e.g. latin-1)"
    if raw.startswith(WIDE_BOMS):
        return (f"starts with a UTF-16 or UTF-32 byte-order mark: not {codec} text (read as "
                f"{codec} it {problem.split(':')[0]}); annotate it without --encoding, or save "
                "it in the files' encoding")
    return problem


def _json_document(line_text: str, path: Path, number: int) -> Document:
    try:
        row = json.loads(line_text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err}") from err
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if not isinstance(row, dict) or not isinstance(row.get("text"), str):
        raise ValueError('expected {"id": ..., "text": "..."}: no "text" string')
    doc_id = row.get("id", f"{path}:{number}")
    if isinstance(doc_id, bool) or not isinstance(doc_id, str | int) or doc_id == "":
        raise ValueError(f'"id" must be a non-empty string or an integer, got {doc_id!r:.40}')
    for value in (row["text"], str(doc_id)):  # a lone surrogate could never be written
        try:
            check_text(value, "", writable_only=True)
        except TextDecodeError as err:
            raise ValueError(err.problem) from None
    return Document(str(doc_id), row["text"], str(path), number)


def partitions(
    records: Iterable[Record], size: int = DEFAULT_PARTITION_SIZE
) -> Iterator[Partition]:
    """The records cut into consecutive partitions of ``size`` (the last one may be shorter)."""
    if size < 1:
        raise ValueError(f"--partition-size must be at least 1, got {size}")
    batch: list[Record] = []
    index = 0
    for record in records:
        batch.append(record)
        if len(batch) == size:
            yield Partition(index, tuple(batch))
            batch, index = [], index + 1
    if batch:
        yield Partition(index, tuple(batch))


def count_records(inputs: Sequence[str | os.PathLike]) -> int:
    """How many records :func:`read_documents` will give (non-blank lines, one per .txt file),
    from a fast pass over the bytes: the length of the progress bar."""
    total = 0
    for path, _ in input_files(inputs):
        if not path.name.endswith(JSONL_SUFFIXES):
            total += 1
            continue
        try:
            with _open(path) as stream:
                for line in bounded_lines(stream, 1 << 20):
                    total += line is None or bool(line.strip())
        except UNREADABLE:
            total += 1  # the BadDocument read_documents gives where reading stops
    return total
