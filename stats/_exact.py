"""Exact null distributions (Fractions or careful floats) used by the classical tests."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np

from stats._sp800_22_native import _check, _lib


def distinct_count_distribution(probabilities: tuple, t: int) -> list[Fraction]:
    """P(a group of t i.i.d. outcomes shows exactly r distinct values), r = 1..t.

    Dynamic programme over categories: the weight of using a category c times
    is p^c / c!; the probability of a pattern is t! times the product of
    weights (multinomial).  Exact for any distribution.
    """
    # state[(used, distinct)] = Σ Π p_i^c_i / c_i!
    state = {(0, 0): Fraction(1)}
    for p in probabilities:
        powers = [Fraction(1)]
        for c in range(1, t + 1):
            powers.append(powers[-1] * p / c)
        new = {}
        for (used, distinct), w in state.items():
            for c in range(0, t - used + 1):
                key = (used + c, distinct + (c > 0))
                new[key] = new.get(key, Fraction(0)) + w * powers[c]
        state = new
    tf = factorial(t)
    return [state.get((t, r), Fraction(0)) * tf for r in range(1, t + 1)]


def maximum_distribution(probabilities: tuple, t: int) -> list[Fraction]:
    """P(max of t i.i.d. category indices = v) = F(v)^t - F(v-1)^t, exactly."""
    out, below = [], Fraction(0)
    for p in probabilities:
        upper = below + p
        out.append(upper**t - below**t)
        below = upper
    return out


def geometric_cells(p: float, cells: int) -> np.ndarray:
    """P(gap = r) = p (1-p)^r for r < cells-1, and P(gap >= cells-1) in the last cell."""
    r = np.arange(cells - 1)
    body = p * (1 - p) ** r
    return np.concatenate([body, [(1 - p) ** (cells - 1)]])


MAX_COUPON_STATES = 1 << 16


def coupon_states(probabilities) -> int:
    """Size of the coupon collector's Markov chain: Π (size + 1) over groups of equal probability."""
    sizes = {}
    for q in probabilities:
        sizes[q] = sizes.get(q, 0) + 1
    states = 1
    for size in sizes.values():
        states *= size + 1
    return states


def coupon_length_distribution(probabilities, max_length: int) -> np.ndarray:
    """P(T = r) for r = 0..max_length-1 and P(T >= max_length) last, where T is
    the number of i.i.d. outcomes needed to see every category at least once.

    Markov chain on how many categories of each group of equally likely
    ones have been seen: one group of k states for equal probabilities, the
    2^k subsets when all differ, (k + 1)·2 when one category differs from the
    rest.  At most :data:`MAX_COUPON_STATES` states.
    """
    groups = {}
    for q in probabilities:
        groups[q] = groups.get(q, 0) + 1
    p = np.array([float(q) for q in groups])
    size = np.array(list(groups.values()))
    states = coupon_states(probabilities)
    if states > MAX_COUPON_STATES:
        raise ValueError(f"coupon collector chain needs {states:,} states (limit {MAX_COUPON_STATES:,}); "
                         "use fewer distinct probabilities")
    # Mixed-radix state index: seen[g] = (index // stride[g]) % (size[g] + 1).
    stride = np.cumprod(np.concatenate([[1], size[:-1] + 1]))
    index = np.arange(states)
    seen = (index[:, None] // stride) % (size + 1)
    stay = seen @ p                      # an already-seen category comes up
    grow = (size - seen) * p             # a new category of group g comes up
    # Stepped in C (csrc/stats/coupon_chain.h): per step new = state * stay, then for each group g
    # new[i + stride[g]] += state[i] * grow[i, g] (0 where group g cannot grow; tests/test_stats_classical.py
    # holds it bit for bit to the same loop in numpy); thousands of steps of a few numpy calls each cost
    # most of a battery's set-up and of the coupon test's detectable-deviation search.
    rate = np.ascontiguousarray(grow.T, dtype=np.float64)
    stay = np.ascontiguousarray(stay, dtype=np.float64)
    stride = np.ascontiguousarray(stride, dtype=np.int64)
    state = np.zeros(states)
    state[0] = 1.0
    out = np.zeros(max_length + 1)
    ffi, lib = _lib()
    buffer = ffi.from_buffer
    _check(lib.stat_coupon_chain(states, p.size, buffer("double[]", stay), buffer("int64_t[]", stride),
                                 buffer("double[]", rate), max_length,
                                 buffer("double[]", out), buffer("double[]", state), buffer("double[]", np.empty(states))),
           "coupon collector chain")
    out[max_length] = state.sum()
    return out


@lru_cache(maxsize=32)
def collision_distribution(urns: int, balls: int) -> tuple[np.ndarray, int]:
    """Exact distribution of the number of collisions when ``balls`` balls fall
    independently and uniformly into ``urns`` urns (Knuth, 3.3.2 I).

    Returns (pmf, offset): ``pmf[i]`` = P(C = offset + i), truncated where the
    probability is below 1e-300.
    """
    mean = balls - urns * (1 - (1 - 1 / urns) ** balls)
    cap = int(mean + 40 * np.sqrt(mean + 1) + 50)
    cap = min(cap, balls)
    pmf = np.zeros(cap + 2)
    pmf[0] = 1.0
    c = np.arange(cap + 2)
    for i in range(balls):  # i balls already thrown; occupied = i - c
        hit = np.clip((i - c) / urns, 0.0, 1.0)
        new = pmf * (1 - hit)
        new[1:] += pmf[:-1] * hit[:-1]
        pmf = new
    pmf = pmf[: cap + 1]
    nz = np.flatnonzero(pmf > 1e-300)
    return pmf[nz[0]: nz[-1] + 1] / pmf.sum(), int(nz[0])


def power_of_pmf(pmf: np.ndarray, offset: int, times: int) -> tuple[np.ndarray, int]:
    """Distribution of the sum of ``times`` i.i.d. copies (FFT convolution by squaring)."""
    from scipy.signal import fftconvolve

    def trim(a, off):
        a = np.clip(a, 0.0, None)
        a /= a.sum()
        keep = np.flatnonzero(a > 1e-300 * a.max())
        return a[keep[0]: keep[-1] + 1], off + int(keep[0])

    result, r_off = np.array([1.0]), 0
    base, b_off = pmf.copy(), offset
    while times:
        if times & 1:
            result, r_off = trim(fftconvolve(result, base), r_off + b_off)
        times >>= 1
        if times:
            base, b_off = trim(fftconvolve(base, base), 2 * b_off)
    return result, r_off


def two_sided_discrete(pmf: np.ndarray, offset: int, observed: int) -> float:
    """min(1, 2 min(P(X >= x), P(X <= x))) for a discrete distribution."""
    i = observed - offset
    if i < 0:
        lower, upper = 0.0, 1.0
    elif i >= pmf.size:
        lower, upper = 1.0, 0.0
    else:
        lower = float(pmf[: i + 1].sum())
        upper = float(pmf[i:].sum())
    return float(min(1.0, 2 * min(lower, upper)))
