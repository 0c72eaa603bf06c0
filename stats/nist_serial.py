"""Serial test of NIST SP 800-22 Rev. 1a §2.11 (both P-values).

ψ²_m = (2^m / n) Σ ν_i² - n over the counts of the 2^m overlapping m-bit
patterns of the sequence wrapped by m - 1 bits; ∇ψ²_m = ψ²_m - ψ²_(m-1) and
∇²ψ²_m = ψ²_m - 2ψ²_(m-1) + ψ²_(m-2) give P-value1 = igamc(2^(m-2), ∇ψ²_m/2)
and P-value2 = igamc(2^(m-3), ∇²ψ²_m/2).

This is the standard's serial test on bits; :func:`stats.serial_test` is the
(different) overlapping-pairs test on categorical outcomes.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.11 and §3.11.
.. [2] I. J. Good, "The serial test for sampling numbers and other tests for
   randomness", Proc. Cambridge Philos. Soc. 49 (1953) 276-284.
"""
from __future__ import annotations

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800MultiResult, SuiteTest, igamc, require_pattern_length, sequence_bits
from stats._validate import check_int
from stats.nist_approximate_entropy import pattern_counts

DEFAULT_M = 16  # NIST's reference code and Appendix B


def _psi(counts: np.ndarray, n: int) -> float:
    """ψ²_m = (2^m / n) Σ ν_i² - n from the 2^m counts (ψ²_0 = 0)."""
    if counts.size == 1:
        return 0.0
    counts = counts.astype(np.float64)
    return float(counts.size / n * np.sum(counts * counts) - n)


def psi_squared(bits: np.ndarray, m: int) -> float:
    """ψ²_m of §2.11.4 step 3 (0 for m <= 0)."""
    return _psi(pattern_counts(bits, m), bits.size) if m > 0 else 0.0


def sp800_serial_test(bits, m: int = DEFAULT_M, *, strict: bool = True) -> SP800MultiResult:
    """Serial test (SP 800-22 §2.11): both P-values.

    Null hypothesis: every overlapping m-bit pattern is as frequent as every other.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    m : int, optional
        Block length (default 16), at least 2.
    strict : bool, optional
        Refuse m >= floor(log2 n) - 2 (§2.11.7).

    Returns
    -------
    SP800MultiResult
        Labels ``"P-value1"`` (∇ψ²_m) and ``"P-value2"`` (∇²ψ²_m); ``details``:
        ``psi2`` (ψ²_m, ψ²_(m-1), ψ²_(m-2)).
    """
    x = sequence_bits(bits)
    n = x.size
    m = check_int("m", m, 2, 24)
    require_pattern_length("serial test", strict, m, n, 2, "§2.11.7")
    counts = [pattern_counts(x, m)]  # one pass; the (m-1)- and (m-2)-bit counts follow from it
    for _ in range(2):
        counts.append(_native.shorter_counts(counts[-1]))
    psi = [_psi(c, n) for c in counts]
    del1 = psi[0] - psi[1]
    del2 = psi[0] - 2 * psi[1] + psi[2]
    pvalues = [igamc(2 ** (m - 2), del1 / 2), igamc(2 ** (m - 3), del2 / 2)]
    return SP800MultiResult([del1, del2], pvalues, ("P-value1", "P-value2"), n, {"psi2": tuple(psi)})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("Serial", sp800_serial_test, order=14)]


__all__ = ["sp800_serial_test", "psi_squared", "DEFAULT_M"]
