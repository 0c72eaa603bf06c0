"""Frequency test within a block of NIST SP 800-22 Rev. 1a §2.2.

The sequence is cut into N = floor(n/M) blocks of M bits (the rest is
discarded); π_i is the share of ones in block i and χ² = 4M Σ (π_i - 1/2)²
has N degrees of freedom: P = igamc(N/2, χ²/2).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.2 and §3.2.
"""
from __future__ import annotations

import numpy as np

from stats._sp800_22 import SP800Result, SuiteTest, igamc, require, sequence_bits
from stats._validate import check_int

#: §2.2.7: n >= 100, M >= 20, M > 0.01 n and N < 100.
MIN_BITS, MIN_BLOCK, MAX_BLOCKS = 100, 20, 100
#: The block length of NIST's reference implementation and of its Appendix B results.
DEFAULT_BLOCK = 128


def block_frequency_test(bits, block: int = DEFAULT_BLOCK, *, strict: bool = True) -> SP800Result:
    """Frequency test within a block (SP 800-22 §2.2).

    Null hypothesis: in each M-bit block the share of ones is 1/2 (independent fair bits).

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    block : int, optional
        M, the bits per block (default 128).
    strict : bool, optional
        Refuse what §2.2.7 does not recommend: n < 100, M < 20, M <= 0.01 n, N >= 100.

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``N`` blocks, ``M``, ``pi`` per block.
    """
    x = sequence_bits(bits)
    n = x.size
    m = check_int("block", block, 1)
    test = "frequency test within a block"
    require(test, strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.2.7")
    require(test, strict, m >= MIN_BLOCK, MIN_BLOCK, m, "bits per block", "SP 800-22 §2.2.7: M >= 20")
    require(test, strict, m > 0.01 * n, n // 100 + 1, m, "bits per block", "SP 800-22 §2.2.7: M > 0.01 n")
    blocks = n // m
    require(test, strict, blocks < MAX_BLOCKS, 0, 0, "", f"SP 800-22 §2.2.7: N = {blocks} blocks, must be < 100;"
            " use a longer block")
    if blocks == 0:
        raise ValueError(f"the sequence ({n} bits) is shorter than one block of {m} bits")
    pi = x[: blocks * m].reshape(blocks, m).sum(axis=1) / m
    chi2 = float(4 * m * np.sum((pi - 0.5) ** 2))
    return SP800Result(chi2, igamc(blocks / 2, chi2 / 2), n, {"N": blocks, "M": m, "pi": tuple(pi)})


#: The suite's entry (stats.sp800_22_suite).
#: The suite uses the shortest M that §2.2.7 allows for n (M > 0.01 n, N < 100).
SP800_22 = [SuiteTest("BlockFrequency", block_frequency_test, lambda n: {"block": max(MIN_BLOCK, n // MAX_BLOCKS + 1)},
                      order=2)]


__all__ = ["block_frequency_test", "DEFAULT_BLOCK"]
