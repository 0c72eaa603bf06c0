"""Frozen result records returned by every test in :mod:`stats`.

Each record has ``statistic`` and ``pvalue``; ``df`` and ``n`` where they
apply.  A record unpacks as ``statistic, pvalue = result``, like scipy's.  Arrays inside a record are made read-only so a result cannot be
edited after the fact.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class _Unpackable:
    """``statistic, pvalue = result``, as scipy's results unpack; the other fields stay attributes."""

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index):
        return (self.statistic, self.pvalue)[index]


def _frozen_array(values) -> np.ndarray:
    array = np.array(values, copy=True)
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class ChiSquareResult(_Unpackable):
    """Result of a chi-square type test.

    Attributes
    ----------
    statistic : float
        The test statistic (Pearson X², G, Good's ∇ψ², or a quadratic form).
    pvalue : float
        Upper-tail probability of the chi-square distribution with ``df``.
    df : int
        Degrees of freedom.
    n : int
        Number of items classified (outcomes, tuples, gaps, segments, ...).
    observed, expected : numpy.ndarray
        Observed and expected counts of the cells actually used (after
        pooling small cells), read-only.
    method : str
        How ``statistic`` was computed, e.g. ``"pearson"``, ``"g"``.
    pooled : int
        How many of the original cells were merged into others (0 = none).
    """

    statistic: float
    pvalue: float
    df: int
    n: int
    observed: np.ndarray = field(repr=False)
    expected: np.ndarray = field(repr=False)
    method: str = "pearson"
    pooled: int = 0

    def __post_init__(self):
        object.__setattr__(self, "observed", _frozen_array(self.observed))
        object.__setattr__(self, "expected", _frozen_array(self.expected))


@dataclass(frozen=True)
class NormalResult(_Unpackable):
    """Result of a test whose statistic is approximately standard normal.

    Attributes
    ----------
    statistic : float
        ``z = (observed - expected) / sd``.
    pvalue : float
        Two-sided normal tail probability ``2 * P(Z > |z|)``.
    n : int
        Sample size (outcomes, or shuffles).
    observed, expected, sd : float
        The raw statistic, its expectation and its standard deviation under
        the null hypothesis.
    """

    statistic: float
    pvalue: float
    n: int
    observed: float
    expected: float
    sd: float


@dataclass(frozen=True)
class SerialCorrelationResult(_Unpackable):
    """Result of :func:`stats.serial_correlation_test`.

    Attributes
    ----------
    statistic : float
        Ljung–Box ``Q = n (n + 2) Σ r_j² / (n - j)``.
    pvalue : float
        Upper tail of chi-square with ``df`` = number of lags.
    df : int
    n : int
    coefficients : tuple of float
        Serial correlation coefficient ``r_j`` at lags 1..df.
    """

    statistic: float
    pvalue: float
    df: int
    n: int
    coefficients: tuple


@dataclass(frozen=True)
class CountResult(_Unpackable):
    """Result of a test on a count with an exactly known distribution
    (collisions; birthday spacings).

    Attributes
    ----------
    statistic : float
        The observed count.
    pvalue : float
        Two-sided: ``min(1, 2 * min(P(C >= c), P(C <= c)))``.
    n : int
        Outcomes used.
    expected : float
        Expected count under the null hypothesis.
    blocks : int
        Independent blocks the count is summed over.
    """

    statistic: float
    pvalue: float
    n: int
    expected: float
    blocks: int


@dataclass(frozen=True)
class UniformityResult(_Unpackable):
    """Result of a one-sample test of uniformity on [0, 1] (KS, Anderson–Darling).

    Attributes
    ----------
    statistic : float
        ``D`` (Kolmogorov–Smirnov) or ``A²`` (Anderson–Darling).
    pvalue : float
    n : int
        Number of values tested.
    method : str
        ``"ks"`` or ``"ad"``.
    """

    statistic: float
    pvalue: float
    n: int
    method: str


@dataclass(frozen=True)
class CheckResult(_Unpackable):
    """Result of a deterministic check (no sampling error): pass or fail.

    ``pvalue`` is 1.0 when the check passes and 0.0 when it fails, so a check
    can sit in a multiple-testing family beside the statistical tests.

    Attributes
    ----------
    statistic : float
        Number of violations found.
    pvalue : float
    n : int
        Items checked.
    detail : str
        The first violation, in words ("" when none).
    row : int or None
        0-based index of the first row that violates the check.
    problem : str
        What is wrong with that row, without its location (a report names
        the row as its source does: a capture file's line).
    """

    statistic: float
    pvalue: float
    n: int
    detail: str = ""
    row: int | None = None
    problem: str = ""


@dataclass(frozen=True)
class RepeatResult(_Unpackable):
    """Result of :func:`stats.repeat_test`: how often an outcome equals the one ``lag`` before it.

    Attributes
    ----------
    statistic : float
        The repeat count R (pairs ``(x_i, x_(i+lag))`` that match, summed over the lags).
    pvalue : float
        Two-sided: ``min(1, 2 min(P(R >= r), P(R <= r)))`` under the null law of R.
    n : int
        Outcomes tested.
    lags : tuple of int
    pairs : int
        Pairs compared, Σ (n - lag).
    expected, sd : float
        Mean and standard deviation of R under the null hypothesis (exact).
    z : float
        ``(R - expected) / sd``.
    method : str
        ``"binomial"`` (exact law, equally likely outcomes and one lag) or ``"normal"``.
    """

    statistic: float
    pvalue: float
    n: int
    lags: tuple
    pairs: int
    expected: float
    sd: float
    z: float
    method: str


@dataclass(frozen=True)
class SectorResult(_Unpackable):
    """Result of :func:`stats.sector_test`: the most deviant arc of the wheel.

    Attributes
    ----------
    statistic : float
        max |z_A| over the arcs A scanned.
    pvalue : float
        P(max >= statistic) under the null hypothesis (see ``method``).
    n : int
        Outcomes tested.
    start, length : int
        The favoured arc: its first section clockwise (index into the wheel's
        sections) and its number of sections.
    arcs : int
        Arcs scanned.
    method : str
        ``"simulated"`` (the Gaussian maximum's law) or ``"hunter-worsley"`` (its
        upper bound over the arcs, in the far tail).
    """

    statistic: float
    pvalue: float
    n: int
    start: int
    length: int
    arcs: int
    method: str


@dataclass(frozen=True)
class RisingSequenceResult(_Unpackable):
    """Result of :func:`stats.rising_sequence_test`.

    Attributes
    ----------
    statistic : float
        Total rising sequences T = Σ R_s over the shuffles compared.
    pvalue : float
        Two-sided: ``min(1, 2 min(P(T >= t), P(T <= t)))`` under the exact law of T.
    n : int
        Shuffles fed.
    shuffles : int
        Shuffles compared with their reference (n, or n - 1 against the previous shuffle).
    labels : int
        Labels L whose order of first appearance is compared (all of a deck or shoe).
    reference : str
        ``"fresh"`` (the fresh stack's order) or ``"previous"`` (the previous shuffle's).
    expected, sd : float
        Mean and standard deviation of T under the null hypothesis, (L + 1)/2 and
        √((L + 1)/12) per shuffle.
    z : float
        ``(T - expected) / sd``.
    counts : numpy.ndarray
        Shuffles with 1, 2, ..., L rising sequences, read-only.
    method : str
        ``"exact"`` (Eulerian law convolved) or ``"normal"``.
    """

    statistic: float
    pvalue: float
    n: int
    shuffles: int
    labels: int
    reference: str
    expected: float
    sd: float
    z: float
    counts: np.ndarray = field(repr=False)
    method: str = "exact"

    def __post_init__(self):
        object.__setattr__(self, "counts", _frozen_array(self.counts))
