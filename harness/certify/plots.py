"""Plots drawn with matplotlib on its Agg backend, embedded in the page as PNG data URIs.

The renderer :mod:`harness.certify.figures` picks when matplotlib (the
``report`` extra) is installed.  Each function returns one ``<img>`` element
(its ``alt`` the figure's title) of exactly ``width`` × ``height`` pixels,
the figure's size in inches times :data:`DPI`.

Why it is reproducible: pyplot is never imported (no GUI backend, no global
figure list); every figure is a bare :class:`~matplotlib.figure.Figure` on a
:class:`~matplotlib.backends.backend_agg.FigureCanvasAgg`, drawn under
matplotlib's default style (a user's ``matplotlibrc`` changes nothing) with
its bundled DejaVu fonts, and saved without the PNG ``Software`` text chunk,
so the same report and the same matplotlib give the same bytes.
"""
from __future__ import annotations

import base64
import io
import math
from html import escape

import matplotlib
import matplotlib.style
import matplotlib.ticker
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from harness.certify.figure_numbers import binomial_sd, convergence_points, histogram_counts

DPI = 120
WIDTH_IN, HEIGHT_IN = 7.2, 2.4
INK, MUTED, BAND, BAD, GOOD = "#1f2933", "#7b8794", "#d9e2ec", "#c0392b", "#2d6a4f"
PARTS = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]
#: Residual colours: blue below expectation, white at it, red above (black: a cell that cannot occur).
RESIDUAL = LinearSegmentedColormap.from_list("residual", ["#3366ff", "#ffffff", "#ff3333"])
RC = {"font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
      "legend.fontsize": 7, "axes.grid": True, "grid.color": "#eef2f6", "axes.axisbelow": True}
DESCRIPTION = f"matplotlib {matplotlib.__version__}, Agg backend, PNG at {DPI} dpi"


def _figure(height: float = HEIGHT_IN, *, bottom_in: float = 0.45, right_in: float = 0.15) -> Figure:
    """An empty figure on the Agg canvas, its axes' margins fixed in inches (a layout engine would
    draw every figure twice to measure it)."""
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI)
    FigureCanvasAgg(fig)  # the Agg canvas, set explicitly
    fig.subplots_adjust(left=0.75 / WIDTH_IN, right=1 - right_in / WIDTH_IN, top=1 - 0.12 / height,
                        bottom=bottom_in / height)
    return fig


def _img(fig: Figure, title: str) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    width, height = round(fig.get_figwidth() * DPI), round(fig.get_figheight() * DPI)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'<img class="plot" src="data:image/png;base64,{data}" width="{width}" height="{height}" '
            f'alt="{escape(title)}">')


def _drawn(draw):
    """Run ``draw`` under matplotlib's default style and our sizes, whatever the user's settings."""
    def wrapper(title, *args, **kwargs):
        with matplotlib.style.context("default"), matplotlib.rc_context(RC):
            return _img(draw(*args, **kwargs), title)
    wrapper.__name__, wrapper.__doc__ = draw.__name__, draw.__doc__
    return wrapper


#: At most this many labelled ticks on an axis of cells: every tick is an object matplotlib draws
#: (most of a figure's time), and a label per 3 mm is as many as a reader uses.
MAX_LABELS = 26


def _label_every(labels: list[str]) -> list[int]:
    return list(range(0, len(labels), max(1, math.ceil(len(labels) / MAX_LABELS))))


def _cell_axis(ax, labels: list[str]) -> None:
    ticks = _label_every(labels)
    ax.set_xticks(ticks, [labels[i] for i in ticks])
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.grid(False, axis="x")


@_drawn
def frequency(labels: list[str], observed: list[float], expected: list[float], z: float) -> Figure:
    """Observed count per cell (dots; red outside its interval) against its expected count (tick) and
    a two-sided interval of ±z binomial standard deviations (grey bar)."""
    sds = binomial_sd(expected)
    fig = _figure()
    ax = fig.add_subplot()
    x = range(len(labels))
    ax.bar(x, [2 * z * s for s in sds], bottom=[e - z * s for e, s in zip(expected, sds)], width=0.7, color=BAND)
    ax.hlines(expected, [i - 0.35 for i in x], [i + 0.35 for i in x], colors=MUTED, linewidth=1)
    outside = [abs(o - e) > z * s for o, e, s in zip(observed, expected, sds)]
    ax.scatter(x, observed, s=10, zorder=3, c=[BAD if out else INK for out in outside])
    low = min([e - z * s for e, s in zip(expected, sds)] + observed)
    high = max([e + z * s for e, s in zip(expected, sds)] + observed)
    pad = (high - low) * 0.05 or 1.0
    ax.set_ylim(low - pad, high + pad)  # (bars would pin the axis to their ends)
    _cell_axis(ax, labels)
    ax.set_ylabel("count")
    return fig


@_drawn
def bars(labels: list[str], values: list[float | None], limit: float | None = None) -> Figure:
    """One bar per cell (a residual), with dashed lines at ±``limit``; bars beyond it in red."""
    fig = _figure()
    ax = fig.add_subplot()
    cells = [(i, v) for i, v in enumerate(values) if v is not None]
    ax.bar([i for i, _ in cells], [v for _, v in cells], width=0.8,
           color=[BAD if limit is not None and abs(v) > limit else INK for _, v in cells])
    if limit is not None:
        for level in (limit, -limit):
            ax.axhline(level, color=BAD, linestyle=(0, (4, 3)), linewidth=1)
    bound = max([abs(v) for _, v in cells] + [limit or 0.0, 1.0]) * 1.1
    ax.set_ylim(-bound, bound)
    _cell_axis(ax, labels)
    ax.set_ylabel("(O − E)/√E")
    return fig


@_drawn
def heatmap(rows: int, cols: int, values: list[float | None], row_name: str, col_name: str,
            col_labels: list[str] | None = None, bound: float = 4.0) -> Figure:
    """A rows × cols grid of residuals (blue below, red above expectation, saturating at ±``bound``;
    black: a cell that cannot occur)."""
    fig = _figure(min(6.0, max(HEIGHT_IN, 1.0 + rows * 0.2)))
    ax = fig.add_subplot()
    grid = [[math.nan if v is None else v for v in values[r * cols:(r + 1) * cols]] for r in range(rows)]
    cmap = RESIDUAL.with_extremes(bad="#000000")
    image = ax.imshow(grid, cmap=cmap, vmin=-bound, vmax=bound, aspect="auto", interpolation="nearest")
    ax.grid(False)
    if col_labels:
        ticks = _label_every(col_labels)
        ax.set_xticks(ticks, [col_labels[i] for i in ticks])
    ax.set_xlabel(col_name)
    ax.set_ylabel(row_name)
    fig.colorbar(image, ax=ax, label=f"residual (±{bound:g} saturates)", extend="both")
    return fig


@_drawn
def histogram(values: list[float], bins: int = 10) -> Figure:
    """Counts of ``values`` in [0, 1] in ``bins`` equal bins, with the expected count under uniformity."""
    counts = histogram_counts(values, bins)
    fig = _figure()
    ax = fig.add_subplot()
    ax.bar([i / bins for i in range(bins)], counts, width=1 / bins * 0.95, align="edge", color=INK)
    ax.axhline(len(values) / bins, color=GOOD, linestyle=(0, (5, 3)), linewidth=1.2, label="uniform")
    ax.set_xlim(0, 1)
    ax.set_xlabel("p-value")
    ax.set_ylabel("tests")
    ax.legend(loc="upper right")
    return fig


@_drawn
def parts(names: list[str], values: list[float]) -> Figure:
    """One horizontal stacked bar: the shares of a whole (the RTP's parts), labelled."""
    fig = _figure(0.9 + 0.2 * math.ceil(len(names) / 3), bottom_in=0.35 + 0.2 * math.ceil(len(names) / 3))
    ax = fig.add_subplot()
    left = 0.0
    for i, (name, value) in enumerate(zip(names, values)):
        ax.barh([0], [value], left=left, height=0.6, color=PARTS[i % len(PARTS)], label=f"{name} {value:.4%}")
        left += value
    ax.set_xlim(0, max(left, 1e-12))
    ax.set_yticks([])
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.legend(loc="upper left", bbox_to_anchor=(0, -0.3 / ax.get_position().height / fig.get_figheight()),
              ncol=min(len(names), 3), frameon=False)
    return fig


@_drawn
def convergence(at: list[int], value: list[float | None], low: list[float | None],
                high: list[float | None], exact: float, unit: str = "rounds") -> Figure:
    """A running estimate (line and dots; red where its interval misses the exact figure) with its
    interval (grey band) against the exact figure (dashed), over a logarithmic axis of the rounds
    played; points without a value are left out."""
    points = convergence_points(at, value, low, high)
    fig = _figure()
    ax = fig.add_subplot()
    band = [(n, lo, hi) for n, _, lo, hi in points if lo is not None and hi is not None]
    if band:
        ax.fill_between([n for n, _, _ in band], [lo for _, lo, _ in band], [hi for _, _, hi in band],
                        color=BAND, linewidth=0)
    ax.axhline(exact, color=GOOD, linestyle=(0, (5, 3)), linewidth=1.2, label=f"exact {exact:.6f}")
    if points:
        ax.plot([n for n, *_ in points], [v for _, v, *_ in points], color=INK, linewidth=1)
        missed = [lo is not None and hi is not None and not lo <= exact <= hi for _, _, lo, hi in points]
        ax.scatter([n for n, *_ in points], [v for _, v, *_ in points], s=9, zorder=3,
                   c=[BAD if m else INK for m in missed])
        ax.set_xscale("log")
    ax.set_xlabel(f"{unit} played (log scale)")
    ax.set_ylabel("return")
    ax.legend(loc="upper right")
    return fig


__all__ = ["DESCRIPTION", "DPI", "frequency", "bars", "heatmap", "histogram", "parts", "convergence"]
