"""The award cap on a play with free spins: the capped win's moments, exact or rigorously bounded.

Rule (``docs/slot_model.md``, "Award caps"): a play's win is the paid
spin's line and scatter pays, the wheel or pick bonus it starts and every
free spin it triggers, retriggers included; above ``cap`` credits it is paid
``cap``.  Progressive meters are paid outside the cap (:mod:`harness.slot.cap`).

What is followed.  The play is a walk over states ``(spins left n, win so
far a, progressive flag)``: the paid spin (and its bonus) gives the first
state; each free spin, independent of the past, wins ``w`` and awards ``j``
more spins with the probabilities of one spin on the feature strips
(:func:`spin_outcomes`), moving ``(n, a)`` to ``(n - 1 + j, a + w)``.  A
play ends when no spin is left (its capped win is ``a``) or as soon as
``a > cap`` (it is paid ``cap`` whatever follows: every win is >= 0).  So
``E[min(win, cap)]`` needs the walk only below the cap.

Exact or bounded.  Without retriggers every play ends within the largest
award, and :func:`capped_bounds` follows every state with exact integer
weights: the figures are exact fractions (so they are when every spin that
retriggers also wins: the walk then ends too).  Otherwise a play has no
longest length; the walk is followed step by step until the probability
still in play is so small that the bounds below are within
:data:`~harness.slot.limits.MAX_CAP_GAP` of each other (in total bets): a
play still in play at ``a`` wins at least ``a`` and at most ``cap``, so
``E[C]`` lies between the ended plays' sum plus each open play at its ``a``,
and the ended plays' sum plus ``cap`` for all the rest (likewise ``E[C^2]``,
``E[C; progressive hit]`` and ``P(the cap bites)``).  To keep the integers
short the weights of the open plays are then rounded *down* to
``2**-ROUND_BITS``: a lower weight on every open state is still below its
true probability, so every bound stays rigorous (the mass rounded away is
counted at ``cap`` in the upper bounds, at 0 in the lower).
"""
from __future__ import annotations

import bisect
import dataclasses
import math
from collections import defaultdict
from fractions import Fraction

from harness.slot.cap import CappedMoments
from harness.slot.errors import BeyondExact
from harness.slot.limits import MAX_CAP_GAP, MAX_CAP_WORK

ROUND_BITS = 256  # open plays' weights, once rounded: multiples of 2**-256 (rounded down)
ROUND_AT = 2 * ROUND_BITS  # ... when their common denominator grows past 2**512


@dataclasses.dataclass(frozen=True)
class CappedBounds:
    """Rigorous bounds on the capped win's moments (equal when exact)."""

    low: CappedMoments
    high: CappedMoments
    depth: int  # free spins followed per play

    @property
    def exact(self) -> bool:
        return self.low == self.high


def spin_outcomes(table: dict[tuple[int, int], dict[int, int]], bet_per_line: int, scatter_pay: list[int],
                  awarded: list[int], multiplier: int, cap: int) -> dict[tuple[int, int], int]:
    """``(win w, spins awarded j) -> stop combinations`` of one free spin, ``w`` kept as ``cap + 1`` above it.

    ``table``: :func:`harness.slot.cap.line_pay_distribution` of the feature strips (the progressive flag
    ignored: free spins never award it); ``scatter_pay[k]``, credits, and ``awarded[k]``, spins, per cell.
    """
    out: dict[tuple[int, int], int] = defaultdict(int)
    for (k, _), dist in table.items():
        for pay, count in dist.items():
            w = multiplier * (bet_per_line * pay + scatter_pay[k])
            out[(min(w, cap + 1), awarded[k])] += count
    return dict(out)


def play_starts(table: dict[tuple[int, int], dict[int, int]], bet_per_line: int, scatter_pay: list[int],
                awarded: list[int], features: dict[int, dict[int, Fraction]], cap: int
                ) -> dict[tuple[int, int, int], Fraction]:
    """``(spins awarded n, win so far a, progressive flag) -> probability`` after the paid spin (and its bonus).

    ``table``: the base game's :func:`harness.slot.cap.line_pay_distribution` (its weights summing to the
    cycle); ``features[k]``: the bonus's win distribution (credits) a paid spin in cell ``k`` starts.
    """
    cycle = sum(sum(d.values()) for d in table.values())
    none = {0: Fraction(1)}
    out: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for (k, p), dist in table.items():
        bonus = features.get(k, none)
        for pay, count in dist.items():
            spin = bet_per_line * pay + scatter_pay[k]
            for f, q in bonus.items():
                out[(awarded[k], min(spin + f, cap + 1), p)] += Fraction(count, cycle) * q
    return dict(out)


class _Sums:
    """The ended plays' exact sums: probability, E[C], E[C^2], E[C; hit], P(hit, ended), P(cap bites)."""

    def __init__(self):
        self.mass = self.c1 = self.c2 = self.hit_c1 = self.hit_mass = self.bites = Fraction(0)

    def add(self, mass, c1, c2, hit_c1, hit_mass, bites, denominator: int) -> None:
        for name, v in (("mass", mass), ("c1", c1), ("c2", c2), ("hit_c1", hit_c1), ("hit_mass", hit_mass),
                        ("bites", bites)):
            if v:
                setattr(self, name, getattr(self, name) + Fraction(v, denominator))


class _Spins:
    """One free spin's outcomes sorted by win, with prefix sums for the plays they end at once."""

    def __init__(self, outcomes: dict[tuple[int, int], int]):
        self.cycle = sum(outcomes.values())
        by_win: dict[int, int] = defaultdict(int)  # every outcome, by win (counts)
        last: dict[int, int] = defaultdict(int)  # outcomes awarding no spin: they end a play on its last spin
        for (w, j), n in outcomes.items():
            by_win[w] += n
            if j == 0:
                last[w] += n
        self.wins = sorted(by_win)
        self.above = [0] * (len(self.wins) + 1)  # above[i]: outcomes whose win is wins[i] or more
        for i in range(len(self.wins) - 1, -1, -1):
            self.above[i] = self.above[i + 1] + by_win[self.wins[i]]
        self.last_wins = sorted(last)
        n0 = s1 = s2 = 0
        self.last_prefix = [(0, 0, 0)]  # outcomes ending the play, wins below last_wins[i]: (n, sum w, sum w^2)
        for w in self.last_wins:
            n0, s1, s2 = n0 + last[w], s1 + last[w] * w, s2 + last[w] * w * w
            self.last_prefix.append((n0, s1, s2))
        self.moving = sorted(((w, j, n) for (w, j), n in outcomes.items()), key=lambda t: t[0])
        self.retriggers = [(w, j, n) for w, j, n in self.moving if j]

    def beyond(self, room: int) -> int:
        """Outcomes whose win is above ``room`` (they make the play bite the cap)."""
        return self.above[bisect.bisect_right(self.wins, room)]

    def ending(self, room: int) -> tuple[int, int, int]:
        """(count, sum of w, sum of w^2) over the outcomes awarding no spin with a win of at most ``room``."""
        return self.last_prefix[bisect.bisect_right(self.last_wins, room)]


def capped_bounds(starts: dict[tuple[int, int, int], Fraction], outcomes: dict[tuple[int, int], int], cap: int,
                  hit_probability: Fraction, bet: int, where: str = "cap", source: str | None = None
                  ) -> CappedBounds:
    """The capped win's moments (credits) from the paid spin's states ``starts`` (:func:`play_starts`) and
    one free spin's ``outcomes`` (:func:`spin_outcomes`; no retrigger: exact).

    ``hit_probability``: P(the combination progressive hits) per play (the upper bound of ``E[C; hit]``).
    ``bet``: the total bet, the unit of the stated gap :data:`~harness.slot.limits.MAX_CAP_GAP`.

    Raises
    ------
    BeyondExact
        If the walk would take more than :data:`~harness.slot.limits.MAX_CAP_WORK` steps of a state
        before its bounds meet the stated gap.
    """
    spins = _Spins(outcomes)
    ended = _Sums()
    denominator = math.lcm(*(q.denominator for q in starts.values()))  # the starting weights' common one
    live: dict[tuple[int, int, int], int] = defaultdict(int)
    first = [0] * 6
    for (n, a, p), q in starts.items():
        m = q.numerator * (denominator // q.denominator)
        if a > cap or n == 0:
            _end(first, m, min(a, cap), p, a > cap)
        else:
            live[(n, a, p)] += m
    ended.add(*first, denominator)
    target = MAX_CAP_GAP * bet
    work = depth = 0
    while live:
        low, high = _bounds(ended, live, denominator, cap, hit_probability)
        if high.mean - low.mean <= target and spins.retriggers:
            return CappedBounds(low, high, depth)
        depth += 1
        denominator *= spins.cycle
        step = [0] * 6
        nxt: dict[tuple[int, int, int], int] = defaultdict(int)
        for (n, a, p), m in live.items():
            room = cap - a  # a spin winning more bites the cap
            over = spins.beyond(room)
            if over:
                _end(step, m * over, cap, p, True)
            if n == 1:  # outcomes awarding no spin end the play here: summed at once
                k, s1, s2 = spins.ending(room)
                if k:
                    c1 = m * (a * k + s1)
                    step[0] += m * k
                    step[1] += c1
                    step[2] += m * (a * a * k + 2 * a * s1 + s2)
                    if p:
                        step[3] += c1
                        step[4] += m * k
                moving = spins.retriggers
            else:
                moving = spins.moving
            for w, j, count in moving:
                if w > room:
                    break  # sorted by win: the rest bite (counted above)
                work += 1
                nxt[(n - 1 + j, a + w, p)] += m * count
            work += 1
            if work > MAX_CAP_WORK:
                raise BeyondExact(where, f"the free spins under the award cap take more than {MAX_CAP_WORK:,} steps "
                                  f"of the capped walk ({len(live):,} open states at free spin {depth}) before its "
                                  f"bounds are within {float(MAX_CAP_GAP):g} x total bet (docs/slot_model.md, "
                                  "Award caps)", source)
        ended.add(*step, denominator)
        live = nxt
        if spins.retriggers and denominator.bit_length() > ROUND_AT:  # keep the integers short, rounding down
            scale = 1 << ROUND_BITS
            live = {s: m * scale // denominator for s, m in live.items()}
            live = {s: m for s, m in live.items() if m}
            denominator = scale
    low, high = _bounds(ended, live, denominator, cap, hit_probability)
    return CappedBounds(low, high, depth)


def _end(sums: list[int], m: int, c: int, p: int, bites: bool) -> None:
    """Add weight ``m`` of plays ending with capped win ``c`` to ``sums`` (see :class:`_Sums`)."""
    sums[0] += m
    sums[1] += m * c
    sums[2] += m * c * c
    if p:
        sums[3] += m * c
        sums[4] += m
    if bites:
        sums[5] += m


def _bounds(ended: _Sums, live: dict[tuple[int, int, int], int], denominator: int, cap: int,
            hit_probability: Fraction) -> tuple[CappedMoments, CappedMoments]:
    """Lower bounds (each open play at its win so far) and upper bounds (everything not ended at ``cap``)."""
    c1 = c2 = hit_c1 = 0
    for (_, a, p), m in live.items():
        c1 += m * a
        c2 += m * a * a
        if p:
            hit_c1 += m * a
    low = CappedMoments(mean=ended.c1 + Fraction(c1, denominator), second=ended.c2 + Fraction(c2, denominator),
                        on_hits=ended.hit_c1 + Fraction(hit_c1, denominator), capped=ended.bites)
    rest = 1 - ended.mass
    high = CappedMoments(mean=ended.c1 + rest * cap, second=ended.c2 + rest * cap * cap,
                         on_hits=ended.hit_c1 + (hit_probability - ended.hit_mass) * cap,
                         capped=ended.bites + rest)
    return low, high
