"""numpy's drawing API on rngcore.Generator (integers(endpoint=), uniform,
shuffle, permutation, choice), each checked against a straightforward
reference written from its documented recipe and the ChaCha20 keystream
computed by OpenSSL (tests/core_support.py)."""
import numpy as np
import pytest

import rngcore
from core_support import reference_doubles, reference_integers, reference_keystream

SEED = bytes(range(0x20, 0x40))
STREAM = 11
LIMIT = 1 << 56  # a batch's largest product for 64-bit words (csrc/core/shuffle.h)
MASK = (1 << 64) - 1


def _fresh():
    return rngcore.Generator(SEED, STREAM)


def _keystream(nbytes: int) -> bytes:
    return reference_keystream(SEED, STREAM, nbytes)


def reference_permutation(keystream: bytes, n: int) -> tuple[list[int], int]:
    """Fisher-Yates from the end on 0..n-1 with batched bounded indices, from
    the recipe alone: bounds n, n-1, ..., 2 taken greedily into batches (at
    most 24, product <= 2**56); per batch read 8-byte little-endian words
    until x * P mod 2**64 >= 2**64 mod P, then the chain r -> r * b gives
    index r * b >> 64 for position b - 1.  Returns (permutation, bytes read)."""
    items, offset, bound = list(range(n)), 0, n
    while bound > 1:
        bounds = [bound]
        while bound - len(bounds) > 1 and len(bounds) < 24 and np.prod(bounds, dtype=object) * (bound - len(bounds)) <= LIMIT:
            bounds.append(bound - len(bounds))
        product = int(np.prod(bounds, dtype=object))
        while True:
            word = int.from_bytes(keystream[offset:offset + 8], "little")
            offset += 8
            if (word * product) & MASK >= (1 << 64) % product:
                break
        rest = word
        for b in bounds:
            full = rest * b
            index, rest = full >> 64, full & MASK
            items[b - 1], items[index] = items[index], items[b - 1]
        bound -= len(bounds)
    return items, offset


# --- integers(endpoint=) -----------------------------------------------------------------

@pytest.mark.parametrize("low, high", [(0, 0), (0, 36), (-5, 5), (1, 2**32), (0, 2**40), (-(2**63), 2**63 - 1)])
def test_endpoint_draws_as_the_half_open_interval_one_wider(low, high):
    generator = _fresh()
    values = generator.integers(low, high, size=200, endpoint=True)
    expected, consumed = reference_integers(_keystream(200 * 8 + 64), low, high + 1, 200)
    assert values.tolist() == expected and generator.position == consumed
    assert values.min() >= low and values.max() <= high


def test_endpoint_reaches_the_top_of_every_dtype():
    for dtype in (np.uint8, np.int8, np.uint32, np.uint64, np.int64):
        info = np.iinfo(dtype)
        values = _fresh().integers(info.min, info.max, size=64, dtype=dtype, endpoint=True)
        assert values.dtype == dtype
    words = _fresh().integers(0, 2**64 - 1, size=4, dtype=np.uint64, endpoint=True)
    ks = _keystream(32)
    assert words.tolist() == [int.from_bytes(ks[8 * i:8 * i + 8], "little") for i in range(4)]


def test_endpoint_scalar_and_single_bound_forms():
    generator, twin = _fresh(), _fresh()
    assert generator.integers(6, endpoint=True) == twin.integers(0, 7)
    assert generator.integers(1, 6, endpoint=True) == twin.integers(1, 7)
    assert generator.integers(3, 3, endpoint=True) == 3 and generator.position == twin.position
    with pytest.raises(ValueError, match=r"need low <= high with endpoint=True \(the interval \[4, 3\] is empty\)"):
        generator.integers(4, 3, endpoint=True)
    with pytest.raises(ValueError, match=r"\[0, 256\] does not fit dtype uint8"):
        generator.integers(0, 256, dtype=np.uint8, endpoint=True)


# --- uniform ------------------------------------------------------------------------

def test_uniform_is_low_plus_span_times_random():
    generator = _fresh()
    values = generator.uniform(-2.5, 7.0, size=100)
    expected = [-2.5 + 9.5 * u for u in reference_doubles(_keystream(800), 100)]
    assert values.tolist() == expected and generator.position == 800
    assert _fresh().uniform() == reference_doubles(_keystream(8), 1)[0]
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            generator.uniform(0, bad)


# --- permutation, shuffle ---------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 52, 416, 1000, 65536, 65537, 200_000])
def test_permutation_is_the_documented_fisher_yates(n):
    generator = _fresh()
    perm = generator.permutation(n)
    expected, consumed = reference_permutation(_keystream(8 * n + 4096), n)
    assert perm.dtype == np.int64 and perm.tolist() == expected
    assert generator.position == consumed


def test_shuffle_and_permutation_of_arrays_and_lists_apply_that_permutation():
    perm = _fresh().permutation(30)
    array = np.arange(60).reshape(30, 2) * 10
    shuffled = array.copy()
    _fresh().shuffle(shuffled)
    assert (shuffled == array[perm]).all()
    assert (_fresh().permutation(array) == array[perm]).all()
    columns = np.arange(60).reshape(2, 30)
    assert (_fresh().permutation(columns, axis=1) == columns[:, perm]).all()
    cards = [f"card{i}" for i in range(30)]
    _fresh().shuffle(cards)
    assert cards == [f"card{i}" for i in perm]


@pytest.mark.parametrize("n", [2, 3, 52, 416, 1025, 65536])
def test_the_32_bit_shuffle_is_the_devices_16_bit_shuffle(n):
    """rng_shuffle32 takes the plan, words and swaps of rng_shuffle16."""
    from rngcore import ffi, lib
    from rngcore.engine import locked_call

    narrow, wide = np.arange(n, dtype=np.uint16), np.arange(n, dtype=np.uint32)
    a, b = _fresh(), _fresh()
    locked_call(a, lib.rng_shuffle16, ffi.from_buffer("uint16_t[]", narrow), n, 64, what="16")
    locked_call(b, lib.rng_shuffle32, ffi.from_buffer("uint32_t[]", wide), n, 64, what="32")
    assert narrow.tolist() == wide.tolist() and a.position == b.position


def test_shuffle_refuses_what_it_cannot_shuffle():
    generator = _fresh()
    with pytest.raises(TypeError, match="mutable sequence"):
        generator.shuffle((1, 2, 3))
    with pytest.raises(TypeError, match="0-d"):
        generator.shuffle(np.array(5))
    assert generator.position == 0


# --- choice -------------------------------------------------------------------------------

def test_choice_with_replacement_is_bounded_integers():
    generator = _fresh()
    picks = generator.choice(np.array(list("abcdefg")), size=(4, 5))
    indices, consumed = reference_integers(_keystream(400), 0, 7, 20)
    assert picks.shape == (4, 5) and picks.ravel().tolist() == [list("abcdefg")[i] for i in indices]
    assert generator.position == consumed
    assert _fresh().choice(37) == reference_integers(_keystream(8), 0, 37, 1)[0][0]


def test_choice_without_replacement_is_the_head_of_a_permutation():
    generator = _fresh()
    hand = generator.choice(52, size=5, replace=False)
    expected, consumed = reference_permutation(_keystream(8 * 52 + 512), 52)
    assert hand.tolist() == expected[:5] and len(set(hand.tolist())) == 5
    assert generator.position == consumed
    deck = np.array([f"c{i}" for i in range(52)])
    assert _fresh().choice(deck, 5, replace=False).tolist() == [f"c{i}" for i in expected[:5]]
    assert _fresh().choice(52, replace=False) == expected[0]


def test_choice_refuses_weights_and_impossible_samples():
    generator = _fresh()
    with pytest.raises(ValueError, match="p= .* not offered"):
        generator.choice(3, p=[0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="cannot take 6 distinct items from 5"):
        generator.choice(5, 6, replace=False)
    with pytest.raises(ValueError, match="empty population"):
        generator.choice([], 1)
    assert generator.choice(5, 0).shape == (0,) and generator.position == 0
