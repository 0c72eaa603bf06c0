"""Cascades (tumbles): winning symbols removed, the window refilled, solved exactly.

Rules (``docs/slot_model.md``, "Cascades"): the paid spin's window is paid
as usual (every payline or way).  If it pays, every cell on a paying line's
winning run (the first ``n`` cells of a line paid ``n x S``, wilds too) is
removed; on each reel the symbols left fall to the bottom, and each empty
cell at the top is refilled with an independent draw from the reel's
*refill strip* (stop ``p`` of ``L`` with probability ``1/L``, so a symbol
with probability its share of the strip).  The new window is paid again,
and so on until a window pays nothing.  The ``k``-th window of a play
(``k = 0``: the paid spin's) is paid ``ladder[k]`` times its line pays; the
ladder's last rung applies to every later window.

What is exact.  After the paid spin the play is a Markov chain whose state is
the window and the rung (:mod:`harness.slot.chain` solves its reward
equations in fractions, cycles included: a refill can bring back the window
it removed).  In a ways game the order of the symbols within a column
changes no pay and no removal, so a column is kept as its sorted contents.
Every window the chain can reach is followed; the paid spin's windows are
enumerated by column contents (the strips' stops, or virtual stops, grouped
by what the column shows).  Up to :data:`MAX_CASCADE_STATES` states the
mean, the second moment, the hit frequency and each combination's
probability of being paid at least once in the play are exact.

What is bounded.  A chain of more states (up to
:data:`MAX_CASCADE_BOUND_STATES`, every one still followed: nothing is cut)
is too large to eliminate in fractions; its figures are then bracketed by
:mod:`harness.slot.chain_bounds` (integer fixed point rounded outward, both
sides proved), and :attr:`CascadeSolution.exact` is False.  The paid spin's
own figures (its window's pays, the hit frequency, each combination's
probability in the first window) stay exact.  Beyond that limit, or for a
chain that ends too slowly to bound, the model is refused (exit 2).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot import chain
from harness.slot import chain_bounds as cb
from harness.slot.errors import ModelError
from harness.slot.limits import MAX_CASCADE_BOUND_STATES, MAX_CASCADE_STATES, MAX_START_WINDOWS, MAX_TRANSITIONS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, column_groups



@dataclasses.dataclass(frozen=True)
class CascadeClass:
    """One line combination in a cascade play (``automaton.classes[i]``); ``*_upper``: see
    :attr:`CascadeSolution.exact`."""

    probability: Fraction        # paid at least once in a play (a lower bound when not exact)
    first_probability: Fraction  # paid in the paid spin's window (always exact)
    credits: Fraction            # its expected credits per play, ladder included (a lower bound when not exact)
    probability_upper: Fraction
    credits_upper: Fraction


@dataclasses.dataclass(frozen=True)
class CascadeSolution:
    """The figures of a cascade play (credits; see the module docstring).

    ``exact``: every figure is exact and each ``*_upper`` equals its
    figure; otherwise ``mean``, ``second``, ``cascades`` and the classes'
    ``probability`` and ``credits`` are rigorous lower bounds and the
    ``*_upper`` fields rigorous upper bounds (``first_mean``, ``hit`` and
    ``first_probability`` are exact either way).
    """

    mean: Fraction
    second: Fraction
    first_mean: Fraction           # credits paid by the paid spin's window
    hit: Fraction                  # the paid spin's window pays
    cascades: Fraction             # expected refills per play
    classes: tuple[CascadeClass, ...]
    states: int                    # windows x rungs the chain reached
    cycle: int
    exact: bool = True
    mean_upper: Fraction | None = None    # None when exact (then equal to mean), likewise below
    second_upper: Fraction | None = None
    cascades_upper: Fraction | None = None

    @property
    def rtp_gap(self) -> Fraction:
        """Width of the RTP interval, in credits per play (0 when exact)."""
        return Fraction(0) if self.exact else self.mean_upper - self.mean


class _Window:
    """What a window pays and which cells it removes (cached per window)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.lines = LineReader(model)
        self._seen: dict[tuple, tuple[int, dict[int, int], frozenset]] = {}

    def evaluate(self, window: tuple) -> tuple[int, dict[int, int], frozenset]:
        """(total pay in line bets, pay per class, cells (reel, row) removed)."""
        got = self._seen.get(window)
        if got is not None:
            return got
        total, per_class, cells = 0, {}, set()
        for path in self.model.paylines:
            pay, cls = self.lines.read(tuple(window[r][row] for r, row in enumerate(path)))
            if pay:
                total += pay
                per_class[cls] = per_class.get(cls, 0) + pay
                cells.update((r, path[r]) for r in range(self.lines.classes[cls].count))
        got = self._seen[window] = (total, per_class, frozenset(cells))
        return got


def _column(model: SlotModel, cells) -> tuple[int, ...]:
    """A column as the chain keeps it: sorted in a ways game (order changes nothing), as shown otherwise."""
    return tuple(sorted(cells)) if model.ways else tuple(cells)


def _refills(model: SlotModel) -> list[dict[int, int]]:
    """Per reel: symbol -> stops of its refill strip showing it."""
    out = []
    for strip in model.cascade.refill:
        counts: dict[int, int] = {}
        for x in strip:
            counts[x] = counts.get(x, 0) + 1
        out.append(counts)
    return out


def _next_columns(model: SlotModel, column: tuple[int, ...], removed: list[int],
                  refill: dict[int, int], length: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """The column after a cascade: the cells left fall, ``len(removed)`` new ones drawn on top."""
    kept = [x for i, x in enumerate(column) if i not in removed]
    k = len(removed)
    if k == 0:
        return [(column, Fraction(1))]
    dist: dict[tuple[int, ...], int] = {}
    for new in itertools.product(refill.items(), repeat=k):
        col = _column(model, [x for x, _ in new] + kept)
        dist[col] = dist.get(col, 0) + math.prod(w for _, w in new)
    return [(col, Fraction(w, length ** k)) for col, w in dist.items()]


def solve(model: SlotModel) -> CascadeSolution:
    """The figures of ``model``'s cascade play: exact, or rigorously bounded (see the module docstring).

    Raises
    ------
    ModelError
        If the paid spin shows more than :data:`MAX_START_WINDOWS` different
        windows, the chain reaches more than :data:`MAX_CASCADE_BOUND_STATES`
        states or :data:`MAX_TRANSITIONS` refill outcomes, a cascade can go
        on forever with probability 1 from some window, or (beyond
        :data:`MAX_CASCADE_STATES` states) the chain ends too slowly to bound.
    """
    walk = _Walk(model)
    try:
        if len(walk.keys) <= MAX_CASCADE_STATES:
            return _exact(walk)
        return _bounded(walk)
    except chain.ChainDiverges as exc:
        window, _ = walk.keys[exc.state]
        raise ModelError("cascade.refill", f"from the window {_shown(model, window)} the cascades never end "
                         "(every refill pays again), so the play has no finite return", model.source) from None
    except cb.ChainTooSlow as exc:
        window, _ = walk.keys[exc.state]
        raise ModelError("cascade.refill", f"the cascade chain has {len(walk.keys):,} states, more than the "
                         f"{MAX_CASCADE_STATES:,} solved exactly, and from the window {_shown(model, window)} the "
                         f"cascades end too slowly to bound within {cb.MAX_SWEEPS:,} steps (docs/slot_model.md, "
                         "Cascades)", model.source) from None


class _Walk:
    """Every state of the chain a model's cascades reach, breadth first, with its edges and pays."""

    def __init__(self, model: SlotModel):
        self.model = model
        cascade, bpl = model.cascade, model.bet_per_line
        win = self.win = _Window(model)
        starts = column_groups(model.base_strips, model.base_weights, model.rows,
                               key=lambda cells: _column(model, cells))
        n_start = math.prod(len(c) for c in starts)
        if n_start > MAX_START_WINDOWS:
            raise ModelError("cascade", f"the paid spin can show {n_start:,} different windows, more than the "
                             f"{MAX_START_WINDOWS:,} the cascade chain follows (docs/slot_model.md, Cascades); "
                             "use fewer distinct stops", model.source)
        refills = _refills(model)
        lengths = [len(s) for s in cascade.refill]
        self.index: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.cycle = math.prod(model.stop_totals())
        self.start: dict[int, int] = {}  # state -> stop combinations
        self.first_class: dict[int, int] = {}
        self.first_mean = Fraction(0)
        for columns in itertools.product(*(c.items() for c in starts)):
            window = tuple(c for c, _ in columns)
            weight = math.prod(w for _, w in columns)
            s = self._state(window, 0)
            if s is None:
                continue
            self.start[s] = self.start.get(s, 0) + weight
            pay, per_class, _ = win.evaluate(window)
            self.first_mean += weight * pay * bpl * cascade.ladder[0]
            for c in per_class:
                self.first_class[c] = self.first_class.get(c, 0) + weight
        self.first_mean /= self.cycle

        self.edges: list[list[tuple[int, Fraction]]] = []
        transitions = 0
        while len(self.edges) < len(self.keys):  # breadth first: keys grows while states are expanded
            window, rung = self.keys[len(self.edges)]
            _, _, cells = win.evaluate(window)
            columns = []
            for r in range(model.reels):
                removed = [row for (rr, row) in cells if rr == r]  # rows of the column as kept (sorted in ways)
                columns.append(_next_columns(model, window[r], removed, refills[r], lengths[r]))
            transitions += math.prod(len(c) for c in columns)
            if transitions > MAX_TRANSITIONS:  # before following them
                raise ModelError("cascade", f"the cascade chain has more than {MAX_TRANSITIONS:,} refill "
                                 "outcomes, too many to follow (docs/slot_model.md, Cascades); use fewer rows "
                                 "or fewer distinct symbols on the refill strips", model.source)
            nxt: dict[int, Fraction] = {}
            for combo in itertools.product(*columns):
                t = self._state(tuple(c for c, _ in combo), cascade.rung(rung + 1))
                if t is not None:
                    nxt[t] = nxt.get(t, Fraction(0)) + math.prod(p for _, p in combo)
            self.edges.append(sorted(nxt.items()))

        self.credits = [Fraction(win.evaluate(w)[0] * bpl * cascade.ladder[k]) for w, k in self.keys]
        self.n_classes = len(win.lines.classes)
        self.pays = [[win.evaluate(w)[1].get(c, 0) for w, _ in self.keys] for c in range(self.n_classes)]
        self.class_credits = [[Fraction(self.pays[c][s] * bpl * cascade.ladder[k])
                               for s, (_, k) in enumerate(self.keys)] for c in range(self.n_classes)]

    def _state(self, window: tuple, rung: int) -> int | None:
        """The state of a paying window, or None: a window that pays nothing ends the play."""
        if not self.win.evaluate(window)[0]:
            return None
        key = (window, rung)
        if key not in self.index:
            if len(self.keys) >= MAX_CASCADE_BOUND_STATES:
                raise ModelError("cascade", f"the cascade chain reaches more than {MAX_CASCADE_BOUND_STATES:,} "
                                 "windows, too many to follow (docs/slot_model.md, Cascades); use shorter "
                                 "ladders, fewer rows or fewer symbols on the refill strips", self.model.source)
            self.index[key] = len(self.keys)
            self.keys.append(key)
        return self.index[key]

    def over(self, x: list[Fraction]) -> Fraction:
        """Expectation per play of a quantity ``x[s]`` of the paid spin's state (0 where it pays nothing)."""
        return _over(self.start, x, self.cycle)


def _exact(walk: _Walk) -> CascadeSolution:
    """Every figure exact, by elimination in fractions (:mod:`harness.slot.chain`)."""
    edges, credits, n = walk.edges, walk.credits, len(walk.keys)
    value, count, *means = chain.solve_many(edges, [credits, [Fraction(1)] * n] + walk.class_credits)
    second = chain.solve(edges, [c * c + 2 * c * (v - c) for c, v in zip(credits, value)])
    classes = []
    for c in range(walk.n_classes):
        # paid at least once: a state that pays c ends the question (its edges cut)
        cut = [() if walk.pays[c][s] else edges[s] for s in range(n)]
        once = walk.over(chain.solve(cut, [Fraction(1 if walk.pays[c][s] else 0) for s in range(n)]))
        mean_c = walk.over(means[c])
        classes.append(CascadeClass(probability=once, first_probability=Fraction(walk.first_class.get(c, 0),
                                                                                 walk.cycle),
                                    credits=mean_c, probability_upper=once, credits_upper=mean_c))
    return CascadeSolution(mean=walk.over(value), second=walk.over(second), first_mean=walk.first_mean,
                           hit=Fraction(sum(walk.start.values()), walk.cycle), cascades=walk.over(count),
                           classes=tuple(classes), states=n, cycle=walk.cycle)


def _bounded(walk: _Walk) -> CascadeSolution:
    """Every figure of the chain bracketed (:mod:`harness.slot.chain_bounds`); the paid spin's exact."""
    prepared = cb.prepare(walk.edges)
    credits, n = walk.credits, len(walk.keys)
    v_lo, v_hi = cb.bounds(prepared, credits)
    n_lo, n_hi = cb.bounds(prepared, [Fraction(1)] * n)
    # E[X^2] from s: c^2 + 2 c (x[s] - c) + sum P E[X^2] (x[s] - c: what the later windows pay)
    s_lo, s_hi = cb.bounds(prepared, [c * c + 2 * c * (v - c) for c, v in zip(credits, v_lo)],
                           [c * c + 2 * c * (v - c) for c, v in zip(credits, v_hi)])
    classes = []
    for c in range(walk.n_classes):
        paid = [bool(walk.pays[c][s]) for s in range(n)]
        o_lo, o_hi = cb.bounds(prepared, [Fraction(int(p)) for p in paid], stop=paid, cap=Fraction(1))
        m_lo, m_hi = cb.bounds(prepared, walk.class_credits[c])
        classes.append(CascadeClass(probability=walk.over(o_lo),
                                    first_probability=Fraction(walk.first_class.get(c, 0), walk.cycle),
                                    credits=walk.over(m_lo), probability_upper=walk.over(o_hi),
                                    credits_upper=walk.over(m_hi)))
    return CascadeSolution(mean=walk.over(v_lo), second=walk.over(s_lo), first_mean=walk.first_mean,
                           hit=Fraction(sum(walk.start.values()), walk.cycle), cascades=walk.over(n_lo),
                           classes=tuple(classes), states=n, cycle=walk.cycle, exact=False,
                           mean_upper=walk.over(v_hi), second_upper=walk.over(s_hi), cascades_upper=walk.over(n_hi))


def _over(start: dict[int, int], x: list[Fraction], cycle: int) -> Fraction:
    """Expectation per play of a quantity ``x[s]`` of the paid spin's state (0 where it pays nothing)."""
    return sum((w * x[s] for s, w in start.items()), Fraction(0)) / cycle


def _shown(model: SlotModel, window: tuple) -> str:
    names = model.symbol_names
    return " / ".join(" ".join(names[x] for x in col) for col in window)
