"""Exhaustive proof that the bounded-integer code has no bias.

csrc/core/bounded.h generates the 8-, 16-, 32- and 64-bit routines from ONE
definition (RNG_DEFINE_BOUNDED), so proving the 8- and 16-bit instantiations
over every possible word proves the algorithm the 32/64-bit production code
runs.  Each test runs the shipped routine on a test source that yields every
w-bit word exactly once and counts the values it produces.

Why counting over one pass is the whole proof: Lemire's method accepts or
rejects a word by the word alone (accept iff (x * n) mod 2^w >= 2^w mod n),
and a rejected word is simply followed by a fresh one.  So over the
enumeration, every accepted word yields exactly one output and every
rejected word none: the histogram is exactly the number of words mapped to
each value.  If every value of [0, n) has the same count, then for
independent uniform words each attempt returns each value with the same
probability count / 2^w, and the output is exactly uniform.
"""
import numpy as np
import pytest

import rngcore
from rngcore import ffi, lib
from rngcore.testing import TestEngine, bounded_histogram


def _assert_exactly_uniform(counts, produced, width, n, engine):
    per_value = (1 << width) // n
    assert produced == n * per_value
    assert np.all(counts == per_value), f"n={n}: counts range {counts.min()}..{counts.max()}"
    # Every word was read once; the ones that produced nothing are exactly
    # the 2^w mod n rejected ones.
    assert engine.consumed == engine.length == (1 << width) * (width // 8)
    assert (1 << width) - produced == (1 << width) % n


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_every_n_up_to_256_is_exactly_uniform_over_all_8_bit_words(batch):
    proved = 0
    for n in range(2, 257):
        engine = TestEngine.enumerate(8)
        counts, produced = bounded_histogram(engine.source, 8, n, batch=batch, batch_size=1)
        assert engine.exhausted  # it ran until the source had nothing left
        _assert_exactly_uniform(counts, produced, 8, n, engine)
        proved += 1
    assert proved == 255


def test_batch_request_of_exactly_the_accepted_count_consumes_every_word_once():
    # Large batches (chunked fetches) must read exactly as many words as the
    # scalar routine would: asking for the n * floor(2^8 / n) accepted values
    # uses all 256 words and not one more.
    for n in range(2, 257):
        engine = TestEngine.enumerate(8)
        wanted = n * (256 // n)
        counts, produced = bounded_histogram(engine.source, 8, n, batch=True, batch_size=wanted)
        _assert_exactly_uniform(counts, produced, 8, n, engine)


SAMPLE_16 = [2, 3, 5, 6, 7, 10, 36, 37, 38, 52, 100, 255, 256, 257, 312, 416, 1000, 4095, 4096,
             4097, 10007, 21845, 21846, 32767, 32768, 32769, 43690, 43691, 65521, 65535, 65536]


@pytest.mark.parametrize("batch", [False, True], ids=["scalar", "batch"])
def test_sampled_n_are_exactly_uniform_over_all_16_bit_words(batch):
    rng = np.random.default_rng(20240601)  # which n to check: not an outcome
    sample = SAMPLE_16 + sorted(int(n) for n in rng.integers(2, 65537, size=20))
    for n in sample:
        engine = TestEngine.enumerate(16)
        counts, produced = bounded_histogram(engine.source, 16, n, batch=batch, batch_size=1)
        assert engine.exhausted
        _assert_exactly_uniform(counts, produced, 16, n, engine)
    assert len(sample) == 51


def test_sampled_n_batch_over_all_16_bit_words():
    for n in SAMPLE_16:
        engine = TestEngine.enumerate(16)
        wanted = n * (65536 // n)
        counts, produced = bounded_histogram(engine.source, 16, n, batch=True, batch_size=wanted)
        _assert_exactly_uniform(counts, produced, 16, n, engine)


def test_a_biased_routine_would_be_caught():
    # The proof's power: plain `x mod n` over the same enumeration is not
    # uniform for n = 37 (256 = 6 * 37 + 34), and the check above fails it.
    words = np.arange(256)
    counts = np.bincount(words % 37, minlength=37)
    assert not np.all(counts == counts[0])


def test_n_equal_one_consumes_nothing():
    # max == 0: the value is the low bound and no word is read (production
    # rng_draw_integers, 32-bit instantiation, on an empty source).
    engine = TestEngine.from_bytes(b"")
    out = np.full(5, 99, np.int64)
    status = lib.rng_draw_integers(engine.source, ffi.from_buffer(out), 5, 8, 7, 0)
    assert status == lib.RNG_OK and list(out) == [7] * 5
    assert engine.consumed == 0 and not engine.exhausted


def test_full_range_returns_raw_words():
    # max == 2^w - 1 (n = 2^w): one raw word per value, nothing rejected.
    engine = TestEngine.enumerate(16)
    counts, produced = bounded_histogram(engine.source, 16, 65536)
    assert produced == 65536 and np.all(counts == 1)


def test_enumerating_engine_yields_every_word_once_little_endian():
    for width in (8, 16, 24):
        engine = TestEngine.enumerate(width)
        size = width // 8
        data = bytearray(engine.length)
        assert engine.source.fill(engine.source.state, ffi.from_buffer(data), len(data)) == lib.RNG_OK
        words = np.frombuffer(bytes(data), np.uint8).reshape(-1, size).astype(np.uint64)
        values = sum(words[:, i] << np.uint64(8 * i) for i in range(size))
        assert np.array_equal(values, np.arange(1 << width, dtype=np.uint64))
        assert not engine.exhausted
        assert engine.source.next32(engine.source.state) == 0xFFFFFFFF  # past the end
        assert engine.exhausted and engine.source.status == lib.RNG_E_EXHAUSTED


def test_replaying_engine_reads_words_and_bytes_from_one_stream():
    engine = TestEngine.from_bytes(bytes(range(16)))
    src = engine.source
    assert src.next32(src.state) == 0x03020100
    assert src.next64(src.state) == 0x0B0A090807060504
    assert engine.consumed == 12 and not engine.exhausted
    assert src.next64(src.state) == 0xFFFFFFFF0F0E0D0C  # 4 real bytes, then 0xff
    assert engine.exhausted


def test_histogram_arguments_are_checked():
    engine = TestEngine.enumerate(8)
    with pytest.raises(ValueError, match="n must be in"):
        bounded_histogram(engine.source, 8, 257)
    with pytest.raises(ValueError, match="width must be"):
        bounded_histogram(engine.source, 12, 5)
    with pytest.raises(ValueError, match="width must be"):
        TestEngine.enumerate(12)


@pytest.mark.slow
@pytest.mark.parametrize("n", [6, 37, 52, 416, 1_000_003, 2**24 + 1])
def test_production_width_exhaustive_over_all_32_bit_words(n):
    # The production instantiation itself, over all 2^32 words (~10 s each).
    engine = TestEngine.enumerate(32)
    wanted = n * ((1 << 32) // n)
    counts, produced = bounded_histogram(engine.source, 32, n, batch=True, batch_size=wanted)
    _assert_exactly_uniform(counts, produced, 32, n, engine)


def test_generator_uses_the_proved_32_bit_routine():
    # Generator.integers == rng_bounded_max32 on the same keystream: the
    # batch (array) and scalar forms give the same values and positions.
    a = rngcore.Generator(bytes(range(32)), 1)
    b = rngcore.Generator(bytes(range(32)), 1)
    array = a.integers(0, 37, size=1000)
    scalars = [b.integers(0, 37) for _ in range(1000)]
    assert array.tolist() == scalars
    assert a.position == b.position
