"""Draws follow the audit contract exactly (checked against an independent
Python statement of it on OpenSSL's keystream), in every dtype, and bad
arguments are named."""
import numpy as np
import pytest

import rngcore

from core_support import reference_doubles, reference_integers, reference_keystream

SEED = bytes(range(32))
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]

CASES = [
    (0, 37), (0, 2), (1, 7), (-5, 5), (0, 52), (0, 416), (10**6, 10**6 + 3),
    (0, 2**31 + 1),            # worst rejection rate for 32-bit words (~1/2)
    (0, 2**32),                # raw 32-bit words
    (-2**31, 2**31 + 1),       # span 2^32 + 1: 64-bit words
    (-2**63, 2**62 + 1),       # span 3 * 2^62 + 1: 64-bit words, 1/4 rejected
    (-2**63, 2**63),           # raw 64-bit words
    (7, 8),                    # one value: consumes nothing
]


@pytest.mark.parametrize("low, high", CASES)
def test_integers_array_matches_the_contract(low, high):
    generator = rngcore.Generator(SEED, 21)
    values = generator.integers(low, high, size=300)
    expected, consumed = reference_integers(reference_keystream(SEED, 21, 8 * 300 * 3), low, high, 300)
    assert values.dtype == np.int64 and values.tolist() == expected
    assert generator.position == consumed


@pytest.mark.parametrize("low, high", CASES)
def test_integers_scalar_matches_the_contract(low, high):
    generator = rngcore.Generator(SEED, 22)
    values = [generator.integers(low, high) for _ in range(50)]
    expected, consumed = reference_integers(reference_keystream(SEED, 22, 8 * 50 * 3), low, high, 50)
    assert values == expected and all(type(v) is int for v in values)
    assert generator.position == consumed


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_over_its_full_range_and_a_small_one(dtype):
    info = np.iinfo(dtype)
    for low, high in [(info.min, info.max + 1), (info.max - 9, info.max + 1), (info.min, info.min + 3)]:
        generator = rngcore.Generator(SEED, 23)
        values = generator.integers(low, high, size=(20, 10), dtype=dtype)
        assert values.dtype == np.dtype(dtype) and values.shape == (20, 10)
        expected, consumed = reference_integers(reference_keystream(SEED, 23, 8 * 200 * 3), low, high, 200)
        assert values.ravel().tolist() == expected
        assert generator.position == consumed
        scalar = rngcore.Generator(SEED, 23).integers(low, high, dtype=dtype)
        assert scalar == expected[0] and type(scalar) is int


def test_integers_one_argument_form_and_numpy_integer_bounds():
    a = rngcore.Generator(SEED).integers(37, size=10)
    b = rngcore.Generator(SEED).integers(np.int32(0), np.uint8(37), size=10)
    assert a.tolist() == b.tolist()
    assert rngcore.Generator(SEED).integers(0, 37, size=0).shape == (0,)


def test_integers_bulk_is_in_range_and_covers_it():
    values = rngcore.Generator(SEED).integers(0, 37, size=100_000)
    counts = np.bincount(values, minlength=37)
    assert counts.size == 37 and counts.min() > 0


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((5, 5), {}, ValueError, r"need low < high .* low=5, high=5"),
    ((6, 5), {}, ValueError, "need low < high"),
    ((0, 0), {"size": 3}, ValueError, "need low < high"),
    ((0, 300), {"dtype": np.uint8}, ValueError, r"does not fit dtype uint8.*\[0, 255\]"),
    ((-1, 10), {"dtype": np.uint32}, ValueError, "does not fit dtype uint32"),
    ((0, 2**63 + 1), {}, ValueError, "does not fit dtype int64"),
    ((0, 10), {"dtype": np.float64}, ValueError, "dtype must be one of int8"),
    ((0, 10), {"dtype": ">i8"}, ValueError, "native byte order"),
    ((0, 10), {"dtype": "nonsense"}, TypeError, "dtype must be one of"),
    ((0.5, 10), {}, TypeError, "low must be an integer"),
    ((0, "10"), {}, TypeError, "high must be an integer"),
    ((True, 10), {}, TypeError, "bool"),
    ((0, 10), {"size": -1}, ValueError, "size must be >= 0"),
    ((0, 10), {"size": (2, -3)}, ValueError, "size must be >= 0"),
    ((0, 10), {"size": 2.5}, TypeError, "size must be an int"),
])
def test_bad_integers_arguments_are_named(args, kwargs, error, message):
    generator = rngcore.Generator(SEED)
    with pytest.raises(error, match=message):
        generator.integers(*args, **kwargs)
    assert generator.position == 0


def test_random_matches_the_contract():
    generator = rngcore.Generator(SEED, 31)
    scalar = [generator.random() for _ in range(5)]
    array = generator.random((4, 5))
    expected = reference_doubles(reference_keystream(SEED, 31, 8 * 25), 25)
    assert scalar == expected[:5] and array.ravel().tolist() == expected[5:]
    assert generator.position == 200 and array.dtype == np.float64
    assert all(type(x) is float for x in scalar)


def test_random_extremes_are_in_half_open_interval():
    # Words 0 and 2^64 - 1 give 0.0 and 1 - 2^-53: [0, 1) is half-open.
    assert reference_doubles(bytes(8) + b"\xff" * 8, 2) == [0.0, 1.0 - 2.0**-53]
    values = rngcore.Generator(SEED).random(100_000)
    assert values.min() >= 0.0 and values.max() < 1.0


@pytest.mark.parametrize("buffer, error, message", [
    (b"abc", TypeError, "read-only"),
    (np.zeros(4).view(), None, None),
    (np.zeros((4, 4))[:, 1], ValueError, "not C-contiguous"),
    (12, TypeError, "expected a writable buffer"),
    ("text", TypeError, "expected a writable buffer"),
])
def test_fill_rejects_unusable_buffers(buffer, error, message):
    if isinstance(buffer, np.ndarray) and error is None:
        buffer.flags.writeable = False
        error, message = TypeError, "read-only"
    generator = rngcore.Generator(SEED)
    with pytest.raises(error, match=message):
        generator.fill(buffer)
    assert generator.position == 0


def test_fill_empty_buffer_is_a_no_op():
    generator = rngcore.Generator(SEED)
    generator.fill(bytearray())
    generator.fill(np.zeros(0))
    assert generator.position == 0


def test_random_bytes_large_and_small_paths_agree():
    # >= 4096 bytes are written in place into a fresh bytes object.
    generator = rngcore.Generator(SEED, 2)
    small = generator.random_bytes(4095)
    large = generator.random_bytes(4096)
    assert type(small) is bytes and type(large) is bytes
    assert small + large == reference_keystream(SEED, 2, 8191)
    assert generator.random_bytes(0) == b""
