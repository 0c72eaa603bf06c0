"""Maurer's "universal statistical" test of NIST SP 800-22 Rev. 1a §2.9.

The sequence is read as L-bit blocks: the first Q initialise a table of the
last position of each pattern, and over the K following blocks
f_n = (1/K) Σ log2(i - last[pattern_i]).  Compared with its expected value
and variance for L (the table of §2.9.4 step 5, as NIST's reference code has
it), with σ = c sqrt(variance/K), c = 0.7 - 0.8/L + (4 + 32/L) K^(-3/L)/15:
P = erfc(|f_n - E| / (sqrt 2 σ)).  The distances come from one pass with
the standard's table in C (``stats._sp800_22_native.universal_distances``);
their logarithms and sum are numpy's.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.9 and §3.9.
.. [2] U. M. Maurer, "A universal statistical test for random bit
   generators", J. Cryptology 5 (1992) 89-105.
.. [3] J.-S. Coron and D. Naccache, "An accurate evaluation of Maurer's
   universal test", SAC 1998, LNCS 1556, 57-71 (the factor c).
"""
from __future__ import annotations

import math

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, erfc, require, sequence_bits
from stats._validate import check_int

#: L -> (expectedValue, variance), §2.9.4 step 5 (L = 1..16).
MOMENTS = {1: (0.7326495, 0.690), 2: (1.5374383, 1.338), 3: (2.4016068, 1.901), 4: (3.3112247, 2.358),
           5: (4.2534266, 2.705), 6: (5.2177052, 2.954), 7: (6.1962507, 3.125), 8: (7.1836656, 3.238),
           9: (8.1764248, 3.311), 10: (9.1723243, 3.356), 11: (10.170032, 3.384), 12: (11.168765, 3.401),
           13: (12.168070, 3.410), 14: (13.167693, 3.416), 15: (14.167488, 3.419), 16: (15.167379, 3.421)}
#: §2.9.7: smallest n for L = 6..16 (Q = 10 · 2^L).
MIN_BITS = {6: 387_840, 7: 904_960, 8: 2_068_480, 9: 4_654_080, 10: 10_342_400, 11: 22_753_280,
            12: 49_643_520, 13: 107_560_960, 14: 231_669_760, 15: 496_435_200, 16: 1_059_061_760}


def default_block(n: int) -> int:
    """L for n bits by §2.9.7 (the largest L whose smallest n fits; 6 below that)."""
    return max([l for l, low in MIN_BITS.items() if n >= low], default=6)


def universal_test(bits, block: int | None = None, init_blocks: int | None = None, *,
                   strict: bool = True) -> SP800Result:
    """Maurer's universal statistical test (SP 800-22 §2.9).

    Null hypothesis: the sequence cannot be compressed (the distance between
    repeats of L-bit patterns is as in independent fair bits).

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    block : int, optional
        L, 1..16; default from n by §2.9.7.
    init_blocks : int, optional
        Q, the initialisation blocks; default 10 · 2^L.
    strict : bool, optional
        Refuse what §2.9.7 does not recommend: L outside 6..16, n below its
        smallest n for L, Q < 10 · 2^L.

    Returns
    -------
    SP800Result
        ``statistic`` f_n; ``details``: ``L``, ``Q``, ``K``, ``expected``, ``sigma``.
    """
    x = sequence_bits(bits)
    n = x.size
    l = default_block(n) if block is None else check_int("block", block, 1, 16)
    q = 10 * 2**l if init_blocks is None else check_int("init_blocks", init_blocks, 1)
    test = "universal statistical test"
    require(test, strict, 6 <= l <= 16, 6, l, "bits per block", "SP 800-22 §2.9.7: 6 <= L <= 16")
    require(test, strict, n >= MIN_BITS.get(l, 0), MIN_BITS.get(l, 0), n, "bits", f"SP 800-22 §2.9.7 for L = {l}")
    require(test, strict, q >= 10 * 2**l, 10 * 2**l, q, "initialisation blocks", "SP 800-22 §2.9.7: Q >= 10 · 2^L")
    total = n // l
    k = total - q
    if k <= 0:
        raise ValueError(f"{n} bits give {total} blocks of L = {l}, not more than Q = {q}")
    distance = _native.universal_distances(x, l, q, k)  # a block never seen before: distance = i, as the table
    fn = float(np.sum(np.log2(distance)) / k)
    expected, variance = MOMENTS[l]
    c = 0.7 - 0.8 / l + (4 + 32 / l) * k ** (-3 / l) / 15
    sigma = c * math.sqrt(variance / k)
    return SP800Result(fn, erfc(abs(fn - expected) / (math.sqrt(2) * sigma)), n,
                       {"L": l, "Q": q, "K": k, "expected": expected, "sigma": sigma})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("Universal", universal_test, order=10)]


__all__ = ["universal_test", "default_block", "MOMENTS"]
