"""Seeded, stratified data splits: train/dev/test and k-fold cross-validation.

Both work on label sequences and return index arrays, so they split any parallel data. Classes are
kept in proportion: items are grouped by class (shuffled within each class, classes in a shuffled
order) and then dealt out evenly, so every class's count in a part or fold is within one of its
proportional share, and classes rarer than the number of folds are simply spread round-robin.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from wsd.instance import Instance


def _shuffled_groups(labels: Sequence[Hashable], rng: np.random.Generator) -> list[np.ndarray]:
    """Item indices per class: classes in random order, items shuffled within each."""
    by_class: dict[Hashable, list[int]] = {}
    for i, label in enumerate(labels):
        by_class.setdefault(label, []).append(i)
    groups = list(by_class.values())  # first-appearance order, made random below
    return [rng.permutation(groups[g]).astype(int) for g in rng.permutation(len(groups))]


def _grouped_order(labels: Sequence[Hashable], rng: np.random.Generator) -> np.ndarray:
    """Item indices grouped by class (see ``_shuffled_groups``)."""
    return np.concatenate(_shuffled_groups(labels, rng))


def _spread(n_pick: int, n_total: int, rng: np.random.Generator) -> np.ndarray:
    """``n_pick`` evenly spaced positions in ``range(n_total)`` with a random offset."""
    if n_pick == 0:
        return np.zeros(0, dtype=int)
    step = n_total / n_pick
    return np.floor((np.arange(n_pick) + rng.random()) * step).astype(int)


def _check_labels(n_items: int, labels: Sequence[Hashable] | None, stratify: bool) -> list:
    if n_items == 0:
        raise ValueError("nothing to split: there are no items")
    if labels is None:
        if stratify:
            raise ValueError("a stratified split needs labels; give labels or stratify=False")
        return [0] * n_items
    labels = list(labels)
    if len(labels) != n_items:
        raise ValueError(f"{n_items} items but {len(labels)} labels; give one label per item")
    return labels if stratify else [0] * n_items


def train_dev_test_split(
    items: Sequence,
    labels: Sequence[Hashable] | None = None,
    dev: float = 0.1,
    test: float = 0.1,
    seed: int | None = 0,
    stratify: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted index arrays (train, dev, test) into ``items``.

    The test part holds ``round(test * n)`` items and the dev part ``round(dev * n)``; with
    ``stratify`` each class is split in the same proportions (to within one item).
    """
    for name, fraction in (("dev", dev), ("test", test)):
        if not 0 <= fraction < 1:
            raise ValueError(f"{name} must be a fraction in [0, 1), got {fraction!r}")
    n = len(items)
    labels = _check_labels(n, labels, stratify)
    n_test, n_dev = round(test * n), round(dev * n)
    if n_test + n_dev >= n:
        raise ValueError(
            f"dev={dev} and test={test} leave no training items out of {n}; use smaller fractions"
        )
    rng = np.random.default_rng(seed)
    order = _grouped_order(labels, rng)
    is_test = np.zeros(n, dtype=bool)
    is_test[_spread(n_test, n, rng)] = True
    rest = order[~is_test]
    is_dev = np.zeros(len(rest), dtype=bool)
    is_dev[_spread(n_dev, len(rest), rng)] = True
    return np.sort(rest[~is_dev]), np.sort(rest[is_dev]), np.sort(order[is_test])


def stratified_kfold(
    labels: Sequence[Hashable], k: int = 5, seed: int | None = 0
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``k`` (train, test) pairs of sorted index arrays; every item is in exactly one test fold.

    Items are dealt to folds round-robin along the class-grouped order, so fold sizes differ by at
    most one and so do the per-class counts of any two folds.
    """
    labels = list(labels)
    if not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    if k > len(labels):
        raise ValueError(f"cannot make {k} folds from {len(labels)} items; use k <= {len(labels)}")
    rng = np.random.default_rng(seed)
    order = _grouped_order(labels, rng)
    fold_of = np.empty(len(labels), dtype=int)
    fold_of[order] = (np.arange(len(labels)) + rng.integers(k)) % k
    everything = np.arange(len(labels))
    return [(everything[fold_of != f], everything[fold_of == f]) for f in range(k)]


def stratified_order(labels: Sequence[Hashable], seed: int | None = 0) -> np.ndarray:
    """A permutation of the item indices whose every prefix keeps the class proportions.

    The j-th of a class's n_c (shuffled) items gets the key (j + u) / n_c with a random offset u
    per class; sorting by key interleaves the classes evenly. Taking growing prefixes gives nested,
    stratified training sets, e.g. for learning curves.
    """
    labels = list(labels)
    if not labels:
        raise ValueError("nothing to order: there are no labels")
    rng = np.random.default_rng(seed)
    groups = _shuffled_groups(labels, rng)
    keys = np.concatenate([(np.arange(len(g)) + rng.random()) / len(g) for g in groups])
    order = np.concatenate(groups)
    return order[np.argsort(keys, kind="stable")]


def instance_labels(instances: Sequence[Instance]) -> list[str]:
    """The training label of each instance (its first gold sense); unlabelled -> ValueError."""
    labels = []
    for inst in instances:
        if not inst.senses:
            raise ValueError(f"instance {inst.id!r} has no gold sense; splits need labelled data")
        labels.append(inst.senses[0])
    return labels


def split_instances(
    instances: Sequence[Instance],
    dev: float = 0.1,
    test: float = 0.1,
    seed: int | None = 0,
    stratify: bool = True,
) -> tuple[list[Instance], list[Instance], list[Instance]]:
    """Train, dev and test lists of instances, stratified by first gold sense."""
    labels = instance_labels(instances) if stratify else None
    train, dev_idx, test_idx = train_dev_test_split(
        instances, labels, dev=dev, test=test, seed=seed, stratify=stratify
    )
    return (
        [instances[i] for i in train],
        [instances[i] for i in dev_idx],
        [instances[i] for i in test_idx],
    )
