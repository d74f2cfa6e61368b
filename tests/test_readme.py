"""Every ```python block in README.md runs as written, on its own, in a fresh interpreter.

Blocks that read shared data (NLTK senseval, the all-words framework) are skipped only when
that data is absent, with a reason naming it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wsd.resources import has_framework, has_nltk_resource

README = Path(__file__).resolve().parents[1] / "README.md"


def fenced_blocks(text: str, language: str = "python") -> list[str]:
    """The bodies of the fenced blocks of ``language`` in a Markdown text, in order."""
    pattern = re.compile(rf"^```{language}\n(.*?)^```", re.S | re.M)
    return [match.group(1) for match in pattern.finditer(text)]


def missing_resource(code: str) -> str | None:
    """The shared resource a block reads that is not installed, or None."""
    needs = [
        ("load_senseval", "NLTK senseval", lambda: has_nltk_resource("senseval")),
        ("run_allwords", "the all-words framework (WSD_FRAMEWORK_DIR)", has_framework),
        ("run_allwords", "NLTK wordnet", lambda: has_nltk_resource("wordnet")),
    ]
    for call, name, present in needs:
        if call in code and not present():
            return name
    return None


def test_block_extraction_finds_only_python_fences():
    text = "```\nshell\n```\n```python\nx = 1\n```\ntext\n```python\ny = 2\nz = 3\n```\n"
    assert fenced_blocks(text) == ["x = 1\n", "y = 2\nz = 3\n"]


BLOCKS = fenced_blocks(README.read_text(encoding="utf-8"))


def test_readme_toml_config_is_a_valid_command(tmp_path):
    """The config example parses (tomllib, or tomli on 3.10) into arguments `wsd` accepts."""
    from wsd.cli import build_parser
    from wsd.experiments.config import load_config

    (block,) = fenced_blocks(README.read_text(encoding="utf-8"), "toml")
    path = tmp_path / "experiment.toml"
    path.write_text(block, encoding="utf-8")
    args = build_parser().parse_args(load_config(path))
    assert (args.command, args.folds, args.seed) == ("compare", 10, 42)


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs_as_written(index, tmp_path):
    code = BLOCKS[index]
    missing = missing_resource(code)
    if missing:
        pytest.skip(f"README block {index + 1} needs {missing}, which is not installed")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=dict(os.environ),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"README block {index + 1} failed:\n{code}\n{result.stderr}"
