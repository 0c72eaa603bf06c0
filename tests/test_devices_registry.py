"""The device registry: names, labels, exact distributions, bulk draws, replay."""
from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from rngcore import Generator
from rngcore.devices import DEVICE_NAMES, DEVICES, cards, device_spec, tiles

SEED = bytes(range(32))
# The devices the issue named, with the family members casinos deal; every other registered
# device (and each family's smallest, middle and largest member) is added from the registry,
# so a new device is checked here without this file being edited.
NAMED = ["roulette-single", "roulette-double", "roulette-double-as-single", "big-six", "money-wheel",
         "dice:1", "dice:2", "dice:3", "shoe:1", "shoe:6", "shoe:8", "shoe:12", "pontoon:4", "deck", "tiles"]


def _registered() -> list[str]:
    names = []
    for d in DEVICES.values():
        if d.argument == "path":  # a family over files (slot:MODEL): its sample member
            names.append(d.example)
            continue
        names += [d.name] if d.parameter is None else [f"{d.name}:{v}" for v in (d.low, (d.low + d.high) // 2, d.high)]
    return names


ALL = list(dict.fromkeys(NAMED + _registered()))


def test_names_cover_every_pattern():
    patterns = {n.split(":")[0] + ":" if ":" in n else n for n in DEVICE_NAMES}  # dice:N, slot:MODEL
    named = {n.split(":")[0] + ":" if ":" in n else n for n in NAMED}
    assert named <= patterns and {n.split(":")[0] + ":" if ":" in n else n for n in ALL} == patterns


@pytest.mark.parametrize("name", ALL)
def test_spec_is_consistent(name):
    spec = device_spec(name)
    assert spec.name == name
    assert len(spec.probabilities) == len(spec.labels) == len(set(spec.labels))
    assert all(isinstance(p, Fraction) and p > 0 for p in spec.probabilities)
    assert sum(spec.probabilities) == 1
    for i, label in enumerate(spec.labels):
        assert spec.label_index(label) == i
    out = spec.draw(Generator(SEED, 1), 7)
    assert out.dtype == np.uint8
    assert out.shape == ((7,) if spec.kind == "categorical" else (7, spec.width))
    assert out.max() < len(spec.labels)
    if spec.kind == "permutation":
        assert len(spec.multiset) == spec.width
        counts = Counter(spec.multiset)
        assert spec.probabilities == tuple(Fraction(counts[i], spec.width) for i in range(len(spec.labels)))
        for row in out:
            assert Counter(row.tolist()) == counts


def test_exact_distributions_from_the_issue():
    assert device_spec("big-six").probabilities[0] == Fraction(23, 54)
    dice = device_spec("dice:2")
    assert dice.kind == "dice" and dice.width == 2 and dice.labels == ("1", "2", "3", "4", "5", "6")
    assert set(dice.probabilities) == {Fraction(1, 6)}  # 36 ordered pairs at 1/36
    shoe = device_spec("shoe:8")
    assert shoe.width == 416 and len(shoe.labels) == 52
    assert set(shoe.probabilities) == {Fraction(8, 416)}  # each physical card 1/416
    assert shoe.labels[:3] == ("AS", "2S", "3S") and "10H" in shoe.labels and "QD" in shoe.labels
    pontoon = device_spec("pontoon:6")
    assert pontoon.width == 288 and not any(label.startswith("10") for label in pontoon.labels)
    deck = device_spec("deck")
    assert deck.width == 52 and deck.multiset == tuple(range(52))
    tile = device_spec("tiles")
    assert tile.width == 32 and tile.labels == tiles.TILE_LABELS
    assert tile.probabilities[tile.label_index("T1")] == Fraction(2, 32)
    assert tile.probabilities[tile.label_index("T21")] == Fraction(1, 32)
    assert sum(d.copies for d in tiles.TILE_DESIGNS) == 32


@pytest.mark.parametrize("bad, message", [
    ("wheel", "valid names: roulette-single"),
    ("shoe:0", "1..12"),
    ("shoe:13", "1..12"),
    ("pontoon:13", "1..12"),
    ("dice:0", "1..64"),
    ("dice:65", "1..64"),
    ("dice:99999999999999999999", "1..64"),
    ("dice:two", "whole number"),
])
def test_bad_names(bad, message):
    with pytest.raises(ValueError, match=message):
        device_spec(bad)


def test_bad_label_and_count():
    spec = device_spec("roulette-single")
    with pytest.raises(ValueError, match="'00' is not a label of roulette-single; valid labels: 0, 32"):
        spec.label_index("00")
    with pytest.raises(ValueError, match="n must be >= 0"):
        spec.draw(Generator(SEED), -1)


def test_replay_same_seed_and_stream():
    spec = device_spec("shoe:6")
    a = spec.draw(Generator(SEED, 5), 3)
    b = spec.draw(Generator(SEED, 5), 3)
    c = spec.draw(Generator(SEED, 6), 3)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    # Shuffled rows drawn one call at a time equal the same rows drawn in bulk.
    g = Generator(SEED, 5)
    rows = np.vstack([spec.draw(g, 1) for _ in range(3)])
    assert np.array_equal(rows, a)


def test_position_reports_consumption():
    g = Generator(SEED, 0)
    device_spec("roulette-single").draw(g, 10)  # 10 pockets per 64-bit word
    assert g.position == 8
    device_spec("dice:2").draw(g, 21)  # 42 faces, 21 per word
    assert g.position == 24


# Stability pins: SHA-256 of the label indices drawn from a fixed seed and
# stream.  A change means every recorded game would replay differently.
PINS = {
    ("roulette-single", 100000): "95dce44a6bbbefdacd391283b0de264af207c010e577dab6aeecf660c0d3ee35",
    ("dice:2", 50000): "e012c7dd0f0d03555d7f7ac27eb9d9acf427c3b96f749f2d19c3d9f385584289",
    ("shoe:8", 100): "6c9a90bd2ea4a492609023a6b0b9e7278ae0f5f7c8c31844e6a39709f6ba1bc4",
    ("tiles", 1000): "d735f7ea14f605e3c4795027ab9890c349eb5526701d8581d0a29b01cd874c69",
    ("big-six", 10000): "a8d8cf26f43dec8eaf03454af284acd40af9e894a5f84dfec8aac52a1834b87d",
}


@pytest.mark.parametrize("name, n", sorted(PINS))
def test_stability_pin(name, n):
    drawn = device_spec(name).draw(Generator(SEED, 7), n)
    assert hashlib.sha256(drawn.tobytes()).hexdigest() == PINS[(name, n)]


def test_card_codes():
    assert cards.encode(13, 1, 10) == 0x0A1D
    assert cards.card_label(0x0A1D) == "KH"
    assert cards.card_label(cards.encode(10, 0)) == "10S"
    stack = cards.fresh_stack(2)
    assert stack.size == 104 and len(set(stack.tolist())) == 104
    assert set(cards.deck_of(stack).tolist()) == {0, 1}
    assert cards.label_indices(stack).tolist() == list(range(52)) * 2
    with pytest.raises(ValueError, match="1..12"):
        cards.fresh_stack(13)
    with pytest.raises(ValueError, match="not a card code"):
        cards.card_label(0x00FF)


def test_roulette_spins_fit_uniform_far_tail():
    """A quick regression guard (exactness is proven in test_devices_exhaustive)."""
    spec = device_spec("roulette-double")
    counts = np.bincount(spec.draw(Generator(SEED, 11), 380_000), minlength=38)
    assert stats.chisquare(counts).pvalue > 1e-9


def test_first_card_of_fresh_shoes_fits_uniform_far_tail():
    spec = device_spec("shoe:2")
    first = spec.draw(Generator(SEED, 12), 52_000)[:, [0, 51, 103]]
    for column in first.T:
        assert stats.chisquare(np.bincount(column, minlength=52)).pvalue > 1e-9


def test_non_string_name():
    with pytest.raises(ValueError, match="must be a string"):
        device_spec(["deck"])


def test_large_stack_uses_the_heap_plan():
    """Stacks above 1024 items plan on the heap (csrc/core/shuffle.c); still a permutation."""
    from rngcore.devices._native import shuffle_in_place

    items = np.arange(5000, dtype=np.uint16)
    shuffle_in_place(Generator(SEED, 13), items)
    assert sorted(items.tolist()) == list(range(5000)) and not np.array_equal(items, np.arange(5000))
