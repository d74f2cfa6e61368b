"""Writing result tables as CSV and Markdown."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


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


def write_table(table: pd.DataFrame, stem: str | Path) -> list[Path]:
    """Write ``stem``.csv and ``stem``.md; return both paths."""
    stem = Path(stem)
    if stem.suffix in (".csv", ".md"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = stem.with_suffix(".csv"), stem.with_suffix(".md")
    table.to_csv(csv_path)
    md_path.write_text(to_markdown(table), encoding="utf-8")
    return [csv_path, md_path]
