"""Poker (partition) test: number of distinct values in groups of t outcomes."""
from __future__ import annotations

import numpy as np

from stats._exact import distinct_count_distribution
from stats._results import ChiSquareResult
from stats._validate import as_float, check_int
from stats.chisquare import GroupCellAccumulator
from stats import _detect
from stats import _sp800_22_native as _native
from stats.registry import BatteryTest


class PokerAccumulator(GroupCellAccumulator):
    """Streaming core of :func:`poker_test`; a partial hand is carried."""

    name = "poker test"
    item = "hands"

    def __init__(self, probabilities, *, t=5, min_expected=5.0):
        super().__init__(probabilities)
        self._set_groups(check_int("t", t, 2, 16))
        self._set_cells(as_float(distinct_count_distribution(self.exact, self.t)), min_expected)

    def _update(self, x):
        hands = np.ascontiguousarray(self._groups.take(x))
        if len(hands):
            # distinct values per hand, counted in one pass in C (csrc/stats/poker.h)
            ffi, lib = _native._lib()
            _native._check(lib.stat_poker_tally(ffi.from_buffer(hands), len(hands), self.t, hands.dtype.itemsize,
                                                self.k, ffi.from_buffer("int64_t[]", self.counts, require_writable=True),
                                                self.counts.size), self.name)


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
    return PokerAccumulator(probabilities, t=t, min_expected=min_expected).run(x)


BATTERY = [
    BatteryTest("poker", ("categorical",), "values", PokerAccumulator,
                lambda ctx: dict(probabilities=ctx.probabilities, t=5), _detect.cells("one partition class"),
                order=150, function=poker_test),
]


__all__ = ["poker_test", "PokerAccumulator"]
