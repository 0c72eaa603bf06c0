"""Pots of the player-versus-player games (000 別表第1 第3 9-7 .. 9-9, 11-5):
constructed all-in and side-pot rounds, the house's share and the odd yen,
and every small showdown checked against the usual side-pot rule and for
conservation of chips."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from harness.games import poker_hands as ph
from harness.games import poker_pots as pots

pytestmark = pytest.mark.pure_python  # side pots are integer arithmetic in Python: nothing for the sanitizers

R = Fraction(95, 100)


def test_a_round_without_all_in_gathers_everything():
    g = pots.gather(50, [100, 100, 30], [False] * 3, [True] * 3, [False, False, True])
    assert (g.pots, g.carried, g.returned) == ((), 280, {})


def test_all_in_pots_smallest_first():
    """9-7-ロ-(1), (2), (4)-(二): A all-in for 100, B for 200, C and D call 500; 50 gathered before."""
    g = pots.gather(50, [100, 200, 500, 500], [True, True, False, False], [True] * 4, [False] * 4)
    assert [(p.amount, p.level, p.all_in) for p in g.pots] == [(450, 100, (0,)), (300, 200, (1,))]
    assert (g.carried, g.returned) == (600, {})


def test_everyone_all_in_leaves_the_largest_alone_unprocessed():
    """9-7-ロ-(3) and (4)-(一): both holders all-in, the larger's excess is returned."""
    g = pots.gather(0, [100, 300], [True, True], [True, True], [False, False])
    assert [(p.amount, p.level) for p in g.pots] == [(200, 100)]
    assert (g.carried, g.returned) == (0, {1: 200})
    # two customers share the largest: processed together
    g = pots.gather(0, [100, 300, 300], [True] * 3, [True] * 3, [False] * 3)
    assert [(p.amount, p.level, p.all_in) for p in g.pots] == [(300, 100, (0,)), (400, 300, (1, 2))]


def test_settlement_shares_rounding_and_odd_yen():
    """9-9-イ: prize = pot x r rounded up; 9-9-ロ: truncated yen to the first winner clockwise
    from the customer to the right of the small blind."""
    main = pots.settle([], 101, {0: 5, 1: 5, 2: 1}, clockwise=[2, 1, 0], r=R)
    assert main.prizes == (96,)                       # 101 x 0.95 = 95.95 -> 96
    assert main.paid == {0: 48, 1: 48} and main.house == 5
    odd = pots.settle([], 100, {0: 5, 1: 5, 2: 5}, clockwise=[2, 1, 0], r=R)
    assert odd.paid == {0: 31, 1: 31, 2: 33}          # 95 / 3: 31 each, the 2 odd yen to customer 2
    with pytest.raises(ValueError, match="0.90 <= r < 1"):
        pots.settle([], 100, {0: 1}, clockwise=[0], r=Fraction(1))
    with pytest.raises(ValueError, match="11-5"):
        pots.check_share(Fraction(69, 100), pots.TOURNAMENT_SHARE)


def test_all_in_winner_takes_his_pots_the_main_winner_the_rest():
    g = pots.gather(50, [100, 200, 500, 500], [True, True, False, False], [True] * 4, [False] * 4)
    # A (0) best, then C (2), then B (1), D (3) worst: A takes 450, C takes 300 + 600
    s = pots.settle(g.pots, g.carried, {0: 9, 1: 5, 2: 7, 3: 1}, clockwise=[3, 0, 1, 2], r=R)
    assert s.prizes == (428, 285, 570)
    assert s.paid == {0: 428, 2: 855} and s.house == 1350 - 1283
    # B ties C: B's pot (300) split with C, who also takes the main pot
    s = pots.settle(g.pots, g.carried, {0: 1, 1: 7, 2: 7, 3: 2}, clockwise=[3, 0, 1, 2], r=R)
    assert s.paid == {1: 357, 2: 926}  # (428 + 285) / 2 = 356.5 each, C adds 570; the odd yen to B (first clockwise)
    assert sum(s.paid.values()) == 428 + 285 + 570


def _reference(contributions, folded, hands):
    """The usual side-pot rule: each layer between contribution levels goes to the best hand
    among the customers who have not folded and put in at least that much; ties split."""
    out = {i: Fraction(0) for i in hands}
    previous = 0
    for level in sorted(set(contributions)):
        layer = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = [i for i, c in enumerate(contributions) if c >= level and not folded[i]]
        best = max(hands[i] for i in eligible)
        winners = [i for i in eligible if hands[i] == best]
        for i in winners:
            out[i] += Fraction(layer, len(winners))
        previous = level
    return {i: a for i, a in out.items() if a}


def _rounds(n: int = 4):
    """Every end of a betting round for n customers: stakes 1..3, all-in or calling the
    largest stake, folded customers no higher than the smallest stake still in."""
    for stakes in itertools.product((1, 2, 3), repeat=n):
        for all_in in itertools.product((False, True), repeat=n):
            for folded in itertools.product((False, True), repeat=n):
                live = [i for i in range(n) if not folded[i]]
                callers = [i for i in live if not all_in[i]]
                if len(live) < 2 or any(all_in[i] and folded[i] for i in range(n)):
                    continue
                top = max(stakes[i] for i in live)
                if any(stakes[i] != top for i in callers):
                    continue
                if any(stakes[i] > min(stakes[j] for j in live) for i in range(n) if folded[i]):
                    continue
                yield stakes, all_in, folded


@pytest.mark.parametrize("ranks", [(0, 1), pytest.param((0, 1, 2), marks=pytest.mark.slow)],
                         ids=["two-ranks", "three-ranks"])
def test_every_small_showdown_conserves_chips_and_agrees_with_the_side_pot_rule(ranks):
    cases = 0
    for stakes, all_in, folded in _rounds():
        g = pots.gather(0, list(stakes), list(all_in), [True] * 4, list(folded))
        contributions = [s - g.returned.get(i, 0) for i, s in enumerate(stakes)]
        live = [i for i in range(4) if not folded[i]]
        for ranked in itertools.product(ranks, repeat=len(live)):
            hands = dict(zip(live, ranked))
            exact = pots.shares(g.pots, g.carried, hands, [p.amount for p in g.pots], g.carried)
            assert exact == _reference(contributions, folded, hands), (stakes, all_in, folded, hands)
            s = pots.settle(g.pots, g.carried, hands, clockwise=[3, 0, 1, 2], r=R)
            assert sum(s.paid.values()) + s.house + sum(g.returned.values()) == sum(stakes)
            assert s.house >= 0 and all(v > 0 for v in s.paid.values())
            cases += 1
    assert cases > 5_000


def test_pots_across_betting_rounds():
    """Round 1: A all-in for 100, B and C call; round 2: B all-in for 200 more, C calls 400 (B's
    excess over nothing left: C alone above -> returned 200)."""
    first = pots.gather(30, [100, 100, 100], [True, False, False], [True] * 3, [False] * 3)
    assert [(p.amount, p.level) for p in first.pots] == [(330, 100)] and first.carried == 0
    second = pots.gather(first.carried, [0, 200, 400], [False, True, False], [False, True, True], [False] * 3)
    assert [(p.amount, p.level) for p in second.pots] == [(400, 200)] and second.returned == {2: 200}
    everything = first.pots + second.pots
    s = pots.settle(everything, second.carried, {0: 3, 1: 2, 2: 1}, clockwise=[0, 1, 2], r=R)
    assert s.paid == {0: 314, 1: 380}                 # A: 330 x 0.95 -> 313.5 -> 314; B: 400 x 0.95
    assert sum(s.paid.values()) + s.house == 730


# ------------------------------------------------------------ Hi-Lo 8 --

def test_hilo_halves_round_the_high_up_and_the_low_down():
    """9-13-イ, ハ-(2), (3): prize 1001 x 0.95 = 950.95 -> 951; high 476, low 475."""
    s = pots.settle_hilo([], 1001, {0: 9, 1: 1}, {0: 0, 1: 5}, high_first=[0, 1], low_first=[1, 0], r=R)
    assert (s.high, s.low, s.prizes, s.house) == ({0: 476}, {1: 475}, (951,), 50)
    scoop = pots.settle_hilo([], 1001, {0: 9, 1: 1}, {0: 7, 1: 5}, high_first=[0, 1], low_first=[0, 1], r=R)
    assert scoop.paid == {0: 951}


def test_hilo_without_a_low_the_high_takes_the_whole_prize():
    """9-12-イ-(2)-(四), 9-13-ハ-(2): nobody has a low, so no low half."""
    s = pots.settle_hilo([], 1001, {0: 9, 1: 1}, {0: 0, 1: 0}, high_first=[0, 1], low_first=[0, 1], r=R)
    assert (s.high, s.low) == ({0: 951}, {})


def test_hilo_tied_lows_quarter_and_the_odd_yen_follow_the_suit_rule():
    """9-13-ロ: 475 / 2 = 237.5 each; the odd yen to the low first in low_first (clubs before spades)."""
    s = pots.settle_hilo([], 1001, {0: 9, 1: 1, 2: 1}, {0: 0, 1: 5, 2: 5}, high_first=[0, 1, 2],
                         low_first=[2, 1, 0], r=R)
    assert (s.high, s.low) == ({0: 476}, {1: 237, 2: 238})
    assert sum(s.paid.values()) + s.house == 1001


def test_hilo_all_in_pot_whole_to_the_high_when_no_low_reaches_it():
    """13-ハ-(4): A all-in for 100 wins the high of his pot; the low winner C is not all-in,
    so his low reaches every pot; a second deal where only A-level customers lack a low."""
    g = pots.gather(0, [100, 300, 300], [True, False, False], [True] * 3, [False] * 3)
    assert [p.amount for p in g.pots] == [300] and g.carried == 400
    s = pots.settle_hilo(g.pots, g.carried, {0: 9, 1: 5, 2: 1}, {0: 0, 1: 0, 2: 3}, [0, 1, 2], [2, 1, 0], R)
    assert s.prizes == (285, 380)
    # pot 285: high 143 to A, low 142 to C; main 380: high 190 to B, low 190 to C
    assert (s.high, s.low) == ({0: 143, 1: 190}, {2: 332})
    s = pots.settle_hilo(g.pots, g.carried, {0: 9, 1: 5, 2: 1}, {0: 0, 1: 0, 2: 0}, [0, 1, 2], [2, 1, 0], R)
    assert (s.high, s.low) == ({0: 285, 1: 380}, {})


def _merged_layers(contributions, folded):
    """The side-pot layers of the usual rule, layers with the same eligible customers merged
    (the seed gathers them into one pot): [(amount, eligible)]."""
    layers: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in sorted(set(contributions)):
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(i for i, c in enumerate(contributions) if c >= level and not folded[i])
        if layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + amount, eligible)
        elif amount:
            layers.append((amount, eligible))
        previous = level
    return layers


def _hilo_reference(contributions, folded, high, low, r):
    """The usual Hi-Lo side-pot rule: each layer's prize (layer x r, rounded up) is halved, the
    low half (rounded down) to the best low among its eligible customers, the high half to the best
    high; no low among them, the high takes it all; ties split.  Exact amounts per half."""
    out_high: dict[int, Fraction] = {}
    out_low: dict[int, Fraction] = {}
    for amount, eligible in _merged_layers(contributions, folded):
        p = pots.prize(amount, r)
        lows = [i for i in eligible if low[i]]
        parts = [(out_high, high, eligible, p - p // 2 if lows else p)] + ([(out_low, low, lows, p // 2)] if lows else [])
        for out, values, who, half in parts:
            best = max(values[i] for i in who)
            winners = [i for i in who if values[i] == best]
            for i in winners:
                out[i] = out.get(i, Fraction(0)) + Fraction(half, len(winners))
    return out_high, out_low


@pytest.mark.parametrize("n, lows, least", [(3, (0, 1), 1_000),
                                             pytest.param(4, (0, 1), 100_000, marks=pytest.mark.slow),
                                             pytest.param(4, (0, 1, 2), 500_000, marks=pytest.mark.slow)],
                         ids=["three-customers", "four-customers", "four-customers-two-lows"])
def test_every_small_hilo_showdown_conserves_chips_and_agrees_with_the_side_pot_rule(n, lows, least):
    """Every end of a betting round and every high (2 ranks) and low (none or ranked) of each customer."""
    cases = 0
    for stakes, all_in, folded in _rounds(n):
        g = pots.gather(0, list(stakes), list(all_in), [True] * n, list(folded))
        contributions = [s - g.returned.get(i, 0) for i, s in enumerate(stakes)]
        live = [i for i in range(n) if not folded[i]]
        for ranked in itertools.product(itertools.product((0, 1), lows), repeat=len(live)):
            high = {i: h for i, (h, _) in zip(live, ranked)}
            low = {i: v for i, (_, v) in zip(live, ranked)}
            prizes = [pots.prize(p.amount, R) for p in g.pots]
            exact = pots.hilo_shares(g.pots, g.carried, high, low, prizes, pots.prize(g.carried, R))
            expected = _hilo_reference(contributions, folded, high, low, R)
            assert exact == expected, (stakes, all_in, folded, high, low)
            s = pots.settle_hilo(g.pots, g.carried, high, low, live, live[::-1], R)
            assert sum(s.paid.values()) + s.house + sum(g.returned.values()) == sum(stakes)
            assert all(s.high[i] >= math.floor(a) for i, a in exact[0].items())
            cases += 1
    assert cases > least


def test_hilo_showdown_from_the_cards_and_the_suit_rule_for_the_odd_yen():
    """9-8-イ-(1), 9-11, 9-13-ロ: both customers make the wheel high and 5-4-3-2-A low; the
    strongest card (3-2 proviso: the ace) decides each half's odd yen by suit -- spades first
    for the high (customer 0's AS), clubs first for the low (customer 1's AC)."""
    board = ph.parse("2C 3D 4H 9S KC")
    shown = ph.omaha_showdown({0: ph.parse("AS 5S QD QH"), 1: ph.parse("AC 5D JD JH")}, board)
    assert shown.high[0] == shown.high[1] and ph.category_name(shown.high[0]) == "straight"
    assert shown.low[0] == shown.low[1] == int(ph.rank([ph.parse("AS 2D 3C 4H 5S")], "low8")[0])
    assert (shown.high_first, shown.low_first) == ((0, 1), (1, 0))
    s = pots.settle_hilo([], 1001, shown.high, shown.low, shown.high_first, shown.low_first, R)
    assert (s.high, s.low) == ({0: 238, 1: 238}, {0: 237, 1: 238})  # 476 / 2; 475 / 2 = 237.5


def test_hilo_showdown_agrees_with_the_evaluator():
    rng = np.random.default_rng(13)  # test data only
    for _ in range(20):
        cards = rng.permutation(52)[:13].tolist()
        holes = {0: cards[:4], 1: cards[4:8]}
        shown = ph.omaha_showdown(holes, cards[8:])
        for i, hole in holes.items():
            assert shown.high[i] == int(ph.rank([hole + cards[8:]], "omaha-hi")[0])
            assert shown.low[i] == int(ph.rank([hole + cards[8:]], "omaha-lo")[0])
