"""Approximate entropy test of NIST SP 800-22 Rev. 1a §2.12.

φ(m) = Σ_i π_i ln π_i over the frequencies π_i of the 2^m overlapping m-bit
patterns (the sequence wrapped around by m - 1 bits); ApEn(m) = φ(m) - φ(m+1)
and χ² = 2n (ln 2 - ApEn) has 2^m degrees of freedom: P = igamc(2^(m-1), χ²/2).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.12 and §3.12.
"""
from __future__ import annotations

import math

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, igamc, require_pattern_length, sequence_bits
from stats._validate import check_int

DEFAULT_M = 10  # NIST's reference code and Appendix B


def pattern_counts(bits: np.ndarray, m: int) -> np.ndarray:
    """Counts of the 2^m overlapping m-bit patterns of the sequence wrapped by m - 1 bits (one C pass)."""
    return _native.pattern_counts(bits, m)


def _phi(counts: np.ndarray, n: int) -> float:
    pi = counts[counts > 0] / n
    return float(np.sum(pi * np.log(pi)))


def approximate_entropy_test(bits, m: int = DEFAULT_M, *, strict: bool = True) -> SP800Result:
    """Approximate entropy test (SP 800-22 §2.12).

    Null hypothesis: the overlapping m- and (m+1)-bit patterns are as
    frequent as in independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    m : int, optional
        Block length (default 10).
    strict : bool, optional
        Refuse m >= floor(log2 n) - 5 (§2.12.7).

    Returns
    -------
    SP800Result
        ``statistic`` χ²(obs); ``details``: ``ApEn``, ``phi_m``, ``phi_m1``.
    """
    x = sequence_bits(bits)
    n = x.size
    m = check_int("m", m, 1, 24)
    require_pattern_length("approximate entropy test", strict, m, n, 5, "§2.12.7")
    longer = pattern_counts(x, m + 1)  # one pass; the m-bit counts follow from the (m+1)-bit ones
    phi_m, phi_m1 = _phi(_native.shorter_counts(longer), n), _phi(longer, n)
    apen = phi_m - phi_m1
    chi2 = 2 * n * (math.log(2) - apen)
    return SP800Result(chi2, igamc(2 ** (m - 1), chi2 / 2), n, {"ApEn": apen, "phi_m": phi_m, "phi_m1": phi_m1})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("ApproximateEntropy", approximate_entropy_test, order=11)]


__all__ = ["approximate_entropy_test", "pattern_counts", "DEFAULT_M"]
