"""Statistical regression guards on the production (64-bit) path.

Exactness is proven by enumeration (test_devices_exhaustive.py) on narrow
words; these check the 64-bit instantiation end to end against the exact
distributions of the registry, far in the tail (p > 1e-9) so they never flake.
The fast versions run by default; the large ones are marked slow.

Power of the slow versions (chi-square at alpha = 1e-9, from the noncentral
chi-square distribution):

* deck positions, 2.6 M shuffles (50 000 per cell): a +-2 % distortion of the
  52 cells of any one position is detected with power > 0.999 (+-1.5 %: 0.92);
* roulette symbols, 20 M spins: a pocket 2 % too frequent, power > 0.999
  (1.5 %: 0.986);
* consecutive spins, 5 M pairs: a +-8 % distortion of one row of the 37 x 37
  table, power > 0.999.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from rngcore import Generator
from rngcore.devices import device_spec

SEED = bytes(range(32))
ALPHA = 1e-9


def expected_counts(spec, n):
    return np.array([float(p) * n for p in spec.probabilities])


def position_table(spec, shuffles, stream):
    """counts[position, label] over `shuffles` fresh shuffles, in chunks."""
    table = np.zeros((spec.width, len(spec.labels)), dtype=np.int64)
    g = Generator(SEED, stream)
    left = shuffles
    while left:
        rows = min(left, 20_000)
        drawn = spec.draw(g, rows)
        for position in range(spec.width):
            table[position] += np.bincount(drawn[:, position], minlength=len(spec.labels))
        left -= rows
    return table


def check_positions(spec, shuffles, stream):
    table = position_table(spec, shuffles, stream)
    expected = np.array([float(p) for p in spec.probabilities]) * shuffles
    statistic = (((table - expected) ** 2) / expected).sum()
    df = spec.width * (len(spec.labels) - 1)  # each row sums to `shuffles`
    assert stats.chi2.sf(statistic, df) > ALPHA


def check_symbols(name, n, stream):
    spec = device_spec(name)
    counts = np.bincount(spec.draw(Generator(SEED, stream), n), minlength=len(spec.labels))
    assert stats.chisquare(counts, expected_counts(spec, n)).pvalue > ALPHA


def check_pairs(name, n, stream):
    """Consecutive outcomes are independent: the pair table fits the product law."""
    spec = device_spec(name)
    drawn = spec.draw(Generator(SEED, stream), n).astype(np.int64)
    k = len(spec.labels)
    pairs = np.bincount(drawn[:-1:2] * k + drawn[1::2], minlength=k * k)
    p = np.array([float(x) for x in spec.probabilities])
    assert stats.chisquare(pairs, np.outer(p, p).ravel() * pairs.sum()).pvalue > ALPHA


def test_positions_of_a_deck_fast():
    check_positions(device_spec("deck"), 52_000, 21)


def test_big_six_and_money_wheel_symbol_law_fast():
    check_symbols("big-six", 540_000, 22)
    check_symbols("money-wheel", 520_000, 23)


def test_roulette_pairs_fast():
    check_pairs("roulette-single", 1_000_000, 24)


@pytest.mark.slow
def test_positions_of_a_deck_slow():
    check_positions(device_spec("deck"), 2_600_000, 31)


@pytest.mark.slow
def test_positions_of_an_eight_deck_shoe_slow():
    check_positions(device_spec("shoe:8"), 200_000, 32)


@pytest.mark.slow
def test_positions_of_the_tile_set_slow():
    check_positions(device_spec("tiles"), 1_000_000, 33)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["roulette-single", "roulette-double", "roulette-double-as-single",
                                  "big-six", "money-wheel"])
def test_wheels_slow(name):
    check_symbols(name, 20_000_000, 34)
    check_pairs(name, 10_000_000, 35)


@pytest.mark.slow
def test_three_dice_triples_slow():
    drawn = device_spec("dice:3").draw(Generator(SEED, 36), 6_480_000).astype(np.int64)
    triples = np.bincount(drawn[:, 0] * 36 + drawn[:, 1] * 6 + drawn[:, 2], minlength=216)
    assert stats.chisquare(triples).pvalue > ALPHA
