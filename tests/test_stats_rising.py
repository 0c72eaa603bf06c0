"""Rising-sequence test: the Eulerian law by enumeration, a plain Bayer–Diaconis count, the GSR
riffle generator against its exact law, small captures, power and calibration."""
import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from stats import ks_uniform_test, rising_sequence_test, run_battery
from stats._exact import power_of_pmf
from stats.defects import riffle_shuffle, riffled
from stats.rising import RisingSequenceAccumulator, chernoff_tail, compared_labels, eulerian_pmf
from tests.stats_support import FAR_TAIL, device_spec, draw, numpy_rng

DECK = tuple(range(52))
SHOE8 = tuple(list(range(52)) * 8)


def _rising_sequences(order, reference):
    """Bayer and Diaconis's count, the plain way: deal from ``order``, collecting the reference's
    items in turn; each pass through the stack is one rising sequence."""
    where = {item: i for i, item in enumerate(order)}
    passes, at = 1, -1
    for item in reference:
        if where[item] < at:
            passes += 1
        at = where[item]
    return passes


def _first_appearances(row, labels):
    """Labels in the order their first copy appears in ``row``."""
    return [v for v in dict.fromkeys(int(u) for u in row) if v in labels]


def _reference_total(rows, multiset, reference):
    labels = set(compared_labels(multiset))
    fresh = _first_appearances(multiset, labels)
    total, previous = 0, None
    for row in rows:
        order = _first_appearances(row, labels)
        if reference == "fresh":
            total += _rising_sequences(order, fresh)
        elif previous is not None:
            total += _rising_sequences(order, previous)
        previous = order
    return total


@pytest.mark.parametrize("size", [2, 3, 5, 6])
def test_eulerian_law_by_enumeration(size):
    counts = Counter(_rising_sequences(p, range(size)) - 1 for p in itertools.permutations(range(size)))
    total = sum(counts.values())
    assert np.allclose(eulerian_pmf(size), [counts[j] / total for j in range(size)], rtol=1e-14, atol=0)


@pytest.mark.parametrize("multiset", [DECK, SHOE8, (0, 1, 1, 2, 2, 3)])
@pytest.mark.parametrize("reference", ["fresh", "previous"])
def test_counts_match_the_plain_count_across_chunks(multiset, reference):
    rows = numpy_rng(8).permuted(np.tile(np.array(multiset), (40, 1)), axis=1)
    rows[:20] = riffled(rows[:20], 3, numpy_rng(9))  # structure, so the counts are not all typical
    acc = RisingSequenceAccumulator(multiset, reference=reference)
    for part in np.array_split(rows, [1, 2, 17, 31]):
        acc.update(part)
    result = acc.result()
    assert result.statistic == _reference_total(rows, multiset, reference)
    assert result.shuffles == (40 if reference == "fresh" else 39)


@pytest.mark.parametrize("multiset", [(0, 0, 1, 1, 2, 2), (0, 1, 1, 2, 2), (0, 1, 2, 3)])
def test_exact_null_over_every_arrangement(multiset):
    """Every distinct arrangement equally likely: R - 1 of the first appearances is Eulerian(L)."""
    labels = compared_labels(multiset)
    arrangements = sorted(set(itertools.permutations(multiset)))
    counts = Counter(_rising_sequences(_first_appearances(a, set(labels)), labels) - 1 for a in arrangements)
    law = [Fraction(counts[j], len(arrangements)) for j in range(len(labels))]
    assert np.allclose([float(v) for v in law], eulerian_pmf(len(labels)), rtol=1e-14, atol=0)


@pytest.mark.parametrize("riffles,width", [(1, 4), (2, 4), (1, 5)])
def test_gsr_generator_has_the_bayer_diaconis_law(riffles, width):
    """An a-shuffle gives π with probability C(a + W - R(π), W)/a^W (R its rising sequences):
    the generator over every packet vector it can draw."""
    a = 2 ** riffles
    law = Counter()
    fresh = np.arange(width)
    for packets in itertools.product(range(a), repeat=width):
        order = np.argsort(np.array(packets), kind="stable")
        out = np.empty(width, dtype=int)
        out[order] = fresh
        law[tuple(out)] += Fraction(1, a ** width)
    for perm in itertools.permutations(range(width)):
        r = _rising_sequences(perm, range(width))
        assert law[perm] == Fraction(comb(a + width - r, width), a ** width)
    # riffled() draws exactly that map of packets to positions.
    class Fixed:
        def integers(self, lo, hi, shape, dtype):
            return np.array([packets], dtype=dtype)
    packets = (1, 0, 1, 1)[:width] + (0,) * (width - 4)
    expected = np.empty(width, dtype=int)
    expected[np.argsort(np.array(packets), kind="stable")] = fresh
    assert riffled(fresh[None, :], riffles, Fixed())[0].tolist() == expected.tolist()


def test_result_is_frozen_exact_and_the_far_tail_is_a_true_bound():
    _, x = draw("deck", 50, seed=3)
    result = rising_sequence_test(x, DECK)
    stat, p = result
    assert result.method == "exact" and result.expected == 50 * 53 / 2 and 0 < p <= 1
    pmf, offset = power_of_pmf(eulerian_pmf(52), 0, 100)
    for t in (2440, 2470, 2500):  # 5.2, 3.8 and 2.4 sd below the mean, where the convolution is exact
        exact = float(pmf[: t - offset + 1].sum())
        assert exact <= chernoff_tail(52, 100, t) < 1
    with pytest.raises(AttributeError):
        result.statistic = 1
    with pytest.raises(ValueError, match="reference"):
        rising_sequence_test(x, DECK, reference="factory")


def test_a_small_capture_of_a_riffling_shoe_fails_decisively():
    """200 shoes of 9 riffles (the shuffler today's battery catches at ~4,800): the run of the
    valid tests fails, rising sequences far in the tail; a good shoe passes."""
    spec = device_spec("shoe:8")
    bad = run_battery(spec, riffle_shuffle(200, 11, riffles=9, decks=8))
    by_name = {t.name: t for t in bad.tests}
    assert bad.verdict == "fail" and by_name["rising-sequences"].pvalue < 1e-4
    assert {t.name for t in bad.skipped} >= {"position-card", "relative-order"}
    assert all(t.needed > 200 for t in bad.skipped)
    good = run_battery(spec, draw("shoe:8", 200, seed=12)[1])
    assert good.verdict == "pass" and {"rising-sequences", "rising-from-previous"} <= {t.name for t in good.ran}


# -- slow studies ------------------------------------------------------------------------------

#: shoe:8 runs 10 tests at n = 400 (Holm rejects any p <= α/10).
SHOE_LEVEL = 0.01 / 10
RIFFLE_9_SHOES = 400


@pytest.mark.slow
def test_power_9_riffles_of_an_8_deck_shoe_at_stated_n():
    hits = sum(rising_sequence_test(riffle_shuffle(RIFFLE_9_SHOES, seed, riffles=9, decks=8), SHOE8).pvalue
               <= SHOE_LEVEL for seed in range(100))
    print("9 riffles, 400 shoes:", hits, "/100")
    assert hits >= 97


def _law_pvalue(values, pmf, offset, cells=20):
    """Chi-square of whole-number ``values`` against the discrete law ``pmf`` (P(X = offset + i)),
    in about ``cells`` cells of whole values cut at the law's quantiles."""
    from scipy import stats as sps

    cuts = np.unique(np.searchsorted(np.cumsum(pmf), np.arange(1, cells) / cells))  # cell ends (index)
    expected = np.diff(np.concatenate([[0.0], np.cumsum(pmf)[cuts], [1.0]]))
    observed = np.bincount(np.searchsorted(cuts, np.asarray(values) - offset), minlength=cuts.size + 1)
    return sps.chisquare(observed, expected * len(values)).pvalue


@pytest.mark.slow
@pytest.mark.parametrize("device,n", [("deck", 200), ("shoe:8", 100), ("tiles", 200)])
def test_calibration_over_1000_runs(device, n, runs=1000):
    """On our shuffles the totals follow the convolved Eulerian law and P(p <= α) <= α at every
    level (inside the binomial 99.9% band).  Not KS on the p-values: the total is discrete, so its
    two-sided p-value is lumpy (sup |P(p <= u) - u| = 0.027 deck, 0.038 shoe, 0.056 tiles) and KS at
    1,000 runs rejects draws from the exact law itself (P(KS p <= 0.001) = 0.1 shoe, 0.6 tiles)."""
    from scipy import stats as sps

    multiset = device_spec(device).multiset
    for reference in ("fresh", "previous"):
        results = [rising_sequence_test(draw(device, n, seed=40_000 + i)[1], multiset, reference=reference)
                   for i in range(runs)]
        shuffles, size = results[0].shuffles, results[0].labels
        pmf, offset = power_of_pmf(eulerian_pmf(size), 0, shuffles)
        totals = [int(r.statistic) - shuffles for r in results]  # descents = rising sequences - 1
        assert _law_pvalue(totals, pmf, offset) > 0.001, (device, reference)
        p = np.array([r.pvalue for r in results])
        for alpha in (0.001, 0.01, 0.05, 0.1, 0.5):
            assert (p <= alpha).sum() <= sps.binom.ppf(0.9995, runs, alpha), (device, reference, alpha)
        assert (p <= 0.5).sum() >= sps.binom.ppf(0.0005, runs, 0.4), (device, reference)  # not uselessly conservative
