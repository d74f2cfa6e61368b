"""Decompressed copies of a large model file's arrays, kept in the cache folder
($WSD_CACHE_DIR, else ~/.cache/wsd, as the compiled lexicon), so that a cold start maps them
from disk instead of inflating them: a SemCor model's 90 MB of weights and names had cost
0.4 s of CPU at every call, of which a call on one sentence reads a few pages.

A copy is named after what the archive's directory says of its members (name, CRC-32 and
sizes, read without decompressing), so an edited or replaced model file gets its own; the
copies are the members' own ``.npy`` bytes (no pickle), written to a temporary folder, checked
against the CRC-32s the archive records, and renamed. A copy is used only when each file has
its member's size, ``.npy`` shape and dtype, and the modification time given at writing (a
file cut short, replaced or written to since is refused, then set aside and written anew); the
file's checks (``modelfile.read_npz``) then run on the arrays as on freshly inflated ones.
Only files of at least ``MIN_COMPRESSED_BYTES`` are copied; the ``KEEP`` copies used last are
kept, and what killed writes left (``.tmp-PID``, ``.old-PID``, their process gone) is removed.
A copy that cannot be written or read is skipped: the arrays are then inflated as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from wsd.knowledge.compiled import cache_dir

MIN_COMPRESSED_BYTES = 8 << 20  # a smaller file inflates in well under a tenth of a second
KEEP = 2  # model files whose copies are kept
PREFIX = "model-arrays-"
WRITTEN_MTIME = 1_000_000_000  # each copied file's mtime: a write to it since changes it
_UNFINISHED = re.compile(r"\.(?:tmp|old)-(\d+)$")  # a write's folder, or a copy set aside


class Member(NamedTuple):
    """What the archive says of one ``.npy`` member: its directory entry and header."""

    info: zipfile.ZipInfo
    shape: tuple[int, ...]
    dtype: np.dtype


def folder_for(members: Sequence[zipfile.ZipInfo]) -> Path | None:
    """Where the copy of these members lives; None when they are too small to copy."""
    if sum(info.compress_size for info in members) < MIN_COMPRESSED_BYTES:
        return None
    digest = hashlib.sha1()
    for info in sorted(members, key=lambda info: info.filename):
        digest.update(f"{info.filename}\0{info.CRC}\0{info.file_size}\0{info.compress_size}\n"
                      .encode())  # fmt: skip
    return cache_dir() / f"{PREFIX}{digest.hexdigest()[:20]}"


def read(folder: Path, members: Mapping[str, Member]) -> dict[str, np.ndarray] | None:
    """The arrays of ``members`` mapped from the copy in ``folder``, or None without a whole,
    unchanged one. A cache that is readable but not writable here is used all the same."""
    try:
        arrays = {name: _mapped(folder / f"{name}.npy", member)
                  for name, member in members.items()}  # fmt: skip
    except (OSError, ValueError):
        return None
    with contextlib.suppress(OSError):  # e.g. a read-only cache: only the pruning order is lost
        os.utime(folder)  # used last: kept longest
    return arrays


def _mapped(path: Path, member: Member) -> np.ndarray:
    """The array mapped from ``path``; ValueError unless the file is as written from
    ``member`` (its size and mtime: a few bytes of a stat, not a hash of the file)."""
    status = path.stat()
    if status.st_size != member.info.file_size or status.st_mtime != WRITTEN_MTIME:
        raise ValueError(f"{path} is not the copy of {member.info.filename} written")
    array = np.load(path, mmap_mode="r", allow_pickle=False)
    if array.shape != member.shape or array.dtype != member.dtype:
        raise ValueError(f"{path} does not hold {member.info.filename}'s shape and dtype")
    return np.asarray(array)


def write(folder: Path, blobs: Mapping[str, bytes], members: Mapping[str, Member]) -> None:
    """Keep the members' bytes ``blobs`` (as the archive holds them) as ``.npy`` files in
    ``folder``, replacing a damaged copy; then remove what killed writes left and all but the
    ``KEEP`` copies used last. Atomic: written to a temporary folder, checked, renamed."""
    if folder.exists():
        if read(folder, members) is not None:  # written meanwhile by another process
            return
        _set_aside(folder)
    _remove_unfinished(folder.parent)
    temporary = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    try:
        temporary.mkdir(parents=True)
        for name, data in blobs.items():
            (temporary / f"{name}.npy").write_bytes(data)
        _check_written(temporary, members)
        temporary.rename(folder)
    except (OSError, ValueError):  # no room, no permission, a bad write, or written meanwhile
        shutil.rmtree(temporary, ignore_errors=True)
        return
    _prune(folder.parent)


def _check_written(folder: Path, members: Mapping[str, Member]) -> None:
    """ValueError unless each file in ``folder`` reads back with the CRC-32 that the archive
    records for its member (once per copy: a write that went wrong is never used); then
    gives each file the mtime that ``read`` expects."""
    for name, member in members.items():
        path = folder / f"{name}.npy"
        crc = 0
        with open(path, "rb") as stream:
            while chunk := stream.read(1 << 22):
                crc = zlib.crc32(chunk, crc)
        if crc != member.info.CRC:
            raise ValueError(f"{path} was not written as the archive holds {name}")
        os.utime(path, (WRITTEN_MTIME, WRITTEN_MTIME))


def _set_aside(folder: Path) -> None:
    """Remove a damaged copy, renamed aside first so that a reader finds the whole folder or
    none of it (a reader that mapped its files keeps them)."""
    aside = folder.with_name(f"{folder.name}.old-{os.getpid()}")
    try:
        folder.rename(aside)
    except OSError:  # set aside by another process already, or not ours to change
        return
    shutil.rmtree(aside, ignore_errors=True)


def _remove_unfinished(cache: Path) -> None:
    """Remove the folders of writes killed half-way (``.tmp-PID``, ``.old-PID``): only those
    whose process is gone, never one that a live process may still be writing."""
    for path in cache.glob(f"{PREFIX}*"):
        unfinished = _UNFINISHED.search(path.name)
        if unfinished and not _alive(int(unfinished[1])):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may be running: False only when the system says it is not."""
    if os.name == "nt":  # os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process, or not a process id
        return True
    return True


def _prune(cache: Path) -> None:
    """Remove all but the ``KEEP`` copies used last."""
    copies = [path for path in cache.glob(f"{PREFIX}*") if not _UNFINISHED.search(path.name)]
    for old in sorted(copies, key=_used, reverse=True)[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)


def _used(folder: Path) -> float:
    try:
        return folder.stat().st_mtime
    except OSError:
        return 0.0
