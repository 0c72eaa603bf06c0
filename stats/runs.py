"""Runs tests: runs up (Knuth), runs up and down (Levene–Wolfowitz), runs above/below the median.

Counts of runs of different lengths are correlated (a long run leaves less
room for others, and adjacent runs share an element), so a plain chi-square
on run-length counts is wrong.  Here the exact mean vector and covariance
matrix of the counts, for the actual sequence length n, are computed from
first principles (probabilities of up/down patterns by counting linear
extensions) and the statistic is the quadratic form
``(R - μ)ᵀ Σ⁻¹ (R - μ)``, asymptotically chi-square with one df per length
class.  For runs up this reproduces Knuth's matrix A (tested).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, CategoricalAccumulator, UniformAccumulator, last
from stats._results import ChiSquareResult, NormalResult
from stats._validate import check_choice, check_int
from stats.pit import DEFAULT_JITTER_SEED, continuous_input
from stats import _detect
from stats import _sp800_22_native as _native
from stats.registry import BatteryTest

UP, DOWN = 1, 0
RUN_KINDS = ("up", "updown")
RUN_STATISTICS = ("length", "count")


@lru_cache(maxsize=None)
def _pattern_probability(signs: tuple) -> Fraction:
    """P(u_1 ? u_2 ? ... ) for consecutive i.i.d. continuous values, where
    ``signs[j]`` is UP (u_j < u_j+1), DOWN, or None (free).

    Counts the orderings of len(signs)+1 elements with those comparisons by
    the standard rank dynamic programme (f[r] = orderings whose last element
    has rank r among those placed so far).
    """
    f = [1]
    for sign in signs:
        size = len(f) + 1
        prefix = [0]
        for v in f:
            prefix.append(prefix[-1] + v)
        total = prefix[-1]
        if sign == UP:
            f = [prefix[r] for r in range(size)]
        elif sign == DOWN:
            f = [total - prefix[r] for r in range(size)]
        else:
            f = [total] * size
    return Fraction(sum(f), factorial(len(signs) + 1))


def _probability(constraints: dict) -> Fraction:
    """Probability of a set of sign constraints {position: sign}; independent blocks multiply."""
    if not constraints:
        return Fraction(1)
    positions = sorted(constraints)
    result = Fraction(1)
    block = [constraints[positions[0]]]
    for prev, pos in zip(positions, positions[1:]):
        if pos == prev + 1:
            block.append(constraints[pos])
        else:
            result *= _pattern_probability(tuple(block))
            block = [constraints[pos]]
    return result * _pattern_probability(tuple(block))


def _events(kind: str, p: int, i: int) -> list[dict]:
    """Sign constraints for "a run of length >= p starts at i" (1-based).

    Runs up: sign positions j = 1..n-1 compare u_j with u_j+1; the run starts
    at element i.  Runs up and down: runs in the sign sequence itself, the run
    starts at sign position i; it is an up run or a down run (two events).
    """
    if kind == "up":
        c = {j: UP for j in range(i, i + p - 1)}
        if i >= 2:
            c[i - 1] = DOWN
        return [c]
    out = []
    for d in (UP, DOWN):
        c = {j: d for j in range(i, i + p)}
        if i >= 2:
            c[i - 1] = 1 - d
        out.append(c)
    return out


def _joint(e: dict, f: dict) -> Fraction:
    merged = dict(e)
    for pos, s in f.items():
        if merged.get(pos, s) != s:
            return Fraction(0)
        merged[pos] = s
    return _probability(merged)


@lru_cache(maxsize=None)
def _pair_term(kind, p, i, q, j) -> Fraction:
    """Σ over event pairs of P(e∧f) - P(e)P(f) for starts i (length >= p) and j (>= q)."""
    total = Fraction(0)
    for e in _events(kind, p, i):
        for f in _events(kind, q, j):
            total += _joint(e, f) - _probability(e) * _probability(f)
    return total


def _last_starts(kind, n, classes):
    starts_total = n if kind == "up" else n - 1  # elements (up) or signs (updown)
    return {p: starts_total - p + 1 for p in range(1, classes + 1)}  # last valid start


def _mean_ge(kind, n, classes):
    """Exact expected number of runs of length >= p, p = 1..classes."""
    last = _last_starts(kind, n, classes)
    out = []
    for p in range(1, classes + 1):
        if last[p] < 1:
            out.append(Fraction(0))
            continue
        first = sum(_probability(e) for e in _events(kind, p, 1))
        interior = sum(_probability(e) for e in _events(kind, p, 2))
        out.append(first + (last[p] - 1) * interior)
    return out


def run_class_means(kind: str, n: int, classes: int) -> np.ndarray:
    """Expected counts of runs of length 1..classes-1 and >= classes (cheap)."""
    ge = [float(m) for m in _mean_ge(kind, n, classes)] + [0.0]
    return np.array([ge[a] - ge[a + 1] if a + 1 < classes else ge[a] for a in range(classes)])


@lru_cache(maxsize=64)
def run_moments(kind: str, n: int, classes: int):
    """Exact mean and covariance of run-length counts for n i.i.d. continuous values.

    Parameters
    ----------
    kind : {"up", "updown"}
    n : int
        Sequence length.
    classes : int
        Counts are of runs of length 1, 2, ..., classes-1 and >= classes.

    Returns
    -------
    mean : numpy.ndarray, shape (classes,)
    cov : numpy.ndarray, shape (classes, classes)
    """
    check_choice("kind", kind, RUN_KINDS)
    last = _last_starts(kind, n, classes)
    mean_ge = _mean_ge(kind, n, classes)
    cov_ge = [[Fraction(0)] * classes for _ in range(classes)]
    for a in range(classes):
        p = a + 1
        for b in range(a, classes):
            q = b + 1
            reach = p + q + 3
            total = Fraction(0)
            if last[p] >= 1 and last[q] >= 1:
                # Pairs where either start is the boundary start 1.
                for j in range(1, min(last[q], 1 + reach) + 1):
                    total += _pair_term(kind, p, 1, q, j)
                for i in range(2, min(last[p], 1 + reach) + 1):
                    total += _pair_term(kind, p, i, q, 1)
                # Interior pairs depend only on the offset d = j - i.
                base = reach + 2
                for d in range(-reach, reach + 1):
                    lo = max(2, 2 - d)
                    hi = min(last[p], last[q] - d)
                    if hi >= lo:
                        total += (hi - lo + 1) * _pair_term(kind, p, base, q, base + d)
            cov_ge[a][b] = cov_ge[b][a] = total
    # Counts of runs of length exactly p (p < classes) and >= classes.
    transform = np.zeros((classes, classes))
    for a in range(classes):
        transform[a, a] = 1
        if a + 1 < classes:
            transform[a, a + 1] = -1
    mean = transform @ np.array([float(m) for m in mean_ge])
    cov = transform @ np.array([[float(c) for c in row] for row in cov_ge]) @ transform.T
    return mean, cov


class RunsAccumulator(UniformAccumulator):
    """Streaming core of :func:`runs_up_test` and :func:`runs_updown_test`.

    Keeps the last value, the last direction and the length of the run in
    progress; completed runs are counted by length as chunks arrive.
    """

    def __init__(self, kind="up", *, classes=6, statistic="length"):
        super().__init__()
        check_choice("kind", kind, RUN_KINDS)
        check_choice("statistic", statistic, RUN_STATISTICS)
        self.kind, self.statistic = kind, statistic
        self.classes = check_int("classes", classes, 2, 12)
        self.counts = np.zeros(self.classes + 1, dtype=np.int64)
        self._last = None
        self._last_sign = None
        self._current = 0
        self.name = ("runs up" if kind == "up" else "runs up and down") + (
            " (count)" if statistic == "count" else "")

    sums = ("counts",)

    def sync(self, head, start):
        # Up to the first run that starts inside the segment and the value that closes the run
        # before it: that run began before the boundary; from there on the state is the segment's.
        if self.kind == "up":
            falls = np.flatnonzero(head[1:] < head[:-1])  # a run up starts at falls + 1
            return int(falls[0]) + 2 if falls.size else None
        signs = head[1:] > head[:-1]
        turns = np.flatnonzero(signs[1:] != signs[:-1])  # a run starts at sign turns + 1, seen one value on
        return int(turns[0]) + 3 if turns.size else None

    def _update(self, u):
        # One pass in C (csrc/stats/runs.h): the stream's state in, the counts and the state out.
        ffi, lib = _native._lib()
        state = ffi.new("stat_runs_state *")
        state.has_last = self._last is not None
        state.last = self._last if self._last is not None else 0.0
        state.sign = -1 if self._last_sign is None else int(self._last_sign)
        state.current = int(self._current)
        values = ffi.from_buffer("double[]", np.ascontiguousarray(u))
        counts = ffi.from_buffer("int64_t[]", self.counts, require_writable=True)
        _native._check(lib.stat_runs_count(self.kind == "up", values, u.size, state, counts, self.classes), self.name)
        self._last = np.float64(state.last)
        if state.sign >= 0:
            self._last_sign = np.int8(state.sign)
        self._current = int(state.current)

    def min_samples(self):
        if self.statistic == "count":
            return 20
        # Knuth's rule of thumb for runs up with 6 classes is n >= 4000; in general
        # require every class to expect >= 5 runs.
        lo, hi = self.classes + 2, self.classes + 2
        while run_class_means(self.kind, hi, self.classes).min() < 5:
            lo, hi = hi, hi * 2
        while lo < hi:
            mid = (lo + hi) // 2
            if run_class_means(self.kind, mid, self.classes).min() >= 5:
                hi = mid
            else:
                lo = mid + 1
        return hi

    def _result(self):
        counts = self.counts[1:].copy()
        if self._current > 0:
            counts[min(self._current, self.classes) - 1] += 1
        n = self.n
        if self.statistic == "count":
            mean, cov = run_moments(self.kind, n, 1)
            total = float(counts.sum())
            sd = float(np.sqrt(cov[0, 0]))
            z = (total - mean[0]) / sd
            return NormalResult(float(z), float(2 * _sps.norm.sf(abs(z))), n, total, float(mean[0]), sd)
        mean, cov = run_moments(self.kind, n, self.classes)
        diff = counts - mean
        statistic = float(diff @ np.linalg.solve(cov, diff))
        pvalue = float(_sps.chi2.sf(statistic, self.classes))
        return ChiSquareResult(statistic, pvalue, self.classes, n, counts, mean, "quadratic-form", 0)


def runs_up_test(x, probabilities=None, *, classes: int = 6, statistic: str = "length",
                 seed: int = DEFAULT_JITTER_SEED):
    """Runs-up test (Knuth): lengths of maximal ascending runs.

    Null hypothesis: the values are independent and identically distributed
    (continuous; for categorical outcomes, with the given distribution).

    Parameters
    ----------
    x : array_like
        Continuous values, or category indices when ``probabilities`` is given
        (ties are then broken by the randomized PIT, :mod:`stats.pit`).
    probabilities : int or sequence, optional
        Distribution of categorical outcomes.
    classes : int, optional
        Run lengths 1, ..., classes-1 and ">= classes" (Knuth uses 6).
    statistic : {"length", "count"}, optional
        "length": quadratic form over the length classes, chi-square with
        ``classes`` df.  "count": the number of runs, a normal z statistic.
    seed : int, optional
        Jitter stream seed for the PIT.

    Returns
    -------
    ChiSquareResult or NormalResult

    Notes
    -----
    Adjacent runs are dependent, so the counts R_1..R_6 are compared to their
    exact mean μ and covariance Σ for this n (computed exactly, see module
    doc) through V = (R - μ)ᵀ Σ⁻¹ (R - μ) ~ χ²(classes) [1]_.  The final,
    truncated run is counted at its observed length (the moments account for
    it).  Valid when every class expects at least 5 runs (n ≳ 4000 for 6
    classes).

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 G, Addison-Wesley, 1997.
    .. [2] H. Levene and J. Wolfowitz, "The covariance matrix of runs up and
       down", Ann. Math. Statist. 15 (1944) 58-69.
    """
    return RunsAccumulator("up", classes=classes, statistic=statistic).run(continuous_input(x, probabilities, seed))


def runs_updown_test(x, probabilities=None, *, classes: int = 5, statistic: str = "length",
                     seed: int = DEFAULT_JITTER_SEED):
    """Runs up and down (Levene–Wolfowitz): lengths of monotone stretches.

    Null hypothesis: the values are independent and identically distributed.

    Parameters
    ----------
    x, probabilities, seed
        As in :func:`runs_up_test`.
    classes : int, optional
        Lengths (in steps) 1, ..., classes-1 and ">= classes".
    statistic : {"length", "count"}, optional
        "length": quadratic form with the exact covariance (chi-square,
        ``classes`` df).  "count": total number of runs up and down, z with
        mean (2n - 1)/3 and variance (16n - 29)/90 [1]_.

    Returns
    -------
    ChiSquareResult or NormalResult

    Notes
    -----
    A run up and down is a maximal stretch of the sign sequence
    sign(x_(i+1) - x_i).  Valid when each class expects at least 5 runs
    ("count": n >= 20).

    References
    ----------
    .. [1] H. Levene and J. Wolfowitz, "The covariance matrix of runs up and
       down", Ann. Math. Statist. 15 (1944) 58-69.
    .. [2] J. Wolfowitz, "Asymptotic distribution of runs up and down", Ann.
       Math. Statist. 15 (1944) 163-172.
    """
    return RunsAccumulator("updown", classes=classes, statistic=statistic).run(continuous_input(x, probabilities, seed))


def _median_split(p: np.ndarray) -> int:
    """Category c such that P(x < c) is as close to 1/2 as possible (c in 1..k-1)."""
    cumulative = np.cumsum(p)[:-1]
    return int(np.argmin(np.abs(cumulative - 0.5))) + 1


class MedianRunsAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`runs_median_test`: count of runs of "low"/"high" outcomes."""

    sums = ("low", "changes")
    sync = last(lambda acc: 1)

    name = "runs above/below the median"

    def __init__(self, probabilities, *, split=None):
        super().__init__(probabilities)
        self.split = _median_split(self.p) if split is None else check_int("split", split, 1, self.k - 1)
        self.low = 0
        self.changes = 0
        self._last = None

    def _update(self, x):
        bits = x < self.split
        self.low += int(bits.sum())
        if self._last is not None:
            self.changes += int(bits[0] != self._last)
        self.changes += int(np.count_nonzero(bits[1:] != bits[:-1]))
        self._last = bool(bits[-1])

    def min_samples(self):
        return 20

    def _result(self):
        n1, n = self.low, self.n
        n2 = n - n1
        runs = self.changes + 1
        if n1 == 0 or n2 == 0:
            # All outcomes on one side: impossible under the null for n >= 20 unless p is extreme.
            q = float(self.p[: self.split].sum())
            pvalue = float(min(1.0, q**n + (1 - q) ** n))
            return NormalResult(float("inf"), pvalue, n, float(runs), float("nan"), float("nan"))
        mean = 1 + 2 * n1 * n2 / n
        var = 2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1))
        sd = float(np.sqrt(var))
        z = (runs - mean) / sd
        return NormalResult(float(z), float(2 * _sps.norm.sf(abs(z))), n, float(runs), float(mean), sd)


def runs_median_test(x, probabilities, *, split: int | None = None) -> NormalResult:
    """Runs above and below the median (Wald–Wolfowitz).

    Null hypothesis: the outcomes are independent and identically distributed,
    so, given how many are "low" (category < split), every order of lows and
    highs is equally likely.

    Parameters
    ----------
    x : array_like of int
        Category indices.
    probabilities : int or sequence
        Distribution of one outcome; it fixes the default split.
    split : int, optional
        Categories ``< split`` are "low".  Default: the split whose low
        probability is closest to 1/2.

    Returns
    -------
    NormalResult
        z for the number of runs R, with the conditional mean
        1 + 2 n1 n2 / n and variance 2 n1 n2 (2 n1 n2 - n) / (n² (n - 1)).

    Notes
    -----
    Exact conditional moments; the normal approximation is good for
    n1, n2 >= 10 [1]_.  Too few runs indicates clustering, too many
    alternation; the p-value is two-sided.

    References
    ----------
    .. [1] A. Wald and J. Wolfowitz, "On a test whether two samples are from
       the same population", Ann. Math. Statist. 11 (1940) 147-162.
    """
    return MedianRunsAccumulator(probabilities, split=split).run(x)


def _runs_power(kind):
    def power_of(ctx, acc, result, alpha, power):
        # Conservative: only the shifted class's own variance is used (a shift of one
        # class alone, with the others fixed, would be far easier to see).
        from stats.power import Detectable, noncentrality_for_power

        mean, cov = run_moments(kind, result.n, result.df)
        c = int(np.argmax(mean))
        lam = noncentrality_for_power(result.df, alpha, power)
        delta = float(np.sqrt(lam * cov[c, c]) / mean[c])
        return Detectable(delta, f"runs of length {c + 1} at (1 + δ)×expected", alpha, power)

    return power_of


BATTERY = [
    BatteryTest("runs-up", ("categorical",), "uniform", RunsAccumulator, lambda ctx: dict(kind="up", classes=6),
                _runs_power("up"), order=190, function=runs_up_test),
    BatteryTest("runs-up-down", ("categorical",), "uniform", RunsAccumulator,
                lambda ctx: dict(kind="updown", classes=5), _runs_power("updown"), order=200,
                function=runs_updown_test),
    BatteryTest("runs-median", ("categorical",), "values", MedianRunsAccumulator, lambda ctx: (ctx.probabilities,),
                _detect.normal("the number of runs"), order=210, function=runs_median_test),
]


__all__ = ["runs_up_test", "runs_updown_test", "runs_median_test", "run_moments",
           "RunsAccumulator", "MedianRunsAccumulator"]
