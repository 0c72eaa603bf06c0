"""Gap test: lengths of the stretches between outcomes that fall in a chosen set."""
from __future__ import annotations

import numpy as np

from stats._exact import geometric_cells
from stats._results import ChiSquareResult
from stats.chisquare import CellLawAccumulator
from stats.runs import _median_split
from stats import _detect
from stats.registry import BatteryTest


class GapAccumulator(CellLawAccumulator):
    """Streaming core of :func:`gap_test`; the length of the gap in progress is carried."""

    sums = ("counts",)

    def sync(self, head, start):
        # the values up to the first hit: the gap they end began before the boundary
        hits = np.flatnonzero(self._mask[head])
        return int(hits[0]) + 1 if hits.size else None

    name = "gap test"
    item = "gaps"

    def __init__(self, probabilities, *, categories=None, min_expected=5.0):
        super().__init__(probabilities)
        if categories is None:
            categories = range(_median_split(self.p))
        chosen = sorted({int(c) for c in categories})
        if not chosen or chosen[0] < 0 or chosen[-1] >= self.k or len(chosen) == self.k:
            raise ValueError(
                f"categories must be a non-empty proper subset of 0..{self.k - 1}, got {list(categories)!r}"
            )
        self.categories = tuple(chosen)
        self._mask = np.zeros(self.k, dtype=bool)
        self._mask[chosen] = True
        self.hit = float(self.p[chosen].sum())
        # Gap lengths 0..cells-2 and ">= cells-1"; the tail beyond ~1e-9 is pooled anyway.
        self.cells = int(min(100_000, np.ceil(np.log(1e-9) / np.log1p(-self.hit)) + 2))
        self._set_cells(geometric_cells(self.hit, self.cells), min_expected)
        self._current = 0

    def _update(self, x):
        hits = np.flatnonzero(self._mask[x])
        if hits.size == 0:
            self._current += x.size
            return
        gaps = np.empty(hits.size, dtype=np.int64)
        gaps[0] = self._current + hits[0]
        gaps[1:] = np.diff(hits) - 1
        self._count(gaps)
        self._current = x.size - 1 - hits[-1]

    def min_samples(self):
        # A gap takes 1/hit outcomes on average.
        return int(np.ceil(self.min_items() / self.hit)) + 1


def clustered_gap_cells(hit: float, cells: int, delta: float) -> np.ndarray:
    """Gap-length law when outcomes in A cluster: P(A | previous in A) = q + δ(1 - q).

    The indicator of A is then a two-state Markov chain with P(A | previous
    not in A) = q(1 - δ), which keeps P(A) = q and has lag-one correlation δ.
    A gap is 0 with probability a = q + δ(1 - q), else 1 + geometric(b),
    b = q(1 - δ).  δ = 0 gives :func:`stats._exact.geometric_cells`.
    """
    a, b = hit + delta * (1 - hit), hit * (1 - delta)
    r = np.arange(1, cells - 1)
    body = (1 - a) * (1 - b) ** (r - 1) * b
    return np.concatenate([[a], body, [(1 - a) * (1 - b) ** (cells - 2)]])


def detectable_clustering(acc: GapAccumulator, result: ChiSquareResult, alpha: float, power: float) -> float:
    """Smallest δ such that the gap test detects P(A | previous in A) = q + δ(1 - q) (see
    :func:`clustered_gap_cells`) with probability ``power`` at level ``alpha``."""
    from stats.power import detectable_law_change

    return detectable_law_change(acc.cell_p, lambda d: clustered_gap_cells(acc.hit, acc.cells, d), result.n, alpha,
                                 result.df, min_expected=acc.min_expected, power=power)


def gap_test(x, probabilities, *, categories=None, min_expected: float = 5.0) -> ChiSquareResult:
    """Gap test: distribution of the gaps between outcomes in a set A.

    Null hypothesis: outcomes are independent with the device's distribution,
    so the number of outcomes outside A between two consecutive outcomes in A
    is geometric, P(gap = r) = q (1 - q)^r with q = P(A).

    Parameters
    ----------
    x : array_like of int
        Category indices.
    probabilities : int or sequence
        Distribution of one outcome.
    categories : iterable of int, optional
        The set A.  Default: the lowest categories with total probability
        closest to 1/2 (Knuth's interval [α, β) in category form).
    min_expected : float, optional
        Gap-length cells are pooled with their neighbours (the long-gap tail
        first) until each expects at least this many gaps.

    Returns
    -------
    ChiSquareResult
        ``n`` is the number of complete gaps; ``observed``/``expected`` are the
        pooled gap-length counts.

    Notes
    -----
    The first gap runs from the start of the sequence to the first outcome in
    A; the incomplete gap after the last such outcome is dropped.  Complete
    gaps are independent geometric variables under the null hypothesis, so a
    plain chi-square with (cells - 1) df applies [1]_.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 C, Addison-Wesley, 1997.
    """
    return GapAccumulator(probabilities, categories=categories, min_expected=min_expected).run(x)


def _clustering(ctx, gap):
    members = [ctx.labels[c] for c in gap.categories]
    shown = ", ".join(members) if len(members) <= 4 else f"{members[0]} … {members[-1]} ({len(members)} labels)"
    return (f"{ctx.word}s in {{{shown}}} (P = {sum(gap.exact[c] for c in gap.categories)}) "
            "cluster: P(in | previous in) = P + δ(1 − P)")


BATTERY = [
    BatteryTest("gap", ("categorical",), "values", GapAccumulator, lambda ctx: (ctx.probabilities,),
                _detect.solved(detectable_clustering, _clustering), order=140, function=gap_test),
]


__all__ = ["gap_test", "GapAccumulator", "clustered_gap_cells", "detectable_clustering"]
