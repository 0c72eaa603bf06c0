"""Pontoon (000 別表第1 第2 3): the exact analysis against an independent round played over every
ordering of small shoes, the suited bonuses' odds, the rules table, and the CLI's refusals.

No published figure is checked: the search for one (Wizard of Odds' Spanish 21 pages, the
nearest published game) found none for these rules (no hole card with the original stake
only, hits soft 17, an ace counting 1 in a doubled hand, surrender only against A/K/Q/J), so
the return is checked against the reference round only (see docs/table_games.md).
"""
from fractions import Fraction as F
import functools
import itertools
import math

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.games import twentyone as tw
from harness.games import twentyone_first_round as fr
from harness.games import twentyone_game as tg
from harness.games import twentyone_pontoon as pt
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.kernels import lib
from rngcore.devices import cards
from tests import pontoon_reference as reference
from tests import twentyone_reference

SEED = bytes(range(32)).hex()

GAME = GAMES["pontoon"]


# ---------------------------------------------------------- exhaustive --

def reference_expectation(rules, codes, strategy):
    """E[net] of the reference round over every ordering of the cards ``codes`` (exact)."""
    kinds = sorted(set(codes))
    return twentyone_reference.over_every_ordering(lambda deal: reference.play(rules, deal, strategy), kinds,
                                                   [codes.count(k) for k in kinds])


def composition_strategy(rules, shoe):
    """The DP's composition-dependent play as the reference round's strategy (no splits)."""
    dealer = tw.Dealer(rules, shoe)
    evs = {up: pt.PontoonEvaluator(rules, shoe, up, dealer) for up in tw.VALUES}
    memo = {}

    def play(hand, up, ctx, allowed):
        key = (hand, up, ctx)
        if key not in memo:
            memo[key] = decide(hand, up, ctx)
        return memo[key]

    def decide(hand, up, ctx):
        ev, removed = evs[up], tw.add(hand, up)
        if ctx.doubled:
            return ev.after_double(hand, removed, tw.Context(ctx.split))[0]
        if tw.cards(hand) == 2 and not ctx.split:
            values = ev.values(hand, removed)
            return max(values, key=values.get)
        return ev.best(hand, removed, ctx)[0]
    return play


def finite_shoe(codes):
    """The DP's shoe of ``codes``: counts per value and, for 6, 7, 8, per suit."""
    shoe = tw.FiniteShoe([sum(1 for c in codes if reference.value(c) == v) for v in tw.VALUES])
    shoe.suits = {v: tuple(sum(1 for c in codes if reference.value(c) == v and reference.suit(c) == s)
                           for s in range(4)) for v in (6, 7, 8)}
    return shoe


S, H, C = 0, 1, 3
# A 2 3 6 7 8 J J, the 6-7-8 in spades: pontoons, 5-card 21s (A 2 3 7 8), a doubled 21 against
# a possible dealer pontoon, rescues, surrenders against A and J
SMALL = [cards.encode(1, S), cards.encode(2, H), cards.encode(3, C), cards.encode(6, S), cards.encode(7, S),
         cards.encode(8, S)] + [cards.encode(11, S, d) for d in range(2)]
SUITED = SMALL + [cards.encode(7, H)]    # and a 7 of hearts: 6-7-8 mixed too (slow)


def recorded(strategy, seen):
    def play(hand, up, ctx, allowed):
        act = strategy(hand, up, ctx, allowed)
        seen.add((ctx.doubled, act))
        return act
    return play


@pytest.mark.parametrize("changes, codes", [({}, SMALL),
                                            pytest.param({"double_any_cards": True}, SMALL, marks=pytest.mark.slow),
                                            pytest.param({}, SUITED, marks=pytest.mark.slow)])
def test_dp_equals_the_reference_round_over_every_ordering(changes, codes):
    rules = tw.Rules(**{**GAME.game_rules().__dict__, "max_hands": 1, **changes})
    shoe = finite_shoe(codes)
    hands = tw.first_round(rules, shoe, evaluator=pt.PontoonEvaluator, distributions=True)
    seen = set()
    assert reference_expectation(rules, codes, recorded(composition_strategy(rules, shoe), seen)) == \
        tw.expected_return(hands)
    # what the shoe reaches: every action, a rescue, and every net up to the 3 to 1 bonus
    assert {(False, a) for a in (tw.STAND, tw.HIT, tw.DOUBLE, tw.SURRENDER)} | {(True, tw.RESCUE)} <= seen
    assert {F(-2), F(-1), F(-1, 2), F(0), F(1), F(3, 2), F(2), F(3)} <= set(tw.net_distribution(hands))


# ------------------------------------------------------------- bonuses --

def test_suit_odds_infinite_and_by_enumeration():
    assert pt.suit_odds(tw.InfiniteShoe(pt.PONTOON_WEIGHTS), tw.of(7, 7, 7)) == (F(1, 64), F(3, 64), F(60, 64))
    decks = 2
    shoe = tw.FiniteShoe.decks(decks, tens_per_deck=12)
    sevens = [s for s in range(4) for _ in range(decks)]
    triples = [(a, b, c) for a in range(8) for b in range(a + 1, 8) for c in range(b + 1, 8)]
    spades = sum(1 for t in triples if all(sevens[i] == 0 for i in t))
    suited = sum(1 for t in triples if len({sevens[i] for i in t}) == 1)
    assert pt.suit_odds(shoe, tw.of(7, 7, 7)) == (F(spades, len(triples)), F(suited - spades, len(triples)),
                                                  F(len(triples) - suited, len(triples)))
    assert pt.suit_odds(shoe, tw.of(6, 7, 8)) == (F(1, 64), F(3, 64), F(60, 64))
    assert math.comb(8, 3) == len(triples)


def test_bonus_pays_and_doubled_hands():
    rules = GAME.game_rules()
    inf = tw.InfiniteShoe(pt.PONTOON_WEIGHTS)
    assert pt.pay_law(rules, inf, tw.of(2, 3, 4, 5, 7), False) == {F(3, 2): 1}
    assert pt.pay_law(rules, inf, tw.of(1, 2, 3, 4, 5, 6), False) == {F(2): 1}
    assert pt.pay_law(rules, inf, tw.of(1, 1, 2, 3, 4, 5, 5), False) == {F(3): 1}
    assert pt.pay_law(rules, inf, tw.of(6, 7, 8), False) == {F(3, 2): F(60, 64), F(2): F(3, 64), F(3): F(1, 64)}
    assert pt.pay_law(rules, inf, tw.of(1, 10), True) == {F(1): 1}          # a split 21 is no pontoon
    # a doubled soft hand counts its ace 1 (3-5-ロ-(1)): A,5 doubled with a 5 is 11, not 21
    ev = pt.PontoonEvaluator(rules, inf, 9, tw.Dealer(rules, inf))
    assert tw.hard_total(tw.of(1, 5, 5)) == 11
    assert ev.after_double(tw.of(1, 5, 5), tw.of(9, 1, 5, 5), tw.Context()) == (tw.RESCUE, F(-1))


def test_reference_bonus_by_suits():
    rules = GAME.game_rules()
    hand = reference.Hand([cards.encode(6, S), cards.encode(7, S), cards.encode(8, S)], False, False)
    assert reference.bonus_pays(rules, hand) == 3
    hand.codes[2] = cards.encode(8, H)
    assert reference.bonus_pays(rules, hand) == F(3, 2)
    hand.codes = [cards.encode(7, 2)] * 3
    assert reference.bonus_pays(rules, hand) == 2


# --------------------------------------------------------------- rules --

def test_every_rule_pontoon_reads_is_a_cited_table_entry():
    names = {e.name for e in GAME.table}
    assert {"pontoon", "pontoon_bonus", "hole_card", "hit_soft_17", "surrender_upcards", "double_any_cards",
            "original_bet_only", "max_hands", "double_rescue", "doubled_aces_one"} <= names
    assert all(e.source.startswith("000 第2 3") for e in GAME.table)
    rules = GAME.game_rules()
    assert rules.pontoon and not rules.hole_card and rules.hit_soft_17 and rules.surrender_upcards == {1, 10}
    assert GAME.game_rules(double_cards="any", das="no", max_hands=2) == tw.Rules(
        **{**rules.__dict__, "double_any_cards": True, "double_after_split": False, "max_hands": 2})


@pytest.mark.parametrize("args, named", [
    (["--option", "switch=yes"], "switch"),
    (["--option", "dealer=s17"], "dealer"),
    (["--option", "decks=3"], "decks"),
    (["--option", "double-cards=three"], "double-cards"),
    (["--strategy", "table"], "table"),
    (["--option", "chart=x.csv"], "chart"),
])
def test_bad_input_exits_2_with_one_line_naming_it(args, named):
    result = CliRunner().invoke(main, ["game", "pontoon", *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and named in lines[0] and "Traceback" not in result.output


# ------------------------------------------------------------ C engine --

def pontoon_rounds(rules, strategy, decks, stream, n):
    """(net, cards used) of ``n`` reference rounds dealt through the devices' Pontoon shoe."""
    def one(deal, codes):
        return reference.play(rules, lambda: (deal(), codes[-1])[1], strategy), len(codes)
    return twentyone_reference.dealt_rounds(one, GAME.shoe_rules, decks, rngcore.Generator(SEED, stream), n)


def c_rounds(rules, strategy, decks, stream, n):
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, decks)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    net_log, _ = table.play(rngcore.Generator(SEED, stream), n, nets, sides, log=True)
    return [F(int(a), tt.DEN) for a in net_log], table.shoes


@functools.lru_cache(maxsize=None)
def analysis(rules):
    return pt.pontoon_analysis(rules, distributions=False)


def basic(rules):
    return analysis(rules)[1]


def simple(hand, up, ctx, allowed):
    """A strategy that splits, surrenders, doubles (3+ cards too), rescues and hits (cheaper than
    computing the basic one)."""
    t, soft = tw.total(hand)
    if ctx.doubled:
        return tw.RESCUE if tw.hard_total(hand) < 15 and up in (1, 10) else tw.STAND
    for act, wanted in ((tw.SPLIT, tw.pair_value(hand) in (7, 8)), (tw.SURRENDER, t == 16 and up == 10),
                        (tw.DOUBLE, t in (10, 11)), (tw.HIT, t < 17 or (soft and t < 19))):
        if wanted and act in allowed:
            return act
    return tw.STAND


PONTOON_CASES = {"default": {}, "3+cards-nodas-2hands": {"double_cards": "any", "das": "no", "max_hands": 2}}


def assert_same_rounds(options, rounds, stream, decks=8, strategy=None):
    rules = GAME.game_rules(**options)
    strategy = strategy or basic(rules)
    ours, shoes = c_rounds(rules, strategy, decks, stream, rounds)
    theirs, their_shoes = pontoon_rounds(rules, strategy, decks, stream, rounds)
    theirs = [net for net, _ in theirs]
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, f"round {first}: C {ours[first]}, reference {theirs[first]}"
    assert shoes == their_shoes


@pytest.mark.parametrize("case", PONTOON_CASES)
def test_c_engine_equals_the_reference_round_by_round(case):
    """A simple strategy with splits (7s, 8s), rescues and 3+-card doubles; the basic strategy
    under ``slow``."""
    assert_same_rounds(PONTOON_CASES[case], 1500, 5, decks=4, strategy=simple)


@pytest.mark.slow
@pytest.mark.parametrize("case", PONTOON_CASES)
def test_c_engine_equals_the_reference_over_a_million_rounds(case):
    assert_same_rounds(PONTOON_CASES[case], 1_000_000, 7)



@pytest.mark.parametrize("ranks, used, net", [
    ((11, 2, 2, 12, 9, 9), 4, -1),        # J 2 against a 2 hits, the Q busts it: no dealer card (2-9-ハ)
    ((11, 2, 2, 5, 12, 9), 6, -1),        # 17 stands: the dealer's Q, then his 9 (21)
    ((8, 2, 8, 5, 6, 11, 12, 9), 7, -2),  # 8-8 split, both hands bust: no dealer card
])
def test_the_dealers_second_card_is_not_dealt_when_every_hand_busted(ranks, used, net):
    """3-8 applies 2-9, whose ハ settles a round whose hands all busted at once, notwithstanding イ
    (the dealer's one face-up card): the C round and the reference take the player's cards only."""
    rules = GAME.game_rules()
    dealt = [cards.encode(r, S) for r in ranks]
    table = tt.TwentyOneTable(rules, simple, GAME.shoe_rules, 4)
    ours, _, ours_used, _ = table.round_hands(np.array(dealt, dtype=np.uint16))
    it = iter(dealt)
    theirs = reference.play(rules, lambda: next(it), simple)
    assert (ours, ours_used) == (theirs, len(dealt) - len(list(it))) == (net, used)

# A 2 6 7 7 8 J, a spade and a heart 7: every ordering of 7 cards for the C round (never short of cards)
SMALLER = [cards.encode(1, S), cards.encode(2, H), cards.encode(6, S), cards.encode(7, S), cards.encode(7, H),
           cards.encode(8, S), cards.encode(11, S)]


def test_c_round_and_first_round_law_over_every_ordering():
    """The C round over every ordering of a small shoe, by the basic strategy's table (3+-card
    doubles on): its mean is the DP's exact value of that fixed strategy (fractions), and its
    law is the simulation's null (the first round of a full shoe, harness.games.twentyone_first_round)."""
    rules = tw.Rules(**{**GAME.game_rules().__dict__, "max_hands": 1, "double_any_cards": True})
    strategy = simple
    shoe = finite_shoe(SMALLER)
    exact = tw.expected_return(tw.first_round(rules, shoe, strategy, evaluator=pt.PontoonEvaluator))
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 4)
    deals = sorted(set(itertools.permutations(SMALLER)))
    counted = np.zeros(lib.KERN_TW_FIRSTS)
    mean = F(0)
    for d in deals:
        net, _, _, hands = table.round_hands(np.array(d, dtype=np.uint16))
        mean += net
        counted[int(net * tt.DEN) + lib.KERN_TW_NET_OFFSET] += 1
    assert mean / len(deals) == exact
    assert reference_expectation(rules, SMALLER, strategy) == exact
    law = fr.first_round_law(rules, shoe.counts, table.cells, suits=shoe.suits)
    assert np.abs(law - counted / len(deals)).max() < 1e-12
    assert (law > 0).sum() >= 5


@pytest.mark.slow
def test_simulation_through_the_shoe_contains_the_exact_return():
    sim = GAME.simulate(200_000, rngcore.Generator(SEED, 11))
    main_bet = sim.bets[0]
    low, high = main_bet.interval
    assert low <= float(main_bet.exact.rtp) <= high
    assert sim.outcome_fit.impossible == 0 and sim.outcome_fit.pvalue > 1e-6


def test_the_exact_return_of_the_default_rules():
    """A stability pin of the computed figure (docs/table_games.md), no published figure to check."""
    hands = analysis(GAME.game_rules())[0]
    assert round(float(1 + tw.expected_return(hands)), 10) == 0.9902258797


def test_the_chart_adds_pontoons_rows_and_is_valid_csv():
    table = pt.chart(basic(GAME.game_rules()))
    text = tw.chart_csv(table)
    rows = [line.split(",") for line in text.splitlines()]
    assert all(len(r) == 11 for r in rows)
    names = [r[0] for r in rows[1:]]
    assert {"hard 16", "pair 7", "6-7", "7-8", "hard 16 x4", "hard 16 x7+", "doubled 12"} <= set(names)
    codes = {c for r in rows[1:] for c in r[1:]}
    assert codes <= {"H", "S", "D", "Ds", "P", "R", "Rs", "W"} and "W" in codes
    # the rescue is taken only where keeping the doubled hand is worth less than losing the stake
    assert table["rows"]["doubled 20"] == ["S"] * 10


def test_a_split_against_a_dealer_pontoon_is_valued_by_the_rules():
    """Split aces against a J, Q or K, infinite shoe: each split ace takes one card, a ten-value
    one (1/4) makes 21, which wins whatever the dealer holds (3-9-ロ-(1)-(一)); if the dealer makes
    pontoon the hands of 20 or less lose the original stake once (3-10-ハ).  So given a dealer
    pontoon: both 21 (1/16) +2, one (3/8) +1 - 1 = 0, none (9/16) -1."""
    rules = GAME.game_rules()
    shoe = tw.InfiniteShoe(pt.PONTOON_WEIGHTS)
    ev = pt.PontoonEvaluator(rules, shoe, 10, tw.Dealer(rules, shoe))
    removed = tw.of(10, 1, 1)
    assert ev._peeking().split_blackjack_law(1, removed) == {F(2): F(1, 16), F(0): F(3, 8), F(-1): F(9, 16)}
    joint = ev._peeking().pair_split(1, removed)           # jointly with "no dealer pontoon"
    assert ev.values(tw.of(1, 1), removed)[tw.SPLIT] == joint + F(1, 12) * (F(2, 16) - F(9, 16))


# ------------------------------------------------- splits, exhaustively --

def busy(hand, up, ctx, allowed):
    """A fixed strategy that works the split hands: always split (and re-split), double a split
    hand of 11..18, rescue a doubled 16 or less, hit a split hand's 16 or less on two cards and
    13 or less on more."""
    t, soft = tw.total(hand)
    if ctx.doubled:
        return tw.RESCUE if tw.hard_total(hand) <= 16 and tw.RESCUE in allowed else tw.STAND
    if tw.SPLIT in allowed:
        return tw.SPLIT
    if ctx.split and tw.cards(hand) == 2 and tw.DOUBLE in allowed and 11 <= tw.hard_total(hand) <= 18:
        return tw.DOUBLE
    if tw.HIT in allowed and (t <= (16 if tw.cards(hand) == 2 else 13) or (soft and t < 18)):
        return tw.HIT
    return tw.STAND


def check_split_over_every_draw(max_hands, weights, up, x):
    """The reference round over every draw of an infinite shoe of ``weights`` (no 7s: the suits
    never matter), the seat dealt ``x, x`` against ``up`` and playing :func:`busy`: its law of the
    net is the DP's law of the split, fraction for fraction."""
    rules = tw.Rules(**{**GAME.game_rules().__dict__, "max_hands": max_hands})
    seen = set()
    law = {}
    for _, p, net in twentyone_reference.over_every_draw(
            lambda deal: reference.play(rules, lambda: cards.encode(11 if (v := deal()) == 10 else v, H),
                                        recorded(busy, seen)), weights, (x, up, x)):
        law[net] = law.get(net, 0) + p
    shoe = tw.InfiniteShoe(weights)
    ev = pt.PontoonEvaluator(rules, shoe, up, tw.Dealer(rules, shoe), busy)
    hand, removed = tw.of(x, x), tw.of(up, x, x)
    dist = ev.initial_dist(tw.SPLIT, hand, removed)
    assert {n: p for n, p in law.items() if p} == {n: p for n, p in dist.items() if p}
    assert sum(n * p for n, p in law.items()) == ev.values(hand, removed)[tw.SPLIT]
    return seen


def test_a_split_of_tens_against_a_j_over_every_draw_is_the_dp():
    # shoe A 3 8 J J J: 10-3 and 10-8 doubled (a doubled ace counts 1), rescues, 21s that win
    # whatever the dealer holds, a dealer pontoon taking the original stake once
    seen = check_split_over_every_draw(2, (1, 0, 1, 0, 0, 0, 0, 1, 0, 3), 10, 10)
    assert {(False, tw.DOUBLE), (True, tw.RESCUE), (True, tw.STAND)} <= seen


@pytest.mark.slow
@pytest.mark.parametrize("max_hands, weights, up, x", [
    (2, (1, 0, 1, 0, 0, 0, 0, 1, 0, 3), 10, 8),
    (2, (1, 0, 1, 0, 0, 0, 0, 1, 0, 3), tw.ACE, 10),
    (2, (1, 0, 1, 0, 0, 0, 0, 1, 0, 3), tw.ACE, 8),
    (4, (1, 0, 1, 0, 0, 0, 0, 1, 0, 1), 10, 10),
    (4, (1, 0, 1, 0, 0, 0, 0, 1, 0, 1), 10, 8),
    (4, (1, 0, 1, 0, 0, 0, 0, 1, 0, 1), tw.ACE, 8),
    (4, (1, 0, 1, 0, 0, 0, 0, 1, 0, 1), tw.ACE, 10),
])
def test_splits_of_tens_and_eights_over_every_draw_are_the_dp(max_hands, weights, up, x):
    check_split_over_every_draw(max_hands, weights, up, x)


def split_decision_bound(rules):
    """An upper bound on what the infinite-shoe optimum could gain over the analysis by playing
    the split hands against an A or J otherwise (docs/table_games.md, Pontoon): per pair and
    upcard, the split's no-pontoon optimum (the peeking twin maximises it) plus P(pontoon) times
    the most any play of the hands could settle given a dealer pontoon (each hand's best, the one
    original stake left out), less the action the analysis chose; never below 0."""
    shoe = tw.InfiniteShoe(pt.PONTOON_WEIGHTS)
    draws = shoe.draws(tw.EMPTY)
    hands = tg.infinite(rules)[0]
    dealer = tw.Dealer(rules, shoe)
    bound = F(0)
    for up in (tw.ACE, tw.TEN):
        ev = pt.PontoonEvaluator(rules, shoe, up, dealer)

        @functools.lru_cache(maxsize=None)
        def most(hand, ctx):
            """The most a split hand can settle given a dealer pontoon, by any play."""
            t = tw.total(hand)[0]
            out = sum((n * q for n, q in pt.pay_law(rules, shoe, hand, True).items()), F(0)) if t == 21 else F(0)
            if t < 21 and not (ctx.split_aces and tw.cards(hand) == 2):
                out = max(out, sum((p * (-1 if tw.total(tw.add(hand, v))[0] > 21 else most(tw.add(hand, v), tw.Context(True)))
                                    for v, p in draws), F(0)))
                if rules.may_double(hand, True):
                    out = max(out, sum((p * {True: -2, False: 0}[tw.hard_total(tw.add(hand, v)) > 21]
                                        + p * 2 * (tw.hard_total(tw.add(hand, v)) == 21) for v, p in draws), F(0)))
            return out

        for h in hands:
            x = tw.pair_value(h.hand)
            if h.up != up or x is None or tw.SPLIT not in h.values:
                continue
            removed = tw.of(up, x, x)
            can_resplit, ctx, _ = ev._split_setup(x, removed)

            @functools.lru_cache(maxsize=None)
            def pending(held, waiting):
                if waiting == 0:
                    return F(0)
                return sum((p * (pending(held + 1, waiting + 1) if v == x and can_resplit and held < rules.max_hands
                                 else most(tw.of(x, v), ctx) + pending(held, waiting - 1)) for v, p in draws), F(0))

            upper = ev._peeking().pair_split(x, removed) + ev.blackjack_after(removed) * pending(2, 2)
            bound += h.probability * max(F(0), upper - h.values[h.action])
    return bound


@pytest.mark.slow
@pytest.mark.parametrize("options, stated", [({}, F(821, 10**6)), ({"double_cards": "any"}, F(827, 10**6))])
def test_the_split_decisions_against_a_or_j_cost_at_most_the_stated_bound(options, stated):
    bound = split_decision_bound(GAME.game_rules(**options))
    assert stated - F(1, 10**6) < bound < stated
