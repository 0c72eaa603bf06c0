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

Reel heights per spin (``docs/slot_model.md``, "Cascades with reel heights"):
each reel draws its height on the paid spin (:mod:`harness.slot.heights`)
and keeps it through the play, a refill filling only the cells removed; the
window pays every way of the rows it shows.

Scatters and free spins (``docs/slot_model.md``, "Cascades with scatters and
free spins"): a scatter is on no line, so it is never removed; when a
sequence ends, its last window's scatters pay (x the total bet) and award
free spins, each free spin a whole sequence from the feature strips with the
ladder restarted, everything x the free-spin multiplier, its last window
awarding the retriggers.  Every such figure is a reward of the chain (see
:class:`_Stage`); the free spins form the branching process of
:mod:`harness.slot.feature`.

What is exact.  After the paid spin the play is a Markov chain whose state is
the window and the rung (:mod:`harness.slot.chain` solves its reward
equations in fractions, cycles included: a refill can bring back the window
it removed).  In a ways game the order of the symbols within a column
changes no pay and no removal, so a column is kept as its sorted contents.
Every window the chain can reach is followed; the paid spin's windows are
enumerated by column contents (the strips' stops, or virtual stops, grouped
by what the column shows; with reel heights, at every height it can draw,
weighted by the height's weight).  Up to :data:`MAX_CASCADE_STATES` states the
mean, the second moment, the hit frequency and each combination's
probability of being paid at least once in the play are exact.

What is bounded.  A chain of more states (up to
:data:`MAX_CASCADE_BOUND_STATES`, every one still followed: nothing is cut)
is too large to eliminate in fractions; its figures are then bracketed by
:mod:`harness.slot.chain_bounds` (integer fixed point rounded outward, both
sides proved), and :attr:`CascadeSolution.exact` is False.  The paid spin's
own figures (its window's pays, the hit frequency, each combination's
probability in the first window) stay exact.  With free spins either chain
(the paid spin's, one free spin's) may be bounded: every figure of
:func:`_play` is then a pair of bounds, combined by formulas increasing in
each (see there).  Beyond that limit, or for a chain that ends too slowly to
bound, the model is refused (exit 2).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot import chain
from harness.slot import chain_bounds as cb
from harness.slot import feature as fs
from harness.slot.errors import ModelError
from harness.slot.heights import cycle as heights_cycle
from harness.slot.limits import MAX_CASCADE_BOUND_STATES, MAX_CASCADE_STATES, MAX_START_WINDOWS, MAX_TRANSITIONS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, column_groups, scatter_cell
from harness.slot.ways_rule import WaysRule



@dataclasses.dataclass(frozen=True)
class CascadeClass:
    """One winning outcome of a cascade play: a line combination (``automaton.classes[i]``) or a scatter
    count range (``model.scatter_awards.buckets[b]``); ``*_upper``: see :attr:`CascadeSolution.exact`."""

    probability: Fraction        # paid at least once in a play (a lower bound when not exact)
    first_probability: Fraction  # line: paid in the paid spin's window; scatter: shown when its cascades end
    credits: Fraction            # expected credits per play, ladder and free spins included (lower bound)
    probability_upper: Fraction
    credits_upper: Fraction
    free_spin_probability: Fraction | None = None  # paid in one free spin (its whole cascade sequence)


@dataclasses.dataclass(frozen=True)
class CascadeFree:
    """The free spins of a cascade model, each one whole cascade sequence on the feature strips (given
    only when every chain is exact)."""

    trigger_probability: Fraction  # per play
    retrigger_per_spin: Fraction   # spins awarded by one free spin
    spins_per_play: Fraction       # retriggers included
    win_per_spin: Fraction         # credits, the multiplier included
    states: int                    # the free spins' chain


@dataclasses.dataclass(frozen=True)
class CascadeSolution:
    """The figures of a cascade play (credits; see the module docstring).

    ``exact``: every figure is exact and each ``*_upper`` equals its
    figure; otherwise ``mean``, ``second``, ``scatter_mean``, ``cascades``
    and the classes' ``probability`` and ``credits`` are rigorous lower
    bounds and the ``*_upper`` fields rigorous upper bounds (``first_mean``,
    ``hit`` and the lines' ``first_probability`` are exact either way).
    """

    mean: Fraction
    second: Fraction
    first_mean: Fraction           # line credits paid by the paid spin's window
    hit: Fraction                  # the play pays or triggers
    cascades: Fraction             # expected refills per play (the paid spin's sequence)
    classes: tuple[CascadeClass, ...]
    states: int                    # windows x rungs the chain reached
    cycle: int
    exact: bool = True
    mean_upper: Fraction | None = None    # None when exact (then equal to mean), likewise below
    second_upper: Fraction | None = None
    cascades_upper: Fraction | None = None
    scatter_mean: Fraction = Fraction(0)  # the paid spin's scatter pays (its last window's count)
    scatter_upper: Fraction = Fraction(0)
    feature_mean: Fraction = Fraction(0)  # everything the free spins win
    feature_upper: Fraction = Fraction(0)
    free_states: int = 0  # the free spins' chain (0 without free spins)
    buckets: tuple[CascadeClass, ...] = ()  # per model.scatter_awards.buckets
    free: CascadeFree | None = None

    @property
    def rtp_gap(self) -> Fraction:
        """Width of the RTP interval, in credits per play (0 when exact)."""
        return Fraction(0) if self.exact else self.mean_upper - self.mean

class _Window:
    """What a window pays and which cells it removes (cached per window)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.lines = LineReader(model)
        self.ways = WaysRule.of(model, with_progressive=False) if model.ways else None
        self._seen: dict[tuple, tuple[int, dict[int, int], frozenset]] = {}

    def evaluate(self, window: tuple) -> tuple[int, dict[int, int], frozenset]:
        """(total pay in line bets, pay per class, cells (reel, row) removed)."""
        got = self._seen.get(window)
        if got is not None:
            return got
        total, per_class, cells = 0, {}, set()
        if self.ways is not None:  # the ways rule (heights too): each paid symbol's matching cells on its paid reels
            for pay, cls in self.ways.read(window):
                total += pay
                per_class[cls] = per_class.get(cls, 0) + pay
            cells = self.ways.winning_cells(window)
        for path, pay, cls in ([] if self.ways is not None else self.lines.hits(window, self.model.paylines)):
            total += pay
            per_class[cls] = per_class.get(cls, 0) + pay
            cells.update((r, path[r]) for r in range(self.lines.classes[cls].count))
        got = self._seen[window] = (total, per_class, frozenset(cells))
        return got


def window_evaluator(model: SlotModel):
    """``evaluate(window)``: (total pay in line bets, pay per class, cells (reel, row) removed) of a
    window (columns top row first), the rule the chain and the simulation both follow."""
    return _Window(model).evaluate


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


def _starts(model: SlotModel, strips, weights) -> tuple[list[dict[tuple[int, ...], int]], int]:
    """Per reel, the paid spin's columns (as the chain keeps them) -> their stops, and the cycle.

    With reel heights per spin a column's weight is its height's weight times its stops: each reel
    keeps the height it drew for the whole sequence (a refill fills only the cells removed).
    """
    key = lambda cells: _column(model, cells)  # noqa: E731
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


def solve(model: SlotModel) -> CascadeSolution:
    """The figures of ``model``'s cascade play: exact, or rigorously bounded (see the module docstring).

    Raises
    ------
    ModelError
        If the paid spin shows more than :data:`MAX_START_WINDOWS` different
        windows, the chain reaches more than :data:`MAX_CASCADE_BOUND_STATES`
        states or :data:`MAX_TRANSITIONS` refill outcomes, a cascade can go
        on forever with probability 1 from some window, (beyond
        :data:`MAX_CASCADE_STATES` states) the chain ends too slowly to
        bound, or the free spins' retriggers make their expected number
        infinite (or, bounded, may do so).
    """
    free = None
    if model.free_spins is not None:
        free = _Stage(_Walk(model, model.feature_strips, model.feature_weights, model.free_spins.multiplier),
                      model.scatter_awards.retrigger)
    base = _Stage(_Walk(model, model.base_strips, model.base_weights, 1), model.scatter_awards.trigger)
    return _play(model, base, free)


class _Solver:
    """``x = b + P x`` on a walk's chain: exact in fractions up to :data:`MAX_CASCADE_STATES` states,
    rigorous bounds beyond; ModelErrors name the window where the chain cannot be solved."""

    def __init__(self, walk: "_Walk"):
        self.walk = walk
        self.exact = len(walk.keys) <= MAX_CASCADE_STATES
        self.prepared = None if self.exact else self._guard(cb.prepare, walk.edges)

    def many(self, rewards: list[tuple[list[Fraction], list[Fraction]]]) -> list[tuple[list, list]]:
        """``(lo, hi)`` per ``(reward_lo, reward_hi)`` (the same lists when exact); a reward given twice
        is solved once, and a zero reward not at all."""
        distinct: list = []
        for r in rewards:
            if (any(r[0]) or any(r[1])) and r not in distinct:
                distinct.append(r)
        if self.exact:  # bounds on a reward (free spins bounded) give bounds on x: P >= 0
            vectors: list = []
            for v in (v for r in distinct for v in r):
                if v not in vectors:
                    vectors.append(v)
            xs = self._guard(chain.solve_many, self.walk.edges, vectors) if vectors else []
            solved = [(xs[vectors.index(lo)], xs[vectors.index(hi)]) for lo, hi in distinct]
        else:
            solved = [self._guard(cb.bounds, self.prepared, lo, hi) for lo, hi in distinct]
        return [solved[distinct.index(r)] if (any(r[0]) or any(r[1])) else r for r in rewards]

    def cut(self, reward: list[Fraction], stop: list[bool], cap: Fraction | None = None) -> tuple[list, list]:
        """The chain with the edges of the ``stop`` states cut (a question answered on entering them)."""
        if self.exact:
            x = self._guard(chain.solve, [() if st else e for st, e in zip(stop, self.walk.edges)], reward)
            return x, x
        return self._guard(cb.bounds, self.prepared, reward, stop=stop, cap=cap)

    def _guard(self, fn, *args, **kwargs):
        model, keys = self.walk.model, self.walk.keys
        try:
            return fn(*args, **kwargs)
        except chain.ChainDiverges as exc:
            raise ModelError("cascade.refill", f"from the window {_shown(model, keys[exc.state][0])} the cascades "
                             "never end (every refill pays again), so the play has no finite return",
                             model.source) from None
        except cb.ChainTooSlow as exc:
            raise ModelError("cascade.refill", f"the cascade chain has {len(keys):,} states, more than the "
                             f"{MAX_CASCADE_STATES:,} solved exactly, and from the window "
                             f"{_shown(model, keys[exc.state][0])} the cascades end too slowly to bound within "
                             f"{cb.MAX_SWEEPS:,} steps (docs/slot_model.md, Cascades)", model.source) from None


class _Walk:
    """Every state of the chain one spin's cascades reach (on ``strips``), breadth first, with its edges,
    its pays (x ``times``, the free-spin multiplier) and where its sequence ends (the last window's scatter
    cell: ``term[s]`` cell -> probability from state ``s``; ``start_term`` cell -> stop combinations of a
    spin whose own window pays no line)."""

    def __init__(self, model: SlotModel, strips, weights, times: int):
        self.model, self.times = model, times
        cascade, bpl = model.cascade, model.bet_per_line
        win = self.win = _Window(model)
        self.code = model.scatter_code if model.scatters else None
        starts, self.cycle = _starts(model, strips, weights)
        n_start = math.prod(len(c) for c in starts)
        if n_start > MAX_START_WINDOWS:
            raise ModelError("cascade", f"the paid spin can show {n_start:,} different windows, more than the "
                             f"{MAX_START_WINDOWS:,} the cascade chain follows (docs/slot_model.md, Cascades); "
                             "use fewer distinct stops", model.source)
        refills = _refills(model)
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
                columns.append(_next_columns(model, window[r], removed, refills[r], lengths[r]))
            transitions += math.prod(len(c) for c in columns)
            if transitions > MAX_TRANSITIONS:  # before following them
                raise ModelError("cascade", f"the cascade chain has more than {MAX_TRANSITIONS:,} refill "
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
                raise ModelError("cascade", f"the cascade chain reaches more than {MAX_CASCADE_BOUND_STATES:,} "
                                 "windows, too many to follow (docs/slot_model.md, Cascades); use shorter "
                                 "ladders, fewer rows or fewer symbols on the refill strips", self.model.source)
            self.index[key] = len(self.keys)
            self.keys.append(key)
        return self.index[key]


Pair = tuple[list[Fraction], list[Fraction]]  # (lower, upper) per state, or per scatter cell


def _exact(values: list[Fraction]) -> Pair:
    return values, values


class _Stage:
    """One spin's cascade sequence as a random variable: ``X`` = its line pays (every window, ladder,
    multiplier) + ``h(last cell)``, its scatter pay; and ``J`` = ``awards[last cell]`` spins it awards.

    Every expectation is a chain of :class:`_Solver`: a quantity ``sum c(S_i) + a(last cell)`` over the
    paying windows ``S_i`` has reward ``c(s) + sum_k term[s][k] a(k)``; its product with a quantity of the
    last cell only, ``b``, has reward ``c(s) E[b | s] + sum_k term[s][k] a(k) b(k)``; its square, reward
    ``c(s)^2 + 2 c(s) (E[. | s] - c(s)) + sum_k term[s][k] a(k)^2``.
    """

    def __init__(self, walk: _Walk, awards):
        self.walk = walk
        self.solver = _Solver(walk)
        m = walk.model
        width = m.scatter_awards.width
        self.width = width
        self.h = [Fraction(m.scatter_awards.pay[k] * m.total_bet * walk.times) for k in range(width)]
        self.awards = [Fraction(awards[k]) for k in range(width)]
        self.zero = [Fraction(0)] * len(walk.keys)

    def terminal(self, a: Pair) -> Pair:
        """Per state: ``sum_k term[s][k] a(k)``, bounds kept apart."""
        return tuple([sum((p * f[k] for k, p in t.items()), Fraction(0)) for t in self.walk.term] for f in a)

    def over(self, x: Pair, a: Pair) -> tuple[Fraction, Fraction]:
        """Per spin: paying windows ``x[s]``, the others ``a(cell)``."""
        w = self.walk
        return tuple((sum((n * xs[s] for s, n in w.start.items()), Fraction(0))
                      + sum((n * f[k] for k, n in w.start_term.items()), Fraction(0))) / w.cycle
                     for xs, f in zip(x, a))

    def expect(self, pairs: list[tuple[list[Fraction], Pair]]) -> list[Pair]:
        """Per ``(c, a)``: ``E[sum c(S_i) + a(last cell) | s]`` for every state."""
        rewards = []
        for c, a in pairs:
            t_lo, t_hi = self.terminal(a)
            rewards.append(([x + y for x, y in zip(c, t_lo)], [x + y for x, y in zip(c, t_hi)]))
        return self.solver.many(rewards)

    def product(self, c: list[Fraction], a: Pair, b: Pair, beta: Pair) -> Pair:
        """``E[(sum c(S_i) + a(last)) b(last) | s]``, given ``beta = E[b(last) | s]`` (all non-negative)."""
        t = self.terminal(tuple([x * y for x, y in zip(aa, bb)] for aa, bb in zip(a, b)))
        return self.solver.many([tuple([ci * bs + ts for ci, bs, ts in zip(c, be, tt)]
                                       for be, tt in zip(beta, t))])[0]

    def square(self, c: list[Fraction], a: Pair, alpha: Pair) -> Pair:
        """``E[(sum c(S_i) + a(last))^2 | s]``, given ``alpha`` = its mean from every state."""
        t = self.terminal(tuple([x * x for x in f] for f in a))
        return self.solver.many([tuple([ci * ci + 2 * ci * (al - ci) + ts for ci, al, ts in zip(c, alph, tt)]
                                       for alph, tt in zip(alpha, t))])[0]


def _onehot(width: int, cells) -> list[Fraction]:
    return [Fraction(int(k in cells)) for k in range(width)]


def _play(model: SlotModel, base: _Stage, free: _Stage | None) -> CascadeSolution:
    """Every figure of a play: the paid spin's cascade sequence, then the free spins its last window awards.

    Every figure is a pair ``(lower, upper)`` until the end (equal when both chains are exact): each is
    a sum or product of non-negative quantities increasing in the chains' rewards, so the lower bounds
    combined give a lower bound and the upper ones an upper bound.
    """
    awards, tb = model.scatter_awards, model.total_bet
    code, width = awards.code, base.width
    bw = base.walk
    zero_cells = _exact([Fraction(0)] * width)
    h = _exact(base.h)
    trees = None
    f1 = f2 = zero_cells
    if free is not None:
        fs_moments = _free_spin(model, free)
        trees = tuple(fs.tree_moments(m) for m in fs_moments)
        f1, f2 = (tuple([fs.award_moments(int(n), t)[i] for n in base.awards] for t in trees) for i in (0, 1))

    # every first-order expectation in one solve: the parts, refills, each class's credits, where it ends
    credits, n_classes = bw.credits, bw.n_classes
    reached = _ends(bw)
    ends = [_exact(_onehot(width, {k})) for k in reached]
    solved = base.expect([(credits, zero_cells), (base.zero, h), (base.zero, f1),
                          ([Fraction(1)] * len(bw.keys), zero_cells), (credits, h)]
                         + [(bw.class_credits[c], zero_cells) for c in range(n_classes)]
                         + [(base.zero, e) for e in ends])
    lines_x, scat_x, feat_x, count_x, alpha = solved[:5]
    class_x = solved[5:5 + n_classes]
    last = {k: base.over(x, e) for k, x, e in zip(reached, solved[5 + n_classes:], ends)}

    def p_last(cells) -> tuple[Fraction, Fraction]:
        """P(the paid spin's sequence ends on one of ``cells``), bounds."""
        return tuple(sum((last[k][i] for k in reached if k in cells), Fraction(0)) for i in (0, 1))

    lines_mean, scatter_mean = base.over(lines_x, zero_cells), base.over(scat_x, h)
    feature_mean, cascades = base.over(feat_x, f1), base.over(count_x, zero_cells)
    hx = tuple([x * x for x in f] for f in h)
    second = list(base.over(base.square(credits, h, alpha), hx))
    if free is not None:  # X + F: given the last cell, F is independent of X (fresh spins)
        cross = base.over(base.product(credits, h, f1, feat_x), tuple([a * b for a, b in zip(x, y)]
                                                                    for x, y in zip(h, f1)))
        f2_mean = base.over(base.expect([(base.zero, f2)])[0], f2)
        second = [second[i] + 2 * cross[i] + f2_mean[i] for i in (0, 1)]
    mean = [lines_mean[i] + scatter_mean[i] + feature_mean[i] for i in (0, 1)]
    start_hits = sum(n for k, n in bw.start_term.items() if awards.pay[k] or awards.trigger[k])
    hit = Fraction(sum(bw.start.values()) + start_hits, bw.cycle)

    trigger_values = sorted({int(n) for n in base.awards if n})
    spins_per_play = (Fraction(0), Fraction(0))
    if free is not None:
        spins_per_play = tuple(sum((n * p_last({k for k in reached if base.awards[k] == n})[i]
                                    for n in trigger_values), Fraction(0)) * trees[i].spins for i in (0, 1))

    classes = []
    free_class = (free.expect([(free.walk.class_credits[c], _exact([Fraction(0)] * width))
                               for c in range(free.walk.n_classes)]) if free is not None else None)
    for c in range(bw.n_classes):
        paid = [bool(bw.pays[c][s]) for s in range(len(bw.keys))]
        lo, hi = base.over(base.solver.cut([Fraction(int(p)) for p in paid], paid, Fraction(1)), zero_cells)
        credits_c = list(base.over(class_x[c], zero_cells))
        free_p = None
        if free is not None:
            # not paid in the paid spin's sequence, which awards n free spins: then paid in one of them or not
            missed = [_never(base, paid, {k for k in range(width) if base.awards[k] == n}) for n in trigger_values]
            fw = free.walk
            f_paid = [bool(fw.pays[c][s]) for s in range(len(fw.keys))]
            without = {j: _never(free, f_paid, {k for k in range(width) if free.awards[k] == j})
                       for j in sorted(set(int(n) for n in free.awards))}  # P(a free spin never pays c, awards j)
            z_lo, z_hi = _no_occurrence(without)
            lo += sum((a[0] * (1 - z_hi ** n) for a, n in zip(missed, trigger_values)), Fraction(0))
            hi += sum((a[1] * (1 - z_lo ** n) for a, n in zip(missed, trigger_values)), Fraction(0))
            free_p = max(Fraction(0), 1 - sum((w[1] for w in without.values()), Fraction(0)))  # lower bound
            per_spin = free.over(free_class[c], _exact([Fraction(0)] * width))
            credits_c = [credits_c[i] + spins_per_play[i] * per_spin[i] for i in (0, 1)]
        classes.append(CascadeClass(probability=lo, first_probability=Fraction(bw.first_class.get(c, 0), bw.cycle),
                                    credits=credits_c[0], probability_upper=min(hi, Fraction(1)),
                                    credits_upper=credits_c[1], free_spin_probability=free_p))

    buckets = []
    free_last = _last(free) if free is not None else {}
    for i, lo_k, hi_k in awards.buckets:
        pay, spins, respins = awards.awards(i, lo_k)
        shows = {k for k in range(width) if k < code.cells and lo_k <= code.count(k, i) <= hi_k}
        in_base = shows if (pay or spins) else set()
        p_lo, p_hi = p_last(in_base)
        first = p_lo
        credits_b = [pay * tb * p_lo, pay * tb * p_hi]
        free_p = None
        if free is not None:
            in_free = shows if (pay or respins) else set()
            without: dict[int, tuple[Fraction, Fraction]] = {}
            for k, pk in free_last.items():
                if k not in in_free:
                    j = int(free.awards[k])
                    got = without.get(j, (Fraction(0), Fraction(0)))
                    without[j] = (got[0] + pk[0], got[1] + pk[1])
            z_lo, z_hi = _no_occurrence(without)
            for n in trigger_values:
                a = p_last({k for k in reached if base.awards[k] == n and k not in in_base})
                p_lo += a[0] * (1 - z_hi ** n)
                p_hi += a[1] * (1 - z_lo ** n)
            free_p = sum((pk[0] for k, pk in free_last.items() if k in in_free), Fraction(0))
            f_shows = [sum((pk[i] for k, pk in free_last.items() if k in shows), Fraction(0)) for i in (0, 1)]
            credits_b = [credits_b[i] + spins_per_play[i] * pay * tb * free.walk.times * f_shows[i] for i in (0, 1)]
        buckets.append(CascadeClass(probability=p_lo, first_probability=first, credits=credits_b[0],
                                    probability_upper=min(p_hi, Fraction(1)), credits_upper=credits_b[1],
                                    free_spin_probability=free_p))

    exact = base.solver.exact and (free is None or free.solver.exact)
    free_figures = None
    if free is not None and exact:
        p_trigger = p_last({k for k in reached if base.awards[k]})[0]
        free_figures = CascadeFree(trigger_probability=p_trigger, retrigger_per_spin=fs_moments[0].ej,
                                   spins_per_play=spins_per_play[0], win_per_spin=fs_moments[0].ew,
                                   states=len(free.walk.keys))
    return CascadeSolution(
        mean=mean[0], second=second[0], first_mean=bw.first_mean, hit=hit, cascades=cascades[0],
        classes=tuple(classes), states=len(bw.keys), cycle=bw.cycle, exact=exact,
        mean_upper=None if exact else mean[1], second_upper=None if exact else second[1],
        cascades_upper=None if exact else cascades[1], scatter_mean=scatter_mean[0], scatter_upper=scatter_mean[1],
        feature_mean=feature_mean[0], feature_upper=feature_mean[1], buckets=tuple(buckets), free=free_figures,
        free_states=0 if free is None else len(free.walk.keys))


def _never(stage: _Stage, paid: list[bool], cells: set[int]) -> tuple[Fraction, Fraction]:
    """Bounds on P(a spin's sequence never pays the class paid in the states ``paid``, and ends on one
    of ``cells``)."""
    ends = _exact(_onehot(stage.width, cells))
    reward = [Fraction(0) if p else t for p, t in zip(paid, stage.terminal(ends)[0])]
    return stage.over(stage.solver.cut(reward, paid, Fraction(1)), ends)


def _ends(walk: _Walk) -> list[int]:
    """The scatter cells a spin's sequence can end on."""
    return sorted(set(walk.start_term) | {k for t in walk.term for k in t})


def _last(stage: _Stage) -> dict[int, tuple[Fraction, Fraction]]:
    """Per scatter cell a spin's sequence can end on: bounds on the probability that it does."""
    reached = _ends(stage.walk)
    ends = [_exact(_onehot(stage.width, {k})) for k in reached]
    xs = stage.expect([(stage.zero, e) for e in ends])
    return {k: stage.over(x, e) for k, x, e in zip(reached, xs, ends)}


def _free_spin(model: SlotModel, free: _Stage) -> tuple[fs.SpinMoments, fs.SpinMoments]:
    """Bounds on the moments of one free spin (a whole cascade sequence): win ``W`` and spins awarded
    ``J``, as the moments' lower and upper bounds (equal when the free spins' chain is exact).

    Raises
    ------
    ModelError
        If each free spin awards one or more further free spins on average (or, bounded, may do so).
    """
    fw = free.walk
    h, j = _exact(free.h), _exact(free.awards)
    jj = _exact([a * (a - 1) for a in free.awards])
    x, jx, jjx = free.expect([(fw.credits, h), (free.zero, j), (free.zero, jj)])
    hh = _exact([a * a for a in free.h])
    hj = _exact([a * b for a, b in zip(free.h, free.awards)])
    ew, ew2 = free.over(x, h), free.over(free.square(fw.credits, h, x), hh)
    ewj, ej, ejj1 = free.over(free.product(fw.credits, h, j, jx), hj), free.over(jx, j), free.over(jjx, jj)
    moments = tuple(fs.SpinMoments(ew=ew[i], ew2=ew2[i], ewj=ewj[i], ej=ej[i], ejj1=ejj1[i]) for i in (0, 1))
    m_lo, m_hi = ej
    if m_lo >= 1:
        raise ModelError("free_spins.retrigger", f"each free spin (a whole cascade sequence) awards on average "
                         f"{'at least ' if m_hi != m_lo else ''}{m_lo} = {float(m_lo):.6g} further free spins "
                         "(>= 1), so the expected number of free spins is infinite; lower the retrigger awards or "
                         "the scatters on the feature or refill strips", model.source)
    if m_hi >= 1:
        raise ModelError("free_spins.retrigger", f"each free spin (a whole cascade sequence) awards on average "
                         f"between {float(m_lo):.6g} and {float(m_hi):.6g} further free spins (rigorous bounds of "
                         f"a chain of {len(fw.keys):,} states): so close to 1 that the expected number of free "
                         "spins cannot be bounded (docs/slot_model.md, Cascade bounds)", model.source)
    return moments


def _no_occurrence(without: dict[int, tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    """Bounds on P(an outcome never shows in the tree of one free spin), from bounds on
    ``without[j]`` = P(not in the spin, and it awards ``j`` spins).

    The probability is the smallest fixed point of ``z = sum_j without[j] z^j``
    (:func:`harness.slot.feature.no_occurrence_bracket`), which increases with every ``without[j]``:
    the lower bounds give a lower bound, the upper ones an upper bound (1 if they sum to 1 or more).
    """
    def bracket(side: int) -> tuple[Fraction, Fraction]:
        weights = {j: p[side] for j, p in without.items()}
        if sum(weights.values(), Fraction(0)) >= 1:  # only an upper bound can sum to 1 or more
            return Fraction(1), Fraction(1)
        den = math.lcm(*(p.denominator for p in weights.values())) if weights else 1
        return fs.no_occurrence_bracket({j: int(p * den) for j, p in weights.items()}, den)

    lower = bracket(0)
    if all(lo == hi for lo, hi in without.values()):
        return lower
    return lower[0], bracket(1)[1]

def _shown(model: SlotModel, window: tuple) -> str:
    names = model.symbol_names
    return " / ".join(" ".join(names[x] for x in col) for col in window)
