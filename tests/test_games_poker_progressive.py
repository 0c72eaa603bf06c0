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


def _reference_boards(deck, hole):
    """Boards of 5 other cards of ``deck`` in each class of holdem_progressive.h, by the reference
    evaluator: the 7 cards' best hand, kept only when stronger than the board's own (6-9-ロ)."""
    import poker_reference as ref

    row = [0] * 6
    for board in itertools.combinations([c for c in deck if c not in hole], 5):
        mine, own = ref.best_key(hole + board), ref.five_key(board)
        if mine == own:
            row[5] += mine[0] == 10
        elif mine[0] == 10:
            suit = next(s for s in range(4) if all(s * 13 + r in hole + board for r in (0, 9, 10, 11, 12)))
            on_board = sum(suit * 13 + r in board for r in (0, 9, 10, 11, 12))
            row[3 if on_board == 3 else 4] += 1
        elif mine[0] in (9, 8, 7):
            row[{9: 0, 8: 1, 7: 2}[mine[0]]] += 1
    return row


def test_holdem_board_counts_match_the_reference():
    from harness.kernels import ffi, lib

    deck = ph.parse("9S 10S JS QS KS AS 10H JH QH KH AH")
    holes = list(itertools.combinations(deck, 2))
    out = np.zeros((len(holes), lib.KERN_THBP_CLASSES), dtype=np.uint64)
    assert lib.kern_thbp_counts(ffi.from_buffer("uint8_t[]", np.array(deck, dtype=np.uint8)), len(deck),
                                ffi.from_buffer("uint8_t[]", np.array(holes, dtype=np.uint8)), len(holes),
                                ffi.from_buffer("uint64_t[]", out)) == 0
    assert [list(map(int, r)) for r in out] == [_reference_boards(deck, h) for h in holes]
    assert all(out[:, k].sum() for k in (0, 3, 4, 5))  # straight flushes, royal flushes of every kind


def test_holdem_royal_flush_by_when_it_is_completed():
    """6-9-ハ-(1): with 3 of the royal's cards on the board it is completed with the flop in 2 of the
    board's 20 orders, with the turn in 6, with the river in 12; with 4 on the board, 0 / 4 / 16."""
    for hole, others in ((ph.parse("AS KS"), ph.parse("QS JS 10S 2D 3C")),
                         (ph.parse("AS 2D"), ph.parse("KS QS JS 10S 3C"))):
        orders = [flop + (turn, river) for flop in itertools.combinations(others, 3)
                  for turn, river in itertools.permutations([c for c in others if c not in flop], 2)]
        awards = pp.table("texas-holdem-bonus").classify(np.array([hole + list(o) for o in orders]))
        on_board = sum(c in others for c in ph.parse("AS KS QS JS 10S"))
        assert [int((awards == k).sum()) for k in range(3)] == list(pp._ROYAL_ORDERS[on_board])


def test_holdem_folded_hands_and_the_board_royal_option():
    t = pp.table("texas-holdem-bonus")
    rows = np.array([ph.parse("7C 2D 5C 6C 8C 9C 3H"),      # a straight flush, but 7-2 offsuit folds
                     ph.parse("KD QD AS KS QS JS 10S"),     # the board's own royal flush
                     ph.parse("KD KH KC 2S 2D 9H 4C")])     # a full house with the customer's cards
    assert t.classify(rows).tolist() == [-1, -1, 5]
    assert t.classify(rows, board_royal="yes").tolist() == [-1, 6, 5]
    result = CliRunner().invoke(main, ["game", "poker-progressive", "--variant", "texas-holdem-bonus",
                                       "--option", "board-royal=maybe"])
    assert result.exit_code == 2 and "board-royal" in result.output


@pytest.mark.slow
def test_holdem_progressive_full_deck_and_simulation():
    counts, total = pp.award_counts("texas-holdem-bonus")
    # every royal flush with a customer's card: 4 royals, 40 hands holding two of one, 1,081 boards
    assert counts[0] == 4 * 10 * math.comb(47, 2) * 2 and total == 56_189_515_200
    assert pp.award_counts("texas-holdem-bonus", board_royal="yes")[0][6] == 4 * math.comb(47, 2) * 20
    sim, run = pp.simulate(200_000, rngcore.Generator(SEED, stream=23), "texas-holdem-bonus", 100, 10**6, 10**6, 1500)
    assert sim.verdict == "pass" and sim.bets[0].inside
