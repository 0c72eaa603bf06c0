"""Exact solution of a finite Markov chain's reward equations, in fractions.

Every feature whose play is a Markov chain over a finite set of states
(cascades, sticky wilds in free spins) asks the same question: given, per
state ``s``, a reward ``b[s]`` collected on entering it and the transition
probabilities ``P[s][t]`` to the states where the chain goes on (the rest of
the mass ends the feature), what is the expected total ``x[s]``?

    x[s] = b[s] + sum_t P[s][t] x[t]

The chain may have cycles (a cascade can refill the very window it
removed), so this is a linear system, not a recursion.  It is solved
component by component: Tarjan's algorithm gives the strongly connected
components in an order where every component comes after all those it
leads to, so each component's system involves only its own unknowns (the
rest are already known) and is solved by Gaussian elimination over
:class:`fractions.Fraction`.  Most components of a feature's chain are a
single state without a loop, solved by one sum.

The system has a unique solution when, from every state, the feature ends
with probability 1 (``I - P`` restricted to each component is then
invertible); a component where it never ends raises :class:`ChainDiverges`
naming a state of it.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

Edges = Sequence[Sequence[tuple[int, Fraction]]]  # edges[s]: (t, P[s][t]) for the states where it goes on


class ChainDiverges(ValueError):
    """The feature never ends from ``state`` (a closed class of the chain): no finite expectation."""

    def __init__(self, state: int):
        self.state = state
        super().__init__(f"the chain never ends from state {state}")


def solve(edges: Edges, reward: Sequence[Fraction]) -> list[Fraction]:
    """The expected total reward ``x`` from every state (see the module docstring).

    Raises
    ------
    ChainDiverges
        If some component is closed (from it the chain goes on forever).
    """
    return solve_many(edges, [reward])[0]


def solve_many(edges: Edges, rewards: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """:func:`solve` for several reward vectors on the same chain (one elimination per component)."""
    m = len(rewards)
    x: list[list[Fraction | None]] = [[None] * len(edges) for _ in range(m)]
    for component in components(edges):
        s = component[0]
        if len(component) == 1 and all(t != s for t, _ in edges[s]):
            for j in range(m):
                xj = x[j]
                xj[s] = rewards[j][s] + sum((p * xj[t] for t, p in edges[s]), Fraction(0))
            continue
        _solve_component(component, edges, rewards, x)
    return x  # type: ignore[return-value]


def _solve_component(component: list[int], edges: Edges, rewards, x: list) -> None:
    """Gaussian elimination on ``(I - P_CC) x_C = b_C + P_C,out x_out`` for one component ``C``,
    every reward vector a column of the right-hand side."""
    where = {s: i for i, s in enumerate(component)}
    n, m = len(component), len(rewards)
    rows = []
    for s in component:
        row = [Fraction(0)] * (n + m)
        row[where[s]] += 1
        for j in range(m):
            row[n + j] = rewards[j][s]
        for t, p in edges[s]:
            if t in where:
                row[where[t]] -= p
            else:
                for j in range(m):
                    row[n + j] += p * x[j][t]
        rows.append(row)
    width = n + m
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            raise ChainDiverges(component[col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        inv = 1 / head[col]
        live = [j for j in range(col, width) if head[j] != 0]  # the row stays sparse for a while
        for j in live:
            head[j] *= inv
        for r in range(n):
            row = rows[r]
            if r != col and row[col] != 0:
                f = row[col]
                for j in live:
                    row[j] -= f * head[j]
    for i, s in enumerate(component):
        for j in range(m):
            x[j][s] = rows[i][n + j]


def components(edges: Edges) -> list[list[int]]:
    """Strongly connected components, each after every component it leads to (Tarjan, without recursion)."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            s, i = work.pop()
            if i == 0:
                index[s] = low[s] = counter
                counter += 1
                stack.append(s)
                on_stack[s] = True
            succ = edges[s]
            while i < len(succ):
                t = succ[i][0]
                i += 1
                if index[t] == -1:
                    work.append((s, i))
                    work.append((t, 0))
                    break
                if on_stack[t]:
                    low[s] = min(low[s], index[t])
            else:
                if low[s] == index[s]:
                    component = []
                    while True:
                        t = stack.pop()
                        on_stack[t] = False
                        component.append(t)
                        if t == s:
                            break
                    out.append(component)
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[s])
    return out
