"""Non-overlapping template matching test of NIST SP 800-22 Rev. 1a §2.7.

The sequence is cut into N blocks of M = floor(n/N) bits; W_j counts the
non-overlapping occurrences of an m-bit template B in block j (after a match
the window jumps m bits).  χ² = Σ (W_j - μ)²/σ², μ = (M - m + 1)/2^m,
σ² = M (1/2^m - (2m - 1)/2^(2m)), has N degrees of freedom:
P = igamc(N/2, χ²/2).  The standard runs it for every aperiodic template of
length m (148 of them for m = 9), one P-value each.

All templates at once: an aperiodic template cannot overlap itself, so its
non-overlapping count is its plain count, and one sliding window of m bits
over each block, binned by window value, counts every template in every
block in one pass (in C: ``stats._sp800_22_native.block_pattern_counts``).
A periodic template given by the user is counted by the standard's skip
rule.

The aperiodic templates are generated, not typed: B is aperiodic when no
proper shift of it matches itself (B[k:] != B[:m-k] for 0 < k < m).

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §2.7 and §3.7.
"""
from __future__ import annotations

import functools

import numpy as np

from stats import _sp800_22_native as _native
from stats._sp800_22 import SP800MultiResult, SuiteTest, igamc, require, sequence_bits, sliding_values
from stats._validate import check_int

DEFAULT_M, DEFAULT_BLOCKS, MAX_BLOCKS = 9, 8, 100  # §2.7.2 and §2.7.7: m = 9 or 10, N <= 100
MIN_BITS = 1_000_000  # §2.7.7 (the chosen m, M and N then fit)


def _text(value: int, m: int) -> str:
    return format(value, f"0{m}b")


@functools.lru_cache(maxsize=4096)
def is_aperiodic(template: str) -> bool:
    """Whether no proper shift of the bit string ``template`` overlaps itself."""
    m = len(template)
    return all(template[k:] != template[: m - k] for k in range(1, m))


@functools.lru_cache(maxsize=32)
def aperiodic_templates(m: int) -> tuple:
    """Every aperiodic m-bit template, in increasing binary order (as NIST's template files list them)."""
    return tuple(t for t in (_text(v, m) for v in range(1 << m)) if is_aperiodic(t))


def _skip_count(windows: np.ndarray, value: int, m: int) -> int:
    """Non-overlapping matches of ``value`` among the window values of one block (the §2.7.4 skip rule)."""
    count, last = 0, -m
    for i in np.flatnonzero(windows == value):
        if i >= last + m:
            count, last = count + 1, i
    return count


def template_counts(bits: np.ndarray, templates, m: int, blocks: int) -> np.ndarray:
    """W: shape (templates, N), the non-overlapping count of each template in each block."""
    size = bits.size // blocks
    values = [int(t, 2) for t in templates]
    counts = np.zeros((len(values), blocks), dtype=np.int64)
    every = _native.block_pattern_counts(bits[: blocks * size], blocks, m)  # (N, 2^m) counts of every pattern
    table = None
    for i, (template, value) in enumerate(zip(templates, values)):
        if is_aperiodic(template):
            counts[i] = every[:, value]
            continue
        if table is None:  # the window values, only for the skip rule of a periodic template
            table = np.stack([sliding_values(bits[j * size: (j + 1) * size], m) for j in range(blocks)])
        counts[i] = [_skip_count(table[j], value, m) for j in range(blocks)]
    return counts


def nonoverlapping_template_test(bits, templates=None, *, m: int = DEFAULT_M, blocks: int = DEFAULT_BLOCKS,
                                 strict: bool = True) -> SP800MultiResult:
    """Non-overlapping template matching test (SP 800-22 §2.7): one P-value per template.

    Null hypothesis: each template occurs in each block as often as in
    independent fair bits.

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
    templates : str or sequence of str, optional
        Templates as bit strings, all of length m; default every aperiodic
        template of length ``m`` (:func:`aperiodic_templates`).
    m : int, optional
        Template length when ``templates`` is not given (default 9).
    blocks : int, optional
        N (default 8, as NIST's reference code).
    strict : bool, optional
        Refuse n < 10^6 or N > 100 (§2.7.7).

    Returns
    -------
    SP800MultiResult
        One entry per template (its bit string the label), statistic χ²(obs);
        ``details``: ``M``, ``N``, ``mu``, ``sigma2``, ``W`` (per template).
    """
    x = sequence_bits(bits)
    n = x.size
    if templates is None:
        templates = aperiodic_templates(check_int("m", m, 2, 21))
    elif isinstance(templates, str):
        templates = (templates,)
    templates = tuple(templates)
    if not templates or any(t.strip("01") or len(t) != len(templates[0]) for t in templates):
        raise ValueError("templates must be bit strings of one length")
    m = len(templates[0])
    blocks = check_int("blocks", blocks, 1)
    test = "non-overlapping template matching test"
    require(test, strict, n >= MIN_BITS, MIN_BITS, n, "bits", "SP 800-22 §2.7.7")
    require(test, strict, blocks <= MAX_BLOCKS, 0, 0, "", f"SP 800-22 §2.7.7: N = {blocks} must be <= 100")
    size = n // blocks
    if size < m:
        raise ValueError(f"blocks of {size} bits are shorter than the {m}-bit templates")
    mu = (size - m + 1) / 2**m
    sigma2 = size * (1 / 2**m - (2 * m - 1) / 2 ** (2 * m))
    w = template_counts(x, templates, m, blocks)
    chi2 = ((w - mu) ** 2).sum(axis=1) / sigma2
    pvalues = [float(p) for p in igamc(blocks / 2, chi2 / 2)]  # one vectorised call for all templates
    details = {"M": size, "N": blocks, "mu": mu, "sigma2": sigma2,
               "W": {t: tuple(int(v) for v in row) for t, row in zip(templates, w)}}
    return SP800MultiResult(chi2, pvalues, templates, n, details)


#: The suite's entry (stats.sp800_22_suite).
SP800_22 = [SuiteTest("NonOverlappingTemplate", nonoverlapping_template_test, order=8)]


__all__ = ["nonoverlapping_template_test", "aperiodic_templates", "is_aperiodic", "template_counts"]
