"""Exact absorption analysis of finite Markov chains, in Fractions.

A multi-roll bet is a chain: from each state, each roll either decides the
bet (absorbs it in an outcome class) or moves it to a state.  For a start
state this module computes the exact probability of every outcome class and
the exact expected number of steps to a decision.

Method: the state graph is split into strongly connected components
(Tarjan); components are solved in reverse topological order, each by
Gauss-Jordan elimination over Fractions on ``(I - Q) x = b``, where the
right side already holds the solved values of the states the component
leads to.  A chain whose state only ever grows (the Fire Bet's set of points
made) thus costs one small system per set, not one system over all
``2**6 * 7`` states.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Hashable, Iterable, Sequence

# step(state) -> iterable of (probability, ("absorb", label) | ("move", next_state))
Step = Callable[[Hashable], Iterable[tuple[Fraction, tuple[str, Hashable]]]]

STEPS = "__expected_steps__"


def _explore(start: Hashable, step: Step):
    """Every reachable state with its aggregated moves and absorptions."""
    moves: dict[Hashable, dict[Hashable, Fraction]] = {}
    absorbs: dict[Hashable, dict[str, Fraction]] = {}
    stack = [start]
    while stack:
        state = stack.pop()
        if state in moves:
            continue
        out_moves: dict[Hashable, Fraction] = {}
        out_absorbs: dict[str, Fraction] = {}
        total = Fraction(0)
        for probability, (kind, target) in step(state):
            total += probability
            if kind == "absorb":
                out_absorbs[target] = out_absorbs.get(target, 0) + probability
            elif kind == "move":
                out_moves[target] = out_moves.get(target, 0) + probability
            else:
                raise ValueError(f"chain step must be 'absorb' or 'move', got {kind!r}")
        if total != 1:
            raise ValueError(f"chain state {state!r}: step probabilities sum to {total}, not 1")
        moves[state] = out_moves
        absorbs[state] = out_absorbs
        stack.extend(t for t in out_moves if t not in moves)
    return moves, absorbs


def _components(moves: dict[Hashable, dict[Hashable, Fraction]]) -> list[list[Hashable]]:
    """Strongly connected components, sinks first (iterative Tarjan)."""
    index: dict[Hashable, int] = {}
    low: dict[Hashable, int] = {}
    on_stack: set[Hashable] = set()
    stack: list[Hashable] = []
    out: list[list[Hashable]] = []
    counter = 0
    for root in moves:
        if root in index:
            continue
        work = [(root, iter(moves[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(moves[succ])))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
    return out


def _solve_linear(matrix: list[list[Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]]:
    """Solve matrix @ X = rhs exactly (Gauss-Jordan with pivot search)."""
    n = len(matrix)
    width = len(rhs[0]) if rhs else 0
    a = [row[:] + rhs_row[:] for row, rhs_row in zip(matrix, rhs)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            raise ValueError("chain has a closed class with no way to a decision (singular system)")
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                a[r] = [v - factor * p for v, p in zip(a[r], a[col])]
    return [row[n:n + width] for row in a]


def absorption(start: Hashable, step: Step) -> tuple[dict[str, Fraction], Fraction]:
    """Exact outcome-class probabilities and expected steps from ``start``.

    Parameters
    ----------
    start : hashable
        The state the bet is placed in.
    step : callable
        ``step(state)`` yields ``(probability, ("absorb", label))`` or
        ``(probability, ("move", next_state))``; probabilities per state
        must sum to exactly 1.

    Returns
    -------
    probabilities : dict
        Outcome class -> exact probability (summing to 1).
    expected_steps : Fraction
        Mean number of steps until the decision.

    Raises
    ------
    ValueError
        If a reachable set of states can never reach a decision.
    """
    moves, absorbs = _explore(start, step)
    labels = sorted({label for table in absorbs.values() for label in table})
    columns = labels + [STEPS]
    solved: dict[Hashable, list[Fraction]] = {}
    for component in _components(moves):
        position = {state: i for i, state in enumerate(component)}
        matrix: list[list[Fraction]] = []
        rhs: list[list[Fraction]] = []
        for state in component:
            row = [Fraction(0)] * len(component)
            row[position[state]] += 1
            b = [absorbs[state].get(label, Fraction(0)) for label in labels] + [Fraction(1)]
            for target, probability in moves[state].items():
                if target in position:
                    row[position[target]] -= probability
                else:
                    b = [bv + probability * sv for bv, sv in zip(b, solved[target])]
            matrix.append(row)
            rhs.append(b)
        for state, values in zip(component, _solve_linear(matrix, rhs)):
            solved[state] = values
    values = solved[start]
    result = {label: value for label, value in zip(columns, values) if label != STEPS and value != 0}
    return result, values[-1]


def uniform(outcomes: Sequence[Hashable]) -> list[tuple[Fraction, Hashable]]:
    """Pair each of equally likely ``outcomes`` with its probability."""
    p = Fraction(1, len(outcomes))
    return [(p, o) for o in outcomes]
