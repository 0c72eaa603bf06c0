"""Mississippi Stud (000 別表第1 第3 7): the backward induction against a
straightforward recursion over the cards still to come, the published house
edge and average wager, the simulation through the deck device and the
command line."""
from __future__ import annotations

import functools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

import poker_reference as ref
import rngcore
from harness.cli import main
from harness.games import mississippi_stud as ms
from harness.games import poker_hands as ph

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def _reference_net(hand) -> int:
    """Odds of a final five-card hand, 7-7-ロ and 7-8-ロ, from the reference evaluator's key."""
    key = ref.five_key(hand)
    by_category = {10: 500, 9: 100, 8: 40, 7: 10, 6: 6, 5: 4, 4: 3, 3: 2}
    if key[0] in by_category:
        return by_category[key[0]]
    if key[0] == 2:  # one pair; rank values 2..14
        return 1 if key[1] >= 11 else 0 if key[1] >= 6 else -1
    return -1


def _reference_start(start) -> Fraction:
    """The best expected net per ante of a two-card start: fold (lose what is
    staked) or bet 1..3 antes on each street, by plain recursion over the
    cards to come (7-4 .. 7-8)."""

    @functools.lru_cache(maxsize=None)
    def mean_net(known: frozenset) -> Fraction:
        rest = [c for c in range(52) if c not in known]
        return Fraction(sum(_reference_net(tuple(known) + (c,)) for c in rest), len(rest))

    @functools.lru_cache(maxsize=None)
    def value(known: frozenset, stake: int) -> Fraction:
        if len(known) == 4:
            best = max((stake + k) * mean_net(known) for k in (1, 2, 3))
        else:
            rest = [c for c in range(52) if c not in known]
            best = max(sum(value(known | {c}, stake + k) for c in rest) / len(rest) for k in (1, 2, 3))
        return max(best, Fraction(-stake))

    return value(frozenset(start), 1)


@pytest.mark.parametrize("cards", ["QS 8S", pytest.param("JS JH", marks=pytest.mark.slow),
                                   pytest.param("9C 2D", marks=pytest.mark.slow)])
def test_start_values_match_the_recursion(cards):
    start = ph.parse(cards)
    assert ms.start_values()[ph.lex_index([start])[0]] == _reference_start(start)


def test_published_house_edge_and_average_wager():
    """000's pay table is the usual one (500-100-40-10-6-4-3-2-1, pair of 6s to 10s pushes):
    house edge 4.91 % of the ante, 3.59 antes wagered on average, element of risk 1.37 %
    (John Grochowski, "House edge and element of risk", casinocitytimes.com, 19 April 2018,
    quoting wizardofodds.com)."""
    a = ms.analyse()
    assert round(float(a.bets[0].house_edge) * 100, 2) == 4.91
    assert round(a.parameters["average_wagered_in_antes_float"], 2) == 3.59
    assert round(a.parameters["house_edge_per_total_wagered_float"] * 100, 2) == 1.37


def test_simulation_and_cli():
    sim = ms.simulate(20000, rngcore.Generator(SEED, stream=13))
    assert sim.rounds == 20000 and all(b.inside for b in sim.bets)
    result = CliRunner().invoke(main, ["game", "mississippi-stud", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["bets"][0]["name"] == "ante"
