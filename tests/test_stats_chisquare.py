"""Chi-square goodness of fit: equal to scipy, pooling rule, G-test, option checking."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats as ss

from stats import chisquare, frequency_test, pool_cells
from stats._validate import InsufficientDataError
from tests.stats_support import BIG_SIX, numpy_rng


@pytest.mark.parametrize("seed", range(10))
def test_equals_scipy_chisquare(seed):
    rng = numpy_rng(seed)
    k = int(rng.integers(2, 60))
    p = rng.dirichlet(np.ones(k) * 5)
    p = p / p.sum()
    counts = rng.multinomial(int(rng.integers(20 * k, 200 * k)), p)
    ours = chisquare(counts, p, min_expected=0)
    ref = ss.chisquare(counts, counts.sum() * p)
    assert ours.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert ours.pvalue == pytest.approx(float(ref.pvalue), rel=1e-10, abs=1e-300)
    assert ours.df == k - 1 and ours.n == counts.sum() and ours.pooled == 0


def test_equals_scipy_with_fractions_and_uniform():
    counts = np.array([18, 22, 20, 21, 19, 20])
    for probs in (None, 6, [Fraction(1, 6)] * 6):
        r = chisquare(counts, probs)
        ref = ss.chisquare(counts)
        assert (r.statistic, r.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)


def test_g_test_equals_scipy_power_divergence():
    counts = np.array([30, 14, 34, 45, 57, 20])
    p = np.array([0.1, 0.1, 0.2, 0.2, 0.25, 0.15])
    ours = chisquare(counts, p, method="g")
    ref = ss.power_divergence(counts, counts.sum() * p, lambda_="log-likelihood")
    assert (ours.statistic, ours.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)


def test_pooling_smallest_merges_only_small_cells():
    expected = np.array([100.0, 2.0, 50.0, 1.0, 3.5, 40.0])
    groups = pool_cells(expected, rule="smallest")
    pooled = np.bincount(groups, weights=expected)
    assert pooled.min() >= 5
    # the three small cells (2, 1, 3.5) form one cell; large cells untouched
    assert len(set(groups[[1, 3, 4]])) == 1
    assert len(set(groups[[0, 2, 5]])) == 3


def test_pooling_adjacent_keeps_order_and_tail():
    expected = np.array([0.5, 1.0, 6.0, 20.0, 7.0, 3.0, 1.0, 0.4])
    groups = pool_cells(expected, rule="adjacent")
    assert np.all(np.diff(groups) >= 0)  # contiguous groups in order
    assert np.bincount(groups, weights=expected).min() >= 5


def test_pooling_is_decided_by_expected_counts_only():
    # Big Six: joker and flag expect 1/54 of n; with n = 108 they expect 2 each -> pooled
    r1 = chisquare([46, 30, 16, 8, 4, 2, 2], BIG_SIX)
    r2 = chisquare([40, 30, 16, 8, 4, 0, 10], BIG_SIX)
    assert r1.pooled == r2.pooled == 2 and r1.df == r2.df == 4


def test_error_rule_and_insufficient_data():
    with pytest.raises(ValueError, match="cell 5 expects"):
        chisquare([46, 30, 16, 8, 4, 2, 2], BIG_SIX, pool="error")
    with pytest.raises(InsufficientDataError, match="needs at least"):
        chisquare([1, 0, 0], 3)


def test_invalid_options_list_valid_choices():
    with pytest.raises(ValueError, match="'pearson', 'g'"):
        chisquare([1, 2], method="neyman")
    with pytest.raises(ValueError, match="'smallest', 'adjacent', 'error'"):
        chisquare([10, 20], pool="nearest")
    with pytest.raises(ValueError, match="sum to exactly 1"):
        chisquare([10, 20], [Fraction(1, 3), Fraction(1, 3)])
    with pytest.raises(ValueError, match="2 observed counts but 3"):
        chisquare([10, 20], 3)
    with pytest.raises(ValueError, match="must be > 0"):
        chisquare([10, 20], [1.0, 0.0])


def test_frequency_test_names_bad_value():
    with pytest.raises(ValueError, match=r"x\[2\] = 37 is outside the 37 categories"):
        frequency_test([0, 1, 37], 37)


def test_frequency_detects_gross_bias_far_in_tail():
    x = numpy_rng(3).choice(37, 20_000, p=np.r_[0.1, np.full(36, 0.9 / 36)])
    assert frequency_test(x, 37).pvalue < 1e-9
