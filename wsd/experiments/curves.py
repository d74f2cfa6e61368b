"""Learning curves: accuracy per epoch, sensitivity to example order, accuracy vs data size."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels, split_instances, stratified_order
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.baselines import MostFrequentSense
from wsd.learners.multiclass import MulticlassPerceptron
from wsd.learners.training import epoch_orders

LEARNERS = {"perceptron": False, "averaged": True}
SIZE_FRACTIONS = (0.1, 0.2, 0.4, 0.6, 0.8, 1.0)
Tick = Callable[[], object] | None  # called once per trained model (a progress bar's update)


def _tick(tick: Tick) -> None:
    if tick is not None:
        tick()


def _features(featurizer: Featurizer, train, dev):
    X_train = featurizer.fit_transform(train)
    return X_train, instance_labels(train), featurizer.transform(dev), instance_labels(dev)


def epoch_curves(
    instances: Sequence[Instance], featurizer: Featurizer, epochs: int = 20, seed: int = 0,
    dev: float = 0.2, tick: Tick = None,
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
            _tick(tick)
    return pd.DataFrame(rows)


def order_sensitivity(
    instances: Sequence[Instance], featurizer: Featurizer, shuffles: int = 10, epochs: int = 5,
    seed: int = 0, dev: float = 0.2, tick: Tick = None,
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
            _tick(tick)
    return pd.DataFrame(rows)


def summarize_orders(table: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation of dev accuracy per learner."""
    return table.groupby("learner")["dev_accuracy"].agg(["mean", "std", "min", "max"])


def size_curve(
    instances: Sequence[Instance], featurizer: Featurizer,
    fractions: Sequence[float] = SIZE_FRACTIONS, epochs: int = 10,
    seed: int = 0, dev: float = 0.2, repeats: int = 1, tick: Tick = None,
) -> pd.DataFrame:
    """Dev accuracy against the number of training instances (nested stratified prefixes),
    for ``repeats`` seeds (seed, seed+1, ...: each draws its own dev split and prefixes), so a
    plot can show the spread; one row per learner, seed and size."""
    rows = []
    for run_seed in range(seed, seed + repeats):
        train, held_out, _ = split_instances(instances, dev=dev, test=0.0, seed=run_seed)
        order = stratified_order(instance_labels(train), seed=run_seed)
        for fraction in fractions:
            size = max(2, int(round(fraction * len(train))))
            subset = [train[i] for i in order[:size]]
            if len(set(instance_labels(subset))) < 2:
                continue
            X, y, X_dev, y_dev = _features(featurizer, subset, held_out)
            for name, average in LEARNERS.items():
                learner = MulticlassPerceptron(epochs=epochs, average=average, seed=run_seed)
                learner.fit(X, y)
                rows.append({"learner": name, "seed": run_seed, "train_size": size,
                             "dev_accuracy": accuracy(y_dev, learner.predict(X_dev))})
                _tick(tick)
    return pd.DataFrame(rows)


def mfs_accuracy(instances: Sequence[Instance], seed: int = 0, dev: float = 0.2) -> float:
    """Dev accuracy of the most frequent sense of the training part, on the curves' split."""
    train, held_out, _ = split_instances(instances, dev=dev, test=0.0, seed=seed)
    mfs = MostFrequentSense().fit(train)
    return accuracy([inst.senses for inst in held_out], mfs.predict(held_out))


def _band(sizes: pd.DataFrame) -> pd.DataFrame:
    """Mean, min and max dev accuracy per learner and mean training size over the seeds."""
    sizes = sizes.assign(step=sizes.groupby(["learner", "seed"]).cumcount())
    return (sizes.groupby(["learner", "step"])
            .agg(train_size=("train_size", "mean"), mean=("dev_accuracy", "mean"),
                 low=("dev_accuracy", "min"), high=("dev_accuracy", "max"))
            .reset_index())


def plot_curves(
    epochs: pd.DataFrame, orders: pd.DataFrame, sizes: pd.DataFrame, path: str | Path,
    title: str = "", mfs: float | None = None,
) -> Path:
    """Save :func:`curves_figure` as a PNG at ``path``."""
    path = Path(path)
    curves_figure(epochs, orders, sizes, title, mfs).savefig(path, dpi=110)
    return path


def curves_figure(
    epochs: pd.DataFrame, orders: pd.DataFrame, sizes: pd.DataFrame, title: str = "",
    mfs: float | None = None,
):
    """Three panels in one matplotlib Figure: accuracy per epoch (integer ticks), dev accuracy
    over example orders (box plots with every run as a point), and dev accuracy against
    training size (mean over the seeds, with a min-max band); ``mfs`` is drawn as a dotted
    line in each panel.
    Needs matplotlib (``pip install 'wsd-perceptron[plot]'``)."""
    try:
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError as err:
        raise ImportError(
            "plots need matplotlib: pip install 'wsd-perceptron[plot]' (the CSV files are "
            "written without it)"
        ) from err
    fig = Figure(figsize=(15, 4.8))  # no pyplot: the caller's backend is left alone
    axes = fig.subplots(1, 3)
    colours = {name: f"C{i}" for i, name in enumerate(LEARNERS)}
    for name, group in epochs.groupby("learner"):
        axes[0].plot(group["epoch"], group["train_accuracy"], "--", color=colours[name],
                     label=f"{name} train")
        axes[0].plot(group["epoch"], group["dev_accuracy"], "-", marker=".", color=colours[name],
                     label=f"{name} dev")
    axes[0].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set(xlabel="epoch", ylabel="accuracy", title="accuracy per epoch")
    names = [name for name in LEARNERS if name in set(orders["learner"])]
    runs = [orders.loc[orders["learner"] == n, "dev_accuracy"].to_numpy() for n in names]
    axes[1].boxplot(runs, showfliers=False)
    jitter = np.random.default_rng(0)  # spreads the points sideways only, for visibility
    for position, (name, values) in enumerate(zip(names, runs, strict=True), start=1):
        axes[1].scatter(position + jitter.uniform(-0.12, 0.12, len(values)), values, s=18,
                        color=colours[name], alpha=0.7, zorder=3)
    axes[1].set_xticks(np.arange(1, len(names) + 1), names)
    axes[1].set(ylabel="dev accuracy", title=f"sensitivity to example order ({len(runs[0])} "
                                             "orders)" if runs else "sensitivity to example order")
    band = _band(sizes)
    n_seeds = sizes["seed"].nunique() if "seed" in sizes else 1
    for name, group in band.groupby("learner"):
        axes[2].plot(group["train_size"], group["mean"], "o-", color=colours.get(name),
                     label=f"{name} (mean of {n_seeds} seeds)" if n_seeds > 1 else name)
        if n_seeds > 1:
            axes[2].fill_between(group["train_size"], group["low"], group["high"],
                                 color=colours.get(name), alpha=0.2)
    axes[2].set(xlabel="training instances", ylabel="dev accuracy",
                title="accuracy vs data size" + (" (band: min-max over seeds)"
                                                 if n_seeds > 1 else ""))
    for axis in axes:
        if mfs is not None:
            axis.axhline(mfs, color="grey", linestyle=":", label=f"MFS ({mfs:.3f})")
        axis.grid(alpha=0.3)
    for axis in (axes[0], axes[2]):
        axis.legend(fontsize="small")
    if mfs is not None:
        axes[1].legend(fontsize="small", loc="lower right")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def curves_title(corpus: str, size: int, settings, curve_epochs: int, shuffles: int,
                 repeats: int, dev: float) -> str:
    """The settings behind a curves figure, for its title."""
    lemmas = "lemmatized " if settings.lemmatize else ""
    window = f", window +-{settings.window}" if settings.window else ""
    return (f"{corpus}: {size} instances, {dev:.0%} dev; {lemmas}{settings.features} features"
            f"{window}, {settings.weighting} weighting; per-epoch curve {curve_epochs} epochs, "
            f"order and size panels {settings.epochs} epochs; {shuffles} orders, "
            f"{repeats} size seeds from seed {settings.seed}")


def run_curves(
    instances: Sequence[Instance], settings, out: str | Path, corpus: str = "",
    curve_epochs: int = 20, shuffles: int = 10, repeats: int = 3, dev: float = 0.2,
    progress: bool = True,
) -> dict[str, pd.DataFrame | Path | float | None]:
    """The three experiments of `wsd curves` with ``settings`` (a SystemSettings), written to
    ``out`` as epochs.csv, orders.csv, sizes.csv and curves.png (when matplotlib is there).

    Returns the tables, the MFS dev accuracy and the PNG path (None without matplotlib).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    featurizer = settings.featurizer()
    total = len(LEARNERS) * (curve_epochs + shuffles + repeats * len(SIZE_FRACTIONS))
    with tqdm(total=total, desc="training", unit="model", disable=not progress) as bar:
        tick = bar.update
        epochs = epoch_curves(instances, featurizer, epochs=curve_epochs, seed=settings.seed,
                              dev=dev, tick=tick)
        orders = order_sensitivity(instances, featurizer, shuffles=shuffles,
                                   epochs=settings.epochs, seed=settings.seed, dev=dev, tick=tick)
        sizes = size_curve(instances, featurizer, epochs=settings.epochs, seed=settings.seed,
                           dev=dev, repeats=repeats, tick=tick)
        bar.update(total - bar.n)  # sizes too small for two senses are skipped
    mfs = mfs_accuracy(instances, seed=settings.seed, dev=dev)
    for name, table in (("epochs", epochs), ("orders", orders), ("sizes", sizes)):
        table.to_csv(out / f"{name}.csv", index=False)
    title = curves_title(corpus, len(instances), settings, curve_epochs, shuffles, repeats, dev)
    try:
        png = plot_curves(epochs, orders, sizes, out / "curves.png", title, mfs=mfs)
    except ImportError:
        png = None
    return {"epochs": epochs, "orders": orders, "sizes": sizes, "mfs": mfs, "png": png}
