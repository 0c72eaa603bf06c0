"""Free spins whose every spin is a cascade sequence: one spin's moments, bounded (docs/slot_model.md,
"Cascades with scatters and free spins").

The free spins of a play are the branching process of :mod:`harness.slot.feature`;
these give its inputs, one free spin's moments, and the probability that a
tree of them never shows an outcome, each as bounds (equal when the free
spins' chain is exact).
"""
from __future__ import annotations

import math
from fractions import Fraction

from harness.slot import feature as fs
from harness.slot.cascade_stage import Stage, exact_pair
from harness.slot.errors import ModelError
from harness.slot.model import SlotModel


def free_spin_moments(model: SlotModel, free: Stage) -> tuple[fs.SpinMoments, fs.SpinMoments]:
    """Bounds on the moments of one free spin (a whole cascade sequence): win ``W`` and spins awarded
    ``J``, as the moments' lower and upper bounds (equal when the free spins' chain is exact).

    Raises
    ------
    ModelError
        If each free spin awards one or more further free spins on average (or, bounded, may do so).
    """
    fw = free.walk
    h, j = exact_pair(free.h), exact_pair(free.awards)
    jj = exact_pair([a * (a - 1) for a in free.awards])
    x, jx, jjx = free.expect([(fw.credits, h), (free.zero, j), (free.zero, jj)])
    hh = exact_pair([a * a for a in free.h])
    hj = exact_pair([a * b for a, b in zip(free.h, free.awards)])
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


def no_occurrence(without: dict[int, tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
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
