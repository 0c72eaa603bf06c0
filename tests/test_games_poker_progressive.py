"""The progressive jackpots (000 別表第1 第3 4-6-ハ, 5-8): the award counts, the
return as a function of the meter, the break-even meter, the long-run
condition of 4-2-ロ / 5-8-イ, the meter played out through the deck device
against the exact long-run value, and the command line's bad input."""
from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.games import poker_hands as ph
from harness.games import poker_progressive as pp

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def test_award_counts():
    # five-card categories (royal 4, straight flush 36, quads 624, full house 3,744, flush 5,108)
    assert pp.award_counts("caribbean-stud") == ((4, 36, 624, 3744, 5108), 2598960)
    # A-K-Q of spades 1, of another suit 3, the other 44 straight flushes, 52 trips, 720 straights
    assert pp.award_counts("three-card-poker") == ((1, 3, 44, 52, 720), 22100)
    hands = np.array([ph.parse(h) for h in ("AS KS QS", "QH AH KH", "QS JS 10S", "3C 3D 3H", "AS 2D 3C", "AS KS JS")])
    assert pp.table("three-card-poker").classify(hands).tolist() == [0, 1, 2, 3, 4, -1]


@pytest.mark.parametrize("variant", ["caribbean-stud", "three-card-poker"])
def test_return_is_linear_in_the_meter_and_breaks_even(variant):
    counts, hands = pp.award_counts(variant)
    awards = pp.table(variant).awards
    for meter in (0, 10**6, 3 * 10**7):
        # straightforward: each hand class, its winnings at this meter plus the stake back; losers nothing
        by_hand = sum(Fraction(c, hands) * (1 + (a.multiple if a.multiple is not None else a.share * meter / 100))
                      for c, a in zip(counts, awards))
        assert pp.rtp(variant, Fraction(meter), 100) == by_hand
    even = pp.break_even_meter(variant, 100)
    assert pp.rtp(variant, even, 100) == 1
    analysis = pp.analyse(variant, 100, math.ceil(even), 10**6, 1500)
    assert analysis.bets[0].rtp >= 1 > pp.rtp(variant, even - 1, 100)


def test_long_run_condition():
    """Three Card Poker's only meter award takes the whole meter: the long-run winnings per
    stake are exact, fixed awards + rate + P(jackpot) x reset / stake."""
    m = pp.Meter.of(100, 10**6, 10**6, 1500)
    low, high = pp.long_run_winnings("three-card-poker", m)
    fixed = Fraction(3 * 250 + 44 * 35 + 52 * 30 + 720 * 3, 22100)
    assert low == high == fixed + Fraction(15, 100) + Fraction(1, 22100) * 10**6 / 100
    # Caribbean Stud's straight flush takes a tenth: the reset can add up to a tenth of the reset amount more
    low, high = pp.long_run_winnings("caribbean-stud", m)
    assert high - low == Fraction(36, 2598960) * Fraction(1, 10) * 10**6 / 100
    too_generous = pp.analyse("three-card-poker", 100, 10**6, 10**6, 9000)
    assert too_generous.parameters["seed_condition"]["holds"] is False
    assert pp.analyse("caribbean-stud", 100, 10**6, 10**6, 1500).parameters["seed_condition"]["holds"] is True


def test_the_meter_played_out_agrees_with_the_long_run_value():
    sim, run = pp.simulate(300_000, rngcore.Generator(SEED, stream=21), "three-card-poker", 100, 200_000,
                           200_000, 2000)
    exact, _ = pp.long_run_winnings("three-card-poker", pp.Meter.of(100, 200_000, 200_000, 2000))
    lo, hi = run.interval(z=6.1)
    assert len(run.cycles) >= 5 and lo <= float(exact) <= hi
    assert sim.verdict == "pass" and sim.bets[0].inside
    # conservation: every yen paid is a fixed award, a contribution, or a reset's addition
    assert run.stakes == 300_000 * 100


def test_meter_bookkeeping_on_constructed_rounds():
    """Rounds: lose, straight (3x), the spade A-K-Q (the whole meter), lose; stake 100, rate 10 %,
    meter 1,000, reset 500: the jackpot pays 1,000 + 3 x 10 = 1,030 and the meter restarts at 500."""
    t = pp.table("three-card-poker")
    run = pp.MeterRun(Fraction(1000))
    run.play(np.array([-1, 4, 0, -1]), t, pp.Meter.of(100, 1000, 500, 1000))
    assert run.winnings == 300 + 1030 and run.stakes == 400
    assert run.meter == 500 + 10 and run.cycles == [(Fraction(1330), 300)]


@pytest.mark.parametrize("args, says", [
    (["--meter", "-5"], "meter"),
    (["--rate", "-1"], "rate"),
    (["--meter", "100", "--reset", "1000"], "below the reset amount"),
    (["--option", "rate=20000"], "rate"),
])
def test_bad_input_exits_2(args, says):
    result = CliRunner().invoke(main, ["game", "poker-progressive", *args])
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output


def test_cli_report():
    result = CliRunner().invoke(main, ["game", "poker-progressive", "--variant", "three-card-poker",
                                       "--meter", "2000000", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["parameters"]["break_even_meter_yen"] == "1527000/1"
    assert report["parameters"]["seed_condition"]["holds"] is True


@pytest.mark.slow
def test_caribbean_stud_meter_lies_within_its_long_run_bounds():
    """Caribbean Stud's straight flush takes a tenth of the meter: the long-run winnings per stake
    lie between the exact bounds; 2e7 rounds hold about 30 royal flushes."""
    m = pp.Meter.of(100, 10**6, 10**6, 1500)
    sim, run = pp.simulate(20_000_000, rngcore.Generator(SEED, stream=22), "caribbean-stud", 100, 10**6, 10**6, 1500)
    low, high = pp.long_run_winnings("caribbean-stud", m)
    lo, hi = run.interval(z=6.1)
    assert lo <= float(high) and float(low) <= hi
    assert sim.verdict == "pass"
