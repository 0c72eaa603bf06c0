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

Exact or bounded.  Every step of the walk is exact integer weights: the
plays it ends (spins run out, or the cap reached) add exact sums.  The
walk ends by itself when no play can stay open for ever: without
retriggers, and when every spin that retriggers also wins (each such spin
raises ``a``, so a play passes the cap within a bounded number of spins);
then every figure is an exact fraction.  It is stopped early, with the plays
still open bounded as below, when a spin can retrigger and win nothing (a
play then has no longest run: the walk stops once the RTP bounds are
within :data:`~harness.slot.limits.MAX_CAP_GAP` × total bet of each other),
or whenever the next step would pass
:data:`~harness.slot.limits.MAX_CAP_WORK` steps of a state (a real-size
game: its wins below the cap are too many states to follow).

The plays still open.  A play open at ``(n, a)`` ends with capped win
``C = min(a + R, cap)``, ``R`` the win of ``n`` more free spins (their
retriggers included), so ``C = a + R - Z`` with the excess
``Z = (a + R - cap)+ = (R - t)+``, ``t = cap - a``: its contribution is
``E[a + R]`` (exact) less ``E[Z]``, bounded rigorously.  ``R`` is ``n``
independent trees of :mod:`harness.slot.feature`, whose moments
``E[R^k]`` are exact fractions (:class:`~harness.slot.feature.PowerMoments`,
of the walk's own outcomes: a spin's win kept at ``cap + 1`` changes no
capped win), and for ``r >= 0``, ``(r - t)+^s <= c(k, s) r^k / t^(k - s)``
with ``c(k, s) = s^s (k - s)^(k - s) / k^k`` (the largest value of the
ratio, at ``r = k t / (k - s)``).  So

* ``E[C]`` lies between ``max(a, a + E[R] - U1)`` and ``min(cap, a + E[R])``
  (``U1``: the least of ``c(k, 1) E[R^k] / t^(k - 1)`` over ``k <= TAIL_ORDER``;
  ``E[Z] >= 0``);
* ``E[C^2] = E[(a + R)^2] - E[Z^2] - 2 cap E[Z]`` lies between
  ``max(a^2, E[(a + R)^2] - U2 - 2 cap U1)`` and ``min(cap^2, E[(a + R)^2])``;
* ``P(the cap bites) = P(R >= t + 1)`` (wins are whole credits) lies between 0 and
  the least of ``E[R^k] / (t + 1)^k``: wider than the RTP's, as nothing
  bounds it from below but the plays the walk saw bite;
* ``E[C; label]`` as ``E[C]``, over the open plays with that label (which meters the paid spin hit:
  the combination progressive's flag, or the jackpot levels' bits; :mod:`harness.slot.cap`).

Which ``k`` is chosen in floats; the bound itself is exact, each rounded
outward to a multiple of ``2**-TAIL_BITS``.  So ``E[min(win, cap)] =
E[win] - E[(win - cap)+]``: the excess is exact for the ended plays and
bounded for the open ones.  To keep the integers short when a spin can
retrigger and win nothing, the weights of the open plays are rounded *down*
to ``2**-ROUND_BITS``: the probability rounded away is counted at 0 in the
lower bounds and at ``cap`` in the upper ones, so every bound stays rigorous.
"""
from __future__ import annotations

import bisect
import dataclasses
import math
from collections import defaultdict
from fractions import Fraction

from harness.slot import feature as fs
from harness.slot.cap import CappedMoments
from harness.slot.limits import MAX_CAP_GAP, MAX_CAP_WORK

ROUND_BITS = 256  # open plays' weights, once rounded: multiples of 2**-256 (rounded down)
ROUND_AT = 2 * ROUND_BITS  # ... when their common denominator grows past 2**512
TAIL_ORDER = 16  # the open plays' bounds use the remaining win's moments up to this order
TAIL_BITS = 128  # ... each bound rounded outward to a multiple of 2**-128


@dataclasses.dataclass(frozen=True)
class CappedBounds:
    """Rigorous bounds on the capped win's moments (equal when exact)."""

    low: CappedMoments
    high: CappedMoments
    depth: int  # free spins followed per play
    open_states: int = 0  # states still open when the walk stopped, bounded from the moments
    at_limit: bool = False  # the walk stopped at MAX_CAP_WORK (not at the stated gap)
    open_probability: Fraction = Fraction(0)  # the probability still in play then

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
    """The ended plays' exact sums: probability, E[C], E[C^2], P(cap bites), and per non-zero label
    E[C; label]; ``lost``, ``lost_on``: the probability the rounding took from the open plays (per label)."""

    def __init__(self):
        self.mass = self.c1 = self.c2 = self.bites = self.lost = Fraction(0)
        self.on: dict[int, Fraction] = defaultdict(Fraction)
        self.lost_on: dict[int, Fraction] = defaultdict(Fraction)

    def add(self, step: "_Step", denominator: int) -> None:
        for name in ("mass", "c1", "c2", "bites"):
            v = getattr(step, name)
            if v:
                setattr(self, name, getattr(self, name) + Fraction(v, denominator))
        for label, v in step.on.items():
            self.on[label] += Fraction(v, denominator)


class _Step:
    """One step's integer sums of the plays it ends (weights over the walk's denominator), as :class:`_Sums`."""

    def __init__(self):
        self.mass = self.c1 = self.c2 = self.bites = 0
        self.on: dict[int, int] = defaultdict(int)

    def end(self, m: int, c: int, label: int, bites: bool) -> None:
        """Add weight ``m`` of plays ending with capped win ``c``."""
        self.mass += m
        self.c1 += m * c
        self.c2 += m * c * c
        if label:
            self.on[label] += m * c
        if bites:
            self.bites += m


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
                  bet: int) -> CappedBounds:
    """The capped win's moments (credits) from the paid spin's states ``starts`` (:func:`play_starts`) and
    one free spin's ``outcomes`` (:func:`spin_outcomes`): exact when the walk ends, otherwise bounded.

    ``bet``: the total bet, the unit of the stated gap :data:`~harness.slot.limits.MAX_CAP_GAP`.  The walk
    stops when its RTP bounds are that close, when it has taken :data:`~harness.slot.limits.MAX_CAP_WORK`
    steps of a state (the step that would pass the limit is not taken), or when no play is left open.
    """
    spins = _Spins(outcomes)
    endless = any(w == 0 for w, _, _ in spins.retriggers)  # a spin may retrigger and win nothing
    ended = _Sums()
    denominator = math.lcm(*(q.denominator for q in starts.values()))  # the starting weights' common one
    live: dict[tuple[int, int, int], int] = defaultdict(int)
    first = _Step()
    for (n, a, p), q in starts.items():
        m = q.numerator * (denominator // q.denominator)
        if a > cap or n == 0:
            first.end(m, min(a, cap), p, a > cap)
        else:
            live[(n, a, p)] += m
    ended.add(first, denominator)
    target = MAX_CAP_GAP * bet
    tail = _Tail(outcomes, cap)
    work = depth = 0
    while live:
        if endless:  # the walk never ends by itself: stop once the bounds are close enough
            low, high = tail.bounds(ended, live, denominator)
            if high.mean - low.mean <= target:
                return CappedBounds(low, high, depth, len(live), False, 1 - ended.mass)
        step = _Step()
        nxt: dict[tuple[int, int, int], int] = defaultdict(int)
        for (n, a, p), m in live.items():
            room = cap - a  # a spin winning more bites the cap
            over = spins.beyond(room)
            if over:
                step.end(m * over, cap, p, True)
            if n == 1:  # outcomes awarding no spin end the play here: summed at once
                k, s1, s2 = spins.ending(room)
                if k:
                    c1 = m * (a * k + s1)
                    step.mass += m * k
                    step.c1 += c1
                    step.c2 += m * (a * a * k + 2 * a * s1 + s2)
                    if p:
                        step.on[p] += c1
                moving = spins.retriggers
            else:
                moving = spins.moving
            for w, j, count in moving:
                if w > room:
                    break  # sorted by win: the rest bite (counted above)
                work += 1
                nxt[(n - 1 + j, a + w, p)] += m * count
            work += 1
            if work > MAX_CAP_WORK:  # this step is not taken: the plays still open are bounded as they are
                low, high = tail.bounds(ended, live, denominator)
                return CappedBounds(low, high, depth, len(live), True, 1 - ended.mass)
        depth += 1
        denominator *= spins.cycle
        ended.add(step, denominator)
        live = nxt
        if endless and denominator.bit_length() > ROUND_AT:  # keep the integers short, rounding down
            scale = 1 << ROUND_BITS
            rounded = {s: m * scale // denominator for s, m in live.items()}
            was: dict[int, int] = defaultdict(int)  # per label: the weight before and after
            kept: dict[int, int] = defaultdict(int)
            for s, m in live.items():
                was[s[2]] += m
                kept[s[2]] += rounded[s]
            for label in was:
                lost = Fraction(was[label], denominator) - Fraction(kept[label], scale)
                ended.lost += lost
                if label:
                    ended.lost_on[label] += lost
            live = {s: m for s, m in rounded.items() if m}
            denominator = scale
    low, high = tail.bounds(ended, live, denominator)
    return CappedBounds(low, high, depth)


def _tail_constant(k: int, s: int) -> Fraction:
    """``max over r >= t of (r - t)^s t^(k - s) / r^k`` = ``s^s (k - s)^(k - s) / k^k`` (``0^0 = 1``)."""
    return Fraction(s**s * (k - s) ** (k - s), k**k)


class _Tail:
    """Bounds on what a play still open at ``(n spins left, win so far a)`` adds, from the exact moments
    of ``R``, the win of ``n`` more free spins (module docstring, "The plays still open").

    Every bound is an integer in units of ``2**-TAIL_BITS`` credits (or credits^2, or probability),
    rounded outward; the moments are those of the walk's own outcomes (wins kept at ``cap + 1``).
    """

    def __init__(self, outcomes: dict[tuple[int, int], int], cap: int):
        self.outcomes = outcomes
        self.cap = cap
        self.moments: fs.PowerMoments | None = None  # computed when a bound is first needed
        self._by_n: dict[int, tuple] = {}

    def _of(self, n: int) -> tuple:
        """For ``n`` spins left: ``(E[R], E[R^2])`` floored and ceiled, then per tail bound (``E[Z]``,
        ``E[Z^2]``, ``P(R >= u)``) its ``(k, ceil(2^bits c M_k), log of that)`` rows."""
        got = self._by_n.get(n)
        if got is None:
            if self.moments is None:
                self.moments = fs.PowerMoments(self.outcomes, TAIL_ORDER)
            mom = self.moments.of(n)
            scale = 1 << TAIL_BITS
            floor = [x.numerator * scale // x.denominator for x in mom[:3]]
            ceil = [-(-x.numerator * scale // x.denominator) for x in mom[:3]]
            rows = []
            for s in (1, 2, 0):  # E[(R - t)+^s] <= c M_k / t^(k - s); s = 0: P(R >= u) <= M_k / u^k
                row = []
                for k in range(s, TAIL_ORDER + 1):
                    v = (_tail_constant(k, s) if s else 1) * mom[k]
                    top = -(-v.numerator * scale // v.denominator)
                    if top:
                        row.append((k - s, top, math.log(top)))
                rows.append(row)
            got = self._by_n[n] = (floor, ceil, rows)
        return got

    @staticmethod
    def _least(row, t: int) -> int:
        """The smallest of ``ceil(top / t^e)`` over the row (chosen in floats, computed exactly)."""
        if not row:  # every moment is 0: no free spin wins anything
            return 0
        lt = math.log(t)
        e, top, _ = min(row, key=lambda r: r[2] - r[0] * lt)
        return -(-top // t**e)

    def bounds(self, ended: _Sums, live: dict[tuple[int, int, int], int], denominator: int
               ) -> tuple[CappedMoments, CappedMoments]:
        """Lower and upper bounds on the capped win's moments: the ended plays' exact sums plus every open
        play's bounds (module docstring)."""
        cap, bits = self.cap, TAIL_BITS
        one, cap_s, cap2_s = 1 << bits, cap << bits, (cap * cap) << bits
        lo = [0, 0]  # E[C], E[C^2] (P(bites) gains nothing below)
        hi = [0, 0, 0]  # E[C], E[C^2], P(bites)
        lo_on: dict[int, int] = defaultdict(int)  # E[C; label]
        hi_on: dict[int, int] = defaultdict(int)
        for (n, a, p), m in live.items():
            (_, f1, f2), (_, c1, c2), (z1, z2, tail) = self._of(n)
            t = cap - a
            if t:
                u1, u2 = self._least(z1, t), self._least(z2, t)
            else:  # at the cap: Z = R
                u1, u2 = c1, c2
            bites = min(one, self._least(tail, t + 1))  # R is whole credits: R > t means R >= t + 1
            a_s, a2_s = a << bits, (a * a) << bits
            mean_lo = m * max(a_s, a_s + f1 - u1)
            mean_hi = m * min(cap_s, a_s + c1)
            lo[0] += mean_lo
            hi[0] += mean_hi
            lo[1] += m * max(a2_s, a2_s + 2 * a * f1 + f2 - u2 - 2 * cap * u1)
            hi[1] += m * min(cap2_s, a2_s + 2 * a * c1 + c2)
            if p:
                lo_on[p] += mean_lo
                hi_on[p] += mean_hi
            hi[2] += m * bites
        d = denominator << bits
        lost = ended.lost  # rounded away: at 0 below, at the cap above
        labels = set(ended.on) | set(lo_on) | set(ended.lost_on)
        low = CappedMoments(mean=ended.c1 + Fraction(lo[0], d), second=ended.c2 + Fraction(lo[1], d),
                            capped=ended.bites,
                            on={q: ended.on[q] + Fraction(lo_on[q], d) for q in labels})
        high = CappedMoments(mean=ended.c1 + Fraction(hi[0], d) + lost * cap,
                             second=ended.c2 + Fraction(hi[1], d) + lost * cap * cap,
                             capped=ended.bites + Fraction(hi[2], d) + lost,
                             on={q: ended.on[q] + Fraction(hi_on[q], d) + ended.lost_on[q] * cap for q in labels})
        return low, high
