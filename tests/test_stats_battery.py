"""The battery: plans per device kind, Holm's rule, sample-size errors, power figures."""
import numpy as np
import pytest
from rngcore.devices import device_spec

from stats import InsufficientDataError, holm, run_battery
from stats.battery import Battery, plan_tests
from stats.power import (
    chisquare_power,
    detectable_shift,
    noncentrality_for_power,
    sample_size_for_repeat,
    sample_size_for_shift,
)
from tests.stats_support import draw

REGULATOR_TESTS = {"frequency", "serial-pairs", "independence", "gap", "poker", "coupon-collector", "poisson",
                   "permutation", "runs-up", "runs-up-down", "runs-median", "serial-correlation",
                   "maximum-of-5", "ks-subsequences", "ad-subsequences", "spectral"}


def test_holm_adjustment_matches_definition():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> running max
    assert holm(p).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])


@pytest.mark.parametrize("device", ["roulette-single", "big-six", "money-wheel", "dice:1", "dice:3"])
def test_sequence_devices_get_the_regulators_tests(device):
    names = {t.name for t in plan_tests(device_spec(device), 10**6)}
    assert REGULATOR_TESTS <= names
    if device == "dice:3":
        assert {"combination", "totals-independence", "interplay"} <= names


@pytest.mark.parametrize("device", ["deck", "shoe:8", "tiles", "pontoon:6"])
def test_permutation_devices_get_shuffle_tests(device):
    names = {t.name for t in plan_tests(device_spec(device), 10**4)}
    assert {"composition", "position-card", "adjacency", "first-card", "cut-card", "relative-order",
            "carry-over"} <= names


def test_too_few_samples_runs_what_is_valid_and_names_the_need():
    """Required tests short of n are skipped with the n they need; the verdict is over what ran."""
    spec, data = draw("roulette-single", 1000, seed=2)
    result = run_battery(spec, data)
    skipped = {t.name: t for t in result.skipped}
    assert skipped["independence"].needed == 6846 and skipped["serial-pairs"].needed == 6845
    assert skipped["independence"].note == "needs at least 6,846 outcomes, got 1,000"
    assert {"frequency", "gap", "poker", "permutation"} <= {t.name for t in result.ran}
    assert result.verdict == "pass" and result.complete and not result.interrupted  # complete at its n
    assert Battery(spec, 1000).min_samples() == 6846
    with pytest.raises(InsufficientDataError, match=r"on roulette-single needs at least 2 outcomes, got 1"):
        Battery(spec, 1)
    assert Battery(device_spec("deck"), 600).min_samples() == 600


def test_small_shoe_capture_gets_a_verdict_from_the_tests_valid_at_its_n():
    """200 shoes: the position tests need 260 and relative order 600, so they are skipped with that
    need; the tests valid at 200 run, and a broken shoe fails the battery."""
    from stats.defects import missing_card_shoe

    spec = device_spec("shoe:8")
    result = run_battery(spec, missing_card_shoe(200, 5))
    by_name = {t.name: t for t in result.tests}
    assert by_name["position-card"].verdict == "skipped" and by_name["position-card"].needed == 260
    assert by_name["relative-order"].needed == 600
    assert by_name["composition"].verdict == "fail" and result.verdict == "fail"
    assert "AS appears 7 times, KD appears 9 times (a fresh stack has 8 of each)" in by_name["composition"].note
    good = run_battery(spec, draw("shoe:8", 200, seed=3)[1])
    assert good.verdict == "pass" and good.complete and len(good.skipped) == 4
    assert [t.name for t in good.tests][:4] == ["composition", "position-card", "adjacency", "first-card"]


@pytest.mark.parametrize("device,n", [("roulette-single", 100_000), ("big-six", 50_000), ("dice:2", 50_000),
                                      ("shoe:6", 1000), ("tiles", 1000)])
def test_good_devices_pass_far_from_the_tail(device, n):
    spec, data = draw(device, n, seed=11)
    result = run_battery(spec, data)
    assert min(t.pvalue for t in result.tests) > 1e-9
    assert result.n == n and len(result.tests) >= 8


def test_power_formulas_against_exact_noncentral_chi_square():
    lam = noncentrality_for_power(36, 0.01)
    assert chisquare_power(36, lam, 0.01) == pytest.approx(0.99, abs=1e-9)
    delta = detectable_shift(37, 10**6, 0.01)
    # one pocket at (1 + δ)/37: noncentrality from the definition
    p0 = np.full(37, 1 / 37)
    p1 = p0 * (1 - delta / 36)
    p1[0] = (1 + delta) / 37
    exact_lam = 10**6 * np.sum((p1 - p0) ** 2 / p0)
    assert exact_lam == pytest.approx(lam, rel=1e-9)
    assert sample_size_for_shift(37, delta, 0.01) == pytest.approx(10**6, rel=1e-6)
    assert sample_size_for_shift(6, 0.06, 0.01) == 46_526  # the heavy die, one test at α = 0.01
    assert sample_size_for_repeat(37, 0.01, 0.01) > 10_000


def test_power_is_real_by_simulation_of_the_frequency_test():
    """At n and δ from the power formula, the biased wheel is detected about 99 % of the time."""
    from stats import frequency_test
    from stats.defects import biased_pocket

    n = 200_000
    delta = detectable_shift(37, n, 0.01, category=0)
    hits = sum(frequency_test(biased_pocket(n, seed=s, delta=delta), 37).pvalue <= 0.01 for s in range(60))
    assert hits >= 55  # P(hits < 55 | power 0.99) < 1e-4


def test_every_power_figure_of_a_wheel_and_dice_battery_is_finite():
    """The exact-law alternatives (gap clustering, coupon scarcity, Poisson drift, interplay copy,
    spectral peak share) give finite, positive δ; they are solved only when read."""
    for device, n in (("big-six", 50_000), ("dice:2", 50_000)):
        spec, data = draw(device, n, seed=12)
        result = run_battery(spec, data)
        entries = {t.name: t for t in result.tests}
        assert "detectable" not in vars(entries["coupon-collector"])  # lazy: not solved yet
        for name in ("gap", "coupon-collector", "poisson", "spectral", "frequency", "serial-pairs"):
            d = entries[name].detectable
            assert 0 < d.delta < 1 and d.alpha == pytest.approx(0.01 / len(result.tests)), (name, d)
        if device == "dice:2":
            assert 0 < entries["interplay"].detectable.delta < 0.1
        assert entries["ks-subsequences"].detectable is None


def test_raw_byte_stream_is_a_device():
    from stats.bytestream import BYTES
    from stats.kinds import Bytes, parse_device

    assert isinstance(parse_device("bytes"), Bytes) and BYTES.label_index("255") == 255
    assert parse_device("bits") is None
    import rngcore

    data = BYTES.draw(rngcore.Generator("ab" * 32), 340_000)
    result = run_battery(BYTES, data)
    names = {t.name for t in result.tests}
    assert {"frequency", "serial-pairs", "spectral", "poisson"} <= names
    assert min(t.pvalue for t in result.tests) > 1e-9
    spectral = next(t for t in result.tests if t.name == "spectral")
    assert spectral.result.n == 340_000 * 8 // 65_536 * 65_536  # the raw bits, in whole blocks
