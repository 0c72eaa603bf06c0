"""Free spins with retriggers as a branching process, solved exactly.

Each free spin is independent and identically distributed: it wins ``W``
credits and awards ``J`` further free spins (a retrigger; ``J = 0`` when
none).  The spins a trigger starts form a Galton–Watson tree in which every
spin has ``J`` children.  Write ``V`` for the total won by one spin and all
the spins descending from it, so ``V = W + V_1 + ... + V_J`` with the
``V_i`` independent copies of ``V``, independent of ``(W, J)``.  Taking
expectations (``W`` and ``J`` may be correlated; the children are not):

    E[V]   = E[W] + E[J] E[V]
           = E[W] / (1 - m),                       m = E[J]
    E[V^2] = E[W^2] + 2 E[WJ] E[V] + E[J] E[V^2] + E[J(J-1)] E[V]^2
           = (E[W^2] + 2 E[WJ] E[V] + E[J(J-1)] E[V]^2) / (1 - m)

and the expected number of spins in the tree of one spin is ``1 / (1 - m)``.
All finite exactly when ``m < 1``; when ``m >= 1`` the expected number of
free spins is infinite (the linear equation has no positive solution) and
the model is rejected.  ``n`` spins awarded at once contribute ``n`` such
trees: ``E[F] = n E[V]``, ``E[F^2] = n E[V^2] + n (n - 1) E[V]^2``.

Probability that a combination ``c`` appears at least once in the tree of
one spin: with ``z`` = P(it never appears), conditioning on the first spin,
``z = G(z) = sum_j P(no c in the spin and J = j) z^j``.  ``G`` is a
polynomial with non-negative coefficients (convex, increasing on [0, 1]) and
``G(1) = 1 - P(c in a spin) < 1``, so ``h(z) = G(z) - z`` has exactly one
root in [0, 1] (``h(0) >= 0 > h(1)`` and a convex function crosses zero
downwards once): it is the smallest fixed point, which is ``z``.  With
retriggers it is in general irrational, so :func:`no_occurrence_bracket`
returns exact rational bounds ``2**-192`` apart: Newton's method finds the
root, and exact integer evaluations of the sign of ``h`` at both ends prove
the bracket (bisection if they do not).

Higher moments, for tail bounds (:class:`PowerMoments`).  Expanding
``E[V^k] = E[(W + V_1 + ... + V_J)^k]`` binomially, ``E[V^k]`` appears on
the right only through the one term where a single child carries every
power, ``E[J] E[V^k]``; so each ``E[V^k]`` is again ``(the terms of lower
moments) / (1 - m)``, exact.  The moments of ``n`` trees together are the
``n``-fold binomial convolution ``E[(A + B)^k] = sum_i C(k, i) E[A^i] E[B^(k - i)]``.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from math import comb

BRACKET_BITS = 192  # bisection steps: bounds are 2**-192 apart


@dataclasses.dataclass(frozen=True)
class SpinMoments:
    """Moments of one free spin: win ``W`` (credits) and spins awarded ``J``."""

    ew: Fraction
    ew2: Fraction
    ewj: Fraction
    ej: Fraction
    ejj1: Fraction  # E[J (J - 1)]


@dataclasses.dataclass(frozen=True)
class TreeMoments:
    """Moments of ``V``, the total won by one free spin and its retriggers."""

    spins: Fraction  # expected spins in the tree, 1 / (1 - m)
    ev: Fraction
    ev2: Fraction


class Divergent(ValueError):
    """The expected number of free spins is infinite (``m >= 1``)."""

    def __init__(self, m: Fraction):
        self.m = m
        super().__init__(f"each free spin awards on average {m} = {float(m):.6g} further free spins")


def tree_moments(spin: SpinMoments) -> TreeMoments:
    """Solve the linear equations of the module docstring; raise :class:`Divergent` if ``m >= 1``."""
    m = spin.ej
    if m >= 1:
        raise Divergent(m)
    ev = spin.ew / (1 - m)
    ev2 = (spin.ew2 + 2 * spin.ewj * ev + spin.ejj1 * ev * ev) / (1 - m)
    return TreeMoments(spins=1 / (1 - m), ev=ev, ev2=ev2)


def award_moments(n: int, tree: TreeMoments) -> tuple[Fraction, Fraction]:
    """``(E[F], E[F^2])`` for ``n`` free spins awarded at once."""
    return n * tree.ev, n * tree.ev2 + n * (n - 1) * tree.ev * tree.ev


class PowerMoments:
    """``E[V^k]`` for ``k <= order`` (module docstring), and the same moments of ``n`` trees together.

    Parameters
    ----------
    outcomes : dict
        One spin's ``(win w, spins awarded j) -> weight`` (integers; ``w`` may be any stand-in
        for the win, e.g. kept at a ceiling).
    order : int
        The highest moment.

    Raises
    ------
    Divergent
        If ``m = E[J] >= 1``.
    """

    def __init__(self, outcomes: dict[tuple[int, int], int], order: int):
        total = sum(outcomes.values())
        top = max(j for _, j in outcomes)
        m = Fraction(sum(j * n for (_, j), n in outcomes.items()), total)
        if m >= 1:
            raise Divergent(m)
        # sums[j][e]: sum of weight x w^e over the outcomes awarding j spins (integers)
        sums = [[0] * (order + 1) for _ in range(top + 1)]
        for (w, j), n in outcomes.items():
            for e in range(order + 1):
                sums[j][e] += n * w**e
        one = [Fraction(1)] + [Fraction(0)] * order
        tree = [Fraction(1)] + [Fraction(0)] * order  # E[V^k], filled in k by k
        joint = [one] + [[Fraction(1)] + [Fraction(0)] * order for _ in range(top)]  # joint[j]: j trees
        for k in range(1, order + 1):
            rest = [Fraction(0)] * (top + 1)  # joint[j][k] without its j E[V^k]
            for j in range(1, top + 1):
                rest[j] = rest[j - 1] + sum((comb(k, i) * joint[j - 1][i] * tree[k - i] for i in range(1, k)),
                                            Fraction(0))
            known = sum((sums[j][k - i] * comb(k, i) * joint[j][i] for j in range(top + 1) for i in range(k)),
                        Fraction(0)) + sum((sums[j][0] * rest[j] for j in range(1, top + 1)), Fraction(0))
            tree[k] = known / total / (1 - m)
            for j in range(1, top + 1):
                joint[j][k] = rest[j] + j * tree[k]
        self.order = order
        self.tree = tree
        self._trees = joint  # _trees[n]: the moments of n trees (extended on demand)

    def of(self, n: int) -> list[Fraction]:
        """``E[(V_1 + ... + V_n)^k]``, ``k = 0..order``: ``n`` spins awarded at once."""
        while len(self._trees) <= n:
            last, v = self._trees[-1], self.tree
            self._trees.append([sum((comb(k, i) * last[i] * v[k - i] for i in range(k + 1)), Fraction(0))
                                for k in range(self.order + 1)])
        return self._trees[n]


def no_occurrence_bracket(weights: dict[int, int], denominator: int) -> tuple[Fraction, Fraction]:
    """Exact bounds ``lo <= z <= hi`` on the smallest root of ``z = G(z)``.

    Parameters
    ----------
    weights : dict
        ``{j: w_j}`` with ``G(z) = sum_j (w_j / denominator) z**j``; ``w_j``
        counts spins without the combination that award ``j`` spins.
    denominator : int
        Total weight of a spin (the cycle).

    Returns ``(z, z)`` when the root is rational and known exactly: no
    retriggers (``G`` constant) or a combination that never appears
    (``G(1) = 1``).
    """
    weights = {j: w for j, w in weights.items() if w}
    total = sum(weights.values())
    if total == denominator:
        return Fraction(1), Fraction(1)
    if all(j == 0 for j in weights):
        z = Fraction(total, denominator)
        return z, z
    h = _ScaledH(weights, denominator, BRACKET_BITS)
    # Newton's method (h is convex and decreasing through its root), first in
    # floats, then exactly on the 2^-bits grid; the result is only trusted
    # once the signs of h at both ends of the bracket have been checked exactly.
    a = h.newton(_float_root(weights, denominator, total / denominator))
    lo, hi = max(a - 2, 0), min(a + 2, h.one)
    if not (h.sign(lo) >= 0 and h.sign(hi) <= 0):
        lo, hi = 0, h.one  # h(0) >= 0 > h(1): bisect from scratch
    return h.bisect(lo, hi)


def _float_root(weights: dict[int, int], denominator: int, z: float) -> float:
    """Newton's method for ``G(z) = z`` in floats, from ``z`` (a first guess only)."""
    for _ in range(200):
        g = sum(w / denominator * z**j for j, w in weights.items())
        dg = sum(j * w / denominator * z ** (j - 1) for j, w in weights.items() if j)
        if dg == 1:
            break
        step = (g - z) / (dg - 1)
        z -= step
        if abs(step) < 1e-17:
            break
    return z


class _ScaledH:
    """``h(z) = G(z) - z`` on the grid ``z = a / 2**bits``, in exact integers."""

    def __init__(self, weights: dict[int, int], denominator: int, bits: int):
        self.weights = weights
        self.denominator = denominator
        self.bits = bits
        self.one = 1 << bits
        self.top = max(max(weights), 1)

    def value(self, a: int) -> int:
        """h(a / 2^bits) * denominator * 2^(bits * top): an integer with h's sign."""
        bits, top = self.bits, self.top
        acc = -self.denominator * a << (bits * (top - 1))
        for j, w in self.weights.items():
            acc += w * a**j << (bits * (top - j))
        return acc

    def slope(self, a: int) -> int:
        """h'(a / 2^bits) * denominator * 2^(bits * (top - 1))."""
        bits, top = self.bits, self.top
        acc = -self.denominator << (bits * (top - 1))
        for j, w in self.weights.items():
            if j:
                acc += j * w * a ** (j - 1) << (bits * (top - j))
        return acc

    def sign(self, a: int) -> int:
        v = self.value(a)
        return (v > 0) - (v < 0)

    def newton(self, z: float) -> int:
        """Newton's method on the grid from the float guess ``z``."""
        a = min(max(int(z * self.one), 0), self.one)
        for _ in range(12):
            d = self.slope(a)
            if d == 0:
                break
            a_new = min(max(a - round(Fraction(self.value(a), d)), 0), self.one)
            if abs(a_new - a) <= 1:
                return a_new
            a = a_new
        return a

    def bisect(self, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        """Narrow ``h(lo) >= 0 >= h(hi)`` to adjacent grid points (or an exact root)."""
        one = self.one
        if self.sign(lo) == 0:
            return Fraction(lo, one), Fraction(lo, one)
        if self.sign(hi) == 0:
            return Fraction(hi, one), Fraction(hi, one)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            s = self.sign(mid)
            if s == 0:
                return Fraction(mid, one), Fraction(mid, one)
            if s > 0:
                lo = mid
            else:
                hi = mid
        return Fraction(lo, one), Fraction(hi, one)
