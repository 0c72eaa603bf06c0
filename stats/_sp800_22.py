"""What the NIST SP 800-22 Rev. 1a tests of :mod:`stats` share: bit input, size rules, result records.

Every SP 800-22 test takes the sequence first: a 1-D array of 0/1, a string
of ``"0"``/``"1"`` characters (as the standard prints its examples), or
``bytes`` (eight bits per byte, most significant first, as NIST's ``assess``
reads binary files).  Each test applies the standard's input-size
recommendations (its §2.x.7) and raises :class:`InsufficientDataError` for a
sequence outside them; ``strict=False`` waives them explicitly (the
standard's own worked examples use sequences of 10 to 128 bits), so no
p-value outside the validity conditions is ever given quietly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
from scipy import special as _special

from stats._results import _frozen_array, _Unpackable
from stats._validate import InsufficientDataError


def sequence_bits(data) -> np.ndarray:
    """The sequence as a read-only uint8 array of 0/1 (see the module doc for the accepted forms)."""
    if isinstance(data, str):
        text = "".join(data.split())
        if text.strip("01"):
            raise ValueError("a bit string holds only the characters 0 and 1 (and white space)")
        bits = np.frombuffer(text.encode("ascii"), dtype=np.uint8) - ord("0")
    elif isinstance(data, (bytes, bytearray, memoryview)):
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    else:
        array = np.asarray(data)
        if array.ndim != 1:
            raise ValueError(f"expected a 1-D sequence of bits, got shape {array.shape}")
        if array.size and (array.dtype.kind not in "iub" or array.min() < 0 or array.max() > 1):
            raise ValueError("bits must be 0 or 1 (pass bytes for a packed byte stream)")
        bits = array.astype(np.uint8, copy=False)
    return bits


def require(test: str, strict: bool, ok: bool, needed: int, got: int, unit: str, why: str) -> None:
    """Raise InsufficientDataError when a recommendation of the standard fails and ``strict`` is set."""
    if strict and not ok:
        raise InsufficientDataError(test, needed, got, unit, why)


def require_pattern_length(test: str, strict: bool, m: int, n: int, margin: int, section: str) -> None:
    """The serial and approximate entropy tests' rule m < floor(log2 n) - margin (and a non-empty sequence)."""
    limit = int(math.floor(math.log2(n))) - margin if n else 0
    require(test, strict, m < limit, 1 << (m + margin + 1), n, "bits",
            f"SP 800-22 {section}: m = {m} must be < floor(log2 n) - {margin}")
    if n == 0:
        raise ValueError("the sequence is empty")


def igamc(a: float, x):
    """The upper regularized incomplete gamma function Q(a, x) of SP 800-22 §5.5.3.

    A float for a scalar x; for an array x, the array of Q(a, x_i) (the same
    values, in one call).
    """
    q = _special.gammaincc(a, x)
    return float(q) if np.ndim(q) == 0 else q


def erfc(x: float) -> float:
    return float(math.erfc(x))


def chi_square(counts, probabilities, blocks: int) -> float:
    """χ² = Σ (ν_i - N π_i)² / (N π_i), the statistic most SP 800-22 tests refer to a χ² law."""
    counts = np.asarray(counts, dtype=float)
    expected = blocks * np.asarray(probabilities, dtype=float)
    return float(np.sum((counts - expected) ** 2 / expected))


def sliding_values(bits: np.ndarray, m: int) -> np.ndarray:
    """The m-bit pattern starting at each position inside the sequence, as an integer (first bit most significant)."""
    count = bits.size - m + 1
    values = np.zeros(max(count, 0), dtype=np.int64)
    for j in range(m):
        values = (values << 1) | bits[j: j + count]
    return values


@dataclass(frozen=True)
class SP800Result(_Unpackable):
    """Result of one SP 800-22 test with one p-value.

    Attributes
    ----------
    statistic : float
        The test statistic as the standard names it (s_obs, χ²(obs), V_n(obs), ...).
    pvalue : float
    n : int
        Bits tested.
    details : mapping
        The intermediate values the standard's worked example prints
        (counts, π, blocks, ...), read-only.
    """

    statistic: float
    pvalue: float
    n: int
    details: MappingProxyType = field(default_factory=dict, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))


@dataclass(frozen=True)
class SP800MultiResult(_Unpackable):
    """Result of an SP 800-22 test that gives several p-values (one per template, state or order).

    ``statistic`` and ``pvalue`` are read-only arrays, one entry per label, so
    ``stat, p = result`` unpacks them as for the single-valued records.

    Attributes
    ----------
    statistic, pvalue : numpy.ndarray
    labels : tuple of str
        What each entry is (a template, a state such as ``"+1"``, ``"P-value1"``).
    n : int
    details : mapping
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    labels: tuple
    n: int
    details: MappingProxyType = field(default_factory=dict, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "statistic", _frozen_array(np.asarray(self.statistic, dtype=float)))
        object.__setattr__(self, "pvalue", _frozen_array(np.asarray(self.pvalue, dtype=float)))
        object.__setattr__(self, "labels", tuple(self.labels))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    def by_label(self, label: str) -> tuple[float, float]:
        """``(statistic, pvalue)`` of the entry called ``label``."""
        i = self.labels.index(label)
        return float(self.statistic[i]), float(self.pvalue[i])


@dataclass(frozen=True)
class SuiteTest:
    """One test of the SP 800-22 suite, declared by its module as ``SP800_22 = [SuiteTest(...)]``.

    Attributes
    ----------
    name : str
        Its name in NIST's ``finalAnalysisReport.txt`` ("Frequency", "Rank", ...).
    function : callable
        The test, called as ``function(bits, **arguments(n))``.
    arguments : callable, optional
        ``arguments(n) -> dict``: the parameters the suite uses for sequences of n bits.
    order : int
        Its row in the report (NIST's order, 1..15).
    """

    name: str
    function: object
    arguments: object = field(default=lambda n: {})
    order: int = 100
