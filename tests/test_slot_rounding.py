"""Outward rounding of the report's bounded figures (harness.slot.rounding) against decimal's
directed rounding of the same fractions, and its known answers."""
from __future__ import annotations

import decimal
import random
from fractions import Fraction

import pytest

from harness.slot.rounding import fixed, significant, sqrt_fixed


def directed(x: Fraction, places: int, up: bool) -> decimal.Decimal:
    """``x`` to ``places`` decimals by decimal's own ROUND_CEILING / ROUND_FLOOR (a wide context: exact)."""
    ctx = decimal.Context(prec=200, rounding=decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR)
    q = ctx.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator))
    return q.quantize(decimal.Decimal(1).scaleb(-places), context=ctx)


def test_known_answers():
    assert (fixed(Fraction(2, 3), 3, up=False), fixed(Fraction(2, 3), 3, up=True)) == ("0.666", "0.667")
    assert (fixed(Fraction(-2, 3), 2, up=False), fixed(Fraction(-2, 3), 2, up=True)) == ("-0.67", "-0.66")
    assert fixed(Fraction(7, 2), 0, up=True) == "4" and fixed(Fraction(1, 8), 3, up=True) == "0.125"
    assert (significant(Fraction(1, 3), 3, up=False), significant(Fraction(1, 3), 3, up=True)) == ("0.333", "0.334")
    assert significant(Fraction(1, 3 * 10**8), 3, up=True) == "3.34e-09"
    assert significant(Fraction(10**9 - 1), 3, up=True) == "1.00e+09"  # the carry into a new digit
    assert significant(Fraction(0), 4, up=True) == "0"
    assert (sqrt_fixed(Fraction(2), 4, up=False), sqrt_fixed(Fraction(2), 4, up=True)) == ("1.4142", "1.4143")
    assert sqrt_fixed(Fraction(9, 4), 3, up=True) == sqrt_fixed(Fraction(9, 4), 3, up=False) == "1.500"


@pytest.mark.parametrize("seed", range(3))
def test_fixed_is_decimals_directed_rounding(seed):
    rnd = random.Random(seed)
    for _ in range(300):
        x = Fraction(rnd.randrange(-10**12, 10**12), rnd.randrange(1, 10**9))
        places = rnd.randrange(0, 12)
        for up in (False, True):
            assert decimal.Decimal(fixed(x, places, up=up)) == directed(x, places, up)


@pytest.mark.parametrize("seed", range(3))
def test_bounds_bracket_the_value(seed):
    rnd = random.Random(seed)
    for _ in range(300):
        x = Fraction(rnd.randrange(1, 10**15), rnd.randrange(1, 10**15)) * Fraction(10) ** rnd.randrange(-12, 12)
        digits = rnd.randrange(1, 10)
        lo, hi = (Fraction(decimal.Decimal(significant(x, digits, up=up))) for up in (False, True))
        assert lo <= x <= hi and (hi - lo) <= Fraction(10) ** (1 - digits) * x  # one unit in the last digit
        r_lo, r_hi = (Fraction(decimal.Decimal(sqrt_fixed(x, 6, up=up))) for up in (False, True))
        assert r_lo * r_lo <= x <= r_hi * r_hi and r_hi - r_lo <= Fraction(1, 10**6)
