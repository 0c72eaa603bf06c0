"""Every state a spin's cascades reach, with its refill edges (docs/slot_model.md, "Cascades").

A state is a paying window and the ladder rung it is paid at; its edges are
the refills' outcomes (each removed cell one stop of its reel's refill strip)
that pay again, and the rest of its mass ends the sequence on a window whose
scatter cell is recorded.  The paid spin's windows are enumerated by column
contents (sorted in a ways game, where order changes nothing), at every
height a reel can draw when it has reel heights per spin.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

from harness.slot.cascade_window import CascadeWindow, column_key
from harness.slot.errors import BeyondExact
from harness.slot.heights import cycle as heights_cycle
from harness.slot.limits import MAX_CASCADE_BOUND_STATES, MAX_START_WINDOWS, MAX_TRANSITIONS
from harness.slot.model import SlotModel
from harness.slot.window import column_groups, scatter_cell


def refill_counts(model: SlotModel) -> list[dict[int, int]]:
    """Per reel: symbol -> stops of its refill strip showing it."""
    out = []
    for strip in model.cascade.refill:
        counts: dict[int, int] = {}
        for x in strip:
            counts[x] = counts.get(x, 0) + 1
        out.append(counts)
    return out


def next_columns(model: SlotModel, column: tuple[int, ...], removed: list[int],
                  refill: dict[int, int], length: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """The column after a cascade: the cells left fall, ``len(removed)`` new ones drawn on top."""
    kept = [x for i, x in enumerate(column) if i not in removed]
    k = len(removed)
    if k == 0:
        return [(column, Fraction(1))]
    dist: dict[tuple[int, ...], int] = {}
    for new in itertools.product(refill.items(), repeat=k):
        col = column_key(model, [x for x, _ in new] + kept)
        dist[col] = dist.get(col, 0) + math.prod(w for _, w in new)
    return [(col, Fraction(w, length ** k)) for col, w in dist.items()]


def start_columns(model: SlotModel, strips, weights) -> tuple[list[dict[tuple[int, ...], int]], int]:
    """Per reel, the paid spin's columns (as the chain keeps them) -> their stops, and the cycle.

    With reel heights per spin a column's weight is its height's weight times its stops: each reel
    keeps the height it drew for the whole sequence (a refill fills only the cells removed).
    """
    key = lambda cells: column_key(model, cells)  # noqa: E731
    if model.heights is None:
        cycle = math.prod(len(s) if weights is None else sum(w) for s, w in
                          zip(strips, weights or [None] * len(strips)))
        return column_groups(strips, weights, model.rows, key=key), cycle
    out = []
    for r, strip in enumerate(strips):
        reel: dict[tuple[int, ...], int] = {}
        for h, w in model.heights[r]:
            if w:
                for col, n in column_groups([strip], [weights[r]] if weights else None, h, key=key)[0].items():
                    reel[col] = reel.get(col, 0) + w * n
        out.append(reel)
    return out, heights_cycle(model)


class Walk:
    """Every state of the chain one spin's cascades reach (on ``strips``), breadth first, with its edges,
    its pays (x ``times``, the free-spin multiplier) and where its sequence ends (the last window's scatter
    cell: ``term[s]`` cell -> probability from state ``s``; ``start_term`` cell -> stop combinations of a
    spin whose own window pays no line)."""

    def __init__(self, model: SlotModel, strips, weights, times: int):
        self.model, self.times = model, times
        cascade, bpl = model.cascade, model.bet_per_line
        win = self.win = CascadeWindow(model)
        self.code = model.scatter_code if model.scatters else None
        starts, self.cycle = start_columns(model, strips, weights)
        n_start = math.prod(len(c) for c in starts)
        if n_start > MAX_START_WINDOWS:
            raise BeyondExact("cascade", f"the paid spin can show {n_start:,} different windows, more than the "
                             f"{MAX_START_WINDOWS:,} the cascade chain follows (docs/slot_model.md, Cascades); "
                             "use fewer distinct stops", model.source)
        refills = refill_counts(model)
        lengths = [len(s) for s in cascade.refill]
        self.index: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.start: dict[int, int] = {}  # state -> stop combinations
        self.start_term: dict[int, int] = {}  # scatter cell -> stop combinations whose window pays no line
        self.first_class: dict[int, int] = {}
        self.first_mean = Fraction(0)
        for columns in itertools.product(*(c.items() for c in starts)):
            window = tuple(c for c, _ in columns)
            weight = math.prod(w for _, w in columns)
            s = self._state(window, 0)
            if s is None:
                k = self.cell(window)
                self.start_term[k] = self.start_term.get(k, 0) + weight
                continue
            self.start[s] = self.start.get(s, 0) + weight
            pay, per_class, _ = win.evaluate(window)
            self.first_mean += weight * pay * bpl * cascade.ladder[0] * times
            for c in per_class:
                self.first_class[c] = self.first_class.get(c, 0) + weight
        self.first_mean /= self.cycle

        self.edges: list[list[tuple[int, Fraction]]] = []
        self.term: list[dict[int, Fraction]] = []
        transitions = 0
        while len(self.edges) < len(self.keys):  # breadth first: keys grows while states are expanded
            window, rung = self.keys[len(self.edges)]
            _, _, cells = win.evaluate(window)
            columns = []
            for r in range(model.reels):
                removed = [row for (rr, row) in cells if rr == r]  # rows of the column as kept (sorted in ways)
                columns.append(next_columns(model, window[r], removed, refills[r], lengths[r]))
            transitions += math.prod(len(c) for c in columns)
            if transitions > MAX_TRANSITIONS:  # before following them
                raise BeyondExact("cascade", f"the cascade chain has more than {MAX_TRANSITIONS:,} refill "
                                 "outcomes, too many to follow (docs/slot_model.md, Cascades); use fewer rows "
                                 "or fewer distinct symbols on the refill strips", model.source)
            nxt: dict[int, Fraction] = {}
            ends: dict[int, Fraction] = {}
            for combo in itertools.product(*columns):
                after = tuple(c for c, _ in combo)
                p = math.prod(p for _, p in combo)
                t = self._state(after, cascade.rung(rung + 1))
                if t is not None:
                    nxt[t] = nxt.get(t, Fraction(0)) + p
                elif self.code is not None:
                    k = self.cell(after)
                    ends[k] = ends.get(k, Fraction(0)) + p
            if self.code is None:  # one cell: the sequence ends with the rest of the mass
                ends = {0: 1 - sum(nxt.values(), Fraction(0))}
            self.edges.append(sorted(nxt.items()))
            self.term.append({k: p for k, p in ends.items() if p})

        self.credits = [Fraction(win.evaluate(w)[0] * bpl * cascade.ladder[k] * times) for w, k in self.keys]
        self.n_classes = len(win.lines.classes)
        self.pays = [[win.evaluate(w)[1].get(c, 0) for w, _ in self.keys] for c in range(self.n_classes)]
        self.class_credits = [[Fraction(self.pays[c][s] * bpl * cascade.ladder[k] * times)
                               for s, (_, k) in enumerate(self.keys)] for c in range(self.n_classes)]

    def cell(self, window: tuple) -> int:
        """The scatter cell a window shows (0 without scatter symbols)."""
        return 0 if self.code is None else scatter_cell(self.code, window)

    def _state(self, window: tuple, rung: int) -> int | None:
        """The state of a paying window, or None: a window that pays nothing ends the play."""
        if not self.win.evaluate(window)[0]:
            return None
        key = (window, rung)
        if key not in self.index:
            if len(self.keys) >= MAX_CASCADE_BOUND_STATES:
                raise BeyondExact("cascade", f"the cascade chain reaches more than {MAX_CASCADE_BOUND_STATES:,} "
                                 "windows, too many to follow (docs/slot_model.md, Cascades); use shorter "
                                 "ladders, fewer rows or fewer symbols on the refill strips", self.model.source)
            self.index[key] = len(self.keys)
            self.keys.append(key)
        return self.index[key]



def shown(model: SlotModel, window: tuple) -> str:
    names = model.symbol_names
    return " / ".join(" ".join(names[x] for x in col) for col in window)
