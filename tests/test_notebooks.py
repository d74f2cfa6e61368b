"""The notebooks run top to bottom (on reduced settings) and are stored without outputs.

Each notebook reads WSD_NOTEBOOK_QUICK=1 in its parameters cell and shrinks folds, words,
shuffles and subsamples. After the last cell a check cell runs in the same kernel and asserts
on the notebook's results, so a notebook that runs but computes nonsense fails too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wsd.resources import has_nltk_resource

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NEEDS_SENSEVAL = pytest.mark.skipif(
    not has_nltk_resource("senseval"),
    reason="needs the NLTK 'senseval' corpus (python -m nltk.downloader senseval)",
)

# Notebook -> assertions run in its kernel after the last cell.
CHECKS = {
    "01_bass_walkthrough.ipynb": """
assert list(comparison.index) == ["mfs", "lesk", "perceptron", "averaged", "voted"]
assert comparison["accuracy"].between(0, 1).all()
assert comparison.loc["averaged", "accuracy"] > comparison.loc["mfs", "accuracy"]
assert set(tables.index) == {"bass.fish", "bass.instrument", "bass.sound"}
assert (tables[["tp", "fp", "fn", "tn"]].sum(axis=1) == len(test)).all()
assert confusion_matrix(gold, predicted).to_numpy().sum() == len(test)
assert explanation.sense in glosses and explanation.features
""",
    "02_perceptron_variants.ipynb": """
learners = {"perceptron", "averaged", "voted"}
assert set(epochs_table["learner"]) == learners
assert epochs_table["epoch"].max() == EPOCHS
assert set(orders_table["learner"]) == learners
assert (orders_table.groupby(["word", "learner"]).size() == SHUFFLES).all()
assert set(sizes_table["learner"]) == learners
assert epochs_table["dev_accuracy"].between(0, 1).all()
assert order_summary["sd"].notna().all()
""",
    "03_feature_ablation.ipynb": """
assert set(results["group"]) == {"window", "weighting", "POS / collocations"}
assert len(results) == len(WORDS) * len(CONFIGS)
assert results["accuracy"].between(0, 1).all()
assert (results["ci_low"] <= results["accuracy"]).all()
assert (results["accuracy"] <= results["ci_high"]).all()
same = results.set_index(["word", "group", "setting"])["accuracy"]
for word in WORDS:  # one system listed twice must score the same: runs are deterministic
    assert same[(word, "window", "sentence")] == same[(word, "weighting", "binary")]
""",
}
CASES = [
    pytest.param("01_bass_walkthrough.ipynb", id="01_bass_walkthrough"),
    pytest.param("02_perceptron_variants.ipynb", id="02_perceptron_variants",
                 marks=NEEDS_SENSEVAL),
    pytest.param("03_feature_ablation.ipynb", id="03_feature_ablation", marks=NEEDS_SENSEVAL),
]


def read(name: str):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def test_every_notebook_is_executed_here() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(CHECKS)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_stored_without_outputs(name: str) -> None:
    notebook = read(name)
    nbformat.validate(notebook)
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "a notebook without code cells"
    for cell in code:
        assert cell.outputs == [], f"stored outputs in {name}: {cell.source[:60]!r}"
        assert cell.execution_count is None, f"stored execution count in {name}"


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_parameters_cell_reads_the_quick_switch(name: str) -> None:
    first_code = next(cell for cell in read(name).cells if cell.cell_type == "code")
    assert 'os.environ.get("WSD_NOTEBOOK_QUICK") == "1"' in first_code.source


@pytest.mark.parametrize("name", CASES)
def test_notebook_runs(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel inherits this process's environment (NLTK_DATA comes from conftest).
    monkeypatch.setenv("WSD_NOTEBOOK_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = read(name)
    notebook.cells.append(nbformat.v4.new_code_cell(CHECKS[name].strip()))
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, when any cell fails
    errors = [out for cell in notebook.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert errors == []
