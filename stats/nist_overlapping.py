"""Overlapping template matching test of NIST SP 800-22 Rev. 1a §2.8.

The sequence is cut into N blocks of M bits; in each block the overlapping
occurrences of the template of m ones are counted and classed 0, 1, ...,
K - 1, >= K (K = 5), and the class counts compared with π by χ² on K degrees
of freedom: P = igamc(K/2, χ²/2).

Which π (``probabilities``):

* ``"sp800-22"`` (default): for the standard's parameters (m = 9, M = 1032,
  K = 5) the values §2.8.4 step 4 prints in Rev. 1a, 0.364091, 0.185659,
  0.139381, 0.100571, 0.070432, 0.139865: the corrected ones of Hamano and
  Kaneko [2] that replaced the compound-Poisson approximation of Rev. 1; for
  other parameters, the compound-Poisson formula of §3.8.
* ``"exact"``: the exact law of the count in M fair bits, by a recursion on
  (current run of ones, count so far); for the standard's parameters it
  agrees with the printed values to about 1e-6.
* ``"poisson"``: the compound-Poisson formula of §3.8 with η = λ/2,
  λ = (M - m + 1)/2^m (the worked example of §2.8.4 uses it).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.8 and §3.8.
.. [2] K. Hamano and T. Kaneko, "Correction of overlapping template matching
   test included in NIST randomness test suite", IEICE Trans. Fundamentals
   E90-A (2007) 1788-1792.
"""
from __future__ import annotations

import math

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, chi_square, igamc, require, sequence_bits
from stats._validate import check_choice, check_int

DEFAULT_M, DEFAULT_BLOCK, DEFAULT_K = 9, 1032, 5
#: §2.8.4 step 4 (Rev. 1a) for m = 9, M = 1032, K = 5.
PRINTED = (0.364091, 0.185659, 0.139381, 0.100571, 0.070432, 0.139865)
PROBABILITIES = ("sp800-22", "exact", "poisson")
MIN_BITS = 1_000_000  # §2.8.7


def poisson_probabilities(m: int, block: int, k: int) -> tuple:
    """π_0..π_K by the compound-Poisson law of §3.8 (η = λ/2)."""
    eta = (block - m + 1) / 2**m / 2
    probs = [math.exp(-eta)]
    for u in range(1, k):
        total = sum(math.comb(u - 1, l - 1) * eta**l / math.factorial(l) for l in range(1, u + 1))
        probs.append(math.exp(-eta) / 2**u * total)
    return tuple(probs) + (1 - sum(probs),)


def exact_probabilities(m: int, block: int, k: int) -> tuple:
    """π_0..π_K exactly: the law of the overlapping count of m ones in ``block`` fair bits."""
    # state: (run of ones so far, capped at m - 1 after a match; count capped at k)
    dist = np.zeros((m, k + 1))
    dist[0, 0] = 1.0
    for _ in range(block):
        new = np.zeros_like(dist)
        new[0] += dist.sum(axis=0) / 2  # a zero resets the run
        ones = dist / 2
        new[1:m] += ones[: m - 1]
        # a one after a run of m - 1 completes a match; the run stays at m - 1 (overlapping)
        matched = ones[m - 1]
        new[m - 1, 1:] += matched[:-1]
        new[m - 1, k] += matched[k]
        dist = new
    return tuple(float(p) for p in dist.sum(axis=0))


def overlapping_template_test(bits, m: int = DEFAULT_M, *, block: int = DEFAULT_BLOCK, k: int = DEFAULT_K,
                              probabilities: str = "sp800-22", strict: bool = True) -> SP800Result:
    """Overlapping template matching test (SP 800-22 §2.8) for the template of m ones.

    Null hypothesis: runs of m ones occur (overlapping) as often as in
    independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    m : int, optional
        Template length (default 9: B = 111111111).
    block : int, optional
        M (default 1032).
    k : int, optional
        K, degrees of freedom (default 5).
    probabilities : {"sp800-22", "exact", "poisson"}, optional
        π (module doc).
    strict : bool, optional
        Refuse n < 10^6 (§2.8.7).

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``N``, ``nu``, ``pi``.
    """
    check_choice("probabilities", probabilities, PROBABILITIES)
    x = sequence_bits(bits)
    n = x.size
    m = check_int("m", m, 1, 30)
    block = check_int("block", block, m)
    k = check_int("k", k, 1)
    require("overlapping template matching test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.8.7")
    blocks = n // block
    if blocks == 0:
        raise ValueError(f"the sequence ({n} bits) is shorter than one block of {block} bits")
    if probabilities == "exact":
        pi = exact_probabilities(m, block, k)
    elif probabilities == "sp800-22" and (m, block, k) == (DEFAULT_M, DEFAULT_BLOCK, DEFAULT_K):
        pi = PRINTED
    else:
        pi = poisson_probabilities(m, block, k)
    # the overlapping occurrences of m ones in each block: its windows of m bits that are all ones
    per_block = _native.block_runs(x[: blocks * block].reshape(blocks, block), m)[1]
    nu = np.bincount(np.minimum(per_block, k), minlength=k + 1)
    chi2 = chi_square(nu, pi, blocks)
    return SP800Result(chi2, igamc(k / 2, chi2 / 2), n, {"N": blocks, "nu": tuple(int(v) for v in nu), "pi": tuple(pi)})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("OverlappingTemplate", overlapping_template_test, order=9)]


__all__ = ["overlapping_template_test", "exact_probabilities", "poisson_probabilities", "PRINTED"]
