"""One spin's cascade sequence as a random variable: expectations on its chain, exact or bounded.

:class:`Solver` solves the reward equations of a :class:`~harness.slot.cascade_walk.Walk`'s
chain: exactly in fractions (:mod:`harness.slot.chain`) up to
:data:`~harness.slot.limits.MAX_CASCADE_STATES` states, by rigorous bounds
(:mod:`harness.slot.chain_bounds`) beyond.  :class:`Stage` turns the
figures of a sequence (its pays, where it ends, the spins it awards) into
such rewards.  Every figure is a pair ``(lower, upper)``, equal when exact.
"""
from __future__ import annotations

from fractions import Fraction

from harness.slot import chain
from harness.slot import chain_bounds as cb
from harness.slot.cascade_walk import Walk, shown
from harness.slot.errors import BeyondExact, ModelError
from harness.slot.limits import MAX_CASCADE_STATES


class Solver:
    """``x = b + P x`` on a walk's chain: exact in fractions up to :data:`MAX_CASCADE_STATES` states,
    rigorous bounds beyond; ModelErrors name the window where the chain cannot be solved."""

    def __init__(self, walk: "Walk"):
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
            raise ModelError("cascade.refill", f"from the window {shown(model, keys[exc.state][0])} the cascades "
                             "never end (every refill pays again), so the play has no finite return",
                             model.source) from None
        except cb.ChainTooSlow as exc:
            raise BeyondExact("cascade.refill", f"the cascade chain has {len(keys):,} states, more than the "
                             f"{MAX_CASCADE_STATES:,} solved exactly, and from the window "
                             f"{shown(model, keys[exc.state][0])} the cascades end too slowly to bound within "
                             f"{cb.MAX_SWEEPS:,} steps (docs/slot_model.md, Cascades)", model.source) from None


Pair = tuple[list[Fraction], list[Fraction]]  # (lower, upper) per state, or per scatter cell


def exact_pair(values: list[Fraction]) -> Pair:
    return values, values


class Stage:
    """One spin's cascade sequence as a random variable: ``X`` = its line pays (every window, ladder,
    multiplier) + ``h(last cell)``, its scatter pay; and ``J`` = ``awards[last cell]`` spins it awards.

    Every expectation is a chain of :class:`Solver`: a quantity ``sum c(S_i) + a(last cell)`` over the
    paying windows ``S_i`` has reward ``c(s) + sum_k term[s][k] a(k)``; its product with a quantity of the
    last cell only, ``b``, has reward ``c(s) E[b | s] + sum_k term[s][k] a(k) b(k)``; its square, reward
    ``c(s)^2 + 2 c(s) (E[. | s] - c(s)) + sum_k term[s][k] a(k)^2``.
    """

    def __init__(self, walk: Walk, awards):
        self.walk = walk
        self.solver = Solver(walk)
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


def onehot(width: int, cells) -> list[Fraction]:
    return [Fraction(int(k in cells)) for k in range(width)]


def never_pays(stage: Stage, paid: list[bool], cells: set[int]) -> tuple[Fraction, Fraction]:
    """Bounds on P(a spin's sequence never pays the class paid in the states ``paid``, and ends on one
    of ``cells``)."""
    ends = exact_pair(onehot(stage.width, cells))
    reward = [Fraction(0) if p else t for p, t in zip(paid, stage.terminal(ends)[0])]
    return stage.over(stage.solver.cut(reward, paid, Fraction(1)), ends)


def end_cells(walk: Walk) -> list[int]:
    """The scatter cells a spin's sequence can end on."""
    return sorted(set(walk.start_term) | {k for t in walk.term for k in t})


def last_cells(stage: Stage) -> dict[int, tuple[Fraction, Fraction]]:
    """Per scatter cell a spin's sequence can end on: bounds on the probability that it does."""
    reached = end_cells(stage.walk)
    ends = [exact_pair(onehot(stage.width, {k})) for k in reached]
    xs = stage.expect([(stage.zero, e) for e in ends])
    return {k: stage.over(x, e) for k, x, e in zip(reached, xs, ends)}
