"""Decimal figures of rigorous bounds, rounded outward.

A bound printed rounded to the nearest digit can land on the wrong side of
what it bounds (a lower bound 0.1234567896 shown as 0.123456790 is no
longer a lower bound).  The report prints a bounded figure's lower end
rounded down and its upper end rounded up, so the printed interval still
holds the true value.
"""
from __future__ import annotations

import math
from fractions import Fraction


def fixed(x: Fraction, places: int, *, up: bool) -> str:
    """``x`` with ``places`` decimals, rounded up (``up``) or down: ``fixed(Fraction(2, 3), 3, up=False)`` is ``0.666``."""
    scaled = x * 10**places
    n = math.ceil(scaled) if up else math.floor(scaled)
    sign, digits = ("-" if n < 0 else ""), str(abs(n)).rjust(places + 1, "0")
    return f"{sign}{digits}" if places == 0 else f"{sign}{digits[:-places]}.{digits[-places:]}"


def significant(x: Fraction, digits: int, *, up: bool) -> str:
    """``x`` (>= 0) to ``digits`` significant digits, rounded up or down, in fixed or ``e`` notation as ``%g``
    would choose."""
    if x < 0:
        raise ValueError(f"significant() takes x >= 0, got {x}")
    if x == 0:
        return "0"
    e = _exponent(x)
    if -5 <= e < digits:
        return fixed(x, max(digits - 1 - e, 0), up=up)
    scaled = x * Fraction(10) ** (digits - 1 - e)  # digits significant digits before the point
    n = math.ceil(scaled) if up else math.floor(scaled)
    if n >= 10**digits:  # rounding up carried into a new digit (9.99..95 -> 10.0)
        n, e = n // 10, e + 1
    mantissa = str(n)
    mantissa = mantissa[0] + ("." + mantissa[1:] if digits > 1 else "")
    return f"{mantissa}e{'-' if e < 0 else '+'}{abs(e):02d}"


def sqrt_fixed(v: Fraction, places: int, *, up: bool) -> str:
    """The square root of ``v`` (>= 0) with ``places`` decimals, rounded up or down (integer square roots:
    no float in between)."""
    scaled = v * 10 ** (2 * places)
    if up:
        target = math.ceil(scaled)
        r = math.isqrt(target)
        r += r * r < target
    else:
        r = math.isqrt(math.floor(scaled))
    return fixed(Fraction(r, 10**places), places, up=up)


def _exponent(x: Fraction) -> int:
    """The decimal exponent of ``x`` > 0: ``10**e <= x < 10**(e + 1)``."""
    e = math.floor(math.log10(x.numerator) - math.log10(x.denominator))
    while Fraction(10) ** e > x:  # the logarithms' floats can be one off at a power of 10
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e
