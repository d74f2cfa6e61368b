"""The cache folder's upkeep (issue 35: the model file and its reader used by every raw-text
path): a model's decompressed copy is used from a read-only cache, a damaged copy is refused
and written anew, what killed writes left is removed, and the compiled lexicon is not
compiled into a full disk or a file."""

from __future__ import annotations

import io
import os
import time
import zipfile
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest

from wsd.knowledge import compiled, lexicon_compiler
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


def test_what_killed_writes_left_is_removed_unless_its_process_lives(model, monkeypatch):
    cache = model.parent / "cache"
    left = {f"{unpacked.PREFIX}a.tmp-111": False, f"{unpacked.PREFIX}b.old-222": False,
            f"{unpacked.PREFIX}c.tmp-333": True, f"{unpacked.PREFIX}d.tmp-444": True}
    for name in left:
        (cache / name).mkdir(parents=True)
        (cache / name / "coef.npy").write_bytes(b"half")

    def kill(pid: int, signal: int) -> None:
        assert signal == 0
        if pid in (111, 222):
            raise ProcessLookupError(3, "No such process")
        if pid == 444:
            raise PermissionError(1, "Operation not permitted")  # another user's process

    monkeypatch.setattr(os, "kill", kill)
    assert not _mapped(model)  # the copy written, and the dead processes' folders removed
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [_copy(cache).name, *(name for name, alive in left.items() if alive)])


class _NoLexicon:
    """``compiled.active`` when no compiled lexicon is found."""

    def __call__(self) -> None:
        return None

    def cache_clear(self) -> None:
        pass


@pytest.fixture
def compiling(tmp_path, monkeypatch) -> list[Path]:
    """``lexicon_compiler.ensure`` set to compile into ``tmp_path / "cache"``, recording the
    paths it would build instead of building them."""
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(lexicon_compiler, "has_nltk_resource", lambda name: True)
    monkeypatch.setattr(compiled, "active", _NoLexicon())
    built: list[Path] = []
    monkeypatch.setattr(lexicon_compiler, "build", built.append)
    return built


def _ensure() -> str:
    with redirect_stderr(io.StringIO()) as stderr:
        assert lexicon_compiler.ensure() is None
    return stderr.getvalue()


def test_a_killed_lexicon_builds_temporary_is_removed_before_compiling_again(
        compiling, tmp_path):  # fmt: skip
    """This file's, under its lock; another's only once older than an hour."""
    cache = tmp_path / "cache"
    cache.mkdir()
    own = cache / f".{compiled.cache_path().name}.k1l2.tmp"
    old, young = cache / ".lexicon-v1-aaa.npz.x9.tmp", cache / ".lexicon-v1-bbb.npz.y8.tmp"
    for path in (own, old, young):
        path.write_bytes(b"half a lexicon")
    hours_ago = time.time() - 2 * lexicon_compiler.STALE_AGE_S
    os.utime(old, (hours_ago, hours_ago))
    lexicon_compiler._remove_unfinished(compiled.cache_path(), locked=False)
    assert sorted(cache.iterdir()) == sorted([own, young])
    _ensure()
    assert compiling == [compiled.cache_path()]
    assert sorted(p.name for p in cache.iterdir()) == [young.name, compiled.cache_path()
                                                       .with_suffix(".lock").name]  # fmt: skip


def test_a_full_cache_disk_is_not_compiled_into(compiling, tmp_path, monkeypatch):
    usage = lexicon_compiler.shutil.disk_usage(tmp_path)
    monkeypatch.setattr(lexicon_compiler.shutil, "disk_usage",
                        lambda path: usage._replace(free=1 << 20))  # fmt: skip
    message = _ensure()
    assert compiling == []
    assert f"the cache folder {tmp_path / 'cache'} has 1 MB free" in message
    assert "needs about 63 MB" in message and message.count("\n") == 1


def test_a_cache_folder_that_is_a_file_is_named_as_such(compiling, tmp_path, monkeypatch):
    (tmp_path / "cache").write_text("not a folder")
    assert _ensure() == (f"wsd: the cache folder {tmp_path / 'cache'} is a file, not a folder "
                         "(set $WSD_CACHE_DIR to a folder); using NLTK's WordNet\n")
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache" / "wsd"))
    assert f"cannot be made: {tmp_path / 'cache'} is a file, not a folder" in _ensure()
    assert compiling == []


def test_a_cache_folder_given_with_a_tilde_is_in_the_home_folder(tmp_path, monkeypatch):
    from wsd.features.vector_cache import cache_root

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("WSD_CACHE_DIR", "~/wsd-cache")
    assert compiled.cache_dir() == cache_root() == tmp_path / "wsd-cache"
    monkeypatch.delenv("WSD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "~/xdg")
    assert compiled.cache_dir() == tmp_path / "xdg" / "wsd"
