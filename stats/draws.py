"""Tests of k-of-n draws without replacement (blowers, keno, bingo): k distinct balls of n per draw.

Each draw, in draw order, is the first k items of a uniform shuffle of the
n balls.  So every draw holds k distinct balls; each ball is in a draw with
probability k/n; the draw as a set is uniform over the C(n, k) sets; and
the first balls of successive draws are an i.i.d. uniform sequence.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from scipy import stats as _sps

from stats import _detect
from stats._accumulate import Accumulator, no_carry
from stats._results import CheckResult, ChiSquareResult
from stats.correlation import SerialCorrelationAccumulator
from stats.chisquare import FrequencyAccumulator
from stats.registry import BatteryTest
from stats.serial import IndependenceAccumulator

#: Most sets the set-frequency test tabulates (cells of one chi-square).
MAX_SETS = 1 << 16


class _DrawAccumulator(Accumulator):
    takes = "rows"
    unit = "draws"

    def __init__(self, balls: int, k: int):
        super().__init__()
        self.balls, self.k = int(balls), int(k)

    def _check(self, chunk):
        rows = np.asarray(chunk)
        if rows.ndim != 2 or rows.shape[1] != self.k:
            raise ValueError(f"expected rows of {self.k} balls (one draw per row), got shape {rows.shape}")
        if rows.size and (rows.min() < 0 or rows.max() >= self.balls):
            bad = np.argwhere((rows < 0) | (rows >= self.balls))[0]
            raise ValueError(f"draw {bad[0]}: ball index {int(rows[tuple(bad)])} is outside [0, {self.balls - 1}]")
        return rows.astype(np.int64, copy=False)


class DistinctBallsAccumulator(_DrawAccumulator):
    """Deterministic check that no draw holds a ball twice; ``labels`` name the balls."""

    name = "distinct-balls"
    sums = ("bad",)
    earliest = ("first_row", "problem")
    sync = no_carry

    def __init__(self, balls: int, k: int, *, labels=None):
        super().__init__(balls, k)
        self.names = tuple(labels) if labels is not None else tuple(str(i) for i in range(balls))
        self.bad = 0
        self.first_row = None
        self.problem = ""

    def _update(self, rows):
        ordered = np.sort(rows, axis=1)
        repeated = np.any(ordered[:, 1:] == ordered[:, :-1], axis=1)
        wrong = np.flatnonzero(repeated)
        if wrong.size and self.first_row is None:
            row = ordered[wrong[0]]
            twice = sorted({int(v) for v in row[1:][row[1:] == row[:-1]]})
            self.first_row = self.position(int(wrong[0]))
            self.problem = f"ball {', '.join(self.names[v] for v in twice)} drawn twice in one draw"
        self.bad += int(wrong.size)

    def _result(self):
        where = "" if self.first_row is None else f"draw {self.first_row}: "
        return CheckResult(float(self.bad), 0.0 if self.bad else 1.0, self.n, where + self.problem,
                           row=self.first_row, problem=self.problem)


class BallFrequencyAccumulator(_DrawAccumulator):
    """How often each ball is drawn, against k/n per draw, corrected for drawing without replacement.

    Within a draw the n indicators "ball j drawn" have variance q(1 - q),
    q = k/n, and covariance -q(1 - q)/(n - 1): their counts over m draws sum
    to mk, and on the other n - 1 dimensions each has variance
    m·a, a = k(n - k)/(n(n - 1)).  So X = Σ (O_j - mq)² / (m·a) is
    chi-square with n - 1 df (Pearson's X² times (n - 1)/(n - k)).
    """

    sums = ("counts",)
    sync = no_carry

    name = "ball-frequency"

    def __init__(self, balls: int, k: int):
        super().__init__(balls, k)
        if not 1 <= self.k < self.balls:
            raise ValueError(f"need 1 <= k < n balls, got k = {k}, n = {balls}")
        self.counts = np.zeros(self.balls, dtype=np.int64)

    def min_samples(self) -> int:
        return -(-5 * self.balls // self.k)  # every ball expected at least 5 times

    def _update(self, rows):
        self.counts += np.bincount(rows.ravel(), minlength=self.balls)

    def _result(self):
        m, n, k = self.n, self.balls, self.k
        expected = np.full(n, m * k / n)
        a = k * (n - k) / (n * (n - 1))
        statistic = float(np.sum((self.counts - expected) ** 2) / (m * a))
        df = n - 1
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, m, self.counts, expected)


def ball_frequency_test(rows, balls: int) -> ChiSquareResult:
    """Frequency of each ball over k-of-n draws without replacement (see :class:`BallFrequencyAccumulator`).

    Null hypothesis: each draw is k distinct balls chosen uniformly among the
    ``balls``.  Valid when every ball is expected at least 5 times.

    Parameters
    ----------
    rows : array_like, shape (m, k)
        Ball indices 0..n-1, one draw per row.
    balls : int
        n, the balls in the machine.
    """
    rows = np.asarray(rows)
    return BallFrequencyAccumulator(balls, rows.shape[1]).run(rows)


def _ball_power(ctx, acc, result, alpha, power):
    """One ball drawn with probability (1 + δ)k/n, the others compensating equally:
    noncentrality m δ² q² n / ((n - 1) a)."""
    from stats.power import Detectable, noncentrality_for_power

    m, n, k = result.n, acc.balls, acc.k
    q, a = k / n, k * (n - k) / (n * (n - 1))
    lam = noncentrality_for_power(result.df, alpha, power)
    delta = float(np.sqrt(lam * (n - 1) * a / (m * q * q * n)))
    return Detectable(delta, f"one ball drawn with probability (1 + δ)·{Fraction(k, n)}", alpha, power)


def _sets(ctx):
    sets = ctx.kind.sets
    return ((Fraction(1, sets),) * sets,) if sets <= MAX_SETS else None


BATTERY = [
    BatteryTest("distinct-balls", ("k-of-n",), "rows", DistinctBallsAccumulator,
                lambda ctx: dict(balls=ctx.kind.balls, k=ctx.kind.width, labels=ctx.labels), order=600),
    BatteryTest("ball-frequency", ("k-of-n",), "rows", BallFrequencyAccumulator,
                lambda ctx: (ctx.kind.balls, ctx.kind.width) if ctx.kind.width < ctx.kind.balls else None,
                _ball_power, order=610, function=ball_frequency_test, labelled=True),
    BatteryTest("set-frequency", ("k-of-n",), "sets", FrequencyAccumulator, _sets, _detect.cells("one set of balls"),
                required=False, order=620),
    BatteryTest("first-ball-independence", ("k-of-n",), "first", IndependenceAccumulator,
                lambda ctx: (ctx.probabilities,), _detect.repeat(), required=False, order=630),
    BatteryTest("first-ball-serial-correlation", ("k-of-n",), "first", SerialCorrelationAccumulator,
                lambda ctx: dict(lags=5), _detect.correlation, order=640),
]

__all__ = ["ball_frequency_test", "BallFrequencyAccumulator", "DistinctBallsAccumulator"]
