"""Learning curves: accuracy per epoch, sensitivity to example order, accuracy vs data size."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels, split_instances, stratified_order
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.multiclass import MulticlassPerceptron
from wsd.learners.training import epoch_orders
from wsd.persistence import atomic_open

LEARNERS = {"perceptron": False, "averaged": True}


def _features(featurizer: Featurizer, train, dev):
    X_train = featurizer.fit_transform(train)
    return X_train, instance_labels(train), featurizer.transform(dev), instance_labels(dev)


def epoch_curves(
    instances: Sequence[Instance], featurizer: Featurizer, epochs: int = 20, seed: int = 0,
    dev: float = 0.2,
) -> pd.DataFrame:
    """Train and dev accuracy after every epoch, vanilla vs averaged perceptron.

    Train accuracy is measured with the final weights of the epoch on the whole training set.
    """
    train, held_out, _ = split_instances(instances, dev=dev, test=0.0, seed=seed)
    X, y, X_dev, y_dev = _features(featurizer, train, held_out)
    rows = []
    for name, average in LEARNERS.items():
        learner = MulticlassPerceptron(average=average, seed=seed)
        classes = sorted(set(y))
        for epoch, order in enumerate(epoch_orders(len(X), epochs, seed, True), start=1):
            learner.partial_fit([X[i] for i in order], [y[i] for i in order], classes=classes)
            rows.append({
                "learner": name,
                "epoch": epoch,
                "train_accuracy": accuracy(y, learner.predict(X)),
                "dev_accuracy": accuracy(y_dev, learner.predict(X_dev)),
            })
    return pd.DataFrame(rows)


def order_sensitivity(
    instances: Sequence[Instance], featurizer: Featurizer, shuffles: int = 10, epochs: int = 5,
    seed: int = 0, dev: float = 0.2,
) -> pd.DataFrame:
    """Dev accuracy over ``shuffles`` example orders (seeds seed..seed+shuffles-1), per learner:
    the vanilla perceptron depends on the order far more than the averaged one."""
    train, held_out, _ = split_instances(instances, dev=dev, test=0.0, seed=seed)
    X, y, X_dev, y_dev = _features(featurizer, train, held_out)
    rows = []
    for name, average in LEARNERS.items():
        for order_seed in range(seed, seed + shuffles):
            learner = MulticlassPerceptron(epochs=epochs, average=average, seed=order_seed)
            learner.fit(X, y)
            rows.append({"learner": name, "seed": order_seed,
                         "dev_accuracy": accuracy(y_dev, learner.predict(X_dev))})
    return pd.DataFrame(rows)


def summarize_orders(table: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation of dev accuracy per learner."""
    return table.groupby("learner")["dev_accuracy"].agg(["mean", "std", "min", "max"])


def size_curve(
    instances: Sequence[Instance], featurizer: Featurizer,
    fractions: Sequence[float] = (0.1, 0.2, 0.4, 0.6, 0.8, 1.0), epochs: int = 10,
    seed: int = 0, dev: float = 0.2,
) -> pd.DataFrame:
    """Dev accuracy against the number of training instances (nested stratified prefixes)."""
    train, held_out, _ = split_instances(instances, dev=dev, test=0.0, seed=seed)
    order = stratified_order(instance_labels(train), seed=seed)
    rows = []
    for fraction in fractions:
        size = max(2, int(round(fraction * len(train))))
        subset = [train[i] for i in order[:size]]
        if len(set(instance_labels(subset))) < 2:
            continue
        X, y, X_dev, y_dev = _features(featurizer, subset, held_out)
        for name, average in LEARNERS.items():
            learner = MulticlassPerceptron(epochs=epochs, average=average, seed=seed).fit(X, y)
            rows.append({"learner": name, "train_size": size,
                         "dev_accuracy": accuracy(y_dev, learner.predict(X_dev))})
    return pd.DataFrame(rows)


def plot_curves(
    epochs: pd.DataFrame, orders: pd.DataFrame, sizes: pd.DataFrame, path: str | Path,
    title: str = "",
) -> Path:
    """Three panels in one PNG. Needs matplotlib (``pip install 'wsd-perceptron[plot]'``)."""
    try:
        from matplotlib.figure import Figure
    except ImportError as err:
        raise ImportError(
            "plots need matplotlib: pip install 'wsd-perceptron[plot]' (the CSV files are "
            "written without it)"
        ) from err
    fig = Figure(figsize=(15, 4.2))  # no pyplot: the caller's backend is left alone
    axes = fig.subplots(1, 3)
    colours = {name: f"C{i}" for i, name in enumerate(sorted(epochs["learner"].unique()))}
    for name, group in epochs.groupby("learner"):
        axes[0].plot(group["epoch"], group["train_accuracy"], "--", color=colours[name],
                     label=f"{name} train")
        axes[0].plot(group["epoch"], group["dev_accuracy"], "-", color=colours[name],
                     label=f"{name} dev")
    axes[0].set(xlabel="epoch", ylabel="accuracy", title="accuracy per epoch")
    names = sorted(orders["learner"].unique())
    axes[1].boxplot([orders.loc[orders["learner"] == n, "dev_accuracy"] for n in names])
    axes[1].set_xticks(np.arange(1, len(names) + 1), names)
    axes[1].set(ylabel="dev accuracy", title="sensitivity to example order")
    for name, group in sizes.groupby("learner"):
        axes[2].plot(group["train_size"], group["dev_accuracy"], "o-",
                     color=colours.get(name), label=name)
    axes[2].set(xlabel="training instances", ylabel="dev accuracy", title="accuracy vs data size")
    for axis in (axes[0], axes[2]):
        axis.legend()
        axis.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    path = Path(path)
    with atomic_open(path, "wb") as stream:
        fig.savefig(stream, dpi=110, format="png")
    return path
