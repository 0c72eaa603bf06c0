"""Knuth's classical tests: exact cell probabilities against brute-force enumeration."""
import itertools
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats as ss

from stats import (
    anderson_darling_test,
    birthday_spacings_test,
    collision_test,
    coupon_collector_test,
    gap_test,
    ks_uniform_test,
    maximum_test,
    permutation_test,
    poker_test,
    serial_correlation_test,
)
from stats._exact import (
    collision_distribution,
    coupon_length_distribution,
    distinct_count_distribution,
    maximum_distribution,
    power_of_pmf,
)
from stats.second_level import anderson_darling_cdf
from tests.stats_support import BIG_SIX, enumerated_law, numpy_rng

SKEWED = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))


def test_poker_probabilities_exact_by_enumeration():
    for p in (SKEWED, (Fraction(1, 4),) * 4):
        brute = enumerated_law(p, 4, lambda s: len(set(s)))
        ours = distinct_count_distribution(p, 4)
        assert ours == [brute.get(r, 0) for r in range(1, 5)]
    # Knuth 3.3.2 D, d = 10, k = 5
    assert distinct_count_distribution((Fraction(1, 10),) * 10, 5) == [
        Fraction(1, 10000), Fraction(135, 10000), Fraction(1800, 10000), Fraction(5040, 10000), Fraction(3024, 10000)]


def test_maximum_probabilities_exact_by_enumeration():
    brute = enumerated_law(SKEWED, 3, max)
    assert maximum_distribution(SKEWED, 3) == [brute[v] for v in range(3)]


def test_coupon_lengths_match_markov_enumeration():
    # P(T = r) by enumerating all sequences of length r whose first complete set ends at r.
    for p in ((Fraction(1, 3),) * 3, SKEWED):
        ours = coupon_length_distribution(p, 8)
        for r in range(3, 8):
            brute = Fraction(0)
            for seq in itertools.product(range(3), repeat=r):
                if len(set(seq)) == 3 and len(set(seq[:-1])) == 2:
                    prob = Fraction(1)
                    for c in seq:
                        prob *= p[c]
                    brute += prob
            assert ours[r] == pytest.approx(float(brute), abs=1e-15)


def _coupon_lengths_state_by_state(probabilities, max_length):
    """Reference: the coupon chain stepped as a flat vector, each group's moves gathered and
    scattered by index (the straightforward form of stats._exact.coupon_length_distribution)."""
    groups = {}
    for q in probabilities:
        groups[q] = groups.get(q, 0) + 1
    p = np.array([float(q) for q in groups])
    size = np.array(list(groups.values()))
    stride = np.cumprod(np.concatenate([[1], size[:-1] + 1]))
    states = int(np.prod(size + 1))
    seen = (np.arange(states)[:, None] // stride) % (size + 1)
    stay, grow = seen @ p, (size - seen) * p
    moves = [(m, m + stride[g], grow[m, g]) for g in range(p.size) for m in [np.flatnonzero(seen[:, g] < size[g])]]
    state = np.zeros(states)
    state[0] = 1.0
    out = np.zeros(max_length + 1)
    for r in range(1, max_length):
        new = state * stay
        for source, target, rate in moves:
            new[target] += state[source] * rate
        out[r] = new[-1]
        new[-1] = 0.0
        state = new
    out[max_length] = state.sum()
    return out


@pytest.mark.parametrize("probabilities", [
    (Fraction(1, 256),) * 256,                                   # a byte device
    (Fraction(1, 256) * Fraction(1, 2),) + (Fraction(511, 130560),) * 255,  # one scarce byte value
    SKEWED,                                                      # every category its own group
    (Fraction(1, 10),) * 3 + (Fraction(1, 5),) * 2 + (Fraction(3, 20),) * 2,  # three groups
])
def test_coupon_chain_on_slices_equals_the_state_by_state_chain(probabilities):
    assert sum(probabilities) == 1
    length = 3000 if len(probabilities) > 100 else 200
    assert np.array_equal(coupon_length_distribution(probabilities, length),
                          _coupon_lengths_state_by_state(probabilities, length))


def test_collision_distribution_by_enumeration():
    pmf, offset = collision_distribution(5, 4)
    brute = enumerated_law((Fraction(1, 5),) * 5, 4, lambda s: 4 - len(set(s)))
    for c, prob in brute.items():
        assert pmf[c - offset] == pytest.approx(float(prob), abs=1e-15)
    total, off = power_of_pmf(pmf, offset, 3)
    direct = np.convolve(np.convolve(pmf, pmf), pmf)
    assert np.allclose(total, direct[off - 3 * offset: off - 3 * offset + total.size], atol=1e-14)


def test_gap_cells_and_counting():
    x = np.array([1, 0, 0, 1, 1, 0, 0, 0, 1] * 2000)
    from stats.gap import GapAccumulator

    acc = GapAccumulator(2, categories=[1])
    acc.update(x)
    assert list(acc.counts[:4]) == [4000, 0, 2000, 2000]


def test_classical_tests_reject_gross_defects_far_in_tail():
    rng = numpy_rng(5)
    period = np.tile(np.arange(37), 3000)  # every pocket in turn: perfectly uniform, not random
    assert gap_test(period, 37).pvalue < 1e-9
    assert poker_test(period, 37).pvalue < 1e-9
    assert coupon_collector_test(period, 37).pvalue < 1e-9
    assert maximum_test(rng.integers(0, 36, 100_000), 37).pvalue < 1e-9  # pocket 36 never shows
    assert permutation_test(np.sort(rng.random((5000, 4)), axis=1).ravel()).pvalue < 1e-9
    walk = np.cumsum(rng.integers(0, 3, 10_000)) % 37
    assert serial_correlation_test(walk).pvalue < 1e-9


def test_serial_correlation_coefficients_equal_numpy():
    x = numpy_rng(6).integers(0, 37, 50_000)
    r = serial_correlation_test(x, lags=3)
    c = x - x.mean()
    direct = [np.dot(c[:-j], c[j:]) / np.dot(c, c) for j in (1, 2, 3)]
    assert np.allclose(r.coefficients, direct, rtol=1e-9, atol=1e-15)
    q = 50_000 * 50_002 * sum(rj**2 / (50_000 - j) for j, rj in enumerate(direct, 1))
    assert r.statistic == pytest.approx(q, rel=1e-9)


def test_spacings_tests_need_equal_probabilities():
    with pytest.raises(ValueError, match="equally likely"):
        birthday_spacings_test([0] * 100, BIG_SIX)
    with pytest.raises(ValueError, match="equally likely"):
        collision_test([0] * 100, BIG_SIX)


def test_collision_test_catches_a_short_cycle():
    x = np.tile(numpy_rng(7).integers(0, 37, 256), 2000)  # period-256 outcome stream
    assert collision_test(x, 37).pvalue < 1e-9
    assert birthday_spacings_test(x, 37).pvalue < 1e-9


def test_anderson_darling_cdf_matches_stephens_points():
    # Asymptotic percentage points (Stephens 1974): 1.933 (10%), 2.492 (5%).
    assert anderson_darling_cdf(1.933, 10**6) == pytest.approx(0.90, abs=2e-4)
    assert anderson_darling_cdf(2.492, 10**6) == pytest.approx(0.95, abs=2e-4)


def test_second_level_tests():
    u = numpy_rng(8).random(500)
    ks = ks_uniform_test(u)
    assert ks.pvalue == pytest.approx(ss.kstest(u, "uniform").pvalue)
    assert anderson_darling_test(u).pvalue > 1e-9
    assert anderson_darling_test(u**1.5).pvalue < 1e-9
    with pytest.raises(ValueError, match="outside"):
        ks_uniform_test([0.1, 0.2, 1.5, 0.3, 0.4])


def test_gap_clustering_law_reduces_to_geometric_and_matches_a_markov_chain():
    from stats._exact import geometric_cells
    from stats.gap import clustered_gap_cells

    assert np.allclose(clustered_gap_cells(0.3, 40, 0.0), geometric_cells(0.3, 40), rtol=0, atol=1e-16)
    law = clustered_gap_cells(0.3, 40, 0.2)
    assert law.sum() == pytest.approx(1.0, abs=1e-14)
    # Simulate the two-state chain with P(A|A) = q + δ(1-q), P(A|not A) = q(1-δ) and count gaps.
    rng = numpy_rng(31)
    u = rng.random(400_000)
    hit = np.empty(u.size, dtype=bool)
    hit[0] = u[0] < 0.3
    a, b = 0.3 + 0.2 * 0.7, 0.3 * 0.8
    for i in range(1, u.size):
        hit[i] = u[i] < (a if hit[i - 1] else b)
    gaps = np.diff(np.flatnonzero(hit)) - 1
    counts = np.bincount(np.minimum(gaps, 39), minlength=40)
    from stats import chisquare

    assert chisquare(counts, law / law.sum(), pool="adjacent").pvalue > 1e-9


def test_gap_and_coupon_power_figures_are_real_by_simulation():
    """Cell counts drawn from the alternative law at the reported δ are rejected at α = 0.01 in
    >= 55 of 60 runs (P(< 55 | power 0.99) < 1e-4)."""
    from stats.chisquare import _chisquare_cells
    from stats.coupon import CouponAccumulator, detectable_scarcity, scarce_category_cells
    from stats.gap import GapAccumulator, clustered_gap_cells, detectable_clustering

    rng = numpy_rng(32)
    gap = GapAccumulator(BIG_SIX)
    gap.update(rng.choice(7, 100_000, p=[float(p) for p in BIG_SIX]))
    result = gap.result()
    delta = detectable_clustering(gap, result, 0.01, 0.99)
    law = clustered_gap_cells(gap.hit, gap.cells, delta)
    hits = sum(_chisquare_cells(rng.multinomial(result.n, law), gap.cell_p, pool="adjacent").pvalue <= 0.01
               for _ in range(60))
    assert 0 < delta < 0.1 and hits >= 55, (delta, hits)
    coupon = CouponAccumulator(6)
    coupon.update(rng.integers(0, 6, 50_000))
    result = coupon.result()
    delta = detectable_scarcity(coupon, result, 0.01, 0.99)
    law = scarce_category_cells(coupon, delta)
    assert np.allclose(scarce_category_cells(coupon, 0.0), coupon.cell_p, atol=1e-15)
    hits = sum(_chisquare_cells(rng.multinomial(result.n, law / law.sum()), coupon.cell_p, pool="adjacent").pvalue
               <= 0.01 for _ in range(60))
    assert 0 < delta < 0.5 and hits >= 55, (delta, hits)


def _coupon_lengths_reference(x, k):
    """Straightforward reference: walk the values with a set, closing a segment when it holds k."""
    lengths, seen, start = [], set(), 0
    for i, v in enumerate(x.tolist()):
        seen.add(v)
        if len(seen) == k:
            lengths.append(i + 1 - start)
            seen, start = set(), i + 1
    return lengths, start


@pytest.mark.parametrize("k, dtype, size", [(2, np.uint8, 3_000), (6, np.uint8, 5_000), (37, np.uint8, 20_000),
                                            (300, np.uint16, 30_000)])
def test_coupon_segments_kernel_matches_reference(k, dtype, size):
    """The C pass cuts the same segments as the reference, whole and with a limit."""
    from stats.coupon import segment_lengths

    rng = np.random.default_rng(k)
    x = rng.integers(0, k, size).astype(dtype)
    expected, consumed = _coupon_lengths_reference(x, k)
    lengths, used = segment_lengths(x, k)
    assert len(expected) > 10 and lengths.tolist() == expected and used == consumed
    few, used = segment_lengths(x, k, limit=3)
    assert few.tolist() == expected[:3] and used == sum(expected[:3])
    short, used = segment_lengths(x[:k - 1], k)
    assert short.size == 0 and used == 0


@pytest.mark.parametrize("k, t, dtype", [(2, 5, np.uint8), (37, 5, np.uint8), (6, 3, np.uint8), (300, 5, np.uint16),
                                         (1000, 8, np.uint16)])
def test_poker_hands_kernel_matches_reference(k, t, dtype):
    """csrc/stats/poker.h classes each hand as the reference does (the set of its values), fed in
    chunks that cut hands."""
    from stats.poker import PokerAccumulator

    rng = np.random.default_rng(k + t)
    x = rng.integers(0, k, 30_000 * t // 5).astype(dtype)
    acc = PokerAccumulator(k, t=t)
    for piece in np.array_split(x, 9):
        acc.update(piece)
    cells = acc.counts.size
    expected = np.zeros(cells, dtype=np.int64)
    for hand in x[: x.size // t * t].reshape(-1, t).tolist():
        expected[min(len(set(hand)) - 1, cells - 1)] += 1
    assert acc.counts.tolist() == expected.tolist() and expected.sum() == x.size // t


def test_poker_hands_kernel_refuses_a_value_out_of_range():
    from stats import _sp800_22_native as native

    ffi, lib = native._lib()
    counts = np.zeros(5, dtype=np.int64)
    hands = np.array([0, 1, 2, 0, 1, 9, 0, 0, 0, 0], dtype=np.uint8)
    assert lib.stat_poker_tally(ffi.from_buffer(hands), 2, 5, 1, 3, ffi.from_buffer("int64_t[]", counts),
                                5) == lib.STAT_E_ARGUMENT
    assert counts.tolist() == [0, 0, 1, 0, 0]  # the hand before it (3 distinct values)


def test_coupon_segments_kernel_refuses_a_value_out_of_range():
    from stats.coupon import segment_lengths

    with pytest.raises(ValueError, match="coupon collector segments"):
        segment_lengths(np.array([0, 9, 1, 2, 0, 1], dtype=np.uint8), 3)
