"""Poisson distribution test: how often one outcome occurs in blocks of consecutive outcomes.

58 Pa. Code § 810a.5(c)(15) lists "Poisson distribution" among the tests a
laboratory may use, without defining it.  The reading implemented here is
the classical one for a rare event: cut the stream into disjoint blocks of
L outcomes and count, in each block, the occurrences of one chosen outcome
(by default the least likely one — roulette's 0, big six's logo).  Under the
null hypothesis the counts are independent Binomial(L, p) — the law the
Poisson(λ = L p) distribution approximates for a rare outcome — and the
test compares their histogram with that law *exactly* (binomial cell
probabilities, not the Poisson approximation) by a chi-square.

What it adds to the frequency test: the frequency test only sees the total
count of the outcome; this test sees how the count is spread over time — an
outcome that comes in bursts (over-dispersion: a wheel whose bias drifts, a
cached outcome reused within a session) or too regularly (under-dispersion:
an outcome "due" after a fixed number of games), even when its overall
frequency is right.
"""
from __future__ import annotations

import numpy as np
from scipy import stats as _sps

from stats._results import ChiSquareResult
from stats._validate import check_int
from stats.chisquare import GroupCellAccumulator
from stats import _detect
from stats.registry import BatteryTest

#: Default block: mean count λ = L p of about 4 occurrences per block.
DEFAULT_MEAN = 4.0


def binomial_cells(block: int, p: float, tail: float = 1e-12) -> np.ndarray:
    """P(count = c) of Binomial(block, p) for c = 0..C-1 and P(count >= C) last, C where the tail is negligible."""
    top = int(_sps.binom.isf(tail, block, p)) + 1
    top = min(max(top, 1), block)
    cells = _sps.binom.pmf(np.arange(top), block, p)
    return np.append(cells, _sps.binom.sf(top - 1, block, p))


class PoissonAccumulator(GroupCellAccumulator):
    """Streaming core of :func:`poisson_test`; the incomplete block is carried."""

    name = "Poisson distribution test"
    item = "blocks"

    def __init__(self, probabilities, *, category=None, block=None, min_expected=5.0):
        super().__init__(probabilities)
        self.category = int(np.argmin(self.p)) if category is None else check_int("category", category, 0,
                                                                                     self.k - 1)
        self.rate = float(self.exact[self.category])
        self.block = max(1, int(round(DEFAULT_MEAN / self.rate))) if block is None else check_int("block", block, 1)
        self._set_groups(self.block)
        self._set_cells(binomial_cells(self.block, self.rate), min_expected)

    def _statistic(self, blocks):
        return np.count_nonzero(blocks == self.category, axis=1)


def poisson_test(x, probabilities, *, category: int | None = None, block: int | None = None,
                 min_expected: float = 5.0) -> ChiSquareResult:
    """Poisson distribution test: counts of one outcome in disjoint blocks against their exact law.

    Null hypothesis: outcomes are independent with the device's distribution,
    so the number of times outcome ``c`` occurs in a block of L consecutive
    outcomes is Binomial(L, p_c), independently from block to block.

    Parameters
    ----------
    x : array_like of int
        Category indices in the order the outcomes occurred (blocks are
        consecutive stretches of it).
    probabilities : int or sequence
        Exact distribution of one outcome.
    category : int, optional
        The outcome counted (default: the least likely one, the lowest index
        among ties).
    block : int, optional
        Outcomes per block (default round(4 / p_c), a mean of about 4 per block).
    min_expected : float, optional
        Adjacent count classes are pooled (the sparse tails first) until each
        expects this many blocks.

    Returns
    -------
    ChiSquareResult
        ``n`` = number of complete blocks; ``observed``/``expected`` the
        pooled histogram of counts.

    Notes
    -----
    Blocks are disjoint, so their counts are independent and a plain
    chi-square applies after pooling.  The binomial law is exact; for a
    rare outcome it is close to Poisson(L p_c) — hence the name — but the
    Poisson law itself is not used, so the test is not biased for outcomes
    that are not rare.  Outcomes after the last complete block are not used.

    References
    ----------
    .. [1] 58 Pa. Code § 810a.5(c)(15) (the test's name); W. Feller, *An
       Introduction to Probability Theory and Its Applications*, Vol. 1, 3rd
       ed., §VI.6 (the Poisson approximation to the binomial), Wiley, 1968.
    """
    return PoissonAccumulator(probabilities, category=category, block=block, min_expected=min_expected).run(x)


def drifting_rate_cells(acc: PoissonAccumulator, delta: float) -> np.ndarray:
    """Count law when the outcome's probability drifts between blocks: p(1 + δ) in half of
    them and p(1 - δ) in the other half (independently per block; same mean count)."""
    top = acc.cell_p.size - 1
    out = np.zeros(top + 1)
    for rate in (acc.rate * (1 + delta), acc.rate * (1 - delta)):
        out[:top] += 0.5 * _sps.binom.pmf(np.arange(top), acc.block, rate)
        out[top] += 0.5 * _sps.binom.sf(top - 1, acc.block, rate)
    return out


def detectable_drift(acc: PoissonAccumulator, result: ChiSquareResult, alpha: float, power: float) -> float:
    """Smallest δ such that the test detects the drift of :func:`drifting_rate_cells`."""
    from stats.power import detectable_law_change

    upper = min(1.0, 1.0 / acc.rate - 1.0)
    return detectable_law_change(acc.cell_p, lambda d: drifting_rate_cells(acc, d), result.n, alpha, result.df,
                                 min_expected=acc.min_expected, power=power, upper=upper)


def _drift(ctx, acc):
    j, rarest = _detect.least_likely(ctx.labels, ctx.probabilities)
    return (f"rate of {ctx.word} {rarest} drifts between blocks of {acc.block}: "
            f"(1 ± δ)·{ctx.probabilities[j]}")


BATTERY = [
    BatteryTest("poisson", ("categorical",), "values", PoissonAccumulator, lambda ctx: (ctx.probabilities,),
                _detect.solved(detectable_drift, _drift), order=170, function=poisson_test),
]


__all__ = ["poisson_test", "PoissonAccumulator", "binomial_cells", "drifting_rate_cells", "detectable_drift"]
