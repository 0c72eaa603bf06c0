"""Poker (partition) test: number of distinct values in groups of t outcomes."""
from __future__ import annotations

import numpy as np

from stats._accumulate import CategoricalAccumulator
from stats._exact import distinct_count_distribution
from stats._results import ChiSquareResult
from stats._validate import as_float, check_int
from stats.chisquare import _chisquare_cells, min_items


class PokerAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`poker_test`; a partial group is carried."""

    name = "poker test"

    def __init__(self, probabilities, *, t=5, min_expected=5.0):
        super().__init__(probabilities)
        self.t = check_int("t", t, 2, 16)
        self.min_expected = float(min_expected)
        self.cell_p = as_float(distinct_count_distribution(self.exact, self.t))
        self.counts = np.zeros(self.t, dtype=np.int64)
        self._carry = np.zeros(0, dtype=self._dtype)

    def _update(self, x):
        data = np.concatenate([self._carry, x]) if self._carry.size else x
        groups = data.size // self.t
        self._carry = data[groups * self.t:].copy()
        if groups:
            hands = np.sort(data[: groups * self.t].reshape(groups, self.t), axis=1)
            distinct = 1 + np.count_nonzero(hands[:, 1:] != hands[:, :-1], axis=1)
            self.counts += np.bincount(distinct - 1, minlength=self.t)

    def min_samples(self):
        return min_items(self.cell_p, min_expected=self.min_expected, rule="adjacent") * self.t

    def _result(self):
        return _chisquare_cells(self.counts, self.cell_p, min_expected=self.min_expected, pool="adjacent",
                                test=self.name, unit="outcomes")


def poker_test(x, probabilities, *, t: int = 5, min_expected: float = 5.0) -> ChiSquareResult:
    """Poker test (partition test): how many distinct values each hand of t shows.

    Null hypothesis: outcomes are independent with the device's distribution.

    Parameters
    ----------
    x : array_like of int
        Category indices; consecutive non-overlapping groups of ``t`` are hands.
    probabilities : int or sequence
        Distribution of one outcome.
    t : int, optional
        Hand size (Knuth: 5).
    min_expected : float, optional
        Adjacent classes (by number of distinct values) are pooled until each
        expects this many hands.

    Returns
    -------
    ChiSquareResult
        ``n`` = number of hands.

    Notes
    -----
    P(r distinct values) is computed exactly for any distribution (uniform:
    d(d-1)...(d-r+1) S(t, r) / d^t with S the Stirling numbers of the second
    kind [1]_); hands are independent, so a plain chi-square applies.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 D, Addison-Wesley, 1997.
    """
    acc = PokerAccumulator(probabilities, t=t, min_expected=min_expected)
    acc.update(x)
    return acc.result()


__all__ = ["poker_test", "PokerAccumulator"]
