"""scikit-learn's parameter protocol without importing scikit-learn: ``get_params``,
``set_params`` and a repr, for every object whose constructor arguments are its settings
(learners, featurizers, systems), so that ``clone``, ``GridSearchCV`` and ``Pipeline`` can
copy and tune them."""

from __future__ import annotations

import inspect
from collections import defaultdict
from typing import Any


class ParamsMixin:
    """Constructor arguments are stored as given, under their own names (checked when used,
    not in ``__init__``); ``get_params``/``set_params`` read and write them, nested
    estimators' ones as ``name__param``."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        parameters = inspect.signature(cls.__init__).parameters.values()
        return sorted(p.name for p in parameters if p.name != "self"
                      and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor parameters; with ``deep``, those of parameters that are
        estimators too, as ``name__param``."""
        params = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                params.update((f"{name}__{key}", inner)
                              for key, inner in value.get_params(deep=True).items())
            params[name] = value
        return params

    def set_params(self, **params: Any):
        """Set constructor parameters (``name__param`` reaches into a nested estimator)."""
        valid = self.get_params(deep=True)
        nested: dict[str, dict[str, Any]] = defaultdict(dict)
        for key, value in params.items():
            name, delimiter, inner = key.partition("__")
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator {self!r}. Valid "
                                 f"parameters are: {self._get_param_names()!r}.")
            if delimiter:
                nested[name][inner] = value
            else:
                setattr(self, name, value)
                valid[name] = value
        for name, inner in nested.items():
            valid[name].set_params(**inner)
        return self

    def __repr__(self) -> str:
        defaults = {p.name: p.default
                    for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = [f"{name}={value!r}" for name, value in self.get_params(deep=False).items()
                   if not (value is defaults.get(name) or _same(value, defaults.get(name)))]
        return f"{type(self).__name__}({', '.join(changed)})"


def _same(value: Any, default: Any) -> bool:
    try:
        return bool(value == default) and type(value) is type(default)
    except (TypeError, ValueError):
        return False
