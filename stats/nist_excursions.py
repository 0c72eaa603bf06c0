"""Random excursions test of NIST SP 800-22 Rev. 1a §2.14 (8 states).

The ±1 walk S, padded with 0 at both ends, splits into J cycles (returns to
zero).  For each state x in ±1..±4, ν_k(x) counts the cycles that visit x
exactly k times (k = 5 meaning >= 5), compared with
π_0 = 1 - 1/(2|x|), π_k = (1/(4x²))(1 - 1/(2|x|))^(k-1) (k = 1..4),
π_5 = (1/(2|x|))(1 - 1/(2|x|))^4 by χ² on 5 degrees of freedom.

The test applies only when J >= 500 (§2.14.7; NIST's code uses
max(0.005 sqrt(n), 500)).  With fewer cycles it raises
InsufficientDataError, and the §4 assessment counts such a sequence as not
tested, not as failing.

The walk, its cycles and the visit counts come from one pass in C
(``stats._sp800_22_native.excursion_counts``), which serves the variant
test too.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.14 and §3.14.
.. [2] M. Baron and A. L. Rukhin, "Distribution of the number of visits of a
   random walk", Comm. Statist. Stochastic Models 15 (1999) 593-597.
"""
from __future__ import annotations

import math

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800MultiResult, SuiteTest, chi_square, igamc, require, sequence_bits

STATES = (-4, -3, -2, -1, 1, 2, 3, 4)
MIN_BITS = 1_000_000  # §2.14.7


def minimum_cycles(n: int) -> int:
    """J needed for n bits: max(0.005 sqrt(n), 500), as NIST's reference code tests it."""
    return max(500, int(math.ceil(0.005 * math.sqrt(n))))


def state_probabilities(x: int) -> np.ndarray:
    """π_0..π_5 of §3.14 for state x."""
    a = 1 / (2 * abs(x))
    k = np.arange(1, 5)
    return np.concatenate([[1 - a], (1 / (4 * x * x)) * (1 - a) ** (k - 1), [a * (1 - a) ** 4]])


def random_excursions_test(bits, *, strict: bool = True) -> SP800MultiResult:
    """Random excursions test (SP 800-22 §2.14): one P-value per state -4..-1, +1..+4.

    Null hypothesis: in each cycle of the walk the number of visits to each
    state follows the law of a walk of independent fair steps.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    strict : bool, optional
        Refuse n < 10^6 or J below :func:`minimum_cycles` (§2.14.7).

    Returns
    -------
    SP800MultiResult
        Labels ``"-4"`` .. ``"+4"``, statistic χ²(obs) per state; ``details``:
        ``J`` and ``nu`` (the 6 counts per state).

    Raises
    ------
    InsufficientDataError
        Too few bits or cycles (``strict``), or no cycle at all.
    """
    x = sequence_bits(bits)
    n = x.size
    require("random excursions test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.14.7")
    if n == 0:
        raise ValueError("the walk has no cycle")
    j, nu_all, _ = _native.excursion_counts(x)
    require("random excursions test", strict, j >= minimum_cycles(n), minimum_cycles(n), j, "cycles",
            "SP 800-22 §2.14.7: the walk returns to zero too rarely")
    stats_, pvalues, nus = [], [], {}
    for state, nu in zip(STATES, nu_all):
        chi2 = chi_square(nu, state_probabilities(state), j)
        stats_.append(chi2)
        pvalues.append(igamc(2.5, chi2 / 2))
        nus[f"{state:+d}"] = tuple(int(v) for v in nu)
    return SP800MultiResult(stats_, pvalues, tuple(f"{s:+d}" for s in STATES), n, {"J": j, "nu": nus})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("RandomExcursions", random_excursions_test, order=12)]


__all__ = ["random_excursions_test", "state_probabilities", "minimum_cycles", "STATES"]
