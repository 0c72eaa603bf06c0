"""Caribbean Stud Poker (000 別表第1 第3 4): the inclusion-exclusion count
against a straightforward enumeration on a reduced deck, the optimal decision
round by round, the published totals for the standard pay table (slow: a
minute per strategy on 2 loaded cores), the seed's table and the simulation."""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

import poker_reference as ref
import rngcore
from harness.cli import main
from harness.games import caribbean_stud as cs
from harness.games import poker_hands as ph

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
# 2 suits x A, 2, 3, 4, 5, K: wheels, flushes, and dealers with and without A-K.
SMALL_DECK = tuple(s * 13 + r - 1 for s in range(2) for r in (1, 2, 3, 4, 5, 13))
PAYS = {name: pay for name, pay, _ in cs.BET_PAYS}
CODE = {10: "royal_flush", 9: "straight_flush", 8: "four_of_a_kind", 7: "full_house", 6: "flush", 5: "straight",
        4: "three_of_a_kind", 3: "two_pair", 2: "one_pair", 1: "high_card"}


def _qualifies(key, hand):
    """4-5-イ-(1): anything but five odds without both an A and a K."""
    return key[0] > 1 or {14, 13} <= {ref.rank_value(c) for c in hand}


def _bet_value(deck, p, u, key):
    """(net of betting times the hidden-card sets, hidden-card sets) by plain enumeration."""
    others = [c for c in deck if c not in p and c != u]
    net = m = 0
    for four in itertools.combinations(others, 4):
        d = tuple(sorted((u, *four)))
        kd, kp = key[d], key[p]
        m += 1
        if not _qualifies(kd, d):
            net += 1
        elif kp > kd:
            net += 1 + 2 * PAYS[CODE[kp[0]]]
        elif kp < kd:
            net -= 3
    return net, m


@pytest.fixture(scope="module")
def small_deck_values():
    hands = list(itertools.combinations(SMALL_DECK, 5))
    key = {h: ref.five_key(h) for h in hands}
    return {(p, u): _bet_value(SMALL_DECK, p, u, key) for p in hands for u in SMALL_DECK if u not in p}, key


@pytest.mark.parametrize("strategy", cs.STRATEGIES)
def test_reduced_deck_matches_a_straightforward_enumeration(small_deck_values, strategy):
    values, key = small_deck_values
    ak = ref.five_key(ph.parse("AS KD 4C 3H 2S"))
    total = Fraction(0)
    for (p, u), (net, m) in values.items():
        bet = net >= -m if strategy == "optimal" else key[p] >= ak
        total += Fraction(net, m) if bet else -1
    assert cs.analyse(strategy, SMALL_DECK).bets[0].expected_net == total / len(values)


def test_optimal_decisions_round_by_round_match_the_enumeration(small_deck_values):
    values, _ = small_deck_values
    rounds = np.array([(*p, u) for p, u in values], dtype=np.uint8)
    bets = cs.optimal_bets(rounds, SMALL_DECK)
    assert [bool(b) for b in bets] == [net >= -m for net, m in values.values()]
    assert 0 < bets.sum() < len(bets)


@pytest.mark.slow
@pytest.mark.parametrize("strategy, loss, edge, risk", [
    ("optimal", 1_041_372_912_372, "5.224", "2.555"),
    ("ak", 1_132_600_203_540, "5.682", "2.672"),
])
def test_published_totals_for_the_standard_pay_table(strategy, loss, edge, risk):
    """With the usual 100-to-1 royal flush: Wizard of Odds, "Caribbean Stud Poker",
    Strategy Statistics (total loss over all 19,933,230,517,200 combinations,
    house edge, element of risk) for "Perfect strategy" and "Raise on any
    ace/king or better"; also M. Shackleford, Contingencies, Nov/Dec 2000."""
    standard = (("royal_flush", 100),) + tuple((n, p) for n, p, _ in cs.BET_PAYS[1:])
    a = cs.analyse(strategy, pays=standard)
    assert a.parameters["deals"] == 19_933_230_517_200
    assert a.parameters["total_loss_in_antes"] == loss
    assert f"{float(a.bets[0].house_edge) * 100:.3f}" == edge
    assert f"{a.parameters['house_edge_per_total_wagered_float'] * 100:.3f}" == risk


@pytest.mark.slow
def test_seed_pay_table_and_simulation():
    """000's table pays 250 to 1 on a royal flush (4-6-ロ-(1)): 5.199 % per ante."""
    a = cs.analyse("optimal")
    assert a.bets[0].house_edge == Fraction(86362082531, 1661102543100)
    assert a.parameters["hand_counts"]["royal_flush"] == 4
    sim = cs.simulate(20000, rngcore.Generator(SEED, stream=3), "optimal")
    assert sim.bets[0].inside and sim.verdict == "pass"
    result = CliRunner().invoke(main, ["game", "caribbean-stud", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["bets"][0]["name"] == "ante_bet"


def test_bad_decks_and_strategies_are_refused():
    with pytest.raises(ValueError, match="12..52 distinct cards"):
        cs.counts("optimal", tuple(range(8)))
    with pytest.raises(ValueError, match="strategy must be one of"):
        cs.counts("blind")
    with pytest.raises(ValueError):
        cs.optimal_bets(np.array([[0, 1, 2, 3, 4, 4]], dtype=np.uint8), SMALL_DECK)
