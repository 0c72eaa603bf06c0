"""The randomized PIT's one-pass kernel (csrc/stats/pit.h) gives numpy's values bit for bit.

The reference is the transform as first written with numpy, straight from its
definition: PCG64's raw 64-bit outputs at the stream's position, 53-bit
uniforms w = (raw >> 11) 2^-53, and u = F(c-) + w p_c gathered and computed
one array operation at a time.  Compared as raw float64 bits, on every index
width the kernel reads, at positions reached by seek, chunk by chunk into one
reused output array.
"""
from fractions import Fraction

import numpy as np
import pytest

from stats.pit import DEFAULT_JITTER_SEED, RandomizedPIT


def reference_pit(x, probabilities, seed, position):
    p = np.full(probabilities, 1 / probabilities) if isinstance(probabilities, int) else \
        np.array([float(q) for q in probabilities])
    lower = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    bits = np.random.PCG64(seed)
    bits.advance(position)
    raw = bits.random_raw(len(x))
    w = (raw >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    x = np.asarray(x, dtype=np.int64)
    return lower[x] + w * p[x]


def _law(k, rng):
    if k > 1000:
        return k  # (k equally likely categories)
    weights = rng.integers(1, 50, k)
    return [Fraction(int(w), int(weights.sum())) for w in weights]


@pytest.mark.parametrize("k, dtype", [(2, np.uint8), (37, np.uint8), (37, np.int64), (300, np.uint16),
                                      (300, np.int32), (70_000, np.uint32)])
def test_the_kernel_gives_numpys_values_bit_for_bit(k, dtype):
    rng = np.random.default_rng(k)
    law = _law(k, rng)
    x = rng.integers(0, k, 40_000).astype(dtype)
    expected = reference_pit(x, law, DEFAULT_JITTER_SEED, 0)
    whole = RandomizedPIT(law)(x)
    assert whole.dtype == np.float64 and np.array_equal(whole.view(np.uint64), expected.view(np.uint64))
    pit, out, parts = RandomizedPIT(law), np.empty(x.size), []
    for piece in np.array_split(x, 7):
        parts.append(pit(piece, out=out[: piece.size]).copy())  # one array, overwritten chunk after chunk
    assert np.array_equal(np.concatenate(parts).view(np.uint64), expected.view(np.uint64))


def test_a_seeked_stream_gives_the_values_of_a_stream_read_up_to_there():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 37, 10_000).astype(np.uint8)
    pit = RandomizedPIT(37, seed=11)
    pit.seek(123_457)
    got = pit(x)
    assert np.array_equal(got.view(np.uint64), reference_pit(x, [Fraction(1, 37)] * 37, 11, 123_457).view(np.uint64))
    assert got.min() >= 0 and got.max() < 1


def test_bad_indices_and_bad_output_arrays_are_refused():
    pit = RandomizedPIT(6)
    with pytest.raises(ValueError, match=r"x\[2\] = 6 is outside the 6 categories"):
        pit(np.array([0, 5, 6, 1]))
    with pytest.raises(ValueError, match="out must be a contiguous float64 array of 3 values"):
        pit(np.array([0, 1, 2]), out=np.empty(4))
    with pytest.raises(ValueError, match="out must be"):
        pit(np.array([0, 1, 2]), out=np.empty(3, dtype=np.float32))
    assert pit(np.array([], dtype=np.uint8)).size == 0


def test_the_kernel_itself_refuses_an_index_outside_the_categories():
    """Its own guard, not only the check before it: no read past the tables."""
    from stats import _sp800_22_native as native

    ffi, lib = native._lib()
    values = np.array([0, 1, 7], dtype=np.uint8)
    table, u = np.full(4, 0.25), np.zeros(3)
    for width, data in ((1, values), (2, values.astype(np.uint16)), (4, values.astype(np.uint32))):
        status = lib.stat_pit(ffi.from_buffer(data), 3, width, 4, ffi.from_buffer("double[]", table),
                              ffi.from_buffer("double[]", table), ffi.from_buffer("double[]", u))
        assert status == lib.STAT_E_ARGUMENT
    assert lib.stat_pit(ffi.from_buffer(values), 3, 8, 8, ffi.from_buffer("double[]", np.zeros(8)),
                        ffi.from_buffer("double[]", np.zeros(8)), ffi.from_buffer("double[]", u)) == lib.STAT_E_ARGUMENT


def test_the_battery_writes_each_chunks_uniforms_into_one_array():
    """The derived uniform stream reuses its array from chunk to chunk (nothing allocated and freed per
    chunk), and the tests that read it give the figures of the stream computed afresh."""
    from stats.battery import Battery
    from tests.stats_support import device_spec

    spec = device_spec("roulette-single")
    x = np.random.default_rng(8).integers(0, 37, 30_000).astype(np.uint8)
    battery = Battery(spec, x.size, tests=["runs-up", "runs-up-down", "permutation"])
    first = battery._derived(x[:10_000])["uniform"]
    second = battery._derived(x[10_000:20_000])["uniform"]
    assert np.shares_memory(first, second)
    tests = ["runs-up", "runs-up-down", "permutation"]
    chunked = Battery(spec, x.size, tests=tests)
    for piece in np.array_split(x, 5):
        chunked.update(piece)
    whole = Battery(spec, x.size, tests=tests)
    whole.update(x)
    assert chunked.result().to_json() == whole.result().to_json()
