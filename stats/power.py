"""Power analysis: the smallest deviation each test detects, and the sample size for a given one.

A test "detects" a deviation when it rejects at level α with probability
``power`` (default 0.99).  For chi-square tests the statistic under a local
alternative is noncentral chi-square with the same df and noncentrality
λ = N Σ (p1_i - p0_i)² / p0_i [1]_; for normal statistics the shift of the
mean in standard deviations is z_(1-α/2) + z_power.  Every formula below is
of this kind; which deviation a number refers to is stated with it.

References
----------
.. [1] J. Cohen, *Statistical Power Analysis for the Behavioral Sciences*,
   2nd ed., ch. 7, Erlbaum, 1988; and W. G. Cochran, "The χ² test of
   goodness of fit", Ann. Math. Statist. 23 (1952) 315-345.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import optimize as _opt
from scipy import stats as _sps

from stats._validate import as_float, check_int, exact_probabilities
from stats.pooling import pool_cells

DEFAULT_POWER = 0.99
#: A test whose detectable δ (at the requested power) is at least this is reported as having low power:
#: for the relative deviations most tests state ("(1 + δ)·p"), δ = 1 means that even a cell seen twice
#: as often as it should be would likely pass unnoticed.
LOW_POWER_DELTA = 1.0


@dataclass(frozen=True)
class Detectable:
    """The smallest deviation a test detects with probability ``power`` at level ``alpha``.

    Attributes
    ----------
    delta : float
        Size of the deviation, in the units of ``description``.
    description : str
        The deviation in words, e.g. ``"one pocket at (1 + δ)·p"``.
    alpha, power : float
    """

    delta: float
    description: str
    alpha: float
    power: float

    def __str__(self) -> str:
        return f"{self.description}, δ = {self.delta:.3g}"

    def low(self, threshold: float = LOW_POWER_DELTA) -> bool:
        """The test cannot see a deviation smaller than ``threshold`` (δ >= threshold, or none at all)."""
        return not self.delta < threshold  # NaN and inf count as low

    def samples_for(self, n: int, threshold: float = LOW_POWER_DELTA) -> int | None:
        """Roughly the sample size at which δ would fall to ``threshold``.

        Every δ here shrinks like 1/sqrt(n) (the noncentrality grows like
        n), so n (δ/threshold)² is the estimate; None when δ is not finite.
        """
        if not np.isfinite(self.delta):
            return None
        return int(np.ceil(n * (self.delta / threshold) ** 2))


def _check_levels(alpha, power):
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if not 0 < power < 1:
        raise ValueError(f"power must be in (0, 1), got {power!r}")


@lru_cache(maxsize=4096)
def noncentrality_for_power(df: int, alpha: float, power: float = DEFAULT_POWER) -> float:
    """Noncentrality λ at which a chi-square test with ``df`` rejects at level
    ``alpha`` with probability ``power``."""
    _check_levels(alpha, power)
    df = check_int("df", df, 1)
    critical = _sps.chi2.isf(alpha, df)
    f = lambda lam: _sps.ncx2.sf(critical, df, lam) - power
    hi = 1.0
    while f(hi) < 0:
        hi *= 2
    return float(_opt.brentq(f, 0.0, hi, xtol=1e-10, rtol=1e-12))


def normal_shift(alpha: float, power: float = DEFAULT_POWER) -> float:
    """Shift of a standard normal statistic (in sd) detected two-sided at α with ``power``."""
    _check_levels(alpha, power)
    return float(_sps.norm.isf(alpha / 2) + _sps.norm.isf(1 - power))


def chisquare_power(df: int, noncentrality: float, alpha: float) -> float:
    """Probability that a chi-square test with ``df`` rejects at α under noncentrality λ."""
    return float(_sps.ncx2.sf(_sps.chi2.isf(alpha, df), df, noncentrality))


def _shift_factor(probabilities, category):
    p = as_float(exact_probabilities(probabilities))
    j = int(np.argmin(p)) if category is None else check_int("category", category, 0, p.size - 1)
    return float(p[j] / (1 - p[j])), j


def detectable_shift(probabilities, n: int, alpha: float, *, power: float = DEFAULT_POWER,
                     category: int | None = None, df: int | None = None) -> float:
    """Smallest δ such that the frequency test on n outcomes detects one category at (1 + δ) p_j.

    The other categories are scaled down proportionally.  The noncentrality
    is λ = n δ² p_j / (1 - p_j).

    Parameters
    ----------
    probabilities : int or sequence
    n : int
        Outcomes.
    alpha : float
    power : float, optional
    category : int, optional
        The category j (default: the least likely, the hardest to see).
    df : int, optional
        Degrees of freedom of the test (default k - 1).
    """
    factor, _ = _shift_factor(probabilities, category)
    k = len(exact_probabilities(probabilities))
    lam = noncentrality_for_power(df or k - 1, alpha, power)
    return float(np.sqrt(lam / (n * factor)))


def sample_size_for_shift(probabilities, delta: float, alpha: float, *, power: float = DEFAULT_POWER,
                          category: int | None = None, df: int | None = None) -> int:
    """Outcomes needed for the frequency test to detect one category at (1 + δ) p_j."""
    if delta == 0:
        raise ValueError("delta must be non-zero")
    factor, _ = _shift_factor(probabilities, category)
    k = len(exact_probabilities(probabilities))
    lam = noncentrality_for_power(df or k - 1, alpha, power)
    return int(np.ceil(lam / (delta * delta * factor)))


def detectable_repeat(probabilities, transitions: int, alpha: float, *, df: int,
                      power: float = DEFAULT_POWER) -> float:
    """Smallest probability δ of repeating the previous outcome that a pair test detects.

    Alternative: with probability δ the device shows the previous outcome
    again, otherwise a fresh one (the marginal distribution is unchanged).
    For the pair table the noncentrality is λ = N δ² (k - 1) with N the
    number of pairs counted (derivation in docs/statistics.md).
    """
    k = len(exact_probabilities(probabilities))
    lam = noncentrality_for_power(df, alpha, power)
    return float(np.sqrt(lam / (transitions * (k - 1))))


def sample_size_for_repeat(probabilities, delta: float, alpha: float, *, df: int | None = None,
                           power: float = DEFAULT_POWER) -> int:
    """Outcomes needed for the overlapping serial (pairs) test to detect a repeat probability δ."""
    k = len(exact_probabilities(probabilities))
    lam = noncentrality_for_power(df or k * k - k, alpha, power)
    return int(np.ceil(lam / (delta * delta * (k - 1)))) + 1


def detectable_cell_shift(cell_probabilities, items: int, alpha: float, df: int, *,
                          power: float = DEFAULT_POWER) -> float:
    """Smallest δ at which a chi-square test detects its most populated cell at (1 + δ) × expected."""
    q = float(np.max(cell_probabilities))
    lam = noncentrality_for_power(df, alpha, power)
    return float(np.sqrt(lam * (1 - q) / (items * q)))


def detectable_law_change(null_cells, alternative, items: int, alpha: float, df: int, *, min_expected: float = 5.0,
                          rule: str = "adjacent", power: float = DEFAULT_POWER, upper: float = 1.0) -> float:
    """Smallest δ in (0, upper] at which a chi-square test detects its cells following ``alternative(δ)``.

    Parameters
    ----------
    null_cells : array_like
        Cell probabilities under the null hypothesis, before pooling.
    alternative : callable
        ``alternative(δ)`` -> cell probabilities under the alternative (same
        cells; ``alternative(0)`` is the null law).
    items : int
        Items classified (gaps, segments, blocks, ...).
    alpha, df, power
        Level, degrees of freedom of the test, power.
    min_expected, rule
        The test's pooling (:func:`stats.pooling.pool_cells`), applied to
        the null expected counts exactly as the test does.
    upper : float
        Largest meaningful δ; ``inf`` is returned when even it is not detected.

    Notes
    -----
    Noncentrality λ(δ) = N Σ_g (p1_g - p0_g)² / p0_g over the pooled cells
    (the noncentral chi-square approximation), solved for λ(δ) = λ_needed.
    """
    null_cells = np.asarray(null_cells, dtype=np.float64)
    groups = pool_cells(items * null_cells, min_expected=min_expected, rule=rule)
    p0 = np.bincount(groups, weights=null_cells)
    needed = noncentrality_for_power(df, alpha, power)

    @lru_cache(maxsize=None)
    def excess(delta):
        p1 = np.bincount(groups, weights=np.asarray(alternative(delta), dtype=np.float64))
        return items * float(np.sum((p1 - p0) ** 2 / p0)) - needed

    # λ(δ) grows like δ² near 0: start from the quadratic guess of one evaluation (each may run a
    # Markov chain), bracket the root by doubling, refine to 4 significant digits (the figure shown).
    probe = min(upper, 0.1)
    at_probe = excess(probe) + needed
    hi = min(upper, probe * np.sqrt(needed / at_probe)) if at_probe > 0 else upper
    lo = 0.0
    while excess(hi) < 0:
        if hi >= upper:
            return float("inf")
        lo, hi = hi, min(2 * hi, upper)
    if lo == 0.0 and excess(hi / 2) < 0:
        lo = hi / 2
    return float(_opt.brentq(excess, lo, hi, xtol=1e-12, rtol=1e-4))


def detectable_correlation(n: int, alpha: float, lags: int, *, power: float = DEFAULT_POWER) -> float:
    """Smallest serial correlation |ρ| at one lag detected by the Ljung–Box test (λ = n ρ²)."""
    lam = noncentrality_for_power(lags, alpha, power)
    return float(np.sqrt(lam / n))


def detectable_mean_shift(expected: float, sd: float, alpha: float, *, power: float = DEFAULT_POWER) -> float:
    """Smallest relative change of a normal statistic's mean, δ = (z_α/2 + z_power) sd / expected."""
    return float(normal_shift(alpha, power) * sd / abs(expected)) if expected else float("inf")


__all__ = [
    "Detectable", "DEFAULT_POWER", "LOW_POWER_DELTA", "noncentrality_for_power", "normal_shift", "chisquare_power",
    "detectable_shift", "sample_size_for_shift", "detectable_repeat", "sample_size_for_repeat",
    "detectable_cell_shift", "detectable_correlation", "detectable_mean_shift", "detectable_law_change",
]
