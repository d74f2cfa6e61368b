"""The cache folder's upkeep (issue 35: the model file and its reader used by every raw-text
path): a model's decompressed copy is used from a read-only cache, and a damaged copy is
refused and written anew."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

from wsd.systems.allwords import unpacked
from wsd.systems.allwords.modelfile import _read_members

COEF = np.linspace(-1, 1, 5_000, dtype=np.float32)
N_ROWS = np.arange(300, dtype=np.int32)


@pytest.fixture
def model(tmp_path, monkeypatch) -> Path:
    """An archive of two model members, copied at its first read into ``tmp_path / "cache"``
    (every file counts as large here)."""
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(unpacked, "MIN_COMPRESSED_BYTES", 0)
    path = tmp_path / "m.npz"
    np.savez_compressed(path, coef=COEF, n_rows=N_ROWS)
    return path


def _copy(cache: Path) -> Path:
    (folder,) = (p for p in cache.glob(f"{unpacked.PREFIX}*") if "." not in p.name)
    return folder


def _mapped(path: Path) -> bool:
    """Whether the members are read right, and mapped from the copy."""
    arrays = _read_members(path)
    assert np.array_equal(arrays["coef"], COEF) and np.array_equal(arrays["n_rows"], N_ROWS)
    return all(isinstance(array.base, np.memmap) for array in arrays.values())


def test_a_copy_in_a_cache_not_writable_here_is_used(model, monkeypatch):
    """Marking the copy used (for pruning) fails there; the copy is used all the same."""
    assert not _mapped(model) and _mapped(model)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "utime", refuse)
    assert _mapped(model)


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-4])


def _overwritten_in_place(path: Path) -> None:
    with open(path, "r+b") as stream:  # the same size; the last value changed
        stream.seek(-4, os.SEEK_END)
        stream.write(np.float32(900).tobytes())


def _replaced_by_another_dtype(path: Path) -> None:
    np.save(path, COEF.view(np.int32))  # the same size, its mtime as written
    os.utime(path, (unpacked.WRITTEN_MTIME, unpacked.WRITTEN_MTIME))


@pytest.mark.parametrize("damage", [_cut_short, _overwritten_in_place,
                                    _replaced_by_another_dtype])  # fmt: skip
def test_a_damaged_copy_is_refused_then_written_anew(model, damage):
    assert not _mapped(model)
    damage(_copy(model.parent / "cache") / "coef.npy")
    assert not _mapped(model)  # the archive's own values, and the copy written again
    assert _mapped(model)
    cache = model.parent / "cache"
    assert [p.name for p in cache.iterdir()] == [_copy(cache).name]


def test_a_copy_whose_bytes_are_not_the_archives_is_not_kept(model, tmp_path):
    """The written files are checked against the archive's CRC-32s once, when written."""
    with zipfile.ZipFile(model) as archive:
        info = archive.getinfo("coef.npy")
        data = bytearray(archive.read(info))
    member = unpacked.Member(info, COEF.shape, COEF.dtype)
    data[-1] ^= 1
    folder = tmp_path / "cache" / f"{unpacked.PREFIX}x"
    unpacked.write(folder, {"coef": bytes(data)}, {"coef": member})
    assert not folder.exists() and not list((tmp_path / "cache").iterdir())
