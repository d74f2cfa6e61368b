"""Result tables for people: readable p-values, a legend for every column, CSV and Markdown."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temp file in the same folder and a rename, so a
    crash or a full disk never leaves a half-written file (the old one stays intact)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


COLUMN_LEGEND = {
    "accuracy": "share of instances answered right (out-of-fold answers pooled over the folds)",
    "ci_low": "lower end of the 95% bootstrap confidence interval of accuracy",
    "ci_high": "upper end of the 95% bootstrap confidence interval of accuracy",
    "macro_f1": "F1 averaged over the senses, each sense counting equally (rare senses matter)",
    "fold_sd": "standard deviation of accuracy across the folds (0 for one split)",
}
P_PREFIX = "p_vs_"


def describe_column(column: str) -> str | None:
    """What a comparison column means, in one line; None for unknown columns."""
    if column.startswith(P_PREFIX):
        other = column[len(P_PREFIX):]
        return (f"McNemar p-value against {other}, on the same items: how likely a difference "
                f"at least this large would be if the system and {other} were equally good "
                "(below 0.05: unlikely to be luck)")
    return COLUMN_LEGEND.get(column)


def format_p(p_value: float) -> str:
    """A p-value as people read it: '< 0.001' for tiny ones, 3 decimals otherwise, '-' for
    none (a system against itself)."""
    if p_value is None or pd.isna(p_value):
        return "-"
    return "< 0.001" if p_value < 0.001 else f"{p_value:.3f}"


def readable_table(table: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """A copy of ``table`` as strings: p-value columns through :func:`format_p`, other numbers
    rounded to ``digits``."""
    shown = table.copy().astype(object)
    for column in table.columns:
        values = table[column]
        if str(column).startswith(P_PREFIX):
            shown[column] = [format_p(v) for v in values]
        elif pd.api.types.is_float_dtype(values):
            shown[column] = [f"{v:.{digits}f}" for v in values]
    return shown


def format_pairwise(pairwise: pd.DataFrame) -> str:
    """The system-by-system McNemar p-values as a readable table."""
    return pairwise.map(format_p).rename_axis(None).to_string()


def format_comparison(comparison, digits: int = 3) -> str:
    """The text `wsd compare` prints: the table, the pairwise tests, and a legend."""
    table = comparison.table
    legend = [f"  {column}: {describe_column(column)}" for column in table.columns
              if describe_column(column)]
    parts = [readable_table(table, digits).to_string()]
    if len(comparison.pairwise) > 1:
        parts += ["", "McNemar p-values between every two systems (same items; no correction "
                      "for the number of tests):", format_pairwise(comparison.pairwise)]
    parts += ["", "columns:", *legend]
    return "\n".join(parts)


def to_markdown(table: pd.DataFrame, digits: int = 4) -> str:
    """A GitHub-style Markdown table (no extra dependency such as tabulate); p-value columns
    are written as :func:`format_p` does."""
    frame = table.reset_index() if table.index.name else table
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = []
    for row in frame.itertuples(index=False):
        cells = [format_p(v) if str(c).startswith(P_PREFIX)
                 else f"{v:.{digits}f}" if isinstance(v, float) else str(v)
                 for c, v in zip(frame.columns, row, strict=True)]
        body.append("| " + " | ".join(cells) + " |")
    return "\n".join([header, rule, *body]) + "\n"


def write_table(table: pd.DataFrame, stem: str | Path) -> list[Path]:
    """Write ``stem``.csv (full precision) and ``stem``.md, each atomically; return both."""
    stem = Path(stem)
    if stem.suffix in (".csv", ".md"):
        stem = stem.with_suffix("")
    csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
    write_text_atomic(csv_path, table.to_csv(lineterminator="\n"))
    write_text_atomic(md_path, to_markdown(table))
    return [csv_path, md_path]


def write_comparison(comparison, stem: str | Path) -> list[Path]:
    """The comparison table as ``stem``.csv/.md and the pairwise p-values as
    ``stem``-pairwise.csv/.md."""
    stem = Path(stem)
    if stem.suffix in (".csv", ".md"):
        stem = stem.with_suffix("")
    pairwise = comparison.pairwise.rename(columns=lambda name: P_PREFIX + name)
    return (write_table(comparison.table, stem)
            + write_table(pairwise, stem.with_name(stem.name + "-pairwise")))
