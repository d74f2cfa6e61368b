"""Writing result tables as CSV and Markdown, each through a temporary file and a rename."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from wsd.persistence import atomic_open, write_text_atomic


def to_markdown(table: pd.DataFrame, digits: int = 4) -> str:
    """A GitHub-style Markdown table (no extra dependency such as tabulate)."""
    frame = table.reset_index() if table.index.name else table
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = []
    for row in frame.itertuples(index=False):
        cells = [f"{v:.{digits}f}" if isinstance(v, float) else str(v) for v in row]
        body.append("| " + " | ".join(cells) + " |")
    return "\n".join([header, rule, *body]) + "\n"


def table_paths(stem: str | os.PathLike) -> tuple[Path, Path]:
    """``stem``.csv and ``stem``.md, their folder created. Only a .csv or .md suffix is
    replaced, so ``run.seed1`` and ``run.seed2`` stay two tables. Call it before the work, so a
    folder that cannot be made stops the run early."""
    stem = Path(stem)
    if stem.suffix in (".csv", ".md"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    return stem.with_name(stem.name + ".csv"), stem.with_name(stem.name + ".md")


def write_csv(table: pd.DataFrame, path: str | os.PathLike, index: bool = True) -> Path:
    """``table.to_csv`` through a temporary file, so a failed write leaves no half file."""
    with atomic_open(path, newline="") as stream:
        table.to_csv(stream, index=index)
    return Path(path)


def write_table(table: pd.DataFrame, stem: str | os.PathLike) -> list[Path]:
    """Write ``stem``.csv and ``stem``.md; return both paths."""
    csv_path, md_path = table_paths(stem)
    write_csv(table, csv_path)
    write_text_atomic(md_path, to_markdown(table))
    return [csv_path, md_path]
