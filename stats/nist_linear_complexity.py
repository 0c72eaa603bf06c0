"""Linear complexity test of NIST SP 800-22 Rev. 1a §2.10.

The sequence is cut into N = floor(n/M) blocks of M bits; the linear
complexity L_i of each (the length of its shortest LFSR, by
Berlekamp–Massey) gives T_i = (-1)^M (L_i - μ) + 2/9,
μ = M/2 + (9 + (-1)^(M+1))/36 - (M/3 + 2/9)/2^M, classed into 7 classes and
compared with π = (0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)
(§2.10.4 step 6 and §3.10 as printed; 1/96, 1/32, 1/8, 1/2, 1/4, 1/16, 1/48)
by χ² on 6 degrees of freedom.  ``probabilities="sts"`` uses π_0 = 0.01047
instead, as NIST's reference code does (and the standard's example and
Appendix B with it).

Speed: Berlekamp–Massey runs in C on 64-bit words (the connection
polynomials and the reversed window of the sequence packed, the discrepancy
one XOR-folded parity per step; ``csrc/stats/sp800_22.h``).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.10 and §3.10.
.. [2] J. L. Massey, "Shift-register synthesis and BCH decoding", IEEE
   Trans. Inform. Theory 15 (1969) 122-127.
"""
from __future__ import annotations

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, chi_square, igamc, require, sequence_bits
from stats._validate import check_choice, check_int

DEFAULT_BLOCK = 500  # NIST's reference code and Appendix B; §2.10.8 uses M = 1000
PI = (0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)
#: NIST's reference code (sts 2.1.2) has π_0 = 0.01047, a slip for 0.010417; the worked example of
#: §2.10.8 (χ² = 2.700348, P = 0.845406) and Appendix B were computed with it.
STS_PI = (0.01047,) + PI[1:]
PROBABILITIES = ("sp800-22", "sts")
MIN_BITS, MIN_BLOCKS, BLOCK_RANGE = 1_000_000, 200, (500, 5000)  # §2.10.7

def linear_complexities(blocks) -> np.ndarray:
    """Linear complexity of each row of a 2-D 0/1 array (Berlekamp–Massey, in C)."""
    return _native.linear_complexities(blocks)


def linear_complexity_test(bits, block: int = DEFAULT_BLOCK, *, probabilities: str = "sp800-22",
                           strict: bool = True) -> SP800Result:
    """Linear complexity test (SP 800-22 §2.10).

    Null hypothesis: the blocks' shortest LFSRs are as long as those of
    independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    block : int, optional
        M, bits per block (default 500).
    probabilities : {"sp800-22", "sts"}, optional
        π as the standard prints it (default), or with the reference code's π_0 = 0.01047.
    strict : bool, optional
        Refuse what §2.10.7 does not recommend: n < 10^6, M outside [500, 5000], N < 200.

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``M``, ``N``, ``mu``, ``nu`` (the 7 class counts).
    """
    check_choice("probabilities", probabilities, PROBABILITIES)
    x = sequence_bits(bits)
    n = x.size
    m = check_int("block", block, 1)
    test = "linear complexity test"
    require(test, strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.10.7")
    require(test, strict, BLOCK_RANGE[0] <= m <= BLOCK_RANGE[1], BLOCK_RANGE[0], m, "bits per block",
            "SP 800-22 §2.10.7: 500 <= M <= 5000")
    blocks = n // m
    require(test, strict, blocks >= MIN_BLOCKS, MIN_BLOCKS, blocks, "blocks", "SP 800-22 §2.10.7: N >= 200")
    if blocks == 0:
        raise ValueError(f"the sequence ({n} bits) is shorter than one block of {m} bits")
    lengths = linear_complexities(x[: blocks * m].reshape(blocks, m))
    sign = -1.0 if m % 2 else 1.0
    mu = m / 2 + (9 + (-1) ** (m + 1)) / 36 - (m / 3 + 2 / 9) / 2.0**m
    t = sign * (lengths - mu) + 2 / 9
    nu = np.bincount(np.digitize(t, [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], right=True), minlength=7)
    chi2 = chi_square(nu, PI if probabilities == "sp800-22" else STS_PI, blocks)
    return SP800Result(chi2, igamc(3.0, chi2 / 2), n, {"M": m, "N": blocks, "mu": mu, "nu": tuple(int(v) for v in nu)})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("LinearComplexity", linear_complexity_test, order=15)]


__all__ = ["linear_complexity_test", "linear_complexities", "PI", "STS_PI", "DEFAULT_BLOCK"]
