"""Experiment config files: one JSON or TOML file describes one `wsd` command, reproducibly.

Example (TOML)::

    command = "compare"
    corpus = "bundled:bass"
    systems = ["mfs", "lesk", "averaged"]
    folds = 10
    seed = 42

Keys are the command's long options (``-`` or ``_`` both accepted); lists are joined with
commas; ``true`` switches a flag on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, published as tomli (a dependency there)
    import tomli as tomllib

POSITIONAL = {"disambiguate": "sentences", "predict": "input"}


def read_config(path: str | Path) -> dict[str, Any]:
    """The config as a dict; ValueError naming the file when it cannot be parsed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".toml":
            return tomllib.loads(text)
        return json.loads(text)
    except ValueError as err:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise ValueError(f"{path}: not a valid {path.suffix.lstrip('.') or 'JSON'} config: "
                         f"{err}") from err


def config_to_argv(config: dict[str, Any], source: str = "config") -> list[str]:
    """Turn a config dict into the argument list of the ``wsd`` command it describes."""
    config = dict(config)
    command = config.pop("command", None)
    if not command or command == "run":
        raise ValueError(f"{source}: give the command to run, e.g. command = \"compare\"")
    argv = [command]
    positional = config.pop(POSITIONAL.get(command, ""), None)
    for key, value in config.items():
        option = "--" + key.replace("_", "-")
        if value is True:
            argv.append(option)
        elif value is False or value is None:
            continue
        elif isinstance(value, list):
            argv += [option, ",".join(str(v) for v in value)]
        else:
            argv += [option, str(value)]
    if positional is not None:
        argv += positional if isinstance(positional, list) else [str(positional)]
    return argv


def load_config(path: str | Path) -> list[str]:
    """Read ``path`` and return the argument list for ``wsd``."""
    return config_to_argv(read_config(path), str(path))
