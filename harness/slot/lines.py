"""How one payline is paid, as a finite automaton read reel by reel.

The rule (``docs/slot_model.md``, "Line pays"): on a payline showing
``x1 .. xR`` (reel 1 first), a regular symbol ``S`` has the run
``run(S)`` = the largest ``n`` such that each of ``x1 .. xn`` is ``S`` or a
wild that substitutes for ``S``; a paying wild ``W`` has the run of
consecutive ``W`` from reel 1.  The line shows every combination
``k × S`` with ``k <= run(S)`` and a pay listed for ``k``, each worth its
pay times its *multiplier* (that of the wilds among its ``k`` symbols,
:meth:`~harness.slot.model.SlotModel.combination_multiplier`; 1 without
multiplier wilds); it is paid the single highest of them.  Ties go to the
longer combination, then to the symbol listed first.  Scatters never form
line combinations.

Reading the symbols left to right, what still matters after ``r`` reels is
small: which candidates (symbols whose run is still unbroken) are alive, the
best combination already shown, the multiplier of the symbols read so far
(the same for every candidate still alive: they all read them), and (for
the progressive) whether its combination is still possible or already
shown.  That is the automaton state.
A state with nothing left alive is *done*: its pay and winning class are
final and it absorbs every further symbol.  After the last reel every state
is done.  Both the exact analysis and the simulation kernel read a payline
through this one table, so they cannot disagree about the rule.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from harness.slot.model import SlotModel


@dataclasses.dataclass(frozen=True)
class LineClass:
    """A line combination that can be paid: ``count × symbol`` (indices)."""

    symbol: int
    count: int
    pay: int  # multiple of the bet per line


@dataclasses.dataclass(frozen=True)
class LineAutomaton:
    """Transition table of the payline automaton.

    Attributes
    ----------
    delta : numpy.ndarray
        ``int32[n_states, n_symbols]``: next state; state 0 is the start.
    done : numpy.ndarray
        ``uint8[n_states]``: 1 if the line's result is final.
    pay : numpy.ndarray
        ``int64[n_states]``: pay of a done state (multiple of the bet per line,
        wild multipliers included).
    cls : numpy.ndarray
        ``int16[n_states]``: index into ``classes`` of the paid combination of
        a done state, -1 for no pay.
    prog : numpy.ndarray
        ``uint8[n_states]``: 1 if the progressive combination was shown.
    classes : tuple[LineClass, ...]
        Every combination with a listed pay, in symbol order then count.
    """

    delta: np.ndarray
    done: np.ndarray
    pay: np.ndarray
    cls: np.ndarray
    prog: np.ndarray
    classes: tuple[LineClass, ...]

    @property
    def n_states(self) -> int:
        return int(self.delta.shape[0])

    def evaluate(self, symbols) -> tuple[int, int, bool]:
        """(pay, class index or -1, progressive shown) of one payline."""
        state = 0
        for x in symbols:
            state = int(self.delta[state, x])
        if not self.done[state]:
            raise AssertionError("line automaton not done after the last reel")
        return int(self.pay[state]), int(self.cls[state]), bool(self.prog[state])


def line_classes(model: SlotModel) -> tuple[LineClass, ...]:
    """Every line combination with a pay, in the order symbols are listed."""
    out = []
    for i, sym in enumerate(model.symbols):
        if sym.kind == "scatter":
            continue
        for count, pay in sym.pays.items():
            out.append(LineClass(symbol=i, count=count, pay=pay))
    return tuple(out)


def build_line_automaton(model: SlotModel, *, with_progressive: bool) -> LineAutomaton:
    """Build the payline automaton of ``model``.

    ``with_progressive=False`` ignores the progressive combination (free
    spins do not award the progressive).
    """
    builder = _Builder(model, _candidates(model), _ProgressiveRun.of(model, with_progressive))
    builder.explore()
    return builder.table(line_classes(model))


@dataclasses.dataclass(frozen=True)
class _Candidate:
    """A symbol whose run may still pay: the symbols that continue it, and its pays."""

    symbol: int
    accepts: frozenset[int]
    pays: dict[int, int]
    best_future: dict[int, int]  # r -> best pay still listed for a run longer than r


def _wilds_for(model: SlotModel, name: str) -> set[int]:
    return {j for j, w in enumerate(model.symbols) if w.kind == "wild" and name in w.substitutes}


def _candidates(model: SlotModel) -> list[_Candidate]:
    out = []
    for i, sym in enumerate(model.symbols):
        if not sym.pays or sym.kind == "scatter":
            continue
        # A regular symbol's run continues through its wilds; a paying wild's run is of itself only.
        accepts = ({i} | _wilds_for(model, sym.name)) if sym.kind == "regular" else {i}
        pays = dict(sym.pays)
        best = {r: max((p for k, p in pays.items() if k > r), default=0) for r in range(model.reels + 1)}
        out.append(_Candidate(symbol=i, accepts=frozenset(accepts), pays=pays, best_future=best))
    return out


@dataclasses.dataclass(frozen=True)
class _ProgressiveRun:
    """The progressive combination as a run: symbols that continue it, and its length."""

    accepts: frozenset[int]
    count: int

    @classmethod
    def of(cls, model: SlotModel, with_progressive: bool) -> "_ProgressiveRun | None":
        progressive = model.progressive if with_progressive else None
        if progressive is None:
            return None
        accepts = {model.symbol_index(progressive.symbol)}
        if progressive.wilds:
            accepts |= _wilds_for(model, progressive.symbol)
        return cls(accepts=frozenset(accepts), count=progressive.count)


class _Builder:
    """Breadth-first construction of the automaton's states.

    A state is ``(r, alive candidates, best (pay, count, -symbol, class) or
    None, progressive still possible, progressive shown, multipliers read)``;
    a done state is ``("done", pay, class, progressive shown)``.  The
    multipliers read are kept as a product (``multiply``) or a sum of the
    multipliers above 1 (``add``, 0 for none).
    """

    def __init__(self, model: SlotModel, candidates: list[_Candidate], progressive: _ProgressiveRun | None):
        self.nsym = len(model.symbols)
        self.reels = model.reels
        self.adding = model.wild_multipliers == "add"
        self.mult_of = [s.multiplier for s in model.symbols]
        self.top_mult = max(self.mult_of, default=1)
        self.candidates = candidates
        self.progressive = progressive
        self.class_index = {(c.symbol, c.count): k for k, c in enumerate(line_classes(model))}
        self.ids: dict[tuple, int] = {}
        self.rows: list[list[int]] = []
        self.info: list[tuple[int, int, int, int]] = []  # done, pay, cls, prog
        self.queue: list[tuple] = []

    def intern(self, state: tuple) -> int:
        if state in self.ids:
            return self.ids[state]
        self.ids[state] = len(self.info)
        self.rows.append([])
        if state[0] == "done":
            self.info.append((1, state[1], state[2], int(state[3])))
        else:
            self.info.append((0, 0, -1, 0))
        self.queue.append(state)
        return self.ids[state]

    def explore(self) -> None:
        start = (0, frozenset(range(len(self.candidates))), None, self.progressive is not None, False,
                 0 if self.adding else 1)
        if not self.candidates and self.progressive is None:
            start = ("done", 0, -1, False)
        self.intern(start)
        head = 0
        while head < len(self.queue):
            state = self.queue[head]
            sid = self.ids[state]
            head += 1
            if state[0] == "done":
                self.rows[sid] = [sid] * self.nsym
            else:
                self.rows[sid] = [self.intern(self.step(state, x)) for x in range(self.nsym)]

    def step(self, state: tuple, x: int) -> tuple:
        """The state after the next reel shows symbol ``x`` on the line."""
        r, alive, best, prog_alive, prog_hit, read = state
        r += 1
        m = self.mult_of[x]
        if m > 1:
            read = read + m if self.adding else read * m
        multiplier = max(read, 1)  # "add" with no multiplier wild read: 1
        still = []
        for c in alive:
            cand = self.candidates[c]
            if x in cand.accepts:
                still.append(c)
                if r in cand.pays:
                    key = (cand.pays[r] * multiplier, r, -cand.symbol, self.class_index[(cand.symbol, r)])
                    if best is None or key[:3] > best[:3]:
                        best = key
        best_pay = best[0] if best is not None else 0
        # A candidate that can no longer beat the best shown (strictly) is dropped:
        # with equal pay it could only change the class by the tie rule, so keep those.
        # Its future pay is at most its best listed pay times the largest multiplier still reachable.
        reach = self._reachable_multiplier(read, self.reels - r)
        still = [c for c in still
                 if self.candidates[c].best_future[r] * reach >= best_pay and self.candidates[c].best_future[r] > 0]
        if prog_alive:
            prog_alive = x in self.progressive.accepts
            if prog_alive and r == self.progressive.count:
                prog_hit, prog_alive = True, False
        if r == self.reels or (not still and not prog_alive):
            return ("done", 0, -1, prog_hit) if best is None else ("done", best[0], best[3], prog_hit)
        return (r, frozenset(still), best, prog_alive, prog_hit, read)

    def _reachable_multiplier(self, read: int, reels_left: int) -> int:
        """The largest multiplier a combination can have after ``reels_left`` more symbols."""
        top = self.top_mult
        if top == 1:
            return 1
        return max(read + top * reels_left, 1) if self.adding else read * top ** reels_left

    def table(self, classes: tuple[LineClass, ...]) -> LineAutomaton:
        info = np.array(self.info, dtype=np.int64).reshape(-1, 4)
        return LineAutomaton(
            delta=np.array(self.rows, dtype=np.int32).reshape(-1, self.nsym),
            done=info[:, 0].astype(np.uint8),
            pay=info[:, 1].astype(np.int64),
            cls=info[:, 2].astype(np.int16),
            prog=info[:, 3].astype(np.uint8),
            classes=classes,
        )
