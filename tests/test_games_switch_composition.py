"""Blackjack Switch's composition strategy (harness.games.twentyone_switch_composition): the switch
and each area's first decision by their exact values on the shoe less the five first cards.

The independent check: on a small shoe that no round can run out of, every first five cards is
played out through the straightforward two-area round of ``tests/twentyone_reference.py``
(``play_switch``) over every ordering of the cards left, one shoe for both areas and the dealer.
For each five cards the recomputation finds each area's best first action by the area's own net
with the other area playing basic strategy's first action, keeps or switches by which is worth
more to the pair of areas played so, and weights that pair's value.  The sum must be the module's
return as a fraction: that checks the values, the decisions and the module's claim that an area's
value on the shoe less the five cards is its exact value in the two-area round.  Splits are left
out (``max_hands=1``), as in tests/test_games_twentyone_composition.py.
"""
import functools
import itertools
from fractions import Fraction as F

import numpy as np
import pytest

from harness.games import twentyone as tw
from harness.games import twentyone_composition as tc
from harness.games import twentyone_switch_composition as swc
from tests import twentyone_reference as reference

# A, 5, 6, 9 and five ten-value cards: no two-area round can use more than the nine cards (checked:
# the recomputation's deal raises if the shoe runs out).
SMALL = (1, 0, 0, 0, 1, 1, 0, 0, 1, 5)
SWITCH = dict(hit_soft_17=True, blackjack_pays=F(1), dealer_22_push=True, switch=True, max_hands=1)
RULES = {
    "peek": tw.Rules(surrender=True, **SWITCH),
    "no-hole-card": tw.Rules(hole_card=False, surrender=True, surrender_upcards=frozenset(range(2, 11)), **SWITCH),
}


def simple(hand, up, ctx, allowed):
    """A plain total-dependent strategy (the module takes any; the infinite-shoe basic strategy
    costs seconds per rule set): double 10 and 11, surrender 16 against a ten, hit below 17
    (soft 18 too), else stand."""
    t, soft = tw.total(hand)
    for act, when in ((tw.DOUBLE, t in (10, 11)), (tw.SURRENDER, t == 16 and up == tw.TEN),
                      (tw.HIT, t < 17 or (soft and t == 18))):
        if when and act in allowed:
            return act
    return tw.STAND


def basic_of(rules):
    """The strategy after the first decisions, and basic strategy's swap cells: never switch."""
    return simple, np.zeros(100_000, dtype=np.uint8)


class RanOut(Exception):
    """The small shoe was too small for a round."""


@functools.lru_cache(maxsize=None)
def round_value(rules, counts, start, forced, swap):
    """E[(first area's net, second area's net)] of the round dealt ``start`` (a1, b1, up, a2, b2)
    then every ordering of the rest, each area's first action ``forced[i]`` (a natural's None)
    after switching if ``swap``, :func:`simple` after."""
    def draws(path):
        if len(path) < len(start):
            return [(start[len(path)], F(1))]
        left = list(counts)
        for v in path:
            left[v - 1] -= 1
        n = sum(left)
        if not n:
            raise RanOut(path)
        return [(v, F(c, n)) for v, c in zip(tw.VALUES, left) if c]

    def play_one(deal):
        pending = [f for f in forced if f is not None]

        def strategy(hand, up, ctx, allowed):
            if ctx == tw.Context() and tw.cards(hand) == 2 and pending:
                return pending.pop(0)
            return simple(hand, up, ctx, allowed)

        return reference.play_switch(rules, deal, strategy, lambda *_: swap)[0]

    a1, b1, up, a2, b2 = start
    areas = (tw.of(a1, b2), tw.of(b1, a2)) if swap else (tw.of(a1, a2), tw.of(b1, b2))
    ea = eb = F(0)
    for _, p, (na, nb) in reference.every_path(play_one, draws):
        ea, eb = ea + p * na, eb + p * nb
    return ea, eb


def first_actions(rules, up, cards):
    return reference.options(rules, up, reference.Hand(list(cards), False, False), 1)


def recomputed_return(rules, counts):
    """E[net per unit on the pair] of the composition strategy, recomputed round by round."""
    total = F(0)
    n = sum(counts)
    kinds = [v for v, c in zip(tw.VALUES, counts) if c]
    for start in itertools.product(kinds, repeat=5):
        left, prob = list(counts), F(1)
        for i, v in enumerate(start):
            prob *= F(max(left[v - 1], 0), n - i)
            left[v - 1] -= 1
        if not prob:
            continue
        a1, b1, up, a2, b2 = start
        worth = []
        for swap in (False, True):
            areas = ((a1, b2), (b1, a2)) if swap else ((a1, a2), (b1, b2))
            plain = [None if tw.is_natural(tw.of(*c)) else simple(tw.of(*c), up, tw.Context(),
                                                                      first_actions(rules, up, c)) for c in areas]
            best = []
            for i, cards in enumerate(areas):
                own = {}
                for act in ([None] if plain[i] is None else first_actions(rules, up, cards)):
                    forced = list(plain)
                    forced[i] = act
                    own[act] = round_value(rules, counts, start, tuple(forced), swap)[i]
                best.append(max(own, key=own.get))
            worth.append(sum(round_value(rules, counts, start, tuple(best), swap)))
        total += prob * max(worth)
    return total / 2


@pytest.mark.parametrize("name", [pytest.param("peek"), pytest.param("no-hole-card", marks=pytest.mark.slow)])
def test_composition_return_equals_a_two_area_round_by_round_recomputation(name):
    rules = RULES[name]
    basic, cells = basic_of(rules)
    play = swc.switch_play(rules, tw.FiniteShoe(SMALL), basic, cells)
    assert play.expected_return == recomputed_return(rules, SMALL)
    assert play.expected_return > play.basic_return
    assert all(d.value >= d.basic_value for d in play.deals)
    assert play.differences() and play.switch_differences()


def test_an_areas_law_is_its_value_and_both_areas_have_one_law():
    rules = RULES["peek"]
    play = swc.switch_play(rules, tw.FiniteShoe(SMALL), *basic_of(rules))
    assert sum(play.area_law.values()) + play.split_probability == 1
    mean = sum(net * p for net, p in play.area_law.items()) + play.split_probability * play.split_net
    first = sum(d.probability * d.hands[0].value for d in play.deals)
    second = sum(d.probability * d.hands[1].value for d in play.deals)
    assert mean == first == second == play.expected_return
    assert sum(d.probability for d in play.deals) == 1


def test_the_switch_and_first_actions_are_the_best_by_the_values():
    # no hole card: no peeked blackjack settled as dealt, so a deal and its mirror (the same five
    # cards, the second cards exchanged) choose between the same two pairs of hands
    rules = RULES["no-hole-card"]
    play = swc.switch_play(rules, tw.FiniteShoe(SMALL), *basic_of(rules))
    by_cards = {(d.up, d.cards): d for d in play.deals}
    assert len(by_cards) == len(play.deals)
    for d in play.deals:
        a1, a2, b1, b2 = d.cards
        kept, crossed = (tw.of(a1, a2), tw.of(b1, b2)), (tw.of(a1, b2), tw.of(b1, a2))
        assert tuple(h.hand for h in d.hands) == (crossed if d.switched else kept)
        assert all(h.value == max(h.values.values()) for h in d.hands)
        assert all(h.action == b for h, b in zip(d.hands, d.basic_actions) if h.values[b] == h.value)
        mirror = by_cards[(d.up, (a1, b2, b1, a2))]
        assert d.value == mirror.value >= d.basic_value
        assert not (d.switched and mirror.switched)


@pytest.fixture
def small_shoe(monkeypatch):
    """The game's composition play on the small shoe (a full shoe takes minutes)."""
    from harness.games import blackjack_switch as bs
    from harness.games import twentyone_game as tg

    def play(rules, decks):
        return swc.switch_play(rules, tw.FiniteShoe(SMALL), tg.infinite(rules)[1], bs._swaps(rules, None))
    monkeypatch.setattr(bs, "_composition_play", play)
    return play


def test_cli_reports_and_charts_the_switch_composition_strategy(small_shoe):
    import json

    from click.testing import CliRunner

    from harness.cli import main
    from harness.games.registry import GAMES

    run = CliRunner().invoke
    args = ["game", "blackjack-switch", "--strategy", "composition", "--option", "max-hands=2", "--decks", "6"]
    result = run(main, args + ["--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    expected = small_shoe(GAMES["blackjack-switch"].game_rules(max_hands=2), 6)
    assert report["parameters"]["main_bet_shoe"] == "full 6-deck"
    basic = expected.basic_return
    assert report["parameters"]["composition"]["basic_strategy_net_this_shoe"] == f"{basic.numerator}/{basic.denominator}"
    main_bet = next(b for b in report["bets"] if b["name"] == "main")
    assert F(main_bet["rtp"]) == 1 + expected.expected_return
    table = swc.chart(expected)
    text = run(main, args + ["--chart"])
    assert text.exit_code == 0 and text.output.strip() == swc.chart_text(table).strip()
    assert text.output.count(", other area ") == len(table["differences"]) > 0
    csv = run(main, args + ["--chart", "csv"])
    assert csv.exit_code == 0 and csv.output.strip() == tc.chart_csv(table).strip()
    as_json = json.loads(run(main, args + ["--chart", "json"]).output)
    assert as_json["differences"] == table["differences"] and len(as_json["switches"]) == len(
        expected.switch_differences()) > 0


def test_cli_refuses_to_simulate_the_switch_composition_strategy_at_once(monkeypatch):
    from click.testing import CliRunner

    from harness.cli import main
    from harness.games import blackjack_switch as bs

    monkeypatch.setattr(bs, "_composition_play", lambda *a: pytest.fail("analysed before the refusal"))
    result = CliRunner().invoke(main, ["game", "blackjack-switch", "--strategy", "composition", "--simulate", "100"])
    assert result.exit_code == 2 and "--simulate does not play --strategy composition" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_split_rounds_are_one_class_whose_mean_completes_the_areas_value():
    # three 8s: a pair of 8s is dealt and split; the split hands are valued as the family values them
    rules = tw.Rules(surrender=True, **(SWITCH | {"max_hands": 2}))
    play = swc.switch_play(rules, tw.FiniteShoe((1, 0, 0, 0, 1, 0, 0, 3, 0, 5)), *basic_of(rules))
    assert play.split_probability > 0
    assert any(h.action == tw.SPLIT for d in play.deals for h in d.hands)
    assert sum(play.area_law.values()) + play.split_probability == 1
    mean = sum(net * p for net, p in play.area_law.items()) + play.split_probability * play.split_net
    assert mean == play.expected_return >= play.basic_return
    assert all(d.value >= d.basic_value for d in play.deals)
