"""`wsd curves`: several seeds on the size curve, the MFS line, figures a report can use."""

from __future__ import annotations

import inspect

import pytest

from wsd.cli import build_parser, main
from wsd.corpora.bundled import load_bundled
from wsd.evaluation.splits import split_instances
from wsd.experiments.curves import (
    SIZE_FRACTIONS,
    curves_figures,
    curves_title,
    epoch_curves,
    mfs_accuracy,
    order_sensitivity,
    run_curves,
    size_curve,
)
from wsd.experiments.figures import REPORT_DPI, REPORT_WIDTH, clipped_texts, fit_ylim, report_figure
from wsd.features import Featurizer
from wsd.systems.named import small_corpus_settings

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


def test_one_figure_per_panel_with_integer_epochs_points_band_and_mfs(tables):
    epochs, orders, sizes = tables
    figures = curves_figures(epochs, orders, sizes, caption="crane: settings here", mfs=0.6)
    assert list(figures) == ["epochs", "orders", "sizes"]
    (per_epoch,), (by_order,), (by_size,) = (figure.axes for figure in figures.values())
    assert all(float(t).is_integer() for t in per_epoch.get_xticks())
    points = sum(len(c.get_offsets()) for c in by_order.collections)
    assert points == len(orders)  # every run is drawn over the box plots
    assert len(by_size.collections) == 2  # one min-max band per learner
    for figure in figures.values():
        assert any("crane: settings here" in " ".join(text.get_text().split())
                   for text in figure.texts)


def test_figures_fit_a_report_column_with_nothing_clipped(tables):
    """The one-row figure had been 1650x528 pixels with its title cut at both ends; each
    panel is one column of a report (3.5 in), and its title, labels, legend and caption
    (a long settings line) lie inside it, by matplotlib's tight bounding box."""
    epochs, orders, sizes = tables
    caption = curves_title("bundled:crane", 355, small_corpus_settings(seed=3), 20, 10, 3, 0.2)
    for figure in curves_figures(epochs, orders, sizes, caption=caption, mfs=0.6).values():
        figure.canvas.draw()
        width, height = figure.get_size_inches()
        assert width == REPORT_WIDTH and 2.5 <= height <= 3.5
        assert clipped_texts(figure) == []
        assert len(figure.axes[0].get_title()) <= 32  # a title that fits: the settings go below
    figure = curves_figures(epochs, orders, sizes, mfs=0.6)["sizes"]
    figure.axes[0].set_title("a title far too long for one column of a report, cut at both ends")
    figure.canvas.draw()
    assert clipped_texts(figure) == [figure.axes[0].get_title(), "the drawn artists"]


def test_y_axis_shows_the_differences_compared_and_notes_an_mfs_outside():
    """The order panel's axis had stretched down to the MFS line, leaving the boxes slivers:
    the axis fits the values compared, and an MFS below them is a note, not a line."""
    figure = report_figure()
    axis = figure.subplots()
    fit_ylim(axis, [0.80, 0.84, 0.82], mfs=0.6)
    low, high = axis.get_ylim()
    assert 0.78 <= low < 0.80 and 0.84 < high <= 0.86
    assert not axis.get_lines() and [t.get_text() for t in axis.texts] == ["MFS 0.600, below"]
    axis = report_figure().subplots()
    fit_ylim(axis, [0.5, 0.9], mfs=0.6)
    assert [line.get_label() for line in axis.get_lines()] == ["MFS (0.600)"]


def test_title_states_the_settings():
    title = curves_title("bundled:crane", 355, small_corpus_settings(seed=3), 20, 10, 3, 0.2)
    for fragment in ("bundled:crane", "355 instances", "20% dev", "bow features",
                     "tfidf weighting", "20 epochs", "10 epochs", "10 orders", "seed 3"):
        assert fragment in title


def test_epochs_help_states_the_real_default(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["curves", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert inspect.signature(run_curves).parameters["curve_epochs"].default == 20
    assert "--epochs EPOCHS length of the accuracy-per-epoch curve (default: 20)" in shown


def test_cli_shows_progress_and_writes_the_figure(tmp_path, capsys):
    assert main(["curves", "--corpus", "bundled:crane", "--epochs", "2", "--shuffles", "2",
                 "--repeats", "1", "--no-lemmatize", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    total = 2 * (2 + 2 + len(SIZE_FRACTIONS))
    assert f"{total}/{total}" in captured.err  # the progress bar got to the end
    assert "MFS dev accuracy" in captured.out
    for name in ("epochs", "orders", "sizes"):
        png = tmp_path / f"curves-{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
        width = int.from_bytes(png.read_bytes()[16:20], "big")  # the IHDR chunk's width
        assert width == round(REPORT_WIDTH * REPORT_DPI)


@pytest.mark.parametrize("option", ["--epochs", "--shuffles", "--repeats"])
def test_counts_below_one_are_one_clear_error(option, tmp_path, capsys):
    assert main(["curves", "--corpus", "bundled:crane", option, "0", "--out", str(tmp_path)]) == 2
    assert "must be at least 1" in capsys.readouterr().err
