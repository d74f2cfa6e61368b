"""TOML experiment configs on every supported Python: tomllib from 3.11, tomli on 3.10."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from packaging.requirements import Requirement

import wsd.experiments.config as config

toml = config.tomllib  # tomllib, or tomli on Python 3.10
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
TOML = 'command = "compare"\ncorpus = "bundled:bass"\nsystems = ["mfs", "lesk"]\nfolds = 3\n'


def test_toml_config_becomes_the_command_line(tmp_path):
    path = tmp_path / "run.toml"
    path.write_text(TOML, encoding="utf-8")
    assert config.load_config(path) == ["compare", "--corpus", "bundled:bass",
                                        "--systems", "mfs,lesk", "--folds", "3"]


def test_python_3_10_reads_toml_with_tomli(tmp_path, monkeypatch):
    """On 3.10 the module imports tomli (the package tomllib was made from); simulated here by
    a 3.10 version number and a stand-in tomli module."""
    stand_in = type(sys)("tomli")
    stand_in.loads, stand_in.TOMLDecodeError = toml.loads, toml.TOMLDecodeError
    monkeypatch.setitem(sys.modules, "tomli", stand_in)
    monkeypatch.setattr(sys, "version_info", (3, 10, 14, "final", 0))
    try:
        reloaded = importlib.reload(config)
        assert reloaded.tomllib is stand_in
        path = tmp_path / "run.toml"
        path.write_text(TOML, encoding="utf-8")
        assert reloaded.read_config(path)["systems"] == ["mfs", "lesk"]
    finally:
        monkeypatch.undo()
        importlib.reload(config)


def test_tomli_is_a_dependency_below_python_3_11():
    project = toml.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    requirements = [Requirement(r) for r in project["dependencies"]]
    (tomli,) = [r for r in requirements if r.name == "tomli"]
    assert tomli.marker.evaluate({"python_version": "3.10"})
    assert not tomli.marker.evaluate({"python_version": "3.11"})
    assert project["license"] == "MIT"  # an SPDX expression, not the deprecated table
