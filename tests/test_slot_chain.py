"""harness.slot.chain against a dense exact solve of (I - P) x = b written here, on random
chains with cycles of every size (components solved one by one must give the same answer)."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from harness.slot import chain


def dense_solve(edges, reward):
    n = len(edges)
    a = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(reward[i])] for i in range(n)]
    for i, row in enumerate(edges):
        for t, p in row:
            a[i][t] -= p
    for col in range(n):
        pivot = next(r for r in range(col, n) if a[r][col] != 0)
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


@pytest.mark.parametrize("seed", range(12))
def test_components_give_the_dense_solution(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 14)
    edges = []
    for _ in range(n):
        targets = rng.sample(range(n), rng.randint(0, min(n, 4)))
        weights = [rng.randint(1, 5) for _ in targets]
        total = sum(weights) + rng.randint(1, 4)  # some mass always ends the chain: a unique solution
        edges.append([(t, Fraction(w, total)) for t, w in zip(targets, weights)])
    reward = [Fraction(rng.randint(0, 9)) for _ in range(n)]
    assert chain.solve(edges, reward) == dense_solve(edges, reward)
    comps = chain.components(edges)
    assert sorted(s for c in comps for s in c) == list(range(n))
    done: set[int] = set()
    for c in comps:  # every component comes after all those it leads to
        assert all(t in done or t in c for s in c for t, _ in edges[s])
        done |= set(c)


def test_a_closed_component_diverges():
    edges = [[(1, Fraction(1))], [(0, Fraction(1))]]
    with pytest.raises(chain.ChainDiverges):
        chain.solve(edges, [Fraction(1), Fraction(0)])


def test_a_three_state_cycle_is_one_component():
    third = Fraction(1, 3)
    edges = [[(1, third)], [(2, third)], [(0, third)], [(0, third)]]  # 3 leads into the cycle 0 -> 1 -> 2 -> 0
    comps = chain.components(edges)
    assert sorted(map(sorted, comps)) == [[0, 1, 2], [3]] and comps[-1] == [3]
    x = chain.solve(edges, [Fraction(1)] * 4)
    assert x == dense_solve(edges, [1] * 4) and x[0] == Fraction(1, 1 - third ** 3) * (1 + third + third ** 2)
