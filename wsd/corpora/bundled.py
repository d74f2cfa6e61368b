"""The bundled sense-annotated corpus that ships in ``data/bundled`` (see ``data/README.md``).

Per target there are three files: ``<target>.src.tsv`` (hand-written sentences with the target
marked ``<<word>>``), ``<target>.senses.json`` (the sense inventory) and ``<target>.jsonl``
(the built corpus: tokens, Penn POS tags, span, sense; made by ``data/build_bundled.py``).
Loading needs only the built files, no NLTK data, so it works offline on a fresh machine.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

from wsd.instance import Instance
from wsd.resources import MissingResourceError

DATA_DIR_ENV = "WSD_DATA_DIR"
DISTRIBUTION = "wsd-perceptron"
COARSE_POS = ("NOUN", "VERB", "ADJ", "ADV")
# A source checkout (or editable install) reads the repository's data/bundled; a wheel
# installs the same files as data files (pyproject's data-files), wherever the installer's
# scheme puts them: <venv>/share/wsd/bundled, ~/.local/share/wsd/bundled (--user),
# <target>/share/wsd/bundled (--target). The distribution's file list says where.
_CHECKOUT_ROOT = Path(__file__).resolve().parents[2]
_INSTALLED_SUFFIX = ("share", "wsd", "bundled")
_RECORD_KEYS = {"id", "sense", "tokens", "pos", "span", "lemma"}

PathLike = str | os.PathLike


def _checkout_data_dir() -> Path | None:
    """``data/bundled`` of the source checkout this package is imported from, if any."""
    folder = _CHECKOUT_ROOT / "data" / "bundled"
    return folder if (_CHECKOUT_ROOT / "pyproject.toml").is_file() and folder.is_dir() else None


def _own_distribution() -> metadata.Distribution | None:
    """The installed wsd-perceptron whose files include this module (several may be on the
    path, e.g. a --target folder on PYTHONPATH beside a venv install); else the first one."""
    found = list(metadata.distributions(name=DISTRIBUTION))
    here = Path(__file__).resolve()
    for dist in found:
        if Path(dist.locate_file("wsd/corpora/bundled.py")).resolve() == here:
            return dist
    return found[0] if found else None


def installed_data_dir(dist: metadata.Distribution | None = None) -> Path | None:
    """Where an installed wsd-perceptron put its bundled corpus, read from the distribution's
    file list (RECORD); None when no installed copy lists one.

    The listed path is relative to the folder holding the package (``../../share/...`` for a
    venv or --user install). ``pip install --target`` moves the files after writing RECORD, so
    when the listed path does not exist, the ``share/wsd/bundled`` folder beside the package
    is tried too.
    """
    dist = dist if dist is not None else _own_distribution()
    if dist is None:
        return None
    for file in dist.files or ():
        parts = file.parts
        if len(parts) > len(_INSTALLED_SUFFIX) and parts[-4:-1] == _INSTALLED_SUFFIX \
                and file.name.endswith(".senses.json"):
            listed = Path(dist.locate_file(file)).parent
            beside = Path(dist.locate_file("")).joinpath(*_INSTALLED_SUFFIX)
            for folder in (listed, beside):
                if folder.is_dir():
                    return folder
    return None


def bundled_data_dir(data_dir: PathLike | None = None) -> Path:
    """The folder with the bundled files: ``data_dir``, else $WSD_DATA_DIR, else the source
    checkout's ``data/bundled``, else the installed copy (see :func:`installed_data_dir`).
    Raises MissingResourceError when there is none."""
    chosen = data_dir or os.environ.get(DATA_DIR_ENV) or _checkout_data_dir() \
        or installed_data_dir()
    if chosen is None or not Path(chosen).is_dir():
        where = f"the bundled corpus folder {chosen}" if chosen else "the bundled corpus"
        raise MissingResourceError(
            f"{where} was not found (it ships with the {DISTRIBUTION} distribution); pass "
            f"data_dir= or set {DATA_DIR_ENV} to the folder holding <target>.jsonl and "
            "<target>.senses.json"
        )
    return Path(chosen)


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
    from wsd.knowledge.forms import target_lemma

    return target_lemma(target, bundled_targets())


def _target_file(target: str, suffix: str, data_dir: PathLike | None) -> Path:
    available = bundled_targets(data_dir)
    if target not in available:
        raise ValueError(
            f"no bundled corpus for {target!r}; available targets: {', '.join(available)}"
        )
    return bundled_data_dir(data_dir) / f"{target}{suffix}"


def validate_inventory(inventory: Any, source: str) -> dict:
    """Check the shape of a parsed ``.senses.json`` and return it; ValueError names ``source``."""

    def fail(problem: str) -> ValueError:
        return ValueError(f"{source}: {problem}")

    if not isinstance(inventory, dict):
        raise fail("the inventory must be a JSON object")
    for key in ("target", "pos", "senses"):
        if key not in inventory:
            raise fail(f"missing key {key!r}")
    if inventory["pos"] not in COARSE_POS:
        raise fail(f"pos {inventory['pos']!r} is not one of {', '.join(COARSE_POS)}")
    senses = inventory["senses"]
    if not isinstance(senses, list) or not senses:
        raise fail("'senses' must be a non-empty list")
    seen = set()
    for n, sense in enumerate(senses):
        if not isinstance(sense, dict) or not isinstance(sense.get("id"), str):
            raise fail(f"sense #{n} has no string 'id'")
        if sense["id"] in seen:
            raise fail(f"sense id {sense['id']!r} is listed twice")
        seen.add(sense["id"])
        if not isinstance(sense.get("gloss"), str) or not sense["gloss"].strip():
            raise fail(f"sense {sense['id']!r} has no gloss")
        examples = sense.get("examples")
        if not isinstance(examples, list) or not all(isinstance(e, str) for e in examples):
            raise fail(f"sense {sense['id']!r}: 'examples' must be a list of strings")
        if not (sense.get("wordnet") is None or isinstance(sense["wordnet"], str)):
            raise fail(f"sense {sense['id']!r}: 'wordnet' must be a sense key or null")
    return inventory


def read_inventory(path: PathLike) -> dict:
    """Parse and validate one ``.senses.json`` file."""
    try:
        inventory = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}:{err.lineno}: not valid JSON ({err.msg})") from err
    return validate_inventory(inventory, str(path))


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
