"""Test for the longest run of ones in a block, NIST SP 800-22 Rev. 1a §2.4.

The sequence is cut into N = floor(n/M) blocks of M bits; the longest run of
ones in each block is classed into K + 1 classes and the class counts ν are
compared with their probabilities π by χ² on K degrees of freedom.  The
standard fixes M, K, the classes and π for three block lengths (§2.4.2,
§3.4); M follows from n by the table of §2.4.2 unless given.

π is, with ``probabilities="sp800-22"``, as printed in §3.4 (four
decimals); with ``"exact"``, the exact law of the longest run of M fair bits
(a recursion on the run length); with ``"sts"`` (default), what NIST's
reference code uses: the exact values for M = 8 and 128, the printed ones
for M = 10^4.  The worked example of §2.4.8 prints χ² = 4.882605 (from the
four-decimal π) beside P = 0.180609 (from the exact π); each follows from
its own π, not from the other.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.4 and §3.4.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, chi_square, igamc, require, sequence_bits
from stats._validate import check_choice

#: M -> (smallest class, largest class, π as printed in SP 800-22 §3.4); §2.4.2 gives the smallest n for M.
CLASSES = {
    8: (1, 4, (0.2148, 0.3672, 0.2305, 0.1875)),
    128: (4, 9, (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
    10_000: (10, 16, (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)),
}
#: §2.4.2: the smallest n for each M.
MIN_BITS = {8: 128, 128: 6272, 10_000: 750_000}
PROBABILITIES = ("sts", "sp800-22", "exact")


def default_block(n: int) -> int:
    """M for n bits by the table of §2.4.2 (as NIST's reference code picks it)."""
    return 8 if n < 6272 else 128 if n < 750_000 else 10_000


def longest_run_cdf(m: int, r: int) -> Fraction:
    """P(the longest run of ones in m fair bits is at most r), exactly.

    A(k) = number of k-bit strings with no run longer than r satisfies
    A(k) = Σ_{j=0..r} A(k - j - 1) (the string ends in j ones after a zero).
    """
    counts = [1] * (r + 1) + [0] * max(0, m - r)  # A(k) = 2^k for k <= r
    counts[: r + 1] = [1 << k for k in range(r + 1)]
    for k in range(r + 1, m + 1):
        counts[k] = sum(counts[k - j - 1] for j in range(r + 1))
    return Fraction(counts[m], 1 << m)


def exact_probabilities(m: int) -> tuple:
    """The class probabilities of §2.4 for block length m, computed exactly."""
    low, high, _ = CLASSES[m]
    cdf = [longest_run_cdf(m, r) for r in range(low, high)]
    probs = [cdf[0]] + [cdf[i] - cdf[i - 1] for i in range(1, len(cdf))] + [1 - cdf[-1]]
    return tuple(float(p) for p in probs)


def longest_runs(blocks: np.ndarray) -> np.ndarray:
    """Longest run of ones in each row of a 2-D 0/1 array (one C pass per row)."""
    return _native.block_runs(blocks, 1)[0]


def longest_run_test(bits, block: int | None = None, *, probabilities: str = "sts",
                     strict: bool = True) -> SP800Result:
    """Test for the longest run of ones in a block (SP 800-22 §2.4).

    Null hypothesis: the longest runs of ones in M-bit blocks are as long as
    in independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    block : {8, 128, 10000}, optional
        M; default from n by §2.4.2 (n >= 128: 8, >= 6272: 128, >= 750,000: 10^4).
    probabilities : {"sts", "sp800-22", "exact"}, optional
        π as NIST's reference code has it (default), as printed in §3.4, or
        computed exactly (module doc).
    strict : bool, optional
        Refuse n below the smallest n of §2.4.2 for M.

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``M``, ``N``, ``K``, ``nu`` (class counts), ``pi``.
    """
    check_choice("probabilities", probabilities, PROBABILITIES)
    x = sequence_bits(bits)
    n = x.size
    m = default_block(n) if block is None else block
    check_choice("block", m, tuple(CLASSES))
    require("longest run of ones test", strict, n >= MIN_BITS[m], MIN_BITS[m], n, "bits",
            f"SP 800-22 §2.4.2 for M = {m}")
    blocks = n // m
    if blocks == 0:
        raise ValueError(f"the sequence ({n} bits) is shorter than one block of {m} bits")
    low, high, printed = CLASSES[m]
    exact = probabilities == "exact" or (probabilities == "sts" and m != 10_000)
    pi = exact_probabilities(m) if exact else printed
    runs = longest_runs(x[: blocks * m].reshape(blocks, m))
    nu = np.bincount(np.clip(runs, low, high) - low, minlength=high - low + 1)
    k = len(pi) - 1
    chi2 = chi_square(nu, pi, blocks)
    return SP800Result(chi2, igamc(k / 2, chi2 / 2), n,
                       {"M": m, "N": blocks, "K": k, "nu": tuple(int(v) for v in nu), "pi": tuple(pi)})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("LongestRun", longest_run_test, order=5)]


__all__ = ["longest_run_test", "longest_runs", "longest_run_cdf", "exact_probabilities", "default_block", "CLASSES"]
