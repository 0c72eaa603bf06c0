"""Repeat-count test: how often an outcome equals the one ``lag`` outcomes before it.

A sticky wheel, a die that tends to land as it was picked up, or a device
that reuses a cached outcome shows the previous outcome again more often
than chance.  The pair and independence tables see that excess spread over
k² - k cells; the repeat count puts it in one number with an exact law.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import stats as _sps

from stats._accumulate import CategoricalAccumulator, last
from stats._results import RepeatResult
from stats._validate import check_int
from stats.power import Detectable, normal_shift
from stats.registry import BatteryTest

#: Lags of the lagged entry: a device that reuses the outcome of 2..5 spins before.
LAGGED = (2, 3, 4, 5)
#: Normal approximation (unequal probabilities or several lags): at least this many repeats expected.
MIN_EXPECTED_REPEATS = 25.0


def repeat_moments(probabilities, n: int, lags) -> tuple[int, float, float]:
    """(pairs M, mean, variance) of the repeat count R of n i.i.d. outcomes at ``lags``.

    R = Σ 1[x_i = x_(i+l)] over the M = Σ (n - l) pairs.  With q = Σ p² and
    s = Σ p³, two indicators are dependent only when their pairs share one
    outcome, and then E[I I'] = s; so Var R = M q (1 - q) + 2 P (s - q²) with
    P = Σ_j C(d_j, 2), d_j the number of pairs outcome j belongs to.
    """
    p = [Fraction(v) for v in probabilities]
    q, s = sum(v * v for v in p), sum(v ** 3 for v in p)
    lags = sorted(set(int(l) for l in lags))
    pairs = sum(max(n - l, 0) for l in lags)
    top = lags[-1]
    edge = sorted(set(range(min(n, top))) | set(range(max(0, n - top), n)))
    d = np.array([sum(j >= l for l in lags) + sum(j + l <= n - 1 for l in lags) for j in edge], dtype=np.int64)
    interior = n - len(edge)
    shared = int((d * (d - 1) // 2).sum()) + interior * len(lags) * (2 * len(lags) - 1)
    variance = pairs * q * (1 - q) + 2 * shared * (s - q * q)
    return pairs, float(pairs * q), float(variance)


class RepeatAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`repeat_test`: the last ``max(lags)`` outcomes are carried."""

    sums = ("repeats",)
    sync = last(lambda acc: acc.lags[-1])

    name = "repeat count"

    def __init__(self, probabilities, *, lags=(1,)):
        super().__init__(probabilities)
        lags = tuple(lags) if np.iterable(lags) else (lags,)
        if not lags:
            raise ValueError("lags must name at least one lag")
        self.lags = tuple(sorted({check_int("lag", l, 1, 1 << 20) for l in lags}))
        self.repeats = 0
        self._carry = np.zeros(0, dtype=self._dtype)
        # One lag on equally likely outcomes: the differences x_(i+l) - x_i mod k are i.i.d.
        # uniform, so the repeat indicators are independent and R is exactly binomial.
        self.binomial = len(set(self.exact)) == 1 and len(self.lags) == 1
        self.name = f"repeat count (lag {', '.join(map(str, self.lags))})"

    def _update(self, x):
        carried = self._carry.size
        data = np.concatenate([self._carry, x]) if carried else x
        for lag in self.lags:
            start = max(carried, lag)  # later element of the pair in this chunk
            if start < data.size:
                self.repeats += int(np.count_nonzero(data[start:] == data[start - lag: data.size - lag]))
        self._carry = data[max(0, data.size - self.lags[-1]):].copy()

    def min_samples(self):
        if self.binomial:
            return self.lags[-1] + 1
        q = float(np.sum(self.p * self.p))
        needed = MIN_EXPECTED_REPEATS / q
        return int(np.ceil((needed + sum(self.lags)) / len(self.lags)))

    def _result(self):
        pairs, mean, var = repeat_moments(self.exact, self.n, self.lags)
        sd = float(np.sqrt(var))
        r = self.repeats
        if self.binomial:
            law = _sps.binom(pairs, 1.0 / self.k)
            pvalue = min(1.0, 2 * min(float(law.cdf(r)), float(law.sf(r - 1))))
            method = "binomial"
        else:
            pvalue = float(2 * _sps.norm.sf(abs(r - mean) / sd))
            method = "normal"
        return RepeatResult(float(r), pvalue, self.n, self.lags, pairs, mean, sd, (r - mean) / sd, method)



def repeat_test(x, probabilities, *, lags=(1,)) -> RepeatResult:
    """Repeat-count test: does an outcome equal the one ``lag`` outcomes before it too often, or too rarely?

    Null hypothesis: the outcomes are independent, each with the device's
    distribution, so ``x_i = x_(i+lag)`` with probability q = Σ p².

    Parameters
    ----------
    x : array_like of int
        Category indices in [0, k), in the order they occurred.
    probabilities : int or sequence
        Exact distribution of one outcome.
    lags : int or sequence of int, optional
        Lags compared (default 1: immediate repeats); the count is summed over them.

    Returns
    -------
    RepeatResult
        ``statistic`` = repeat count R, ``pvalue`` two-sided, with its
        expectation, standard deviation, z and the method.

    Notes
    -----
    With k equally likely outcomes and one lag, the differences
    ``x_(i+lag) - x_i (mod k)`` are independent and uniform, so R is exactly
    Binomial(n - lag, 1/k) and the p-value is exact for every n > lag.
    Otherwise (unequal probabilities, or several lags, whose indicators are
    pairwise but not mutually independent) R has the exact mean and variance
    of :func:`repeat_moments` and is referred to the normal law (a sum of
    m-dependent indicators [1]_); valid when at least 25 repeats are expected.
    Against a device that shows the previous outcome again with probability
    δ, R gains δ(1 - q) per pair, one degree of freedom where the pair table
    spends k² - k.

    References
    ----------
    .. [1] W. Hoeffding and H. Robbins, "The central limit theorem for
       dependent random variables", Duke Math. J. 15 (1948) 773-780.
    """
    return RepeatAccumulator(probabilities, lags=lags).run(x)


def _power(ctx, acc, result, alpha, power):
    """Probability δ of showing the outcome ``lag`` before again (the first lag of the set)."""
    q = float(np.sum(acc.p * acc.p))
    lag = result.lags[0]
    delta = normal_shift(alpha, power) * result.sd / (max(result.n - lag, 1) * (1 - q))
    what = ("repeats the previous outcome" if result.lags == (1,)
            else f"shows the outcome {lag} before again (one lag of {result.lags[0]}..{result.lags[-1]})")
    return Detectable(float(delta), f"{what} with probability δ", alpha, power)


BATTERY = [
    BatteryTest("repeats", ("categorical",), "values", RepeatAccumulator,
                lambda ctx: dict(probabilities=ctx.probabilities, lags=(1,)), _power, order=135,
                function=repeat_test),
    BatteryTest("lagged-repeats", ("categorical",), "values", RepeatAccumulator,
                lambda ctx: dict(probabilities=ctx.probabilities, lags=LAGGED), _power, required=False,
                order=136),
]


__all__ = ["repeat_test", "repeat_moments", "RepeatAccumulator", "LAGGED"]
