"""Serial tests: Good's ∇ψ² (exact covariance check), non-overlapping tuples, independence."""
import itertools

import numpy as np
import pytest
import scipy.stats as ss

from stats import chisquare, independence_test, serial_test
from stats.serial import _word_probabilities
from tests.stats_support import numpy_rng


def _overlap_covariance(p, t):
    """Exact per-outcome covariance of circular overlapping t-tuple counts."""
    k = len(p)
    words = list(itertools.product(range(k), repeat=t))
    pw = np.array([np.prod([p[c] for c in w]) for w in words])
    cov = np.zeros((len(words), len(words)))
    for a, w in enumerate(words):
        for b, v in enumerate(words):
            s = 0.0
            for d in range(-(t - 1), t):
                seq, ok = {i: w[i] for i in range(t)}, True
                for i in range(t):
                    if seq.setdefault(d + i, v[i]) != v[i]:
                        ok = False
                        break
                if ok:
                    s += np.prod([p[c] for c in seq.values()])
                s -= pw[a] * pw[b]
            cov[a, b] = s
    return words, pw, cov


def _lift(k, t, s):
    words = list(itertools.product(range(k), repeat=t))
    index = {w: i for i, w in enumerate(itertools.product(range(k), repeat=s))}
    m = np.zeros((k**s, len(words)))
    for j, w in enumerate(words):
        m[index[w[:s]], j] = 1
    return m


@pytest.mark.parametrize("p,t,second", [((0.5, 0.3, 0.2), 2, False), ((0.5, 0.3, 0.2), 3, False),
                                        ((0.6, 0.4), 3, True), ((0.5, 0.3, 0.2), 3, True)])
def test_good_difference_is_exactly_chi_square_for_unequal_probabilities(p, t, second):
    """The quadratic form of ∇ψ² (or ∇²ψ²) under the exact covariance has eigenvalues 0 and 1
    only, with as many 1s as the df we use: so it is asymptotically chi-square with that df."""
    k = len(p)
    words, pw, cov = _overlap_covariance(p, t)

    def d(s):
        return np.diag(1 / _word_probabilities(np.array(p), s))

    form = d(t) - (2 if second else 1) * _lift(k, t, t - 1).T @ d(t - 1) @ _lift(k, t, t - 1)
    if second and t >= 3:
        form += _lift(k, t, t - 2).T @ d(t - 2) @ _lift(k, t, t - 2)
    w, v = np.linalg.eigh(cov)
    root = v @ np.diag(np.sqrt(np.clip(w, 0, None))) @ v.T
    eig = np.linalg.eigvalsh(root @ form @ root)
    assert np.allclose(eig[np.abs(eig) > 1e-6], 1.0, atol=1e-7)
    df = k**t - 2 * k ** (t - 1) + k ** (t - 2) if second else k**t - k ** (t - 1)
    assert int(np.sum(np.abs(eig - 1) < 1e-7)) == df


def test_non_overlapping_pairs_equal_chisquare_on_pair_counts():
    x = numpy_rng(1).integers(0, 6, 10_001)
    r = serial_test(x, 6, t=2)
    pairs = x[:10_000].reshape(-1, 2)
    ref = chisquare(np.bincount(pairs[:, 0] * 6 + pairs[:, 1], minlength=36), 36)
    assert (r.statistic, r.pvalue, r.df, r.n) == (ref.statistic, ref.pvalue, 35, 5000)


def test_overlapping_df_and_circular_counts():
    x = numpy_rng(2).integers(0, 5, 3000)
    r = serial_test(x, 5, t=3, overlapping=True)
    assert r.df == 125 - 25 and r.method == "good-first-difference"
    assert r.observed.sum() == 3000  # circular: n tuples
    r2 = serial_test(x, 5, t=3, overlapping=True, difference=2)
    assert r2.df == 125 - 50 + 5


def test_independence_equals_scipy_contingency():
    x = numpy_rng(3).integers(0, 7, 20_000)
    r = independence_test(x, 7)
    table = np.bincount(x[:-1] * 7 + x[1:], minlength=49).reshape(7, 7)
    stat, p, dof, _ = ss.chi2_contingency(table, correction=False)
    assert (r.statistic, r.pvalue, r.df) == pytest.approx((stat, p, dof), rel=1e-12)


def test_serial_tests_catch_a_sticky_sequence():
    rng = numpy_rng(4)
    x = rng.integers(0, 37, 200_000)
    again = rng.random(x.size) < 0.05
    for i in np.flatnonzero(again[1:]) + 1:
        x[i] = x[i - 1]
    assert serial_test(x, 37, t=2, overlapping=True).pvalue < 1e-9
    assert independence_test(x, 37).pvalue < 1e-9


def test_invalid_difference_lists_choices():
    with pytest.raises(ValueError, match="0, 1, 2"):
        serial_test([0, 1, 2, 3], 4, overlapping=True, difference=3)
