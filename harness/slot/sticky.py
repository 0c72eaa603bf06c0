"""Sticky wilds in free spins: the free-spin session as a Markov chain on the sticky positions.

Rules (``docs/slot_model.md``, "Sticky wilds"): in the free spins, every
position where the sticky wild lands keeps it for the rest of the session.
Each free spin stops the feature strips as usual, then every sticky position
shows the wild (over whatever landed there, a scatter too); the window is
paid (lines or ways, scatter pays, all x the free-spin multiplier), and every
position now showing the wild is sticky from the next spin on.  The session
starts with no sticky position (the paid spin's wilds do not stick) and has
no retriggers (refused by the loader), so a session of ``n`` spins is ``n``
steps of the chain.

The state is the set ``S`` of sticky positions; it only grows.  For each
state reached, every window of the feature strips (stops grouped by what
the column shows) is paid with ``S`` laid over it, which gives, per next
state ``S'``, the stop combinations leading there, the sum of their wins and
of their squares, and, per winning outcome (each line combination, each
scatter count range), the stop combinations where it is *not* paid.  Then,
with ``V``, ``U`` the first two moments of the rest of the session's win and
``Z_e`` the probability that outcome ``e`` is not paid in it, over ``n``
spins left (``V = U = 0``, ``Z = 1`` at ``n = 0``):

    V(S, n)   = sum_S' [win(S->S') + w(S->S') V(S', n-1)] / cycle
    U(S, n)   = sum_S' [win2(S->S') + 2 win(S->S') V(S', n-1) + w(S->S') U(S', n-1)] / cycle
    Z_e(S, n) = sum_S' without_e(S->S') Z_e(S', n-1) / cycle

all exact in fractions.  The cost is the states reached times the distinct
windows of the feature strips times the paylines; a model beyond
:data:`MAX_STICKY_READS` payline reads is refused (exit 2), never approximated.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot.errors import ModelError
from harness.slot.limits import MAX_STICKY_READS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, column_groups, paying_buckets, scatter_cell


@dataclasses.dataclass(frozen=True)
class StickySession:
    """A free-spin session with sticky wilds, per number of spins ``n`` awarded (credits).

    ``events``: the winning outcomes the chain follows, line combinations
    first (in :func:`harness.slot.lines.line_classes` order), then the
    scatter count ranges of ``model.scatter_awards.buckets``.
    """

    mean: dict[int, Fraction]
    second: dict[int, Fraction]
    never: dict[int, tuple[Fraction, ...]]    # n -> per event: P(not paid in the session)
    credits: dict[int, tuple[Fraction, ...]]  # n -> per event: expected credits it pays in the session
    states: int                               # sticky sets reached


def sticky_symbol(model: SlotModel) -> int | None:
    """The index of the sticky wild, or None."""
    return next((i for i, s in enumerate(model.symbols) if s.sticky), None)


class _Step:
    """One free spin from each sticky set: where it leads, what it pays (cached per set)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.wild = sticky_symbol(model)
        self.lines = LineReader(model)
        self.n_lines = len(self.lines.classes)
        self.events = self.n_lines + len(model.scatter_awards.buckets)
        self.columns = [list(c.items()) for c in column_groups(model.feature_strips, model.feature_weights, model.rows)]
        self.cycle = math.prod(model.stop_totals(feature=True))

    def pay(self, window) -> tuple[int, dict[int, int]]:
        """(credits, credits per event) of one free spin's window (the multiplier included)."""
        m = self.model
        awards, code = m.scatter_awards, m.scatter_awards.code
        times = m.free_spins.multiplier
        per: dict[int, int] = {}
        total = 0
        for _, pay, cls in self.lines.hits(window, m.paylines):
            credits = pay * m.bet_per_line * times
            total += credits
            per[cls] = per.get(cls, 0) + credits
        cell = scatter_cell(code, window)
        scatter = awards.pay[cell] * m.total_bet * times
        total += scatter
        for b, pay in paying_buckets(awards, cell):  # a count range is an outcome in free spins if it pays there
            per[self.n_lines + b] = per.get(self.n_lines + b, 0) + pay * m.total_bet * times
        return total, per

    def spin(self, sticky: tuple[int, ...]):
        """Per next sticky set: [stop combinations, sum win, sum win^2, per event: credits, combinations without it]."""
        out: dict[tuple[int, ...], list] = {}
        for columns in itertools.product(*self.columns):
            weight = math.prod(w for _, w in columns)
            window = tuple(tuple(self.wild if mask >> h & 1 else x for h, x in enumerate(col))
                           for (col, _), mask in zip(columns, sticky))
            after = tuple(sum(1 << h for h, x in enumerate(col) if x == self.wild) for col in window)
            win, per = self.pay(window)
            entry = out.get(after)
            if entry is None:
                entry = out[after] = [0, 0, 0, [0] * self.events, [0] * self.events]
            entry[0] += weight
            entry[1] += weight * win
            entry[2] += weight * win * win
            for e in range(self.events):
                if e in per:
                    entry[3][e] += weight * per[e]
                else:
                    entry[4][e] += weight
        return out


def solve(model: SlotModel, spins: set[int]) -> StickySession:
    """The session figures for every number of free spins in ``spins`` (see the module docstring).

    Raises
    ------
    ModelError
        If following the chain would read more than :data:`MAX_STICKY_READS` paylines.
    """
    step = _Step(model)
    windows = math.prod(len(c) for c in step.columns)
    horizon = max(spins)
    # the sticky sets reachable within the horizon, breadth first
    start = (0,) * model.reels
    levels = [{start}]
    moves: dict[tuple[int, ...], dict] = {}
    for _ in range(horizon):
        nxt = set()
        for s in levels[-1]:
            if s not in moves:
                if (len(moves) + 1) * windows * len(model.paylines) > MAX_STICKY_READS:
                    raise ModelError("symbols", f"the sticky wilds reach more than {len(moves):,} sets of sticky "
                                     f"positions; x {windows:,} windows of the feature strips x "
                                     f"{len(model.paylines):,} {model.line_word}s that is beyond the "
                                     f"{MAX_STICKY_READS:,} {model.line_word} reads of the exact session "
                                     "(docs/slot_model.md, Sticky wilds)", model.source)
                moves[s] = step.spin(s)
            nxt |= set(moves[s])
        levels.append(nxt)
    cycle, events = step.cycle, step.events
    zero = (Fraction(0),) * events
    value = {s: Fraction(0) for s in moves}  # n = 0 spins left
    square = dict(value)
    never = {s: (Fraction(1),) * events for s in moves}
    paid = {s: zero for s in moves}
    out_mean, out_second, out_never, out_credits = {}, {}, {}, {}
    for n in range(1, horizon + 1):
        v2, u2, z2, c2 = {}, {}, {}, {}
        for s in set().union(*levels[: horizon - n + 1]) & moves.keys():
            v = u = Fraction(0)
            z = [Fraction(0)] * events
            c = [Fraction(0)] * events
            for t, (w, s1, s2, credits, without) in moves[s].items():
                vt = value.get(t, Fraction(0))
                v += s1 + w * vt
                u += s2 + 2 * s1 * vt + w * square.get(t, Fraction(0))
                zt, ct = never.get(t, (Fraction(1),) * events), paid.get(t, zero)
                for e in range(events):
                    z[e] += without[e] * zt[e]
                    c[e] += credits[e] + w * ct[e]
            v2[s], u2[s] = v / cycle, u / cycle
            z2[s], c2[s] = tuple(x / cycle for x in z), tuple(x / cycle for x in c)
        value, square, never, paid = v2, u2, z2, c2
        if n in spins:
            out_mean[n], out_second[n] = value[start], square[start]
            out_never[n], out_credits[n] = never[start], paid[start]
    return StickySession(mean=out_mean, second=out_second, never=out_never, credits=out_credits,
                         states=len(moves))
