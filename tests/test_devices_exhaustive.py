"""Exhaustive no-bias proofs of the devices' batched drawing code.

The shipped C functions (rng_shuffle16, rng_shuffle16_rows, rng_uniform8) run
on the test engine's narrow left-aligned words (csrc/testing/testengine.h) and are fed
EVERY sequence of `depth` words.  For each depth, every outcome (every order of
the deck, every tuple of faces) must arise exactly equally often among the runs
that finished, and the count must equal what Lemire's rule predicts for the
documented batch plan -- so the code is exactly unbiased for every rejection
pattern up to that depth, not just on average.
"""
from __future__ import annotations

import itertools
import math

import pytest

from rngcore import ffi, lib
from rngcore.testing import TestEngine
from devices_support import enumerate_outcomes, plan_limit, shuffle_batches


def finished_weight(products: list[int], bits: int, depth: int) -> int:
    """Word sequences of length `depth` that finish with one given outcome.

    Each batch of product P accepts floor(2^bits / P) words per value of its
    indices and rejects 2^bits mod P words; unread trailing words are free.
    """
    size = 1 << bits

    def ways(batch: int, words_left: int) -> int:
        if batch == len(products):
            return size ** words_left
        if words_left == 0:
            return 0
        p = products[batch]
        return (size // p) * ways(batch + 1, words_left - 1) + (size % p) * ways(batch, words_left - 1)

    return ways(0, depth)


def test_left_aligned_engine_replays_each_word_at_the_top():
    engine = TestEngine.from_words([0x5, 0x3F, 0x1], 6)
    src = engine.source
    assert src.next64(src.state) == 0x5 << 58
    assert src.next32(src.state) == 0x3F << 26  # the top half of one whole word
    assert engine.consumed == 2 and not engine.exhausted
    assert src.next64(src.state) == 1 << 58
    assert src.next64(src.state) == 2**64 - 1  # past the end: all ones, latched
    assert engine.exhausted and src.status == lib.RNG_E_EXHAUSTED
    full = TestEngine.from_words([7], 64)  # production width: no shift
    assert full.source.next64(full.source.state) == 7
    fill = TestEngine.from_words([1], 8)
    assert fill.source.fill(fill.source.state, ffi.new("uint8_t[1]"), 1) == lib.RNG_E_ARGUMENT  # words only
    assert fill.source.status == lib.RNG_E_ARGUMENT
    with pytest.raises(ValueError, match="bits must be in 1..64"):
        TestEngine.from_words([0], 65)
    with pytest.raises(ValueError, match=r"every word must be in \[0, 2\*\*4\)"):
        TestEngine.from_words([16], 4)


def test_plan_limit_matches_c():
    for bits in range(2, 65):
        assert lib.rng_batch_limit(bits) == plan_limit(bits)
    assert lib.rng_batch_limit(1) == 0 and lib.rng_batch_limit(65) == 0


def run_shuffle(n, bits):
    def run(source):
        deck = ffi.new("uint16_t[]", list(range(n)))
        status = lib.rng_shuffle16(source, deck, n, bits)
        return status, tuple(deck)
    return run


@pytest.mark.parametrize(
    "n, bits, depth",
    [
        (5, 6, 2),  # batches (5,4) P=20 and (3,2) P=6: two words, both batches can reject
        (5, 6, 3),  # ... and every single-rejection path
        (5, 8, 1),  # one batch (5,4,3,2) P=120 from one word
        (5, 8, 2),
        (4, 4, 3),  # 4-bit words: batches (4), (3,2)
        (6, 7, 2),  # batches (6,5) P=30, (4,3,2) P=24
        (7, 8, 2),  # batches (7,6) P=42, (5,4,3,2) P=120: all 5040 orders
    ],
)
def test_shuffle_every_order_equally_often(n, bits, depth):
    products = shuffle_batches(n, bits)
    assert math.prod(products) == math.factorial(n)
    outcomes, exhausted = enumerate_outcomes(bits, depth, run_shuffle(n, bits))
    expected = finished_weight(products, bits, depth)
    assert expected > 0, "depth too small to finish any shuffle"
    orders = set(itertools.permutations(range(n)))
    assert set(outcomes) == orders
    assert set(outcomes.values()) == {expected}
    assert len(orders) * expected + exhausted == (1 << bits) ** depth


def test_shuffle_rows_is_sequential_shuffles():
    """Two fresh rows from one call: every pair of orders equally often."""
    n, bits, depth = 3, 4, 3

    def run(source):
        fresh = ffi.new("uint16_t[]", [0, 1, 2])
        out = ffi.new("uint16_t[]", 2 * n)
        status = lib.rng_shuffle16_rows(source, fresh, n, out, 2, bits)
        return status, tuple(out)

    outcomes, exhausted = enumerate_outcomes(bits, depth, run)
    expected = finished_weight(shuffle_batches(n, bits) * 2, bits, depth)
    assert len(outcomes) == 36
    assert set(outcomes.values()) == {expected}
    assert 36 * expected + exhausted == 16 ** depth


def uniform_batch(s, bits):
    """Outcomes per word: the most k with s^k <= limit (csrc/core/devices.c)."""
    k = 1
    while k < 24 and s ** (k + 1) <= plan_limit(bits):
        k += 1
    return k


def run_uniform(s, count, bits, void=None):
    def run(source):
        out = ffi.new("uint8_t[]", count)
        status = lib.rng_uniform8(source, s, s if void is None else void, out, count, bits)
        return status, tuple(out)
    return run


@pytest.mark.parametrize(
    "s, count, bits, depth",
    [
        (6, 3, 8, 2),    # dice: 2 faces per 8-bit word (P = 36), third face from a second word
        (6, 2, 8, 2),
        (37, 2, 8, 2),   # one pocket per word, 34 of 256 words rejected
        (37, 2, 12, 1),  # two pockets per 12-bit word (P = 1369)
        (38, 1, 8, 2),
        (54, 1, 8, 2),
        (52, 1, 8, 2),
    ],
)
def test_uniform_every_tuple_equally_often(s, count, bits, depth):
    k = uniform_batch(s, bits)
    words_needed = -(-count // k)
    outcomes, exhausted = enumerate_outcomes(bits, depth, run_uniform(s, count, bits))
    # The last word's surplus outcomes are discarded: each of their s^surplus
    # values leads to the same kept tuple.
    surplus = k * words_needed - count
    expected = finished_weight([s ** k] * words_needed, bits, depth) * s ** surplus
    assert expected > 0
    assert set(outcomes) == set(itertools.product(range(s), repeat=count))
    assert set(outcomes.values()) == {expected}
    assert s ** count * expected + exhausted == (1 << bits) ** depth


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_void_section_respins_uniformly(depth):
    """Double-zero wheel used as single zero: 00 (section 19) voids and respins."""
    s, void, bits = 38, 19, 8
    outcomes, exhausted = enumerate_outcomes(bits, depth, run_uniform(s, 1, bits, void=void))
    assert set(outcomes) == {(i,) for i in range(s) if i != void}
    counts = set(outcomes.values())
    assert len(counts) == 1
    # Per word: 6 accepted words per section (floor(256/38)), 28 rejected;
    # landing on 00 (6 words) spins again.
    per, rejected_or_void = 256 // 38, 256 % 38 + 256 // 38
    expected = sum(per * rejected_or_void ** j * 256 ** (depth - 1 - j) for j in range(depth))
    assert counts == {expected}


def test_exhausted_source_reports_and_leaves_deck_alone():
    src = TestEngine.from_words([0], 8)  # one word, but a 6-card shuffle at 8 bits needs two
    deck = ffi.new("uint16_t[]", list(range(6)))
    assert lib.rng_shuffle16(src.source, deck, 6, 8) == lib.RNG_E_EXHAUSTED
    assert list(deck) == list(range(6))


def test_bad_width_or_size_rejected():
    src = TestEngine.from_words([1, 2, 3, 4], 8)
    deck = ffi.new("uint16_t[]", 200)
    assert lib.rng_shuffle16(src.source, deck, 200, 8) == lib.RNG_E_ARGUMENT  # 200 > limit 128
    assert lib.rng_shuffle16(src.source, deck, 5, 65) == lib.RNG_E_ARGUMENT
    out = ffi.new("uint8_t[]", 4)
    assert lib.rng_uniform8(src.source, 0, 0, out, 4, 8) == lib.RNG_E_ARGUMENT
    assert lib.rng_uniform8(src.source, 257, 257, out, 4, 64) == lib.RNG_E_ARGUMENT
    assert lib.rng_uniform8(src.source, 1, 0, out, 4, 64) == lib.RNG_E_ARGUMENT  # voiding the only section
    assert src.consumed == 0
