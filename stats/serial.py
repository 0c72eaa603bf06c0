"""Serial tests: t-tuples of consecutive outcomes, and independence of consecutive outcomes."""
from __future__ import annotations

import numpy as np
from scipy import stats as _sps

from stats._accumulate import CategoricalAccumulator, aligned, last, tuple_index
from stats._results import ChiSquareResult
from stats._validate import check_choice, check_int
from stats.chisquare import METHODS, POOL_RULES, _chisquare_cells
from stats import _detect
from stats.registry import BatteryTest

DIFFERENCES = (0, 1, 2)


def _word_probabilities(p: np.ndarray, t: int) -> np.ndarray:
    """Probability of every t-word (index x1*k^(t-1) + ... + xt) under independence."""
    out = np.ones(1)
    for _ in range(t):
        out = np.multiply.outer(out, p).ravel()
    return out


class SerialAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`serial_test`.

    Non-overlapping tuples are counted as they complete (a partial tuple is
    carried to the next chunk).  Overlapping tuples are counted circularly:
    the last ``t - 1`` values are carried across chunks and the first
    ``t - 1`` values are kept to close the circle at the end.
    """

    sums = ("counts",)
    firsts = ("_head",)

    def sync(self, head, start):
        # overlapping: the t - 1 values that finish the tuples a boundary cuts; else the rest of a cut tuple
        return (last(lambda acc: acc.t - 1) if self.overlapping else aligned(lambda acc: acc.t))(self, head, start)

    def _replays_head(self):
        return self.overlapping

    name = "serial test"

    def __init__(self, probabilities, *, t=2, overlapping=False, difference=1, method="pearson",
                 min_expected=5.0, pool="smallest"):
        super().__init__(probabilities)
        self.t = check_int("t", t, 1, 8)
        if self.k**self.t > 2**27:
            raise ValueError(f"k**t = {self.k}**{self.t} cells is too many (limit 2**27); choose a smaller t")
        check_choice("difference", difference, DIFFERENCES)
        check_choice("method", method, METHODS)
        check_choice("pool", pool, POOL_RULES)
        if overlapping and difference > self.t:
            raise ValueError(f"difference must be <= t = {self.t}, got {difference}")
        self.overlapping, self.difference = bool(overlapping), difference
        self.method, self.min_expected, self.pool = method, float(min_expected), pool
        self.cells = self.k**self.t
        self.counts = np.zeros(self.cells, dtype=np.int64)
        self._carry = np.zeros(0, dtype=self._dtype)
        self._head = np.zeros(0, dtype=self._dtype)
        self.name = ("overlapping " if overlapping else "") + f"serial test (t={self.t})"

    def _update(self, x):
        t = self.t
        if self.overlapping and self._head.size < t - 1:
            self._head = np.concatenate([self._head, x[: t - 1 - self._head.size]])
        data = np.concatenate([self._carry, x]) if self._carry.size else x
        if self.overlapping:
            count = data.size - t + 1
            if count > 0:
                self.counts += np.bincount(tuple_index(data, self.k, t, count, 1), minlength=self.cells)
            self._carry = data[max(0, data.size - (t - 1)):].copy() if t > 1 else data[:0]
        else:
            count = data.size // t
            if count:
                self.counts += np.bincount(tuple_index(data, self.k, t, count, t), minlength=self.cells)
            self._carry = data[count * t:].copy()

    def min_samples(self):
        word_min = float(self.p.min()) ** self.t
        if self.overlapping:
            # Good's statistic cannot pool cells: every t-word must expect >= min_expected.
            return max(self.t, int(np.ceil(self.min_expected / word_min)))
        return 2 * self.t

    def _circular_counts(self) -> np.ndarray:
        counts = self.counts.copy()
        t = self.t
        if t > 1:
            wrap = np.concatenate([self._carry, self._head])
            if wrap.size >= t:
                counts += np.bincount(tuple_index(wrap, self.k, t, wrap.size - t + 1, 1), minlength=self.cells)
        return counts

    def _result(self):
        if not self.overlapping:
            return _chisquare_cells(self.counts, _word_probabilities(self.p, self.t), method=self.method,
                                    min_expected=self.min_expected, pool=self.pool, test=self.name,
                                    unit="outcomes")
        counts = self._circular_counts().astype(np.float64)
        n = self.n
        psi = {}
        shape = (self.k,) * self.t
        table = counts.reshape(shape)
        for s in range(self.t, max(self.t - self.difference, 0) - 1, -1):
            if s == 0:
                psi[0] = 0.0
                continue
            marginal = table.sum(axis=tuple(range(s, self.t))).ravel() if s < self.t else counts
            expected = n * _word_probabilities(self.p, s)
            psi[s] = float(((marginal - expected) ** 2 / expected).sum())
        t, k = self.t, self.k
        if self.difference == 0:
            statistic, df, method = psi[t], k**t - 1, "psi-squared"
        elif self.difference == 1:
            statistic, df, method = psi[t] - psi[t - 1], k**t - k ** (t - 1), "good-first-difference"
        else:
            lower = psi[t - 2] if t >= 2 else 0.0
            statistic = psi[t] - 2 * psi[t - 1] + lower
            df = k**t - 2 * k ** (t - 1) + (k ** (t - 2) if t >= 2 else 0)
            method = "good-second-difference"
        pvalue = float(_sps.chi2.sf(statistic, df))
        expected = n * _word_probabilities(self.p, t)
        return ChiSquareResult(statistic, pvalue, int(df), n, counts, expected, method, 0)


def serial_test(x, probabilities, *, t: int = 2, overlapping: bool = False, difference: int = 1,
                method: str = "pearson", min_expected: float = 5.0, pool: str = "smallest") -> ChiSquareResult:
    """Serial test: frequencies of t-tuples of consecutive outcomes.

    Null hypothesis: the outcomes are independent, each with the device's
    distribution, so a t-tuple ``w = (w1..wt)`` occurs with probability
    ``p_w1 * ... * p_wt``.

    Parameters
    ----------
    x : array_like of int
        Category indices in [0, k).
    probabilities : int or sequence
        Exact distribution of one outcome.
    t : int, optional
        Tuple length (2 = pairs, 3 = triples).
    overlapping : bool, optional
        False: the tuples ``(x1..xt), (xt+1..x2t), ...`` (independent, so a
        plain chi-square with k^t - 1 df applies).  True: all n overlapping
        tuples of the circular sequence, tested with Good's differences.
    difference : {1, 2, 0}, optional
        Overlapping only.  1: Good's first difference ∇ψ²_t = ψ²_t - ψ²_(t-1)
        (df k^t - k^(t-1)); 2: second difference ∇²ψ²_t = ψ²_t - 2ψ²_(t-1) +
        ψ²_(t-2) (df k^t - 2k^(t-1) + k^(t-2)); 0: the raw ψ²_t, which is *not*
        chi-square distributed (kept only for comparison; its p-value is wrong).
    method, min_expected, pool
        Non-overlapping only: as in :func:`stats.chisquare`.

    Returns
    -------
    ChiSquareResult
        For overlapping tuples, ``observed``/``expected`` are the circular
        t-tuple counts and ``method`` names the difference used.

    Notes
    -----
    Overlapping tuples are not independent, so the plain chi-square ψ²_t of
    their counts does not follow a chi-square law.  Good [1]_ showed that the
    differences ∇ψ² and ∇²ψ² do, with the degrees of freedom above; the
    circular counting makes the marginal (t-1)-tuple counts exact sums of the
    t-tuple counts.  The result holds for unequal probabilities as well
    (checked in this project's tests by computing the exact covariance of the
    counts and verifying that the quadratic form's eigenvalues are 0 and 1).
    Validity: every t-word must expect at least ``min_expected`` tuples, i.e.
    n >= 5 / (min p)^t (overlapping); for non-overlapping tuples small cells
    are pooled as in :func:`stats.chisquare`.

    References
    ----------
    .. [1] I. J. Good, "The serial test for sampling numbers and other tests
       for randomness", Proc. Cambridge Philos. Soc. 49 (1953) 276-284.
    .. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 B and exercise 3.3.2-24, Addison-Wesley, 1997.
    """
    return SerialAccumulator(probabilities, t=t, overlapping=overlapping, difference=difference, method=method,
                             min_expected=min_expected, pool=pool).run(x)


def contingency_statistic(table) -> tuple[float, int, np.ndarray, np.ndarray]:
    """Pearson's X² for independence of rows and columns of a count table.

    Rows and columns that never occur are dropped (they carry no
    information).  Returns (X², df, observed, expected) over the kept cells,
    df = (rows - 1)(columns - 1); equals ``scipy.stats.chi2_contingency(table,
    correction=False)`` on the kept table.
    """
    table = np.asarray(table, dtype=np.float64)
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    keep_r, keep_c = rows > 0, cols > 0
    table = table[keep_r][:, keep_c]
    expected = np.outer(rows[keep_r], cols[keep_c]) / table.sum()
    statistic = float(((table - expected) ** 2 / expected).sum())
    df = (int(keep_r.sum()) - 1) * (int(keep_c.sum()) - 1)
    return statistic, df, table, expected


def contingency_test_table(table) -> ChiSquareResult:
    """:func:`contingency_statistic` referred to chi-square (p = 1 when df = 0)."""
    statistic, df, observed, expected = contingency_statistic(table)
    pvalue = float(_sps.chi2.sf(statistic, df)) if df > 0 else 1.0
    return ChiSquareResult(statistic, pvalue, df, int(observed.sum()), observed, expected, "contingency", 0)


class IndependenceAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`independence_test`: the k×k table of (x_i, x_i+1)."""

    sums = ("counts",)
    sync = last(lambda acc: 1)

    name = "independence test"

    def __init__(self, probabilities, *, min_expected=5.0):
        super().__init__(probabilities)
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.k * self.k, dtype=np.int64)
        self._last = None

    def _update(self, x):
        data = np.concatenate([[self._last], x]).astype(x.dtype) if self._last is not None else x
        if data.size >= 2:
            self.counts += np.bincount(tuple_index(data, self.k, 2, data.size - 1, 1), minlength=self.k * self.k)
        self._last = x[-1]

    def min_samples(self):
        return int(np.ceil(self.min_expected / float(self.p.min()) ** 2)) + 1

    def _result(self):
        return contingency_test_table(self.counts.reshape(self.k, self.k))


def independence_test(x, probabilities, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Independence of consecutive outcomes: contingency table of outcome i vs i+1.

    Null hypothesis: each outcome is independent of the one before it (the
    sequence is a zero-order chain), whatever the marginal distribution.

    Parameters
    ----------
    x : array_like of int
        Category indices in [0, k).
    probabilities : int or sequence
        The device's distribution; only k and the sample-size rule use it, the
        test itself estimates the margins from the data.
    min_expected : float, optional
        Validity rule: n - 1 >= min_expected / (min p)^2 transitions.

    Returns
    -------
    ChiSquareResult
        ``statistic`` = Σ (n_ab - n_a. n_.b / N)² / (n_a. n_.b / N) over the
        k×k table of the N = n - 1 transitions; ``df`` = (r - 1)(c - 1) over the
        r rows and c columns that occur; ``observed`` the table.

    Notes
    -----
    The n - 1 pairs overlap, but for a Markov chain the transition-count
    statistic is still asymptotically chi-square with (k - 1)² df (Anderson &
    Goodman [1]_, Billingsley [2]_): it is the test of order 0 against order 1.
    The statistic equals ``scipy.stats.chi2_contingency(table,
    correction=False)`` on the transition table.  Unlike the serial test, it
    does not assume the marginal distribution, so it separates "biased" from
    "dependent".

    References
    ----------
    .. [1] T. W. Anderson and L. A. Goodman, "Statistical inference about
       Markov chains", Ann. Math. Statist. 28 (1957) 89-110.
    .. [2] P. Billingsley, "Statistical methods in Markov chains", Ann. Math.
       Statist. 32 (1961) 12-40.
    """
    return IndependenceAccumulator(probabilities, min_expected=min_expected).run(x)


def _triples(ctx):
    return (ctx.probabilities,) if len(ctx.probabilities) ** 3 <= 2**20 else None


def _dice_totals(ctx):
    return (ctx.kind.totals_law(),) if ctx.kind.width >= 2 else None


BATTERY = [
    BatteryTest("serial-pairs", ("categorical",), "values", SerialAccumulator,
                lambda ctx: dict(probabilities=ctx.probabilities, t=2, overlapping=True), _detect.repeat(),
                order=110, function=serial_test),
    BatteryTest("serial-triples", ("categorical",), "values", SerialAccumulator,
                lambda ctx: None if _triples(ctx) is None else dict(probabilities=ctx.probabilities, t=3,
                                                                    overlapping=True),
                required=False, order=120),
    BatteryTest("independence", ("categorical",), "values", IndependenceAccumulator,
                lambda ctx: (ctx.probabilities,), _detect.repeat(), order=130, function=independence_test,
                labelled=True),
    BatteryTest("totals-independence", ("dice",), "totals", IndependenceAccumulator, _dice_totals,
                _detect.repeat(lambda ctx: ctx.kind.totals_law()), required=False, order=320),
    BatteryTest("first-card-independence", ("permutation",), "first", IndependenceAccumulator,
                lambda ctx: (ctx.probabilities,), _detect.repeat(), required=False, order=480, labelled=True),
]


__all__ = ["serial_test", "independence_test", "SerialAccumulator", "IndependenceAccumulator",
           "contingency_statistic", "contingency_test_table"]
