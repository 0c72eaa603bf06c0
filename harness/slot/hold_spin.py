"""The hold-and-spin (respin) feature as an absorbing Markov chain, solved exactly.

Rules (``docs/slot_model.md``, "Hold and spin"): ``n0 >= trigger`` coin
symbols in the paid spin's window start the feature with those ``n0`` coins
locked on the ``P = rows x reels`` positions and ``respins`` respins.  In a
respin every empty position independently lands a coin with probability
``q``; a respin that lands at least one coin resets the counter to
``respins``, one that lands none uses one up.  The feature ends when the
counter reaches 0 or every position is locked.  Every coin (the triggering
ones too) carries a value drawn independently from a weighted table
(multiples of the total bet), and filling all ``P`` positions adds the
``grand`` award.

The state is ``(n locked, r respins left)``.  A respin from ``(n, r)`` lands
``k`` coins with probability ``C(P - n, k) q^k (1 - q)^(P - n - k)`` and moves to
``(n + k, respins)`` if ``k > 0``, else to ``(n, r - 1)``: ``n`` never
decreases and, while it stays, ``r`` strictly decreases, so the chain has no
cycle and the distribution of the final count ``N`` follows by dynamic
programming over ``n`` upwards, exactly in fractions (no linear system).  With
``V_i`` the coin values (independent of ``N``, mean ``mu``, second moment
``m2``) the feature wins ``W = V_1 + ... + V_N + grand [N = P]`` total bets,
so given ``N = n``:

    E[W | n]   = n mu + g [n = P]
    E[W^2 | n] = n m2 + n (n - 1) mu^2 + 2 g n mu [n = P] + g^2 [n = P]

:func:`play` plays one feature by these rules from bounded draws
(:mod:`harness.slot.draws`): a round's play and the simulation both call it.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np


@dataclasses.dataclass(frozen=True)
class HoldSpinOutcome:
    """What one feature started with ``n0`` coins wins, in multiples of the total bet."""

    final: dict[int, Fraction]   # P(N = n)
    mean: Fraction               # E[W]
    second: Fraction             # E[W^2]
    full: Fraction               # P(every position locked): the grand award


def final_count(positions: int, n0: int, respins: int, q: Fraction) -> dict[int, Fraction]:
    """The distribution of the number of coins locked when the feature ends."""
    if not 0 <= n0 <= positions or respins < 1 or not 0 <= q <= 1:
        raise ValueError(f"need 0 <= n0 <= positions, respins >= 1, 0 <= q <= 1; got {n0}, {respins}, {q}")
    final: dict[int, Fraction] = {}
    # mass[n]: probability of arriving at n locked coins with a fresh counter
    mass: dict[int, Fraction] = {n0: Fraction(1)}
    for n in range(n0, positions + 1):
        p = mass.pop(n, Fraction(0))
        if not p:
            continue
        empty = positions - n
        if empty == 0:
            final[n] = final.get(n, 0) + p
            continue
        nothing = (1 - q) ** empty
        # the first respin (of up to `respins` in a row) that lands coins lands k of them
        reach = p * (1 - nothing ** respins) / (1 - nothing) if nothing != 1 else Fraction(0)
        for k in range(1, empty + 1):
            pk = math.comb(empty, k) * q**k * (1 - q) ** (empty - k)
            if pk:
                mass[n + k] = mass.get(n + k, 0) + reach * pk
        stop = p * nothing ** respins  # every remaining respin landed nothing
        if stop:
            final[n] = final.get(n, 0) + stop
    return dict(sorted(final.items()))


def win_distribution(outcome: HoldSpinOutcome, positions: int, values: dict[int, int],
                     grand: int) -> dict[int, Fraction]:
    """P(the feature wins w total bets): the final count, then the sum of that many coin values."""
    total = sum(values.values())
    one = {v: Fraction(w, total) for v, w in values.items() if w}
    sums: dict[int, Fraction] = {0: Fraction(1)}  # the sum of n coin values, n = 0, 1, ...
    out: dict[int, Fraction] = {}
    for n in range(positions + 1):
        if n in outcome.final:
            g = grand if n == positions else 0
            for s, p in sums.items():
                out[s + g] = out.get(s + g, 0) + outcome.final[n] * p
        nxt: dict[int, Fraction] = {}
        for s, p in sums.items():
            for v, q in one.items():
                nxt[s + v] = nxt.get(s + v, 0) + p * q
        sums = nxt
    return dict(sorted(out.items()))


def solve(positions: int, n0: int, respins: int, q: Fraction, values: dict[int, int],
          grand: int) -> HoldSpinOutcome:
    """The exact moments of the feature's win (module docstring)."""
    total = sum(values.values())
    mu = Fraction(sum(v * w for v, w in values.items()), total)
    m2 = Fraction(sum(v * v * w for v, w in values.items()), total)
    final = final_count(positions, n0, respins, q)
    mean = second = Fraction(0)
    for n, p in final.items():
        g = grand if n == positions else 0
        mean += p * (n * mu + g)
        second += p * (n * m2 + n * (n - 1) * mu * mu + 2 * g * n * mu + g * g)
    return HoldSpinOutcome(final=final, mean=mean, second=second, full=final.get(positions, Fraction(0)))


def play(feature, positions: int, coins: int, draws) -> int:
    """One feature's win (x total bet) started with ``coins`` locked coins, from the draw source
    ``draws`` (:mod:`harness.slot.draws`); ``feature`` is the model's
    :class:`~harness.slot.model.HoldAndSpin`, ``positions`` its window's cells.

    Each respin draws one integer below the denominator of ``land`` per empty
    position, in order, and the position lands a coin when its draw falls
    under the numerator (probability ``land`` exactly); a respin that lands
    one resets the counter.  Then each locked coin's value is the weighted
    entry a draw below the values' total weight falls in.
    """
    from harness.slot.draws import falls_in_many

    n, left = coins, feature.respins
    num, den = feature.land.numerator, feature.land.denominator
    while left and n < positions:
        landed = int(np.count_nonzero(np.asarray(draws.many(den, positions - n)) < num))
        n += landed
        left = feature.respins if landed else left - 1
    weights = list(feature.values.values())
    picks = falls_in_many(weights, np.asarray(draws.many(sum(weights), n), dtype=np.int64))
    values = np.array(list(feature.values), dtype=np.int64)
    return int(values[picks].sum()) + (feature.grand if n == positions else 0)
