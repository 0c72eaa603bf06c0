"""Repeat-count test: exact law against enumeration, a loop reference, the sticky fault, power and calibration."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats as ss

from stats import ks_uniform_test, repeat_test
from stats.defects import sticky_wheel
from stats.repeats import LAGGED, RepeatAccumulator, repeat_moments
from tests.stats_support import BIG_SIX, FAR_TAIL, draw, enumerated_law, numpy_rng


def _loop_repeats(x, lags):
    """The repeat count the plain way: one comparison at a time."""
    return sum(1 for lag in lags for i in range(lag, len(x)) if x[i] == x[i - lag])


def _enumerated_law(probabilities, n, lags):
    """Exact law of R over every sequence of length n."""
    return enumerated_law(probabilities, n, lambda seq: _loop_repeats(seq, lags))


@pytest.mark.parametrize("lags", [(1,), (2,), (1, 2), (2, 3, 5)])
def test_counts_match_a_loop_across_chunks(lags):
    x = numpy_rng(3).integers(0, 5, 700)
    acc = RepeatAccumulator(5, lags=lags)
    for part in np.array_split(x, [1, 2, 50, 51, 399]):
        acc.update(part)
    assert acc.repeats == _loop_repeats(x.tolist(), lags)


@pytest.mark.parametrize("probabilities,n,lags", [
    ((Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)), 7, (1,)),
    ((Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)), 7, (1, 2, 3)),
    ((Fraction(3, 4), Fraction(1, 4)), 9, (2, 4)),
    ((Fraction(1, 3),) * 3, 6, (1, 2)),
])
def test_moments_are_exact(probabilities, n, lags):
    law = _enumerated_law(probabilities, n, lags)
    mean = sum(r * w for r, w in law.items())
    var = sum(r * r * w for r, w in law.items()) - mean * mean
    pairs, m, v = repeat_moments(probabilities, n, lags)
    assert pairs == sum(n - lag for lag in lags)
    assert m == pytest.approx(float(mean), rel=1e-12) and v == pytest.approx(float(var), rel=1e-12)


@pytest.mark.parametrize("k,n,lag", [(3, 7, 1), (4, 6, 2), (2, 9, 3)])
def test_equal_faces_one_lag_is_exactly_binomial(k, n, lag):
    law = _enumerated_law((Fraction(1, k),) * k, n, (lag,))
    binom = ss.binom(n - lag, 1 / k)
    for r in range(n - lag + 1):
        assert float(law.get(r, 0)) == pytest.approx(binom.pmf(r), rel=1e-12)


def test_result_is_frozen_unpackable_and_exact_for_a_fair_wheel():
    x = numpy_rng(4).integers(0, 37, 5_000)
    result = repeat_test(x, 37)
    stat, p = result
    assert (stat, p) == (result.statistic, result.pvalue) and result.method == "binomial"
    law = ss.binom(4_999, 1 / 37)
    r = int(stat)
    assert p == pytest.approx(min(1, 2 * min(law.cdf(r), law.sf(r - 1))))
    with pytest.raises(AttributeError):
        result.pvalue = 0.5
    assert repeat_test(numpy_rng(4).choice(7, 5_000, p=[float(v) for v in BIG_SIX]), BIG_SIX).method == "normal"


def test_too_few_outcomes_and_bad_lags_are_refused():
    from stats import InsufficientDataError

    with pytest.raises(InsufficientDataError):
        repeat_test([3], 37)
    assert repeat_test([3, 3], 37).pvalue < 0.1  # two outcomes are enough for the exact law
    with pytest.raises(InsufficientDataError):
        repeat_test([0] * 50, BIG_SIX)  # the normal law wants 25 expected repeats
    with pytest.raises(ValueError, match="lag"):
        repeat_test([1, 2, 3], 37, lags=(0,))


def test_sticky_wheel_is_caught_far_in_the_tail():
    """The zoo's sticky wheel (previous pocket again w.p. 0.01) at 20,000 spins: z ≈ 8."""
    assert repeat_test(sticky_wheel(20_000, 7), 37).pvalue < FAR_TAIL


def test_battery_reports_repeats_with_its_detectable_repeat_probability():
    from stats import run_battery

    spec, x = draw("roulette-single", 20_000, seed=5)
    by_name = {t.name: t for t in run_battery(spec, x).tests}
    assert {"repeats", "lagged-repeats"} <= set(by_name)
    d, pairs = by_name["repeats"].detectable, by_name["serial-pairs"].detectable
    assert d.description == pairs.description == "repeats the previous outcome with probability δ"
    # One degree of freedom instead of k² - k: a repeat probability 3× smaller is seen.
    assert 0.003 < d.delta < pairs.delta / 2.5


# -- slow studies ------------------------------------------------------------------------------

#: The issue's sticky wheel: the previous pocket again 1 % more often than chance,
#: P(repeat) = 1.01/37, i.e. "show the previous pocket" w.p. ε = 0.01/36.
STICKY_1PCT = 0.01 / 36
#: roulette-single runs 21 battery tests at n = 10^7; Holm rejects any test with p <= α/21.
ROULETTE_LEVEL = 0.01 / 21
STICKY_1PCT_N = 13_000_000


@pytest.mark.slow
def test_power_sticky_wheel_1pct_at_stated_n():
    """At 1.3·10^7 spins the repeat count alone reaches the battery's level α/21 in >= 97 of 100 runs
    (so the battery fails: Holm rejects any p <= α/m).  Today's battery without it needs 3.2·10^7."""
    hits = sum(repeat_test(sticky_wheel(STICKY_1PCT_N, seed, STICKY_1PCT), 37).pvalue <= ROULETTE_LEVEL
               for seed in range(100))
    print("sticky wheel 1%, n = 1.3e7:", hits, "/100")
    assert hits >= 97


@pytest.mark.slow
@pytest.mark.parametrize("device,n", [("roulette-single", 20_000), ("big-six", 20_000), ("dice:2", 10_000)])
def test_calibration_uniform_pvalues_over_1000_runs(device, n):
    for lags in ((1,), LAGGED):
        p = [repeat_test(np.ravel(draw(device, n, seed=30_000 + i)[1]), draw(device, 1)[0].probabilities,
                         lags=lags).pvalue for i in range(1000)]
        assert ks_uniform_test(p).pvalue > 0.001, (device, lags)
