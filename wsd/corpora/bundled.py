"""The bundled sense-annotated corpus that ships in ``data/bundled`` (see ``data/README.md``).

Per target there are three files: ``<target>.src.tsv`` (hand-written sentences with the target
marked ``<<word>>``), ``<target>.senses.json`` (the sense inventory) and ``<target>.jsonl``
(the built corpus: tokens, Penn POS tags, span, sense; made by ``data/build_bundled.py``).
Loading needs only the built files, no NLTK data, so it works offline on a fresh machine.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from wsd.instance import Instance
from wsd.knowledge.bundled_senses import PathLike, bundled_data_dir, read_inventory
from wsd.knowledge.forms import target_lemma

_RECORD_KEYS = {"id", "sense", "tokens", "pos", "span", "lemma"}


def bundled_targets(data_dir: PathLike | None = None) -> list[str]:
    """Targets that have both a built corpus and a sense inventory, sorted by name."""
    folder = bundled_data_dir(data_dir)
    return sorted(
        p.name[: -len(".jsonl")]
        for p in folder.glob("*.jsonl")
        if (folder / p.name.replace(".jsonl", ".senses.json")).is_file()
    )


def bundled_target(target: str) -> str | None:
    """The bundled target ``target`` names, in any inflection (*Cranes* -> crane), else None."""
    return target_lemma(target, bundled_targets())


def _target_file(target: str, suffix: str, data_dir: PathLike | None) -> Path:
    available = bundled_targets(data_dir)
    if target not in available:
        raise ValueError(
            f"no bundled corpus for {target!r}; available targets: {', '.join(available)}"
        )
    return bundled_data_dir(data_dir) / f"{target}{suffix}"


def load_bundled_inventory(target: str, data_dir: PathLike | None = None) -> dict:
    """The sense inventory of ``target``: {"target", "pos", "senses": [{"id", "gloss",
    "examples", "wordnet"}, ...]} where "wordnet" is a WordNet 3.0 sense key or None."""
    return read_inventory(_target_file(target, ".senses.json", data_dir))


def instance_from_record(record: Any, target_pos: str | None, where: str) -> Instance:
    """An Instance from one parsed jsonl record; ValueError naming ``where`` when malformed."""
    if not isinstance(record, dict):
        raise ValueError(f"{where}: expected a JSON object")
    missing = _RECORD_KEYS - record.keys()
    if missing:
        raise ValueError(f"{where}: missing key(s) {', '.join(sorted(missing))}")
    span = record["span"]
    if not (isinstance(span, list) and len(span) == 2 and all(isinstance(i, int) for i in span)):
        raise ValueError(f"{where}: 'span' must be a list of two integers, got {span!r}")
    try:
        return Instance(
            id=record["id"],
            tokens=record["tokens"],
            span=span,
            lemma=record["lemma"],
            pos=record["pos"],
            senses=(record["sense"],),
            target_pos=target_pos,
        )
    except (TypeError, ValueError) as err:
        raise ValueError(f"{where}: {err}") from err


def read_jsonl(path: PathLike, target_pos: str | None = None) -> list[Instance]:
    """Instances from a built ``.jsonl`` file; a bad line raises ValueError with file:line."""
    instances = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{line_no}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{where}: not valid JSON ({err.msg})") from err
            instances.append(instance_from_record(record, target_pos, where))
    return instances


def load_bundled(target: str, data_dir: PathLike | None = None) -> list[Instance]:
    """All instances of a bundled target, in file order, each with one gold sense."""
    inventory = load_bundled_inventory(target, data_dir)
    known = {sense["id"] for sense in inventory["senses"]}
    path = _target_file(target, ".jsonl", data_dir)
    instances = read_jsonl(path, target_pos=inventory["pos"])
    for inst in instances:
        if inst.sense not in known:
            raise ValueError(
                f"{path}: instance {inst.id!r} has sense {inst.sense!r}, which is not in "
                f"{target}.senses.json ({', '.join(sorted(known))})"
            )
    return instances


def read_source(path: PathLike, inventory: dict) -> list[Instance]:
    """Untagged instances from a hand-written ``.src.tsv`` (``sense<TAB>sentence with
    <<target>>``; ``#`` starts a comment line), with ids ``<target>.0001`` in line order.

    Every row is checked: two tab-separated fields, a known sense id, exactly one marker
    around a form of the target, no repeated sentence. Errors name the file and line, and
    each instance's ``meta`` holds ("source", "file:line") for later checks.
    """
    target = inventory["target"]
    known = {sense["id"] for sense in inventory["senses"]}
    instances: list[Instance] = []
    first_seen: dict[str, int] = {}
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, start=1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = f"{path}:{line_no}"
            fields = line.split("\t")
            if len(fields) != 2:
                raise ValueError(
                    f"{where}: expected 'sense<TAB>sentence', got {len(fields)} field(s)"
                )
            sense, text = fields[0].strip(), fields[1].strip()
            if sense not in known:
                raise ValueError(
                    f"{where}: unknown sense {sense!r}; "
                    f"the inventory has {', '.join(sorted(known))}"
                )
            if text.count("<<") != 1 or text.count(">>") != 1:
                raise ValueError(f"{where}: mark the target exactly once as <<{target}>>")
            key = " ".join(text.replace("<<", "").replace(">>", "").lower().split())
            if key in first_seen:
                raise ValueError(f"{where}: same sentence as line {first_seen[key]}")
            first_seen[key] = line_no
            try:
                inst = Instance.from_text(
                    text,
                    lemma=target,
                    senses=(sense,),
                    id=f"{target}.{len(instances) + 1:04d}",
                    target_pos=inventory["pos"],
                )
            except ValueError as err:
                raise ValueError(f"{where}: {err}") from err
            if not inst.target.lower().startswith(target.lower()):
                raise ValueError(
                    f"{where}: the marked word {inst.target!r} is not a form of {target!r}"
                )
            instances.append(replace(inst, meta=(("source", f"{path}:{line_no}"),)))
    return instances
