"""Figures a student can put in a report: one panel per figure, sized for a report's column
(3.5 inches wide, fonts of 7-9 points there), a short title, the y-axis fitted to the values
being compared (the MFS line drawn where it falls inside, else noted in a corner, never
stretching the axis) and the settings in a caption line under the axes. The notebooks use
the same helpers. Needs matplotlib (``pip install 'wsd-perceptron[plot]'``)."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

REPORT_WIDTH = 3.5  # inches: one column of a two-column report, half an A4 text width
REPORT_HEIGHT = 2.6
REPORT_DPI = 300
REPORT_STYLE = {"font.size": 8, "axes.titlesize": 9, "axes.labelsize": 8,
                "xtick.labelsize": 7, "ytick.labelsize": 7, "legend.fontsize": 6.5,
                "legend.framealpha": 0.8, "lines.markersize": 4, "lines.linewidth": 1.2}
CAPTION_SIZE = 6.0  # points
_CHAR_WIDTH = 0.56  # an average character's width, in ems, to wrap the caption


@contextlib.contextmanager
def report_style() -> Iterator[None]:
    """Matplotlib settings for report figures, while the figure is built."""
    import matplotlib  # the optional [plot] extra

    with matplotlib.rc_context(REPORT_STYLE):
        yield


def report_figure(width: float = REPORT_WIDTH, height: float = REPORT_HEIGHT) -> Any:
    """A matplotlib Figure of one report column, without pyplot (the caller's backend is left
    alone); build it inside ``report_style()``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # the optional [plot] extra
    from matplotlib.figure import Figure  # the optional [plot] extra

    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    return figure


def fit_ylim(axis: Any, values: Iterable[float], mfs: float | None = None) -> None:
    """Y-limits that show the differences between ``values`` (a margin of a tenth of their
    range, within 0-1); the MFS accuracy is a dotted line where it falls inside them, else a
    note in the lower right corner (*MFS 0.676, below*)."""
    values = [float(v) for v in values]
    low, high = min(values), max(values)
    pad = max(0.01, 0.1 * (high - low))
    bottom, top = max(0.0, low - pad), min(1.0 + pad / 2, high + pad)  # a line at 1 shows
    axis.set_ylim(bottom, top)
    if mfs is None:
        return
    if bottom <= mfs <= top:
        axis.axhline(mfs, color="grey", linestyle=":", label=f"MFS ({mfs:.3f})")
    else:
        where = "below" if mfs < bottom else "above"
        axis.text(0.98, 0.02, f"MFS {mfs:.3f}, {where}", transform=axis.transAxes,
                  ha="right", va="bottom", color="grey", fontsize=CAPTION_SIZE + 0.5)


def add_caption(figure: Any, caption: str) -> None:
    """``caption`` in small type under the axes, wrapped to the figure's width; the figure
    grows by the caption's height, so the axes keep their size. Lays the figure out."""
    width, height = figure.get_size_inches()
    chars = int(width * 72 / (CAPTION_SIZE * _CHAR_WIDTH)) - 4
    lines = textwrap.wrap(caption, chars) if caption else []
    extra = (len(lines) * 1.3 * CAPTION_SIZE + 4) / 72 if lines else 0.0
    figure.set_size_inches(width, height + extra)
    if lines:
        figure.text(0.02, 0.01, "\n".join(lines), fontsize=CAPTION_SIZE, ha="left",
                    va="bottom", color="0.25", linespacing=1.3)
    figure.tight_layout(pad=0.3, rect=(0, extra / (height + extra), 1, 1))


def clipped_texts(figure: Any) -> list[str]:
    """What of ``figure`` reaches outside it when drawn: the titles, axis labels, legend
    entries and caption that do, and "the drawn artists" when matplotlib's tight bounding box
    of everything drawn (tick labels too) is larger than the figure; empty for a figure that
    fits."""
    renderer = figure.canvas.get_renderer()
    box = figure.bbox
    texts = list(figure.texts)
    for axis in figure.axes:
        texts += [axis.title, axis.xaxis.label, axis.yaxis.label]
        if axis.get_legend() is not None:
            texts += axis.get_legend().get_texts()
    clipped = [text.get_text() for text in texts
               if text.get_visible() and text.get_text()
               and not _inside(text.get_window_extent(renderer), box)]  # fmt: skip
    tight = figure.get_tightbbox(renderer).transformed(figure.dpi_scale_trans)
    if not _inside(tight, box):
        clipped.append("the drawn artists")
    return clipped


def _inside(extent: Any, box: Any, slack: float = 0.5) -> bool:
    """Whether the display-space box ``extent`` lies within ``box`` (to ``slack`` pixels)."""
    return (extent.x0 >= box.x0 - slack and extent.y0 >= box.y0 - slack
            and extent.x1 <= box.x1 + slack and extent.y1 <= box.y1 + slack)
