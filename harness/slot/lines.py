"""How one payline is paid, as a finite automaton read reel by reel.

The rule (``docs/slot_model.md``, "Line pays"): on a payline showing
``x1 .. xR`` (reel 1 first), a regular symbol ``S`` has the run
``run(S)`` = the largest ``n`` such that each of ``x1 .. xn`` is ``S`` or a
wild that substitutes for ``S``; a paying wild ``W`` has the run of
consecutive ``W`` from reel 1.  The line shows every combination
``k × S`` with ``k <= run(S)`` and a pay listed for ``k``; it is paid the
single highest of them.  Ties go to the longer combination, then to the
symbol listed first.  Scatters never form line combinations.

Reading the symbols left to right, what still matters after ``r`` reels is
small: which candidates (symbols whose run is still unbroken) are alive, the
best combination already shown, and (for the progressive) whether its
combination is still possible or already shown.  That is the automaton state.
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
        ``int64[n_states]``: pay of a done state (multiple of the bet per line).
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
    classes = line_classes(model)
    class_index = {(c.symbol, c.count): k for k, c in enumerate(classes)}
    nsym = len(model.symbols)
    reels = model.reels

    # Candidates: (symbol index, symbols that continue its run, {count: pay}).
    candidates = []
    for i, sym in enumerate(model.symbols):
        if not sym.pays or sym.kind == "scatter":
            continue
        if sym.kind == "regular":
            accepts = {i} | {
                j for j, w in enumerate(model.symbols) if w.kind == "wild" and sym.name in w.substitutes
            }
        else:  # a wild paying on its own: a run of itself only
            accepts = {i}
        candidates.append((i, frozenset(accepts), dict(sym.pays)))
    best_future = [
        {r: max((p for k, p in pays.items() if k > r), default=0) for r in range(reels + 1)}
        for _, _, pays in candidates
    ]

    prog_accepts: frozenset[int] = frozenset()
    prog_count = 0
    progressive = model.progressive if with_progressive else None
    if progressive is not None:
        p = model.symbol_index(progressive.symbol)
        accepts = {p}
        if progressive.wilds:
            accepts |= {
                j for j, w in enumerate(model.symbols) if w.kind == "wild" and progressive.symbol in w.substitutes
            }
        prog_accepts = frozenset(accepts)
        prog_count = progressive.count

    # A state: (r, alive candidates, best (pay, count, -symbol, class) or None,
    # progressive still possible, progressive shown).  Done: ("done", pay, class, prog).
    ids: dict[tuple, int] = {}
    rows: list[list[int]] = []
    info: list[tuple[int, int, int, int]] = []  # done, pay, cls, prog

    def intern(state: tuple) -> int:
        if state in ids:
            return ids[state]
        ids[state] = len(info)
        rows.append([])
        if state[0] == "done":
            info.append((1, state[1], state[2], int(state[3])))
        else:
            info.append((0, 0, -1, 0))
        queue.append(state)
        return ids[state]

    def finish(best, prog_hit) -> tuple:
        if best is None:
            return ("done", 0, -1, prog_hit)
        return ("done", best[0], best[3], prog_hit)

    def step(state: tuple, x: int) -> tuple:
        r, alive, best, prog_alive, prog_hit = state
        r += 1
        still = []
        for c in alive:
            sym, accepts, pays = candidates[c]
            if x in accepts:
                still.append(c)
                if r in pays:
                    key = (pays[r], r, -sym, class_index[(sym, r)])
                    if best is None or key[:3] > best[:3]:
                        best = key
        best_pay = best[0] if best is not None else 0
        # A candidate that can no longer beat the best shown (strictly) is dropped:
        # with equal pay it could only change the class by the tie rule, so keep those.
        still = [c for c in still if best_future[c][r] >= best_pay and best_future[c][r] > 0]
        if prog_alive:
            prog_alive = x in prog_accepts
            if prog_alive and r == prog_count:
                prog_hit, prog_alive = True, False
        if r == reels or (not still and not prog_alive):
            return finish(best, prog_hit)
        return (r, frozenset(still), best, prog_alive, prog_hit)

    queue: list[tuple] = []
    start = (0, frozenset(range(len(candidates))), None, progressive is not None, False)
    if not candidates and progressive is None:
        start = ("done", 0, -1, False)
    intern(start)
    head = 0
    while head < len(queue):
        state = queue[head]
        sid = ids[state]
        head += 1
        if state[0] == "done":
            rows[sid] = [sid] * nsym
        else:
            rows[sid] = [intern(step(state, x)) for x in range(nsym)]

    info_arr = np.array(info, dtype=np.int64).reshape(-1, 4)
    return LineAutomaton(
        delta=np.array(rows, dtype=np.int32).reshape(-1, nsym),
        done=info_arr[:, 0].astype(np.uint8),
        pay=info_arr[:, 1].astype(np.int64),
        cls=info_arr[:, 2].astype(np.int16),
        prog=info_arr[:, 3].astype(np.uint8),
        classes=classes,
    )
