"""Three Card Poker (000 別表第1 第3 5): published house edges, the exact
strategy, a reduced-deck check against a straightforward enumeration, the
simulation through the deck device, and the command line."""
from __future__ import annotations

import functools
import itertools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

import poker_reference as ref
import rngcore
from harness.cli import main
from harness.games import three_card_poker as tcp

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@pytest.mark.parametrize("strategy", tcp.STRATEGIES)
def test_published_house_edges(strategy):
    """000's pay tables are the original ones (Pair Plus 40-30-6-4-1, ante bonus
    5-4-1).  Ante & Play 3.37 % per ante and Pair Plus 2.32 %:
    threecardpoker.org/odds/; 2.01 % per total wagered ("the most liberal ante
    bonus schedule ... 5 to 1 ... 4 to 1 ... even money ... 2.01 percent"):
    poker-corner.com/articles/364.html (Casino City's J. Grochowski columns
    give Pair Plus 2.32 % too)."""
    a = tcp.analyse(strategy)
    assert round(float(a.bet("ante_play").house_edge) * 100, 2) == 3.37
    assert round(a.parameters["ante_play_house_edge_per_total_wagered_float"] * 100, 2) == 2.01
    assert round(float(a.bet("pair_plus").house_edge) * 100, 2) == 2.32


def test_exact_fractions_and_hand_counts():
    a = tcp.analyse("optimal")
    assert a.bet("ante_play").house_edge == Fraction(686689, 20358520)
    assert a.bet("pair_plus").house_edge == Fraction(128, 5525)
    assert a.parameters["deals"] == 22100 * 18424
    assert a.parameters["hand_counts"] == {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720,
                                           "flush": 1096, "one_pair": 3744, "high_card": 16440}


def test_the_optimal_strategy_is_q64():
    """Computed hand by hand, the best play-or-fold decision is exactly "play Q-6-4 or better"."""
    d = tcp.deals()
    assert (tcp.decisions("optimal", d) == tcp.decisions("q64", d)).all()
    assert int(tcp.decisions("optimal", d).sum()) == 14900


def test_no_strategy_folds_a_paying_pair_plus_hand():
    """5-5-イ-(1) collects every stake on a fold, Pair Plus too: it never matters here."""
    d = tcp.deals()
    paying = d.values >= tcp._value("2S 2D 3C")
    for strategy in tcp.STRATEGIES:
        assert tcp.decisions(strategy, d)[paying].all()


# A reduced deck (3 suits x ranks A, 2, 3, 4, Q, K: 3-2-A and A-K-Q straights, and
# dealers that do and do not qualify), enumerated by the reference evaluator.
SMALL_DECK = tuple(s * 13 + r - 1 for s in range(3) for r in (1, 2, 3, 4, 12, 13))


@functools.lru_cache(maxsize=None)
def _play_expectations(deck):
    """Per customer hand: (reference key, E[net of playing] per unit ante), by plain enumeration."""
    hands = list(itertools.combinations(deck, 3))
    key = {h: ref.three_key(h) for h in hands}

    def qualifies(h):  # 5-6-イ-(1): no pair and none of A, K, Q does not qualify
        return not (key[h][0] == 1 and not any(ref.rank_value(c) >= 12 for c in h))

    bonus = {6: 5, 5: 4, 4: 1}
    out = []
    for h in hands:
        dealers = [d for d in hands if not set(d) & set(h)]
        net = Fraction(0)
        for d in dealers:
            if not qualifies(d):
                net += 1
            else:
                net += 2 if key[h] > key[d] else 0 if key[h] == key[d] else -2
        out.append((key[h], net / len(dealers) + bonus.get(key[h][0], 0)))
    return out


def _reference(deck, strategy):
    """(E[ante_play net], P(play), E[pair plus net]) for a strategy, from 000's words."""
    pair_plus = {6: 40, 5: 30, 4: 6, 3: 4, 2: 1, 1: -1}
    total, plays, pp = Fraction(0), 0, Fraction(0)
    q64 = (1, 12, 6, 4)
    hands = _play_expectations(deck)
    for k, ev in hands:
        play = ev >= -1 if strategy == "optimal" else k >= q64
        total += ev if play else -1
        plays += play
        pp += pair_plus[k[0]]
    return total / len(hands), Fraction(plays, len(hands)), pp / len(hands)


@pytest.mark.parametrize("strategy", tcp.STRATEGIES)
def test_reduced_deck_matches_a_straightforward_enumeration(strategy):
    ev, played, pair_plus = _reference(SMALL_DECK, strategy)
    a = tcp.analyse(strategy, SMALL_DECK)
    assert a.bet("ante_play").expected_net == ev
    assert a.parameters["play_probability"] == f"{played.numerator}/{played.denominator}"
    assert a.bet("pair_plus").expected_net == pair_plus


def test_simulation_through_the_deck_device_brackets_the_exact_return():
    g = rngcore.Generator(SEED, stream=5)
    sim = tcp.simulate(10000, g, "optimal")
    assert sim.rounds == 10000 and sim.device == "deck"
    assert all(b.inside for b in sim.bets), [(b.name, b.interval, float(b.exact.rtp)) for b in sim.bets]
    assert sim.verdict == "pass"
    assert sum(sim.bets[0].counts.values()) == sum(sim.bets[1].counts.values()) == 10000


def test_cli_analysis_and_simulation():
    result = CliRunner().invoke(main, ["game", "three-card-poker", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    bets = {b["name"]: b for b in data["bets"]}
    assert bets["ante_play"]["house_edge"] == "686689/20358520"
    result = CliRunner().invoke(main, ["game", "three-card-poker", "--strategy", "q64", "--simulate", "3000",
                                       "--seed", SEED])
    assert result.exit_code in (0, 1) and "pair_plus" in result.output, result.output


def test_bad_strategy_and_deck_are_refused():
    with pytest.raises(ValueError, match="strategy must be one of"):
        tcp.analyse("always")
    with pytest.raises(ValueError, match="6..52 distinct cards"):
        tcp.deals((0, 1, 2))
