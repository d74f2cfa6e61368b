"""Learning curves: accuracy per epoch, sensitivity to example order, accuracy vs data size."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm import tqdm

from wsd.corpora.resolve import load_corpus
from wsd.evaluation.metrics import accuracy
from wsd.evaluation.splits import instance_labels, split_instances, stratified_order
from wsd.experiments.figures import (
    REPORT_DPI,
    add_caption,
    fit_ylim,
    report_figure,
    report_style,
)
from wsd.experiments.report import write_csv
from wsd.features import Featurizer
from wsd.instance import Instance
from wsd.learners.multiclass import MulticlassPerceptron
from wsd.learners.training import epoch_orders
from wsd.persistence import atomic_open
from wsd.requests import CommandNote, CurvesRequest, given
from wsd.systems.baselines import MostFrequentSense
from wsd.systems.named import settings_for

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


CURVE_FIGURES = ("epochs", "orders", "sizes")  # curves-<name>.png, one panel each


def plot_curves(
    epochs: pd.DataFrame, orders: pd.DataFrame, sizes: pd.DataFrame, out: str | Path,
    caption: str = "", mfs: float | None = None,
) -> list[Path]:
    """Save :func:`curves_figures` in folder ``out`` as curves-epochs.png, curves-orders.png
    and curves-sizes.png (300 dpi, one report column wide); returns their paths."""
    paths = []
    for name, figure in curves_figures(epochs, orders, sizes, caption, mfs).items():
        path = Path(out) / f"curves-{name}.png"
        with atomic_open(path, "wb") as stream:
            figure.savefig(stream, dpi=REPORT_DPI, format="png")
        paths.append(path)
    return paths


def curves_figures(
    epochs: pd.DataFrame, orders: pd.DataFrame, sizes: pd.DataFrame, caption: str = "",
    mfs: float | None = None,
) -> dict[str, Any]:
    """Three matplotlib Figures, one panel each, sized for a report's column
    (``wsd.experiments.figures``): "epochs", train (dashed) and dev accuracy per epoch
    (integer ticks); "orders", dev accuracy over example orders (box plots with every run as
    a point); "sizes", dev accuracy against training size (mean over the seeds, with a
    min-max band). Each y-axis is fitted to the values compared; the MFS dev accuracy
    ``mfs`` is a dotted line where it falls inside, else a note; ``caption`` (the settings)
    is printed under each. Needs matplotlib (``pip install 'wsd-perceptron[plot]'``)."""
    try:
        from matplotlib.ticker import MaxNLocator  # the optional [plot] extra
    except ImportError as err:
        raise ImportError(
            "plots need matplotlib: pip install 'wsd-perceptron[plot]' (the CSV files are "
            "written without it)"
        ) from err
    colours = {name: f"C{i}" for i, name in enumerate(LEARNERS)}
    figures = {}
    with report_style():
        figure = report_figure()
        axis = figure.subplots()
        for name, group in epochs.groupby("learner"):
            axis.plot(group["epoch"], group["train_accuracy"], "--", color=colours[name],
                      linewidth=0.9)
            axis.plot(group["epoch"], group["dev_accuracy"], "-", marker=".",
                      color=colours[name], label=name)
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        fit_ylim(axis, [*epochs["dev_accuracy"], *epochs["train_accuracy"]], mfs)
        axis.set(xlabel="epoch", ylabel="accuracy", title="Accuracy per epoch")
        notes = {"epochs": "Solid: dev accuracy; dashed: training accuracy."}
        figures["epochs"] = figure

        figure = report_figure()
        axis = figure.subplots()
        names = [name for name in LEARNERS if name in set(orders["learner"])]
        runs = [orders.loc[orders["learner"] == n, "dev_accuracy"].to_numpy() for n in names]
        axis.boxplot(runs, showfliers=False, widths=0.5, medianprops={"color": "black"})
        jitter = np.random.default_rng(0)  # spreads the points sideways only, for visibility
        for position, (name, values) in enumerate(zip(names, runs, strict=True), start=1):
            axis.scatter(position + jitter.uniform(-0.12, 0.12, len(values)), values, s=8,
                         color=colours[name], alpha=0.7, zorder=3)
        axis.set_xticks(np.arange(1, len(names) + 1), names)
        fit_ylim(axis, orders["dev_accuracy"], mfs)
        axis.set(ylabel="dev accuracy", title="Sensitivity to example order")
        count = f"{len(runs[0])} " if runs else ""
        notes["orders"] = f"Dev accuracy over {count}training orders; a point per order."
        figures["orders"] = figure

        figure = report_figure()
        axis = figure.subplots()
        band = _band(sizes)
        n_seeds = sizes["seed"].nunique() if "seed" in sizes else 1
        for name, group in band.groupby("learner"):
            axis.plot(group["train_size"], group["mean"], "o-", color=colours.get(name),
                      label=name)
            if n_seeds > 1:
                axis.fill_between(group["train_size"], group["low"], group["high"],
                                  color=colours.get(name), alpha=0.2)
        fit_ylim(axis, [*band["low"], *band["high"]], mfs)
        axis.set(xlabel="training instances", ylabel="dev accuracy",
                 title="Accuracy vs training size")
        notes["sizes"] = (f"Mean dev accuracy of {n_seeds} seeds; band: min-max."
                          if n_seeds > 1 else "Dev accuracy, one seed.")
        figures["sizes"] = figure
        for name, figure in figures.items():
            for axis in figure.axes:
                axis.grid(alpha=0.3)
                if axis.get_legend_handles_labels()[0]:
                    axis.legend(loc="best")
            add_caption(figure, f"{notes[name]} {caption}".strip())
    return figures


def curves_title(corpus: str, size: int, settings, curve_epochs: int, shuffles: int,
                 repeats: int, dev: float) -> str:
    """The settings behind the curves figures, for their caption."""
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
    ``out`` as epochs.csv, orders.csv, sizes.csv and one PNG per panel (``plot_curves``, when
    matplotlib is there). Returns the tables, the MFS dev accuracy and the PNG paths (none
    without matplotlib).
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
        write_csv(table, out / f"{name}.csv", index=False)
    caption = curves_title(corpus, len(instances), settings, curve_epochs, shuffles, repeats,
                           dev)  # fmt: skip
    try:
        pngs = plot_curves(epochs, orders, sizes, out, caption, mfs=mfs)
    except ImportError:
        pngs = []
    return {"epochs": epochs, "orders": orders, "sizes": sizes, "mfs": mfs, "pngs": pngs}


def curves_command(request: CurvesRequest) -> Iterator[str]:
    """`wsd curves`: the three panels written to ``request.out``; their summary as printed."""
    instances = load_corpus(request.corpus)
    result = run_curves(instances, settings_for(request, request.corpus), request.out,
                        corpus=request.corpus, progress=not request.quiet,
                        **given(request, "epochs", "shuffles", "repeats",
                                rename={"epochs": "curve_epochs"}))
    yield summarize_orders(result["orders"]).round(4).to_string()
    yield f"MFS dev accuracy {result['mfs']:.4f}"
    if not result["pngs"]:
        warnings.warn("note: no plot: matplotlib is not installed (pip install "
                      "'wsd-perceptron[plot]')", CommandNote, stacklevel=2)
    else:
        yield f"wrote {', '.join(str(path) for path in result['pngs'])}"
    yield f"wrote epochs.csv, orders.csv, sizes.csv in {request.out}"
