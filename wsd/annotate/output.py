"""The output folder of ``wsd annotate``: partition files, written atomically, and the manifest.

``DIR/part-NNNNN.jsonl`` (or ``.parquet``) holds one line per annotated document of partition
NNNNN; ``DIR/manifest.json`` records the inputs, the model, the settings, the counts and each
finished partition with its bad documents. Both are written to a temporary name and renamed,
so a run killed at any moment leaves whole files only; a partition counts as finished when
the manifest lists it and its file is there, and a re-run with the same settings skips it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from wsd.annotate.process import PartitionResult

MANIFEST = "manifest.json"
FORMAT = "wsd-annotate-manifest"
VERSION = 1
FORMATS = ("jsonl", "parquet")
_COUNTS = ("documents", "annotated", "bad", "sentences", "tokens", "tagged")


def atomic_write(path: Path, write) -> None:
    """Call ``write(temporary path)`` and rename the result to ``path`` (same folder)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as err:
        raise ImportError("--format parquet needs pyarrow (pip install pyarrow)") from err
    return pyarrow


def _write_parquet(lines: list[str], path: Path) -> None:
    pyarrow = _pyarrow()
    table = pyarrow.Table.from_pylist([json.loads(line) for line in lines])
    pyarrow.parquet.write_table(table, path)


class OutputFolder:
    """The manifest of one ``--out`` folder, kept in memory and rewritten after each partition.

    ``run`` describes the run: ``inputs``, ``model`` and ``settings`` must equal those of an
    earlier run in the same folder (ValueError otherwise); ``scheduler`` may differ.
    """

    def __init__(self, folder: str | os.PathLike, run: Mapping[str, Any]) -> None:
        self.folder = Path(folder)
        self.format = run["settings"]["format"]
        if self.format not in FORMATS:
            raise ValueError(f"--format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        if self.format == "parquet":
            _pyarrow()  # fail before any work when it is missing
        self.folder.mkdir(parents=True, exist_ok=True)
        self.manifest = self._resume(dict(run))

    def _resume(self, run: dict[str, Any]) -> dict[str, Any]:
        path = self.folder / MANIFEST
        fresh = {"format": FORMAT, "version": VERSION, **run, "status": "running",
                 "started": _now(), "counts": dict.fromkeys(_COUNTS, 0), "partitions": {},
                 "bad_documents": []}  # fmt: skip
        if not path.exists():
            return fresh
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"{path} is not a wsd annotate manifest ({err})") from err
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            raise ValueError(f"{path} is not a wsd annotate manifest")
        for part, now, then in (("inputs", run["inputs"], old.get("inputs")),
                                ("settings", run["settings"], old.get("settings")),
                                ("model", run["model"]["sha256"],
                                 old.get("model", {}).get("sha256"))):
            if now != then:
                raise ValueError(f"{self.folder} holds a run with other {part} ({then} instead "
                                 f"of {now}): use another --out folder")
        finished = {k: v for k, v in old["partitions"].items()
                    if (self.folder / v["file"]).is_file()}  # fmt: skip
        return {**fresh, "started": old.get("started", fresh["started"]), "partitions": finished}

    def finished(self, index: int) -> bool:
        return _name(index) in self.manifest["partitions"]

    def write(self, result: PartitionResult) -> None:
        """Write the partition's file, then record it in the manifest (both atomically)."""
        file = self.folder / f"{_name(result.index)}.{self.format}"
        if self.format == "parquet":
            atomic_write(file, lambda path: _write_parquet(result.lines, path))
        else:
            text = "".join(line + "\n" for line in result.lines)
            atomic_write(file, lambda path: path.write_text(text, encoding="utf-8"))
        self.manifest["partitions"][_name(result.index)] = {"file": file.name,
                                                            **result.summary()}
        self._save()

    def finish(self) -> dict[str, Any]:
        """Mark the run complete and return the manifest."""
        self.manifest["status"] = "complete"
        self.manifest["finished"] = _now()
        self._save()
        return self.manifest

    def _save(self) -> None:
        parts = self.manifest["partitions"]
        self.manifest["partitions"] = dict(sorted(parts.items()))
        self.manifest["counts"] = {c: sum(p[c] for p in parts.values()) for c in _COUNTS}
        self.manifest["counts"]["partitions"] = len(parts)
        self.manifest["bad_documents"] = [bad for p in self.manifest["partitions"].values()
                                          for bad in p["bad_documents"]]  # fmt: skip
        text = json.dumps(self.manifest, ensure_ascii=False, indent=1) + "\n"
        atomic_write(self.folder / MANIFEST,
                     lambda path: path.write_text(text, encoding="utf-8"))  # fmt: skip


def _name(index: int) -> str:
    return f"part-{index:05d}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
