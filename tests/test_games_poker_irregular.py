"""Irregularities of the player-versus-player poker games (000 別表第1 第3 9-14;
harness/games/poker_irregular.py): the dealer's measures before the gathering
change the deal or void the round, the operator's after it move money, and no
measure makes or loses a yen."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main

from harness.games import poker_irregular as irr
from harness.games import poker_table as pt

HOLDEM = pt.TableRules(2, "best5", blind=50)
R = Fraction(95, 100)
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def checks(view):
    return ("check", 0) if "check" in view.legal() else ("call", 0)


def test_every_measure_cites_its_item():
    assert all(rule.startswith("000 別表第1 第3 9-14-") for rule, _, _ in irr.MEASURES.values())
    items = {rule.split("9-14-")[1] for rule, _, _ in irr.MEASURES.values()}
    assert items == {f"イ-({k})" for k in range(1, 8)} | {f"ロ-({k})" for k in range(1, 5)} | {"ハ"}


def test_the_plain_deal_is_the_engine_reading():
    """Hole cards one at a time clockwise from the small blind, then burn, flop, burn, turn, burn, river."""
    d = irr.deal(3, 2, 1)
    assert d.holes == {1: [0, 3], 2: [1, 4], 0: [2, 5]} and d.board == [7, 8, 9, 11, 13] and d.measures == ()


def test_a_first_card_drawn_face_up_is_used_and_the_next_dealt_in_its_place():
    """9-14-イ-(3): the seat due deck position 2 gets position 3; every later card moves one on."""
    d = irr.deal(3, 2, 1, irr.Irregularity(face_up=(2,)))
    assert d.holes == {1: [0, 4], 2: [1, 5], 0: [3, 6]} and d.board == [8, 9, 10, 12, 14]
    assert d.void is None and d.measures == (irr.MEASURES["face-up-draw"][0],)
    deck = list(range(52))
    r = pt.play_round(HOLDEM, [1000] * 3, 1, deck, checks, irr.Irregularity(face_up=(2,)))
    assert 2 not in sum(r.holes.values(), ()) and r.board == (8, 9, 10, 12, 14) and r.chips_conserved()


def test_a_card_the_dealer_exposed_is_replaced_from_the_shoe():
    """9-14-イ-(5): one card turned up is used and a new one dealt (the next of the shoe), the board after it."""
    d = irr.deal(3, 2, 1, irr.Irregularity(exposed=(4,)))
    assert d.holes == {1: [0, 3], 2: [1, 6], 0: [2, 5]} and d.board == [8, 9, 10, 12, 14]
    assert d.measures == (irr.MEASURES["exposed-by-dealer"][0],)


def test_a_missing_burn_with_no_decision_since_gives_the_proper_deal():
    """9-14-イ-(6): the first card dealt becomes the burn and one more is dealt: the cards of a proper deal."""
    deck = list(range(51, -1, -1))
    proper = pt.play_round(HOLDEM, [1000] * 3, 0, deck, checks)
    fixed = pt.play_round(HOLDEM, [1000] * 3, 0, deck, checks, irr.Irregularity(no_burn="flop"))
    assert (fixed.holes, fixed.board, fixed.paid) == (proper.holes, proper.board, proper.paid)
    assert fixed.measures == (irr.MEASURES["no-burn"][0],)


@pytest.mark.parametrize("event, rule", [
    (irr.Irregularity(face_up=(0, 3)), "イ-(3)"),
    (irr.Irregularity(exposed=(0, 1)), "イ-(5)"),
    (irr.Irregularity(no_burn="turn", decided_since=True), "イ-(6)"),
    (irr.Irregularity(void="improper-card"), "イ-(2)"),
    (irr.Irregularity(void="misdrawn"), "イ-(4)"),
    (irr.Irregularity(void="cannot-continue"), "イ-(7)"),
])
def test_a_void_round_returns_every_stake(event, rule):
    """The round's result did not occur: nothing stays staked, nothing is paid, the house takes nothing."""
    r = pt.play_round(HOLDEM, [1000, 200, 700], 0, list(range(52)), checks, event)
    assert r.void.endswith(rule) and sum(r.staked.values()) == 0 and r.paid == {} and r.house == 0
    assert r.chips_conserved() and all(r.paid.get(s, 0) - r.staked[s] == 0 for s in range(3))


def test_events_outside_the_table_are_refused():
    with pytest.raises(ValueError, match="9-14-イ"):
        irr.Irregularity(void="stake-out-of-turn")
    with pytest.raises(ValueError, match="street"):
        irr.Irregularity(no_burn="pre-flop")
    with pytest.raises(ValueError, match="hole deal"):
        irr.deal(3, 2, 0, irr.Irregularity(face_up=(9,)))


def test_a_late_stake_and_a_reduced_stake_after_the_gathering():
    """9-14-ロ-(1), (2) as written: X - X x r from (to) the winner; with r = 0.95 and X = 100, 5 yen."""
    late = irr.late_stake(0, [1], 100, R)
    assert late.customers == {0: 100, 1: -5} and late.house == -95 and late.balanced()
    reduced = irr.reduced_stake(2, [0, 1], 100, R)
    assert reduced.customers == {2: -100, 0: Fraction(5, 2), 1: Fraction(5, 2)} and reduced.house == 95
    assert reduced.balanced()
    with pytest.raises(ValueError, match="winning"):
        irr.late_stake(0, [], 100, R)


def test_an_improper_card_found_after_payment_undoes_the_round():
    """9-14-ロ-(3): stakes returned, winnings collected back: every customer and the house back where they were."""
    r = pt.play_round(HOLDEM, [1000, 200, 700], 0, list(range(52)), checks)
    assert r.showdown and r.house > 0
    undo = irr.void_after_payment(r.staked, r.paid)
    assert undo.balanced() and undo.house == -r.house
    for seat in range(3):
        assert r.paid.get(seat, 0) - r.staked[seat] + undo.customers.get(seat, 0) == 0


def test_a_wrong_payment_is_put_right():
    """9-14-ロ-(4): the excess collected, the shortfall paid (a customer paid who was due nothing included)."""
    fix = irr.wrong_payment({1: 190, 2: 30}, {1: 200})
    assert fix.customers == {1: 10, 2: -30} and fix.house == 20 and fix.balanced()


@pytest.mark.parametrize("event, void, verdict", [("face-up-draw", "0 rounds void", "pass"),
                                                  ("two-exposed", "300 rounds void", "incomplete")])
def test_cli_simulates_rounds_with_an_irregularity(event, void, verdict):
    """The measure of 9-14-イ-(3) keeps the dealt boards' categories at their exact probabilities;
    a void round stakes and pays nothing (every round void: no board to test, incomplete)."""
    result = CliRunner().invoke(main, ["game", "texas-holdem", "--players", "4", "--simulate", "300", "--seed", SEED,
                                       "--option", f"irregularity={event}", "--json"])
    report = json.loads(result.stdout)
    assert report["verdict"] == verdict and result.exit_code == (0 if verdict == "pass" else 1), result.output
    note = report["simulation"]["note"]
    assert void in note and "lost or made a yen: 0" in note
