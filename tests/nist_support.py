"""The binary expansions of e, π, √2 and √3: the inputs of SP 800-22's worked examples and of Appendix B.

SP 800-22's data files (``data.e``, ``data.pi``, ``data.sqrt2``,
``data.sqrt3``) hold each constant's integer part in binary followed by its
fraction ("10" then the fraction for e, "11" for π, "1" for √2 and √3); the
first 10^6 of those bits are the sequence (the frequency test's P-values of
Appendix B, e.g. 0.953749 for e, hold for exactly these sequences).

Everything is integer arithmetic, generated here:

* e = Σ_{k>=0} 1/k!, summed exactly by binary splitting (P(a, b)/Q(a, b) =
  Σ_{k=a+1..b} a!/k!, P(a, b) = P(a, m) Q(m, b) + P(m, b), Q(a, b) = Q(a, m) Q(m, b));
* π by the Chudnovsky series, 1/π = 12 Σ (-1)^k (6k)! (13591409 + 545140134 k)
  / ((3k)! (k!)^3 640320^(3k + 3/2)), binary-split the same way (Brent's
  P, Q, T), times 426880 √10005;
* √2 and √3 as floor(√c · 2^B), exactly (checked by v² <= c 4^B < (v + 1)²).

Python's own division and square root of million-bit integers are quadratic;
:func:`floor_div` and :func:`floor_sqrt_scaled` use Newton's iteration with
precision doubling (multiplications only) and then correct the last unit
exactly, so each constant takes a fraction of a second to a few seconds.
π carries 64 guard bits beyond the 10^6 it gives (the series' truncation
and √10005's rounding are far below them).  Each expansion's SHA-256 is pinned.
"""
from __future__ import annotations

import functools
import hashlib
import math

import numpy as np

E_BITS = 1_000_000
GUARD = 64
#: SHA-256 of the first 10^6 bits of each constant as ASCII "0"/"1" (as the data files hold them,
#: without white space).
SHA256 = {
    "e": "b5a3b3b457a180cd3c6054f49563c6e7a008e5f080fc2b00b94668c3d96245e3",
    "pi": "417539f94f4d570b0f5c9e655b2e7d5cbb652028bf28a31add155d73a560a34d",
    "sqrt2": "643e1a5463d3021c18006b20b7ebc43767322de2c753846167308e040017e854",
    "sqrt3": "0be6f9dbbcd5b77fd7f84ddede5dddf875f836503151b84e8988356031d50d72",
}
E_SHA256 = SHA256["e"]


def reciprocal(d: int, p: int) -> int:
    """About 2^(L + p) / d, L = d.bit_length(), to a relative error of a few 2^-p (Newton, precision doubling)."""
    length = d.bit_length()
    if p <= 48:
        shift = max(length - 64, 0)
        return (1 << (length - shift + p)) // (d >> shift)
    shift = max(length - (p + 16), 0)  # only the top p + 16 bits of d matter at this precision
    top, top_length = d >> shift, length - shift
    half = p // 2 + 8
    r = reciprocal(top, half) << (p - half)
    error = (1 << (top_length + p)) - top * r
    return r + ((r * error) >> (top_length + p))


def floor_div(a: int, b: int) -> int:
    """a // b for a >= 0, b > 0, by a Newton reciprocal and an exact correction of the remainder."""
    length = b.bit_length()
    p = max(a.bit_length() - length, 0) + 32
    q = (a * reciprocal(b, p)) >> (length + p)
    r = a - q * b
    while r < 0:
        q, r = q - 1, r + b
    while r >= b:
        q, r = q + 1, r - b
    return q


def _inverse_sqrt(c: int, bits: int) -> int:
    """About 2^bits / √c (Newton for 1/√c, precision doubling)."""
    if bits <= 48:
        return int((1 << bits) / math.sqrt(c))
    half = bits // 2 + 8
    y = _inverse_sqrt(c, half) << (bits - half)
    error = (1 << (2 * bits)) - c * y * y
    return y + ((y * error) >> (2 * bits + 1))


def floor_sqrt_scaled(c: int, bits: int) -> int:
    """floor(√c · 2^bits) exactly: √c = c / √c to 32 extra bits, then the last unit corrected."""
    v = (c * _inverse_sqrt(c, bits + 32)) >> 32
    target = c << (2 * bits)
    while v * v > target:
        v -= 1
    while (v + 1) * (v + 1) <= target:
        v += 1
    return v


def _e_split(a: int, b: int) -> tuple[int, int]:
    if b - a == 1:
        return 1, b
    m = (a + b) // 2
    p1, q1 = _e_split(a, m)
    p2, q2 = _e_split(m, b)
    return p1 * q2 + p2, q1 * q2


def _e_terms(bits: int) -> int:
    """Terms N with N! > 2^(bits + 64)."""
    n, log2_factorial = 1, 0.0
    while log2_factorial < bits + 64:
        n += 1
        log2_factorial += math.log2(n)
    return n


def _e_scaled(fraction_bits: int) -> int:
    p, q = _e_split(0, _e_terms(fraction_bits))
    return floor_div((q + p) << fraction_bits, q)  # floor(e · 2^fraction_bits), e = 1 + P/Q


_C3_OVER_24 = 640320**3 // 24


def _pi_split(a: int, b: int) -> tuple[int, int, int]:
    """Brent's P, Q, T of the Chudnovsky series over terms a..b-1."""
    if b - a == 1:
        p = q = 1
        if a:
            p = (6 * a - 5) * (2 * a - 1) * (6 * a - 1)
            q = a * a * a * _C3_OVER_24
        t = p * (13591409 + 545140134 * a)
        return p, q, -t if a % 2 else t
    m = (a + b) // 2
    p1, q1, t1 = _pi_split(a, m)
    p2, q2, t2 = _pi_split(m, b)
    return p1 * p2, q1 * q2, q2 * t1 + p1 * t2


def _pi_scaled(fraction_bits: int) -> int:
    bits = fraction_bits + GUARD
    _, q, t = _pi_split(0, bits // 47 + 2)  # each term adds log2(640320^3 / 1728) > 47 bits
    return floor_div(426880 * floor_sqrt_scaled(10005, bits) * q, t) >> GUARD


#: integer part's bits of each constant (how many of the data file's bits come before the point).
_INTEGER_BITS = {"e": 2, "pi": 2, "sqrt2": 1, "sqrt3": 1}
_SCALED = {"e": _e_scaled, "pi": _pi_scaled,
           "sqrt2": lambda f: floor_sqrt_scaled(2, f), "sqrt3": lambda f: floor_sqrt_scaled(3, f)}


@functools.lru_cache(maxsize=4)
def expansion_bits(name: str, count: int = E_BITS) -> np.ndarray:
    """The first ``count`` bits of constant ``name`` ("e", "pi", "sqrt2", "sqrt3"), integer part first."""
    text = bin(_SCALED[name](count - _INTEGER_BITS[name]))[2:]
    assert len(text) == count, (name, len(text))
    bits = np.frombuffer(text.encode("ascii"), dtype=np.uint8) - ord("0")
    bits.setflags(write=False)
    return bits


def e_bits(count: int = E_BITS) -> np.ndarray:
    """The first ``count`` bits of e (integer part "10" first), as a read-only uint8 array."""
    return expansion_bits("e", count)


def digest(bits: np.ndarray) -> str:
    return hashlib.sha256((bits + ord("0")).astype(np.uint8).tobytes()).hexdigest()
