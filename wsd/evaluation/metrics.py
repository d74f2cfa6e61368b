"""Classification metrics for WSD: accuracy, per-class contingency tables, P / R / F-beta, kappa.

Gold items may carry several acceptable senses (as in the all-words data): a gold item is either
one label or a collection of labels. ``accuracy`` counts an answer correct when it is any of them.
Per-class metrics need one class per item, so a multi-sense item is resolved to the *predicted*
sense when that sense is acceptable and to its *first* gold sense otherwise (for an unordered set:
its smallest sense). With this rule a correct answer is always a true positive, and the micro
averages agree with the all-words scorer: micro precision = correct / answered, micro recall =
correct / total. A ``None`` prediction means "no answer": it is wrong for accuracy and a false
negative for its gold class, never a positive for any class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the tables' functions: ``accuracy`` starts fast
    import pandas as pd  # pandas: tables only, slow to import

NO_ANSWER = "<no answer>"  # confusion-matrix column for None predictions
AVERAGES = ("micro", "macro", "weighted")
_COLUMNS = ["precision", "recall", "fscore", "support"]


def _gold_senses(item: Any) -> tuple:
    """The acceptable senses of one gold item, in their given order."""
    if isinstance(item, str) or not isinstance(item, Iterable):
        senses: tuple = (item,)
    elif isinstance(item, (set, frozenset)):
        senses = tuple(_sorted(item))
    else:
        senses = tuple(item)
    if not senses or any(s is None for s in senses):
        raise ValueError(f"gold item {item!r} has no sense; every gold item needs at least one")
    return senses


def _sorted(labels: Iterable[Hashable]) -> list:
    labels = list(labels)
    try:
        return sorted(labels)
    except TypeError:  # mixed label types
        return sorted(labels, key=repr)


def _check_pair(gold: Sequence, predicted: Sequence) -> tuple[list, list]:
    gold, predicted = list(gold), list(predicted)
    if len(gold) != len(predicted):
        raise ValueError(
            f"{len(gold)} gold items but {len(predicted)} predictions; give one prediction per item"
        )
    if not gold:
        raise ValueError("no items to evaluate: gold and predictions are empty")
    return gold, predicted


def _resolve(gold: Sequence, predicted: Sequence) -> tuple[list, list]:
    """One gold class per item (see the module docstring) and the predictions as a list."""
    gold, predicted = _check_pair(gold, predicted)
    classes = []
    for item, answer in zip(gold, predicted, strict=True):
        senses = _gold_senses(item)
        classes.append(answer if answer is not None and answer in senses else senses[0])
    return classes, predicted


def accuracy(gold: Sequence, predicted: Sequence) -> float:
    """Fraction of items whose prediction is one of their gold senses (None counts wrong)."""
    gold, predicted = _check_pair(gold, predicted)
    correct = sum(
        answer is not None and answer in _gold_senses(item)
        for item, answer in zip(gold, predicted, strict=True)
    )
    return correct / len(gold)


def _labels(classes: list, predicted: list, labels: Sequence | None) -> list:
    if labels is not None:
        labels = list(labels)
        if not labels:
            raise ValueError("labels is empty; give at least one label or leave it as None")
        return labels
    return _sorted(set(classes) | {p for p in predicted if p is not None})


def _counts(classes: list, predicted: list, labels: list) -> pd.DataFrame:
    import pandas as pd  # pandas: tables only, slow to import

    total = len(classes)
    gold_count = Counter(classes)
    pred_count = Counter(p for p in predicted if p is not None)
    hits = Counter(c for c, p in zip(classes, predicted, strict=True) if c == p)
    rows = []
    for label in labels:
        tp = hits[label]
        fp = pred_count[label] - tp
        fn = gold_count[label] - tp
        rows.append({"tp": tp, "fp": fp, "fn": fn, "tn": total - tp - fp - fn})
    index = pd.Index(labels, name="label")
    return pd.DataFrame(rows, index=index, columns=["tp", "fp", "fn", "tn"]).astype(int)


def contingency_table(gold: Sequence, predicted: Sequence, label: Hashable) -> dict[str, int]:
    """The lecture's 2x2 table for one class: selected/not selected x correct/not correct."""
    classes, predicted = _resolve(gold, predicted)
    row = _counts(classes, predicted, [label]).iloc[0]
    return {name: int(row[name]) for name in ("tp", "fp", "fn", "tn")}


def contingency_tables(
    gold: Sequence, predicted: Sequence, labels: Sequence | None = None
) -> pd.DataFrame:
    """One row of tp / fp / fn / tn per class (all classes seen, sorted, unless ``labels``)."""
    classes, predicted = _resolve(gold, predicted)
    return _counts(classes, predicted, _labels(classes, predicted, labels))


def _ratio(numerator: np.ndarray, denominator: np.ndarray, zero_division: float) -> np.ndarray:
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    out = np.full(numerator.shape, float(zero_division))
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _fscore(precision: np.ndarray, recall: np.ndarray, beta: float) -> np.ndarray:
    """Weighted harmonic mean (beta^2 + 1) P R / (beta^2 P + R); 0 when P and R are both 0."""
    b2 = beta * beta
    denominator = b2 * precision + recall
    fscore = _ratio((b2 + 1) * precision * recall, denominator, 0.0)
    return np.where(np.isnan(denominator), np.nan, fscore)


def _per_class(table: pd.DataFrame, beta: float, zero_division: float) -> pd.DataFrame:
    import pandas as pd  # pandas: tables only, slow to import

    tp, fp, fn = (table[c].to_numpy() for c in ("tp", "fp", "fn"))
    precision = _ratio(tp, tp + fp, zero_division)
    recall = _ratio(tp, tp + fn, zero_division)
    fscore = _fscore(precision, recall, beta)
    # A class neither in gold nor predicted: every ratio is 0/0.
    fscore = np.where(tp + fp + fn == 0, float(zero_division), fscore)
    return pd.DataFrame(
        {"precision": precision, "recall": recall, "fscore": fscore, "support": tp + fn},
        index=table.index,
    )


def _average(per_class: pd.DataFrame, table: pd.DataFrame, average: str, beta: float,
             zero_division: float) -> dict[str, float]:
    support = int(per_class["support"].sum())
    if average == "micro":
        tp, fp, fn = (int(table[c].sum()) for c in ("tp", "fp", "fn"))
        precision = float(_ratio(tp, tp + fp, zero_division))
        recall = float(_ratio(tp, tp + fn, zero_division))
        fscore = float(_fscore(np.array(precision), np.array(recall), beta))
        if tp + fp + fn == 0:
            fscore = float(zero_division)
    elif average == "macro":
        precision, recall, fscore = (float(per_class[c].mean()) for c in _COLUMNS[:3])
    else:  # weighted by gold support
        if support == 0:
            precision = recall = fscore = float(zero_division)
        else:
            weights = per_class["support"].to_numpy() / support
            precision, recall, fscore = (
                float(np.dot(per_class[c].to_numpy(), weights)) for c in _COLUMNS[:3]
            )
    return {"precision": precision, "recall": recall, "fscore": fscore, "support": support}


def _check_options(beta: float, average: str | None) -> None:
    if not beta >= 0:
        raise ValueError(f"beta must be >= 0 (1 weighs P and R equally), got {beta!r}")
    if average is not None and average not in AVERAGES:
        raise ValueError(f"average must be None or one of {AVERAGES}, got {average!r}")


def precision_recall_fscore(
    gold: Sequence,
    predicted: Sequence,
    beta: float = 1.0,
    average: str | None = None,
    labels: Sequence | None = None,
    zero_division: float = 0.0,
) -> pd.DataFrame | dict[str, float]:
    """Precision, recall and F-beta per class, or one average of them.

    ``average=None`` gives a DataFrame indexed by class with columns precision, recall, fscore,
    support (gold count). 'micro' pools the tp / fp / fn counts of all classes, 'macro' is the
    unweighted mean of the per-class values, 'weighted' their mean weighted by support; these
    return a dict with the same keys. A ratio whose denominator is 0 (a class never predicted has
    precision 0/0; a class absent from gold has recall 0/0) takes ``zero_division``. F is 0 when
    P and R are both 0.
    """
    _check_options(beta, average)
    classes, predicted = _resolve(gold, predicted)
    table = _counts(classes, predicted, _labels(classes, predicted, labels))
    per_class = _per_class(table, beta, zero_division)
    if average is None:
        return per_class
    return _average(per_class, table, average, beta, zero_division)


def classification_report(
    gold: Sequence,
    predicted: Sequence,
    beta: float = 1.0,
    labels: Sequence | None = None,
    zero_division: float = 0.0,
) -> pd.DataFrame:
    """Per-class precision / recall / F-beta / support, then 'micro avg', 'macro avg' and
    'weighted avg' rows. ``beta`` is kept in ``report.attrs['beta']``."""
    import pandas as pd  # pandas: tables only, slow to import

    _check_options(beta, None)
    classes, predicted = _resolve(gold, predicted)
    table = _counts(classes, predicted, _labels(classes, predicted, labels))
    per_class = _per_class(table, beta, zero_division)
    averages = pd.DataFrame(
        [_average(per_class, table, name, beta, zero_division) for name in AVERAGES],
        index=[f"{name} avg" for name in AVERAGES],
    )
    report = pd.concat([per_class, averages[_COLUMNS]])
    report["support"] = report["support"].astype(int)
    report.index.name = "label"
    report.attrs["beta"] = beta
    return report


def confusion_matrix(
    gold: Sequence, predicted: Sequence, labels: Sequence | None = None
) -> pd.DataFrame:
    """Counts with gold classes as rows ('gold') and predicted labels as columns ('predicted').

    With ``labels`` only those rows and columns are kept (items outside them are left out). None
    predictions get their own last column, NO_ANSWER, when there are any.
    """
    import pandas as pd  # pandas: tables only, slow to import

    classes, predicted = _resolve(gold, predicted)
    names = _labels(classes, predicted, labels)
    position = {label: i for i, label in enumerate(names)}
    answered = [p for p in predicted if p is not None]
    columns = names + ([NO_ANSWER] if len(answered) < len(predicted) else [])
    counts = np.zeros((len(names), len(columns)), dtype=int)
    for gold_class, answer in zip(classes, predicted, strict=True):
        row = position.get(gold_class)
        column = len(names) if answer is None else position.get(answer)
        if row is not None and column is not None:
            counts[row, column] += 1
    return pd.DataFrame(
        counts,
        index=pd.Index(names, name="gold"),
        columns=pd.Index(columns, name="predicted"),
    )


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Cohen's kappa between two annotators: (p_o - p_e) / (1 - p_e).

    p_o is the observed agreement and p_e the agreement expected by chance from each annotator's
    own label distribution. When p_e = 1 (both used one and the same label throughout) kappa is
    undefined and NaN is returned.
    """
    a, b = _check_pair(a, b)
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[label] * count_b[label] for label in count_a) / (n * n)
    if expected == 1.0:
        return float("nan")
    return (observed - expected) / (1.0 - expected)
