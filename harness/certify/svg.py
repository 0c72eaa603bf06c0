"""Plots as inline SVG, drawn from the report's numbers: no plotting library, no network.

The fallback renderer of :mod:`harness.certify.figures`, used when matplotlib
(the ``report`` extra) is not installed.

Each function returns one ``<svg>`` element (a string) with a ``<title>``
for screen readers (the page prints the title as the figure's caption), sized by its ``viewBox`` so the page scales it.  Every
number shown comes from ``report.json``; the plots add nothing a reader
could not recompute.
"""
from __future__ import annotations

import math
from html import escape

from harness.certify.figure_numbers import binomial_sd, convergence_points, histogram_counts

WIDTH, HEIGHT = 720, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 22, 34
INK, MUTED, BAND, BAD, GOOD = "#1f2933", "#7b8794", "#d9e2ec", "#c0392b", "#2d6a4f"


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _frame(title: str, body: list[str], *, width: int = WIDTH, height: int = HEIGHT) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'class="plot"><title>{escape(title)}</title>{"".join(body)}</svg>')


class _Scale:
    """Linear map of [low, high] onto [a, b]."""

    def __init__(self, low: float, high: float, a: float, b: float):
        if not high > low:
            low, high = low - 1, high + 1
        self.low, self.high, self.a, self.b = low, high, a, b

    def __call__(self, x: float) -> float:
        return self.a + (x - self.low) * (self.b - self.a) / (self.high - self.low)


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    if not high > low:
        return [low]
    step = 10 ** math.floor(math.log10((high - low) / count))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= count:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def _y_axis(scale: _Scale, low: float, high: float, width: int) -> list[str]:
    out = []
    for t in _ticks(low, high):
        y = scale(t)
        out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{_num(y)}" y2="{_num(y)}" class="grid"/>'
                   f'<text x="{LEFT - 4}" y="{_num(y + 3)}" text-anchor="end" class="tick">{t:g}</text>')
    return out


def _x_labels(labels: list[str], x, width: float) -> list[str]:
    every = max(1, math.ceil(len(labels) * 7 / (WIDTH - LEFT - RIGHT)))  # about 7 px per label
    return [f'<text x="{_num(x(i) + width / 2)}" y="{HEIGHT - BOTTOM + 12}" text-anchor="middle" '
            f'class="tick">{escape(label)}</text>' for i, label in enumerate(labels) if i % every == 0]


def frequency(title: str, labels: list[str], observed: list[float], expected: list[float], z: float) -> str:
    """Observed count per cell (dots) against its expected count with a two-sided interval of
    ±z standard deviations (grey bands; binomial sd sqrt(E (1 - E/N)))."""
    sds = binomial_sd(expected)
    low = min([e - z * s for e, s in zip(expected, sds)] + observed)
    high = max([e + z * s for e, s in zip(expected, sds)] + observed)
    pad = (high - low) * 0.05 or 1.0
    y = _Scale(low - pad, high + pad, HEIGHT - BOTTOM, TOP)
    step = (WIDTH - LEFT - RIGHT) / max(len(labels), 1)
    x = lambda i: LEFT + i * step  # noqa: E731
    body = _y_axis(y, low - pad, high + pad, WIDTH)
    for i, (o, e, s) in enumerate(zip(observed, expected, sds)):
        outside = abs(o - e) > z * s
        body.append(f'<rect x="{_num(x(i) + step * 0.15)}" width="{_num(step * 0.7)}" y="{_num(y(e + z * s))}" '
                    f'height="{_num(max(y(e - z * s) - y(e + z * s), 0.5))}" fill="{BAND}"/>'
                    f'<line x1="{_num(x(i) + step * 0.15)}" x2="{_num(x(i) + step * 0.85)}" y1="{_num(y(e))}" '
                    f'y2="{_num(y(e))}" stroke="{MUTED}"/>'
                    f'<circle cx="{_num(x(i) + step / 2)}" cy="{_num(y(o))}" r="{_num(min(3.0, step / 3))}" '
                    f'fill="{BAD if outside else INK}"><title>{escape(labels[i])}: observed {o:g}, expected '
                    f'{e:.2f}</title></circle>')
    body += _x_labels(labels, x, step)
    return _frame(title, body)


def bars(title: str, labels: list[str], values: list[float | None], limit: float | None = None) -> str:
    """One bar per cell (a residual), with dashed lines at ±``limit``; bars beyond it in red."""
    finite = [v for v in values if v is not None]
    bound = max([abs(v) for v in finite] + [limit or 0.0, 1.0]) * 1.1
    y = _Scale(-bound, bound, HEIGHT - BOTTOM, TOP)
    step = (WIDTH - LEFT - RIGHT) / max(len(labels), 1)
    x = lambda i: LEFT + i * step  # noqa: E731
    body = _y_axis(y, -bound, bound, WIDTH)
    if limit is not None:
        for level in (limit, -limit):
            body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(y(level))}" y2="{_num(y(level))}" '
                        f'stroke="{BAD}" stroke-dasharray="4 3"/>')
    for i, v in enumerate(values):
        if v is None:
            continue
        top, bottom = (y(v), y(0)) if v >= 0 else (y(0), y(v))
        colour = BAD if limit is not None and abs(v) > limit else INK
        body.append(f'<rect x="{_num(x(i) + step * 0.1)}" width="{_num(max(step * 0.8, 0.5))}" y="{_num(top)}" '
                    f'height="{_num(max(bottom - top, 0.5))}" fill="{colour}"><title>{escape(labels[i])}: '
                    f'{v:+.3f}</title></rect>')
    body += _x_labels(labels, x, step)
    return _frame(title, body)


def _diverging(v: float | None, bound: float) -> str:
    if v is None:
        return "#000000"
    t = max(-1.0, min(1.0, v / bound))
    if t >= 0:  # white to red
        r, g, b = 255, int(255 * (1 - t * 0.75)), int(255 * (1 - t * 0.8))
    else:  # white to blue
        r, g, b = int(255 * (1 + t * 0.8)), int(255 * (1 + t * 0.55)), 255
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap(title: str, rows: int, cols: int, values: list[float | None], row_name: str, col_name: str,
            col_labels: list[str] | None = None, bound: float = 4.0) -> str:
    """A rows × cols grid of residuals (blue below, red above expectation, saturating at ±``bound``;
    black: a cell that cannot occur)."""
    width = WIDTH
    cell_w = (width - LEFT - RIGHT) / cols
    cell_h = max(1.0, min(12.0, 360 / rows))
    height = int(TOP + rows * cell_h + BOTTOM)
    body = []
    for r in range(rows):
        for c in range(cols):
            v = values[r * cols + c]
            body.append(f'<rect x="{_num(LEFT + c * cell_w)}" y="{_num(TOP + r * cell_h)}" '
                        f'width="{_num(cell_w + 0.05)}" height="{_num(cell_h + 0.05)}" '
                        f'fill="{_diverging(v, bound)}"/>')
    body.append(f'<text x="{LEFT - 6}" y="{TOP + 8}" text-anchor="end" class="tick">{escape(row_name)} ↓</text>')
    body.append(f'<text x="{width - RIGHT}" y="{height - 6}" text-anchor="end" class="tick">'
                f'{escape(col_name)} →  colour: residual, ±{bound:g} saturates</text>')
    if col_labels:
        every = max(1, math.ceil(cols * 16 / (width - LEFT - RIGHT)))  # about 16 px per label
        body += [f'<text x="{_num(LEFT + (c + 0.5) * cell_w)}" y="{_num(TOP + rows * cell_h + 11)}" '
                 f'text-anchor="middle" class="tick">{escape(label)}</text>'
                 for c, label in enumerate(col_labels) if c % every == 0]
    return _frame(title, body, width=width, height=height)


def histogram(title: str, values: list[float], bins: int = 10) -> str:
    """Counts of ``values`` in [0, 1] in ``bins`` equal bins, with the expected count under uniformity."""
    counts = histogram_counts(values, bins)
    expected = len(values) / bins
    top = max(counts + [expected, 1]) * 1.15
    y = _Scale(0, top, HEIGHT - BOTTOM, TOP)
    step = (WIDTH - LEFT - RIGHT) / bins
    body = _y_axis(y, 0, top, WIDTH)
    for i, count in enumerate(counts):
        body.append(f'<rect x="{_num(LEFT + i * step + 1)}" width="{_num(step - 2)}" y="{_num(y(count))}" '
                    f'height="{_num(y(0) - y(count))}" fill="{INK}"><title>p in [{i / bins:g}, {(i + 1) / bins:g}):'
                    f' {count}</title></rect>')
        body.append(f'<text x="{_num(LEFT + i * step)}" y="{HEIGHT - BOTTOM + 12}" class="tick">{i / bins:g}</text>')
    body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(y(expected))}" y2="{_num(y(expected))}" '
                f'stroke="{GOOD}" stroke-dasharray="5 3"/>')
    return _frame(title, body)


def parts(title: str, names: list[str], values: list[float]) -> str:
    """One horizontal stacked bar: the shares of a whole (the RTP's parts), labelled."""
    total = sum(values) or 1.0
    x = LEFT
    span = WIDTH - LEFT - RIGHT
    colours = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]
    body = []
    for i, (name, value) in enumerate(zip(names, values)):
        w = span * value / total
        body.append(f'<rect x="{_num(x)}" y="40" width="{_num(max(w, 0.5))}" height="40" '
                    f'fill="{colours[i % len(colours)]}"><title>{escape(name)}: {value:.6f}</title></rect>')
        body.append(f'<text x="{_num(x + 2)}" y="{100 + 14 * (i % 4)}" class="tick">{escape(name)} '
                    f'{value * 100:.4f}%</text>')
        x += w
    return _frame(title, body, height=170)


def convergence(title: str, at: list[int], value: list[float | None], low: list[float | None],
                high: list[float | None], exact: float, unit: str = "rounds") -> str:
    """A running estimate (line and dots) with its interval (grey band) against the exact figure
    (dashed), over a logarithmic axis of the rounds played; points without a value are left out."""
    points = convergence_points(at, value, low, high)
    ys = [exact] + [v for _, v, _, _ in points] + [x for _, _, lo, hi in points for x in (lo, hi) if x is not None]
    bottom, top = min(ys), max(ys)
    pad = (top - bottom) * 0.05 or abs(exact) * 0.01 or 0.01
    y = _Scale(bottom - pad, top + pad, HEIGHT - BOTTOM, TOP)
    first, last = (math.log10(points[0][0]), math.log10(points[-1][0])) if points else (0.0, 1.0)
    x = _Scale(first - 0.05, last + 0.05, LEFT + 6, WIDTH - RIGHT - 6)
    body = _y_axis(y, bottom - pad, top + pad, WIDTH)
    band = [(n, lo, hi) for n, _, lo, hi in points if lo is not None and hi is not None]
    if band:
        outline = [f"{_num(x(math.log10(n)))},{_num(y(hi))}" for n, _, hi in band]
        outline += [f"{_num(x(math.log10(n)))},{_num(y(lo))}" for n, lo, _ in reversed(band)]
        body.append(f'<polygon points="{" ".join(outline)}" fill="{BAND}"/>')
    body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_num(y(exact))}" y2="{_num(y(exact))}" '
                f'stroke="{GOOD}" stroke-dasharray="5 3"><title>exact {exact:.6f}</title></line>')
    if points:
        path = " ".join(f"{_num(x(math.log10(n)))},{_num(y(v))}" for n, v, _, _ in points)
        body.append(f'<polyline points="{path}" fill="none" stroke="{INK}"/>')
    for n, v, lo, hi in points:
        outside = lo is not None and hi is not None and not lo <= exact <= hi
        interval = "" if lo is None or hi is None else f", interval [{lo:.6f}, {hi:.6f}]"
        body.append(f'<circle cx="{_num(x(math.log10(n)))}" cy="{_num(y(v))}" r="2.5" '
                    f'fill="{BAD if outside else INK}"><title>{n:,} {escape(unit)}: {v:.6f}{interval}</title></circle>')
    # Ticks at 1, 2 and 5 times the powers of ten in range (only the powers over more than 2 decades).
    steps = (1,) if last - first > 2 else (1, 2, 5)
    ticks = [m * 10 ** d for d in range(math.floor(first), math.floor(last) + 1) for m in steps] if points else []
    body += [f'<text x="{_num(x(math.log10(t)))}" y="{HEIGHT - BOTTOM + 12}" text-anchor="middle" '
             f'class="tick">{t:,}</text>' for t in ticks if first - 0.05 <= math.log10(t) <= last + 0.05]
    body.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" class="tick">{escape(unit)} '
                f'played (log scale); dashed: exact</text>')
    return _frame(title, body)


__all__ = ["frequency", "bars", "heatmap", "histogram", "parts", "convergence"]
