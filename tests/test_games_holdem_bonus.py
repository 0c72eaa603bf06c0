"""Texas Hold'em Bonus (000 別表第1 第3 6): the C deal counts and the optimal
decisions against a straightforward game-tree enumeration on reduced decks,
the Bonus pay table, the options, the simulation through the deck device and
the command line."""
from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

import poker_reference as ref
import rngcore
from harness.cli import main
from harness.games import holdem_bonus as thb
from harness.games.core import LOSE

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

# 2 suits x 10, J, Q, K, A (a suit swap maps it onto itself: flops are counted once per orbit),
# and an irregular deck with no suit symmetry; both allow flushes, straights and full houses.
SYMMETRIC = tuple(s * 13 + r for s in (0, 1) for r in (0, 9, 10, 11, 12))
IRREGULAR = (0, 1, 4, 9, 12, 13, 17, 22, 26, 40)


def _reference(deck, ante_pays: str) -> tuple[Fraction, Fraction, Fraction]:
    """Expected net per ante of the best play, the share of hands played and the
    turn and river bets made per round, by backward induction over the
    whole game tree: every hole, flop, turn, river and dealer hand, the value
    of each action summed over what can follow and the larger taken (6-4,
    6-5, 6-6, 7-ハ, 8-イ, 8-ロ); the hands ranked by the reference evaluator.
    Sums are whole numbers of leaves: with t turns, r rivers and d dealer
    hands, a flop's value is in units of 1 / (t r d).  A tie of expectations
    makes the larger stake."""
    keys: dict[frozenset, tuple] = {}

    def key(cards):
        k = frozenset(cards)
        if k not in keys:
            keys[k] = ref.best_key(tuple(cards))
        return keys[k]

    paid_from = 5 if ante_pays == "straight" else 6  # reference category codes: straight 5, flush 6
    holes = list(itertools.combinations(deck, 2))
    total = played = extra_bets = 0
    for hole in holes:
        rest = [c for c in deck if c not in hole]
        flops = list(itertools.combinations(rest, 3))
        play = bets = 0
        for flop in flops:
            left = [c for c in rest if c not in flop]
            turn_bet = 0
            for turn in left:
                base = one = 0  # the ante and flop bet; one more unit (turn or river bet)
                rivers = [c for c in left if c != turn]
                for river in rivers:
                    board = flop + (turn, river)
                    mine = key(hole + board)
                    for dealer in itertools.combinations([c for c in rivers if c != river], 2):
                        theirs = key(dealer + board)
                        sign = (mine > theirs) - (mine < theirs)
                        base += (1 if sign > 0 and mine[0] >= paid_from else min(sign, 0)) + 2 * sign
                        one += sign
                play += base + max(one, 0)  # the river bet unless it is worth less than nothing
                bets += (one >= 0) * len(rivers) * math.comb(len(rivers) - 1, 2)
                turn_bet += one
            play += max(turn_bet, 0)        # the turn bet likewise, over every turn card
            bets += (turn_bet >= 0) * len(left) * (len(left) - 1) * math.comb(len(left) - 2, 2)
        leaves = len(flops) * (len(deck) - 5) * (len(deck) - 6) * math.comb(len(deck) - 7, 2)
        total += max(play, -leaves)         # play on, or fold for -1
        if play >= -leaves:
            played += 1
            extra_bets += bets
    per_round = len(holes) * leaves
    return Fraction(total, per_round), Fraction(played, len(holes)), Fraction(extra_bets, per_round)


@pytest.mark.parametrize("deck, ante_pays", [(SYMMETRIC, "straight"), (IRREGULAR, "flush")],
                         ids=["symmetric-straight", "irregular-flush"])
def test_exact_return_matches_the_game_tree(deck, ante_pays):
    a = thb.analyse(ante_pays=ante_pays, deck=deck)
    ev, played, extra = _reference(deck, ante_pays)
    assert a.bet("ante").expected_net == ev
    assert a.parameters["play_probability"] == f"{played.numerator}/{played.denominator}"
    assert a.parameters["turn_and_river_bets_per_round"] == f"{extra.numerator}/{extra.denominator}"
    n = len(deck)
    assert a.parameters["deals"] == math.comb(n, 2) * math.comb(n - 2, 3) * (n - 5) * (n - 6) * math.comb(n - 7, 2)


def test_full_deck_deal_count_is_the_published_cycle():
    """55,627,620,048,000 final hands (apheat.net, "Texas Hold'em Bonus Poker: Hole-Card Play,
    One Dealer Card", 2013-11-30; also on 888casino.com's blog)."""
    n = 52
    assert math.comb(n, 2) * math.comb(n - 2, 3) * (n - 5) * (n - 6) * math.comb(n - 7, 2) == 55_627_620_048_000


def test_bonus_pay_table_and_the_aces_option():
    table = {name: pays for name, pays, _ in thb.BONUS_PAYS}
    assert table == {"aces": 30, "ace_king_suited": 25, "ace_queen_or_jack_suited": 20, "ace_king": 15,
                     "kings_queens_or_jacks": 10, "ace_queen_or_jack": 5, "two_to_ten_pair": 3}
    plain = thb._bonus_result("no", thb.DECK)
    # 6 AA, 4 AKs, 8 AQs/AJs, 12 AKo, 18 KK/QQ/JJ, 24 AQo/AJo, 54 22..TT of 1,326 hands
    assert plain.rtp == Fraction(6 * 31 + 4 * 26 + 8 * 21 + 12 * 16 + 18 * 11 + 24 * 6 + 54 * 4, 1326)
    aces = thb._bonus_result("yes", thb.DECK)
    # the dealer holds the other two aces in 1 of the C(50, 2) = 1,225 hands
    assert aces.rtp - plain.rtp == Fraction(6, 1326) * Fraction(1, 1225) * (1000 - 30)
    assert aces.outcome("aces_and_dealer_aces").net == 1000
    assert [thb.bonus_class(*c) for c in ((0, 13), (0, 12), (13, 24), (26, 51), (26, 49), (12, 25), (4, 17), (1, 14), (3, 4))] \
        == ["aces", "ace_king_suited", "ace_queen_or_jack_suited", "ace_king", "ace_queen_or_jack",
            "kings_queens_or_jacks",
            "two_to_ten_pair", "two_to_ten_pair", None]


def test_ante_classes_and_their_nets():
    rule = thb.ante_rule()
    nets = {row.label: row.pays for row in rule.rows}
    assert nets["fold"] == LOSE and nets["tie"] == 0
    assert [nets[f"win_ante_paid+{k}"] for k in range(3)] == [3, 4, 5]
    assert [nets[f"win_ante_push+{k}"] for k in range(3)] == [2, 3, 4]
    assert [nets[f"lose+{k}"] for k in range(3)] == [-3, -4, -5]


def test_bad_options_exit_2():
    for option in ("ante-pays=three_of_a_kind", "aces-1000=maybe", "meter=5"):
        result = CliRunner().invoke(main, ["game", "texas-holdem-bonus", "--option", option])
        assert result.exit_code == 2, (option, result.output)
        assert "texas-holdem-bonus" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_full_deck_analysis_simulation_and_cli():
    """Published (casinosite.net, "Texas Hold'em Bonus"): the optimal strategy folds only the
    offsuit hands 2-3 through 2-7 and the house edge is "only slightly over 2%" (straight or better)."""
    a = thb.analyse()
    assert a.parameters["hands_folded"] == ["32o", "42o", "52o", "62o", "72o"] == list(thb.FOLDS["straight"])
    assert 0.02 < float(a.bet("ante").house_edge) < 0.021
    assert a.bet("ante").house_edge == Fraction(578107733, 28381438800)
    assert a.parameters["average_wagered_in_antes"] == "34293271/8981700"
    flush = thb.analyse(ante_pays="flush")
    assert flush.bet("ante").house_edge == Fraction(19447087313, 347672625300)
    assert flush.parameters["hands_folded"] == list(thb.FOLDS["flush"])
    sim = thb.simulate(20000, rngcore.Generator(SEED, stream=12))
    assert sim.rounds == 20000 and all(b.inside for b in sim.bets)
    result = CliRunner().invoke(main, ["game", "texas-holdem-bonus", "--option", "ante-pays=flush", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["parameters"]["ante_pays"] == "flush"
