"""Runs test of NIST SP 800-22 Rev. 1a §2.3.

V_n counts the runs (maximal blocks of equal bits).  Its reference law is
conditional on the share π of ones; the test presupposes the frequency test:
when |π - 1/2| >= τ = 2/sqrt(n) the runs test is not applicable and its
P-value is 0.0 (§2.3.4 step 2), recorded as ``details["prerequisite"]``.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.3 and §3.3.
"""
from __future__ import annotations

import math

import numpy as np

from stats._sp800_22 import SP800Result, SuiteTest, erfc, require, sequence_bits

MIN_BITS = 100  # §2.3.7


def sp800_runs_test(bits, *, strict: bool = True) -> SP800Result:
    """Runs test (SP 800-22 §2.3).

    Null hypothesis: the oscillation between zeros and ones is as fast as in a
    sequence of independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    strict : bool, optional
        Refuse n < 100 (§2.3.7).

    Returns
    -------
    SP800Result
        ``statistic`` V_n(obs); ``details``: ``pi``, ``tau`` and ``prerequisite``
        (False: the frequency prerequisite failed and P = 0.0 by the standard's rule).
    """
    x = sequence_bits(bits)
    n = x.size
    require("runs test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.3.7")
    if n < 2:
        raise ValueError("the runs test needs at least 2 bits")
    pi = np.count_nonzero(x) / n
    tau = 2 / math.sqrt(n)
    v_obs = 1 + int(np.count_nonzero(x[1:] != x[:-1]))
    details = {"pi": pi, "tau": tau, "prerequisite": abs(pi - 0.5) < tau}
    if not details["prerequisite"]:
        return SP800Result(float(v_obs), 0.0, n, details)
    spread = 2 * math.sqrt(2 * n) * pi * (1 - pi)
    return SP800Result(float(v_obs), erfc(abs(v_obs - 2 * n * pi * (1 - pi)) / spread), n, details)


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("Runs", sp800_runs_test, order=4)]


__all__ = ["sp800_runs_test"]
