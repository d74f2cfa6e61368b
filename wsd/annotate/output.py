"""The output folder of ``wsd annotate``: partition files, written atomically, and the manifest.

``DIR/part-NNNNN.jsonl`` (or ``.parquet``) holds one line per annotated document of partition
NNNNN; ``DIR/manifest.json`` records the inputs, the model, the settings, the counts, how many
partitions the run has and each finished one (status "done") with its bad documents;
``DIR/journal.jsonl`` gets a line the moment a partition is finished. Files are written to a
temporary name and renamed, so a run killed at any moment leaves whole files only; a partition
counts as finished when the journal lists it and its file is there, and a re-run with the same
settings skips it (and removes the temporary files a killed run left). A folder of other files
without a manifest is refused; a run that finished no partition leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
import warnings
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from wsd.annotate.process import PartitionResult
from wsd.persistence import atomic_open, loads_json, read_text, write_text_atomic

MANIFEST = "manifest.json"
LOCK = ".lock"
JOURNAL = "journal.jsonl"
FORMAT = "wsd-annotate-manifest"
VERSION = 1
FORMATS = ("jsonl", "parquet")
_COUNTS = ("documents", "annotated", "bad", "sentences", "tokens", "tagged")


def _pyarrow():
    try:
        import pyarrow  # the optional [parquet] extra
        import pyarrow.parquet  # the optional [parquet] extra
    except ImportError as err:
        raise ImportError("--format parquet needs pyarrow: pip install "
                          "'wsd-perceptron[parquet]'") from err
    return pyarrow


# The word record's fields (the --json format of wsd disambiguate) and their Parquet types.
WORD_FIELDS = {"token": "string", "start": "int64", "end": "int64", "lemma": "string",
               "pos": "string", "sense_key": "string", "synset": "string", "gloss": "string",
               "score": "float64", "margin": "float64", "source": "string"}  # fmt: skip


def parquet_schema() -> Any:
    """One schema for every partition, so that the folder reads as one table (inferred
    types would differ between partitions, e.g. a column that is all null in one)."""
    pa = _pyarrow()
    word = pa.struct([(name, pa.type_for_alias(kind)) for name, kind in WORD_FIELDS.items()])
    sentence = pa.struct([("text", pa.string()), ("words", pa.list_(word))])
    return pa.schema([("id", pa.string()), ("sentences", pa.list_(sentence))])


def _write_parquet(lines: list[str], path: Path) -> None:
    rows = [json.loads(line) for line in lines]
    for row in rows:  # a field the schema lacks would be dropped silently
        for sentence in row["sentences"]:
            for word in sentence["words"]:
                if word.keys() != WORD_FIELDS.keys():
                    raise ValueError(f"document {row['id']!r}: word fields {sorted(word)} are "
                                     f"not those of the Parquet schema {list(WORD_FIELDS)}")
    pa = _pyarrow()
    table = pa.Table.from_pylist(rows, schema=parquet_schema())
    with atomic_open(path, "wb") as stream:
        pa.parquet.write_table(table, stream)


class OutputFolder:
    """The state of one ``--out`` folder: the manifest, and a journal of finished partitions.

    ``run`` describes the run: ``inputs``, their files' ``input_files`` fingerprint, the
    model's ``sha256`` and ``settings`` must equal those of an earlier run in the same folder
    (ValueError otherwise); ``scheduler`` may differ. Each finished partition is appended to
    ``DIR/journal.jsonl`` at once, while the manifest is rewritten every ``save_every``
    seconds and at the end, so a long run does not rewrite a manifest of thousands of
    partitions after each one.
    """

    def __init__(self, folder: str | os.PathLike, run: Mapping[str, Any],
                 save_every: float = 10.0) -> None:  # fmt: skip
        self.folder = Path(folder)
        self.format = run["settings"]["format"]
        if self.format not in FORMATS:
            raise ValueError(f"--format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        if self.format == "parquet":
            _pyarrow()  # fail before any work when it is missing
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"--out {self.folder}: a file, not a folder (wsd annotate writes "
                             "its part files and manifest.json into a folder)")
        self._check_not_foreign()
        self.created = not self.folder.exists()  # removed again by a run that produced nothing
        self.folder.mkdir(parents=True, exist_ok=True)
        self._lock()
        self.save_every = save_every
        self.manifest = {"format": FORMAT, "version": VERSION, **run, "status": "running",
                         "started": _now(), "counts": {}, "partitions": {},
                         "bad_documents": []}  # fmt: skip
        self._check_earlier_run(run)
        self._remove_temporary_files()
        self._read_journal()
        self.save()

    def _check_not_foreign(self) -> None:
        """ValueError when the folder holds files but no manifest: a folder wsd annotate did
        not make, whose files (a user's ``part-00000.jsonl``) would be written over."""
        if not self.folder.is_dir() or (self.folder / MANIFEST).exists():
            return
        foreign = sorted(p.name for p in self.folder.iterdir() if not _ours(p.name))
        if foreign:
            listed = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more"
                                               if len(foreign) > 3 else "")  # fmt: skip
            raise ValueError(f"--out {self.folder} holds files wsd annotate did not write "
                             f"({listed}) and no {MANIFEST} of a wsd annotate run: give a new "
                             "or empty --out folder, so that no file is written over")

    def _check_earlier_run(self, run: Mapping[str, Any]) -> None:
        """ValueError when the folder holds another run (other inputs, model or settings)
        that finished a partition; one that finished none binds nothing (it failed at once)."""
        path = self.folder / MANIFEST
        if not path.exists():
            return
        try:
            old = loads_json(read_text(path), str(path))
        except ValueError as err:  # not UTF-8, not JSON, nested too deeply
            raise ValueError(f"{path} is not a wsd annotate manifest ({err})") from err
        if not isinstance(old, dict) or old.get("format") != FORMAT \
                or not isinstance(old.get("model", {}), dict):
            raise ValueError(f"{path} is not a wsd annotate manifest")
        if not self._produced(old):
            return
        for part, now, then in (("inputs", run["inputs"], old.get("inputs")),
                                ("settings", run["settings"], old.get("settings")),
                                ("model", run["model"]["sha256"],
                                 old.get("model", {}).get("sha256"))):
            if now != then:
                raise ValueError(f"{self.folder} holds a run with other {part} ({then} instead "
                                 f"of {now}): use another --out folder")
        then = old.get("input_files")  # absent from manifests of versions before it was kept
        if then is not None and then != run.get("input_files"):
            now = run.get("input_files", {})
            count = then.get("count") if isinstance(then, dict) else "?"
            raise ValueError(f"{self.folder} holds a run on other input files ({count} then, "
                             f"{now.get('count')} now, or a file changed since): use another "
                             "--out folder")
        self.manifest["started"] = old.get("started", self.manifest["started"])

    def _produced(self, old: Mapping[str, Any]) -> bool:
        """Whether the run in the folder finished a partition (its manifest or journal says so)."""
        journal = self.folder / JOURNAL
        if old.get("partitions") or not journal.is_file():
            return bool(old.get("partitions"))
        entries = [_journal_entry(line) for line in
                   journal.read_text(encoding="utf-8", errors="replace").splitlines()]
        return any(problem is None and (self.folder / entry["file"]).is_file()
                   for entry, problem in entries)  # fmt: skip

    def _remove_temporary_files(self) -> None:
        """Remove what a killed run was writing (``atomic_open``'s ``.NAME.*.tmp`` files)."""
        for stale in self.folder.glob(".*.tmp"):
            if stale.name.startswith((".part-", f".{MANIFEST}.", f".{JOURNAL}.")):
                stale.unlink(missing_ok=True)

    def _read_journal(self) -> None:
        """Keep the journal's entries whose files exist and rewrite it with just those, then
        keep it open for appending. A last line cut by a kill is dropped; any other damaged
        line (not JSON, fields missing or of the wrong type) is reported, and its partition
        annotated again."""
        journal = self.folder / JOURNAL
        entries = []
        if journal.exists():
            # a kill can cut a line inside a UTF-8 character: such a line is dropped too
            lines = journal.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in enumerate(lines, start=1):
                entry, problem = _journal_entry(line)
                if problem is None and (self.folder / entry["file"]).is_file():
                    entries.append(entry)
                elif problem is not None and (number < len(lines) or problem != "not JSON"):
                    warnings.warn(f"{journal}:{number}: damaged resume state ({problem}); that "
                                  "partition will be annotated again", stacklevel=2)
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        write_text_atomic(journal, text)
        for entry in entries:
            self._record(entry)
        self._journal = open(journal, "a", encoding="utf-8")  # noqa: SIM115 - closed in finish
        self._saved = time.monotonic()

    def _lock(self) -> None:
        """Hold ``DIR/.lock`` for the run (released by close, or when the process ends), so a
        second run on the same folder is refused instead of racing this one's files."""
        self._lock_file = open(self.folder / LOCK, "a+")  # noqa: SIM115 - closed in close
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_file.close()
            raise ValueError(f"--out {self.folder} is in use by another wsd annotate run; wait "
                             "for it to finish (a re-run then resumes it) or give another "
                             "--out folder") from None

    def _record(self, entry: dict[str, Any]) -> None:
        self.manifest["partitions"][entry["partition"]] = entry

    def expect(self, partitions: int) -> None:
        """Record how many partitions the whole run has (those not listed are still to do)."""
        self.manifest["partitions_expected"] = partitions

    def finished(self, index: int) -> bool:
        return _name(index) in self.manifest["partitions"]

    def write(self, result: PartitionResult) -> None:
        """Write the partition's file atomically, then append it to the journal."""
        file = self.folder / f"{_name(result.index)}.{self.format}"
        if self.format == "parquet":
            _write_parquet(result.lines, file)
        else:
            text = "".join(line + "\n" for line in result.lines)
            write_text_atomic(file, text)
        entry = {"partition": _name(result.index), "status": "done", "file": file.name,
                 **result.summary(), "written_at": round(time.time(), 3)}
        # recorded before the journal line: a Ctrl-C right after the line is flushed must
        # still find the partition in the manifest that close() saves
        self._record(entry)
        self._journal.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._journal.flush()
        if time.monotonic() - self._saved >= self.save_every:
            self.save()

    def close(self, status: str) -> dict[str, Any]:
        """Save the manifest with ``status`` ("complete", "interrupted", "failed"), return it."""
        self.manifest["status"] = status
        self.manifest["finished"] = _now()
        self._journal.close()
        if status != "complete" and not self.manifest["partitions"]:
            self._remove_own_files()  # nothing produced: nothing left behind
        else:
            self.save()
        self._lock_file.close()
        return self.manifest

    def _remove_own_files(self) -> None:
        """Remove the manifest, journal and lock, and the folder when this run made it (held
        locked until the end, so no other run takes it in between)."""
        for name in (MANIFEST, JOURNAL, LOCK):
            (self.folder / name).unlink(missing_ok=True)
        if self.created:
            with contextlib.suppress(OSError):  # something else was put there meanwhile
                self.folder.rmdir()

    def save(self) -> None:
        parts = dict(sorted(self.manifest["partitions"].items()))
        self.manifest["partitions"] = parts
        self.manifest["counts"] = {c: sum(p[c] for p in parts.values()) for c in _COUNTS}
        self.manifest["counts"]["partitions"] = len(parts)
        self.manifest["bad_documents"] = [bad for p in parts.values()
                                          for bad in p["bad_documents"]]  # fmt: skip
        text = json.dumps(self.manifest, ensure_ascii=False, indent=1) + "\n"
        write_text_atomic(self.folder / MANIFEST, text)
        self._saved = time.monotonic()


def _journal_entry(line: str) -> tuple[dict[str, Any], str | None]:
    """A journal line's entry, and what is wrong with it (None when it is whole)."""
    try:
        entry = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return {}, "not JSON"
    if not isinstance(entry, dict):
        return {}, "not a JSON object"
    for field, kind in (("partition", str), ("file", str), ("bad_documents", list),
                        *((count, int) for count in _COUNTS)):  # fmt: skip
        if not isinstance(entry.get(field), kind) or isinstance(entry.get(field), bool):
            return entry, f"{field!r} missing or not a {kind.__name__}"
    if Path(entry["file"]).name != entry["file"] or not all(
            isinstance(bad, dict) for bad in entry["bad_documents"]):
        return entry, "'file' or 'bad_documents' malformed"
    return entry, None


def _ours(name: str) -> bool:
    """Whether a file of that name in an ``--out`` folder without a manifest is one a run
    makes before its first manifest is written (the lock, the journal, temporary files)."""
    return name in (LOCK, JOURNAL) or (name.endswith(".tmp") and name.startswith(
        (".part-", f".{MANIFEST}.", f".{JOURNAL}.")))


def _name(index: int) -> str:
    return f"part-{index:05d}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
