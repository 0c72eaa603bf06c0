"""Cumulative sums (cusum) test of NIST SP 800-22 Rev. 1a §2.13, forward and backward.

z is the largest excursion max_k |S_k| of the ±1 random walk, taken from the
start (mode 0, forward) or from the end (mode 1, backward); its P-value
comes from the law of the maximum of a random walk (§3.13).  The sums run
over k as NIST's reference code runs them: from trunc((-n/z + 1)/4) and
trunc((-n/z - 3)/4) to trunc((n/z - 1)/4).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.13 and §3.13.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800Result, SuiteTest, require, sequence_bits
from stats._validate import check_choice

MIN_BITS = 100  # §2.13.7
MODES = ("forward", "backward")


def cusum_pvalue(z: int, n: int) -> float:
    """P-value of a maximal excursion z of a walk of n steps (§2.13.4 step 4)."""
    def terms(start: float, shift: int) -> float:
        k = np.arange(int(start), int((n / z - 1) / 4) + 1)
        root = math.sqrt(n)
        return float(np.sum(ndtr((4 * k + shift + 2) * z / root) - ndtr((4 * k + shift) * z / root)))

    return 1.0 - terms((-n / z + 1) / 4, -1) + terms((-n / z - 3) / 4, 1)


def cumulative_sums_test(bits, mode: str = "forward", *, strict: bool = True) -> SP800Result:
    """Cumulative sums test (SP 800-22 §2.13).

    Null hypothesis: the walk of ±1 steps strays from zero no further than a
    walk of independent fair steps does.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    mode : {"forward", "backward"}, optional
        Mode 0 (from the first bit) or mode 1 (from the last).
    strict : bool, optional
        Refuse n < 100 (§2.13.7).

    Returns
    -------
    SP800Result
        ``statistic`` z; ``details["mode"]``.
    """
    check_choice("mode", mode, MODES)
    x = sequence_bits(bits)
    n = x.size
    require("cumulative sums test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.13.7")
    if n == 0:
        raise ValueError("the sequence is empty")
    forward, backward = _native.cusum_excursions(x)  # both modes in one pass of the walk, in C
    z = forward if mode == "forward" else backward
    return SP800Result(float(z), cusum_pvalue(z, n), n, {"mode": mode})


#: The suite's entries (stats.sp800_22_suite): NIST reports both modes as CumulativeSums.
SP800_22 = [SuiteTest("CumulativeSums", cumulative_sums_test, lambda n, mode=mode: {"mode": mode}, order=3)
            for mode in MODES]


__all__ = ["cumulative_sums_test", "cusum_pvalue", "MODES"]
