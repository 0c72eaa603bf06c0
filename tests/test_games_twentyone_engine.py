"""The twenty-one round engine in C (csrc/kernels/twentyone.c, harness.games.twentyone_table)
against the independent Python round (tests/twentyone_reference.py) and the exact analysis.

* Seeded shoes: the C table and the reference deal the same shoes (the devices' Shoe from
  the same generator) and must give the same net and side-bet class in every round.
* Every ordering of a tiny shoe: the C round averaged over all of them is the dynamic
  programme's exact value of the same fixed strategy (fractions), and equals the
  reference round by round (splits included).
"""
import dataclasses
import functools
from fractions import Fraction as F
from itertools import permutations

import numpy as np
import pytest

import rngcore
from harness.games import twentyone as tw
from harness.games import twentyone_game as tg
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.kernels import lib
from rngcore.devices import cards
from tests import twentyone_reference as reference

SEED = bytes(range(32)).hex()

CASES = {
    "blackjack": ("blackjack", {}),
    "pa-1deck": ("pa-blackjack", {"decks": 1}),
    "blackjack-even-money-nhc": ("blackjack", {"even-money": "take", "deal": "no-hole-card", "decks": 4}),
    "blackjack-nhc-split-busts-returned": ("blackjack", {"deal": "no-hole-card", "split-busts": "returned",
                                                         "decks": 4}),
}
SLOW_CASES = {
    **CASES,
    "blackjack-nhc-h17-6to5-4d": ("blackjack", {"deal": "no-hole-card", "dealer": "h17", "blackjack_pays": "6to5",
                                                "decks": 4}),
    "blackjack-nodas-10-11-2hands": ("blackjack", {"das": "no", "double": "10-11", "max-hands": 2,
                                                   "surrender": "no"}),
    "deluxe": ("deluxe-blackjack", {}),
}


@functools.lru_cache(maxsize=None)
def basic(rules):
    """The basic strategy of ``rules`` (the same cells as the game's analysis, without its distributions)."""
    return tw.infinite_deck_analysis(rules, distributions=False)[1]


def table_and_rules(name, options, chart=None):
    game = GAMES[name]
    options = {k.replace("-", "_"): v for k, v in options.items()}
    decks = options.pop("decks", None) or game.fixed_decks or 8
    rules = game.game_rules(**options)
    strategy = basic(rules) if chart is None else chart
    return game, rules, strategy, decks


def c_rounds(rules, strategy, shoe_rules, decks, generator, n):
    table = tt.TwentyOneTable(rules, strategy, shoe_rules, decks)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    net_log, side_log = table.play(generator, n, nets, sides, log=True)
    assert int(nets.sum()) == n and int(sides.sum()) == n
    return [(F(int(a), tt.DEN), int(b)) for a, b in zip(net_log, side_log)], table.shoes


def assert_same_rounds(name, options, rounds, stream, chart=None):
    game, rules, strategy, decks = table_and_rules(name, options, chart)
    ours, shoes = c_rounds(rules, strategy, game.shoe_rules, decks, rngcore.Generator(SEED, stream), rounds)
    theirs, their_shoes = reference.rounds(rules, strategy, game.shoe_rules, decks, rngcore.Generator(SEED, stream),
                                           rounds)
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, f"round {first}: C {ours[first]}, reference {theirs[first]}"
    assert shoes == their_shoes


@pytest.mark.parametrize("case", CASES)
def test_c_engine_equals_the_reference_round_by_round(case):
    name, options = CASES[case]
    assert_same_rounds(name, options, 2000, 5)


def test_c_engine_plays_a_players_chart_as_the_reference_does():
    # The computed chart with some cells changed: D and R where they fall back, P on a pair.
    text = tw.chart_csv(tw.chart(basic(GAMES["blackjack"].game_rules())))
    text = text.replace("hard 16,S,S,S,S,S,H,H,R,R,R", "hard 16,Rs,S,S,S,S,R,H,R,Rs,R")
    text = text.replace("pair 5,D,D,D,D,D,D,D,D,H,H", "pair 5,P,P,D,D,D,D,D,D,H,H")
    chart = tw.read_chart(text, "chart.csv")
    assert_same_rounds("blackjack", {}, 2000, 6, chart)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW_CASES)
def test_c_engine_equals_the_reference_over_a_million_rounds(case):
    name, options = SLOW_CASES[case]
    assert_same_rounds(name, options, 1_000_000, 7)


# ---------------------------------------------------------- every ordering --

def orderings(counts):
    values = [v for v, c in zip(tw.VALUES, counts) for _ in range(c)]
    return sorted(set(permutations(values)))


def codes(values):
    return np.array([cards.encode(v, 0) for v in values], dtype=np.uint16)


@pytest.mark.parametrize("rules, counts", [
    (tw.Rules(max_hands=1, surrender=True), (1, 1, 0, 0, 1, 1, 1, 0, 0, 3)),           # A 2 5 6 7 T T T
    (tw.Rules(max_hands=1, hit_soft_17=True, hole_card=False, original_bet_only=False),
     (1, 1, 1, 0, 1, 0, 1, 0, 0, 3)),                                                   # A 2 3 5 7 T T T
])
def test_c_round_over_every_ordering_is_the_exact_value_of_its_strategy(rules, counts):
    strategy = basic(rules)
    exact = tw.expected_return(tw.first_round(rules, tw.FiniteShoe(counts), strategy))
    table = tt.TwentyOneTable(rules, strategy, "jp-blackjack", 4)
    deals = orderings(counts)
    mean = sum((table.round(codes(d))[0] for d in deals), F(0)) / len(deals)
    assert mean == exact


def test_c_round_over_every_ordering_equals_the_reference_with_splits():
    rules = tw.Rules(max_hands=4, surrender=True, resplit_aces=True, hit_split_aces=True)
    strategy = basic(rules)
    # A pair of 8s against a 6 splits (and re-splits) under the basic strategy.
    splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (6, 8): True, (7, 2): True})
    table = tt.TwentyOneTable(rules, splits, "jp-blackjack", 4)
    played = 0
    for d in orderings((0, 2, 0, 0, 0, 1, 1, 3, 0, 1)):           # 2 2 6 7 8 8 8 T
        it = iter(d)
        try:
            theirs = reference.play(rules, lambda: next(it), splits)
        except (StopIteration, RuntimeError):
            theirs = "out of cards"
        try:
            ours = table.round(codes(d))[0]
        except tt.OutOfCards:
            ours = "out of cards"
        assert ours == theirs, d
        played += ours != "out of cards"
    assert played > 1000


# ---------------------------------------------------------- the plumbing --

def test_side_classes_of_the_kernel_and_their_representative_cards():
    for side in range(lib.KERN_TW_PAIR_SIDES):
        assert reference.side_class(*tt.side_cards(side)) == side


def test_no_hole_card_splits_against_an_ace_or_ten_have_their_cells():
    # The peeking twin that values a split against A/10 without a hole card holds those split
    # hands' plays; without them the basic strategy had no cell for a split ace's soft 12 vs A.
    rules = GAMES["blackjack"].game_rules(deal="no-hole-card")
    strategy = basic(rules)
    assert strategy(tw.of(1, 1), tw.ACE, tw.Context(split=True, split_aces=True), (tw.STAND,)) == tw.STAND
    rounds, _ = c_rounds(rules, strategy, "jp-blackjack", 4, rngcore.Generator(SEED, 2), 20000)
    assert len(rounds) == 20000


def test_a_strategy_without_a_play_for_a_reached_hand_stops_the_round():
    rules = GAMES["blackjack"].game_rules()

    def gap(hand, up, ctx, allowed):
        if tw.total(hand) == (16, False) and tw.cards(hand) == 2:
            raise ValueError("no cell")
        return basic(rules)(hand, up, ctx, allowed)

    table = tt.TwentyOneTable(rules, gap, "jp-blackjack", 8)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    with pytest.raises(ValueError, match="no play for a hand"):
        table.play(rngcore.Generator(SEED, 1), 10_000, nets, sides)
    with pytest.raises(tt.OutOfCards):
        table.round(codes([2, 3]))


def test_the_kernel_refuses_a_split_of_a_non_pair_and_a_pay_it_cannot_count():
    rules = GAMES["blackjack"].game_rules()
    cells = tt.strategy_cells(rules, basic(rules))
    cells[lib.kern_tw_cell(0, 6, 1, 1)] = lib.KERN_TW_SPLIT                    # A,2 is no pair
    fresh = cards.fresh_stack(8)
    table = tt.ffi.new("kern_tw_table *")
    shoe = tt.ffi.new("kern_bac_rules *", tt.rule_set("jp-blackjack").c_rules(8))
    c = tt.ffi.new("kern_tw_rules *", tt.c_rules(rules))
    status = lib.kern_tw_table_init(table, tt.ffi.from_buffer("uint16_t[]", fresh), fresh.size, shoe, c,
                                    tt.ffi.from_buffer("uint8_t[]", cells))
    assert status == lib.RNG_E_ARGUMENT
    with pytest.raises(ValueError, match="whole number of 1/10"):
        tt.c_rules(tw.Rules(blackjack_pays=F(7, 4)))


def test_simulation_counts_come_from_the_c_engine():
    game = GAMES["blackjack"]
    sim = game.simulate(30000, rngcore.Generator(SEED, 4), decks=6)
    rules = game.game_rules()
    rounds, _ = c_rounds(rules, basic(rules), game.shoe_rules, 6, rngcore.Generator(SEED, 4), 30000)
    main = {}
    for net, _ in rounds:
        main[tg.net_label(net)] = main.get(tg.net_label(net), 0) + 1
    assert dict(sim.bets[0].counts) == main
    pair = {b.name: b for b in sim.bets}["pair"]
    assert sum(pair.counts.values()) == 30000 and 0 < pair.counts["pair"] < 30000 * 0.1


def test_the_bench_checks_accept_the_exact_mean_and_reject_another():
    from harness.benchcases import twentyone as bench

    for mimic, rounds in ((False, bench.ROUNDS), (True, bench.NUMPY_ROUNDS)):
        check = bench._check(rounds, mimic)
        exact = F(bench._exact(mimic)) * rounds
        check((rounds, exact))
        with pytest.raises(AssertionError):
            check((rounds, exact + F(rounds, 100)))
        with pytest.raises(AssertionError):
            check((rounds - 1, exact))
    assert -0.07 < bench._exact(True) < -0.04      # mimicking the dealer: about -5.5 %


# ------------------------------------------ no hole card: a split against A or 10 --

def split_every_draw(rules, weights, up, x):
    """A split of ``x, x`` against ``up`` without a hole card, over every draw of an infinite shoe
    of ``weights``: (the reference's law of the round's net, how many paths the C round replayed
    to the same net and cards used, how many paths), the split hands played by the basic strategy."""
    _, strategy = tw.infinite_deck_analysis(rules, weights, distributions=False)
    splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (up, x): True})
    table = tt.TwentyOneTable(rules, splits, "jp-blackjack", 4)
    law, same, paths = {}, 0, 0
    for path, prob, net in reference.over_every_draw(lambda deal: reference.play(rules, deal, splits), weights,
                                                     (x, up, x)):
        law[net] = law.get(net, 0) + prob
        same += table.round(codes(path))[::2] == (net, len(path))
        paths += 1
    return law, same, paths


def analysed_split(rules, weights, up, x):
    """(value, law of the net) of splitting ``x, x`` against ``up`` by the exact analysis."""
    shoe = tw.InfiniteShoe(weights)
    ev = tw.Evaluator(rules, shoe, up, tw.Dealer(rules, shoe))
    hand, removed = tw.of(x, x), tw.of(up, x, x)
    return ev.values(hand, removed)[tw.SPLIT], ev.initial_dist(tw.SPLIT, hand, removed)


def the_old_value(rules, weights, up, x):
    """The split's value as it was: the hands jointly with "no blackjack", and -1 for the whole
    split when the dealer has one, busted hands or not."""
    shoe = tw.InfiniteShoe(weights)
    ev = tw.Evaluator(rules, shoe, up, tw.Dealer(rules, shoe))
    removed = tw.of(up, x, x)
    return ev._peeking().pair_split(x, removed) - ev.blackjack_after(removed)


def check_no_hole_card_split(rules, weights, up, x):
    # 000 1-9-ホ: a bust is settled at once; 1-12-ロ: a dealer blackjack then collects the
    # original stake once from the hands still standing (split_busts_returned: the area loses
    # the original stake only).
    law, same, paths = split_every_draw(rules, weights, up, x)
    assert same == paths
    value, dist = analysed_split(rules, weights, up, x)
    assert sum(net * p for net, p in law.items()) == value
    assert {net: p for net, p in law.items() if p} == {net: p for net, p in dist.items() if p}
    return value, paths


@pytest.mark.parametrize("returned", (False, True), ids=("busts-lost", "busts-returned"))
def test_a_no_hole_card_split_against_a_ten_is_valued_as_the_round_settles_it(returned):
    # shoe A 7 8 T T: split 8s against a ten, hands of 15 and 16 hit into busts
    rules = tw.Rules(hole_card=False, max_hands=2, split_busts_returned=returned)
    weights = (1, 0, 0, 0, 0, 0, 1, 1, 0, 2)
    value, paths = check_no_hole_card_split(rules, weights, 10, 8)
    # every path of the round, the dealer's card not dealt where every hand busted (1-10-ハ)
    assert paths == 433 and value < the_old_value(rules, weights, 10, 8)   # the case tells the two apart


def test_without_original_bet_only_a_dealer_blackjack_takes_every_standing_split_stake():
    rules = tw.Rules(hole_card=False, max_hands=2, original_bet_only=False)
    check_no_hole_card_split(rules, (1, 0, 0, 0, 0, 0, 1, 1, 0, 2), 10, 8)
    # the split's hands doubled: shoe A 2 3 8 T T, 8-3 doubles against a ten
    check_no_hole_card_split(rules, (1, 1, 1, 0, 0, 0, 0, 1, 0, 2), 10, 8)


def test_the_two_readings_of_original_bet_only_differ_by_the_busted_stakes_exactly():
    # 8-8 against a ten, shoe A 7 8 T T: the readings differ exactly on the paths where a
    # split hand busted, another stands and the dealer's card makes a blackjack, by the
    # busted stakes (recounted here from the reference's finished hands).
    weights, up, x = (1, 0, 0, 0, 0, 0, 1, 1, 0, 2), 10, 8
    lost, returned = (tw.Rules(hole_card=False, max_hands=2, split_busts_returned=r) for r in (False, True))
    _, strategy = tw.infinite_deck_analysis(lost, weights, distributions=False)
    splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (up, x): True})
    tables = [tt.TwentyOneTable(r, splits, "jp-blackjack", 4) for r in (lost, returned)]

    def both(deal):
        finished = []

        def area(*args):
            hands = reference.play_area(*args)
            finished.extend(hands or [])
            return hands

        cards_dealt = []

        def dealt():
            cards_dealt.append(deal())
            return cards_dealt[-1]

        net = reference.play(lost, dealt, splits, area)
        busted = sum(h.stake for h in finished if reference.best(h.cards) > 21)
        stands = any(reference.best(h.cards) <= 21 for h in finished)
        # the dealer's second card is the last dealt when it makes a blackjack
        blackjack = reference.blackjack([up, cards_dealt[-1]])
        return net, busted if stands and blackjack else 0

    difference = F(0)
    differing = 0
    for path, prob, (net, extra) in reference.over_every_draw(both, weights, (x, up, x)):
        it = iter(path)
        assert reference.play(returned, lambda: next(it), splits) == net + extra, path
        assert [t.round(codes(path))[0] for t in tables] == [net, net + extra], path
        difference += prob * extra
        differing += extra > 0
    values = [analysed_split(r, weights, up, x)[0] for r in (lost, returned)]
    assert differing > 50 and difference > 0
    assert values[1] - values[0] == difference


def test_eight_eight_against_a_ten_one_bust_one_standing_loses_two_or_one():
    # 000 第2 1-12-ロ under the no-hole-card rule: 8-8 v 10 split; 8-6 hits a 10 (24, lost at
    # once, 1-9-ホ), 8-9 stands; the dealer's second card, an ace, makes a blackjack.  Lost
    # reading: the bust's 1 and the original stake 1; returned: the original stake only.
    deal = (8, 10, 8, 6, 9, 10, 1)
    for split_busts, net in (("lost", F(-2)), ("returned", F(-1))):
        rules = GAMES["blackjack"].game_rules(deal="no-hole-card", surrender="no", split_busts=split_busts)
        strategy = basic(rules)
        assert strategy(tw.of(8, 8), 10, tw.Context(), (tw.STAND, tw.HIT, tw.SPLIT)) == tw.SPLIT
        it = iter(deal)
        assert reference.play(rules, lambda: next(it), strategy) == net
        assert tt.TwentyOneTable(rules, strategy, "jp-blackjack", 8).round_hands(codes(deal)) == (net, 3, 7, 2)


def test_busted_splits_returned_is_refused_for_pontoon_and_without_original_bet_only():
    for rules in (tw.Rules(hole_card=False, split_busts_returned=True, original_bet_only=False),
                  dataclasses.replace(GAMES["pontoon"].game_rules(), split_busts_returned=True)):
        with pytest.raises(ValueError, match="split_busts_returned"):
            tt.c_rules(rules)


@pytest.mark.slow
def test_a_no_hole_card_split_against_an_ace_path_by_path():
    # shoe A 6 8 T T, an ace up: 8-8 hits its 14s and 16s into busts
    check_no_hole_card_split(tw.Rules(hole_card=False, max_hands=2), (1, 0, 0, 0, 0, 1, 0, 1, 0, 2), tw.ACE, 8)


def check_merged_split(rules, weights, up, x):
    """The analysis' split law against the reference's, its equal rounds merged (four hands)."""
    _, strategy = tw.infinite_deck_analysis(rules, weights, distributions=False)
    splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (up, x): True})
    law = reference.merged_split_law(rules, weights, up, x, splits)
    value, dist = analysed_split(rules, weights, up, x)
    assert {net: p for net, p in law.items() if p} == {net: p for net, p in dist.items() if p}
    assert sum(net * p for net, p in law.items()) == value


@pytest.mark.parametrize("rules, weights", [
    (tw.Rules(hole_card=False, max_hands=2), (1, 0, 0, 0, 0, 0, 1, 1, 0, 2)),
    (tw.Rules(hole_card=False, max_hands=2, split_busts_returned=True), (1, 0, 0, 0, 0, 0, 1, 1, 0, 2)),
    (tw.Rules(hole_card=False, max_hands=2, original_bet_only=False), (1, 1, 1, 0, 0, 0, 0, 1, 0, 2))])
def test_the_merged_reference_split_law_is_the_path_by_path_one(rules, weights):
    # Merging the rounds that reach one state of the seat changes no probability.
    law = split_every_draw(rules, weights, 10, 8)[0]
    _, strategy = tw.infinite_deck_analysis(rules, weights, distributions=False)
    splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (10, 8): True})
    merged = reference.merged_split_law(rules, weights, 10, 8, splits)
    assert {net: p for net, p in law.items() if p} == {net: p for net, p in merged.items() if p}


FOUR_HANDS = tw.Rules(hole_card=False, hit_soft_17=True, max_hands=4, resplit_aces=True, hit_split_aces=True)


def four_hands(up, x, returned=False, slow=True):
    rules = dataclasses.replace(FOUR_HANDS, split_busts_returned=returned)
    return pytest.param(rules, up, x, id=f"{x}-{x} v {up}{', busts returned' if returned else ''}",
                        marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("rules, up, x", [
    four_hands(10, 8, slow=False), four_hands(10, 8, returned=True, slow=False), four_hands(tw.ACE, 8),
    four_hands(tw.ACE, 8, returned=True), *[four_hands(up, x) for up in (10, tw.ACE) for x in (3, tw.ACE)]])
def test_a_no_hole_card_split_with_resplits_against_a_or_10(rules, up, x):
    # Shoe A 3 8 T T T, H17: re-splits to four hands, 8-3 doubles, 3s and split aces drawn to and
    # re-split.  Path by path (the C round replaying each) these are the seat's paths times the
    # dealer's, from 10^4 x 19 (8-8 v 10) to 10^8 x 307 (A-A v A) rounds; the reference with its
    # equal rounds merged takes under a second (8-8 v 10) to a minute (slow run) each.
    check_merged_split(rules, (1, 0, 1, 0, 0, 0, 0, 1, 0, 3), up, x)


def test_a_no_hole_card_split_given_a_dealer_blackjack_on_the_full_infinite_shoe():
    # The dealer-blackjack part of a split's value, recomputed straight from the rules for the
    # standard infinite shoe, two hands: each hand plays on as the split hands are played
    # (the basic strategy's split cells: the peeking twin's best play), a bust loses its
    # stake(s) at once, and one unit goes if either hand still stands.
    rules = GAMES["blackjack"].game_rules(deal="no-hole-card", max_hands=2)
    draw = [(v, F(4 if v == 10 else 1, 13)) for v in tw.VALUES]
    shoe = tw.InfiniteShoe()
    evs = {up: tw.Evaluator(rules, shoe, up, tw.Dealer(rules, shoe)) for up in (tw.ACE, 10)}

    @functools.lru_cache(maxsize=None)
    def busts(cards, up):
        """(P(the hand busts), E[stake lost to a bust]) of a split hand played on (the cards in
        the order dealt: the split card first)."""
        hand = reference.Hand(list(cards), True, cards[0] == 1)
        act = evs[up]._peeking().best(tw.of(*cards), tw.of(up, *cards), hand.context())[0]
        assert act in reference.options(rules, up, hand, 2)
        if act == tw.STAND:
            return F(0), F(0)
        p_bust = lost = F(0)
        for v, p in draw:
            more = cards[:2] + tuple(sorted(cards[2:] + (v,)))       # the same hand, one key
            if reference.best(list(more)) > 21:
                p_bust, lost = p_bust + p, lost + p * (2 if act == tw.DOUBLE else 1)
            elif act == tw.HIT:
                b, s = busts(more, up)
                p_bust, lost = p_bust + p * b, lost + p * s
        return p_bust, lost

    for up, ev in evs.items():
        for x in (8, 7):
            laws = [busts((x, v), up) for v, _ in draw]
            p_bust = sum(p * b for (_, p), (b, _) in zip(draw, laws))
            lost = sum(p * s for (_, p), (_, s) in zip(draw, laws))
            given_blackjack = -2 * lost - (1 - p_bust ** 2)
            removed = tw.of(up, x, x)
            value = ev.values(tw.of(x, x), removed)[tw.SPLIT]
            assert value == ev._peeking().pair_split(x, removed) + ev.blackjack_after(removed) * given_blackjack
            assert given_blackjack < -1
            # Read for the whole area: -1 if either hand stands, the busts' stakes only if both busted.
            returned = dataclasses.replace(rules, split_busts_returned=True)
            other = tw.Evaluator(returned, shoe, up, tw.Dealer(returned, shoe))
            both_busted = -2 * lost * p_bust       # E[busted stakes; both bust], the hands independent
            assert other._peeking().pair_split(x, removed) == ev._peeking().pair_split(x, removed)
            assert other.values(tw.of(x, x), removed)[tw.SPLIT] == ev._peeking().pair_split(x, removed) + \
                ev.blackjack_after(removed) * (both_busted - (1 - p_bust ** 2))



# ------------------------------------------------- every hand busted (1-10-ハ) --

def splits_else_hits_to_17(hand, up, ctx, allowed):
    """Split a pair, else hit below 17 (on the cards below, every hand busts)."""
    if tw.SPLIT in allowed:
        return tw.SPLIT
    return tw.HIT if tw.total(hand)[0] < 17 and tw.HIT in allowed else tw.STAND


@pytest.mark.parametrize("deal, values, used, net", [
    ("no-hole-card", (10, 2, 2, 10, 9, 9), 4, -1),          # 12 hits and busts: the 9 is never dealt
    ("hole-card", (10, 2, 2, 9, 10, 9), 5, -1),             # the hole card was dealt before the play
    ("no-hole-card", (10, 2, 2, 5, 10, 9), 6, -1),          # 17 stands: the dealer's 10, then his 9
    ("no-hole-card", (8, 6, 8, 5, 6, 10, 10, 9), 7, -2),    # 8-8 split, both hands bust: no dealer card
    ("hole-card", (8, 6, 8, 9, 5, 6, 10, 10, 9), 8, -2),
])
def test_the_dealers_second_card_is_not_dealt_when_every_hand_busted(deal, values, used, net):
    """000 第2 1-10-ハ: when every player hand has busted the dealer settles at once, "notwithstanding
    イ" (10-イ: the no-hole-card dealer's second card), so that card is never dealt; the C round and
    the reference take the same cards and settle alike."""
    rules = GAMES["blackjack"].game_rules(deal=deal, surrender="no")
    table = tt.TwentyOneTable(rules, splits_else_hits_to_17, "jp-blackjack", 4)
    ours, _, ours_used, _ = table.round_hands(codes(values))
    it = iter(values)
    theirs = reference.play(rules, lambda: next(it), splits_else_hits_to_17)
    assert (ours, ours_used) == (theirs, len(values) - len(list(it))) == (net, used)


@pytest.mark.parametrize("deal, values, used, nets", [
    ("no-hole-card", (10, 10, 6, 2, 3, 10, 10, 9), 7, (-1, -1)),     # both areas bust: no dealer card
    ("hole-card", (10, 10, 6, 2, 3, 9, 10, 10), 8, (-1, -1)),
    ("no-hole-card", (10, 10, 6, 2, 8, 10, 9, 9), 8, (-1, 1)),       # 18 stands: the dealer's 9, 9 (24)
])
def test_blackjack_switch_deals_no_second_card_when_both_areas_busted(deal, values, used, nets):
    """Blackjack Switch 2-9-ハ, as 1-10-ハ: the two areas' hands all busted, no card for the dealer."""
    game = GAMES["blackjack-switch"]
    rules = game.game_rules(deal=deal, surrender="no")
    keep = np.zeros(lib.KERN_TW_SWAPS, dtype=np.uint8)
    table = tt.TwentyOneTable(rules, splits_else_hits_to_17, game.shoe_rules, 6, swaps=keep)
    ours, _, ours_used, _ = table.round_areas(codes(values))
    it = iter(values)
    theirs, _ = reference.play_switch(rules, lambda: next(it), splits_else_hits_to_17, lambda *cards: False)
    assert (ours[:2], ours_used) == (theirs, len(values) - len(list(it))) == (nets, used)
