"""The dealing and betting engine of the player-versus-player games (000 別表第1 第3
9-2 .. 9-8, 10; harness/games/poker_table.py): the blinds, the order of action,
all-ins and side pots through the seat's own stakes, and ``rngcert game omaha`` /
``texas-holdem``."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games import poker_hands as ph
from harness.games import poker_table as pt

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
HOLDEM = pt.TableRules(2, "best5", blind=50)


def scripted(*script):
    """A policy playing ``(seat, action, amount)`` in order, checking each seat is the one to act."""
    steps = list(script)

    def policy(view):
        seat, action, amount = steps.pop(0)
        assert view.seat == seat, f"seat {view.seat} to act, the script has seat {seat} ({action})"
        return action, amount
    policy.left = steps
    return policy


def deck_with(text_by_position: dict[int, str]) -> list[int]:
    """A deck with the given cards at the given positions, the other cards in index order."""
    placed = {k: ph.parse(c)[0] for k, c in text_by_position.items()}
    rest = iter(c for c in range(52) if c not in placed.values())
    return [placed[k] if k in placed else next(rest) for k in range(52)]


def test_blinds_order_of_action_and_the_pot():
    """9-2-ロ blinds 50/100; 9-3-ロ pre-flop from the customer left of the big blind (seat 2);
    9-4-ロ the flop from the small blind (seat 0); 9-9-イ prize 700 x 0.95 = 665."""
    policy = scripted((2, "call", 0), (0, "call", 0), (1, "check", 0),
                      (0, "check", 0), (1, "bet", 200), (2, "fold", 0), (0, "call", 0),
                      (0, "check", 0), (1, "check", 0), (0, "check", 0), (1, "check", 0))
    r = pt.play_round(HOLDEM, [1000, 1000, 1000], 0, list(range(52)), policy)
    assert not policy.left
    # one card at a time clockwise from the small blind: seat 0 gets deck cards 0 and 3
    assert r.holes == {0: (0, 3), 1: (1, 4), 2: (2, 5)} and r.board == (7, 8, 9, 11, 13)  # burns 6, 10, 12
    assert r.staked == {0: 300, 1: 300, 2: 100} and r.pots == () and r.carried == 700
    assert r.showdown and r.paid == {0: 665} and r.house == 35    # AS high flush beats Q-10-9-8-5
    assert r.chips_conserved()


def test_heads_up_the_small_blind_acts_first_before_the_flop_the_big_blind_after():
    """9-3-ロ (left of the big blind = the small blind) and 9-4-ロ (two customers: the big blind first)."""
    policy = scripted((1, "call", 0), (0, "check", 0),
                      (0, "check", 0), (1, "check", 0), (0, "check", 0), (1, "check", 0),
                      (0, "bet", 100), (1, "fold", 0))
    r = pt.play_round(HOLDEM, [500, 500], 1, list(range(52)), policy)
    assert not policy.left and not r.showdown
    assert r.paid == {0: 285} and r.house == 15        # 300 x 0.95; nobody shows (9-8-イ-(1))


def test_everyone_folds_to_the_big_blind():
    policy = scripted((2, "fold", 0), (0, "fold", 0))
    r = pt.play_round(HOLDEM, [1000] * 3, 0, list(range(52)), policy)
    assert not r.showdown and r.paid == {1: 143} and r.house == 7   # 150 x 0.95 = 142.5 -> 143


def test_a_short_all_in_makes_a_side_pot_and_the_excess_is_returned():
    """9-7: seat 0 all-in for 300; seats 1 and 2 call and bet on; seat 0's hand wins his pot only."""
    deck = deck_with({0: "AS", 3: "AH", 1: "KS", 4: "KH", 2: "2C", 5: "7D",
                      7: "AD", 8: "9C", 9: "4H", 11: "KD", 13: "3S"})
    policy = scripted((2, "call", 0), (0, "all-in", 0), (1, "call", 0), (2, "call", 0),
                      (1, "bet", 500), (2, "call", 0), (1, "check", 0), (2, "check", 0),
                      (1, "all-in", 0), (2, "fold", 0))
    r = pt.play_round(HOLDEM, [300, 2000, 2000], 0, deck, policy)
    assert not policy.left
    # pre-flop: the all-in pot at 300 (900); the flop: 1000 carried; the river: seat 1 alone above, returned
    assert [(p.amount, p.level, p.all_in) for p in r.pots] == [(900, 300, (0,))]
    assert r.returned == {1: 1200} and r.carried == 1000
    # trip aces (seat 0) take the 900 pot's prize 855; seat 1 (trip kings) the rest: 950
    assert r.paid == {0: 855, 1: 950} and r.chips_conserved()


@pytest.mark.parametrize("rules", [pt.TableRules(4, "omaha-hi"), pt.TableRules(4, "omaha-hi", hilo=True),
                                   HOLDEM, pt.TableRules(2, "best5", antes=True, share=Fraction(9, 10))],
                         ids=["omaha", "omaha-hi-lo", "holdem", "holdem-antes"])
def test_random_rounds_conserve_chips_and_pay_the_best_hands(rules):
    """Random actions through the unbiased integers on shuffled decks: every settlement
    conserves chips; every pot is paid (less the house's share) to a customer still in."""
    import rngcore
    from rngcore.devices import device_spec

    g = rngcore.Generator(SEED, stream=5)
    decks = device_spec("deck").draw(g, 120)
    policy = pt.random_policy(g)
    side = 0
    for k, deck in enumerate(decks):
        n = 2 + k % 5
        r = pt.play_round(rules, [100 * (i + 1) for i in range(n)], k % n, deck, policy)
        assert r.chips_conserved()
        assert set(r.paid) <= set(range(n)) - r.folded and r.house >= 0
        side += len(r.pots)
    assert side > 20


def test_illegal_actions_are_refused():
    with pytest.raises(ValueError, match="may not check"):
        pt.play_round(HOLDEM, [1000] * 3, 0, list(range(52)), scripted((2, "check", 0)))
    with pytest.raises(ValueError, match="more than the call"):
        pt.play_round(HOLDEM, [1000] * 3, 0, list(range(52)), scripted((2, "raise", 100)))
    with pytest.raises(ValueError, match="0.90 <= r < 1"):
        pt.TableRules(2, "best5", share=Fraction(1))


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


@pytest.mark.parametrize("game, variant", [("omaha", "hi-lo"), ("texas-holdem", "standard")])
def test_cli_simulates_the_pvp_games(game, variant):
    result = run(game, "--variant", variant, "--simulate", "150", "--seed", SEED, "--players", "4", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bets"] == [] and report["parameters"]["share_r"] == "19/20"
    sim = report["simulation"]
    assert sim["rounds"] == 150 and sim["outcome_chisquare"]["impossible"] == 0
    assert "lost or made a yen: 0" in sim["note"]


def test_cli_refuses_a_share_outside_the_rule():
    result = run("omaha", "--option", "share=10000")
    assert result.exit_code == 2 and "9000..9999" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------- tournaments --

def test_tournament_prize_pool_and_places():
    """11-5: 6 x 10,000 yen pooled x 0.9 = 54,000, paid 50/30/20 by place; r outside 0.70 <= r < 1 refused."""
    from harness.games import poker_tournament as tour

    assert tour.prizes(6, 10_000, Fraction(9, 10), (50, 30, 20)) == (27000, 16200, 10800)
    assert tour.prizes(2, 10_000, Fraction(9, 10), (50, 30, 20)) == (Fraction(18000 * 5, 8), Fraction(18000 * 3, 8))
    with pytest.raises(ValueError, match="11-5"):
        tour.prize_pool(6, 10_000, Fraction(1))


def test_a_tournament_game_pays_the_whole_pot_and_the_points_stay():
    """11-3-ハ: no house share in a tournament's games; points move only between entrants."""
    from harness.games import poker_tournament as tour
    import rngcore
    from rngcore.devices import device_spec

    r = pt.play_round(tour.PokerTournamentGame.table("texas-holdem", 50), [1000] * 3, 0, list(range(52)),
                      scripted((2, "call", 0), (0, "call", 0), (1, "check", 0), *[(s, "check", 0) for s in (0, 1, 2) * 3]))
    assert r.paid == {0: 300} and r.house == 0
    g = rngcore.Generator(SEED, stream=9)
    decks = iter(device_spec("deck").draw(g, 3000))
    for variant in tour.TABLES:
        t = tour.play_tournament(tour.PokerTournamentGame.table(variant, 10), 5, 200, decks, pt.random_policy(g))
        assert t.chips_conserved and sorted(t.places) == list(range(5)) and len(t.games) < tour.MAX_GAMES


def test_cli_plays_tournaments():
    result = run("poker-tournament", "--variant", "omaha-hi-lo", "--entrants", "4", "--simulate", "3", "--seed", SEED,
                 "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["parameters"]["prize_pool"] == "36000" and report["simulation"]["verdict"] in ("pass", "incomplete")
    assert "not conserved: 0" in report["simulation"]["note"]
    bad = run("poker-tournament", "--option", "pool-share=6999")
    assert bad.exit_code == 2 and "7000..9999" in bad.output
