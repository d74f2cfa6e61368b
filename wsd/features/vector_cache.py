"""An on-disk cache of vectors, so repeated experiments do not re-encode a context.

Vectors live in ``<root>/<namespace>/*.npz`` shards (keys as sha256 hex digests, vectors
float32, read with ``allow_pickle=False``); the namespace names the model and the settings that
made them. Each ``put`` writes one new shard through a temporary file and a rename, so an
interrupted run leaves whole shards only. Nothing is kept in memory: ``rows`` reads the
shards one at a time and gives only the rows asked for, as float16 (a caller sums them into
its own array, so all-words training never holds SemCor's per-layer vectors), and ``put``
stores float16 values (on disk as float32, exactly), so a fresh vector and its read-back copy
are the same bits. The root is
``$WSD_CACHE_DIR`` or ``~/.cache/wsd``. A look-up reads each shard's keys and its vectors'
header, and its vectors only when it holds a key asked for. A shard that cannot be read or
holds anything but one float32 row per string key, all rows as wide as the folder's others,
or (when its vectors are read) a value that is not finite (a damaged or foreign file), is left
out with a one-line notice naming it: its vectors are encoded again, never used wrong. The cache
is an optimisation: a folder that cannot be written (read-only, a full disk, a path that is a
file) is reported once per process (:func:`note_unwritable`) and the run goes on with the
vectors in memory, the same bits; what the folder holds is still read.
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
import tempfile
import warnings
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np

from wsd.knowledge.compiled import cache_dir

# What reading a damaged or foreign .npz file raises (a cut zip, a bad member, a bad .npy header)
DAMAGED_NPZ = (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile, zlib.error,
               struct.error)


_NOTED: set[str] = set()  # the caches whose failed write this process has reported


def cache_root() -> Path:
    """The cache folder of every wsd cache (``compiled.cache_dir``: ``$WSD_CACHE_DIR``, ...)."""
    return cache_dir()


def digest(*parts: str) -> str:
    """sha256 of the parts, each ended by a unit separator (so ("ab", "c") != ("a", "bc"))."""
    return hashlib.sha256("".join(p + "\x1f" for p in parts).encode("utf-8")).hexdigest()


def note_unwritable(cache: str, folder: Path, error: OSError) -> None:
    """Say on stderr, once per process for each kind of ``cache``, that ``folder`` could not
    be written and why: a cache only saves time, so the caller goes on without it."""
    if cache in _NOTED:
        return
    _NOTED.add(cache)
    reason = ("a file, not a folder" if isinstance(error, FileExistsError)
              else (error.strerror or str(error)).lower())  # fmt: skip
    print(f"wsd: could not write the {cache} {folder} ({reason}); going on without it (this "
          "run's vectors will be encoded again next run)", file=sys.stderr)


class VectorCache:
    """Vectors by key under ``root / namespace``; shards are read when asked, one at a time."""

    def __init__(self, namespace: str, root: Path | None = None) -> None:
        self.folder = (root or cache_root()) / namespace

    def rows(self, wanted: Mapping[str, int]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """For each shard holding keys of ``wanted`` (key -> row of the caller's array): those
        rows and the float16 vectors, one shard in memory at a time. A shard's keys and its
        vectors' header are read first, its vectors only when it holds a key asked for (the
        keys are a seventh of a shard: a look-up in SemCor's vectors read them all)."""
        width = None
        for shard in sorted(self.folder.glob("*.npz")):
            try:
                with _Shard(shard) as opened:
                    keys, width = opened.keys(width)
                    hits = [i for i, key in enumerate(keys) if key in wanted]
                    matrix = opened.vectors() if hits else None
            except DAMAGED_NPZ as err:
                warnings.warn(f"vector cache shard {shard} left out ({err}); its vectors "
                              "will be encoded again", stacklevel=2)
                continue
            if matrix is not None:
                yield (np.array([wanted[keys[i]] for i in hits], dtype=np.int64),
                       matrix[hits].astype(np.float16))

    def get(self, keys: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors (float16 rows) among ``keys``."""
        keys = list(dict.fromkeys(keys))
        found: dict[str, np.ndarray] = {}
        for rows, vectors in self.rows({k: i for i, k in enumerate(keys)}):
            found.update((keys[row], vector) for row, vector in zip(rows, vectors, strict=True))
        return found

    def put(self, vectors: Mapping[str, np.ndarray]) -> None:
        """Store new vectors, rounded to float16 (one new shard); when the folder cannot be
        written, say so once (``note_unwritable``) and keep nothing."""
        if not vectors:
            return
        keys = np.array(list(vectors), dtype="U64")
        matrix = np.stack([np.asarray(v, dtype=np.float16) for v in vectors.values()])
        try:
            self._write(keys, matrix)
        except OSError as error:
            note_unwritable("vector cache", self.folder, error)

    def _write(self, keys: np.ndarray, matrix: np.ndarray) -> None:
        """One new shard of ``keys`` and their float16 ``matrix`` (on disk as float32),
        through a temporary file and a rename."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                np.savez(stream, keys=keys, vectors=matrix.astype(np.float32))
            os.replace(temporary, self.folder / f"{hashlib.sha256(keys.tobytes()).hexdigest()}.npz")
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


class _Shard:
    """One shard opened for reading: its keys (and its vectors' header) first, its vectors
    when asked; ValueError when it is not what ``put`` writes."""

    def __init__(self, path: Path) -> None:
        self._stream = open(path, "rb")  # closed even when np.load fails half-way
        try:
            self._data = np.load(self._stream, allow_pickle=False)
            if not isinstance(self._data, np.lib.npyio.NpzFile):
                raise ValueError("it is not an .npz archive")
        except BaseException:
            self._stream.close()
            raise

    def __enter__(self) -> _Shard:
        return self

    def __exit__(self, *exc) -> None:
        self._data.close()
        self._stream.close()

    def keys(self, width: int | None) -> tuple[list[str], int]:
        """The keys and the vectors' width, checked against each other and against the
        folder's ``width`` (None before the first shard)."""
        keys = self._data["keys"]
        if keys.ndim != 1 or keys.dtype.kind != "U":
            raise ValueError("its keys are not a list of strings")
        with self._data.zip.open("vectors.npy") as member:
            version = np.lib.format.read_magic(member)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"its vectors are in .npy format {version}")
            read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                    else np.lib.format.read_array_header_2_0)  # fmt: skip
            shape, _, dtype = read(member)
        if dtype != np.float32 or len(shape) != 2 or shape[0] != len(keys):
            raise ValueError(f"it holds {dtype} vectors of shape {shape} for {len(keys)} keys")
        if width is not None and shape[1] != width:
            raise ValueError(f"its vectors have {shape[1]} values, the folder's {width}")
        return keys.tolist(), shape[1]

    def vectors(self) -> np.ndarray:
        """The float32 rows, checked finite."""
        matrix = self._data["vectors"]
        if not np.isfinite(matrix).all():
            raise ValueError("it holds NaN or infinite values")
        return matrix
