"""A ways game's paid-spin figures by dynamic programming over the reels, never window by window.

The rule is :mod:`harness.slot.ways_rule`'s (``docs/slot_model.md``, "Ways
to win"): per paying symbol, the run of reels from reel 1 showing it (or a
wild for it), the longest listed count ``k`` within the run, and the sum
over its ways of each way's multiplier, a product over reels ``1 .. k`` of
per-column factors (:meth:`~harness.slot.ways_rule.WaysRule.factor`).  The
reels are independent, so every figure is a sum over the reels' distinct
columns (at every height they can draw) with their exact integer weights,
read left to right:

* **One symbol's reading as states.**  While the run goes on, a symbol is
  *alive* with two accumulators, both linear in the columns' factors: the
  ways value over the reels read so far (``run``) and over the reels up to
  the last listed count reached (``snap``, what is paid if the run ended
  now); and whether ``S`` itself showed in each.  A column without a
  matching cell, or the last reel, ends it: it pays ``pay(S, k) x
  value(snap)`` (:meth:`~harness.slot.ways_rule.WaysRule.value`) if ``S``
  showed in those reels, else nothing.  The accumulators are linear, so the
  programme carries their sums (component by component) per state.
* **Mean, by scatter cell and progressive.**  Per symbol: the state, the
  scatter cell (:class:`~harness.slot.model.ScatterCode`) and the
  progressive's own small reading, so the line pay per cell (free spins and
  scatter-started features depend on the cell) and the cross term
  ``E[lines x scatters]`` are exact.
* **Second moment.**  ``E[L^2] = sum over ordered pairs (S, T) of
  E[pay_S pay_T]``: the same states for two symbols at once, carrying the
  products of their accumulators.  Only the total is needed (every user
  sums it over the cells); it is given at cell 0 without the progressive.
* **Counts.**  Whether a symbol pays, and which count, depends only on
  whether each column matches and shows ``S``: per class and cell, the
  spins paying it; and, with the set of symbols whose pay is still open,
  the spins on which no symbol pays and the progressive is not won (read
  both ways: per symbol a truth table over the reels still to come,
  :mod:`harness.slot.ways_both`, as a run from the right stays open on
  every reel).

The programme is refused (exit 2) if at some reel it would follow more
than :data:`~harness.slot.limits.MAX_WAYS_STATES` states; it never samples.
"""
from __future__ import annotations

import dataclasses
import math
from collections import defaultdict

from harness.slot.errors import BeyondExact, ModelError
from harness.slot.joint import JointMoments
from harness.slot.lines import line_classes
from harness.slot.limits import MAX_WAYS_STATES
from harness.slot.model import SlotModel
from harness.slot.reelset import EMPTY
from harness.slot.stage import Stage
from harness.slot.window import WindowFigures
from harness.slot import ways_both
from harness.slot.ways_rule import SymbolWays, WaysRule

# A symbol's state: ("a", S shown in snap, S shown in run) while its run goes on, ("d", count paid or 0) after.
_START = ("a", False, False)
# The no-win programme refuses before a reel whose work (open sets x column patterns) would pass
# MAX_WAYS_STATES x this (about a minute of Python), rather than after it.
_PATTERNS_PER_STATE = 64


@dataclasses.dataclass(frozen=True)
class WaysFigures:
    """Sums over the cycle of one paid spin of a ways game (line pays in bets per way).

    ``count[k][p]``, ``line_sum[k][p]``: spins and their line pay with scatter cell ``k`` and
    progressive ``p``; ``line_sq``: the sum of the squared line pay; ``no_line_win[k]``: spins with
    no line pay and no progressive; ``class_paid[c][k]``: spins paying line class ``c``;
    ``class_pay[c]``: what class ``c`` pays in all.
    """

    cycle: int
    count: list[list[int]]
    line_sum: list[list[int]]
    line_sq: int
    no_line_win: list[int]
    class_paid: list[list[int]]
    class_pay: list[int]

    def joint(self) -> JointMoments:
        """The figures as a stage's :class:`~harness.slot.joint.JointMoments` (``line_sq`` whole at cell 0)."""
        sq = [[0, 0] for _ in self.count]
        sq[0][0] = self.line_sq
        return JointMoments(cycle=self.cycle, count=self.count, line_sum=self.line_sum, line_sq=sq,
                            no_line_win=self.no_line_win, class_scatter=self.class_paid, engine="python")


def _unit(i: int, a: int) -> tuple[int, ...]:
    return tuple(int(j == i) for j in range(a))


class _Reading:
    """One reading of one symbol (left to right, or right to left) as states and sparse linear moves.

    :meth:`successors` gives, for a state after ``n`` reels and a column's
    ``info`` = ``(factor, S shown)``, every ``(next state, map)``; a map lists
    per source component its ``(destination, coefficient)`` pairs.  A state
    ``("d", k)`` has ended with count ``k`` paid (its one component is the
    pay); a move that pays nothing is left out.  Moves are cached.
    """

    def __init__(self, rule: WaysRule, s: SymbolWays, reels: int):
        self.rule, self.s, self.reels = rule, s, reels
        self.width = len(rule.start)
        self._cache: dict = {}
        self._matrices: dict = {}
        a = self.width
        self._value = [rule.value(_unit(i, a)) for i in range(a)]

    def matrix(self, f: tuple[int, ...]) -> list[list[tuple[int, int]]]:
        """The rule's step as a sparse matrix: row ``i`` is ``step(unit i, f)``."""
        got = self._matrices.get(f)
        if got is None:
            got = self._matrices[f] = [[(j, c) for j, c in enumerate(self.rule.step(_unit(i, self.width), f)) if c]
                                       for i in range(self.width)]
        return got

    def pay_map(self, k: int) -> dict[int, list[tuple[int, int]]]:
        """The accumulator's components -> the pay of count ``k`` (its value times the pay)."""
        pay = self.s.pays[k]
        return {i: [(0, pay * v)] for i, v in enumerate(self._value) if v}

    def successors(self, state, n: int, info):
        key = (state, n, info)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = (((state, {0: [(0, 1)]}),) if state[0] == "d"
                                      else tuple(self._moves(state, n, info)))
        return got


class _Left(_Reading):
    """Left to right: alive ``("a", S in snap, S in run)`` with accumulators ``snap`` then ``run``."""

    state = _START

    @property
    def start(self) -> tuple[int, ...]:
        return tuple(self.rule.start) * 2

    def _end(self, state, n: int):
        k = self.s.paid(n) if state[1] else 0
        return [] if not k else [(("d", k), self.pay_map(k))]

    def _moves(self, state, n: int, info):
        f, own = info
        if not f[0]:
            return self._end(state, n)
        _, own_snap, own_run = state
        a = self.width
        m = self.matrix(f)
        n += 1
        own_run = own_run or own
        listed = n in self.s.pays
        if listed:
            own_snap = own_run
        moves = {} if listed else {i: [(i, 1)] for i in range(a)}  # snap: kept, or replaced by the new run
        for i in range(a):
            moves[a + i] = [(a + j, c) for j, c in m[i]] + ([(j, c) for j, c in m[i]] if listed else [])
        nxt = ("a", own_snap, own_run)
        if n == self.reels:
            return [(st, _compose(moves, mp)) for st, mp in self._end(nxt, n)]
        return [(nxt, {i: d for i, d in moves.items() if d})]

    def after(self, state, n: int, matches: bool, own: bool):
        """The state alone (counts): only whether the column matches and shows ``S`` matter."""
        f = (1,) * self.width if matches else (0,) * self.width
        got = self.successors(state, n, (f, own))
        return got[0][0] if got else ("d", 0)


class _Right(_Reading):
    """Right to left, read from reel 1 on by guessing where its paid block starts (moments only).

    ``("p", q)``: before the block, ``q`` the last reel without a matching
    cell (0: none); ``("b", k)``: inside the block of the last ``k`` reels,
    with its accumulator.  The block of the last ``k`` reels is the one paid
    when ``k`` is listed, ``k`` is not every reel (a full-width combination
    is paid once, from the left) and the run from the right stops before the
    next listed count, i.e. the last reel without a match is past
    ``reels - next``.  One guess at most is right on any window; a wrong one
    dies, and the state that never starts pays nothing.
    """

    state = ("p", 0)
    start = (1,)

    def _moves(self, state, n: int, info):
        f, _ = info
        j, last = n + 1, n + 1 == self.reels
        if state[0] == "b":
            if not f[0]:
                return []
            m = self.matrix(f)
            moves = {i: d for i, d in enumerate(m) if d}
            return ([(("d", state[1]), _compose(moves.items(), self.pay_map(state[1])))] if last
                    else [(state, moves)])
        q = state[1]
        if not f[0]:
            return [] if last else [(("p", j), {0: [(0, 1)]})]
        out = [] if last else [(state, {0: [(0, 1)]})]
        k = self.reels - j + 1
        if k in self.s.pays and k < self.reels:
            above = [c for c in self.s.pays if c > k]
            if not above or q > self.reels - min(above):
                first = {0: [(i, c) for i, c in enumerate(self.rule.step(self.rule.start, f)) if c]}
                if last:
                    out.append((("d", k), _compose(first.items(), self.pay_map(k))))
                else:
                    out.append((("b", k), first))
        return out


def _right_count(s: SymbolWays, state, matches: bool, own: bool):
    """Right to left, counts only: ``(m, d)``, the run of matching reels ending here and the reels
    since ``S`` last showed in it (None: not in it)."""
    m, d = state
    if not matches:
        return (0, None)
    top = max(s.pays)  # a longer run pays as this one; S seen further back can never count
    d = 0 if own else (None if d is None or d + 1 >= top else d + 1)
    return (min(m + 1, top), d)


def _right_paid(s: SymbolWays, state, reels: int) -> int:
    """The count a right-to-left reading ending in ``state`` pays (0: none)."""
    m, d = state
    k = s.paid(m)
    return k if k and k < reels and d is not None and d < k else 0


def _compose(first, second: dict):
    """The sparse map ``second`` after ``first`` (``first``: (source, destinations) pairs)."""
    out = {}
    for i, dst in (first.items() if isinstance(first, dict) else first):
        acc: dict[int, int] = defaultdict(int)
        for j, c in dst:
            for k, c2 in second.get(j, ()):
                acc[k] += c * c2
        kept = [(k, c) for k, c in acc.items() if c]
        if kept:
            out[i] = kept
    return out


class _Progressive:
    """The progressive on a way as states: ("a",) while reels 1..count match, then 0 or 1."""

    def __init__(self, rule: WaysRule):
        self.prog = rule.progressive
        self.start = ("a",) if self.prog is not None else 0

    def info(self, col) -> bool:
        if self.prog is None:
            return False
        symbol, wilds, _ = self.prog
        return symbol in col or any(x in wilds for x in col)

    def move(self, state, n: int, match: bool):
        if not isinstance(state, tuple):
            return state
        if not match:
            return 0
        return 1 if n + 1 == self.prog[2] else state


def _limit(model: SlotModel, count: int, what: str) -> None:
    if count > MAX_WAYS_STATES:
        raise BeyondExact("reels", f"the ways programme would follow more than {MAX_WAYS_STATES:,} {what} at one reel "
                         "(docs/slot_model.md, Large ways games); use fewer symbols or shorter strips",
                         model.source)


def _final_p(state) -> int:
    return state if not isinstance(state, tuple) else 0


def spin_figures(model: SlotModel, columns: list[dict[tuple[tuple[int, ...], int], int]], *,
                 with_progressive: bool = True) -> WaysFigures:
    """The paid spin's sums from each reel's distinct columns (see the module docstring).

    Parameters
    ----------
    columns : list of dict
        Per reel: ``(column shown, top row first, any height; its scatter cell)`` -> weight.
    with_progressive : bool
        Whether the progressive on a way is followed (free spins do not award it).

    Raises
    ------
    ModelError
        If the programme would follow more than :data:`MAX_WAYS_STATES` states at one reel.
    """
    rule = WaysRule.of(model, with_progressive=with_progressive)
    lefts = [_Left(rule, s, model.reels) for s in rule.symbols]
    readings: list[tuple[int, _Reading]] = [(x, r) for x, r in enumerate(lefts)]
    if model.both_ways:
        readings += [(x, _Right(rule, s, model.reels)) for x, s in enumerate(rule.symbols)]
    prog = _Progressive(rule)
    width = max(model.scatter_awards.width, sum(max(c for _, c in reel) for reel in columns) + 1)
    n_classes = len(line_classes(model))
    # per reel: (weight, cell, progressive info, per symbol (factor, S shown)) of each column
    reels = [[(w, cell, prog.info(col), tuple((rule.factor(s, col), s.symbol in col) for s in rule.symbols))
              for (col, cell), w in reel.items()] for reel in columns]
    totals = [sum(w for w, *_ in reel) for reel in reels]
    count = [[0, 0] for _ in range(width)]
    line_sum = [[0, 0] for _ in range(width)]
    class_pay = [0] * n_classes

    # spins by (progressive state, cell): the count, and the pay of the readings already ended
    pool: dict = {(prog.start, 0): [1, 0]}
    mass = [{(rd.state, i, prog.start, 0): v for i, v in enumerate(rd.start) if v} for _, rd in readings]
    for r, reel in enumerate(reels):
        new_pool: dict = defaultdict(lambda: [0, 0])
        for (pst, k), (n, s1) in pool.items():
            for w, cell, pinfo, _ in reel:
                t = new_pool[(prog.move(pst, r, pinfo), k + cell)]
                t[0] += n * w
                t[1] += s1 * w
        suffix = math.prod(totals[r + 1:])
        by_symbol: dict = {}  # per symbol, the reel's columns by what a reading of it sees
        for e, (x, rd) in enumerate(readings):
            seen = by_symbol.get(x)
            if seen is None:
                seen = by_symbol[x] = defaultdict(int)
                for w, cell, pinfo, infos in reel:
                    seen[(cell, pinfo, infos[x])] += w
            nxt: dict = defaultdict(int)
            for (st, i, pst, k), v in mass[e].items():
                for (cell, pinfo, info), w in seen.items():
                    pst2 = prog.move(pst, r, pinfo)
                    for st2, moves in rd.successors(st, r, info):
                        for j, c in moves.get(i, ()):
                            if st2[0] == "d":  # ended: its pay joins the pool, and its class's total
                                pay = v * w * c
                                new_pool[(pst2, k + cell)][1] += pay
                                class_pay[rd.s.classes[st2[1]]] += pay * suffix
                            else:
                                nxt[(st2, j, pst2, k + cell)] += v * w * c
            mass[e] = nxt
            _limit(model, len(nxt), "(state, scatter cell) entries")
        pool = new_pool
    for (pst, k), (n, s1) in pool.items():
        p = _final_p(pst)
        count[k][p] += n
        line_sum[k][p] += s1
    return WaysFigures(cycle=math.prod(totals), count=count, line_sum=line_sum,
                       line_sq=_second_moment(model, readings, reels, totals),
                       no_line_win=(_no_line_win_both(model, rule, reels, width) if model.both_ways
                                    else _no_line_win(model, rule, lefts, prog, reels, width)),
                       class_paid=_class_paid(model, lefts, reels, width, n_classes), class_pay=class_pay)


def _second_moment(model: SlotModel, readings, reels, totals) -> int:
    """Sum over the cycle of the squared line pay: every ordered pair of readings (``a < b`` twice)."""
    total = 0
    for e, (x, a) in enumerate(readings):
        for y, b in readings[e:]:
            twice = 1 if b is a else 2
            mass = {(a.state, i, b.state, j): u * v for i, u in enumerate(a.start) if u
                    for j, v in enumerate(b.start) if v}
            for r, reel in enumerate(reels):
                groups: dict = defaultdict(int)
                for w, _, _, infos in reel:
                    groups[(infos[x], infos[y])] += w
                nxt: dict = defaultdict(int)
                suffix = math.prod(totals[r + 1:])
                for (sa, i, sb, j), v in mass.items():
                    for (ia, ib), w in groups.items():
                        for sa2, ma in a.successors(sa, r, ia):
                            da = ma.get(i)
                            if not da:
                                continue
                            for sb2, mb in b.successors(sb, r, ib):
                                db = mb.get(j)
                                if not db:
                                    continue
                                done = sa2[0] == "d" and sb2[0] == "d"
                                for i2, ca in da:
                                    for j2, cb in db:
                                        if done:
                                            total += twice * v * w * ca * cb * suffix
                                        else:
                                            nxt[(sa2, i2, sb2, j2)] += v * w * ca * cb
                mass = nxt
                _limit(model, len(nxt), "pairs of states")
    return total


def _reel_patterns(reel):
    """A reel's columns by (cell, progressive info, per symbol (matches, shows S)): weight."""
    groups: dict = defaultdict(int)
    for w, cell, pinfo, infos in reel:
        groups[(cell, pinfo, tuple((f[0] > 0, own) for f, own in infos))] += w
    return groups


def _class_paid(model: SlotModel, lefts: list[_Left], reels, width: int, n_classes: int) -> list[list[int]]:
    """``[c][k]``: spins with scatter cell ``k`` paying line class ``c`` (from either end, both ways)."""
    out = [[0] * width for _ in range(n_classes)]
    both, R = model.both_ways, model.reels
    patterns = [_reel_patterns(reel) for reel in reels]
    for x, left in enumerate(lefts):
        mass: dict = {(left.state, (0, None), 0): 1}
        for r, reel in enumerate(reels):
            nxt: dict = defaultdict(int)
            seen: dict = defaultdict(int)  # the reel's columns by what symbol x's readings see
            for (cell, _, pattern), w in patterns[r].items():
                seen[(cell, pattern[x])] += w
            for (cell, (matches, own)), w in seen.items():
                for (st, rt, k), v in mass.items():
                    st2 = left.after(st, r, matches, own) if st[0] != "d" else st
                    rt2 = _right_count(left.s, rt, matches, own) if both else rt
                    nxt[(st2, rt2, k + cell)] += v * w
            mass = nxt
        for (st, rt, k), v in mass.items():
            paid = {left.s.classes[st[1]]} if st[1] else set()
            kr = _right_paid(left.s, rt, R) if both else 0
            if kr:
                paid.add(left.s.classes[kr])
            for c in paid:
                out[c][k] += v
    return out


def _no_line_win(model: SlotModel, rule: WaysRule, lefts: list[_Left], prog: _Progressive, reels,
                 width: int) -> list[int]:
    """``[k]``: spins with scatter cell ``k`` on which no symbol pays and the progressive is not won (one way).

    The state is, per symbol, its left-to-right state while its pay is still
    open (alive and not yet sure to pay; None once it ended unpaid), with the
    progressive's state and the cell; a spin on which some symbol is sure to
    pay is dropped.  Both ways: :func:`harness.slot.ways_both.no_line_win`.
    """
    out = [0] * width
    start = tuple(left.state for left in lefts)
    mass: dict = {(start, prog.start, 0): 1}
    for r, reel in enumerate(reels):
        nxt: dict = defaultdict(int)
        patterns = _reel_patterns(reel)
        _limit(model, len(mass) * len(patterns) // _PATTERNS_PER_STATE, "sets of open symbols")  # refuse early
        seen: dict = {}  # per set of open symbols, the reel's columns by what those symbols see
        for (states, pst, k), v in mass.items():
            alive = tuple(x for x, st in enumerate(states) if st is not None)
            got = seen.get(alive)
            if got is None:
                got = seen[alive] = defaultdict(int)
                for (cell, pinfo, pattern), w in patterns.items():
                    got[(cell, pinfo, tuple(pattern[x] for x in alive))] += w
            for (cell, pinfo, shown), w in got.items():
                pst2 = prog.move(pst, r, pinfo)
                if pst2 == 1:
                    continue
                after = list(states)
                for x, (matches, own) in zip(alive, shown):
                    st = lefts[x].after(states[x], r, matches, own)
                    if st[0] == "d":
                        if st[1]:
                            break
                        st = None
                    elif st[1] and lefts[x].s.paid(r + 1):  # S shown within the paid reels: sure to pay
                        break
                    after[x] = st
                else:
                    nxt[(tuple(after), pst2, k + cell)] += v * w
        mass = nxt
        _limit(model, len(nxt), "sets of open symbols")
    for (_, _, k), v in mass.items():
        out[k] += v
    return out


def _no_line_win_both(model: SlotModel, rule: WaysRule, reels, width: int) -> list[int]:
    """``[k]``: spins with scatter cell ``k`` paying no symbol from either end (a both-ways game has no
    progressive): each reel's columns by their categories, to :func:`harness.slot.ways_both.no_line_win`."""
    patterns = []
    for reel in reels:
        grouped: dict = defaultdict(int)
        for (cell, _, pattern), w in _reel_patterns(reel).items():
            grouped[(cell, tuple(ways_both.category(m, own) for m, own in pattern))] += w
        patterns.append(dict(grouped))
    return ways_both.no_line_win(rule.symbols, patterns, width, model.source)


def solve(model: SlotModel, columns: list[dict[tuple[int, ...], int]], windows: int) -> WindowFigures:
    """The paid spin's figures (credits) from each reel's distinct columns and weights, for the
    window-by-window analyses' callers (reel heights); ``windows`` is reported, never listed."""
    code = model.scatter_code
    keyed = [{(col, sum(col.count(x) * place for x, place in zip(code.symbols, code.place))): w
              for col, w in reel.items()} for reel in columns]
    f = spin_figures(model, keyed, with_progressive=False)
    return window_figures(model, f, windows)


def window_figures(model: SlotModel, f: WaysFigures, windows: int) -> WindowFigures:
    """:class:`~harness.slot.window.WindowFigures` (credits) of a ways game's paid spin from its sums."""
    awards = model.scatter_awards
    code = awards.code
    bpl, tb = model.bet_per_line, model.total_bet
    cells = [sum(row) for row in f.count]
    scatter_pay = [awards.pay[k] * tb if k < len(awards.pay) else 0 for k in range(len(cells))]
    lines = [sum(row) * bpl for row in f.line_sum]
    lines_total = sum(lines)
    cross = sum(s * scatter_pay[k] for k, s in enumerate(lines))
    scatter_total = sum(n * scatter_pay[k] for k, n in enumerate(cells))
    scatter_sq = sum(n * scatter_pay[k] ** 2 for k, n in enumerate(cells))
    bucket_paid = tuple(sum(n for k, n in enumerate(cells) if lo <= code.count(k, i) <= hi)
                        if awards.awards(i, lo)[0] else 0 for i, lo, hi in awards.buckets)
    return WindowFigures(cycle=f.cycle, line_credits_total=lines_total, scatter_credits_total=scatter_total,
                         win_sum=lines_total + scatter_total, win_sq=f.line_sq * bpl * bpl + 2 * cross + scatter_sq,
                         no_win=sum(z for k, z in enumerate(f.no_line_win) if not scatter_pay[k]),
                         line_paid=tuple(sum(row) for row in f.class_paid),
                         line_credits=tuple(p * bpl for p in f.class_pay), bucket_paid=bucket_paid, windows=windows)


def reel_columns(reels) -> list[dict[tuple[tuple[int, ...], int], int]]:
    """Per reel of a :class:`~harness.slot.reelset.ReelSet`: ``(column shown, scatter cell)`` -> stops."""
    out = []
    for window, cells in zip(reels.windows, reels.scatters):
        reel: dict = defaultdict(int)
        for col, cell in zip(window.tolist(), cells.tolist()):
            reel[(tuple(x for x in col if x != EMPTY), cell)] += 1  # a reel drawn short: the rows it shows
        out.append(dict(reel))
    return out


@dataclasses.dataclass(frozen=True)
class WaysClasses:
    """What a ways stage has in place of a payline automaton: its line classes (the combinations)."""

    classes: tuple


def build_stage(model: SlotModel, reels, *, with_progressive: bool, multiplier: int = 1) -> Stage:
    """A ways game's stage (:class:`~harness.slot.stage.Stage`), its joint figures already summed.

    Its ``joint`` holds the programme's sums (:meth:`WaysFigures.joint`: the squared line pay whole at
    cell 0); there is no per-way figure (``class_line_weights`` is empty: a way is not a payline).
    """
    f = spin_figures(model, reel_columns(reels), with_progressive=with_progressive)
    stage = Stage(reels=reels, automaton=WaysClasses(line_classes(model)), final_weights={},
                  line_pay_weight=sum(map(sum, f.line_sum)), class_line_weights=[], class_pay_weights=f.class_pay,
                  multiplier=multiplier, joint=f.joint())
    stage.joint.check()
    return stage


def _apply(moves: dict[int, list[tuple[int, int]]], vec: tuple[int, ...]) -> tuple[int, ...]:
    """A sparse map applied to one window's own accumulator (the sums' moves, on concrete values)."""
    out: dict[int, int] = defaultdict(int)
    for i, dst in moves.items():
        if i < len(vec) and vec[i]:  # a value of 0 left off the end is 0
            for j, c in dst:
                out[j] += vec[i] * c
    return tuple(out.get(j, 0) for j in range(max(out, default=-1) + 1))


def pay_distribution(model: SlotModel, columns: list[dict[tuple[tuple[int, ...], int], int]],
                     top: int) -> dict[tuple[int, int], dict[int, int]]:
    """``(cell, progressive flag) -> {min(ways pay, top): spins}`` over the cycle, for the award cap.

    The same readings as :func:`spin_figures`, each carrying the window's own
    accumulator values instead of their sums: the state is the pay of the
    symbols already ended (kept as ``top`` once it reaches it: such a spin
    reaches the cap whatever else it wins) and each running symbol's state and
    values, with the progressive's state and the cell.

    Raises
    ------
    ModelError
        If the programme would follow more than :data:`MAX_WAYS_STATES` states at one reel.
    """
    rule = WaysRule.of(model)
    lefts = [_Left(rule, s, model.reels) for s in rule.symbols]
    prog = _Progressive(rule)
    reels = [[(w, cell, prog.info(col), tuple((rule.factor(s, col), s.symbol in col) for s in rule.symbols))
              for (col, cell), w in reel.items()] for reel in columns]
    start = tuple((x, left.state, left.start) for x, left in enumerate(lefts))
    mass: dict = {(start, 0, prog.start, 0): 1}
    for r, reel in enumerate(reels):
        nxt: dict = defaultdict(int)
        for (running, paid, pst, k), v in mass.items():
            for w, cell, pinfo, infos in reel:
                total, still = paid, []
                for x, st, vec in running:
                    for st2, moves in lefts[x].successors(st, r, infos[x]):  # none: ended unpaid
                        got = _apply(moves, vec)
                        if st2[0] == "d":
                            total += got[0] if got else 0
                        else:
                            still.append((x, st2, got))
                if total >= top:
                    total, still = top, []
                nxt[(tuple(still), total, prog.move(pst, r, pinfo), k + cell)] += v * w
        mass = nxt
        _limit(model, len(mass), "capped (pay, running symbols) states")
    out: dict[tuple[int, int], dict[int, int]] = {}
    for (_, paid, pst, k), v in mass.items():
        row = out.setdefault((k, _final_p(pst)), {})
        row[paid] = row.get(paid, 0) + v
    return out
