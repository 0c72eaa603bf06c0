"""Wheel-position tests: the arc scores against a plain count, the wheel order reaching the kind,
the null law's tail bound, the tilted and worn wheels, power and calibration."""
import numpy as np
import pytest

from stats import harmonic_test, ks_uniform_test, run_battery, sector_test
from stats.defects import tilted_wheel, worn_sector
from stats.kinds import kind_of
from stats.sectors import SectorAccumulator, _scan_model
from tests.stats_support import BIG_SIX, FAR_TAIL, device_spec, draw, numpy_rng

ROULETTE = tuple(range(37))


def _arc_z(x, probabilities, sections, start, length):
    """The arc's score the plain way: each label weighted by its share of sections in the arc."""
    p = np.array([float(v) for v in probabilities])
    N, n = len(sections), len(x)
    inside = [sections[(start + j) % N] for j in range(length)]
    w = np.array([inside.count(s) / sections.count(s) for s in range(len(p))])
    counts = np.bincount(x, minlength=len(p))
    a = length / N
    return (counts @ w - n * a) / np.sqrt(n * (p @ (w * w) - a * a))


def test_wheel_order_reaches_the_kind():
    from rngcore.devices.wheels import BIG_SIX as BIG_SIX_TABLE, ROULETTE_DOUBLE_AS_SINGLE, SINGLE_ZERO_ORDER

    roulette = kind_of(device_spec("roulette-single"))
    assert [roulette.labels[i] for i in roulette.sections] == list(SINGLE_ZERO_ORDER)
    big_six = kind_of(device_spec("big-six"))
    assert [big_six.labels[i] for i in big_six.sections] == list(BIG_SIX_TABLE.sections)
    void = kind_of(device_spec("roulette-double-as-single"))
    assert "00" not in [void.labels[i] for i in void.sections] and len(void.sections) == 37
    assert ROULETTE_DOUBLE_AS_SINGLE.sections.index("00") == 19
    assert kind_of(device_spec("dice:2")).sections is None and kind_of(device_spec("bytes")).sections is None


def test_sections_must_give_the_law():
    from stats.kinds import Categorical

    with pytest.raises(ValueError, match="law"):
        Categorical(("a", "b"), (0.5, 0.5), sections=(0, 0, 1))


@pytest.mark.parametrize("probabilities,sections", [
    (37, ROULETTE),
    (BIG_SIX, tuple(kind_of(device_spec("big-six")).sections)),
])
def test_most_deviant_arc_matches_the_plain_scores(probabilities, sections):
    spec = device_spec("big-six" if probabilities is BIG_SIX else "roulette-single")
    x = worn_sector(30_000, 5) if probabilities == 37 else draw("big-six", 30_000, seed=5)[1]
    result = sector_test(x, spec.probabilities, sections)
    N = len(sections)
    plain = max(abs(_arc_z(x, spec.probabilities, list(sections), i, length))
                for length in range(1, N // 2 + 1) for i in range(N))
    assert result.statistic == pytest.approx(plain, rel=1e-9)
    z = _arc_z(x, spec.probabilities, list(sections), result.start, result.length)
    assert z == pytest.approx(result.statistic, rel=1e-9)  # the reported arc is the favoured one


def test_worn_sector_is_found_where_it_is():
    result = sector_test(worn_sector(200_000, 3), 37, ROULETTE)
    assert result.pvalue < FAR_TAIL and result.method == "hunter-worsley"
    worn = {(30 + j) % 37 for j in range(9)}
    found = {(result.start + j) % 37 for j in range(result.length)}
    assert len(worn & found) >= 7 and len(found) <= 12


def test_tilt_is_caught_far_in_the_tail_and_the_null_passes():
    assert harmonic_test(tilted_wheel(200_000, 4), 37, ROULETTE).pvalue < FAR_TAIL
    _, x = draw("roulette-single", 20_000, seed=6)
    h = harmonic_test(x, 37, ROULETTE)
    assert h.df == 4 and h.pvalue > 1e-6
    assert sector_test(x, 37, ROULETTE).pvalue > 1e-6


def test_null_law_is_the_maximum_of_the_arc_scores():
    """The simulated maxima against a direct simulation of multinomial counts (exact at this n)."""
    w, arcs, share, sd, maxima = _scan_model(ROULETTE, tuple(kind_of(device_spec("roulette-single")).probabilities))
    rng = numpy_rng(11)
    n = 20_000
    counts = rng.multinomial(n, [1 / 37] * 37, size=2_000)
    direct = np.abs((counts @ w - n * share) / (np.sqrt(n) * sd)).max(axis=1)
    for q in (0.5, 0.9, 0.99):
        assert np.quantile(direct, q) == pytest.approx(np.quantile(maxima, q), rel=0.03)


def test_battery_runs_them_for_wheels_only():
    spec, x = draw("roulette-single", 20_000, seed=8)
    names = {t.name for t in run_battery(spec, x).ran}
    assert {"wheel-sectors", "wheel-harmonics"} <= names
    spec, x = draw("dice:1", 20_000, seed=8)
    assert not {"wheel-sectors", "wheel-harmonics"} & {t.name for t in run_battery(spec, x).tests}


# -- slow studies ------------------------------------------------------------------------------

ROULETTE_LEVEL = 0.01 / 23  # roulette-single runs 23 tests at these n


@pytest.mark.slow
@pytest.mark.parametrize("defect,test,n", [
    (tilted_wheel, harmonic_test, 40_000),
    (worn_sector, sector_test, 100_000),
])
def test_power_at_stated_n(defect, test, n):
    hits = sum(test(defect(n, seed), 37, ROULETTE).pvalue <= ROULETTE_LEVEL for seed in range(100))
    print(defect.__name__, test.__name__, n, hits, "/100")
    assert hits >= 97


@pytest.mark.slow
@pytest.mark.parametrize("device", ["roulette-single", "big-six", "money-wheel"])
def test_calibration_uniform_pvalues_over_1000_runs(device):
    kind = kind_of(device_spec(device))
    for test in (sector_test, harmonic_test):
        p = [test(draw(device, 20_000, seed=50_000 + i)[1], kind.probabilities, kind.sections).pvalue
             for i in range(1000)]
        assert ks_uniform_test(p).pvalue > 0.001, (device, test.__name__)
