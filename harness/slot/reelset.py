"""Reel strips as arrays: what each stop shows in the window.

A reel with strip ``s[0..L)`` stopped at position ``p`` shows
``s[p], s[p+1], ..., s[p+rows-1]`` (cyclically) in rows 1..rows, top to
bottom: the stop position names the top row.  Each of the ``L`` stops is
equally likely and the reels are independent, so a play is one of
``L_1 × ... × L_R`` equally likely stop combinations.

A weighted reel (stop weights ``w[0..L)``) is its *virtual reel*:
``W = sum(w)`` equally likely virtual stops, ``w[p]`` of them (in order)
showing physical stop ``p``'s column.  Every array here describes the
virtual stops, so the analysis and both players treat a weighted reel as
an ordinary one of ``W`` stops; only the rows of a virtual reel no longer
show each symbol equally often (:meth:`ReelSet.row_counts`).

An expanding wild covers its whole column when it lands: a stop whose
column shows one shows it in every row (the first listed, if several), and
the lines read that column; its scatter count is taken before the wild
expands, so scatters under it still count.  Again only the arrays change.
With reel heights per spin the column is the rows the reel shows
(:func:`harness.slot.height_reels.reelset`): the wild covers those.
"""
from __future__ import annotations

import dataclasses
import math
from functools import cached_property

import numpy as np

from harness.slot.model import ScatterCode, SlotModel

EMPTY = 255  # a cell a reel drawn shorter than the window does not show (no symbol has this index: at most 255)


@dataclasses.dataclass(frozen=True, eq=False)
class ReelSet:
    """The strips of one stage (base game or free spins) as arrays.

    Attributes
    ----------
    rows : int
    strips : tuple[numpy.ndarray, ...]
        ``uint8`` symbol indices of each reel.
    windows : tuple[numpy.ndarray, ...]
        ``uint8[L, rows]``: the column each stop shows.
    scatters : tuple[numpy.ndarray, ...]
        ``uint16[L]``: the scatter cell of each stop's column
        (:class:`~harness.slot.model.ScatterCode`; with one scatter symbol,
        how many it shows; 0 without a scatter).
    column_max : int
        The largest cell one column can have (``rows`` with one scatter).
    """

    rows: int
    windows: tuple[np.ndarray, ...]
    scatters: tuple[np.ndarray, ...]
    column_max: int = 0

    @classmethod
    def from_strips(cls, strips, rows: int, code: ScatterCode, weights=None, expanding=()) -> "ReelSet":
        """The reels of ``strips``; with ``weights`` (one list per reel), their virtual reels;
        ``expanding``: the expanding wilds (symbol indices, the first listed first)."""
        windows, scatters = [], []
        for r, strip in enumerate(strips):
            s = np.asarray(strip, dtype=np.uint8)
            offsets = (np.arange(len(s))[:, None] + np.arange(rows)[None, :]) % len(s)
            w = s[offsets]
            if weights is not None:
                w = np.repeat(w, np.asarray(weights[r], dtype=np.int64), axis=0)
            cell = np.zeros(len(w), dtype=np.uint16)
            for symbol, place in zip(code.symbols, code.place):
                cell += (w == symbol).sum(axis=1).astype(np.uint16) * place
            scatters.append(cell)
            windows.append(np.ascontiguousarray(expand(w, expanding)))
        column_max = code.column_max(rows)
        return cls(rows=rows, windows=tuple(windows), scatters=tuple(scatters), column_max=column_max)

    @property
    def reels(self) -> int:
        return len(self.windows)

    @property
    def lengths(self) -> tuple[int, ...]:
        """Equally likely (virtual) stops of each reel."""
        return tuple(len(w) for w in self.windows)

    @property
    def cycle(self) -> int:
        """Number of equally likely stop combinations."""
        return math.prod(self.lengths)

    @property
    def max_scatter(self) -> int:
        """The largest scatter cell a window can have (cells run 0 .. max_scatter)."""
        return self.reels * self.column_max

    def row_counts(self, nsym: int) -> list[list[list[int]]]:
        """``counts[r][h][x]``: stops of reel r showing symbol x in row h.

        On an unweighted (cyclic) strip every row shows each symbol exactly as
        often as the strip holds it, so the rows' counts are equal.
        """
        return [[np.bincount(w[:, h], minlength=nsym).tolist() for h in range(self.rows)] for w in self.windows]

    @cached_property
    def scatter_counts(self) -> list[int]:
        """``out[k]``: stop combinations showing exactly k scatters (convolution over reels)."""
        total = [1]
        for sc in self.scatters:
            per_reel = np.bincount(sc, minlength=self.column_max + 1).tolist()
            total = _convolve(total, per_reel)
        return total + [0] * (self.max_scatter + 1 - len(total))

    @cached_property
    def suffix_scatter_counts(self) -> list[list[int]]:
        """``out[r][k]``: combinations of reels r..R-1 showing k scatters (``out[R] = [1]``)."""
        out = [[1]]
        for sc in reversed(self.scatters):
            per_reel = np.bincount(sc, minlength=self.column_max + 1).tolist()
            out.append(_convolve(out[-1], per_reel))
        out.reverse()
        return out


def expand(w: np.ndarray, expanding) -> np.ndarray:
    """The columns ``w`` (``uint8[n, rows]``, changed in place and returned) with their expanding wilds
    expanded: a column showing one of ``expanding`` (symbol indices, the first listed first; it wins)
    shows it in every cell it shows, an :data:`EMPTY` cell (a row a reel drawn short does not show)
    staying empty."""
    landed = [(wild, (w == wild).any(axis=1)) for wild in expanding]
    for wild, columns in reversed(landed):  # the first listed is applied last, so it wins
        w[columns] = np.where(w[columns] == EMPTY, EMPTY, wild)
    return w


def expand_column(column: tuple[int, ...], expanding) -> tuple[int, ...]:
    """One column of the cells a reel shows, as :func:`expand` shows it (a round's play, the window player)."""
    wild = next((x for x in expanding if x in column), None)
    return column if wild is None else (wild,) * len(column)


def base_reelset(model: SlotModel, *, expanded: bool = True) -> ReelSet:
    """The base game's reels (``expanded``: with the expanding wilds expanded over the whole column)."""
    return ReelSet.from_strips(model.base_strips, model.rows, model.scatter_code, model.base_weights,
                               model.expanding if expanded else ())


def feature_reelset(model: SlotModel, *, expanded: bool = True) -> ReelSet:
    """The free spins' reels (``expanded`` as for :func:`base_reelset`)."""
    return ReelSet.from_strips(model.feature_strips, model.rows, model.scatter_code, model.feature_weights,
                               model.expanding if expanded else ())


def _convolve(a: list[int], b: list[int]) -> list[int]:
    """Exact integer convolution (numpy's would overflow int64 on long cycles)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out
