"""Coupon collector's test: how many outcomes it takes to see every category."""
from __future__ import annotations

import numpy as np

from stats._accumulate import CategoricalAccumulator
from stats._exact import coupon_length_distribution
from stats._results import ChiSquareResult
from stats.chisquare import _chisquare_cells, min_items


class CouponAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`coupon_collector_test`; the incomplete segment is carried."""

    name = "coupon collector test"

    def __init__(self, probabilities, *, min_expected=5.0):
        super().__init__(probabilities)
        if len(set(self.exact)) > 1 and self.k > 16:
            raise ValueError(f"coupon collector with unequal probabilities needs k <= 16 categories, got {self.k}")
        self.min_expected = float(min_expected)
        # Segment lengths 0..cells-2 and ">= cells-1"; cut where the tail is negligible.
        length = 4 * self.k
        while True:
            cells = coupon_length_distribution(self.exact, length)
            if cells[-1] < 1e-10:
                break
            length *= 2
        self.cell_p = cells
        self.cells = cells.size
        self.mean_length = float((np.arange(self.cells) * cells).sum())
        self.counts = np.zeros(self.cells, dtype=np.int64)
        self._pending = np.zeros(0, dtype=self._dtype)
        self._window = int(4 * self.mean_length) + self.k

    def _update(self, x):
        data = np.concatenate([self._pending, x]) if self._pending.size else x
        start, size, k = 0, data.size, self.k
        lengths = []
        window = self._window
        while start < size:
            found = False
            while True:
                chunk = data[start: start + window]
                values, first = np.unique(chunk, return_index=True)
                if values.size == k:
                    end = int(first.max())
                    lengths.append(end + 1)
                    start += end + 1
                    found = True
                    break
                if start + window >= size:
                    break
                window *= 2
            window = self._window
            if not found:
                break
        self._pending = data[start:].copy()
        if lengths:
            self.counts += np.bincount(np.minimum(lengths, self.cells - 1), minlength=self.cells)

    def min_samples(self):
        return int(np.ceil(min_items(self.cell_p, min_expected=self.min_expected, rule="adjacent")
                           * self.mean_length))

    def _result(self):
        return _chisquare_cells(self.counts, self.cell_p, min_expected=self.min_expected, pool="adjacent",
                                test=self.name, unit="outcomes")


def coupon_collector_test(x, probabilities, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Coupon collector's test: lengths of segments that complete the set of categories.

    Null hypothesis: outcomes are independent with the device's distribution.

    Parameters
    ----------
    x : array_like of int
        Category indices.  The sequence is cut into consecutive segments, each
        ending as soon as every category has appeared in it.
    probabilities : int or sequence
        Distribution of one outcome.  Unequal probabilities are supported for
        up to 16 categories (exact Markov chain on the set seen so far).
    min_expected : float, optional
        Adjacent segment-length cells are pooled until each expects this many.

    Returns
    -------
    ChiSquareResult
        ``n`` = number of complete segments.

    Notes
    -----
    Segments are independent under the null hypothesis; the exact
    distribution of a segment's length comes from a Markov chain on the number
    of categories seen (equal probabilities; Knuth's formula
    d!/d^r S(r-1, d-1)) or on the set seen (unequal) [1]_.  The last,
    incomplete segment is dropped.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 E, Addison-Wesley, 1997.
    """
    acc = CouponAccumulator(probabilities, min_expected=min_expected)
    acc.update(x)
    return acc.result()


__all__ = ["coupon_collector_test", "CouponAccumulator"]
