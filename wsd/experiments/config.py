"""Experiment config files: one JSON or TOML file describes one `wsd` command, reproducibly.

Example (TOML)::

    command = "compare"
    corpus = "bundled:bass"
    systems = ["mfs", "lesk", "averaged"]
    folds = 10
    seed = 42

Keys are the command's long options (``-`` or ``_`` both accepted). ``true`` switches a flag on;
``false`` switches it off (``lemmatize = false`` gives ``--no-lemmatize``). A list is allowed only
where the option takes several values (``evaluate``) or a comma-separated list (``systems``);
anywhere else, and for an unknown key or an object value, the config is refused.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wsd.persistence import check_json_depth, loads_json, read_text
from wsd.requests import COMMA_LIST, FLAG, MANY, NEGATABLE, positional_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, published as tomli (a dependency there)
    import tomli as tomllib

_ANY = "any"  # config_to_argv without the command's options (their kinds: wsd.requests)


def read_config(path: str | Path) -> dict[str, Any]:
    """The config as a dict; ValueError naming the file when it cannot be parsed."""
    path = Path(path)
    text = read_text(path)
    try:
        if path.suffix == ".toml":
            config = tomllib.loads(text)
            check_json_depth(config, str(path))  # the nesting limit of JSON configs
        else:
            config = loads_json(text, str(path))
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ValueError(f"{path}: not a valid toml config: nested too deeply") from None
    except ValueError as err:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        message = str(err).removeprefix(f"{path}")
        raise ValueError(f"{path}: not a valid {path.suffix.lstrip('.') or 'JSON'} config"
                         f"{message if message.startswith(':') else ': ' + message}") from None
    if not isinstance(config, dict):
        raise ValueError(f"{path}: a config must be an object (key = value pairs), not a "
                         f"{type(config).__name__}")
    return config


def config_to_argv(config: Mapping[str, Any], source: str = "config",
                   options: Mapping[str, str] | None = None) -> list[str]:
    """Turn a config dict into the argument list of the ``wsd`` command it describes.

    ``options`` (option string -> FLAG, NEGATABLE, MANY, COMMA_LIST or VALUE, for the chosen
    command) lets unknown keys and values of the wrong kind be refused, naming ``source``.
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"{source}: a config must be an object, not a {type(config).__name__}")
    config = dict(config)
    command = config.pop("command", None)
    if options is None:  # kinds unknown: switches on/off, lists comma-joined, values as text
        options = {"--" + str(key).replace("_", "-"): _ANY for key in config}
    if not command or command == "run" or not isinstance(command, str):
        raise ValueError(f"{source}: give the command to run, e.g. command = \"compare\"")
    argv = [command]
    positional_key = positional_of(command)
    positional = config.pop(positional_key, None) if positional_key else None
    for key, value in config.items():
        option = "--" + str(key).replace("_", "-")
        kind = options.get(option)
        if kind is None:
            raise ValueError(f"{source}: unknown key {key!r} for `wsd {command}`; known: "
                             f"{', '.join(o[2:] for o in sorted(options))}")
        argv += _option_argv(option, kind, value, f"{source}: {key!r}")
    if positional is not None:
        values = positional if isinstance(positional, list) else [positional]
        if any(isinstance(v, (dict, list)) for v in values):
            raise ValueError(f"{source}: {positional_key!r} must be text or a list of text")
        argv += [str(v) for v in values]
    return argv


def _option_argv(option: str, kind: str, value: Any, where: str) -> list[str]:
    """The arguments one config key gives."""
    if isinstance(value, dict):
        raise ValueError(f"{where} must be a single value, not a table/object")
    if isinstance(value, bool) or value is None:
        if kind in (FLAG, NEGATABLE, _ANY):
            if value:
                return [option]
            return ["--no-" + option[2:]] if kind == NEGATABLE and value is False else []
        if value is None:
            return []
        raise ValueError(f"{where} takes a value, not {str(value).lower()}")
    if kind in (FLAG, NEGATABLE):
        raise ValueError(f"{where} is a switch: give true or false, not {value!r}")
    if isinstance(value, list):
        if any(isinstance(v, (dict, list, bool)) for v in value) or not value:
            raise ValueError(f"{where} must be a non-empty list of plain values")
        if kind == MANY:
            return [option, *(str(v) for v in value)]
        if kind in (COMMA_LIST, _ANY):
            return [option, ",".join(str(v) for v in value)]
        raise ValueError(f"{where} takes one value, not a list")
    return [option, str(value)]


def load_config(path: str | Path, options_for: Any = None) -> list[str]:
    """Read ``path`` and return the argument list for ``wsd``; ``options_for(command)`` gives
    the command's options (see config_to_argv) so that wrong keys are refused."""
    config = read_config(path)
    command = config.get("command")
    options = None
    if options_for is not None and isinstance(command, str) and command != "run":
        try:
            options = options_for(command)
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from None
    return config_to_argv(config, str(path), options)
