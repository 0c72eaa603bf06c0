"""Binary matrix rank test of NIST SP 800-22 Rev. 1a §2.5.

The sequence fills N = floor(n/(MQ)) disjoint M × Q matrices over GF(2), row
by row; their ranks are classed as M (full), M - 1 and lower, and compared
with the exact rank law of a random matrix by χ² on 2 degrees of freedom:
P = exp(-χ²/2).  Ranks come from Gaussian elimination over GF(2) with
each matrix's rows one 64-bit word, in C (``stats._sp800_22_native.gf2_ranks``).

The rank probabilities are exact (§3.5:
p_r = 2^(r(Q+M-r)-MQ) Π_{i<r} (1-2^(i-Q))(1-2^(i-M))/(1-2^(i-r))), as NIST's
reference code computes them; §2.5.4 prints them rounded (0.2888, 0.5776,
0.1336 for 32 × 32).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.5 and §3.5.
.. [2] I. N. Kovalenko, "Distribution of the linear rank of a random
   matrix", Theory Probab. Appl. 17 (1972) 342-346.
"""
from __future__ import annotations

import math

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, chi_square, require, sequence_bits
from stats._validate import check_int

DEFAULT_SHAPE = 32  # M = Q = 32 (§2.5.2)
MIN_MATRICES = 38  # §2.5.7: n >= 38 M Q


def rank_probability(r: int, m: int, q: int) -> float:
    """P(rank = r) for a random m × q matrix over GF(2)."""
    product = 1.0
    for i in range(r):
        product *= (1 - 2.0 ** (i - q)) * (1 - 2.0 ** (i - m)) / (1 - 2.0 ** (i - r))
    return 2.0 ** (r * (q + m - r) - m * q) * product


def matrix_rank_test(bits, rows: int = DEFAULT_SHAPE, columns: int = DEFAULT_SHAPE, *,
                     strict: bool = True) -> SP800Result:
    """Binary matrix rank test (SP 800-22 §2.5).

    Null hypothesis: the ranks of disjoint M × Q bit matrices follow the rank
    law of random matrices (no linear dependence among substrings).

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    rows, columns : int, optional
        M and Q (default 32 × 32; Q at most 64).
    strict : bool, optional
        Refuse n < 38 M Q (§2.5.7).

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``N``, ``F_M``, ``F_M-1``, ``rest``, ``probabilities``.
    """
    x = sequence_bits(bits)
    n = x.size
    m = check_int("rows", rows, 1)
    q = check_int("columns", columns, 1, 64)
    require("binary matrix rank test", strict, n >= MIN_MATRICES * m * q, MIN_MATRICES * m * q, n, "bits",
            "SP 800-22 §2.5.7: n >= 38 M Q")
    count = n // (m * q)
    if count == 0:
        raise ValueError(f"the sequence ({n} bits) is shorter than one {m} x {q} matrix")
    ranks = _native.gf2_ranks(x, count, m, q)
    full = min(m, q)
    p_full, p_less = rank_probability(full, m, q), rank_probability(full - 1, m, q)
    probs = (p_full, p_less, 1 - p_full - p_less)
    counts = (int(np.count_nonzero(ranks == full)), int(np.count_nonzero(ranks == full - 1)))
    counts += (count - counts[0] - counts[1],)
    chi2 = chi_square(counts, probs, count)
    return SP800Result(chi2, float(math.exp(-chi2 / 2)), n,
                       {"N": count, "F_M": counts[0], "F_M-1": counts[1], "rest": counts[2], "probabilities": probs})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("Rank", matrix_rank_test, order=6)]


__all__ = ["matrix_rank_test", "rank_probability"]
