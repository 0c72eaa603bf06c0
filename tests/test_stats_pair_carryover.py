"""Adjacent-pair carry-over test: its null law and moments by enumeration, a plain count, the fault it is
built for (a shuffler riffling the previous shoe's order) far in the tail, small captures; slow power and
calibration studies."""
import itertools

import numpy as np
import pytest

from stats import ks_uniform_test, pair_carryover_test, run_battery
from stats.defects import riffle_shuffle
from stats.pair_carryover import chernoff_upper, pair_moments, succession_pmf
from tests.stats_support import FAR_TAIL, device_spec, draw, numpy_rng

DECK = tuple(range(52))
SHOE8 = tuple(list(range(52)) * 8)


def _kept(previous, current):
    """Pairs (i, j) with labels (a, b) at (i, i + 1) before and at (j, j + 1) now: the plain double loop."""
    return sum(1 for i in range(len(previous) - 1) for j in range(len(current) - 1)
               if (previous[i], previous[i + 1]) == (current[j], current[j + 1]))


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_succession_law_is_the_enumerated_one(size):
    counts = np.zeros(size)
    for perm in itertools.permutations(range(size)):
        counts[_kept(tuple(range(size)), perm)] += 1
    np.testing.assert_allclose(succession_pmf(size), counts / counts.sum(), rtol=0, atol=1e-15)


@pytest.mark.parametrize("multiset", [(0, 0, 1, 1, 2), (0, 1, 2, 3, 4), (0, 0, 0, 1, 1, 2), (0, 1, 1, 2, 3)])
def test_conditional_mean_and_variance_are_the_enumerated_ones(multiset):
    """Every pair (previous, current) of arrangements: E[K | previous] = ⟨A_prev, μ⟩ exactly, and
    E[(K - ⟨A_prev, μ⟩)²] = v."""
    arrangements = sorted(set(itertools.permutations(multiset)))
    counts = tuple(multiset.count(label) for label in range(max(multiset) + 1))
    mu, v = pair_moments(counts)
    square = 0.0
    for previous in arrangements:
        kept = np.array([_kept(previous, current) for current in arrangements], dtype=float)
        mean = sum(mu[a, b] for a, b in zip(previous[:-1], previous[1:]))
        assert kept.mean() == pytest.approx(mean, abs=1e-12)
        square += float(((kept - mean) ** 2).mean())
    assert square / len(arrangements) == pytest.approx(v, rel=1e-12)


def test_statistic_is_the_plain_count_in_any_chunks():
    rows = draw("shoe:1", 24, seed=3)[1]
    rows[10:20] = riffle_shuffle(10, 4, riffles=3, start="previous")  # some structure
    result = pair_carryover_test(rows, DECK)
    assert result.observed == sum(_kept(tuple(a), tuple(b)) for a, b in zip(rows[:-1], rows[1:]))
    from stats.pair_carryover import PairCarryoverAccumulator

    acc = PairCarryoverAccumulator(DECK)
    for part in np.array_split(rows, 7):
        acc.update(part)
    assert acc.result() == result


def test_deck_pvalue_is_the_exact_upper_tail():
    rows = numpy_rng(5).permuted(np.tile(np.arange(6), (12, 1)), axis=1)
    result = pair_carryover_test(rows, tuple(range(6)))
    law = np.array([1.0])
    for _ in range(11):  # the 11 comparisons, convolved one at a time
        law = np.convolve(law, succession_pmf(6))
    assert result.pvalue == pytest.approx(law[int(result.observed):].sum(), rel=1e-9)
    for total in (30, 40, 60):  # the bound holds where the convolution is exact
        assert law[total:].sum() <= chernoff_upper(succession_pmf(6), 11, total) <= 1


@pytest.mark.parametrize("decks,riffles,n", [(1, 5, 100), (8, 6, 200), (8, 7, 1000)])
def test_riffling_the_previous_order_is_caught_far_in_the_tail(decks, riffles, n):
    multiset = DECK if decks == 1 else SHOE8
    result = pair_carryover_test(riffle_shuffle(n, 7, riffles=riffles, decks=decks, start="previous"), multiset)
    assert result.pvalue < FAR_TAIL and result.statistic > 6


@pytest.mark.parametrize("device", ["deck", "shoe:8", "tiles"])
def test_our_shuffles_are_not_flagged(device):
    spec = device_spec(device)
    result = pair_carryover_test(draw(device, 300, seed=21)[1], spec.multiset)
    assert result.pvalue > FAR_TAIL and abs(result.statistic) < 6


def test_in_the_battery_with_its_sample_size():
    shoe = device_spec("shoe:8")
    small = run_battery(shoe, draw("shoe:8", 20, seed=2)[1])
    skipped = {t.name: t for t in small.skipped}
    assert skipped["pair-carry-over"].needed == 31
    deck = run_battery(device_spec("deck"), draw("deck", 2, seed=2)[1])
    assert "pair-carry-over" in {t.name for t in deck.ran}  # exact from two shuffles


# -- slow studies (the lead runs them in full; reduced runs are reported in docs/statistics.md) ------

#: At most 10 tests run on shoe:8 (6 on a deck) at these n: a p <= α/11 fails the battery (Holm's first step).
LEVEL = 0.01 / 11
#: (decks, riffles of the previous order, shoes): the stated n of docs/statistics.md.
POWER_POINTS = [(1, 5, 50), (1, 6, 180), (8, 6, 100), (8, 7, 450)]


@pytest.mark.slow
@pytest.mark.parametrize("decks,riffles,n", POWER_POINTS)
def test_power_at_stated_n(decks, riffles, n, runs=100):
    multiset = DECK if decks == 1 else SHOE8
    hits = sum(pair_carryover_test(riffle_shuffle(n, seed, riffles=riffles, decks=decks, start="previous"),
                                   multiset).pvalue <= LEVEL for seed in range(runs))
    print(f"{riffles} riffles of the previous {decks}-deck order, {n} shuffles: {hits}/{runs}")
    assert hits >= 0.97 * runs


@pytest.mark.slow
@pytest.mark.parametrize("device,n", [("deck", 200), ("shoe:8", 100), ("tiles", 200)])
def test_calibration_over_1000_runs(device, n, runs=1000):
    """Uniform p-values on our shuffles: Kolmogorov-Smirnov for the normal law (shoe, tiles); for the
    deck's exact discrete law, P(p <= α) <= α at every level (inside the binomial 99.9% band)."""
    multiset = device_spec(device).multiset
    p = np.array([pair_carryover_test(draw(device, n, seed=60_000 + i)[1], multiset).pvalue for i in range(runs)])
    if device == "deck":
        from scipy import stats as sps

        for alpha in (0.001, 0.01, 0.05, 0.1, 0.5):
            assert (p <= alpha).sum() <= sps.binom.ppf(0.9995, runs, alpha), alpha
        assert (p <= 0.5).sum() >= sps.binom.ppf(0.0005, runs, 0.4)  # not uselessly conservative
    else:
        assert ks_uniform_test(p).pvalue > 0.001, device
