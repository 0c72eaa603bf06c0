"""Random excursions variant test of NIST SP 800-22 Rev. 1a §2.15 (18 states).

ξ(x) counts every visit of the ±1 walk to state x (x in ±1..±9) over its J
cycles; P = erfc(|ξ(x) - J| / sqrt(2J(4|x| - 2))).  Like the random
excursions test it applies only when J >= 500 (§2.15.7), and its counts come
from the same pass of the walk in C.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.15 and §3.15.
"""
from __future__ import annotations

import math

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800MultiResult, SuiteTest, erfc, require, sequence_bits
from stats.nist_excursions import MIN_BITS, minimum_cycles

STATES = tuple(range(-9, 0)) + tuple(range(1, 10))


def random_excursions_variant_test(bits, *, strict: bool = True) -> SP800MultiResult:
    """Random excursions variant test (SP 800-22 §2.15): one P-value per state -9..-1, +1..+9.

    Null hypothesis: the walk visits each state as often as a walk of
    independent fair steps does.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    strict : bool, optional
        Refuse n < 10^6 or J below the minimum (§2.15.7).

    Returns
    -------
    SP800MultiResult
        Labels ``"-9"`` .. ``"+9"``, statistic ξ(x) per state; ``details["J"]``.
    """
    x = sequence_bits(bits)
    n = x.size
    require("random excursions variant test", strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.15.7")
    if n == 0:
        raise ValueError("the walk has no cycle")
    j, _, xi = _native.excursion_counts(x)
    require("random excursions variant test", strict, j >= minimum_cycles(n), minimum_cycles(n), j, "cycles",
            "SP 800-22 §2.15.7: the walk returns to zero too rarely")
    pvalues = [erfc(abs(v - j) / math.sqrt(2 * j * (4 * abs(s) - 2))) for v, s in zip(xi, STATES)]
    return SP800MultiResult(xi, pvalues, tuple(f"{s:+d}" for s in STATES), n, {"J": j})


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("RandomExcursionsVariant", random_excursions_variant_test, order=13)]


__all__ = ["random_excursions_variant_test", "STATES"]
