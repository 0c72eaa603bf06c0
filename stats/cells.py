"""Observed against expected counts, cell by cell, for a test that ends in a chi-square.

A rejected frequency test says *that* a device is off; a lab needs to know
*where* and *by how much*.  :func:`cell_table` turns the cells a chi-square
type result carries (``observed``/``expected``, after pooling) into a table
with Pearson's residual per cell,

    r_i = (O_i - E_i) / sqrt(E_i),

whose square is the cell's share of Pearson's X².  Under the null
hypothesis r_i has mean 0 and variance 1 - p_i (at most 1), so a cell with
|r_i| of 4 or more is far out on its own; for a quadratic-form statistic
(runs, adjacency) the residuals still show where the counts differ, though
they are not independent of each other.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Cells a text table lists at most (the largest residuals first).
TEXT_CELLS = 10


@dataclass(frozen=True)
class CellTable:
    """The cells of one test.

    Attributes
    ----------
    shape : tuple of int
        The table's shape (one axis for a frequency table; two for a
        position × card or label × label table).
    observed, expected, residual : numpy.ndarray
        Flat, row-major; ``residual`` is NaN where ``expected`` is 0 (a cell
        that cannot occur: any count there fails the test outright).
    axes : tuple
        Per axis, the labels of its positions (as printed on the equipment),
        or None where the axis is not one label per position (pooled cells,
        positions in a shuffle: shown as 1-based numbers).
    pooled : int
        Original cells merged into others before the test (0: none).
    """

    shape: tuple
    observed: np.ndarray
    expected: np.ndarray
    residual: np.ndarray
    axes: tuple
    pooled: int = 0

    def label(self, index: int) -> str:
        """Name of the flat cell ``index``: its label, or its 1-based coordinates."""
        coordinates = np.unravel_index(int(index), self.shape)
        parts = [labels[i] if labels is not None else f"#{i + 1}" for labels, i in zip(self.axes, coordinates)]
        return " × ".join(parts)

    def largest(self, count: int = TEXT_CELLS) -> list[int]:
        """Flat indices of the ``count`` cells farthest from expectation (largest |r|; impossible cells
        that occurred first)."""
        impossible = (self.expected == 0) & (self.observed > 0)
        size = np.where(impossible, np.inf, np.nan_to_num(np.abs(self.residual), nan=0.0))
        order = np.argsort(-size, kind="stable")
        return [int(i) for i in order[:count]]

    def to_json(self) -> dict:
        """``{"shape", "axes", "pooled", "observed", "expected", "residual"}``, flat lists, row-major;
        a residual that is not a finite number is null."""
        return {
            "shape": list(self.shape),
            "axes": [None if labels is None else list(labels) for labels in self.axes],
            "pooled": int(self.pooled),
            "observed": _numbers(self.observed),
            "expected": _numbers(self.expected),
            "residual": [round(v, 6) if math.isfinite(v) else None for v in np.asarray(self.residual, float).tolist()],
        }

    def report(self, name: str, count: int = TEXT_CELLS) -> list[str]:
        """:meth:`lines` under a heading naming the test ``name``: the one form of the table in every
        text report (``rngcert test`` for a failed test, ``rngcert game --simulate``)."""
        return [f"{name}: the cells farthest from expectation (residual = (O - E)/sqrt(E); "
                f"{self.observed.size:,} cells)"] + self.lines(count)

    def lines(self, count: int = TEXT_CELLS) -> list[str]:
        """A text table of the cells farthest from expectation: observed, expected, relative
        deviation, residual."""
        rows = self.largest(count)
        width = max([len(self.label(i)) for i in rows] + [4])
        out = [f"  {'cell':<{width}} {'observed':>12} {'expected':>14} {'O/E - 1':>9} {'residual':>9}"]
        for i in rows:
            o, e, r = self.observed[i], self.expected[i], self.residual[i]
            relative = f"{o / e - 1:+.2%}" if e > 0 else "impossible"
            residual = f"{r:+.2f}" if np.isfinite(r) else "-"
            out.append(f"  {self.label(i):<{width}} {_count(o):>12} {e:>14,.2f} {relative:>9} {residual:>9}")
        if self.observed.size > len(rows):
            rest = np.delete(np.nan_to_num(np.abs(self.residual), nan=0.0), rows)
            out.append(f"  ... {self.observed.size - len(rows):,} more cells, |residual| <= {rest.max():.2f}")
        return out


def _numbers(values) -> list:
    """A 1-D array's values for JSON: a whole number as an ``int``, any other finite value as a
    ``float``, a value that is not finite as None; without a Python call per value (a byte
    device's report has some 10^5 cells)."""
    values = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(values)
    whole = finite & (np.floor(values) == values)
    if whole.all() and (np.abs(values) < 2.0**63).all():
        return values.astype(np.int64).tolist()  # int(v) of each, exactly
    out = values.tolist()
    for i in np.flatnonzero(~finite).tolist():
        out[i] = None
    for i in np.flatnonzero(whole).tolist():
        out[i] = int(out[i])
    return out


def _count(value) -> str:
    value = float(value)
    return f"{int(value):,}" if value.is_integer() else f"{value:,.2f}"


def cell_table(result, labels=None) -> CellTable | None:
    """The cell table of a test result, or None when it has no cells.

    Parameters
    ----------
    result : object
        A result with array ``observed`` and ``expected`` of the same shape
        (:class:`stats.ChiSquareResult`); anything else gives None.
    labels : sequence of str, optional
        The device's labels: an axis of exactly that many positions is
        named by them.
    """
    observed = getattr(result, "observed", None)
    expected = getattr(result, "expected", None)
    if not isinstance(observed, np.ndarray) or not isinstance(expected, np.ndarray):
        return None
    if observed.shape != expected.shape or observed.size == 0:
        return None
    shape = tuple(int(s) for s in observed.shape)
    obs = observed.astype(np.float64).ravel()
    exp = expected.astype(np.float64).ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        residual = np.where(exp > 0, (obs - exp) / np.sqrt(exp), np.nan)
    names = None if labels is None else tuple(str(label) for label in labels)
    axes = tuple(names if names is not None and size == len(names) else None for size in shape)
    return CellTable(shape, obs, exp, residual, axes, int(getattr(result, "pooled", 0) or 0))


__all__ = ["CellTable", "cell_table", "TEXT_CELLS"]
