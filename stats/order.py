"""Order tests: permutation (order patterns of t-tuples) and maximum-of-t (order statistic)."""
from __future__ import annotations

from math import factorial

import numpy as np

from stats._accumulate import GroupCarry, UniformAccumulator, aligned
from stats._exact import maximum_distribution
from stats._results import ChiSquareResult
from stats._validate import as_float, check_int
from stats.chisquare import GroupCellAccumulator, _chisquare_cells
from stats.pit import DEFAULT_JITTER_SEED, continuous_input
from stats import _detect
from stats.registry import BatteryTest


def order_pattern_index(tuples: np.ndarray) -> np.ndarray:
    """Index in [0, t!) of the relative order of each row (Lehmer code)."""
    rows, t = tuples.shape
    code = np.zeros(rows, dtype=np.int64)
    for i in range(t - 1):
        smaller_after = (tuples[:, i + 1:] < tuples[:, i: i + 1]).sum(axis=1)
        code = code * (t - i) + smaller_after
    return code


class OrderPatternAccumulator(UniformAccumulator):
    """Streaming core of :func:`permutation_test`."""

    sums = ("counts",)
    sync = aligned(lambda acc: acc._tuples.t)

    name = "permutation test"

    def __init__(self, *, t=4, min_expected=5.0):
        super().__init__()
        self.t = check_int("t", t, 2, 8)
        self.cells = factorial(self.t)
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.cells, dtype=np.int64)
        self._tuples = GroupCarry(self.t, np.float64)

    def _update(self, u):
        tuples = self._tuples.take(u)
        if len(tuples):
            index = order_pattern_index(tuples)
            self.counts += np.bincount(index, minlength=self.cells)

    def min_samples(self):
        return int(np.ceil(self.min_expected * self.cells)) * self.t

    def _result(self):
        return _chisquare_cells(self.counts, np.full(self.cells, 1.0 / self.cells),
                                min_expected=self.min_expected, pool="error", test=self.name)


def permutation_test(x, probabilities=None, *, t: int = 4, seed: int = DEFAULT_JITTER_SEED) -> ChiSquareResult:
    """Permutation test: relative order within non-overlapping t-tuples.

    Null hypothesis: the values are independent and identically distributed,
    so each of the t! orderings of a t-tuple is equally likely.

    Parameters
    ----------
    x : array_like
        Continuous values, or category indices with ``probabilities`` (ties
        are then broken by the randomized PIT, :mod:`stats.pit`).
    probabilities : int or sequence, optional
        Distribution of categorical outcomes.
    t : int, optional
        Tuple length (t! cells).
    seed : int, optional
        Jitter stream seed.

    Returns
    -------
    ChiSquareResult
        df = t! - 1; ``n`` = number of tuples.

    Notes
    -----
    Tuples are disjoint, hence independent; valid when n/t >= 5 t! [1]_.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 F, Addison-Wesley, 1997.
    """
    return OrderPatternAccumulator(t=t).run(continuous_input(x, probabilities, seed))


class MaximumAccumulator(GroupCellAccumulator):
    """Streaming core of :func:`maximum_test`; a partial group is carried."""

    name = "maximum-of-t test"
    item = "groups"

    def __init__(self, probabilities, *, t=5, min_expected=5.0):
        super().__init__(probabilities)
        self._set_groups(check_int("t", t, 2, 64))
        self._set_cells(as_float(maximum_distribution(self.exact, self.t)), min_expected)

    def _statistic(self, groups):
        return groups.max(axis=1)


def maximum_test(x, probabilities, *, t: int = 5, min_expected: float = 5.0) -> ChiSquareResult:
    """Maximum-of-t test (order statistic): the largest category index in groups of t.

    Null hypothesis: outcomes are independent with the device's distribution,
    so max(x_1..x_t) = v with probability F(v)^t - F(v-1)^t.

    Parameters
    ----------
    x : array_like of int
        Category indices; consecutive non-overlapping groups of ``t``.
    probabilities : int or sequence
        Distribution of one outcome (exact; the cell probabilities are exact
        Fractions before conversion).
    t : int, optional
        Group size.
    min_expected : float, optional
        Adjacent cells (small maxima first) are pooled until each expects this many.

    Returns
    -------
    ChiSquareResult
        ``n`` = number of groups.

    Notes
    -----
    The discrete form of Knuth's maximum-of-t test [1]_ (no continuous
    approximation needed): groups are independent, so a plain chi-square
    applies after pooling.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 H, Addison-Wesley, 1997.
    """
    return MaximumAccumulator(probabilities, t=t, min_expected=min_expected).run(x)


BATTERY = [
    BatteryTest("permutation", ("categorical",), "uniform", OrderPatternAccumulator, lambda ctx: dict(t=4),
                _detect.cells("one order of 4"), order=180, function=permutation_test),
    BatteryTest("maximum-of-5", ("categorical",), "values", MaximumAccumulator,
                lambda ctx: dict(probabilities=ctx.probabilities, t=5), _detect.cells("one maximum"),
                order=230, function=maximum_test),
]


__all__ = ["permutation_test", "maximum_test", "order_pattern_index", "OrderPatternAccumulator",
           "MaximumAccumulator"]
