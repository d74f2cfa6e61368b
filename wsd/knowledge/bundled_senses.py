"""The files of the bundled sense inventories: where the bundled data folder is (``data_dir``,
$WSD_DATA_DIR, a source checkout's ``data/bundled`` or the installed copy) and reading one
``<target>.senses.json`` (the corpus beside it is read by ``wsd.corpora.bundled``).
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path
from typing import Any

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
        if Path(dist.locate_file("wsd/knowledge/bundled_senses.py")).resolve() == here:
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
