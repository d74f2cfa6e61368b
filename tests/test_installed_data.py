"""The bundled corpus is found wherever pip puts it: a source checkout, ``pip install
--target``, and prefix-style installs (``--user``, venvs), read from the distribution's files.

The install tests build a real wheel with ``pip wheel --no-deps`` from a copy of the sources and
install it with ``pip install --no-deps``: a few seconds; they are marked ``install``
(deselect with ``-m 'not install'``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from wsd.corpora.bundled import bundled_targets
from wsd.knowledge.bundled_senses import DATA_DIR_ENV, bundled_data_dir

REPO = Path(__file__).resolve().parents[1]
PROBE = ("import wsd.corpora.bundled as b; print(b.__file__); print(b.bundled_data_dir()); "
         "print(','.join(b.bundled_targets()))")


def test_checkout_reads_the_repository_data(monkeypatch):
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert bundled_data_dir() == REPO / "data" / "bundled"
    assert bundled_targets() == ["bank", "bass", "crane", "line", "plant"]


def _pip(*args: str, cwd: Path) -> str:
    """Run pip verbosely (so the build backend's output shows); return stdout + stderr."""
    result = subprocess.run([sys.executable, "-m", "pip", *args, "--no-deps", "--verbose",
                             "--disable-pip-version-check"], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """A wheel built from a copy of the sources (no build/ or egg-info left in the checkout),
    and the build log."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE", "NOTICE"):
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "wsd", source / "wsd",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "data" / "bundled", source / "data" / "bundled")
    out = tmp_path_factory.mktemp("wheel")
    log = _pip("wheel", "--wheel-dir", str(out), str(source), cwd=source)
    (built,) = out.glob("wsd_perceptron-*.whl")
    return built, log


@pytest.mark.install
def test_the_build_gives_no_setuptools_warnings(wheel):
    _, log = wheel
    for warning in ("SetuptoolsDeprecationWarning", "BuildBackendWarning", "SetuptoolsWarning"):
        assert warning not in log
    assert "Created wheel for wsd-perceptron" in log


def _probe(site: Path, cwd: Path) -> tuple[Path, Path, str]:
    """Import wsd from ``site`` in a fresh interpreter: (module file, data dir, targets)."""
    env = {k: v for k, v in os.environ.items() if k != DATA_DIR_ENV}
    env["PYTHONPATH"] = str(site)
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    module, data_dir, targets = result.stdout.split()
    return Path(module).resolve(), Path(data_dir).resolve(), targets


@pytest.mark.install
def test_pip_install_target_finds_the_corpus(wheel, tmp_path):
    target = tmp_path / "target"
    _pip("install", "--no-index", "--target", str(target), str(wheel[0]), cwd=tmp_path)
    module, data_dir, targets = _probe(target, tmp_path)
    assert module.is_relative_to(target.resolve())  # the installed copy, not the checkout
    assert data_dir == (target / "share" / "wsd" / "bundled").resolve()
    assert targets == "bank,bass,crane,line,plant"


@pytest.mark.install
def test_prefix_install_as_for_user_finds_the_corpus(wheel, tmp_path):
    """``--user`` and venvs use a prefix scheme: package in lib/pythonX.Y/site-packages,
    data in <prefix>/share; RECORD lists the data as ../../../share/... . --ignore-installed
    keeps pip from uninstalling the wsd-perceptron the tests run from."""
    prefix = tmp_path / "prefix"
    _pip("install", "--no-index", "--ignore-installed", "--prefix", str(prefix), str(wheel[0]),
         cwd=tmp_path)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(prefix),
                                                    "platbase": str(prefix)}))
    module, data_dir, targets = _probe(site, tmp_path)
    assert module.is_relative_to(prefix.resolve())
    assert data_dir == (prefix / "share" / "wsd" / "bundled").resolve()
    assert targets == "bank,bass,crane,line,plant"
