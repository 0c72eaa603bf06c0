"""Runs tests: exact moments against brute-force enumeration and Knuth's published matrix."""
import itertools
from math import factorial

import numpy as np
import pytest

from stats import runs_median_test, runs_up_test, runs_updown_test
from stats.runs import RunsAccumulator, run_moments
from tests.stats_support import exact_moments, numpy_rng

# Knuth, TAOCP Vol. 2, 3rd ed., §3.3.2 eq. (10): the matrix A and vector b of the runs-up test.
KNUTH_A = np.array([
    [4529.4, 9044.9, 13568, 18091, 22615, 27892],
    [9044.9, 18097, 27139, 36187, 45234, 55789],
    [13568, 27139, 40721, 54281, 67852, 83685],
    [18091, 36187, 54281, 72414, 90470, 111580],
    [22615, 45234, 67852, 90470, 113262, 139476],
    [27892, 55789, 83685, 111580, 139476, 172860],
])
KNUTH_B = np.array([1 / 6, 5 / 24, 11 / 120, 19 / 720, 29 / 5040, 1 / 840])


def test_runs_up_moments_reproduce_knuths_matrix():
    n = 10**7
    mean, cov = run_moments("up", n, 6)
    assert np.allclose(mean / n, KNUTH_B, rtol=1e-5)
    a = np.linalg.inv(cov) * (n - 6)
    assert np.allclose(a, KNUTH_A, rtol=6e-5)  # Knuth prints 5 significant digits


def _run_counts(u, kind, classes):
    acc = RunsAccumulator(kind, classes=classes)
    acc.update(np.asarray(u, dtype=float))
    counts = acc.counts[1:].copy()
    if acc._current > 0:
        counts[min(acc._current, classes) - 1] += 1
    return counts


@pytest.mark.parametrize("kind,n,classes", [("up", 7, 4), ("up", 6, 3), ("updown", 7, 3), ("updown", 6, 4)])
def test_exact_moments_equal_enumeration_over_all_permutations(kind, n, classes):
    counts = np.array([_run_counts(perm, kind, classes) for perm in itertools.permutations(range(n))])
    assert len(counts) == factorial(n)
    mean, cov = exact_moments(counts)
    our_mean, our_cov = run_moments(kind, n, classes)
    assert np.allclose(our_mean, mean, atol=1e-12)
    assert np.allclose(our_cov, cov, atol=1e-12)


def test_levene_wolfowitz_count_moments():
    for n in (50, 1001):
        mean, cov = run_moments("updown", n, 1)
        assert mean[0] == pytest.approx((2 * n - 1) / 3)
        assert cov[0, 0] == pytest.approx((16 * n - 29) / 90)


def test_chunked_counting_equals_whole():
    u = numpy_rng(1).random(50_000)
    for kind in ("up", "updown"):
        whole = RunsAccumulator(kind)
        whole.update(u)
        parts = RunsAccumulator(kind)
        for part in np.array_split(u, 13):
            parts.update(part)
        assert whole.result().statistic == parts.result().statistic


def reference_run_counts(u, kind, classes):
    """Counts of runs by length (1 .. classes - 1, >= classes), the last one as far as it goes, read
    off the definition one value at a time: a run up ends before a value below the one before it;
    a run up and down is a maximal stretch of equal signs of the steps u[i + 1] > u[i]."""
    items = list(u) if kind == "up" else [b > a for a, b in zip(u, u[1:])]
    lengths, length = [], 0
    for i, item in enumerate(items):
        new_run = i > 0 and (item < items[i - 1] if kind == "up" else item != items[i - 1])
        if new_run:
            lengths.append(length)
            length = 0
        length += 1
    lengths += [length] if length else []
    counts = [0] * classes
    for length in lengths:
        counts[min(length, classes) - 1] += 1
    return counts


@pytest.mark.parametrize("kind, classes", [("up", 6), ("up", 2), ("updown", 5), ("updown", 12)])
def test_the_run_kernel_counts_the_runs_of_the_definition(kind, classes):
    """csrc/stats/runs.h against the reference above, over chunks cut anywhere (one value, none, a
    boundary inside a run or on a turn), with ties (equal values continue a run up and step down) and
    long monotone stretches (the >= classes cell)."""
    rng = numpy_rng(kind == "up" and 4 or 5)
    u = np.concatenate([rng.random(3000), np.round(rng.random(3000), 1), np.arange(40.0), -np.arange(30.0),
                        np.repeat(rng.random(50), 3)])
    expected = reference_run_counts(u.tolist(), kind, classes)
    for cuts in ([], [1], [1, 2, 2, 3], sorted(rng.integers(0, u.size, 40).tolist())):
        acc = RunsAccumulator(kind, classes=classes)
        for a, b in zip([0, *cuts], [*cuts, u.size]):
            acc.update(u[a:b])
        counts = acc.counts[1:].copy()
        if acc._current > 0:
            counts[min(acc._current, classes) - 1] += 1
        assert counts.tolist() == expected, cuts
    assert sum(expected) > 1000 and expected[-1] > 0


def test_a_later_segment_still_looking_for_its_head_keeps_its_own_copy():
    """A stream may write its next chunk into the array of the last one (stats.kinds.Reused): a
    segment whose whole first chunk is still head (no run up starts in it) copies it, so its merge
    with the segment before is the one pass's."""
    u = numpy_rng(6).random(10_000)
    u[1000:1500] = np.linspace(2, 3, 500)  # the later segment starts with a long run up
    whole = RunsAccumulator("up")
    whole.update(u)
    first, later = RunsAccumulator("up"), RunsAccumulator("up").starting_at(1000)
    first.update(u[:1000])
    shared = u[1000:1200].copy()
    later.update(shared)  # all of it still head
    shared[:] = 0.0  # the array is overwritten by the next chunk's values
    later.update(u[1200:])
    merged = first.merge(later)
    assert merged.counts.tolist() == whole.counts.tolist() and merged.result().statistic == whole.result().statistic


def test_runs_tests_need_a_distribution_for_ties():
    with pytest.raises(ValueError, match="pass probabilities"):
        runs_up_test(np.array([1, 2, 2, 3] * 2000))


def test_runs_catch_alternation_and_clustering_far_in_tail():
    alternating = np.tile([0.2, 0.8], 5000) + numpy_rng(2).random(10_000) * 0.01
    assert runs_updown_test(alternating).pvalue < 1e-9
    assert runs_up_test(alternating).pvalue < 1e-9
    x = np.repeat(numpy_rng(3).integers(0, 37, 2_000), 3)  # every outcome three times
    assert runs_median_test(x, 37).pvalue < 1e-9


def test_median_runs_exact_moments_by_enumeration():
    # All 2^10 binary sequences with n1 = 4 lows: mean and variance of runs.
    seqs = [s for s in itertools.product([0, 1], repeat=10) if sum(s) == 4]
    runs = np.array([1 + sum(a != b for a, b in zip(s, s[1:])) for s in seqs])
    n1, n2, n = 4, 6, 10
    assert runs.mean() == pytest.approx(1 + 2 * n1 * n2 / n)
    assert runs.var() == pytest.approx(2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1)))
