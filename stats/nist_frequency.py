"""Frequency (monobit) test of NIST SP 800-22 Rev. 1a §2.1.

S_n = Σ (2 ε_i - 1) sums the ±1 steps; s_obs = |S_n| / sqrt(n) is half-normal
for a random sequence, and P = erfc(s_obs / sqrt 2).  Every other test of the
suite assumes this one passes.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.1 and §3.1.
"""
from __future__ import annotations

import math

import numpy as np

from stats._sp800_22 import SP800Result, SuiteTest, erfc, require, sequence_bits

#: §2.1.7: "It is recommended that each sequence to be tested consist of a minimum of 100 bits".
MIN_BITS = 100


def monobit_test(bits, *, strict: bool = True) -> SP800Result:
    """Frequency (monobit) test (SP 800-22 §2.1).

    Null hypothesis: the bits are independent and each is 1 with probability 1/2.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
        The sequence ε (bytes: most significant bit first).
    strict : bool, optional
        Refuse sequences below the standard's recommended n >= 100 (default).

    Returns
    -------
    SP800Result
        ``statistic`` s_obs, ``pvalue``; ``details["S_n"]``.
    """
    x = sequence_bits(bits)
    n = x.size
    require("frequency (monobit) test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.1.7")
    if n == 0:
        raise ValueError("the sequence is empty")
    s_n = 2 * int(np.count_nonzero(x)) - n
    s_obs = abs(s_n) / math.sqrt(n)
    return SP800Result(s_obs, erfc(s_obs / math.sqrt(2.0)), n, {"S_n": s_n})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("Frequency", monobit_test, order=1)]


__all__ = ["monobit_test", "MIN_BITS"]
