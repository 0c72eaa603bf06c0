"""Sticky wilds in free spins: the free-spin session as a Markov chain on the sticky positions.

Rules (``docs/slot_model.md``, "Sticky wilds"): in the free spins, every
position where a sticky wild lands keeps it for the rest of the session.
Each free spin stops the feature strips as usual, then every sticky position
shows its wild (over whatever landed there, a scatter too); the window is
paid (lines or ways, scatter pays, all x the free-spin multiplier), awards
its retrigger spins (counted on that window), and every position now
showing a sticky wild is sticky, with that wild, from the next spin on.  A
model may have several sticky wilds: a position keeps the one that stuck
first.  The session starts with no sticky position (the paid spin's wilds
do not stick).  With retriggers the session plays at most
``free_spins.max_spins`` spins in all: a retrigger awards what is left
below the cap.

The state is ``(S, left, awarded)``: the sticky positions (with their wild),
the spins left and the spins awarded so far (without retriggers, ``awarded``
never changes and is not followed).  ``S`` only grows; each spin takes
``left`` down by one and ``awarded`` up by its retrigger spins, so the
states can be solved in order of ``awarded`` (largest first), then
``left`` (smallest first): every spin leads to a state solved before.  For
each ``S`` reached, every window of the feature strips (stops grouped by
what the column shows) is paid with ``S`` laid over it, which gives, per
(next ``S'``, retrigger spins), the stop combinations leading there, the sum
of their wins and of their squares, and, per winning outcome (each line
combination, each scatter count range), the stop combinations where it is
*not* paid and the credits it pays.  Then, with ``V``, ``U`` the first two
moments of the rest of the session's win, ``Z_e`` the probability that
outcome ``e`` is not paid in it and ``N`` the spins it plays (all 0, 1 for
``Z``, once no spin is left):

    V(x)   = sum_x' [win(x->x') + w(x->x') V(x')] / cycle
    U(x)   = sum_x' [win2(x->x') + 2 win(x->x') V(x') + w(x->x') U(x')] / cycle
    Z_e(x) = sum_x' without_e(x->x') Z_e(x') / cycle
    N(x)   = 1 + sum_x' w(x->x') N(x') / cycle

all exact in fractions.  Why a cap with retriggers: without one, the spins
left are unbounded, and the chance that a session ends before the next wild
lands is a root of a polynomial equation (as a branching process's
extinction probability is), in general not a fraction.  The cost is the sets
reached times the distinct windows of the feature strips times the
paylines (at most :data:`MAX_STICKY_READS` payline reads) and the chain's
states (at most :data:`MAX_STICKY_STATES`); a model beyond either is refused
(exit 2), never approximated.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot.errors import BeyondExact, ModelError
from harness.slot.limits import MAX_STICKY_READS, MAX_STICKY_STATES
from harness.slot.model import SlotModel
from harness.slot import ways_rule
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
    spins: dict[int, Fraction] = dataclasses.field(default_factory=dict)  # n -> expected spins played
    chain_states: int = 0                     # (sticky set, spins left, spins awarded) states solved


def sticky_symbols(model: SlotModel) -> frozenset[int]:
    """The indices of the sticky wilds (empty without)."""
    return frozenset(i for i, s in enumerate(model.symbols) if s.sticky)


def sticky_symbol(model: SlotModel) -> int | None:
    """The index of the first sticky wild, or None."""
    return min(sticky_symbols(model), default=None)


class _Step:
    """One free spin from each sticky set: where it leads, what it pays (cached per set)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.wilds = sticky_symbols(model)
        self.lines = LineReader(model)
        self.n_lines = len(self.lines.classes)
        if model.ways:  # the ways rule (harness.slot.ways_rule), not one payline per path
            self.read = ways_rule.reader(model)
        else:
            self.read = lambda window: [(pay, cls) for _, pay, cls in self.lines.hits(window, model.paylines)]
        self.events = self.n_lines + len(model.scatter_awards.buckets)
        self.columns = [list(c.items()) for c in column_groups(model.feature_strips, model.feature_weights, model.rows)]
        self.cycle = math.prod(model.stop_totals(feature=True))

    def pay(self, window) -> tuple[int, dict[int, int], int]:
        """(credits, credits per event, retrigger spins) of one free spin's window (the multiplier included)."""
        m = self.model
        awards, code = m.scatter_awards, m.scatter_awards.code
        times = m.free_spins.multiplier
        per: dict[int, int] = {}
        total = 0
        for pay, cls in self.read(window):
            credits = pay * m.bet_per_line * times
            total += credits
            per[cls] = per.get(cls, 0) + credits
        cell = scatter_cell(code, window)
        scatter = awards.pay[cell] * m.total_bet * times
        total += scatter
        for b, pay in paying_buckets(awards, cell):  # a count range is an outcome in free spins if it pays there
            per[self.n_lines + b] = per.get(self.n_lines + b, 0) + pay * m.total_bet * times
        return total, per, awards.retrigger[cell]

    def spin(self, sticky: tuple[tuple[int, ...], ...]):
        """Per (next sticky set, retrigger spins): [stop combinations, sum win, sum win^2, per event: credits,
        combinations without it].  A sticky set is per reel, per row: the wild stuck there or -1."""
        out: dict[tuple, list] = {}
        wilds = self.wilds
        for columns in itertools.product(*self.columns):
            weight = math.prod(w for _, w in columns)
            window = tuple(tuple(x if x >= 0 else y for x, y in zip(stuck, col))
                           for (col, _), stuck in zip(columns, sticky))
            after = tuple(tuple(x if x in wilds else -1 for x in col) for col in window)
            win, per, more = self.pay(window)
            entry = out.get((after, more))
            if entry is None:
                entry = out[(after, more)] = [0, 0, 0, [0] * self.events, [0] * self.events]
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
        If following the chain would read more than :data:`MAX_STICKY_READS` paylines
        or solve more than :data:`MAX_STICKY_STATES` states.
    """
    step = _Step(model)
    windows = math.prod(len(c) for c in step.columns)
    cap = model.free_spins.max_spins  # None: no retriggers (the loader requires a cap with them)
    empty = tuple((-1,) * model.rows for _ in range(model.reels))
    start = {n: (empty, n, n if cap is not None else 0) for n in spins}
    moves: dict[tuple, dict] = {}

    def moves_of(s):
        if s not in moves:
            if (len(moves) + 1) * windows * len(model.paylines) > MAX_STICKY_READS:
                raise BeyondExact("symbols", f"the sticky wilds reach more than {len(moves):,} sets of sticky "
                                 f"positions; x {windows:,} windows of the feature strips x "
                                 f"{len(model.paylines):,} {model.line_word}s that is beyond the "
                                 f"{MAX_STICKY_READS:,} {model.line_word} reads of the exact session "
                                 "(docs/slot_model.md, Sticky wilds)", model.source)
            moves[s] = step.spin(s)
        return moves[s]

    def after(state, more: int, t):
        _, left, awarded = state
        more = 0 if cap is None else min(more, cap - awarded)  # a retrigger awards what is left below the cap
        return (t, left - 1 + more, awarded + more)

    # every state the sessions reach, depth first
    seen = set(start.values())
    todo = list(seen)
    while todo:
        state = todo.pop()
        if state[1] == 0:
            continue
        for t, more in moves_of(state[0]):
            nxt = after(state, more, t)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
                if len(seen) > MAX_STICKY_STATES:
                    raise BeyondExact("free_spins.max_spins" if cap is not None else "free_spins.spins",
                                     f"the sticky-wild session reaches more than {MAX_STICKY_STATES:,} states "
                                     "(sticky positions, spins left, spins awarded) of its exact chain "
                                     "(docs/slot_model.md, Sticky wilds); award fewer spins"
                                     + (" or lower the cap" if cap is not None else ""), model.source)
    cycle, events = step.cycle, step.events
    done = (Fraction(0), Fraction(0), (Fraction(1),) * events, (Fraction(0),) * events, Fraction(0))
    value: dict[tuple, tuple] = {}
    for state in sorted(seen, key=lambda x: (-x[2], x[1])):  # every move leads to a state solved before
        if state[1] == 0:
            value[state] = done
            continue
        v = u = n = Fraction(0)
        z = [Fraction(0)] * events
        c = [Fraction(0)] * events
        for (t, more), (w, s1, s2, credits, without) in moves[state[0]].items():
            vt, ut, zt, ct, nt = value[after(state, more, t)]
            v += s1 + w * vt
            u += s2 + 2 * s1 * vt + w * ut
            n += w * nt
            for e in range(events):
                z[e] += without[e] * zt[e]
                c[e] += credits[e] + w * ct[e]
        value[state] = (v / cycle, u / cycle, tuple(x / cycle for x in z), tuple(x / cycle for x in c),
                        1 + n / cycle)
    first = {n: value[state] for n, state in start.items()}
    return StickySession(mean={n: f[0] for n, f in first.items()}, second={n: f[1] for n, f in first.items()},
                         never={n: f[2] for n, f in first.items()}, credits={n: f[3] for n, f in first.items()},
                         states=len(moves), spins={n: f[4] for n, f in first.items()}, chain_states=len(seen))
