"""The composition strategy of the twenty-one family (harness.games.twentyone_composition): the first
decision of each two cards against each upcard by its exact value on a full finite shoe, every later
decision by basic strategy.

The independent check: on small shoes, every initial (upcard, two cards) and every action the
round offers it is played out through the straightforward round of ``tests/twentyone_reference.py``
over every ordering of the cards left (exact fractions), the action forced and basic strategy after;
the best action's value, weighted by the three cards' probability, must be the module's return to
the last digit.  Splits are left out of that check (``max_hands=1``): the module values split hands
as the published analysers do, on the shoe less the pair cards only, which a round dealt card by
card does not (tests/test_games_twentyone.py bounds that).
"""
from fractions import Fraction as F

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.games import twentyone as tw
from harness.games import twentyone_composition as tc
from harness.games import twentyone_game as tg
from harness.games import twentyone_pontoon as pt
from harness.games.registry import GAMES
from harness.games.twentyone_first_round import first_round_law, labelled
from harness.games.twentyone_table import strategy_cells, hand_keys
from harness.kernels import lib
from rngcore.devices import cards
from tests import pontoon_reference
from tests import twentyone_reference as reference

SMALL = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)        # one of each value, four ten-value cards: 13 cards
SMALL_RULES = (
    tw.Rules(max_hands=1, surrender=True),
    tw.Rules(max_hands=1, hit_soft_17=True, hole_card=False, surrender=True, surrender_upcards=frozenset(range(2, 11))),
)


def basic_of(rules):
    return tg.infinite(rules)[1]


def reference_return(rules, counts, basic):
    """E[net] of the composition strategy, recomputed round by round: for each initial three cards
    the best forced first action, then basic strategy, over every ordering of the rest."""
    total = F(0)
    n = sum(counts)
    for up in tw.VALUES:
        for c1 in tw.VALUES:
            for c2 in tw.VALUES:
                first = (c1, up, c2)    # the dealing order of reference.play: seat, upcard, seat
                left = list(counts)
                prob = F(1)
                for i, v in enumerate(first):
                    if left[v - 1] == 0:
                        break
                    prob *= F(left[v - 1], n - i)
                    left[v - 1] -= 1
                else:
                    total += prob * max(_forced(rules, first, left, basic, a)
                                        for a in _first_actions(rules, up, [c1, c2]))
    return total


def _first_actions(rules, up, cards):
    return reference.options(rules, up, reference.Hand(list(cards), False, False), 1)


def _forced(rules, first, left, basic, action):
    strategy = _forced_on(tw.of(first[0], first[2]), action, basic)

    def draws(path):
        if len(path) < 3:
            return [(first[len(path)], F(1))]
        rest = list(left)
        for v in path[3:]:
            rest[v - 1] -= 1
        m = sum(rest)
        return [(v, F(c, m)) for v, c in zip(tw.VALUES, rest) if c]

    return sum((p * net for _, p, net in reference.every_path(
        lambda deal: reference.play(rules, deal, strategy), draws)), F(0))


# 10 cards without 4s, 5s and 9s: a second a recomputation (the 13-card shoe's take about 20 s: slow)
SMALLER = (1, 1, 1, 0, 0, 1, 1, 1, 0, 3)


@pytest.mark.parametrize("counts", [SMALLER, pytest.param(SMALL, marks=pytest.mark.slow)], ids=("10-cards", "13-cards"))
@pytest.mark.parametrize("rules", SMALL_RULES, ids=("peek-s17", "no-hole-card-h17"))
def test_composition_return_equals_a_round_by_round_recomputation(rules, counts):
    basic = basic_of(rules)
    play = tc.composition_play(rules, tw.FiniteShoe(counts), basic)
    assert play.expected_return == reference_return(rules, counts, basic)
    # at least basic strategy's return on the same shoe, strictly more here, hand by hand too
    assert play.expected_return > play.basic_return
    assert all(h.value >= b.value for h, b in zip(play.hands, play.basic_hands))
    assert play.basic_return == tw.expected_return(tw.first_round(rules, tw.FiniteShoe(counts), basic))
    assert play.differences()


def test_the_round_law_is_the_values_of_the_composition_play():
    rules = tw.Rules(max_hands=4, surrender=True)
    play = tc.composition_play(rules, tw.FiniteShoe((2, 1, 1, 1, 1, 1, 1, 1, 1, 4)), basic_of(rules))
    assert any(h.action == tw.SPLIT for h in play.hands)
    for h in play.hands:
        if h.action != tw.SPLIT:
            assert sum(h.distribution.values()) == 1
            assert sum(net * m for net, m in h.distribution.items()) == h.value
    law, split_p, split_net = tc.round_law(rules, play.hands)
    assert sum(law.values()) + split_p == 1 and split_p > 0
    assert sum(net * p for net, p in law.items()) + split_p * split_net == play.expected_return >= play.basic_return
    split = [h for h in play.hands if h.action == tw.SPLIT]
    assert split_p == sum(h.probability * (1 - h.dealer_blackjack * rules.peeks(h.up)) for h in split)


def test_the_c_table_plays_the_first_decisions_and_basic_strategy_after():
    rules = tw.Rules(max_hands=1, surrender=True)
    basic = basic_of(rules)
    play = tc.composition_play(rules, tw.FiniteShoe(SMALL), basic)
    cells, plain = strategy_cells(rules, play.strategy), strategy_cells(rules, basic)
    two = {hand: key for key, hand in hand_keys() if key < lib.KERN_TW_PAIRS}
    changed = set()
    for h in play.hands:
        if len(h.values) > 1:
            cell = lib.kern_tw_cell(0, h.up, 0, two[h.hand])
            changed |= {cell, lib.kern_tw_cell(0, h.up, 1, two[h.hand])}    # (the seat may split: not reached)
            assert cells[cell] == {"S": lib.KERN_TW_STAND, "H": lib.KERN_TW_HIT, "D": lib.KERN_TW_DOUBLE,
                                   "R": lib.KERN_TW_SURRENDER}[h.action]
    others = np.ones(cells.size, dtype=bool)
    others[list(changed)] = False
    assert (cells[others] == plain[others]).all()
    # the simulation's null (the first round's law under those cells) is the exact distribution
    law = labelled(first_round_law(rules, SMALL, cells), tg.net_label)
    exact = tw.net_distribution(play.hands)
    assert law.keys() == {tg.net_label(net) for net, p in exact.items() if p}
    for net, p in exact.items():
        if p:
            assert law[tg.net_label(net)] == pytest.approx(float(p), rel=1e-12)


def test_pontoon_composition_play_is_at_least_its_basic_strategy():
    rules = GAMES["pontoon"].game_rules(max_hands=2)
    counts = (2, 1, 1, 1, 1, 4, 4, 4, 1, 4)       # the 6s, 7s, 8s one of each suit (the suited bonuses)
    play = tc.composition_play(rules, tw.FiniteShoe(counts), basic_of(rules), pt.PontoonEvaluator)
    assert play.expected_return > play.basic_return
    assert all(h.value >= b.value for h, b in zip(play.hands, play.basic_hands))


# A 2 3 6 7 8 J J, the 6-7-8 in spades (tests/test_games_pontoon.py's shoe): pontoons, 5-card 21s,
# doubles and rescues, surrenders against A and J.
PONTOON_SMALL = [cards.encode(r, s, d) for r, s, d in ((1, 0, 0), (2, 1, 0), (3, 3, 0), (6, 0, 0), (7, 0, 0),
                                                      (8, 0, 0), (11, 0, 0), (11, 0, 1))]


def pontoon_reference_value(rules, codes, up, hand, action, basic):
    """E[net; the seat's first two cards are ``hand`` against ``up``] with ``action`` forced on them and
    ``basic`` after, by the reference Pontoon round (tests/pontoon_reference.py) over every ordering of
    ``codes`` that deals those three cards first (the dealing order: seat, upcard, seat)."""
    strategy = _forced_on(hand, action, basic)
    a, b = [v for v, n in zip(tw.VALUES, hand) for _ in range(n)]
    value = F(0)
    for first in {(a, up, b), (b, up, a)}:
        def draws(path, first=first):
            left = list(codes)
            for code in path:
                left.remove(code)
            kinds = sorted(set(left))
            if len(path) < 3:
                kinds = [k for k in kinds if pontoon_reference.value(k) == first[len(path)]]
            return [(k, F(left.count(k), len(left))) for k in kinds]
        value += sum((p * net for _, p, net in reference.every_path(
            lambda deal: pontoon_reference.play(rules, deal, strategy), draws)), F(0))
    return value


def _forced_on(seat, action, basic):
    def strategy(hand, up, ctx, allowed):
        if ctx == tw.Context() and hand == seat and tw.cards(hand) == 2:
            return action
        return basic(hand, up, ctx, allowed)
    return strategy


def test_pontoon_composition_cells_equal_the_reference_round_over_every_ordering():
    rules = GAMES["pontoon"].game_rules(max_hands=1)
    shoe = tw.FiniteShoe([sum(1 for c in PONTOON_SMALL if pontoon_reference.value(c) == v) for v in tw.VALUES])
    shoe.suits = {v: tuple(sum(1 for c in PONTOON_SMALL if pontoon_reference.value(c) == v
                               and pontoon_reference.suit(c) == s) for s in range(4)) for v in (6, 7, 8)}
    basic = basic_of(rules)
    play = tc.composition_play(rules, shoe, basic, pt.PontoonEvaluator)
    played = 0
    for h, b in zip(play.hands, play.basic_hands):
        if tw.settled_first(rules, h.up, h.hand, h.dealer_blackjack) is not None:
            continue
        theirs = {a: pontoon_reference_value(rules, PONTOON_SMALL, h.up, h.hand, a, basic) / h.probability
                  for a in h.values}
        assert theirs == h.values, (h.up, h.hand)
        best = max(theirs.values())
        # the cell: the best action, basic strategy's on a tie
        assert theirs[h.action] == best and (h.action == b.action or theirs[b.action] < best)
        played += 1
    assert played > 20 and play.differences()
    assert play.expected_return > play.basic_return


def test_chart_marks_and_lists_every_difference():
    rules = tw.Rules(max_hands=1, surrender=True)
    play = tc.composition_play(rules, tw.FiniteShoe(SMALL), basic_of(rules))
    table = tc.chart(play)
    assert table["rows"]["10+6"] and table["rows"]["A+7"] and "A+10" not in table["rows"]
    listed = {(d["hand"], d["upcard"]) for d in table["differences"]}
    ups = table["upcards"]
    marked = {(name, ups[i]) for name, codes in table["rows"].items() for i, c in enumerate(codes)
              if c != table["basic"][name][i]}
    assert listed == marked and len(listed) == len(play.differences())
    text, csv = tc.chart_text(table), tc.chart_csv(table)
    assert text.count("*") == len(listed) + 1 and text.count("(basic ") == len(listed)
    assert csv.count("*") == len(listed) and csv.splitlines()[0] == "hand,2,3,4,5,6,7,8,9,10,A"
    # a cell's code is the action with its fallback: Ds/Rs where standing beats hitting
    for h in play.hands:
        if h.action == tw.DOUBLE and h.values[tw.STAND] > h.values[tw.HIT]:
            assert tc.code(h) == "Ds"


@pytest.fixture
def small_shoe(monkeypatch):
    """The games' composition play on the small shoe (the full shoes take minutes: slow tests)."""
    def play(rules, decks, tens_per_deck):
        return tc.composition_play(rules, tw.FiniteShoe(SMALL), tg.infinite(rules)[1],
                                   pt.PontoonEvaluator if rules.pontoon else None)
    monkeypatch.setattr(tg, "composition_play", play)
    return play


def test_cli_reports_and_charts_the_composition_strategy(small_shoe):
    import json

    run = CliRunner().invoke
    result = run(main, ["game", "blackjack", "--strategy", "composition", "--option", "max-hands=2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    expected = small_shoe(GAMES["blackjack"].game_rules(max_hands=2), 8, 16)
    assert report["parameters"]["main_bet_shoe"] == "full 8-deck"
    assert report["parameters"]["composition"]["basic_strategy_net_this_shoe"] == \
        f"{expected.basic_return.numerator}/{expected.basic_return.denominator}"
    text = run(main, ["game", "blackjack", "--chart", "--strategy", "composition", "--option", "max-hands=2"])
    assert text.exit_code == 0 and text.output.strip() == tc.chart_text(tc.chart(expected)).strip()
    csv = run(main, ["game", "blackjack", "--chart", "csv", "--strategy", "composition", "--option", "max-hands=2"])
    assert csv.exit_code == 0 and csv.output.strip() == tc.chart_csv(tc.chart(expected)).strip()


def test_cli_refuses_the_composition_strategy_with_a_chart(tmp_path):
    run = CliRunner().invoke
    chart = tmp_path / "chart.csv"
    chart.write_text(GAMES["blackjack"].chart("csv"))
    both = run(main, ["game", "blackjack", "--strategy", "composition", "--option", f"chart={chart}"])
    assert both.exit_code == 2 and "go together" in both.output


@pytest.mark.slow
def test_simulation_plays_the_composition_strategy():
    # 4 decks (the fewest blackjack deals): the full shoe's table takes minutes.
    game = GAMES["blackjack"]
    sim = game.simulate(20000, rngcore.Generator(bytes(range(32)).hex(), 3), strategy="composition", decks=4)
    main_bet = sim.bets[0]
    assert "composition strategy" in sim.procedure
    low, high = main_bet.interval
    assert low <= float(main_bet.exact.rtp) <= high
    assert sim.outcome_fit.pvalue > 1e-9
    basic = game.analyse(strategy="basic", decks=4).bet("main")
    assert main_bet.exact.rtp > basic.rtp


@pytest.mark.parametrize("game, counts", [("blackjack", (2, 1, 1, 1, 1, 1, 1, 1, 1, 4)),
                                          ("pontoon", (2, 1, 1, 1, 1, 4, 4, 4, 1, 4))], ids=("blackjack", "pontoon"))
def test_every_action_law_of_a_finite_shoe_has_the_action_value_as_mean(game, counts):
    # The finite shoe's laws are integer numerators over one denominator per node (Evaluator.action_law);
    # the values are summed apart, in fractions: every action's law must have its value as mean and
    # the mass of the dealer outcomes still possible, for every initial hand.
    rules = GAMES[game].game_rules(max_hands=2)
    shoe = tw.FiniteShoe(counts)
    evaluator = pt.PontoonEvaluator if rules.pontoon else tw.Evaluator
    dealer = tw.Dealer(rules, shoe)
    checked = 0
    for up in tw.VALUES:
        ev = evaluator(rules, shoe, up, dealer, basic_of(rules))
        for c1 in tw.VALUES:
            for c2 in tw.VALUES[c1 - 1:]:
                hand = tw.of(c1, c2)
                removed = tw.add(hand, up)
                if min(shoe.left(removed)) < 0 or tw.is_natural(hand):
                    continue
                mass = 1 - ev.blackjack_after(removed) if ev.peek else 1
                for act in ev.allowed(hand, tw.Context()):
                    law = ev.action_dist(act, hand, removed, tw.Context())
                    assert all(type(m) is F for m in law.values())
                    assert sum(law.values()) == mass
                    assert sum(net * m for (_, net), m in law.items()) == ev.action_value(act, hand, removed, tw.Context())
                    checked += 1
    assert checked > 100


def test_a_finite_shoe_law_deeper_than_its_bound_fails_closed():
    shoe = tw.FiniteShoe.decks(8)
    rules = tw.Rules()
    ev = tw.Evaluator(rules, shoe, 5, tw.Dealer(rules, shoe))
    deep = (32, 17, 0, 0, 1, 0, 0, 0, 0, 2)   # 52 cards gone: more than the laws' denominators allow for
    assert sum(deep) > tw._LAW_DEPTH
    with pytest.raises(ValueError, match="deeper than the bound"):
        ev.action_dist(tw.STAND, tw.of(10, 10), deep, tw.Context())
