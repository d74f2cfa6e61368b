"""The cache folder's upkeep (issue 35: the model file and its reader used by every raw-text
path): a model's decompressed copy is used from a read-only cache."""

from __future__ import annotations

import os
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
