"""Roulette, Big Six and the Money Wheel: exact results against pocket counts.

The expected RTPs are derived here from the rules text: a bet covering k of
the wheel's p equally likely pockets at "N to 1" returns k (N + 1) / p.
"""
from fractions import Fraction as F

import numpy as np
import pytest

import rngcore
from harness.games import _native, roulette
from harness.games.registry import GAMES
from rngcore.devices import WHEELS, device_spec
from tests.games_support import assert_returns_agree

SEED = bytes.fromhex("ab" * 32)

# (numbers covered, odds) per bet type, from 000 第7 1-3-ハ / 2-3-ハ and 1-5-ロ / 2-5-ロ.
COVER = {"straight": (1, 35), "split": (2, 17), "street": (3, 11), "corner": (4, 8), "first_four": (4, 8),
         "five_number": (5, 6), "six_line": (6, 5), "column": (12, 2), "dozen": (12, 2), "red": (18, 1),
         "black": (18, 1), "odd": (18, 1), "even": (18, 1), "low": (18, 1), "high": (18, 1)}


@pytest.mark.parametrize("game,variant,pockets", [
    ("roulette-single", "standard", 37), ("roulette-double", "standard", 38),
    ("roulette-double", "jp-literal", 38), ("roulette-double", "jp-layout-b", 38),
    ("roulette-double", "as-single-zero", 37),
])
def test_roulette_rtp_by_pocket_count(game, variant, pockets):
    analysis = GAMES[game].analyse(variant)
    for bet in analysis.bets:
        k, pays = COVER[bet.name]
        assert bet.rtp == F(k * (pays + 1), pockets), bet.name
        assert bet.outcome("win").probability == F(k, pockets)
    assert analysis.parameters["pockets"] == pockets


def test_roulette_instances_cover_the_layout():
    single = {b.name: b for b in GAMES["roulette-single"].analyse().bets}
    # 57 grid splits + 0-1, 0-2, 0-3; 12 rows + 2 trios; 22 corners.
    assert len(single["split"].instances) == 60 and len(single["street"].instances) == 14
    assert "0-1" in single["split"].instances and "17-20" in single["split"].instances
    assert "16-17-19-20" in single["corner"].instances
    double = {b.name: b for b in GAMES["roulette-double"].analyse().bets}
    assert "0-00" in double["split"].instances and len(double["straight"].instances) == 38
    assert double["five_number"].instances == ("0-00-1-2-3",)
    assert double["five_number"].house_edge == F(3, 38)  # 7.89 %, the worst bet on the table


def test_big_six_and_money_wheel():
    big_six = {b.name: b.rtp for b in GAMES["big-six"].analyse().bets}
    # 002 § 533.1(a) counts and § 533.3 odds: count * (odds + 1) / 54.
    assert big_six == {"one": F(46, 54), "two": F(45, 54), "five": F(48, 54), "ten": F(44, 54),
                       "twenty": F(42, 54), "joker": F(46, 54), "flag": F(46, 54)}
    standard = [b.rtp for b in GAMES["money-wheel"].analyse("standard").bets]
    alternative = [b.rtp for b in GAMES["money-wheel"].analyse("alternative").bets]
    # 000 第8 1-2 counts 24/12/8/4/2/1/1 of 52 with the 6-2 and 6-3 odds.
    assert standard == [F(48, 52)] * 3 + [F(44, 52), F(42, 52), F(46, 52), F(46, 52)]
    assert alternative == [F(48, 52)] * 7


def test_symbol_probabilities_match_the_device_registry():
    for name in ("big-six", "money-wheel", "roulette-single"):
        spec = device_spec(name)
        features = GAMES[name].outcome_features(GAMES[name].variants[0])
        labels = [f.get("symbol", f.get("pocket")) for f in features]
        for label, p in zip(spec.labels, spec.probabilities):
            assert F(labels.count(label), len(labels)) == p


@pytest.mark.parametrize("game,variant", [("roulette-single", "standard"), ("roulette-double", "as-single-zero"),
                                          ("big-six", "standard"), ("money-wheel", "alternative")])
def test_simulation_agrees_with_exact(game, variant):
    sim = GAMES[game].simulate(2_000_000, rngcore.Generator(SEED), variant=variant)
    assert sim.rounds == 2_000_000 and sim.ok
    assert sim.outcome_fit.pvalue > 1e-9
    assert_returns_agree(sim)


def test_wheel_tally_is_the_devices_draw():
    wheel = WHEELS["roulette-double-as-single"]
    spins = device_spec("roulette-double-as-single").draw(rngcore.Generator(SEED), 4000)
    counts = np.zeros(38, dtype=np.uint64)
    _native.tally(rngcore.Generator(SEED), 38, 4000, counts, void=wheel.void_section)
    assert counts[wheel.void_section] == 0
    by_symbol = np.zeros(37, dtype=np.int64)
    for section, n in enumerate(counts):
        if section != wheel.void_section:
            by_symbol[wheel.symbol_of_section[section]] += int(n)
    assert np.array_equal(by_symbol, np.bincount(spins, minlength=37))


def test_layout_b_puts_00_after_26():
    layout = roulette.LAYOUTS["roulette-double"]["jp-layout-b"]
    sections = layout.wheel.sections
    assert sections[sections.index("26") + 1] == "00" and len(sections) == 38


@pytest.mark.slow
@pytest.mark.parametrize("game,variant", [("roulette-double", "standard"), ("money-wheel", "standard")])
def test_simulation_large(game, variant):
    sim = GAMES[game].simulate(2_000_000_000, rngcore.Generator(SEED), variant=variant)
    assert sim.outcome_fit.pvalue > 1e-9
    assert_returns_agree(sim)
