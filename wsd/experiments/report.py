"""Writing result tables as CSV and Markdown."""

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
