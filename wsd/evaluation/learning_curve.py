"""Learning curves over the training-set size: how much labelled data does a system need?"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels, split_instances, stratified_order
from wsd.instance import Instance


def _sizes(sizes: Sequence[float], pool: int) -> list[int]:
    """Training-set sizes as counts: ints are counts, floats in (0, 1] fractions of the pool."""
    counts = []
    for size in sizes:
        count = round(size * pool) if isinstance(size, float) else int(size)
        if not 1 <= count <= pool:
            raise ValueError(
                f"training size {size!r} gives {count} of {pool} training instances; use a "
                "count from 1 to the pool size or a fraction in (0, 1]"
            )
        counts.append(count)
    return counts


def _accuracy(system: Any, instances: Sequence[Instance]) -> float:
    return accuracy([inst.senses for inst in instances], system.predict(instances))


def learning_curve(
    make_system: Callable[[], Any],
    instances: Sequence[Instance],
    sizes: Sequence[float],
    seed: int | None = 0,
    test: float | Sequence[Instance] = 0.2,
) -> pd.DataFrame:
    """Train and test accuracy of fresh systems trained on growing, nested training sets.

    ``make_system()`` returns an unfitted system with ``fit(instances)`` / ``predict(instances)``.
    ``test`` is either held-out instances or the fraction of ``instances`` to hold out (a seeded
    stratified split). Each size (a count, or a float fraction of the training pool) takes a
    prefix of one seeded ``stratified_order`` of the pool, so larger sets contain smaller ones and
    keep the sense proportions. Columns: size, train_accuracy, test_accuracy.
    """
    if isinstance(test, float):
        pool, _, held_out = split_instances(instances, dev=0.0, test=test, seed=seed)
    else:
        pool, held_out = list(instances), list(test)
    if not held_out:
        raise ValueError("no test instances; give a larger test fraction or a test set")
    order = stratified_order(instance_labels(pool), seed=seed)
    rows = []
    for count in _sizes(sizes, len(pool)):
        train = [pool[i] for i in order[:count]]
        system = make_system().fit(train)
        rows.append(
            {
                "size": count,
                "train_accuracy": _accuracy(system, train),
                "test_accuracy": _accuracy(system, held_out),
            }
        )
    return pd.DataFrame(rows, columns=["size", "train_accuracy", "test_accuracy"])
