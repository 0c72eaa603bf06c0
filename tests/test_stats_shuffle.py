"""Shuffle tests: exact covariance structures checked against enumeration of every arrangement."""
import itertools

import numpy as np
import pytest

from stats.defects import naive_shuffle_small, sattolo_shuffle
from stats.shuffle import (AdjacencyAccumulator, _adjacency_model, _match_moments, adjacency_test, card_position_test,
                           carryover_test, composition_check, multiset_counts, permutation_frequency_test,
                           position_test, relative_order_test)
from tests.stats_support import exact_moments, numpy_rng

MULTISETS = [(0, 1, 2, 3, 4), (0, 0, 1, 1, 2, 3), (0, 0, 0, 1, 1, 2, 2)]


def _arrangements(multiset):
    return np.array(sorted(set(itertools.permutations(multiset))))


@pytest.mark.parametrize("multiset", MULTISETS)
def test_position_table_covariance_is_scaled_projection(multiset):
    """One shuffle's W×L table has covariance W/(W-1) × (interaction projection) after
    standardization, which is what makes X²(W-1)/W chi-square with (W-1)(L-1) df."""
    rows = _arrangements(multiset)
    m = np.array(multiset_counts(multiset))
    W, L = len(multiset), m.size
    tables = np.stack([np.eye(L)[r].ravel() for r in rows])
    mean, cov = exact_moments(tables)
    q = np.tile(m / W, W)
    std = cov / np.sqrt(np.outer(q, q))
    eig = np.linalg.eigvalsh(std)
    assert np.allclose(eig[eig > 1e-9], W / (W - 1))
    assert int(np.sum(eig > 1e-9)) == (W - 1) * (L - 1)


@pytest.mark.parametrize("multiset", MULTISETS)
def test_adjacency_model_equals_enumeration(multiset):
    rows = _arrangements(multiset)
    m = multiset_counts(multiset)
    L = len(m)
    (a, b), mu, S, c, df = _adjacency_model(m)
    counts = np.stack([np.bincount(r * L + np.roll(r, -1), minlength=L * L)[a * L + b] for r in rows])
    mean, cov = exact_moments(counts)
    assert np.allclose(mu, mean)
    assert np.allclose(S, cov / np.sqrt(np.outer(mu, mu)))
    eig = np.linalg.eigvalsh(S)
    assert set(np.round(eig[eig > 1e-9], 9)) <= {1.0, round(c, 9)}
    assert int(np.sum(eig > 1e-9)) == df


@pytest.mark.parametrize("multiset", MULTISETS)
def test_carryover_moments_equal_enumeration(multiset):
    rows = _arrangements(multiset)
    matches = (rows[:, None, :] == rows[None, :, :]).sum(axis=2).ravel()
    mean, var = _match_moments(np.array(multiset_counts(multiset)))
    assert matches.mean() == pytest.approx(mean)
    assert matches.var() == pytest.approx(var)


def test_good_shuffles_pass_and_defects_fail_far_in_tail():
    rng = numpy_rng(1)
    deck = np.arange(10)
    good = rng.permuted(np.tile(deck, (3000, 1)), axis=1)
    for test in (position_test, adjacency_test, card_position_test, relative_order_test):
        assert test(good, deck).pvalue > 1e-9
    assert composition_check(good, deck).pvalue == 1.0
    sattolo = sattolo_shuffle(3000, 2, multiset=tuple(range(10)))
    assert position_test(sattolo, deck).pvalue < 1e-9
    # Sattolo applied round after round to the previous order: a card never stays in place.
    chained, current = [], deck
    for cycle in sattolo:
        current = current[cycle]
        chained.append(current)
    assert carryover_test(np.array(chained), deck).pvalue < 1e-9
    assert carryover_test(good, deck).pvalue > 1e-9


def test_exhaustive_permutation_frequencies_reject_naive_three_card_shuffle():
    rows = naive_shuffle_small(6000, 3)
    r = permutation_frequency_test(rows, (0, 1, 2))
    assert r.df == 5 and r.pvalue < 1e-9
    good = numpy_rng(4).permuted(np.tile([0, 1, 1, 2], (6000, 1)), axis=1)
    r = permutation_frequency_test(good, (0, 1, 1, 2))
    assert r.df == 11 and r.pvalue > 1e-9


def test_composition_and_impossible_adjacency():
    rows = np.tile(np.arange(6), (50, 1))
    rows[7, 3] = 2  # label 2 twice, label 3 missing
    r = composition_check(rows, range(6))
    assert r.statistic == 1 and r.pvalue == 0.0 and "shuffle 7" in r.detail
    assert adjacency_test(np.tile([0, 1, 1, 2, 3, 4], (300, 1)), range(6)).pvalue == 0.0


def test_input_checks():
    with pytest.raises(ValueError, match="rows of 5 items"):
        position_test(np.zeros((3, 4), dtype=int), range(5))
    with pytest.raises(ValueError, match="at most 7 items"):
        permutation_frequency_test(np.zeros((3, 8), dtype=int), range(8))
    with pytest.raises(ValueError, match="shuffle 1, position 2: label index 9"):
        position_test(np.array([[0, 1, 2], [0, 1, 9]]), range(3))
    with pytest.raises(ValueError, match="at least 4 items"):
        AdjacencyAccumulator(range(3))
