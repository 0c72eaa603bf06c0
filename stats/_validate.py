"""Argument checking shared by every test: one message style everywhere."""
from __future__ import annotations

from fractions import Fraction
from numbers import Integral, Rational

import numpy as np


class InsufficientDataError(ValueError):
    """Too few observations for a test's approximation to be valid.

    Attributes
    ----------
    test : str
        Name of the test.
    needed : int
        Smallest sample size (in the test's own units) that makes it valid.
    got : int
        Sample size supplied.
    unit : str
        What is counted ("outcomes", "shuffles", ...).
    """

    def __init__(self, test: str, needed: int, got: int, unit: str = "outcomes", why: str = ""):
        self.test, self.needed, self.got, self.unit = test, int(needed), int(got), unit
        reason = f" ({why})" if why else ""
        super().__init__(f"{test} needs at least {self.needed:,} {unit}, got {self.got:,}{reason}")


def check_choice(name: str, value, choices) -> None:
    """Raise ValueError listing ``choices`` when ``value`` is not one of them."""
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    """``value`` as an int in [low, high]; ValueError naming the range otherwise."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be in {span}, got {value}")
    return value


def exact_probabilities(probabilities) -> tuple[Fraction, ...]:
    """Validate a distribution and return it as exact Fractions.

    ``probabilities`` is an int ``k`` (k equally likely categories) or a
    sequence of Fractions, ints or floats.  Fractions must sum to exactly 1;
    floats to 1 within 1e-9 (they are converted with
    ``Fraction.limit_denominator`` only when that reproduces them exactly to
    double precision, otherwise kept as their exact binary value).
    """
    if isinstance(probabilities, Integral) and not isinstance(probabilities, bool):
        k = int(probabilities)
        if k < 2:
            raise ValueError(f"need at least 2 categories, got {k}")
        return (Fraction(1, k),) * k
    try:
        values = list(probabilities)
    except TypeError:
        raise ValueError(
            f"probabilities must be an int (number of equally likely categories) or a sequence, got {probabilities!r}"
        ) from None
    if len(values) < 2:
        raise ValueError(f"need at least 2 categories, got {len(values)}")
    exact = []
    for i, p in enumerate(values):
        if isinstance(p, Rational):
            q = Fraction(p)
        else:
            f = float(p)
            if not np.isfinite(f):
                raise ValueError(f"probabilities[{i}] is not finite: {p!r}")
            q = Fraction(f).limit_denominator(10**12)
            if float(q) != f:
                q = Fraction(f)
        if q <= 0:
            raise ValueError(f"probabilities[{i}] must be > 0, got {p!r} (drop impossible categories)")
        exact.append(q)
    total = sum(exact)
    all_rational = all(isinstance(p, Rational) for p in values)
    if all_rational and total != 1:
        raise ValueError(f"probabilities must sum to exactly 1, they sum to {total}")
    if not all_rational and abs(float(total) - 1.0) > 1e-9:
        raise ValueError(f"probabilities must sum to 1, they sum to {float(total)!r}")
    if not all_rational:
        exact = [p / total for p in exact]
    return tuple(exact)


def as_float(probabilities) -> np.ndarray:
    """Exact probabilities as float64 (used for expected counts)."""
    return np.array([float(p) for p in probabilities], dtype=np.float64)


def category_array(x, k: int, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D integer array of category indices in [0, k).

    Raises ValueError naming the first value outside the range and its position.
    """
    array = np.asarray(x)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one category index per outcome), got shape {array.shape}")
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype.kind not in "iu":
        if array.dtype.kind == "b" or not np.all(np.equal(np.mod(array, 1), 0)):
            raise ValueError(f"{name} must hold integer category indices, got dtype {array.dtype}")
        array = array.astype(np.int64)
    lo, hi = array.min(), array.max()
    if lo < 0 or hi >= k:
        bad = int(np.flatnonzero((array < 0) | (array >= k))[0])
        raise ValueError(
            f"{name}[{bad}] = {int(array[bad])} is outside the {k} categories [0, {k - 1}]"
        )
    return array


def sample_array(x, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D float64 array of finite values."""
    array = np.asarray(x, dtype=np.float64)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        bad = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(f"{name}[{bad}] is not finite: {array[bad]!r}")
    return array
