"""The simulation's outcome test for the twenty-one family: the first round of each shoe against
the law of the first round of the full shoe dealt (harness.games.twentyone_first_round).

A shoe dealt to its cut card is not the infinite shoe, and its later rounds have no one law (the
cut-card effect), so a chi-square of every round against the infinite-shoe law fails once the
sample is large; here it fails at once with one deck.  The law itself is checked in exact
fractions against the C round over every ordering of small shoes.
"""
from fractions import Fraction as F
from itertools import permutations

import numpy as np
import pytest

import rngcore
from harness.games import twentyone as tw
from harness.games import twentyone_first_round as fr
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.games.simulate import BetSimulation
from harness.kernels import lib
from rngcore.devices import cards

SEED = bytes(range(32)).hex()


def simple(hand, up, ctx, allowed):
    """A strategy that hits, doubles, surrenders and splits (cheaper than computing the basic one)."""
    t, soft = tw.total(hand)
    for act, wanted in ((tw.SPLIT, tw.pair_value(hand) == 8), (tw.SURRENDER, t == 16 and up == 10),
                        (tw.DOUBLE, t in (10, 11)), (tw.HIT, t < 17 or (soft and t == 17))):
        if wanted and act in allowed:
            return act
    return tw.STAND


def orderings(counts):
    values = [v for v, c in zip(tw.VALUES, counts) for _ in range(c)]
    return sorted(set(permutations(values)))


def c_law(rules, counts, strategy):
    """P(first-round class) of the C round over every ordering of the shoe ``counts`` (exact)."""
    table = tt.TwentyOneTable(rules, strategy, "jp-blackjack", 4)
    deals = orderings(counts)
    law = [F(0)] * lib.KERN_TW_FIRSTS
    for deal in deals:
        net, _, _, hands = table.round_hands(np.array([cards.encode(v, 0) for v in deal], dtype=np.uint16))
        law[lib.KERN_TW_SPLIT_CLASS if hands > 1 else int(net * lib.KERN_TW_DEN) + lib.KERN_TW_NET_OFFSET] += 1
    return [F(c, len(deals)) for c in law], table.cells


@pytest.mark.parametrize("rules, counts", [
    (tw.Rules(max_hands=1, surrender=True), (1, 1, 0, 0, 1, 1, 1, 0, 0, 3)),            # A 2 5 6 7 T T T: peek
    (tw.Rules(max_hands=1, hit_soft_17=True, hole_card=False, original_bet_only=False),
     (1, 1, 1, 0, 1, 0, 1, 0, 0, 3)),                                                    # no hole card
    (tw.Rules(max_hands=2, surrender=True), (1, 0, 0, 0, 0, 0, 0, 3, 1, 4)),            # A 8 8 8 9 T T T T: splits
    (tw.Rules(max_hands=1, take_even_money=True), (2, 1, 0, 0, 1, 1, 0, 0, 0, 3)),     # A A 2 5 6 T T T: even money
])
def test_first_round_law_is_the_c_round_over_every_ordering(rules, counts):
    exact, cells = c_law(rules, counts, simple)
    law = fr.first_round_law(rules, counts, cells)
    assert law.sum() == pytest.approx(1, abs=1e-12)
    assert np.abs(law - np.array([float(p) for p in exact])).max() < 1e-12
    assert (law > 0).sum() >= 4
    if rules.max_hands > 1:
        assert exact[lib.KERN_TW_SPLIT_CLASS] > 0 and law[lib.KERN_TW_SPLIT_CLASS] > 0


def test_dealer_law_is_the_exact_dealer_for_each_composition():
    rules = tw.Rules(hit_soft_17=True)
    shoe = tw.FiniteShoe.decks(1)
    dealer = tw.Dealer(rules, shoe)
    removed = [tw.of(6, 10, 5), tw.of(6, 1, 1, 2), tw.of(6)]
    laws = fr.dealer_laws(rules, 6, np.array([shoe.left(r) for r in removed]))
    for row, r in zip(laws, removed):
        assert np.abs(row - np.array([float(p) for p in dealer.distribution(r, 6)])).max() < 1e-14


def test_a_one_deck_simulation_passes_where_the_infinite_shoe_law_fails():
    # 002 lets a shoe hold a single deck (§ 549.3(a)): its rounds are far from the infinite shoe.
    sim = GAMES["pa-blackjack"].simulate(300_000, rngcore.Generator(SEED, 1), decks=1)
    main = sim.bets[0]
    shoes = sum(sim.outcome_fit.inputs[0])
    assert 30_000 < shoes < 50_000 and "first round of each of the" in sim.note
    assert sim.verdict == "pass" and main.fit is sim.outcome_fit and sim.outcome_fit.pvalue > 1e-3
    assert "split" in sim.outcome_fit.inputs[2]
    # What the simulation used to test: every round against the infinite-shoe law.
    assert BetSimulation(main.exact, main.counts).fit.pvalue < 1e-20
    assert main.decisions == 300_000 and main.inside


def test_first_round_counts_are_one_per_shoe():
    table = tt.TwentyOneTable(GAMES["blackjack"].game_rules(), simple, "jp-blackjack", 4)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    firsts = np.zeros(lib.KERN_TW_FIRSTS, dtype=np.uint64)
    table.play(rngcore.Generator(SEED, 2), 50_000, nets, sides, firsts=firsts)
    assert int(firsts.sum()) == table.shoes and table.shoes > 1000
    assert 0 < firsts[lib.KERN_TW_SPLIT_CLASS] < table.shoes // 10
