"""Splits: partition, stratification, determinism."""

from collections import Counter

import numpy as np
import pytest

from wsd.evaluation.splits import (
    instance_labels,
    split_instances,
    stratified_kfold,
    stratified_order,
    train_dev_test_split,
)
from wsd.instance import Instance

# Skewed classes, including ones rarer than k = 5.
LABELS = ["fish"] * 61 + ["music"] * 27 + ["rare"] * 3 + ["single"] * 1 + ["pair"] * 2


def _per_class(labels, index):
    return Counter(labels[i] for i in index)


@pytest.mark.parametrize("k", [2, 3, 5, 10])
def test_kfold_every_item_in_exactly_one_test_fold(k):
    folds = stratified_kfold(LABELS, k=k, seed=1)
    assert len(folds) == k
    tests = np.concatenate([test for _, test in folds])
    assert sorted(tests.tolist()) == list(range(len(LABELS)))
    for train, test in folds:
        assert set(train.tolist()) | set(test.tolist()) == set(range(len(LABELS)))
        assert not set(train.tolist()) & set(test.tolist())
        assert np.all(np.diff(test) > 0) and np.all(np.diff(train) > 0)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_kfold_is_stratified(seed):
    k = 5
    folds = stratified_kfold(LABELS, k=k, seed=seed)
    sizes = [len(test) for _, test in folds]
    assert max(sizes) - min(sizes) <= 1
    for label, total in Counter(LABELS).items():
        counts = [_per_class(LABELS, test)[label] for _, test in folds]
        assert max(counts) - min(counts) <= 1, (label, counts)
        assert sum(counts) == total


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_kfold_class_proportions_like_scikit_learn():
    model_selection = pytest.importorskip("sklearn.model_selection")
    labels = np.array(LABELS)
    theirs = model_selection.StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    theirs_counts = sorted(
        sorted(Counter(labels[test]).get(c, 0) for c in ("fish", "music"))
        for _, test in theirs.split(np.zeros(len(labels)), labels)
    )
    ours_counts = sorted(
        sorted(_per_class(LABELS, test).get(c, 0) for c in ("fish", "music"))
        for _, test in stratified_kfold(LABELS, k=5, seed=0)
    )
    # Both put 12-13 fish and 5-6 music items in every fold.
    for ours, theirs_fold in zip(ours_counts, theirs_counts, strict=True):
        assert abs(ours[0] - theirs_fold[0]) <= 1 and abs(ours[1] - theirs_fold[1]) <= 1


def test_kfold_determinism_and_seed_sensitivity():
    first = stratified_kfold(LABELS, k=5, seed=7)
    again = stratified_kfold(LABELS, k=5, seed=7)
    other = stratified_kfold(LABELS, k=5, seed=8)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(first, again, strict=True))
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, other, strict=True))


def test_kfold_bad_k():
    with pytest.raises(ValueError, match="k must be"):
        stratified_kfold(LABELS, k=1)
    with pytest.raises(ValueError, match="cannot make 4 folds from 3 items"):
        stratified_kfold(["a", "b", "c"], k=4)


def test_train_dev_test_partition_and_sizes():
    items = list(range(len(LABELS)))
    train, dev, test = train_dev_test_split(items, LABELS, dev=0.1, test=0.2, seed=3)
    assert len(test) == round(0.2 * len(items)) and len(dev) == round(0.1 * len(items))
    everything = np.concatenate([train, dev, test])
    assert sorted(everything.tolist()) == items


def test_train_dev_test_is_stratified():
    labels = ["a"] * 500 + ["b"] * 300 + ["c"] * 200
    train, dev, test = train_dev_test_split(labels, labels, dev=0.1, test=0.1, seed=5)
    for part, fraction in ((dev, 0.1), (test, 0.1), (train, 0.8)):
        counts = _per_class(labels, part)
        for label, total in Counter(labels).items():
            assert abs(counts[label] - fraction * total) <= 2, (label, counts)


def test_train_dev_test_determinism_and_unstratified():
    a = train_dev_test_split(LABELS, LABELS, seed=11)
    b = train_dev_test_split(LABELS, LABELS, seed=11)
    c = train_dev_test_split(LABELS, LABELS, seed=12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[2], c[2])
    train, dev, test = train_dev_test_split(range(50), None, dev=0.2, test=0.2, stratify=False)
    assert (len(train), len(dev), len(test)) == (30, 10, 10)


def test_train_dev_test_bad_input():
    with pytest.raises(ValueError, match="no training items"):
        train_dev_test_split(range(10), ["a"] * 10, dev=0.5, test=0.5)
    with pytest.raises(ValueError, match="test must be"):
        train_dev_test_split(range(10), ["a"] * 10, test=1.5)
    with pytest.raises(ValueError, match="one label per item"):
        train_dev_test_split(range(10), ["a"] * 9)
    with pytest.raises(ValueError, match="needs labels"):
        train_dev_test_split(range(10))
    with pytest.raises(ValueError, match="no items"):
        train_dev_test_split([], [])


def _instance(i, sense):
    return Instance(id=f"bass.{i}", tokens=("the", "bass"), span=(1, 2), lemma="bass",
                    senses=(sense,) if sense else ())


def test_split_instances_by_first_sense():
    instances = [_instance(i, "fish" if i % 4 else "music") for i in range(40)]
    train, dev, test = split_instances(instances, dev=0.25, test=0.25, seed=0)
    assert sorted(x.id for x in train + dev + test) == sorted(x.id for x in instances)
    test_counts = Counter(x.sense for x in test)
    assert len(test) == 10 and test_counts["music"] in (2, 3)  # a quarter of 10 music items
    assert instance_labels(instances[:2]) == ["music", "fish"]
    with pytest.raises(ValueError, match="bass.0"):
        instance_labels([_instance(0, None)])


def test_stratified_order_every_prefix_keeps_proportions():
    labels = ["a"] * 60 + ["b"] * 30 + ["c"] * 10
    order = stratified_order(labels, seed=2)
    assert sorted(order.tolist()) == list(range(100))
    n_classes = 3
    for m in range(1, 101):
        counts = _per_class(labels, order[:m])
        for label, total in Counter(labels).items():
            # within 1 of the class's share at the prefix's key, which is within n_classes / n
            # of m / n: a deviation of at most 1 + n_classes * total / n.
            assert abs(counts[label] - m * total / 100) <= 1 + n_classes * total / 100
    assert not np.array_equal(order, stratified_order(labels, seed=3))
    assert np.array_equal(order, stratified_order(labels, seed=2))
