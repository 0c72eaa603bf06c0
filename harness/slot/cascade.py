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
by what the column shows).  The mean, the second moment, the hit frequency
and each combination's probability of being paid at least once in the play
are exact.  A model whose chain reaches more than :data:`MAX_CASCADE_STATES`
windows is refused (exit 2): this module gives no bounds and never cuts the
chain short.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot import chain
from harness.slot.errors import ModelError
from harness.slot.limits import MAX_CASCADE_STATES, MAX_START_WINDOWS, MAX_TRANSITIONS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, column_groups



@dataclasses.dataclass(frozen=True)
class CascadeClass:
    """One line combination in a cascade play (``automaton.classes[i]``)."""

    probability: Fraction        # paid at least once in a play
    first_probability: Fraction  # paid in the paid spin's window
    credits: Fraction            # its expected credits per play (ladder included)


@dataclasses.dataclass(frozen=True)
class CascadeSolution:
    """The exact figures of a cascade play (credits; see the module docstring)."""

    mean: Fraction
    second: Fraction
    first_mean: Fraction           # credits paid by the paid spin's window
    hit: Fraction                  # the paid spin's window pays
    cascades: Fraction             # expected refills per play
    classes: tuple[CascadeClass, ...]
    states: int                    # windows x rungs the chain reached
    cycle: int


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
    """The exact figures of ``model``'s cascade play (see the module docstring).

    Raises
    ------
    ModelError
        If the paid spin shows more than :data:`MAX_START_WINDOWS` different
        windows, the chain reaches more than :data:`MAX_CASCADE_STATES`
        states or :data:`MAX_TRANSITIONS` refill outcomes, or a cascade can
        go on forever with probability 1 from some window.
    """
    cascade, bpl = model.cascade, model.bet_per_line
    win = _Window(model)
    starts = column_groups(model.base_strips, model.base_weights, model.rows, key=lambda cells: _column(model, cells))
    n_start = math.prod(len(c) for c in starts)
    if n_start > MAX_START_WINDOWS:
        raise ModelError("cascade", f"the paid spin can show {n_start:,} different windows, more than the "
                         f"{MAX_START_WINDOWS:,} the exact cascade chain follows (docs/slot_model.md, Cascades); "
                         "use fewer distinct stops", model.source)
    refills = _refills(model)
    lengths = [len(s) for s in cascade.refill]

    index: dict[tuple, int] = {}
    keys: list[tuple] = []

    def state(window: tuple, rung: int) -> int | None:
        """The state of a paying window, or None: a window that pays nothing ends the play."""
        if not win.evaluate(window)[0]:
            return None
        key = (window, rung)
        if key not in index:
            if len(keys) >= MAX_CASCADE_STATES:
                raise ModelError("cascade", f"the cascade chain reaches more than {MAX_CASCADE_STATES:,} "
                                 "windows, too many to solve exactly (docs/slot_model.md, Cascades); use shorter "
                                 "ladders, fewer rows or fewer symbols on the refill strips", model.source)
            index[key] = len(keys)
            keys.append(key)
        return index[key]

    cycle = math.prod(model.stop_totals())
    start: dict[int, int] = {}  # state -> stop combinations
    first_class = {}
    first_mean = Fraction(0)
    for columns in itertools.product(*(c.items() for c in starts)):
        window = tuple(c for c, _ in columns)
        weight = math.prod(w for _, w in columns)
        s = state(window, 0)
        if s is None:
            continue
        start[s] = start.get(s, 0) + weight
        pay, per_class, _ = win.evaluate(window)
        first_mean += weight * pay * bpl * cascade.ladder[0]
        for c in per_class:
            first_class[c] = first_class.get(c, 0) + weight

    edges: list[list[tuple[int, Fraction]]] = []
    transitions = 0
    while len(edges) < len(keys):  # breadth first: keys grows while states are expanded
        window, rung = keys[len(edges)]
        _, _, cells = win.evaluate(window)
        columns = []
        for r in range(model.reels):
            removed = [row for (rr, row) in cells if rr == r]  # rows of the column as kept (sorted in ways)
            columns.append(_next_columns(model, window[r], removed, refills[r], lengths[r]))
        transitions += math.prod(len(c) for c in columns)
        if transitions > MAX_TRANSITIONS:  # before following them
            raise ModelError("cascade", f"the cascade chain has more than {MAX_TRANSITIONS:,} refill "
                             "outcomes, too many to solve exactly (docs/slot_model.md, Cascades); use fewer rows "
                             "or fewer distinct symbols on the refill strips", model.source)
        nxt: dict[int, Fraction] = {}
        for combo in itertools.product(*columns):
            t = state(tuple(c for c, _ in combo), cascade.rung(rung + 1))
            if t is not None:
                nxt[t] = nxt.get(t, Fraction(0)) + math.prod(p for _, p in combo)
        edges.append(sorted(nxt.items()))

    credits = [Fraction(win.evaluate(w)[0] * bpl * cascade.ladder[k]) for w, k in keys]
    n_classes = len(win.lines.classes)
    pays = [[win.evaluate(w)[1].get(c, 0) for w, _ in keys] for c in range(n_classes)]
    try:
        value, count, *means = chain.solve_many(edges, [credits, [Fraction(1)] * len(keys)] + [
            [Fraction(pays[c][s] * bpl * cascade.ladder[k]) for s, (_, k) in enumerate(keys)]
            for c in range(n_classes)])
        second = chain.solve(edges, [c * c + 2 * c * (v - c) for c, v in zip(credits, value)])
        classes = []
        for c in range(n_classes):
            # paid at least once: a state that pays c ends the question (its edges cut)
            cut = [() if pays[c][s] else edges[s] for s in range(len(keys))]
            once = chain.solve(cut, [Fraction(1 if pays[c][s] else 0) for s in range(len(keys))])
            classes.append(CascadeClass(
                probability=_over(start, once, cycle),
                first_probability=Fraction(first_class.get(c, 0), cycle),
                credits=_over(start, means[c], cycle),
            ))
    except chain.ChainDiverges as exc:
        window, _ = keys[exc.state]
        raise ModelError("cascade.refill", f"from the window {_shown(model, window)} the cascades never end "
                         "(every refill pays again), so the play has no finite return", model.source) from None
    return CascadeSolution(
        mean=_over(start, value, cycle),
        second=_over(start, second, cycle),
        first_mean=first_mean / cycle,
        hit=Fraction(sum(start.values()), cycle),
        cascades=_over(start, count, cycle),
        classes=tuple(classes),
        states=len(keys),
        cycle=cycle,
    )


def _over(start: dict[int, int], x: list[Fraction], cycle: int) -> Fraction:
    """Expectation per play of a quantity ``x[s]`` of the paid spin's state (0 where it pays nothing)."""
    return sum((w * x[s] for s, w in start.items()), Fraction(0)) / cycle


def _shown(model: SlotModel, window: tuple) -> str:
    names = model.symbol_names
    return " / ".join(" ".join(names[x] for x in col) for col in window)
