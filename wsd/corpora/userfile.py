"""A simple file format for users' own labelled (or unlabelled) sentences.

Two flavours, chosen by extension (``.tsv``/``.txt`` or ``.jsonl``/``.json-lines``/``.ndjson``) or
by ``format=``; both are UTF-8 and mark the target in the sentence as ``<<word>>``:

TSV, one row per line: ``sense<TAB>sentence[<TAB>id[<TAB>lemma]]``. Blank lines and comment lines
(starting with ``#``, holding no tab) are skipped; a ``#`` line with a tab is refused (a sense
cannot start with ``#``). A first row naming the columns (``sense`` and ``sentence`` or
``text``, in either order, then ``id`` and/or ``lemma`` in any order) is a header, and the rows
follow its order (``sentence<TAB>sense`` too). For unlabelled data the sense column may
be empty, or left out (one column, or a header naming no sense: ``sentence<TAB>id``). The id
may be empty when a lemma column follows. The lemma column names the word the row is about,
so ``<<basses>>`` with lemma ``bass`` counts as bass.

JSONL, one object per line: ``{"text": "... <<bass>> ...", "sense": "bass.fish"}`` (or
``"sentence"`` for ``"text"``, as in TSV) with optional ``"id"``, ``"lemma"`` and
``"target_pos"``; ``"senses": [...]`` instead of ``"sense"`` gives several gold senses. Blank
lines are skipped.

Rows without an id get ``<file stem>:<line>``. The lemma defaults to the marked word, lower-cased.
Ids and senses may not hold whitespace (they must survive a key file). Every bad row is reported,
with its ``file:line``, in one ValueError; nothing is dropped silently.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from wsd.instance import Instance
from wsd.knowledge.forms import form_lemma, lemmas_of
from wsd.persistence import loads_json, text_lines, write_text_atomic
from wsd.validation import Problems

PathLike = str | os.PathLike
FORMATS = ("tsv", "jsonl")
_EXTENSIONS = {
    ".tsv": "tsv",
    ".txt": "tsv",
    ".jsonl": "jsonl",
    ".json-lines": "jsonl",
    ".ndjson": "jsonl",
}
_JSON_KEYS = {"text", "sentence", "sense", "senses", "id", "lemma", "target_pos"}
_TSV_COLUMNS = ("sense", "sentence", "id", "lemma")
_HEADER_NAMES = {"sense": "sense", "sentence": "sentence", "text": "sentence", "id": "id",
                 "lemma": "lemma"}
_MARKER = re.compile(r"<<\s*\S.*?>>")
_COARSE_POS = ("NOUN", "VERB", "ADJ", "ADV")
MAX_LINE_BYTES = 1_000_000  # a row holds one sentence; a longer line is refused, not read


@dataclass(frozen=True)
class _Row:
    """One parsed row before it becomes an Instance (fields already checked for type)."""

    line: int
    text: str
    senses: tuple[str, ...]
    id: str | None
    lemma: str | None = None
    target_pos: str | None = None


def file_format(path: PathLike, format: str | None = None) -> str:
    """'tsv' or 'jsonl': ``format`` when given, else from the file extension."""
    if format is not None:
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
        return format
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        advice = (" (a spreadsheet's CSV: save it as tab-separated text, since sentences hold "
                  "commas)" if suffix == ".csv" else "")
        raise ValueError(
            f"{path}: cannot tell the format from the extension {suffix or '(none)'!r}; name the "
            f"file .tsv or .txt (tab-separated){advice}, or .jsonl, .json-lines or .ndjson (JSON "
            "lines); in Python, format='tsv' or format='jsonl' says it instead"
        )
    return _EXTENSIONS[suffix]


def load_user_file(
    path: PathLike, *, format: str | None = None, require_senses: bool = True
) -> list[Instance]:
    """Instances from a user TSV or JSONL file (see the module docstring for the format).

    With ``require_senses=False`` rows without a sense are allowed and load unlabelled, for
    prediction. Raises ValueError listing ``file:line: problem`` for the bad rows (the first
    20 and a count of the rest), and for a file with no rows at all.
    """
    return list(iter_user_file(path, format=format, require_senses=require_senses))


def user_file_batches(
    path: PathLike, size: int, *, format: str | None = None, require_senses: bool = True,
    check: Callable[[list[Instance]], None] | None = None,
) -> Iterator[list[Instance]]:
    """The instances of a user file in lists of at most ``size``, in bounded memory: the file
    is read through once to check every row (ValueError as :func:`load_user_file`) and every
    batch (``check``) when this is called, then again batch by batch as they are asked for."""
    for batch in _batches(iter_user_file(path, format=format, require_senses=require_senses),
                          size):
        if check is not None:
            check(batch)
    return _batches(iter_user_file(path, format=format, require_senses=require_senses), size)


def _batches(instances: Iterable[Instance], size: int) -> Iterator[list[Instance]]:
    batch: list[Instance] = []
    for instance in instances:
        batch.append(instance)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def iter_user_file(
    path: PathLike, *, format: str | None = None, require_senses: bool = True
) -> Iterator[Instance]:
    """The instances of a user file one at a time, read line by line; ValueError (as
    :func:`load_user_file`) after the last row when any row was bad, so a caller that must
    not act on a file with bad rows consumes it whole first. The file is read twice: first
    for its target words, so that a row's inflected target (*bats*) takes another row's word
    (*bat*) as its lemma wherever it stands (see ``_shared_lemma``)."""
    bases = _bases({inst.lemma for _, inst in _instances(path, format, require_senses,
                                                           Problems())})  # fmt: skip
    problems = Problems()
    found = False
    for row, instance in _instances(path, format, require_senses, problems):
        found = True
        instance = _shared_lemma(row, instance, bases, problems)
        if instance is not None and not problems:
            yield instance
    if problems:
        raise ValueError(
            f"{path}: {len(problems)} bad row(s); fix them and load again:\n"
            + problems.listed(str(path))
        )
    if not found:
        raise ValueError(f"{path}: no rows found (only blank lines, comments or a header)")


def _instances(path: PathLike, format: str | None, require_senses: bool,
               problems: Problems) -> Iterator[tuple[_Row, Instance]]:  # fmt: skip
    """Each good row with its Instance, recording the bad ones (and repeated ids) in
    ``problems``."""
    chosen = file_format(path, format)
    lines = _lines(path, problems)
    if chosen == "tsv":
        rows = _tsv_rows(lines, require_senses, problems)
    else:
        rows = _jsonl_rows(lines, problems)
    seen_ids: dict[str, int] = {}
    for row in rows:
        instance = _build(Path(path), row, require_senses, problems)
        if instance is None:
            continue
        if instance.id in seen_ids:
            problems.append(
                (row.line, f"id {instance.id!r} already used on line {seen_ids[instance.id]}")
            )
            continue
        seen_ids[instance.id] = row.line
        yield row, instance


def _lines(path: PathLike, problems: Problems) -> Iterator[tuple[int, str]]:
    """``(number, line)`` of the file's lines (split on newlines only, not splitlines' form
    feeds etc., so numbers match editors); a line too long is a problem, not read whole."""
    for number, line in enumerate(text_lines(path, MAX_LINE_BYTES), start=1):
        if line is None:
            problems.append((number, f"longer than {MAX_LINE_BYTES:,} bytes; a row holds one "
                                     "sentence"))
        else:
            yield number, line


def _tsv_rows(lines: Iterable[tuple[int, str]], require_senses: bool,
              problems: Problems) -> Iterator[_Row]:  # fmt: skip
    columns: tuple[str, ...] = _TSV_COLUMNS
    first = True
    for number, line in lines:
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            if "\t" in line:
                problems.append((number, "starts with '#' but has tab-separated columns: a "
                                         "comment holds no tab, and a sense cannot start with "
                                         "'#' (rename the sense, or delete the line)"))
            elif _MARKER.search(line):
                problems.append((number, "starts with '#' but holds a <<target>> marker: is it "
                                         "a comment or a sentence? (a comment holds no marker; "
                                         "give a sentence starting with '#' a sense column or "
                                         "a tab before it)"))
            continue
        cells = line.split("\t")
        if first:
            first = False
            header = _tsv_header(cells, require_senses)
            if header is not None:
                if isinstance(header, str):
                    problems.append((number, header))
                    return
                columns = header
                continue
        row = _tsv_row(number, cells, columns, require_senses)
        if isinstance(row, str):
            problems.append((number, row))
        else:
            yield row


def _tsv_header(cells: list[str], require_senses: bool) -> tuple[str, ...] | str | None:
    """The column names of a header row, a problem with it, or None when it is no header. A
    row is a header when its first two cells name the sense and the sentence, or when every
    cell is a column name (*sentence* alone heads unlabelled rows)."""
    names = [cell.strip().lower() for cell in cells]
    columns = tuple(_HEADER_NAMES.get(name, "") for name in names)
    if "" in columns and set(columns[:2]) != {"sense", "sentence"}:
        return None
    if "" in columns or len(set(columns)) != len(columns) or "sentence" not in columns:
        return (f"header {names}: columns must be sense and sentence (or text), then id "
                "and/or lemma, each once")
    if require_senses and "sense" not in columns:
        return (f"header {names} names no sense column; training and scoring need a sense "
                "per row (wsd predict reads unlabelled rows)")
    return columns


def _tsv_row(number: int, cells: list[str], columns: tuple[str, ...],
             require_senses: bool) -> _Row | str:
    """One TSV row, or what is wrong with it."""
    if len(cells) > len(columns):
        return (f"{len(cells)} tab-separated columns; expected at most {len(columns)} "
                f"({'<TAB>'.join(columns)}) (is there a tab inside the sentence?)")
    if len(cells) == 1:
        if require_senses:
            return "one column (no tab); expected sense<TAB>sentence[<TAB>id[<TAB>lemma]]"
        values = {"sense": "", "sentence": cells[0]}  # whatever the header's order
    else:
        values = {"sense": "", **dict(zip(columns, cells, strict=False))}
    for name in ("id", "lemma"):
        if _MARKER.search(values.get(name, "")) and not _MARKER.search(values["sentence"]):
            return (f"the <<target>> marker is in the {name} column, not the sentence (is there "
                    "a tab inside the sentence?)")
    sense = values["sense"].strip()
    row_id = values["id"].strip() if "id" in values else None
    lemma = values["lemma"].strip() if "lemma" in values else None
    if row_id == "" and not lemma:
        return "the id column is empty; fill it in or drop the column"
    problem = _field_problem("id", row_id or None) or _field_problem("sense", sense or None)
    if problem:
        return problem + " (is there a tab inside the sentence?)"
    if lemma is not None and ("<<" in lemma or ">>" in lemma):
        return f"the lemma {lemma!r} holds a << >> marker"
    return _Row(number, values["sentence"], (sense,) if sense else (), row_id or None,
                lemma or None)


def _field_problem(name: str, value: str | None) -> str | None:
    """Ids and senses end up in key files, which split on whitespace; a ``<<`` or ``>>`` in
    a sense is a sentence in the wrong column."""
    if value is not None and value != "".join(value.split()):
        return f"the {name} {value[:40]!r} holds whitespace; {name}s may not"
    if name == "sense" and value is not None and ("<<" in value or ">>" in value):
        return (f"the sense {value[:40]!r} holds a << >> marker: is the sentence in the "
                "sense column?")
    return None


def _jsonl_rows(lines: Iterable[tuple[int, str]], problems: Problems) -> Iterator[_Row]:
    for number, line in lines:
        if not line.strip():
            continue
        try:
            record: Any = loads_json(line, "bad JSON")
        except ValueError as error:
            problems.append((number, str(error).replace("bad JSON:1:", "bad JSON:")))
            continue
        problem = _json_problem(record)
        if problem:
            problems.append((number, problem))
            continue
        senses = record.get("senses", [record["sense"]] if "sense" in record else [])
        row_id = record.get("id")
        yield _Row(
            number,
            record.get("text", record.get("sentence")),
            tuple(sense.strip() for sense in senses),
            None if row_id is None else str(row_id),
            record.get("lemma"),
            record.get("target_pos"),
        )


def _json_problem(record: Any) -> str | None:
    """What is wrong with a JSONL record's keys and value types, or None."""
    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}"
    unknown = sorted(set(record) - _JSON_KEYS)
    if unknown:
        return f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(_JSON_KEYS))}"
    if "text" in record and "sentence" in record:
        return 'give "text" or "sentence", not both'
    if not isinstance(record.get("text", record.get("sentence")), str):
        return 'missing "text" (a string with the target marked <<like this>>)'
    if "sense" in record and "senses" in record:
        return 'give "sense" or "senses", not both'
    if "sense" in record and not isinstance(record["sense"], str):
        return '"sense" must be a string'
    senses = record.get("senses", [])
    if not isinstance(senses, list) or not all(isinstance(s, str) and s.strip() for s in senses):
        return '"senses" must be a list of non-empty strings'
    if not isinstance(record.get("id", ""), (str, int)) or record.get("id") == "" \
            or isinstance(record.get("id"), bool):
        return '"id" must be a non-empty string or an integer'
    for key in ("lemma", "target_pos"):
        if key in record and not (isinstance(record[key], str) and record[key].strip()):
            return f'"{key}" must be a non-empty string'
    if record.get("target_pos", "NOUN") not in _COARSE_POS:
        return f'"target_pos" must be one of {", ".join(_COARSE_POS)}'
    row_id = record.get("id")
    return _field_problem("id", None if row_id is None else str(row_id)) or next(
        (p for s in senses or [record.get("sense")] if (p := _field_problem("sense", s))), None)


def _bases(words: set[str]) -> set[str] | None:
    """The target words of a file that are no inflection of another of them (None when the
    file has fewer than two words: nothing to share)."""
    if len(words) < 2:
        return None
    return {word for word in words if lemmas_of(word, words) == [word]}


def _shared_lemma(row: _Row, inst: Instance, bases: set[str] | None,
                  problems: Problems) -> Instance | None:  # fmt: skip
    """The instance, where a row without a lemma marks an inflection of another row's word
    (*bats* beside *bat*) with that word as the lemma, found as ``wsd disambiguate`` finds a
    target's (a word that is a form of several is a problem of its row: None)."""
    if bases is None or row.lemma is not None or inst.lemma in bases:
        return inst
    try:
        lemma = form_lemma(inst.target, bases, "")
    except ValueError as error:
        problems.append((row.line, str(error)))
        return None
    return replace(inst, lemma=lemma) if lemma else inst


def _build(path: Path, row: _Row, require_senses: bool, problems: Problems) -> Instance | None:
    """The row's Instance, or None after recording what is wrong with it."""
    if not _MARKER.search(row.text):
        problems.append((row.line, "no <<target>> marker in the sentence"))
        return None
    senses = tuple(sense for sense in row.senses if sense)
    if require_senses and not senses:
        problems.append(
            (row.line, "empty sense (label the row: training and scoring need one; wsd "
                       "predict and load_user_file(..., require_senses=False) read unlabelled "
                       "rows)")
        )
        return None
    try:
        return Instance.from_text(
            row.text,
            lemma=row.lemma,
            senses=senses,
            id=row.id if row.id is not None else f"{path.stem}:{row.line}",
            target_pos=row.target_pos,
        )
    except ValueError as error:
        problems.append((row.line, str(error)))
        return None


def write_user_file(
    path: PathLike, instances: Iterable[Instance], *, format: str | None = None
) -> None:
    """Write instances in the user format, so ``load_user_file`` reads them back.

    Tokens are joined with single spaces and the target span is marked ``<<...>>``. JSONL keeps
    the lemma, target POS and every sense. TSV keeps one sense per row (an instance with several
    raises ValueError) and the lemma where it is not the marked word; no target POS.
    """
    chosen = file_format(path, format)
    lines = []
    for inst in instances:
        start, end = inst.span
        text = " ".join((*inst.tokens[:start], "<<" + inst.target + ">>", *inst.tokens[end:]))
        if chosen == "jsonl":
            record: dict[str, Any] = {"id": inst.id, "text": text, "lemma": inst.lemma}
            if inst.senses:
                record["senses"] = list(inst.senses)
            if inst.target_pos:
                record["target_pos"] = inst.target_pos
            lines.append(json.dumps(record, ensure_ascii=False))
            continue
        if len(inst.senses) > 1:
            raise ValueError(f"instance {inst.id!r} has several senses; write it as JSONL")
        fields = (inst.sense or "", text, inst.id)
        if inst.lemma != inst.target.lower():
            fields += (inst.lemma,)
        if any("\t" in field or "\n" in field for field in fields):
            raise ValueError(f"instance {inst.id!r} holds a tab or newline; write it as JSONL")
        lines.append("\t".join(fields))
    write_text_atomic(path, "".join(line + "\n" for line in lines))
