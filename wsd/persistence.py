"""Versioned JSON model files: save a model, load it back, never unpickle anything.

A model file is one JSON object::

    {"format": "wsd-model", "version": 1, "kind": "MulticlassAveragedPerceptron",
     "params": {...}, "state": {...}}

``kind`` names a class registered with :func:`register_model`; that class turns itself into a
JSON-able dict with ``to_dict()`` (which already carries ``kind``) and back with the
classmethod ``from_dict(d)``.  Because every such dict names its own kind, a composite model
(a featurizer plus a learner) can nest the dicts of its parts and rebuild them with
:func:`object_from_dict`.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, TypeVar

FORMAT = "wsd-model"
VERSION = 1

# Modules that register model kinds; imported on demand so that load_model works even when
# the caller has not imported them yet.
_MODEL_MODULES = ("wsd.learners", "wsd.learners.glosses", "wsd.experiments.pipeline",
                  "wsd.experiments.allwords")
_REGISTRY: dict[str, type] = {}

T = TypeVar("T", bound=type)


def register_model(cls: T) -> T:
    """Class decorator: let files whose ``kind`` is ``cls.__name__`` be loaded as ``cls``."""
    _REGISTRY[cls.__name__] = cls
    return cls


def model_kind(kind: str) -> type:
    """The registered class for ``kind``; ValueError listing the known kinds otherwise."""
    if kind not in _REGISTRY:
        for module in _MODEL_MODULES:
            importlib.import_module(module)
    if kind not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise ValueError(f"unknown model kind {kind!r}; known kinds: {known}")
    return _REGISTRY[kind]


def object_from_dict(data: dict[str, Any], expected: type | None = None) -> Any:
    """Rebuild the object a ``to_dict()`` produced, dispatching on its ``kind`` field.

    With ``expected``, the kind must be that class or a subclass of it.
    """
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("a model dict must be a JSON object with a 'kind' field")
    cls = model_kind(data["kind"])
    if expected is not None and not issubclass(cls, expected):
        raise ValueError(f"expected a {expected.__name__} model, found a {data['kind']}")
    return cls.from_dict(data)


def save_model(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` (a registered model) to ``path`` as a versioned JSON model file."""
    path = Path(path)
    body = obj.to_dict()
    if body.get("kind") not in _REGISTRY:
        raise ValueError(f"{type(obj).__name__} is not a registered model kind; cannot save it")
    payload = {"format": FORMAT, "version": VERSION, **body}
    text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def load_model(path: str | Path, expected: type | None = None) -> Any:
    """Read a model file written by :func:`save_model`.

    Raises ValueError naming the file when it is not JSON (a pickle, say), not a wsd model
    file, written by a newer version of the format, or holds a different model than
    ``expected``.
    """
    path = Path(path)
    raw = path.read_bytes()
    if raw[:1] == b"\x80":
        raise _bad_file(path, "looks like a pickle file; wsd never loads pickles (they can run "
                              "code). Re-train the model and save it with save_model()")
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise _bad_file(path, f"is not a JSON model file ({err})") from err
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        found = payload.get("format") if isinstance(payload, dict) else type(payload).__name__
        raise _bad_file(path, f"is not a wsd model file (format {found!r}, expected {FORMAT!r})")
    version = payload.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _bad_file(path, f"has no valid format version (found {version!r})")
    if version > VERSION:
        raise _bad_file(path, f"uses model format version {version}, but this wsd reads up to "
                              f"version {VERSION}; upgrade wsd to load it")
    try:
        return object_from_dict(payload, expected)
    except KeyError as err:
        raise _bad_file(path, f"could not be loaded: the field {err} is missing") from err
    except (TypeError, ValueError) as err:
        raise _bad_file(path, f"could not be loaded: {err}") from err


def _bad_file(path: Path, problem: str) -> ValueError:
    return ValueError(f"model file {str(path)!r} {problem}")
