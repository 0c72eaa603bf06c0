"""Rigorous bounds on a finite Markov chain's reward equations, for chains too large to eliminate.

The question is :mod:`harness.slot.chain`'s: per state ``s`` a reward
``b[s] >= 0`` and transition probabilities ``P[s][t]`` to the states where
the chain goes on; the expected total ``x`` solves

    x[s] = b[s] + sum_t P[s][t] x[t].

Exact elimination costs the cube of a component's size in fractions, so a
large chain is bracketed instead: ``lo[s] <= x[s] <= hi[s]`` for every
state, both sides proved, never estimated.

How.  Numbers are integers scaled by ``2**FRAC_BITS`` (fixed point), and
every state's probabilities are integer weights over one denominator, so a
step is integer arithmetic rounded *down* for the lower bound and *up* for
the upper one.  Components are taken in the order of
:func:`harness.slot.chain.components` (each after those it leads to), so an
acyclic stretch is settled in one pass; within a cyclic component:

* *lower*: Gauss-Seidel sweeps ``lo[s] <- floor(b[s] + sum P lo)`` from 0.
  Every step maps a lower bound to a lower bound (``x = T(x) >= T(lo)``),
  so ``lo <= x`` at every sweep, and the sweeps increase to ``x``.
* *upper*: first a start that is an upper bound.  ``z = Q^n 1``, the
  probability of still being in the component after ``n`` steps
  (``Q = P`` within it, rounded up), is iterated until ``max z <= 1/2``;
  then the steps spent in it number ``N`` with ``P(N > jn) <= 2**-j``, so
  ``E[N] <= 2n``, and ``x[s] <= 2n x max_s (b[s] + sum_out P hi)``.  From
  there the same sweeps, rounded up, keep an upper bound and decrease to
  ``x`` (kept as the smaller of the old and the new value).

A component that no mass ever leaves raises
:class:`~harness.slot.chain.ChainDiverges`; one that leaks so slowly that
``max z`` stays above 1/2 for :data:`MAX_SWEEPS` steps raises
:class:`ChainTooSlow`.  The sweeps stop when a component's bounds are
within ``2**-GAP_BITS`` of its values (relative), or after
:data:`MAX_SWEEPS`: the bounds are valid whenever they stop, only their
gap changes, and the caller states it.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Sequence

from harness.slot.chain import ChainDiverges, Edges, components

FRAC_BITS = 64   # fixed point: a value v is held as round(v * 2**64), rounded outward
GAP_BITS = 48    # a component's sweeps stop once hi - lo <= max(hi) * 2**-48
MAX_SWEEPS = 20_000  # per component and reward (and for the survival bound)
ONE = 1 << FRAC_BITS


class ChainTooSlow(ValueError):
    """From ``state`` the chain ends so slowly that no upper bound was found in :data:`MAX_SWEEPS` steps."""

    def __init__(self, state: int):
        self.state = state
        super().__init__(f"the chain ends too slowly to bound from state {state}")


@dataclasses.dataclass(frozen=True)
class Prepared:
    """A chain in integer form: ``P[s][t] = weight / denominators[s]``, with its components' order.

    ``halving[i]``: steps after which the chain is still in component ``i``
    with probability at most 1/2, from any of its states (0: acyclic).
    """

    edges: tuple[tuple[tuple[int, int], ...], ...]
    denominators: tuple[int, ...]
    order: tuple[tuple[int, ...], ...]
    halving: tuple[int, ...]


def prepare(edges: Edges) -> Prepared:
    """The integer form of ``edges`` (Fractions, as :mod:`harness.slot.chain` takes them).

    Raises
    ------
    ChainDiverges
        If some component is closed (from it the chain never ends).
    ChainTooSlow
        If a component keeps the chain for too long to bound (see the module docstring).
    """
    ints, dens = [], []
    for row in edges:
        den = math.lcm(*(p.denominator for _, p in row)) if row else 1
        ints.append(tuple((t, int(p * den)) for t, p in row))
        dens.append(den)
    order = [tuple(c) for c in components(edges)]
    halving = []
    for comp in order:
        members = set(comp)
        if len(comp) == 1 and all(t != comp[0] for t, _ in ints[comp[0]]):
            halving.append(0)
            continue
        if all(sum(w for t, w in ints[s] if t in members) == dens[s] for s in comp):
            raise ChainDiverges(comp[0])
        halving.append(_halving(comp, members, ints, dens))
    return Prepared(edges=tuple(ints), denominators=tuple(dens), order=tuple(order), halving=tuple(halving))


def _halving(comp, members: set[int], edges, dens) -> int:
    """Steps ``n`` with ``(Q^n 1)[s] <= 1/2`` for every state of the component (Jacobi steps, rounded up)."""
    z = {s: ONE for s in comp}
    for n in range(1, MAX_SWEEPS + 1):
        z = {s: -(-sum(w * z[t] for t, w in edges[s] if t in members) // dens[s]) for s in comp}
        if max(z.values()) <= ONE // 2:
            return n
    raise ChainTooSlow(comp[0])


def bounds(chain: Prepared, reward: Sequence[Fraction], reward_upper: Sequence[Fraction] | None = None, *,
           stop: Sequence[bool] | None = None, cap: Fraction | None = None) -> tuple[list[Fraction], list[Fraction]]:
    """``(lo, hi)`` with ``lo[s] <= x[s] <= hi[s]`` for every state (see the module docstring).

    Parameters
    ----------
    reward, reward_upper : sequences of Fraction
        ``b`` (non-negative), or bounds on it when it is itself only
        bracketed (``reward`` the lower, ``reward_upper`` the upper).
    stop : sequence of bool, optional
        States whose edges are cut: there ``x[s] = b[s]`` (a question
        answered on entering them, such as "paid at least once").
    cap : Fraction, optional
        A known upper bound on every ``x[s]`` (1 for a probability).
    """
    n = len(chain.edges)
    b_lo = [math.floor(r * ONE) for r in reward]
    b_hi = [math.ceil(r * ONE) for r in (reward_upper if reward_upper is not None else reward)]
    top = math.ceil(cap * ONE) if cap is not None else None
    cut = stop if stop is not None else [False] * n
    lo, hi = [0] * n, [0] * n
    for comp, steps in zip(chain.order, chain.halving):
        live = [s for s in comp if not cut[s]]
        for s in comp:
            if cut[s]:
                lo[s], hi[s] = b_lo[s], b_hi[s]
        if not live:
            continue
        if steps == 0:  # one state without a loop: everything it leads to is known
            s = live[0]
            lo[s], hi[s] = _step(chain, s, lo, b_lo[s], False), _step(chain, s, hi, b_hi[s], True)
            continue
        members = set(comp)
        # per step in the component: its reward plus what leaving it brings, at most `per_step`
        # (a cut state of the component is one step that ends there, paying its own reward)
        per_step = max([b_hi[s] + -(-sum(w * hi[t] for t, w in chain.edges[s] if t not in members)
                                     // chain.denominators[s]) for s in live] + [b_hi[s] for s in comp if cut[s]])
        start = 2 * steps * per_step
        for s in live:
            hi[s] = start if top is None else min(start, top)
        for _ in range(MAX_SWEEPS):
            for s in live:
                lo[s] = _step(chain, s, lo, b_lo[s], False)
                hi[s] = min(hi[s], _step(chain, s, hi, b_hi[s], True))
            if max(hi[s] - lo[s] for s in live) <= max(1, max(hi[s] for s in live) >> GAP_BITS):
                break
    return [Fraction(v, ONE) for v in lo], [Fraction(v, ONE) for v in hi]


def _step(chain: Prepared, s: int, x: list[int], b: int, up: bool) -> int:
    """``b + sum_t P[s][t] x[t]``, rounded down (or up)."""
    total = sum(w * x[t] for t, w in chain.edges[s])
    den = chain.denominators[s]
    return b + (-(-total // den) if up else total // den)
