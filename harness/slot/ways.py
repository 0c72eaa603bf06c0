"""Ways pays summed by dynamic programming over the reels, never window by window.

A way is one shown row on each reel, paid as a payline is (the automaton of
:mod:`harness.slot.lines`), or both ways (:func:`harness.slot.both_ways.way_reader`):
either is a :class:`WayReader`.  What one way pays depends only on the symbols
along it, the reels are independent, and the number of ways through a
column showing symbol ``x`` is the number of its cells showing ``x``.  So
every figure of the paid spin comes from a few tables per reel, built from
the reel's distinct columns (at every height it can draw) and their exact
integer weights, and a programme over the reels, left to right:

* **Mean.**  The weighted count of ways in each automaton state, jointly
  with the scatter cell (:class:`~harness.slot.model.ScatterCode`): reel
  ``r`` moves ``v`` ways in state ``s`` at cell ``k`` to ``delta(s, x)`` at
  ``k + c`` with weight ``sum of w x (cells showing x)`` over the columns
  whose scatter cell is ``c``.  At the end every state is done; its pay and
  class give the line credits per class and, with the cell, the scatter
  pay and the cross term ``E[lines x scatters]``.
* **Second moment.**  ``E[L^2]`` counts ordered *pairs* of ways: the pair
  states ``(s, s')`` move with ``sum of w x cnt(x) x cnt(y)`` per column.
  The automaton is first reduced to the states that differ in what they
  can still pay (:func:`reduce`), which keeps the pairs few.
* **At least once.**  Whether some way reaches an outcome depends only on
  which symbols each column shows: the *set* of (reduced) states some way
  is in is a Markov chain over the reels.  Per line class (and once for
  "any line pays", with the scatter cell, for the hit frequency) the chain
  is followed on the states that can still reach it, absorbing once a way
  has reached it.

A play's whole outcome is the paid spin's window: its credits (line pays
summed over every way, plus the scatter pay) and the set of winning
classes it pays (each line combination paid on at least one way, each
scatter count range).  What the programme gives exactly, as integer sums
over the cycle, is each class's probability of being paid at least once
(the rarest-outcome check), each class's credits, the mean and second
moment of the win and the probability of no win; it does not list the
win's whole distribution (no feature of these models needs it).

The cost grows with the distinct columns of each reel, the automaton's
states and the state sets reached, not with the ways or the stop
combinations: a 6-reel game of heights 2 to 7 (117,649 ways) on 100-stop
reels is read in seconds.  A model whose programme would follow more
than :data:`~harness.slot.limits.MAX_WAYS_STATES` states or state sets is
refused (exit 2), never sampled.
"""
from __future__ import annotations

import dataclasses
import math
from collections import defaultdict

from harness.slot.errors import ModelError
from harness.slot.limits import MAX_WAYS_STATES
from harness.slot.lines import LineAutomaton
from harness.slot.model import SlotModel
from harness.slot.window import WindowFigures


@dataclasses.dataclass(frozen=True)
class ReelTables:
    """One reel's columns summarised for the programme (integer weights summing to ``total``).

    ``first[(c, x)]``: weight x cells showing ``x``, columns of scatter cell ``c``;
    ``pairs[(x, y)]``: weight x cells showing ``x`` x cells showing ``y``;
    ``support[(symbols shown, c)]``: weight; ``cells[c]``: weight; ``rows[c]``: weight x cells.
    """

    first: dict[tuple[int, int], int]
    pairs: dict[tuple[int, int], int]
    support: dict[tuple[frozenset, int], int]
    cells: dict[int, int]
    rows: dict[int, int]
    total: int

    @classmethod
    def of(cls, columns: dict[tuple[int, ...], int], code) -> "ReelTables":
        first: dict = defaultdict(int)
        pairs: dict = defaultdict(int)
        support: dict = defaultdict(int)
        cells: dict = defaultdict(int)
        rows: dict = defaultdict(int)
        for col, w in columns.items():
            counts: dict[int, int] = defaultdict(int)
            for x in col:
                counts[x] += 1
            c = sum(counts.get(x, 0) * place for x, place in zip(code.symbols, code.place))
            cells[c] += w
            rows[c] += w * len(col)
            support[(frozenset(counts), c)] += w
            for x, n in counts.items():
                first[(c, x)] += w * n
                for y, m in counts.items():
                    pairs[(x, y)] += w * n * m
        return cls(first=dict(first), pairs=dict(pairs), support=dict(support), cells=dict(cells),
                   rows=dict(rows), total=sum(columns.values()))


@dataclasses.dataclass(frozen=True)
class WayReader:
    """How one way is read: a layered automaton over its symbols, reel 1 first.

    ``delta[s][x]``: the next state (state 0 is the start); ``done[s]``: the
    way's result is final (a done state absorbs every symbol; after the last
    reel every state is done); ``readings[s]``: the ``(pay, class)`` of each
    reading of a done state that pays (one for a left-to-right way, up to
    two both ways), pays in bets per way.
    """

    delta: list[list[int]]
    done: list[bool]
    readings: list[tuple[tuple[int, int], ...]]
    classes: int

    @classmethod
    def left_to_right(cls, a: LineAutomaton) -> "WayReader":
        """The payline automaton's reading (:mod:`harness.slot.lines`)."""
        pay, kind = a.pay.tolist(), a.cls.tolist()
        return cls(delta=a.delta.tolist(), done=[bool(d) for d in a.done.tolist()],
                   readings=[((p, c),) if p else () for p, c in zip(pay, kind)], classes=len(a.classes))

    def pay(self, s: int) -> int:
        return sum(p for p, _ in self.readings[s])


@dataclasses.dataclass(frozen=True)
class Reduced:
    """An automaton reduced to the states that differ in what they still output.

    ``delta[i][x]``: the next reduced state; ``const[i]``: the output a state
    is certain to give whatever follows (``None`` while undecided).
    """

    delta: list[list[int]]
    const: list[object]
    of_state: list[int]  # automaton state -> reduced state


def reduce(a: WayReader, output) -> Reduced:
    """Merge the states of ``a`` whose future output is the same, ``output(done state)`` at the end.

    Two states are merged when every symbol leads to merged states; a state
    whose every continuation gives the same output is that constant (a done
    state is always one), so decided states and the states sure to give the
    same result become one.
    """
    delta, done = a.delta, a.done
    nsym = len(delta[0])
    ids: dict[tuple, int] = {}
    const: list[object] = []
    memo: dict[int, int] = {}

    def intern(key: tuple, value: object) -> int:
        if key not in ids:
            ids[key] = len(const)
            const.append(value)
        return ids[key]

    def visit(s: int) -> int:  # the automaton is layered by reel, so the depth is at most reels + 1
        got = memo.get(s)
        if got is None:
            if done[s]:
                value = output(s)
                got = intern(("const", value), value)
            else:
                kids = tuple(visit(delta[s][x]) for x in range(nsym))
                first = kids[0]
                same = all(k == first for k in kids) and const[first] is not None
                got = first if same else intern(("node", kids), None)
            memo[s] = got
        return got

    of_state = [visit(s) for s in range(len(delta))]
    table = [[0] * nsym for _ in const]
    for s, i in enumerate(of_state):
        table[i] = [of_state[delta[s][x]] for x in range(nsym)]
    return Reduced(delta=table, const=const, of_state=of_state)


def _limit(model: SlotModel, count: int, what: str) -> None:
    if count > MAX_WAYS_STATES:
        raise ModelError("reels", f"the ways programme would follow more than {MAX_WAYS_STATES:,} {what} at one reel "
                         "(docs/slot_model.md, Large ways games); use fewer symbols or shorter strips",
                         model.source)


def _mean_by_cell(model: SlotModel, a: WayReader, reels: list[ReelTables]) -> dict[tuple[tuple, int], int]:
    """Weighted count of ways ending with each readings, per scatter cell: ``{(readings, cell): n}``."""
    r = reduce(a, lambda s: a.readings[s])
    delta, const = r.delta, r.const
    mass = {(r.of_state[0], 0): 1}
    for t in reels:
        new: dict = defaultdict(int)
        first = list(t.first.items())
        for (i, k), v in mass.items():
            if const[i] is not None:  # decided: every row of the reel continues it
                for c, w in t.rows.items():
                    new[(i, k + c)] += v * w
            else:
                row = delta[i]
                for (c, x), w in first:
                    j = row[x]
                    if const[j] != ():  # a way sure to pay nothing adds nothing
                        new[(j, k + c)] += v * w
        mass = new
        _limit(model, len(mass), "(state, scatter count) pairs")
    return {(const[i], k): v for (i, k), v in mass.items()}


def _second_moment(model: SlotModel, a: WayReader, reels: list[ReelTables]) -> int:
    """Sum over the cycle of (line pay in bets per way)^2: ordered pairs of ways.

    The pair table is symmetric (both ways of a pair read the same
    columns), so only pairs ``i <= j`` are kept; and the symbols a state
    sends to one next state are taken together, as one block of the reel's
    pair table, so a pair costs its next-state pairs, not symbol pairs.
    """
    r = reduce(a, a.pay)
    delta, const = r.delta, r.const
    nsym = len(delta[0])
    # per state: next state -> the group of symbols leading there (a way sure to pay 0 adds 0: dropped)
    groups: dict[tuple[int, ...], int] = {}
    moves = []
    for row in delta:
        by: dict[int, list[int]] = defaultdict(list)
        for x in range(nsym):
            if const[row[x]] != 0:
                by[row[x]].append(x)
        moves.append([(u, groups.setdefault(tuple(xs), len(groups))) for u, xs in by.items()])
    members = list(groups)
    size = len(members)
    start = r.of_state[0]
    pairs = {(start, start): 1} if const[start] != 0 else {}
    for t in reels:
        block: dict[int, int] = {}  # group pair -> the reel's pair-table weight over it
        new: dict = defaultdict(int)
        for (i, j), v in pairs.items():
            diagonal = i == j
            for u, gx in moves[i]:
                for w, gy in moves[j]:
                    if diagonal and u > w:  # a diagonal pair: its mirror image is counted at (w, u)
                        continue
                    key = gx * size + gy
                    m = block.get(key)
                    if m is None:
                        m = block[key] = sum(t.pairs.get((x, y), 0) for x in members[gx] for y in members[gy])
                    if m:
                        # off the diagonal (i < j) the pair also stands for (j, i): its image (w, u)
                        # lands on the same kept pair, once more when u == w
                        new[(u, w) if u <= w else (w, u)] += v * m * (2 if not diagonal and u == w else 1)
        pairs = new
        _limit(model, len(pairs), "pairs of states")
    return sum(v * const[i] * const[j] * (1 if i == j else 2) for (i, j), v in pairs.items())


def never_reached(model: SlotModel, a: WayReader, reels: list[ReelTables], reached,
                  ending: set[int] | None = None) -> int:
    """Weight of the spins on which no way reaches an outcome (and, if given, whose scatter cell is in ``ending``).

    ``reached(done state)`` says whether a way ending there shows the outcome.
    The chain's state is the set of reduced states some way is in, those
    that may still reach it, with the scatter cell so far; a spin on which a
    way has reached it, or whose cell can no longer end in ``ending``
    (cells only grow, digit by digit), is dropped.
    """
    if ending is not None and not ending:  # every scatter cell pays: no spin is without a win
        return 0
    r = reduce(a, lambda s: bool(reached(s)))
    delta, const = r.delta, r.const
    code = model.scatter_code
    digits = len(code.symbols)
    # a set of states is a bit mask; the states sure to reach (True) or never to (False) are not kept
    sure = sum(1 << i for i, v in enumerate(const) if v is True)
    live = sum(1 << i for i, v in enumerate(const) if v is None)

    def can_end(k: int) -> bool:
        return any(all(code.count(z, i) >= code.count(k, i) for i in range(digits)) for z in ending)

    open_cells = {0} if ending is None else {k for k in range(max(ending) + 1) if can_end(k)}

    # symbols every state treats alike are one symbol here: the supports to follow become few
    alike: dict[tuple[int, ...], int] = {}
    as_symbol = [alike.setdefault(tuple(row[x] for row in delta), x) for x in range(len(delta[0]))]
    start = 1 << r.of_state[0]
    mass = {} if start & sure else {(start & live, 0): 1}
    bits: dict[int, tuple[int, ...]] = {}
    for t in reels:
        support: dict = defaultdict(int)
        for (shown, c), w in t.support.items():
            support[(frozenset(as_symbol[x] for x in shown), 0 if ending is None else c)] += w
        image = {}  # per support: per state, the mask of the states it leads to
        for shown, _ in support:
            if shown not in image:
                image[shown] = [sum({1 << row[x] for x in shown}) for row in delta]
        new: dict = defaultdict(int)
        for (states, k), v in mass.items():
            members = bits.get(states)
            if members is None:
                members = bits[states] = tuple(i for i in range(states.bit_length()) if states >> i & 1)
            for (shown, c), w in support.items():
                img = image[shown]
                nxt = 0
                for i in members:
                    nxt |= img[i]
                cell = k + c
                if not nxt & sure and cell in open_cells:
                    new[(nxt & live, cell)] += v * w
        mass = new
        _limit(model, len(mass), "sets of states")
    return sum(v for (_, k), v in mass.items() if ending is None or k in ending)


def solve(model: SlotModel, a: WayReader, columns: list[dict[tuple[int, ...], int]],
          windows: int) -> WindowFigures:
    """The paid spin's figures from each reel's distinct columns and weights (see the module docstring).

    Parameters
    ----------
    a : WayReader
        How every way is read (:meth:`WayReader.left_to_right`, or both ways).
    columns : list of dict
        Per reel: column shown (top row first, any height) -> its weight.
    windows : int
        The distinct windows these columns make (reported, never listed).

    Raises
    ------
    ModelError
        If a programme would follow more than :data:`MAX_WAYS_STATES` states.
    """
    awards = model.scatter_awards
    code = awards.code
    reels = [ReelTables.of(c, code) for c in columns]
    cycle = math.prod(t.total for t in reels)
    bpl, tb = model.bet_per_line, model.total_bet

    cells = {0: 1}  # the scatter cell's distribution, by convolution over the reels
    for t in reels:
        nxt: dict = defaultdict(int)
        for k, v in cells.items():
            for c, w in t.cells.items():
                nxt[k + c] += v * w
        cells = nxt
    scatter_pay = {k: awards.pay[k] * tb for k in cells}

    line_credits = [0] * a.classes
    lines_total = cross = 0
    for (readings, k), v in _mean_by_cell(model, a, reels).items():
        for p, c in readings:
            credits = v * p * bpl
            line_credits[c] += credits
            lines_total += credits
            cross += credits * scatter_pay[k]
    scatter_total = sum(w * scatter_pay[k] for k, w in cells.items())
    scatter_sq = sum(w * scatter_pay[k] ** 2 for k, w in cells.items())
    lines_sq = _second_moment(model, a, reels) * bpl * bpl

    paid = {c for readings in a.readings for _, c in readings}
    line_paid = [cycle - never_reached(model, a, reels, lambda s, c=c: any(k == c for _, k in a.readings[s]))
                 if c in paid else 0 for c in range(a.classes)]
    no_win = never_reached(model, a, reels, lambda s: bool(a.readings[s]), {k for k in cells if not scatter_pay[k]})
    bucket_paid = tuple(sum(w for k, w in cells.items() if lo <= code.count(k, i) <= hi)
                        if awards.awards(i, lo)[0] else 0 for i, lo, hi in awards.buckets)
    return WindowFigures(cycle=cycle, line_credits_total=lines_total, scatter_credits_total=scatter_total,
                         win_sum=lines_total + scatter_total, win_sq=lines_sq + 2 * cross + scatter_sq,
                         no_win=no_win, line_paid=tuple(line_paid), line_credits=tuple(line_credits),
                         bucket_paid=bucket_paid, windows=windows)
