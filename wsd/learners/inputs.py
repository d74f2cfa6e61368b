"""Checks of what learners are given: feature dicts, feature matrices, labels and options.

The messages follow scikit-learn's wording where its tools look for it (``Unknown label
type``, ``0 feature(s) (shape=...)``, ``X has 3 features, but ... is expecting 4``), without
importing scikit-learn.
"""

from __future__ import annotations

import numbers
import sys
import warnings
from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from math import isfinite
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # imported on use: reading raw text with a model needs no scipy
    import scipy.sparse as sp

# A feature dict after checking: (name, value) pairs with finite non-zero float values.
Example = tuple[tuple[str, float], ...]


class DataConversionWarning(UserWarning):
    """Input was converted to the layout a learner needs (scikit-learn's warning of the
    same name and meaning, e.g. for a column-vector ``y``)."""


@cache
def _joined(ours: type, theirs: type) -> type:
    return type(ours.__name__, (ours, theirs), {"__module__": ours.__module__})


def as_sklearn(ours: type) -> type:
    """``ours`` (an exception or warning class) or, when scikit-learn is loaded, a subclass
    of both it and scikit-learn's class of the same name, so that scikit-learn's tools
    recognise it; scikit-learn itself is never imported here."""
    theirs = getattr(sys.modules.get("sklearn.exceptions"), ours.__name__, None)
    return ours if theirs is None else _joined(ours, theirs)


def check_epochs(epochs: Any) -> int:
    """``epochs`` as an int >= 1, or ValueError."""
    if isinstance(epochs, bool) or not isinstance(epochs, numbers.Integral) or epochs < 1:
        raise ValueError(f"epochs must be an integer >= 1, got {epochs!r}")
    return int(epochs)


def check_patience(patience: Any) -> int | None:
    """``patience`` as None or an int >= 1, or ValueError."""
    if patience is not None and (isinstance(patience, bool)
                                 or not isinstance(patience, numbers.Integral) or patience < 1):
        raise ValueError(f"patience must be None or an integer >= 1, got {patience!r}")
    return None if patience is None else int(patience)


def check_labels(y: Any, n_examples: int, what: str = "y") -> list:
    """The class labels as a plain list (numpy scalars as Python values).

    ValueError for no ``y``, empty data, a length that does not match X, NaN/inf or
    continuous (non-integer float) values, which are regression targets, not classes.
    A column vector is flattened with a DataConversionWarning, as scikit-learn does.
    """
    if y is None:
        raise ValueError(f"this learner requires y to be passed, but the target {what} is None")
    if n_examples == 0:
        raise ValueError("no training examples: X is empty")
    if hasattr(y, "__array__"):
        array = np.asarray(y)
        if array.ndim == 2 and array.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                          "change the shape of y to (n_samples,), for example using ravel().",
                          as_sklearn(DataConversionWarning), stacklevel=3)
            array = array.ravel()
        if array.ndim != 1:
            raise ValueError(f"{what} should be a 1d array of labels, got shape {array.shape}")
        if array.dtype.kind == "c":
            raise ValueError("Complex data not supported as labels")
        labels = array.tolist()
    else:
        labels = list(y)
    if len(labels) != n_examples:
        raise ValueError(f"X has {n_examples} examples but {what} has {len(labels)} labels; "
                         "they must match one to one")
    for label in labels:
        if isinstance(label, float) and not label.is_integer():
            kind = "NaN or infinity" if not isfinite(label) else "continuous values"
            raise ValueError(f"Unknown label type: {what} contains {kind} ({label!r}); class "
                             "labels must be strings or integers")
    return labels


def sorted_classes(labels: Sequence[Hashable], minimum: int = 2) -> list:
    """The distinct labels in sorted order (the order of ``classes_``).

    A single class is refused: a word-sense classifier must choose between >= 2 senses.
    """
    try:
        classes = sorted(set(labels))
    except TypeError as err:
        raise ValueError(f"labels must be mutually comparable (e.g. all strings): {err}") from err
    if len(classes) < minimum:
        found = f"only one class (the label {classes[0]!r})" if classes else "no labels"
        raise ValueError(
            f"the training data has {found}; a word-sense classifier needs at least two "
            "senses (classes) to choose from. For a word with one observed sense use the "
            "most-frequent-sense baseline (MFS) instead")
    return classes


def check_feature_dicts(X: Sequence[Mapping[str, float]], what: str = "X") -> list[Example]:
    """Check every feature dict once and return it as (name, float value) pairs.

    Feature names must be strings (they become JSON keys in model files) and values finite
    real numbers; zero values are dropped since they neither score nor update.
    """
    examples = []
    for i, features in enumerate(X):
        if not isinstance(features, Mapping):
            raise ValueError(f"{what}[{i}] is a {type(features).__name__}, expected a feature "
                             "dict {name: value}")
        pairs = []
        for name, value in features.items():
            if not isinstance(name, str):
                raise ValueError(f"{what}[{i}] has a feature name {name!r} of type "
                                 f"{type(name).__name__}; feature names must be strings")
            if type(value) is not float:  # the common case skips the slower ABC check
                if not isinstance(value, numbers.Real):
                    raise ValueError(f"{what}[{i}] feature {name!r} has the non-numeric value "
                                     f"{value!r}; feature values must be real numbers")
                value = float(value)
            if not isfinite(value):
                raise ValueError(f"{what}[{i}] feature {name!r} has the value {value}; "
                                 "feature values must be finite (no NaN or inf)")
            if value != 0.0:
                pairs.append((name, value))
        examples.append(tuple(pairs))
    return examples


def check_matrix(X: Any, n_features: int | None = None, what: str = "X",
                 learner: str = "the model") -> sp.csr_matrix:
    """``X`` (dense array-like or scipy.sparse, 2-D, finite real numbers) as a float64 CSR
    matrix in canonical form (sorted, no duplicate entries); the caller's data is never
    changed. ``n_features``: the width the model was trained on."""
    import scipy.sparse as sp

    if sp.issparse(X):
        if X.dtype.kind == "c":
            raise ValueError("Complex data not supported")
        matrix = X.tocsr().astype(np.float64, copy=False)
        if not matrix.has_canonical_format:
            matrix = matrix.copy()
            matrix.sum_duplicates()
    else:
        array = np.asarray(X)
        if array.dtype.kind == "c":
            raise ValueError("Complex data not supported")
        try:
            array = array.astype(np.float64, copy=False)
        except ValueError as err:  # strings; other objects raise TypeError, as in numpy
            raise ValueError(f"{what} must hold numbers only: {err}") from err
        if array.ndim != 2:
            raise ValueError(f"Expected 2D array, got {array.ndim}D array instead: {what} must be "
                             "examples x features. Reshape your data with .reshape(-1, 1) for "
                             "one feature or .reshape(1, -1) for one example")
        matrix = sp.csr_matrix(array)
    if 0 in matrix.shape:
        kind = "sample(s)" if matrix.shape[0] == 0 else "feature(s)"
        raise ValueError(f"Found array with 0 {kind} (shape={matrix.shape}) while a minimum of "
                         "1 is required.")
    bad = np.flatnonzero(~np.isfinite(matrix.data))
    if bad.size:
        position = bad[0]
        row = int(np.searchsorted(matrix.indptr, position, side="right") - 1)
        column = int(matrix.indices[position])
        raise ValueError(f"{what}[{row}, {column}] is {matrix.data[position]}; feature values "
                         "must be finite (no NaN or inf)")
    if n_features is not None and matrix.shape[1] != n_features:
        raise ValueError(f"X has {matrix.shape[1]} features, but {learner} is expecting "
                         f"{n_features} features as input.")
    return matrix


def is_feature_dicts(X: Any) -> bool:
    """Whether ``X`` holds feature dicts (a sequence or 1-D object array of mappings, or any
    other iterable); matrices, arrays, data frames and lists of rows are not."""
    import scipy.sparse as sp

    if sp.issparse(X):
        return False
    if hasattr(X, "__array__"):
        return (isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype == object
                and (X.size == 0 or isinstance(X[0], Mapping)))
    if isinstance(X, Sequence):
        return len(X) == 0 or isinstance(X[0], Mapping)
    return True


def column_name(j: int) -> str:
    """The feature name of matrix column ``j`` (scikit-learn's ``x0, x1, ...``)."""
    return f"x{j}"


def matrix_examples(matrix: sp.csr_matrix) -> list[Example]:
    """The rows of a checked CSR matrix as examples named ``x<column>``; zeros left out."""
    indptr, indices, data = matrix.indptr, matrix.indices.tolist(), matrix.data.tolist()
    return [tuple((column_name(j), v) for j, v in zip(indices[start:stop], data[start:stop],
                                                      strict=True) if v != 0.0)
            for start, stop in zip(indptr[:-1].tolist(), indptr[1:].tolist(), strict=True)]


UPDATES = ("perceptron", "pa")  # the multiclass perceptron's update rules


def check_update_options(margin: float, update: str, C: float) -> None:
    """ValueError unless margin >= 0, update is one of UPDATES and C > 0."""
    if update not in UPDATES:
        raise ValueError(f"update must be one of {', '.join(UPDATES)}, got {update!r}")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0:
        raise ValueError(f"margin must be a number >= 0, got {margin!r}")
    if isinstance(C, bool) or not isinstance(C, (int, float)) or not C > 0:
        raise ValueError(f"C must be a number > 0, got {C!r}")


def check_prediction_options(n_models: int, prior: float, backoff_margin: float) -> None:
    """ValueError unless n_models is an integer >= 1 and prior, backoff_margin are >= 0."""
    if isinstance(n_models, bool) or not isinstance(n_models, int) or n_models < 1:
        raise ValueError(f"n_models must be an integer >= 1, got {n_models!r}")
    for name, value in (("prior", prior), ("backoff_margin", backoff_margin)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
            raise ValueError(f"{name} must be a number >= 0, got {value!r}")
