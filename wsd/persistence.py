"""Versioned JSON model files: save a model, load it back, never unpickle anything.

A model file is one JSON object::

    {"format": "wsd-model", "version": 1, "kind": "MulticlassAveragedPerceptron",
     "params": {...}, "state": {...}}

``kind`` names a class registered with :func:`register_model`; that class turns itself into a
JSON-able dict with ``to_dict()`` (which already carries ``kind``) and back with the
classmethod ``from_dict(d)``.  Because every such dict names its own kind, a composite model
(a featurizer plus a learner) can nest the dicts of its parts and rebuild them with
:func:`object_from_dict`. Other file formats (the all-words ``.npz``) are registered by their
own modules with :func:`register_format`, so :func:`load_model` reads every model file and
knows no system.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import importlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from math import isfinite
from pathlib import Path
from typing import IO, Any, TypeVar

FORMAT = "wsd-model"
VERSION = 1
MAX_JSON_DEPTH = 64  # deeper nesting is refused before any reader recurses into it
MAX_JSON_MODEL_BYTES = 1 << 30  # a JSON model is parsed whole: memory several times its size

# Modules that register model kinds and file formats, by name (they sit above this module):
# imported on demand, so that load_model reads every model file whatever the caller imported.
_MODEL_MODULES = ("wsd.learners.binary", "wsd.learners.multiclass", "wsd.learners.voted",
                  "wsd.learners.glosses", "wsd.systems.supervised", "wsd.systems.allwords.system")
_REGISTRY: dict[str, type] = {}

T = TypeVar("T", bound=type)


@dataclass(frozen=True)
class ModelFormat:
    """A model-file format besides the JSON one: its files start with ``magic``, ``load``
    reads one into an instance of ``cls``."""

    magic: bytes
    cls: type
    load: Callable[[Path], Any]


_FORMATS: list[ModelFormat] = []


def register_format(magic: bytes, cls: type, load: Callable[[Path], Any]) -> None:
    """Let :func:`load_model` read files starting with ``magic`` with ``load``."""
    if all(found.magic != magic for found in _FORMATS):
        _FORMATS.append(ModelFormat(magic, cls, load))


def _file_format(head: bytes) -> ModelFormat | None:
    """The registered format whose files start like ``head`` (the model modules are imported
    first when none does), else None: a JSON file, or none of ours."""
    for attempt in range(2):
        found = next((f for f in _FORMATS if head.startswith(f.magic)), None)
        if found is not None or attempt:
            return found
        for module in _MODEL_MODULES:
            importlib.import_module(module)
    return None


def register_model(cls: T) -> T:
    """Class decorator: let files whose ``kind`` is ``cls.__name__`` be loaded as ``cls``."""
    _REGISTRY[cls.__name__] = cls
    return cls


def model_kind(kind: str) -> type:
    """The registered class for ``kind``; ValueError listing the known kinds otherwise."""
    if kind not in _REGISTRY:
        for module in _MODEL_MODULES:
            importlib.import_module(module)
    if kind not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise ValueError(f"unknown model kind {kind!r}; known kinds: {known}")
    return _REGISTRY[kind]


def object_from_dict(data: dict[str, Any], expected: type | None = None) -> Any:
    """Rebuild the object a ``to_dict()`` produced, dispatching on its ``kind`` field.

    With ``expected``, the kind must be that class or a subclass of it.
    """
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("a model dict must be a JSON object with a 'kind' field")
    cls = model_kind(data["kind"])
    if expected is not None and not issubclass(cls, expected):
        raise OtherKindError(_other_kind(data["kind"], expected.__name__))
    return cls.from_dict(data)


class OtherKindError(ValueError):
    """A model of another kind than the one expected."""


# The commands that write each kind of model file, for errors that meet the other kind.
MADE_BY = {"SupervisedWSD": "wsd train", "AllWordsWSD": "wsd allwords --save"}


def _other_kind(found: str, expected: str) -> str:
    """*holds a SupervisedWSD model (from `wsd train`), not an AllWordsWSD (from ...)*."""
    def named(kind: str, noun: str = "") -> str:
        made = f" (from `{MADE_BY[kind]}`)" if kind in MADE_BY else ""
        return f"{'an' if kind[:1] in 'AEIOU' else 'a'} {kind}{noun}{made}"

    return f"holds {named(found, ' model')}, not {named(expected)}"


def save_model(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` (a registered model) to ``path`` as a versioned JSON model file."""
    path = Path(path)
    body = obj.to_dict()
    if body.get("kind") not in _REGISTRY:
        raise ValueError(f"{type(obj).__name__} is not a registered model kind; cannot save it")
    payload = {"format": FORMAT, "version": VERSION, **body}
    text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
    return write_text_atomic(path, text + "\n")


def load_model(path: str | Path, expected: type | None = None) -> Any:
    """Read a model file written by :func:`save_model`.

    Raises ValueError naming the file when it is not JSON (a pickle, say), not a wsd model
    file, written by a newer version of the format, or holds a different model than
    ``expected``.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"load_model takes the model file's path (a str or pathlib.Path), not "
                        f"{type(path).__name__}")
    if not str(path).strip():
        raise ValueError("load_model: the model file's path is empty")
    path = regular_file(Path(path).expanduser(), "model file")  # a FIFO would hang
    with open(path, "rb") as stream:
        found = _file_format(stream.read(16))
    if found is not None:
        if expected is not None and not issubclass(found.cls, expected):
            raise _bad_file(path, _other_kind(found.cls.__name__, expected.__name__))
        return found.load(path)
    if path.stat().st_size > MAX_JSON_MODEL_BYTES:
        raise _bad_file(path, f"is larger than {MAX_JSON_MODEL_BYTES:,} bytes: not a JSON model "
                              "file wsd wrote")
    raw = path.read_bytes()
    if raw[:1] == b"\x80":
        raise _bad_file(path, "looks like a pickle file; wsd never loads pickles (they can run "
                              "code). Re-train the model and save it with save_model()")
    if not raw.strip():
        raise _bad_file(path, "is empty: not a model file")
    if not _JSON_START.match(raw) and not raw.startswith(WIDE_BOMS):  # UTF-16: said below
        raise _bad_file(path, "is not a model file wsd wrote: neither an .npz archive (a zip "
                              f"file) nor a JSON object (it starts {raw[:8]!r})")
    try:
        payload = loads_json(raw.decode("utf-8"), str(path))
    except UnicodeDecodeError as err:
        raise _bad_file(path, f"is not a JSON model file (not UTF-8: {err})") from None
    except ValueError as err:
        raise _bad_file(path, f"is not a JSON model file: {err}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        found = payload.get("format") if isinstance(payload, dict) else type(payload).__name__
        raise _bad_file(path, f"is not a wsd model file (format {found!r}, expected {FORMAT!r})")
    version = payload.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _bad_file(path, f"has no valid format version (found {version!r})")
    if version > VERSION:
        raise _bad_file(path, f"uses model format version {version}, but this wsd reads up to "
                              f"version {VERSION}; upgrade wsd to load it")
    try:
        return object_from_dict(payload, expected)
    except OtherKindError as err:
        raise _bad_file(path, str(err)) from None
    except ImportError as err:  # e.g. contextual features without the [context] extra
        raise type(err)(f"model file {str(path)!r}: {err}") from err
    except KeyError as err:
        raise _bad_file(path, f"could not be loaded: the field {err} is missing") from err
    except MALFORMED_DATA_ERRORS as err:  # a part of the wrong type or shape
        raise _bad_file(path, f"could not be loaded: {err}") from err


# How a JSON value starts (after a byte-order mark and spaces): a file starting otherwise is
# not JSON at all, and its JSON syntax error would only mislead.
_JSON_START = re.compile(rb'(?:\xef\xbb\xbf)?\s*(?:[{\["\-0-9]|true|false|null)')


def _bad_file(path: Path, problem: str) -> ValueError:
    return ValueError(f"model file {str(path)!r} {problem}")


# What rebuilding an object from JSON of the wrong shape raises (a string where a list should
# be, a list too short, a counter of 0); load_model turns them into a ValueError naming the file.
MALFORMED_DATA_ERRORS = (TypeError, ValueError, AttributeError, IndexError, OverflowError,
                         ZeroDivisionError)


def loads_json(text: str, source: str) -> Any:
    """Parse JSON strictly: no NaN / Infinity, no number that overflows to infinity (1e999), no
    nesting deeper than MAX_JSON_DEPTH. Every problem is a ValueError starting with ``source``
    (and the line, for syntax errors)."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as err:
        raise ValueError(f"{source}:{err.lineno}: not valid JSON ({err.msg} at column "
                         f"{err.colno})") from None
    except RecursionError:
        raise ValueError(f"{source}: JSON nested too deeply") from None
    except ValueError as err:  # a refused constant, or an integer too long to convert
        raise ValueError(f"{source}: {err}") from None
    check_json_depth(value, source)
    escape = _SURROGATE_ESCAPE.search(text) if "\\u" in text else None  # a fast first look
    if escape is not None and _has_surrogate(value):
        line = text.count("\n", 0, escape.start()) + 1
        raise ValueError(f"{source}:{line}: a \\u{escape.group(1)} escape is a lone surrogate, "
                         "not a character; it could never be written as UTF-8")
    return value


# A JSON \\uD800-\\uDFFF escape (an even run of backslashes before it is text, not an escape).
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u([dD][89a-fA-F][0-9a-fA-F]{2})")


def _has_surrogate(value: Any) -> bool:
    """Whether a string of the parsed JSON ``value`` holds a lone surrogate (a pair of
    escapes makes one character, which is fine)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number (only finite numbers are allowed)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large (only finite numbers are allowed)")
    return value


# A Windows "Unicode" file's start (UTF-16 or UTF-32 byte-order marks).
WIDE_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)


def read_text(path: str | os.PathLike, encoding: str = "utf-8-sig") -> str:
    """A UTF-8 text file's content (a leading BOM dropped); ValueError naming the file and the
    line of the first byte that is not UTF-8 (or not ``encoding``), or of a character no text
    file holds (:func:`check_text`)."""
    text = decode_text(read_bytes(path), str(path), encoding)
    check_text(text, str(path))
    return text


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_identity(path: str | os.PathLike) -> tuple[int, ...]:
    """What tells a file's contents apart without reading them: its device, inode, size and
    modification and change times. A file replaced in place with its size and modification
    time put back (``cp``, then ``touch -r``) still has another change time, which no user
    can set."""
    status = os.stat(path)
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns,
            status.st_ctime_ns)


def regular_file(path: str | os.PathLike, what: str = "") -> Path:
    """``path`` once it is known to be a regular file (a symbolic link to one too); ValueError
    naming it (and ``what``, a flag) for a device, FIFO or socket, which could hang a reader
    (a FIFO with no writer) or never end (``/dev/zero``); FileNotFoundError / IsADirectoryError
    as ``open`` gives them."""
    path = Path(path)
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "Is a directory", str(path))
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or \
            stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "a special file"
        where = f"{what} {str(path)!r}" if what else str(path)
        raise ValueError(f"{where} is {kind}, not a regular file; wsd reads inputs from "
                         "regular files (and stdin where the command says so)")
    return path


def read_bytes(path: str | os.PathLike, what: str = "") -> bytes:
    """The bytes of the regular file ``path`` (see :func:`regular_file`)."""
    return regular_file(path, what).read_bytes()


class TextDecodeError(ValueError):
    """Bytes that are not text in the encoding: ``line`` of the first bad byte, ``problem``."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")
        self.line, self.problem = line, problem


def codec_name(encoding: str) -> str:
    """The codec name of an ``--encoding`` (*latin1* -> iso8859-1); ValueError for an unknown
    one."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise ValueError(f"--encoding: unknown encoding {encoding!r} (e.g. utf-8, latin-1, "
                         "cp1252)") from None


def decode_text(raw: bytes, source: str, encoding: str = "utf-8-sig") -> str:
    """``raw`` decoded; TextDecodeError naming ``source`` and the line of the first bad byte. A
    UTF-16 or UTF-32 byte-order mark (a Windows "Unicode" text file) gives the encoding
    where none but UTF-8 was asked for."""
    if encoding == "utf-8-sig" and raw.startswith(WIDE_BOMS):
        encoding = "utf-32" if raw.startswith(WIDE_BOMS[2:]) else "utf-16"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        name = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8", "utf-8-sig", "utf8") \
            else encoding
        raise TextDecodeError(source, line, f"not {name} text ({error.reason} at byte "
                                            f"{error.start})") from None


def text_lines(path: str | os.PathLike, max_bytes: int) -> Iterator[str | None]:
    """The lines of a UTF-8 text file (``\\n`` cut off; a leading byte-order mark dropped), read
    one at a time so memory holds one line; None for a line longer than ``max_bytes`` (read
    past, never held whole). TextDecodeError names the line as :func:`read_text` does. A file
    with a UTF-16 or UTF-32 byte-order mark is decoded whole, then split."""
    path = regular_file(path)
    with open(path, "rb") as stream:
        if stream.read(4).startswith(WIDE_BOMS):
            yield from read_text(path).split("\n")
            return
        stream.seek(0)
        offset = 0
        for number, raw in enumerate(bounded_lines(stream, max_bytes), start=1):
            if raw is None:
                yield None
                continue
            start = len(codecs.BOM_UTF8) if number == 1 and raw.startswith(codecs.BOM_UTF8) else 0
            try:
                line = raw[start:].decode("utf-8")
            except UnicodeDecodeError as error:
                raise TextDecodeError(str(path), number, f"not UTF-8 text ({error.reason} at "
                                                         f"byte {offset + start + error.start})"
                                      ) from None
            check_text(line, str(path), number)
            offset += len(raw)
            yield line.removesuffix("\n")


def bounded_lines(stream: IO[bytes], max_bytes: int) -> Iterator[bytes | None]:
    """The lines of ``stream``; None for a line longer than ``max_bytes``."""
    while True:
        line = stream.readline(max_bytes + 1)
        if not line:
            return
        if len(line) > max_bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = stream.readline(1 << 20)
            yield None
        else:
            yield line


def check_text(text: str, source: str, first_line: int = 1, *,
               writable_only: bool = False) -> None:
    """TextDecodeError naming ``source`` and the line of a character no text file holds: a NUL
    (the sign of UTF-16 or UTF-32 text without its byte-order mark, read as UTF-8, which would
    otherwise pass as text of single letters), a lone surrogate (from a JSON ``\\ud800``
    escape: it could never be written back as UTF-8), or a byte-order mark after the start (a
    file joined from two files: the mark would become part of a word). ``writable_only``:
    only lone surrogates (text read in an encoding given, or from JSON escapes)."""
    pattern = _LONE_SURROGATE if writable_only else _BAD_CHARACTER
    bad = pattern.search(text, 1 if first_line == 1 and text.startswith("\ufeff") else 0)
    if bad is None:
        return
    line = text.count("\n", 0, bad.start()) + first_line
    char = bad.group()
    problem = ("holds a NUL character: is it UTF-16 or UTF-32 text without a byte-order mark? "
               "Save it as UTF-8" if char == "\0" else
               "holds a byte-order mark (U+FEFF) after the start of the file (two files "
               "joined?); delete it" if char == "\ufeff" else
               f"holds a lone surrogate (U+{ord(char):04X}), which is not a character and "
               "cannot be written as UTF-8")
    raise TextDecodeError(source, line, problem)


_BAD_CHARACTER = re.compile("[\0\ufeff\ud800-\udfff]")


def check_json_depth(value: Any, source: str, limit: int = MAX_JSON_DEPTH) -> None:
    """ValueError when lists / objects nest deeper than ``limit`` (checked without recursion,
    one level at a time: only containers are kept, a model's metadata holds mostly numbers)."""
    containers = (dict, list)
    level, depth = ([value] if isinstance(value, containers) else []), 0
    while level:
        depth += 1
        if depth > limit:
            raise ValueError(f"{source}: JSON nested more than {limit} levels deep")
        below: list[Any] = []
        for item in level:
            below += [child for child in (item.values() if isinstance(item, dict) else item)
                      if isinstance(child, containers)]  # fmt: skip
        level = below


def check_output_path(path: str | os.PathLike, what: str = "output",
                      inputs: Iterable[str | os.PathLike | None] = ()) -> Path:
    """``path`` as a Path once its folder is known to exist and be writable, it is not a
    special file (a device, FIFO or socket: the rename that writes an output would replace
    it) and it is none of the job's ``inputs`` (writing it would destroy one), so a long job
    does not fail at the end and loses no file; ValueError naming the path otherwise. A
    symbolic link is written through: its target gets the output. Call it before training."""
    path = Path(path).expanduser()
    target = _write_target(path, what)
    folder = target.parent
    if not folder.is_dir():
        raise ValueError(f"{what} {str(path)!r}: the folder {str(folder)!r} does not exist; "
                         "create it first")
    if target.is_dir():
        raise ValueError(f"{what} {str(path)!r} is a folder; give a file name")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(path)!r}: the folder {str(folder)!r} is not writable")
    if _write_protected(target):
        raise ValueError(f"{what} {str(path)!r} is write-protected; wsd does not replace it (as "
                         "a shell's > would not): make it writable or give another name")
    for given in inputs:
        if given is not None and target.exists() and Path(given).is_file() \
                and os.path.samefile(target, given):
            raise ValueError(f"{what} {str(path)!r} is also an input of this command "
                             f"({str(given)!r}); writing it would destroy that input, so give "
                             "another file name")
    return path


def check_outputs_apart(outputs: dict[str, str | os.PathLike | None]) -> None:
    """ValueError when two outputs of one command (flag -> path) are one file: the second
    written would replace the first."""
    seen: dict[str, str] = {}
    for flag, given in outputs.items():
        if given is None:
            continue
        where = os.path.realpath(given)
        if where in seen:
            raise ValueError(f"{seen[where]} and {flag} both name {str(given)!r}; the second "
                             "would overwrite the first: give two file names")
        seen[where] = flag


def _write_target(path: Path, what: str = "output") -> Path:
    """Where writing ``path`` puts the bytes: the target of a symbolic link (written through,
    the link kept); ValueError when an existing file there is not a regular file."""
    if path.name in ("", ".", ".."):
        raise ValueError(f"{what} {str(path)!r} names no file; give a file name")
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return target  # nothing there yet (or a dangling link's target to be created)
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise ValueError(f"{what} {str(path)!r} exists and is not a regular file (a device, FIFO "
                         "or socket); wsd writes outputs by renaming a new file over the old "
                         "one, which would replace it: give a regular file's name")
    return target


def _write_protected(target: Path) -> bool:
    """Whether ``target`` is a file this process may not write (renaming over it would)."""
    return target.is_file() and not os.access(target, os.W_OK)


def _named(error: OSError, path: Path, temp_name: str) -> OSError:
    """``error`` naming ``path`` where it named no file or the hidden temporary one."""
    if error.filename in (None, temp_name) and error.errno is not None:
        return type(error)(error.errno, error.strerror, str(path))
    return error


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                newline: str | None = None) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; on success it replaces ``path`` in
    one step (``os.replace``), on any error it is removed and ``path`` is left as it was. A
    crash half-way through a save can therefore never leave a truncated output. A symbolic
    link is written through (its target replaced, the link kept); a device, FIFO or socket is
    refused (ValueError); an OSError names ``path``, never the temporary file."""
    given = Path(path).expanduser()
    path = _write_target(given)
    if _write_protected(path):
        raise PermissionError(errno.EACCES, "write-protected; wsd does not replace it",
                              str(given))
    binary = "b" in mode
    try:
        handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".tmp")
    except OSError as err:  # it names the temporary file, which the user never gave
        raise _named(err, given, err.filename) from None
    try:
        with os.fdopen(handle, mode, encoding=None if binary else encoding,
                       newline=None if binary else newline) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, _file_mode(path))
        os.replace(temp_name, path)
    except BaseException as err:
        Path(temp_name).unlink(missing_ok=True)
        named = _named(err, path, temp_name) if isinstance(err, OSError) else err
        if named is not err:
            raise named from err
        raise


def write_text_atomic(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_open`."""
    with atomic_open(path) as stream:
        stream.write(text)
    return Path(path).expanduser()


def _file_mode(path: Path) -> int:
    """The existing file's permissions, else the usual ones for a new file (0o666 - umask)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
