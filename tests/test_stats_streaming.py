"""Every streaming core gives the same answer in chunks as in one piece; memory stays bounded."""
import numpy as np
import pytest

from stats import streaming as st
from tests.stats_support import BIG_SIX, draw, numpy_rng

SEQUENCE_CORES = [
    lambda: st.FrequencyAccumulator(37),
    lambda: st.SerialAccumulator(37, t=2, overlapping=True),
    lambda: st.SerialAccumulator(37, t=3, overlapping=False),
    lambda: st.SerialAccumulator(5, t=3, overlapping=True, difference=2),
    lambda: st.IndependenceAccumulator(37),
    lambda: st.GapAccumulator(37),
    lambda: st.PokerAccumulator(37),
    lambda: st.CouponAccumulator(37),
    lambda: st.MaximumAccumulator(37),
    lambda: st.MedianRunsAccumulator(37),
    lambda: st.SerialCorrelationAccumulator(lags=4),
    lambda: st.BirthdaySpacingsAccumulator(37, t=3, birthdays=60),
    lambda: st.CollisionAccumulator(37, t=3, balls=1000),
    lambda: st.SubsequenceAccumulator(37, block=4000, method="ad"),
    lambda: st.PoissonAccumulator(37),
]
UNIFORM_CORES = [
    lambda: st.OrderPatternAccumulator(t=4),
    lambda: st.RunsAccumulator("up"),
    lambda: st.RunsAccumulator("updown", classes=5),
]
ROW_CORES = [
    st.CompositionAccumulator, st.PositionAccumulator, st.AdjacencyAccumulator, st.CardPositionAccumulator,
    st.CarryoverAccumulator, st.RelativeOrderAccumulator,
]


def _same(make, data, pieces):
    whole = make()
    whole.update(data)
    parts = make()
    for part in np.array_split(data, pieces):
        parts.update(part)
    a, b = whole.result(), parts.result()
    assert a.statistic == pytest.approx(b.statistic, rel=1e-12, abs=1e-12)
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("index", range(len(SEQUENCE_CORES)))
def test_sequence_cores_chunk_invariant(index):
    _, x = draw("roulette-single", 200_000, seed=index + 1)
    if index == 3:
        x = x % 5
    _same(SEQUENCE_CORES[index], x, 17)


@pytest.mark.parametrize("index", range(len(UNIFORM_CORES)))
def test_uniform_cores_chunk_invariant(index):
    _same(UNIFORM_CORES[index], numpy_rng(index).random(100_000), 11)


@pytest.mark.parametrize("core", ROW_CORES, ids=lambda c: c.__name__)
def test_row_cores_chunk_invariant(core):
    spec, rows = draw("tiles", 2000, seed=3)
    _same(lambda: core(spec.multiset), rows, 7)


def test_spectral_and_interplay_cores_chunk_invariant():
    bits = numpy_rng(10).integers(0, 2, 300_000, dtype=np.uint8)
    _same(lambda: st.SpectralAccumulator(block=1 << 15), bits, 13)
    _, rows = draw("dice:3", 30_000, seed=5)
    _same(lambda: st.InterplayAccumulator([6, 6, 6]), rows, 7)


def test_pit_stream_is_chunk_invariant_and_uniform():
    x = numpy_rng(9).choice(7, 50_000, p=[float(p) for p in BIG_SIX])
    whole = st.RandomizedPIT(BIG_SIX)(x)
    pit = st.RandomizedPIT(BIG_SIX)
    parts = np.concatenate([pit(c) for c in np.array_split(x, 9)])
    assert np.array_equal(whole, parts)
    from stats import ks_uniform_test

    assert ks_uniform_test(whole).pvalue > 1e-9


def test_battery_memory_is_bounded_by_tables_not_stream():
    """Feeding 10x more data grows no accumulator state beyond its bounded carries
    (at most one block of the largest block test, 65,536 outcomes)."""
    from stats.battery import Battery
    from rngcore.devices import device_spec

    spec = device_spec("roulette-single")

    def state_bytes(b):
        total = 0
        for t in b.tests:
            for v in vars(t.acc).values():
                if isinstance(v, np.ndarray):
                    total += v.nbytes
        return total

    battery = Battery(spec, 2_000_000)
    _, x = draw("roulette-single", 200_000, seed=4)
    battery.update(x)
    small = state_bytes(battery)
    for _ in range(9):
        battery.update(x)
    assert state_bytes(battery) <= small + 200_000
    assert battery.n == 2_000_000
