"""Chi-square goodness of fit against an exact distribution, with pooling.

Small expected counts make the chi-square approximation unreliable, so every
test in :mod:`stats` that ends in a chi-square routes its cells through
:func:`pool_cells`, which merges cells (using only the expected counts, never
the observed ones, so the pooling cannot be tuned by the data) until every
cell expects at least ``min_expected`` items.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import stats as _sps

from stats._results import ChiSquareResult
from stats._accumulate import CategoricalAccumulator, GroupCarry, aligned, no_carry
from stats._validate import (
    InsufficientDataError,
    as_float,
    check_choice,
    exact_probabilities,
)
from stats import _detect
from stats.pooling import POOL_RULES, min_items, pool_cells  # noqa: F401  (re-exported)
from stats.registry import BatteryTest

METHODS = ("pearson", "g")


def _statistic(observed: np.ndarray, expected: np.ndarray, method: str) -> float:
    if method == "pearson":
        terms = (observed - expected) ** 2 / expected
        return float(terms.sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(observed > 0, observed * np.log(observed / expected), 0.0)
    return float(2.0 * terms.sum())


def _chisquare_cells(observed, probabilities_float, *, ddof=0, method="pearson",
                     min_expected=5.0, pool="smallest", test="chi-square test",
                     unit="items", extra_df=0) -> ChiSquareResult:
    """Core shared by every multinomial test: pool, compute, refer to chi-square.

    ``extra_df`` is subtracted from the degrees of freedom like ``ddof``.
    """
    observed = np.asarray(observed, dtype=np.float64)
    n = float(observed.sum())
    expected = n * probabilities_float
    groups = pool_cells(expected, min_expected=min_expected, rule=pool)
    cells = int(groups.max()) + 1 if groups.size else 0
    if cells < 2 or (min_expected > 0 and pool != "error" and np.bincount(groups, expected).min() < min_expected):
        needed = min_items(probabilities_float, min_expected=max(min_expected, 1e-9), rule=pool)
        raise InsufficientDataError(test, max(needed, int(n) + 1), int(n), unit,
                                    f"every cell must expect at least {min_expected:g}")
    pooled_observed = np.bincount(groups, weights=observed, minlength=cells)
    pooled_expected = np.bincount(groups, weights=expected, minlength=cells)
    df = cells - 1 - int(ddof) - int(extra_df)
    if df < 1:
        raise ValueError(f"{test}: no degrees of freedom left ({cells} cells, ddof={ddof})")
    statistic = _statistic(pooled_observed, pooled_expected, method)
    pvalue = float(_sps.chi2.sf(statistic, df))
    return ChiSquareResult(statistic, pvalue, df, int(round(n)), pooled_observed, pooled_expected,
                           method, observed.size - cells)


def chisquare(observed, probabilities=None, *, ddof: int = 0, method: str = "pearson",
              min_expected: float = 5.0, pool: str = "smallest") -> ChiSquareResult:
    """Chi-square goodness-of-fit test of counts against an exact distribution.

    Null hypothesis: the counts are a multinomial sample from ``probabilities``
    (each item independently falls in cell ``i`` with probability ``p_i``).

    Parameters
    ----------
    observed : array_like of int
        Count of items in each cell.
    probabilities : int or sequence of Fraction/float, optional
        The exact cell probabilities; an int ``k`` (or None, meaning
        ``len(observed)``) means equally likely cells.
    ddof : int, optional
        Extra degrees of freedom to remove (parameters estimated from the data).
    method : {"pearson", "g"}, optional
        Pearson's X² = Σ (O - E)² / E, or the likelihood-ratio G = 2 Σ O ln(O/E)
        (Williams [3]_), which is better behaved when many cells are small.
    min_expected : float, optional
        Smallest expected count per cell (default 5); 0 disables pooling.
    pool : {"smallest", "adjacent", "error"}, optional
        How cells below ``min_expected`` are merged (see :func:`pool_cells`).

    Returns
    -------
    ChiSquareResult
        ``statistic``, ``pvalue``, ``df`` = (cells after pooling) - 1 - ddof,
        ``n`` = total count, pooled ``observed``/``expected``.

    Raises
    ------
    ValueError
        Invalid option (the message lists the valid ones), a length mismatch,
        negative counts, or too few items for two valid cells
        (:class:`~stats._validate.InsufficientDataError`).

    Notes
    -----
    The statistic is referred to the chi-square distribution with ``df``
    degrees of freedom, which is an approximation valid when every expected
    count is at least about 5 [1]_, [2]_; hence the pooling.  Pooling uses the
    expected counts only, so it is fixed before the data are seen.  With no
    pooling the statistic and p-value equal ``scipy.stats.chisquare(observed,
    n * p)``.

    References
    ----------
    .. [1] K. Pearson, "On the criterion that a given system of deviations ...",
       Philosophical Magazine 50 (1900) 157-175.
    .. [2] W. G. Cochran, "Some methods for strengthening the common χ² tests",
       Biometrics 10 (1954) 417-451.
    .. [3] D. A. Williams, "Improved likelihood ratio tests for complete
       contingency tables", Biometrika 63 (1976) 33-37.

    Examples
    --------
    >>> from stats import chisquare
    >>> r = chisquare([18, 22, 20, 21, 19, 20], 6)
    >>> r.df, round(r.pvalue, 3)
    (5, 0.992)
    """
    check_choice("method", method, METHODS)
    observed = np.asarray(observed)
    if observed.ndim != 1 or observed.size < 2:
        raise ValueError(f"observed must be a 1-D array of at least 2 counts, got shape {observed.shape}")
    if np.any(observed < 0):
        raise ValueError(f"observed counts must be >= 0; observed[{int(np.argmin(observed))}] < 0")
    probs = exact_probabilities(observed.size if probabilities is None else probabilities)
    if len(probs) != observed.size:
        raise ValueError(f"{observed.size} observed counts but {len(probs)} probabilities")
    return _chisquare_cells(observed, as_float(probs), ddof=ddof, method=method,
                            min_expected=min_expected, pool=pool)


class FrequencyAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`frequency_test`: category counts by ``np.bincount``.

    Parameters
    ----------
    probabilities, method, min_expected, pool
        As in :func:`frequency_test`.
    """

    sums = ("counts",)
    sync = no_carry

    name = "frequency test"

    def __init__(self, probabilities, *, method="pearson", min_expected=5.0, pool="smallest"):
        super().__init__(probabilities)
        check_choice("method", method, METHODS)
        check_choice("pool", pool, POOL_RULES)
        self.method, self.min_expected, self.pool = method, float(min_expected), pool
        self.counts = np.zeros(self.k, dtype=np.int64)

    def _update(self, x):
        self.counts += np.bincount(x, minlength=self.k)

    def min_samples(self):
        return int(np.ceil(self.min_expected / self.p.min())) if self.pool == "error" else 2

    def _result(self):
        return _chisquare_cells(self.counts, self.p, method=self.method, min_expected=self.min_expected,
                                pool=self.pool, test=self.name)


class CellLawAccumulator(CategoricalAccumulator):
    """Core of the tests that classify items (hands, gaps, segments, blocks) of a categorical
    stream into ordered cells with an exact law ``cell_p``, then test the counts by chi-square
    with adjacent pooling (the sparse tails merge into their neighbours).

    Subclasses call :meth:`_set_cells` and feed item statistics to :meth:`_count`.
    """

    #: what one item is, for messages
    item = "items"

    def _set_cells(self, cell_p, min_expected) -> None:
        self.cell_p = np.asarray(cell_p, dtype=np.float64)
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.cell_p.size, dtype=np.int64)

    def _count(self, values) -> None:
        """Add items whose statistic is ``values`` (the last cell collects everything beyond it)."""
        values = np.asarray(values)
        if values.size:
            self.counts += np.bincount(np.minimum(values, self.counts.size - 1), minlength=self.counts.size)

    def min_items(self) -> int:
        """Items needed for two pooled cells of ``min_expected`` each."""
        return min_items(self.cell_p, min_expected=self.min_expected, rule="adjacent")

    def _result(self):
        return _chisquare_cells(self.counts, self.cell_p, min_expected=self.min_expected, pool="adjacent",
                                test=self.name, unit=self.item)


class GroupCellAccumulator(CellLawAccumulator):
    """:class:`CellLawAccumulator` whose items are consecutive, non-overlapping groups of ``t``
    outcomes; subclasses implement ``_statistic(groups)`` (one value per row)."""

    sums = ("counts",)
    sync = aligned(lambda acc: acc._groups.t)  # groups cut by a boundary

    def _set_groups(self, t: int) -> None:
        self.t = t
        self._groups = GroupCarry(t, self._dtype)

    def _update(self, x):
        groups = self._groups.take(x)
        if len(groups):
            self._count(self._statistic(groups))

    def min_samples(self):
        return self.min_items() * self.t


def frequency_test(x, probabilities, *, method: str = "pearson", min_expected: float = 5.0,
                   pool: str = "smallest") -> ChiSquareResult:
    """Frequency (equidistribution) test of a sequence of category indices.

    Null hypothesis: every outcome falls in category ``i`` with probability
    ``p_i`` (the physical device's exact distribution), independently.

    Parameters
    ----------
    x : array_like of int
        Category index of each outcome, in [0, k).
    probabilities : int or sequence
        Exact distribution of one outcome (int ``k``: k equally likely).
    method, min_expected, pool
        As in :func:`chisquare`.

    Returns
    -------
    ChiSquareResult

    Notes
    -----
    This is :func:`chisquare` on ``np.bincount(x)``; valid when every category
    expects at least ``min_expected`` outcomes (so n >= 5 / min p_i).  For
    streams too large for memory use
    :class:`stats.streaming.FrequencyAccumulator`.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 A (equidistribution test), Addison-Wesley, 1997.
    """
    return FrequencyAccumulator(probabilities, method=method, min_expected=min_expected, pool=pool).run(x)


def _combinations(ctx):
    cells = ctx.kind.faces ** ctx.kind.width
    if ctx.kind.width < 2 or cells > 1296:
        return None
    return ((Fraction(1, cells),) * cells,)


BATTERY = [
    BatteryTest("frequency", ("categorical",), "values", FrequencyAccumulator,
                lambda ctx: (ctx.probabilities,), _detect.frequency(), order=100, function=frequency_test,
                labelled=True),
    BatteryTest("combination", ("dice",), "combos", FrequencyAccumulator, _combinations,
                _detect.cells("one ordered combination"), order=300),
]

__all__ = ["chisquare", "frequency_test", "FrequencyAccumulator", "pool_cells", "POOL_RULES", "METHODS",
           "CellLawAccumulator", "GroupCellAccumulator"]
