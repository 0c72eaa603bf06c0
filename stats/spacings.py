"""Birthday spacings and collision tests (equally likely outcomes only)."""
from __future__ import annotations

import numpy as np
from scipy import stats as _sps

from stats._accumulate import CategoricalAccumulator, aligned, tuple_index
from stats._exact import collision_distribution, power_of_pmf, two_sided_discrete
from stats._results import CountResult
from stats._validate import check_int
from stats import _detect
from stats.registry import BatteryTest


class _EquiprobableTuples(CategoricalAccumulator):
    """Groups of ``t`` consecutive outcomes read as one number in [0, k^t)."""

    # Blocks are aligned to the stream's start; a later segment counts only the blocks that are
    # left of ``max_blocks`` at its first whole block (its own cap, set by starting_at).
    sums = ("blocks", "total")
    firsts = ("max_blocks",)
    sync = aligned(lambda acc: acc.block_outcomes)

    def starting_at(self, start):
        super().starting_at(start)
        if self.max_blocks is not None:
            self.max_blocks = max(0, self.max_blocks - -(-int(start) // self.block_outcomes))
        return self

    def __init__(self, probabilities, t, per_block, max_blocks):
        super().__init__(probabilities)
        if len(set(self.exact)) != 1:
            raise ValueError(f"{self.name} needs equally likely categories (uniform days/urns); "
                             f"this distribution has {len(set(self.exact))} distinct probabilities")
        self.t = check_int("t", t, 1, 16)
        self.days = self.k**self.t
        if self.days >= 2**62:
            raise ValueError(f"k^t = {self.k}^{self.t} too large")
        self.per_block = int(per_block)  # tuples per block
        self.max_blocks = max_blocks
        self.block_outcomes = self.per_block * self.t
        self.blocks = 0
        self.total = 0
        self._carry = np.zeros(0, dtype=self._dtype)

    def _update(self, x):
        if self.max_blocks is not None and self.blocks >= self.max_blocks:
            return
        data = np.concatenate([self._carry, x]) if self._carry.size else x
        blocks = data.size // self.block_outcomes
        if self.max_blocks is not None:
            blocks = min(blocks, self.max_blocks - self.blocks)
        used = blocks * self.block_outcomes
        self._carry = data[used:].copy() if (self.max_blocks is None or self.blocks + blocks < self.max_blocks) \
            else data[:0]
        if blocks:
            index = tuple_index(data[:used].astype(np.int64), self.k, self.t, blocks * self.per_block, self.t)
            values = index.astype(np.int64).reshape(blocks, self.per_block)
            self.total += int(self._count(values).sum())
            self.blocks += blocks

    def min_samples(self):
        return self.block_outcomes * self.min_blocks


class BirthdaySpacingsAccumulator(_EquiprobableTuples):
    """Streaming core of :func:`birthday_spacings_test`."""

    name = "birthday spacings test"
    min_blocks = 20

    def __init__(self, probabilities, *, t=None, birthdays=None, max_blocks=10_000):
        super().__init__(probabilities, 1, 1, max_blocks)
        k = self.k
        if t is None:
            t = 1
            while k ** t < 2**24:  # days >= 2^24 keeps the Poisson law accurate (Knuth's d = 2^25)
                t += 1
        days = k ** int(t)
        if birthdays is None:
            birthdays = int(round((4 * days) ** (1 / 3)))  # λ = m³/(4d) ≈ 1
        super().__init__(probabilities, t, birthdays, max_blocks)
        self.birthdays = int(birthdays)
        self.lam = self.birthdays**3 / (4.0 * self.days)

    def _count(self, values):
        b = np.sort(values, axis=1)
        spacings = np.empty_like(b)
        spacings[:, :-1] = np.diff(b, axis=1)
        spacings[:, -1] = b[:, 0] + self.days - b[:, -1]
        spacings.sort(axis=1)
        return np.count_nonzero(spacings[:, 1:] == spacings[:, :-1], axis=1)

    def _result(self):
        mean = self.lam * self.blocks
        observed = self.total
        lower = float(_sps.poisson.cdf(observed, mean))
        upper = float(_sps.poisson.sf(observed - 1, mean))
        pvalue = float(min(1.0, 2 * min(lower, upper)))
        return CountResult(float(observed), pvalue, self.blocks * self.block_outcomes, mean, self.blocks)


def birthday_spacings_test(x, probabilities, *, t: int | None = None, birthdays: int | None = None,
                           max_blocks: int | None = 10_000) -> CountResult:
    """Birthday spacings test (Marsaglia; Knuth 3.3.2 J).

    Null hypothesis: outcomes are independent and equally likely, so each
    t-tuple, read as a number in [0, d) with d = k^t, is a uniform "birthday".

    Parameters
    ----------
    x : array_like of int
        Category indices of an equiprobable device.
    probabilities : int or sequence
        Must be uniform (ValueError otherwise).
    t : int, optional
        Outcomes per birthday; default the smallest with d = k^t >= 2^24.
    birthdays : int, optional
        Birthdays m per year (block); default m = (4d)^(1/3), so λ = m³/(4d) ≈ 1.
    max_blocks : int or None, optional
        Use at most this many blocks (default 10,000; see Notes).

    Returns
    -------
    CountResult
        ``statistic`` = total number of repeated spacings R over the blocks,
        ``expected`` = λ × blocks, p-value two-sided from the Poisson law.

    Notes
    -----
    In each block the m birthdays are sorted, the m circular spacings between
    them are sorted, and R counts spacings equal to the previous one.  R is
    approximately Poisson(m³/(4d)) [1]_, [2]_; the approximation error in the
    mean is of relative order 1e-3 at Knuth's d = 2^25, m = 512, which is
    negligible against the Poisson noise of up to 10,000 blocks (hence the cap).

    References
    ----------
    .. [1] G. Marsaglia, DIEHARD (1995); and Knuth, *The Art of Computer
       Programming*, Vol. 2, 3rd ed., §3.3.2 J, Addison-Wesley, 1997.
    .. [2] P. L'Ecuyer and R. Simard, "On the performance of birthday spacings
       tests with certain families of random number generators", Math.
       Comput. Simul. 55 (2001) 131-137.
    """
    return BirthdaySpacingsAccumulator(probabilities, t=t, birthdays=birthdays, max_blocks=max_blocks).run(x)


class CollisionAccumulator(_EquiprobableTuples):
    """Streaming core of :func:`collision_test`."""

    name = "collision test"
    min_blocks = 1

    def __init__(self, probabilities, *, t=None, balls=2**14, max_blocks=None):
        super().__init__(probabilities, 1, 1, max_blocks)
        k = self.k
        if t is None:
            t = 1
            while k ** t < 2**20:  # Knuth's example: m = 2^20 urns, n = 2^14 balls
                t += 1
        super().__init__(probabilities, t, balls, max_blocks)
        self.balls = int(balls)
        if self.balls > self.days:
            raise ValueError(f"balls ({self.balls}) must not exceed urns k^t = {self.days}")

    def _count(self, values):
        values = np.sort(values, axis=1)
        return np.count_nonzero(values[:, 1:] == values[:, :-1], axis=1)

    def _result(self):
        pmf, offset = collision_distribution(self.days, self.balls)
        total, total_offset = power_of_pmf(pmf, offset, self.blocks)
        mean = float((np.arange(total.size) + total_offset) @ total)
        pvalue = two_sided_discrete(total, total_offset, self.total)
        return CountResult(float(self.total), pvalue, self.blocks * self.block_outcomes, mean, self.blocks)


def collision_test(x, probabilities, *, t: int | None = None, balls: int = 2**14,
                   max_blocks: int | None = None) -> CountResult:
    """Collision test (Knuth 3.3.2 I): repeated urns when throwing balls into many urns.

    Null hypothesis: outcomes are independent and equally likely, so each
    t-tuple picks one of m = k^t urns uniformly.

    Parameters
    ----------
    x : array_like of int
        Category indices of an equiprobable device.
    probabilities : int or sequence
        Must be uniform.
    t : int, optional
        Outcomes per ball; default the smallest with m = k^t >= 2^20.
    balls : int, optional
        Balls per block (default 2^14, Knuth's example).
    max_blocks : int or None
        Use at most this many blocks.

    Returns
    -------
    CountResult
        ``statistic`` = total collisions (balls landing in an occupied urn).

    Notes
    -----
    The exact distribution of the collisions in one block is computed by
    Knuth's recurrence on the number of occupied urns [1]_; the sum over
    independent blocks by exact convolution (FFT).  The p-value is two-sided;
    it is exact up to floating-point error (about 1e-13 absolute).

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 I, Addison-Wesley, 1997.
    """
    return CollisionAccumulator(probabilities, t=t, balls=balls, max_blocks=max_blocks).run(x)


def _equiprobable(ctx):
    return (ctx.probabilities,) if len(set(ctx.probabilities)) == 1 else None


BATTERY = [
    BatteryTest("birthday-spacings", ("categorical",), "values", BirthdaySpacingsAccumulator, _equiprobable,
                _detect.count("repeated spacings"), required=False, order=240, function=birthday_spacings_test),
    BatteryTest("collisions", ("categorical",), "values", CollisionAccumulator, _equiprobable,
                _detect.count("collisions"), required=False, order=250, function=collision_test),
]


__all__ = ["birthday_spacings_test", "collision_test", "BirthdaySpacingsAccumulator", "CollisionAccumulator"]
