"""`wsd curves`: several seeds on the size curve, the MFS line, a readable figure."""

from __future__ import annotations

import pytest

from wsd.cli import build_parser, main
from wsd.corpora.bundled import load_bundled
from wsd.evaluation.splits import split_instances
from wsd.experiments.curves import (
    SIZE_FRACTIONS,
    curves_figure,
    curves_title,
    epoch_curves,
    mfs_accuracy,
    order_sensitivity,
    size_curve,
)
from wsd.experiments.systems import small_corpus_settings
from wsd.features import Featurizer

pytest.importorskip("matplotlib")
CRANE = load_bundled("crane")


@pytest.fixture(scope="module")
def tables():
    featurizer = Featurizer.preset("bow", weighting="tfidf", lemmatize=False)
    return (epoch_curves(CRANE, featurizer, epochs=4, seed=0),
            order_sensitivity(CRANE, featurizer, shuffles=3, epochs=2, seed=0),
            size_curve(CRANE, featurizer, epochs=2, seed=5, repeats=2))


def test_size_curve_has_one_run_per_seed(tables):
    _, _, sizes = tables
    assert sorted(sizes["seed"].unique()) == [5, 6]
    assert len(sizes) == 2 * len(SIZE_FRACTIONS) * 2  # seeds x sizes x learners
    first = sizes[(sizes.seed == 5) & (sizes.learner == "averaged")]["train_size"].tolist()
    assert first == sorted(first)


def test_mfs_line_is_the_majority_sense_share_of_dev():
    train, dev, _ = split_instances(CRANE, dev=0.2, test=0.0, seed=0)
    senses = [i.sense for i in train]
    majority = max(set(senses), key=senses.count)
    expected = sum(i.sense == majority for i in dev) / len(dev)
    assert mfs_accuracy(CRANE, seed=0) == pytest.approx(expected)


def test_figure_has_integer_epochs_points_band_mfs_and_title(tables):
    epochs, orders, sizes = tables
    fig = curves_figure(epochs, orders, sizes, title="crane: settings here", mfs=0.6)
    per_epoch, by_order, by_size = fig.axes
    assert all(float(t).is_integer() for t in per_epoch.get_xticks())
    points = sum(len(c.get_offsets()) for c in by_order.collections)
    assert points == len(orders)  # every run is drawn over the box plots
    assert len(by_size.collections) == 2  # one min-max band per learner
    for axis in fig.axes:
        assert any(line.get_label().startswith("MFS") for line in axis.get_lines())
    assert fig._suptitle.get_text() == "crane: settings here"


def test_title_states_the_settings():
    title = curves_title("bundled:crane", 355, small_corpus_settings(seed=3), 20, 10, 3, 0.2)
    for fragment in ("bundled:crane", "355 instances", "20% dev", "bow features",
                     "tfidf weighting", "20 epochs", "10 epochs", "10 orders", "seed 3"):
        assert fragment in title


def test_epochs_help_states_the_real_default():
    curves = build_parser()._subparsers._group_actions[0].choices["curves"]
    (epochs,) = [a for a in curves._actions if "--epochs" in a.option_strings]
    assert curves.get_default("epochs") == 20 and "(default: 20)" in epochs.help


def test_cli_shows_progress_and_writes_the_figure(tmp_path, capsys):
    assert main(["curves", "--corpus", "bundled:crane", "--epochs", "2", "--shuffles", "2",
                 "--repeats", "1", "--no-lemmatize", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    total = 2 * (2 + 2 + len(SIZE_FRACTIONS))
    assert f"{total}/{total}" in captured.err  # the progress bar got to the end
    assert "MFS dev accuracy" in captured.out
    assert (tmp_path / "curves.png").stat().st_size > 10_000


@pytest.mark.parametrize("option", ["--epochs", "--shuffles", "--repeats"])
def test_counts_below_one_are_one_clear_error(option, tmp_path, capsys):
    assert main(["curves", "--corpus", "bundled:crane", option, "0", "--out", str(tmp_path)]) == 2
    assert "must be at least 1" in capsys.readouterr().err
