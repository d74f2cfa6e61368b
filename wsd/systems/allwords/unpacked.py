"""Decompressed copies of a large model file's arrays, kept in the cache folder
($WSD_CACHE_DIR, else ~/.cache/wsd, as the compiled lexicon), so that a cold start maps them
from disk instead of inflating them: a SemCor model's 90 MB of weights and names had cost
0.4 s of CPU at every call, of which a call on one sentence reads a few pages.

A copy is named after what the archive's directory says of its members (name, CRC-32 and
sizes, read without decompressing), so an edited or replaced model file gets its own; the
copies are plain ``.npy`` files (no pickle), written to a temporary folder and renamed, and
the file's checks (``modelfile.read_npz``) run on them as on freshly inflated arrays. Only
files of at least ``MIN_COMPRESSED_BYTES`` are copied; the ``KEEP`` copies used last are kept.
A copy that cannot be written or read is skipped: the arrays are then inflated as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wsd.knowledge.compiled import cache_dir

MIN_COMPRESSED_BYTES = 8 << 20  # a smaller file inflates in well under a tenth of a second
KEEP = 2  # model files whose copies are kept
PREFIX = "model-arrays-"


def folder_for(members: Sequence[zipfile.ZipInfo]) -> Path | None:
    """Where the copy of these members lives; None when they are too small to copy."""
    if sum(info.compress_size for info in members) < MIN_COMPRESSED_BYTES:
        return None
    digest = hashlib.sha1()
    for info in sorted(members, key=lambda info: info.filename):
        digest.update(f"{info.filename}\0{info.CRC}\0{info.file_size}\0{info.compress_size}\n"
                      .encode())  # fmt: skip
    return cache_dir() / f"{PREFIX}{digest.hexdigest()[:20]}"


def read(folder: Path, names: Sequence[str]) -> dict[str, np.ndarray] | None:
    """The arrays ``names`` mapped from the copy in ``folder``, or None without a whole one.
    A cache that is readable but not writable here is used all the same."""
    try:
        arrays = {name: np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r",
                                           allow_pickle=False)) for name in names}  # fmt: skip
    except (OSError, ValueError):
        return None
    with contextlib.suppress(OSError):  # e.g. a read-only cache: only the pruning order is lost
        os.utime(folder)  # used last: kept longest
    return arrays


def write(folder: Path, arrays: dict[str, np.ndarray]) -> None:
    """Keep a copy of ``arrays`` in ``folder`` (atomically: a temporary folder renamed), and
    remove all but the ``KEEP`` copies used last."""
    if folder.exists():  # written by another process, or not readable here
        return
    temporary = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
    try:
        temporary.mkdir(parents=True)
        for name, array in arrays.items():
            np.save(temporary / f"{name}.npy", array, allow_pickle=False)
        temporary.rename(folder)
    except OSError:  # no room, no permission, or another process wrote it first
        shutil.rmtree(temporary, ignore_errors=True)
        return
    copies = sorted(folder.parent.glob(f"{PREFIX}*"), key=_used, reverse=True)
    for old in copies[KEEP:]:
        if ".tmp-" not in old.name:
            shutil.rmtree(old, ignore_errors=True)


def _used(folder: Path) -> float:
    try:
        return folder.stat().st_mtime
    except OSError:
        return 0.0
