"""Second-level tests: are the p-values of repeated runs uniform on [0, 1]?"""
from __future__ import annotations

import functools

import math

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, aligned
from stats._results import UniformityResult
from stats._validate import sample_array
from stats.registry import BatteryTest


def _unit_values(pvalues, minimum: int) -> np.ndarray:
    u = sample_array(pvalues, "pvalues")
    if u.size < minimum:
        raise ValueError(f"need at least {minimum} p-values, got {u.size}")
    if u.min() < 0 or u.max() > 1:
        bad = int(np.flatnonzero((u < 0) | (u > 1))[0])
        raise ValueError(f"pvalues[{bad}] = {u[bad]!r} is outside [0, 1]")
    return u


def ks_uniform_test(pvalues) -> UniformityResult:
    """Kolmogorov–Smirnov test that values are uniform on [0, 1].

    Null hypothesis: the values are independent draws from U(0, 1) — for
    p-values of repeated independent runs of a valid test, exactly what a
    good generator produces.

    Parameters
    ----------
    pvalues : array_like of float
        Values in [0, 1] (at least 5).

    Returns
    -------
    UniformityResult
        ``statistic`` D = sup |F_n(u) - u|, two-sided p-value (exact
        distribution for small samples, as in ``scipy.stats.kstest``).

    Notes
    -----
    Valid for continuous p-values.  p-values of discrete statistics are
    slightly lumpy; with many cells the effect is negligible, but a
    second-level test over millions of runs of a test with few possible
    values would detect the lumps rather than the generator.

    References
    ----------
    .. [1] A. Kolmogorov, "Sulla determinazione empirica di una legge di
       distribuzione", G. Ist. Ital. Attuari 4 (1933) 83-91.
    .. [2] G. Marsaglia, W. W. Tsang and J. Wang, "Evaluating Kolmogorov's
       distribution", J. Stat. Softw. 8(18) (2003).
    """
    u = _unit_values(pvalues, 5)
    result = _sps.kstest(u, "uniform")
    return UniformityResult(float(result.statistic), float(result.pvalue), int(u.size), "ks")


def _adinf(z: float) -> float:
    # Marsaglia & Marsaglia (2004), asymptotic CDF of A², |error| < 2e-6.
    if z <= 0:
        return 0.0
    if z < 2:
        return math.exp(-1.2337141 / z) / math.sqrt(z) * (
            2.00012 + (0.247105 - (0.0649821 - (0.0347962 - (0.011672 - 0.00168691 * z) * z) * z) * z) * z)
    return math.exp(-math.exp(1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * z) * z)
                                                   * z) * z) * z))


def _errfix(n: int, x: float) -> float:
    # Marsaglia & Marsaglia (2004), finite-n correction to the asymptotic CDF.
    if x > 0.8:
        return (-130.2137 + (745.2337 - (1705.091 - (1950.646 - (1116.360 - 255.7844 * x) * x) * x) * x) * x) / n
    c = 0.01265 + 0.1757 / n
    if x < c:
        t = x / c
        t = math.sqrt(t) * (1.0 - t) * (49 * t - 102)
        return t * (0.0037 / (n * n) + 0.00078 / n + 0.00006) / n
    t = (x - c) / (0.8 - c)
    t = -0.00022633 + (6.54034 - (14.6538 - (14.458 - (8.259 - 1.91864 * t) * t) * t) * t) * t
    return t * (0.04213 + 0.01365 / n) / n


def anderson_darling_cdf(statistic: float, n: int) -> float:
    """P(A² <= statistic) for n uniform values (Marsaglia & Marsaglia 2004)."""
    x = _adinf(statistic)
    return min(1.0, max(0.0, x + _errfix(n, x)))


def anderson_darling_sf(statistic: float, n: int) -> float:
    """P(A² > statistic) for n uniform values.

    Far in the tail (p < 1e-5) the finite-n correction, accurate to ~1e-6
    absolute, would swamp the answer, so the asymptotic tail is used there,
    computed without cancellation.
    """
    if statistic >= 2:
        g = 1.0776 - (2.30695 - (0.43424 - (0.082433 - (0.008056 - 0.0003146 * statistic) * statistic)
                                 * statistic) * statistic) * statistic
        tail = -math.expm1(-math.exp(g))
        if tail < 1e-5:
            return float(tail)
    return float(max(0.0, 1.0 - anderson_darling_cdf(statistic, n)))


def anderson_darling_test(pvalues) -> UniformityResult:
    """Anderson–Darling test that values are uniform on [0, 1].

    Null hypothesis: the values are independent draws from U(0, 1).

    Parameters
    ----------
    pvalues : array_like of float
        Values in [0, 1] (at least 5).

    Returns
    -------
    UniformityResult
        ``statistic`` A² = -n - (1/n) Σ (2i - 1) [ln u_(i) + ln(1 - u_(n+1-i))]
        and its upper-tail p-value.

    Notes
    -----
    A² weights the tails more than KS does, which is where a test that is
    too liberal or too conservative shows.  The p-value uses Marsaglia &
    Marsaglia's approximation to the exact finite-n distribution (absolute
    error below 1e-5 [2]_).  Values of exactly 0 or 1 make A² infinite
    (p-value 0): they are impossible for a continuous null distribution.

    References
    ----------
    .. [1] T. W. Anderson and D. A. Darling, "A test of goodness of fit",
       J. Amer. Statist. Assoc. 49 (1954) 765-769.
    .. [2] G. Marsaglia and J. Marsaglia, "Evaluating the Anderson-Darling
       distribution", J. Stat. Softw. 9(2) (2004).
    """
    u = np.sort(_unit_values(pvalues, 5))
    n = u.size
    if u[0] <= 0 or u[-1] >= 1:
        return UniformityResult(float("inf"), 0.0, int(n), "ad")
    i = np.arange(1, n + 1)
    statistic = float(-n - np.sum((2 * i - 1) * (np.log(u) + np.log1p(-u[::-1]))) / n)
    return UniformityResult(statistic, anderson_darling_sf(statistic, n), int(n), "ad")


class SubsequenceAccumulator(Accumulator):
    """Second level over consecutive blocks of a stream: a frequency test per
    block, then KS or Anderson–Darling on the block p-values.

    Blocks are aligned to the stream's start, so segments merge exactly: the
    block p-values, each computed from its block's counts alone, are listed
    in stream order.

    Parameters
    ----------
    probabilities : int or sequence
        Distribution of one outcome.
    block : int
        Outcomes per block (fixed in advance, so the blocks do not depend on the data).
    method : {"ks", "ad"}
    """

    takes = "categorical"
    unit = "outcomes"
    sums = ("pvalues",)
    sync = aligned(lambda acc: acc.block)

    def __init__(self, probabilities, *, block: int, method: str = "ks", min_blocks: int = 20):
        from stats._validate import check_choice
        from stats.chisquare import FrequencyAccumulator

        check_choice("method", method, ("ks", "ad"))
        self.method = method
        self.name = ("Kolmogorov–Smirnov" if method == "ks" else "Anderson–Darling") + " on block p-values"
        self._make = functools.partial(FrequencyAccumulator, probabilities)  # picklable: a checkpoint holds it
        self.block = int(block)
        self.min_blocks = int(min_blocks)
        super().__init__()
        self._current = self._make()
        self.pvalues: list[float] = []

    def _update(self, x) -> None:
        start = 0
        while start < x.size:
            take = min(self.block - self._current.n, x.size - start)
            self._current.update(x[start: start + take])
            start += take
            if self._current.n == self.block:
                self.pvalues.append(self._current.result().pvalue)
                self._current = self._make()

    def min_samples(self) -> int:
        return self.block * self.min_blocks

    def result(self) -> UniformityResult:
        from stats._validate import InsufficientDataError

        if len(self.pvalues) < self.min_blocks:
            raise InsufficientDataError(self.name, self.min_samples(), self.n, "outcomes",
                                        f"{self.min_blocks} blocks of {self.block:,}")
        test = ks_uniform_test if self.method == "ks" else anderson_darling_test
        return test(self.pvalues)


def _subsequences(method):
    def arguments(ctx):
        n_items = ctx.items("values")
        block_min = int(np.ceil(5 / float(min(ctx.probabilities))))
        blocks = int(min(100, max(1, n_items // block_min)))
        block = max(block_min, n_items // max(blocks, 1))
        return dict(probabilities=ctx.probabilities, block=block, method=method)

    return arguments


BATTERY = [
    BatteryTest("ks-subsequences", ("categorical",), "values", SubsequenceAccumulator, _subsequences("ks"),
                order=260),
    BatteryTest("ad-subsequences", ("categorical",), "values", SubsequenceAccumulator, _subsequences("ad"),
                order=270),
]


__all__ = ["ks_uniform_test", "anderson_darling_test", "anderson_darling_cdf", "anderson_darling_sf",
           "SubsequenceAccumulator"]
