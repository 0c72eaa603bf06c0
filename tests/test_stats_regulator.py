"""The regulator-named tests added last: spectral (SP 800-22 §2.6), Poisson distribution, interplay
correlation — published examples, exact laws by enumeration, reference distributions by
simulation, and the power figures' alternatives."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats as ss

from stats import InsufficientDataError, interplay_test, poisson_test, spectral_test
from stats.chisquare import _chisquare_cells
from stats.interplay import InterplayAccumulator, detectable_copy
from stats.poisson import PoissonAccumulator, binomial_cells, detectable_drift, drifting_rate_cells
from stats.power import noncentrality_for_power
from stats.spectral import (
    OutcomeBits,
    bits_from_bytes,
    peak_count,
    peak_moments,
    spectral_pvalue,
)
from tests.stats_support import BIG_SIX, FAR_TAIL, draw, numpy_rng

# NIST SP 800-22 rev1a (April 2010), §2.6.4 and §2.6.8: the worked examples of the discrete
# Fourier transform test, typed in from the standard (input ε, then the published N1, d, P-value).
SP800_22_DFT_EXAMPLES = [
    # §2.6.4: ε = 1001010011, n = 10 → N1 = 4, N0 = 4.75, d = -2.176429, P-value = 0.029523
    ("1001010011", 4, -2.176429, 0.029523),
    # §2.6.8: the first 100 binary digits of π → N1 = 46, N0 = 47.5, d = -1.376494, P-value = 0.168669
    ("11001001000011111101101010100010001000010110100011"
     "00001000110100110001001100011001100010100010111000", 46, -1.376494, 0.168669),
]


def _bits(text):
    return np.array([int(c) for c in text], dtype=np.uint8)


def _moduli_from_definition(bits):
    """|f_j| = |Σ_k X_k exp(-2πi jk/n)|, j = 0..n/2-1, summed term by term (no FFT)."""
    x = 2.0 * bits - 1.0
    n = x.size
    k = np.arange(n)
    return np.array([abs(np.sum(x * np.exp(-2j * np.pi * j * k / n))) for j in range(n // 2)])


@pytest.mark.parametrize("text,n1,d,p", SP800_22_DFT_EXAMPLES)
def test_sp800_22_statistic_and_pvalue_from_the_published_count(text, n1, d, p):
    """Steps 6-8 (N0, d, P-value from N1) reproduce the standard's numbers to all printed digits."""
    result = spectral_pvalue(n1, len(text), "sp800-22")
    assert result.expected == 0.95 * len(text) / 2
    assert round(result.statistic, 6) == d
    assert round(result.pvalue, 6) == p


@pytest.mark.parametrize("text,published_n1,_d,_p", SP800_22_DFT_EXAMPLES)
def test_sp800_22_published_peak_counts_are_not_reproducible(text, published_n1, _d, _p):
    """The standard's procedure (count |f_j| < T over j = 0..n/2-1, as in its §2.6.4 step 3-7 and
    its reference code) gives N1 = 5 and 48 on its own example inputs, not the printed 4 and 46.
    No rounding explains it: no modulus lies within 0.1 of T.  Our count agrees with a direct
    evaluation of the DFT's definition; this test records the discrepancy."""
    bits = _bits(text)
    n = bits.size
    moduli = _moduli_from_definition(bits)
    threshold = math.sqrt(math.log(1 / 0.05) * n)
    by_definition = int(np.sum(moduli < threshold))
    assert peak_count(bits) == by_definition == {10: 5, 100: 48}[n]
    assert by_definition != published_n1
    assert np.min(np.abs(moduli - threshold)) > 0.1
    if n == 100:
        ours = spectral_pvalue(by_definition, n, "sp800-22")
        assert (round(ours.statistic, 6), round(ours.pvalue, 6)) == (0.458831, 0.646355)


def test_spectral_test_needs_1000_bits_as_the_standard_recommends():
    with pytest.raises(InsufficientDataError, match="needs at least 1,000 bits, got 100"):
        spectral_test(_bits(SP800_22_DFT_EXAMPLES[1][0]))


def test_corrected_reference_distribution_matches_simulation_and_sp800_22_does_not():
    """100,000 random sequences of 1024 bits: the sample variance of N1 lies within 6 standard
    errors of the derived (n/2)(p(1-p) - (t e^-t)²) and more than 6 away from SP 800-22's n·0.95·0.05/4."""
    rng = numpy_rng(2004)
    n, reps = 1024, 100_000
    counts = np.concatenate([peak_count(rng.integers(0, 2, (10_000, n), dtype=np.uint8)) for _ in range(reps // 10_000)])
    mean, sd = peak_moments(n, "corrected")
    _, sd_nist = peak_moments(n, "sp800-22")
    v = counts.var(ddof=1)
    se = v * math.sqrt(2 / reps)
    assert abs(counts.mean() - mean) < 6 * math.sqrt(v / reps)
    assert abs(v - sd**2) < 6 * se
    assert v - sd_nist**2 > 6 * se


def test_spectral_blocks_add_up_and_catch_periodic_bits():
    rng = numpy_rng(11)
    x = rng.integers(0, 2, 1 << 18, dtype=np.uint8)
    whole = spectral_test(x, block=1 << 16)
    assert whole.observed == sum(peak_count(b) for b in x.reshape(4, -1))
    assert whole.expected == 4 * 0.95 * (1 << 16) / 2 and whole.pvalue > FAR_TAIL
    sticky = np.repeat(rng.integers(0, 2, 1 << 17, dtype=np.uint8), 2)  # every bit twice: a low-pass spectrum
    assert spectral_test(sticky, block=1 << 16).pvalue < FAR_TAIL


def test_bits_from_bytes_most_significant_first():
    assert bits_from_bytes(b"\x80\x01").tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    with pytest.raises(ValueError, match="bits must be 0 or 1"):
        spectral_test(np.arange(2000) % 3)


def test_outcome_bits_are_exactly_fair_for_any_distribution():
    """P(b-bit word w) = Σ_c p_c |[F(c-), F(c)) ∩ [w/2^b, (w+1)/2^b)| / p_c = 2^-b exactly: the PIT
    is uniform.  Checked by exact interval arithmetic, and on data far in the tail."""
    for probabilities in (BIG_SIX, (Fraction(1, 37),) * 37):
        b = max(1, len(probabilities).bit_length() - 1)
        lower = Fraction(0)
        mass = [Fraction(0)] * (1 << b)
        for p in probabilities:
            upper = lower + p
            for w in range(1 << b):
                lo, hi = max(lower, Fraction(w, 1 << b)), min(upper, Fraction(w + 1, 1 << b))
                if hi > lo:
                    mass[w] += hi - lo  # the PIT spreads category c uniformly over [F(c-), F(c))
            lower = upper
        assert mass == [Fraction(1, 1 << b)] * (1 << b)
    x = numpy_rng(3).choice(7, 200_000, p=[float(p) for p in BIG_SIX])
    words = OutcomeBits(BIG_SIX)(x).reshape(-1, 2) @ np.array([2, 1])
    assert ss.chisquare(np.bincount(words, minlength=4)).pvalue > FAR_TAIL
    raw = numpy_rng(4).integers(0, 256, 1000, dtype=np.uint8)
    assert np.array_equal(OutcomeBits(256)(raw), np.unpackbits(raw))  # 2^8 equal outcomes: the bits themselves


def test_poisson_counts_follow_the_exact_binomial_law_by_enumeration():
    p = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))
    law = {}
    for seq in itertools.product(range(3), repeat=4):
        prob = math.prod(p[c] for c in seq)
        law[seq.count(2)] = law.get(seq.count(2), 0) + prob
    acc = PoissonAccumulator(p, block=4)
    assert acc.category == 2
    exact = np.array([float(law.get(c, 0)) for c in range(acc.cell_p.size - 1)])
    assert np.allclose(acc.cell_p[:-1], exact, atol=1e-15)
    assert acc.cell_p.sum() == pytest.approx(1.0, abs=1e-12)
    cells = binomial_cells(148, 1 / 37)
    assert cells[:-1] == pytest.approx(ss.binom.pmf(np.arange(cells.size - 1), 148, 1 / 37), rel=1e-12)


def test_poisson_test_passes_good_and_catches_a_drifting_pocket():
    from stats.defects import drifting_pocket

    spec, x = draw("roulette-single", 200_000, seed=21)
    good = poisson_test(x, spec.probabilities)
    assert good.pvalue > FAR_TAIL and good.n == 200_000 // 148
    assert poisson_test(drifting_pocket(300_000, seed=2), 37).pvalue < FAR_TAIL


def test_poisson_power_figure_is_real_by_simulation():
    """Block counts drawn from the drifting-rate law at the reported δ are rejected at α = 0.01
    about 99 % of the time (P(hits < 55 of 60 | power 0.99) < 1e-4)."""
    rng = numpy_rng(12)
    acc = PoissonAccumulator(37)
    blocks = 1000
    counts = np.bincount(np.minimum(rng.binomial(acc.block, 1 / 37, blocks), acc.cell_p.size - 1),
                         minlength=acc.cell_p.size)
    null = _chisquare_cells(counts, acc.cell_p, pool="adjacent")
    delta = detectable_drift(acc, null, 0.01, 0.99)
    law = drifting_rate_cells(acc, delta)
    hits = sum(_chisquare_cells(rng.multinomial(blocks, law / law.sum()), acc.cell_p, pool="adjacent").pvalue
               <= 0.01 for _ in range(60))
    assert 0 < delta < 1 and hits >= 55


def test_interplay_is_the_sum_of_pairwise_contingency_tests():
    spec, rows = draw("dice:3", 20_000, seed=22)
    result = interplay_test(rows, probabilities=6)
    total = 0.0
    for a, b in itertools.combinations(range(3), 2):
        table = np.zeros((6, 6))
        np.add.at(table, (rows[:, a], rows[:, b]), 1)
        total += ss.chi2_contingency(table, correction=False)[0]
    assert result.statistic == pytest.approx(total, rel=1e-12)
    assert result.df == 75 and result.n == 20_000 and result.pvalue > FAR_TAIL
    assert interplay_test(rows[:, 0], rows[:, 2], 6).df == 25


def test_interplay_pools_rare_outcomes_by_their_exact_probabilities():
    rng = numpy_rng(23)
    a, b = (rng.choice(7, 3000, p=[float(p) for p in BIG_SIX]) for _ in range(2))
    result = interplay_test(a, b, BIG_SIX)
    assert result.pooled > 0 and result.expected.min() >= 5
    assert result.pvalue > FAR_TAIL


def test_interplay_catches_dice_that_copy_each_other():
    from stats.defects import correlated_dice

    assert interplay_test(correlated_dice(100_000, seed=4), probabilities=6).pvalue < FAR_TAIL


def test_interplay_bad_input_names_the_problem():
    with pytest.raises(ValueError, match="aligned by round"):
        interplay_test([0, 1, 2], [0, 1], 6)
    with pytest.raises(ValueError, match="second stream b"):
        interplay_test([0, 1, 2], probabilities=6)
    with pytest.raises(ValueError, match=r"column 1\[2\] = 6 is outside the 6 categories"):
        interplay_test([0, 1, 2], [0, 1, 6], 6)


def test_interplay_power_formula_against_the_exact_noncentrality():
    """One column copies another with probability δ: λ = N Σ (p1 - p0)²/p0 from the pair law
    p1_ab = (1 - δ) p_a p_b + δ p_a [a = b] equals the formula's N δ² (k - 1)."""
    n = 50_000
    acc = InterplayAccumulator([6, 6])
    result = interplay_test(*draw("dice:2", n, seed=24)[1].T, 6)
    delta = detectable_copy(acc, result, 0.01, 0.99)
    p = np.full(6, 1 / 6)
    p0 = np.outer(p, p)
    p1 = (1 - delta) * p0 + delta * np.diag(p)
    assert n * np.sum((p1 - p0) ** 2 / p0) == pytest.approx(noncentrality_for_power(25, 0.01), rel=1e-9)
