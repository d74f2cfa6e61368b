"""`wsd compare`: readable p-values, a legend for every column, McNemar between all systems."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from wsd.cli import main
from wsd.evaluation.significance import mcnemar, pairwise_mcnemar
from wsd.experiments.report import describe_column, format_p, readable_table, to_markdown


@pytest.mark.parametrize("p, shown", [(0.0004, "< 0.001"), (1e-12, "< 0.001"),
                                      (0.001, "0.001"), (0.04849, "0.048"), (1.0, "1.000"),
                                      (np.nan, "-"), (None, "-")])
def test_format_p(p, shown):
    assert format_p(p) == shown


def test_pairwise_mcnemar_is_symmetric_and_matches_the_two_system_test():
    rng = np.random.default_rng(0)
    outcomes = {name: rng.integers(0, 2, 60) for name in ("a", "b", "c")}
    table = pairwise_mcnemar(outcomes)
    assert list(table.index) == list(table.columns) == ["a", "b", "c"]
    assert table.isna().to_numpy().diagonal().all()
    assert np.allclose(table.to_numpy(), table.to_numpy().T, equal_nan=True)
    for x in outcomes:
        for y in outcomes:
            if x != y:
                assert table.loc[x, y] == mcnemar(outcomes[x], outcomes[y])["p_value"]


def test_pairwise_accepts_tuple_names():
    table = pairwise_mcnemar({("window", 2): np.ones(5), ("window", 3): np.zeros(5)})
    assert table.iloc[0, 1] == pytest.approx(2 / 2**5)
    assert table.index[1] == ("window", 3)


def test_pairwise_by_hand():
    """a beats b on 10 items, b beats a on none: exact two-sided binomial p = 2 / 2**10."""
    a = np.array([1] * 10 + [1, 0] * 5)
    b = np.array([0] * 10 + [1, 0] * 5)
    p = pairwise_mcnemar({"a": a, "b": b}).loc["a", "b"]
    assert p == pytest.approx(2 / 2**10)
    assert p == pytest.approx(stats.binomtest(10, 10, 0.5).pvalue)


def test_every_column_has_a_legend_and_p_values_are_readable():
    table = pd.DataFrame({"accuracy": [0.7, 0.9], "ci_low": [0.6, 0.85], "ci_high": [0.8, 0.95],
                          "macro_f1": [0.4, 0.8], "fold_sd": [0.01, 0.02],
                          "p_vs_mfs": [np.nan, 1e-9]},
                         index=pd.Index(["mfs", "averaged"], name="system"))
    assert all(describe_column(c) for c in table.columns)
    assert "against mfs" in describe_column("p_vs_mfs")
    assert list(readable_table(table)["p_vs_mfs"]) == ["-", "< 0.001"]
    assert "| averaged | 0.9000 | 0.8500 | 0.9500 | 0.8000 | 0.0200 | < 0.001 |" in to_markdown(
        table)


def test_cli_prints_legend_and_pairwise_tests(tmp_path, capsys):
    out = tmp_path / "crane"
    assert main(["compare", "--corpus", "bundled:crane", "--systems", "mfs,lesk,averaged",
                 "--folds", "3", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "McNemar p-values between every two systems" in text
    for column in ("accuracy", "ci_low", "ci_high", "macro_f1", "fold_sd", "p_vs_mfs"):
        assert f"  {column}: " in text
    pairwise = pd.read_csv(tmp_path / "crane-pairwise.csv", index_col=0)
    assert list(pairwise.index) == ["mfs", "lesk", "averaged"]
    assert list(pairwise.columns) == ["p_vs_mfs", "p_vs_lesk", "p_vs_averaged"]
    table = pd.read_csv(tmp_path / "crane.csv", index_col=0)
    assert table.loc["averaged", "p_vs_mfs"] == pytest.approx(
        pairwise.loc["averaged", "p_vs_mfs"])
    assert "| system | p_vs_mfs |" in (tmp_path / "crane-pairwise.md").read_text()
