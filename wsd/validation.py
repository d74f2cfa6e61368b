"""Checks for the parts of a model file, so a damaged or hand-edited file is refused with a
clear message instead of loading and predicting nonsense.

``check_params`` holds constructor parameters to the constructor's type hints and to the
rules below (epochs >= 1, a known engine, ...); ``check_state`` holds the fitted state's
fields, known by name across the learners and weightings, to their shapes: real numbers
(never booleans or strings) where weights are, counters in range, one weight per class.
Numbers in JSON are already finite (``persistence.loads_json`` refuses NaN and 1e999).
"""

from __future__ import annotations

import inspect
import numbers
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

MAX_COUNT = 10**15  # counters beyond this overflow float arithmetic or mean a damaged file
# Weights (and their running sums) beyond this mean a damaged or hand-edited file: a trained
# model's are many orders smaller, and sums of such weights could overflow to infinity.
MAX_WEIGHT_VALUE = 1e30
MAX_OFFSET = 10_000  # a window, collocation offset or context reach, in tokens


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fail(where: str, expected: str, value: Any) -> ValueError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:60] + "..."
    return ValueError(f"{where} must be {expected}, got {shown}")


def _int_in(low: int, high: int = MAX_COUNT) -> Callable[[Any, str], None]:
    def check(value: Any, where: str) -> None:
        if not _is_int(value) or not low <= value <= high:
            raise _fail(where, f"an integer from {low} to {high}", value)
    return check


def _optional(check: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    def optional(value: Any, where: str) -> None:
        if value is not None:
            check(value, where)
    return optional


def _one_of(*choices: str) -> Callable[[Any, str], None]:
    def check(value: Any, where: str) -> None:
        if value not in choices:
            raise _fail(where, f"one of {', '.join(choices)}", value)
    return check


def _real(value: Any, where: str) -> None:
    if not _is_real(value) or not -MAX_WEIGHT_VALUE <= value <= MAX_WEIGHT_VALUE:
        raise _fail(where, f"a number from {-MAX_WEIGHT_VALUE:g} to {MAX_WEIGHT_VALUE:g}", value)


def _positive_real(value: Any, where: str) -> None:
    if not _is_real(value) or value <= 0:
        raise _fail(where, "a positive number", value)


def _list_of(check: Callable[[Any, str], None], min_len: int = 0) -> Callable[[Any, str], None]:
    def check_list(value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) < min_len:
            raise _fail(where, f"a list of at least {min_len} item(s)", value)
        for i, item in enumerate(value):
            check(item, f"{where}[{i}]")
    return check_list


def _map_of(check: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    def check_map(value: Any, where: str) -> None:
        if not isinstance(value, Mapping):
            raise _fail(where, "an object", value)
        for key, item in value.items():
            check(item, f"{where}[{key!r}]")
    return check_map


def _tuple_of(*checks: Callable[[Any, str], None]) -> Callable[[Any, str], None]:
    def check_tuple(value: Any, where: str) -> None:
        if not isinstance(value, list) or len(value) != len(checks):
            raise _fail(where, f"a list of {len(checks)} items", value)
        for i, (check, item) in enumerate(zip(checks, value, strict=True)):
            check(item, f"{where}[{i}]")
    return check_tuple


def _string(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise _fail(where, "a string", value)


def _classes(value: Any, where: str) -> None:
    if not isinstance(value, list) or len(value) < 2:
        raise _fail(where, "a list of at least two labels", value)
    if not (all(isinstance(c, str) for c in value) or all(_is_int(c) for c in value)):
        raise _fail(where, "labels that are all strings or all integers", value)
    if len(set(value)) != len(value):
        raise _fail(where, "distinct labels", value)


def _history(value: Any, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(r, Mapping) for r in value):
        raise _fail(where, "a list of objects", value)


_COUNT = _int_in(1)
_INDEX = _int_in(0)
_REALS = _list_of(_real)

# Parameters (of learners, weightings, extractors) with rules beyond their type hints.
PARAM_RULES: dict[str, Callable[[Any, str], None]] = {
    "epochs": _int_in(1, 100_000),
    "patience": _optional(_int_in(1, 100_000)),
    "engine": _one_of("auto", "dict", "compiled"),
    "seed": _optional(_int_in(0, 2**32 - 1)),
    "window": _optional(_int_in(0, MAX_OFFSET)),
    "left": _int_in(0, MAX_OFFSET),
    "right": _int_in(0, MAX_OFFSET),
}

# Fitted-state fields, by the name the learners and weightings save them under.
STATE_RULES: dict[str, Callable[[Any, str], None]] = {
    "classes": _classes,
    "counter": _COUNT,
    "counts": _list_of(_INDEX, 1),
    "class_counts": _list_of(_INDEX),
    "n_features": _int_in(0),
    "n_contexts": _COUNT,
    "best_epoch": _optional(_COUNT),
    "bias": _REALS,
    "bias_sums": _REALS,
    "coef": _REALS,
    "intercept": _real,
    "total": _positive_real,
    "weights": _map_of(_REALS),
    "weight_sums": _map_of(_REALS),
    "idf": _map_of(_real),
    "column_sums": _map_of(_positive_real),
    "features": _list_of(_string),
    "examples": _list_of(_list_of(_tuple_of(_INDEX, _real))),
    "mistakes": _list_of(_tuple_of(_INDEX, _INDEX, _INDEX)),
    "vectors": _list_of(_tuple_of(_REALS, _real, _INDEX), 1),
    "history": _history,
}


def _matches_hint(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits a simple type hint (int, float, bool, str, None, unions of them);
    other hints (callables, protocols) are not checked here."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_matches_hint(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return _is_int(value)
    if hint is float:
        return _is_real(value)
    if hint is str:
        return isinstance(value, str)
    return not (isinstance(hint, type) and issubclass(hint, numbers.Number))


def check_params(cls: type, params: Any, where: str = "params") -> dict[str, Any]:
    """``params`` as a dict fit for ``cls(**params)``; ValueError naming the bad parameter."""
    if not isinstance(params, Mapping):
        raise _fail(where, "an object", params)
    signature = inspect.signature(cls)
    try:
        hints = typing.get_type_hints(cls.__init__)
    except (NameError, TypeError):  # hints naming types only imported for checking
        hints = {}
    for name, value in params.items():
        if name not in signature.parameters:
            known = ", ".join(p for p in signature.parameters if p != "self")
            raise ValueError(f"{where}: {cls.__name__} has no parameter {name!r} "
                             f"(its parameters: {known})")
        if name in hints and not _matches_hint(value, hints[name]):
            raise _fail(f"{where}.{name}", f"of type {hints[name]}", value)
        if name in PARAM_RULES:
            PARAM_RULES[name](value, f"{where}.{name}")
    return dict(params)


def check_state(state: Any, where: str = "state") -> dict[str, Any] | None:
    """A fitted state (or None): each known field checked for shape, and weight rows checked
    to hold one number per class."""
    if state is None:
        return None
    if not isinstance(state, Mapping):
        raise _fail(where, "an object", state)
    for name, value in state.items():
        if name in STATE_RULES:
            STATE_RULES[name](value, f"{where}.{name}")
    classes = state.get("classes")
    if isinstance(classes, list):
        for field in ("bias", "bias_sums", "class_counts"):
            if field in state and len(state[field]) != len(classes):
                raise ValueError(f"{where}.{field} has {len(state[field])} values for "
                                 f"{len(classes)} classes")
        for field in ("weights", "weight_sums"):
            for feature, row in state.get(field, {}).items():
                if len(row) != len(classes):
                    raise ValueError(f"{where}.{field}[{feature!r}] has {len(row)} weights "
                                     f"for {len(classes)} classes")
    return dict(state)


# Bounds of the sizes command-line options set (each allocates or starts that much).
MAX_WORKERS = 256  # processes of a local Dask cluster, or of joblib (--jobs)
MAX_DOCUMENT_BYTES = 100_000_000  # wsd annotate --max-document-size
MAX_PARTITION_SIZE = 1_000_000  # documents of one annotate partition, held in memory at once
MAX_SHOWN_PROBLEMS = 20  # a longer list of problems is cut to this many and a count


def check_flag(flag: str, value: Any, rule: str) -> None:
    """ValueError naming the command-line ``flag`` when ``value`` breaks ``PARAM_RULES[rule]``,
    the rule the model file's loader holds it to: an option a loader would refuse is refused
    before any work, never written into a model file that cannot be loaded."""
    if value is not None:
        PARAM_RULES[rule](value, flag)


def check_count_flag(flag: str, value: int | None, low: int, high: int,
                     extra: str = "") -> None:  # fmt: skip
    """ValueError naming ``flag`` unless ``value`` (when given) is an integer in [low, high]."""
    if value is None:
        return
    if not _is_int(value):
        raise ValueError(f"{flag} must be an integer from {low} to {high}{extra}, got {value!r}")
    if value < low:
        raise ValueError(f"{flag} must be at least {low}{extra}, got {value}")
    if value > high:
        raise ValueError(f"{flag} must be at most {high}{extra}, got {value}")


def check_real_flag(flag: str, value: float | None, low: float, high: float) -> None:
    """ValueError naming ``flag`` unless ``value`` (when given) is a finite number in
    [low, high] (NaN and infinities never are)."""
    if value is not None and not (_is_real(value) and low <= value <= high):
        raise ValueError(f"{flag} must be a number from {low:g} to {high:g}, got {value!r}")


MIN_TEMPERATURE = 1e-3  # scores divided by less overflow the softmax
MAX_WEIGHT = 1e6  # larger prior/margin/gloss/discourse weights overflow scores or mean a bad file


def check_weight(name: str, value: Any, above_zero: bool = False) -> None:
    """ValueError naming ``name`` (a parameter, or the command line's flag) unless ``value`` is
    a number from 0 (above 0 with ``above_zero``, and then at least MIN_TEMPERATURE) to
    ``MAX_WEIGHT``: an all-words system's decision weights."""
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not (0 < value if above_zero else 0 <= value) or value > MAX_WEIGHT:
        bounds = "above 0 and at most" if above_zero else "from 0 to"
        raise ValueError(f"{name} must be a number {bounds} {MAX_WEIGHT:g}, got {value!r}")
    if above_zero and value < MIN_TEMPERATURE:
        raise ValueError(f"{name} must be at least {MIN_TEMPERATURE:g} (smaller ones overflow "
                         f"the softmax), got {value!r}")


def cut_list(lines: list[str], limit: int = MAX_SHOWN_PROBLEMS) -> list[str]:
    """The first ``limit`` of ``lines`` and, when there are more, a line counting the rest:
    an error about a million bad rows is read, not scrolled past."""
    if len(lines) <= limit + 1:
        return lines
    return [*lines[:limit], f"... and {len(lines) - limit} more not shown"]


def check_parallel_flags(jobs: int | None = None, workers: int | None = None) -> None:
    """ValueError naming ``--jobs`` (1 to MAX_WORKERS, or -1: one per CPU) or ``--workers``
    (1 to MAX_WORKERS) when out of range, before any process is started."""
    if jobs != -1:
        check_count_flag("--jobs", jobs, 1, MAX_WORKERS, " (or -1: one per CPU)")
    check_count_flag("--workers", workers, 1, MAX_WORKERS)


class Problems:
    """``(line, problem)`` pairs as a reader finds them: the first MAX_SHOWN_PROBLEMS kept,
    the rest only counted, so a file of a million bad rows costs neither memory nor a
    flood of an error."""

    def __init__(self) -> None:
        self.first: list[tuple[int, str]] = []
        self.count = 0

    def append(self, problem: tuple[int, str]) -> None:
        self.count += 1
        if len(self.first) < MAX_SHOWN_PROBLEMS:
            self.first.append(problem)

    def __len__(self) -> int:
        return self.count

    def listed(self, source: str) -> str:
        """One ``source:line: problem`` line each, then how many more there are."""
        lines = [f"{source}:{line}: {problem}" for line, problem in sorted(self.first)]
        more = self.count - len(self.first)
        return "\n".join(lines + ([f"... and {more} more not shown"] if more else []))
