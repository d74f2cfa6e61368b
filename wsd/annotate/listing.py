"""The input files of ``wsd annotate``: the paths given, folders walked in sorted order, each
file read once, and nothing left out unsaid.

A folder's symbolic links are followed (to a file or a folder); a link to a folder or file
read already (a loop back to a folder above it, a second way to one) and files of other types
are left out with a notice naming them. An entry that would be read but cannot be (a dangling
link, a FIFO, a device, an unreadable file or folder) is an error naming it, before any work.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wsd.persistence import file_sha256, regular_file

JSONL_SUFFIXES = (".jsonl", ".jsonl.gz")  # a document a line; .txt files are one each
SUFFIXES = (".txt", ".txt.gz", *JSONL_SUFFIXES)


@dataclass
class _Walk:
    """What walking the inputs found: the files to read, and what was left out."""

    files: list[tuple[Path, str]] = field(default_factory=list)
    read: dict[tuple[int, int], Path] = field(default_factory=dict)  # (device, inode) -> path
    others: list[Path] = field(default_factory=list)  # files of other types
    repeats: list[tuple[Path, Path]] = field(default_factory=list)  # (link, read already as)


def input_files(inputs: Sequence[str | os.PathLike], *, note_left_out: bool = False
                ) -> list[tuple[Path, str]]:  # fmt: skip
    """``(path, name)`` of every input file, folders expanded (sorted); ``name`` is the path
    as given, or below the folder given, and names .txt documents. ValueError for a missing,
    unreadable or special input, one given twice, or a file of another type; with
    ``note_left_out``, a notice of what a folder holds that is not read, and why."""
    _check_given_once(inputs)
    walk = _Walk()
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            start = len(walk.others), len(walk.repeats)
            _walk_folder(path, path, walk)
            if note_left_out:
                _note_left_out(path, walk.others[start[0]:], walk.repeats[start[1]:])
        elif path.is_file() and not _known(path):
            raise ValueError(f"{path}: not an input wsd annotate reads (give "
                             f"{', '.join(SUFFIXES)} files or folders of them)")
        elif not _add_file(path, str(given), walk):
            raise ValueError(f"input {str(given)!r} is read already as "
                             f"{str(walk.repeats[-1][1])!r} (a symbolic link leads there): "
                             "give each file once")
    if not walk.files:
        raise ValueError(f"no {', '.join(SUFFIXES)} files in {', '.join(map(str, inputs))}")
    _check_names_apart(walk.files)
    return walk.files


def _check_names_apart(files: Sequence[tuple[Path, str]]) -> None:
    """ValueError when two .txt files would be documents of one id (the path below the folder
    given: ``x/a.txt`` and ``y/a.txt`` of the inputs ``x`` and ``y``), before any work."""
    first: dict[str, Path] = {}
    for path, name in files:
        if path.name.endswith(JSONL_SUFFIXES):
            continue
        if first.setdefault(name, path) != path:
            raise ValueError(f"inputs {str(first[name])!r} and {str(path)!r} would both be the "
                             f"document {name!r} (a .txt document's id is its path below the "
                             "folder given): give the folder that holds both, or rename one")


def _check_given_once(inputs: Sequence[str | os.PathLike]) -> None:
    """ValueError when an input is given twice, or lies in a folder given too: its documents
    would be annotated twice."""
    seen: dict[Path, str] = {}
    for given in inputs:
        real = Path(os.path.realpath(given))
        for other, name in seen.items():
            twice = "is given twice" + (f" (as {name!r})" if name != str(given) else "")
            how = (twice if real == other else f"lies in the input folder {name!r}"
                   if other in real.parents else f"holds the input {name!r}")
            if real == other or other in real.parents or real in other.parents:
                raise ValueError(f"input {str(given)!r} {how}: its documents would be annotated "
                                 "twice; give each input once")
        seen[real] = str(given)


def _walk_folder(folder: Path, top: Path, walk: _Walk) -> None:
    """Add the files below ``folder`` in sorted order (that of their paths), following links;
    ``top`` is the folder given, that names .txt documents."""
    key = _identity(folder)
    if key in walk.read:
        walk.repeats.append((folder, walk.read[key]))
        return
    walk.read[key] = folder
    try:
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries)
        folders = {name for name in names if (folder / name).is_dir()}  # links to folders too
    except OSError as err:
        raise ValueError(f"folder {str(folder)!r} cannot be read ({err.strerror}); wsd annotate "
                         "would leave its files out: make it readable or move it away") from None
    for name in names:
        path = folder / name
        if name in folders:
            _walk_folder(path, top, walk)
        elif not _known(path):
            walk.others.append(path)
        else:
            _add_file(path, str(path.relative_to(top)), walk)


def _add_file(path: Path, name: str, walk: _Walk) -> bool:
    """Add the input file ``path`` (a link to one too) unless it is read already (False);
    ValueError naming it when it cannot be read."""
    if path.is_symlink() and not path.exists():
        raise ValueError(f"input {str(path)!r} is a symbolic link that leads to no file (to "
                         f"{os.readlink(path)!r}: missing, or a loop of links): remove the link "
                         "or restore its file")
    if not path.exists():
        raise ValueError(f"input {str(path)!r} does not exist")
    regular_file(path, "input")  # a device, FIFO or socket: ValueError naming it
    if not os.access(path, os.R_OK):
        raise ValueError(f"input {str(path)!r} cannot be read (permission denied): make it "
                         "readable or move it away")
    key = _identity(path)
    if key in walk.read:
        walk.repeats.append((path, walk.read[key]))
        return False
    walk.read[key] = path
    walk.files.append((path, name))
    return True


def _identity(path: Path) -> tuple[int, int]:
    """The device and inode ``path`` leads to: the same for every way to one file or folder."""
    status = os.stat(path)
    return status.st_dev, status.st_ino


def _note_left_out(folder: Path, others: Sequence[Path],
                   repeats: Sequence[tuple[Path, Path]]) -> None:  # fmt: skip
    """One-line notices of a folder's files of other types and its links to what is read
    already, so none is left out unsaid (a folder of ``.md`` notes annotates nothing of them)."""
    if others:
        kinds = Counter(p.suffix.lower() or p.name for p in others)
        listed = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        warnings.warn(f"{folder}: left out {len(others)} file(s) of other types ({listed}); "
                      f"wsd annotate reads {', '.join(SUFFIXES)}", stacklevel=3)
    if repeats:
        listed = "; ".join(f"{link} (read as {first})" for link, first in repeats[:5])
        more = f"; and {len(repeats) - 5} more" if len(repeats) > 5 else ""
        warnings.warn(f"{folder}: left out {len(repeats)} folder(s) or file(s) read already "
                      f"by another path (symbolic links), each read once: {listed}{more}",
                      stacklevel=3)


def check_out_apart(out: str | os.PathLike, inputs: Sequence[str | os.PathLike],
                    files: Sequence[tuple[Path, str]] = ()) -> None:  # fmt: skip
    """ValueError when the ``--out`` folder is an input folder or inside one (its part files
    would be read as input by the next run) or holds an input file (a part file written
    over it), a link in an input folder leading into it included (``files``: the inputs'
    files)."""
    folder = Path(os.path.realpath(out))
    for given in inputs:
        path = Path(os.path.realpath(given))
        if folder == path or path in folder.parents or folder in path.parents:
            raise ValueError(f"--out {out}: the output folder and the input {given} overlap; the "
                             "part files would be read as input, or written over it: give an "
                             "--out folder apart from the inputs")
    for path, _ in files:
        if folder in Path(os.path.realpath(path)).parents:
            raise ValueError(f"--out {out}: the input {path} lies in the output folder (through "
                             "a symbolic link); give an --out folder apart from the inputs")


def input_fingerprint(files: Sequence[tuple[Path, str]]) -> dict[str, int | str]:
    """How many input files there are and a SHA-256 over their names and contents: a re-run
    in the same ``--out`` folder resumes only when the files are as they were (the paths
    given, a folder's, say nothing of a file added, removed or edited since; an edit that
    keeps the size and modification time is caught too)."""
    digest = hashlib.sha256()
    for path, name in files:
        digest.update(f"{name}\t{file_sha256(path)}\n".encode())
    return {"count": len(files), "sha256": digest.hexdigest()}


def _known(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)
