"""The binary expansion of e, the input of SP 800-22's worked examples on 10^6 bits.

e = Σ_{k>=0} 1/k! is summed exactly by binary splitting (P(a, b)/Q(a, b) =
Σ_{k=a+1..b} a!/k!, P(a, b) = P(a, m) Q(m, b) + P(m, b), Q(a, b) = Q(a, m) Q(m, b)),
and floor(e · 2^B) is one integer division with 64 guard bits, far beyond the
truncation error of the series.  The standard's data file ``data.e`` holds
the integer part's bits "10" followed by the fraction's: the first 10^6 of
those are the sequence (the frequency test's P-value of Appendix B,
0.953749, holds for exactly that sequence).
"""
from __future__ import annotations

import functools
import hashlib
import math

import numpy as np

E_BITS = 1_000_000
#: SHA-256 of the 10^6 bits of e as ASCII "0"/"1" (as data.e holds them, without white space).
E_SHA256 = "b5a3b3b457a180cd3c6054f49563c6e7a008e5f080fc2b00b94668c3d96245e3"


def _split(a: int, b: int) -> tuple[int, int]:
    if b - a == 1:
        return 1, b
    m = (a + b) // 2
    p1, q1 = _split(a, m)
    p2, q2 = _split(m, b)
    return p1 * q2 + p2, q1 * q2


def _terms(bits: int) -> int:
    """Terms N with N! > 2^(bits + 64)."""
    n, log2_factorial = 1, 0.0
    while log2_factorial < bits + 64:
        n += 1
        log2_factorial += math.log2(n)
    return n


@functools.lru_cache(maxsize=1)
def e_bits(count: int = E_BITS) -> np.ndarray:
    """The first ``count`` bits of e (integer part "10" first), as a read-only uint8 array."""
    fraction_bits = count - 2 + 64
    p, q = _split(0, _terms(fraction_bits))
    scaled = ((q + p) << fraction_bits) // q  # floor(e · 2^fraction_bits), e = 1 + P/Q
    text = bin(scaled)[2:][:count]
    bits = np.frombuffer(text.encode("ascii"), dtype=np.uint8) - ord("0")
    bits.setflags(write=False)
    return bits


def digest(bits: np.ndarray) -> str:
    return hashlib.sha256((bits + ord("0")).astype(np.uint8).tobytes()).hexdigest()
