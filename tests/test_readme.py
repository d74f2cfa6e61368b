"""Every ```python block in README.md runs as written, on its own, in a fresh interpreter.

Blocks that read shared data (NLTK senseval, the all-words framework) are skipped only when
that data is absent, with a reason naming it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from wsd.resources import FRAMEWORK_ENV, framework_dir, has_framework, has_nltk_resource

README = Path(__file__).resolve().parents[1] / "README.md"


def fenced_blocks(text: str, language: str = "python") -> list[str]:
    """The bodies of the fenced blocks of ``language`` in a Markdown text, in order."""
    pattern = re.compile(rf"^```{language}\n(.*?)^```", re.S | re.M)
    return [match.group(1) for match in pattern.finditer(text)]


def missing_resource(code: str) -> str | None:
    """The shared resource a block reads that is not installed, or None."""
    needs = [
        ("import spacy", "spaCy (the [spacy] extra)", lambda: find_spec("spacy") is not None),
        ("wsd.disambiguate(", "NLTK wordnet", lambda: has_nltk_resource("wordnet")),
        ('add_pipe("wsd"', "NLTK wordnet", lambda: has_nltk_resource("wordnet")),
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


# SemCor documents the all-words block trains on here: the block runs as written, on the same
# code path, but through WSD_FRAMEWORK_DIR it finds a framework folder whose SemCor holds only
# the first documents (the full corpus takes minutes; the evaluation sets are the real ones).
SEMCOR_DOCUMENTS = 12


def semcor_slice(framework: Path, out: Path, documents: int) -> Path:
    """A framework folder in ``out`` with the first ``documents`` SemCor texts (and their key
    lines) and links to ``framework``'s evaluation sets; returns ``out``."""
    source = framework / "Training_Corpora" / "SemCor"
    target = out / "Training_Corpora" / "SemCor"
    target.mkdir(parents=True)
    kept, seen, ids = [], 0, set()
    with open(source / "semcor.data.xml", encoding="utf-8") as xml:
        for line in xml:
            seen += line.lstrip().startswith("<text ")
            if seen > documents:
                break
            kept.append(line)
            ids.update(re.findall(r'<instance id="([^"]+)"', line))
    (target / "semcor.data.xml").write_text("".join(kept) + "</corpus>\n", encoding="utf-8")
    with open(source / "semcor.gold.key.txt", encoding="utf-8") as key:
        lines = [line for line in key if line.split(" ", 1)[0] in ids]
    (target / "semcor.gold.key.txt").write_text("".join(lines), encoding="utf-8")
    (out / "Evaluation_Datasets").symlink_to(framework / "Evaluation_Datasets")
    return out


def block_environment(code: str, tmp_path: Path) -> dict[str, str]:
    """The environment a block runs in: ours, with a SemCor slice for the all-words block."""
    env = dict(os.environ)
    if "run_allwords" in code:
        env[FRAMEWORK_ENV] = str(semcor_slice(framework_dir(), tmp_path / "framework",
                                              SEMCOR_DOCUMENTS))
    return env


@pytest.mark.skipif(not has_framework(), reason="the all-words framework (WSD_FRAMEWORK_DIR) "
                    "is not installed")
def test_semcor_slice_keeps_whole_documents_and_their_keys(tmp_path):
    from wsd.corpora.framework import dataset_paths, load_framework

    root = semcor_slice(framework_dir(), tmp_path, documents=2)
    instances = load_framework(*dataset_paths("semcor", root))
    assert {inst.id.split(".")[0] for inst in instances} == {"d000", "d001"}
    assert all(inst.senses for inst in instances)
    assert dataset_paths("semeval2007", root)[0].is_file()


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs_as_written(index, tmp_path):
    code = BLOCKS[index]
    missing = missing_resource(code)
    if missing:
        pytest.skip(f"README block {index + 1} needs {missing}, which is not installed")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                            env=block_environment(code, tmp_path),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"README block {index + 1} failed:\n{code}\n{result.stderr}"
