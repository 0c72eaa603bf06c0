"""Pots of the player-versus-player games (000 別表第1 第3 9-7 .. 9-9, 11-5):
constructed all-in and side-pot rounds, the house's share and the odd yen,
and every small showdown checked against the usual side-pot rule and for
conservation of chips."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from harness.games import poker_pots as pots

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


def _rounds():
    """Every end of a betting round for four customers: stakes 1..3, all-in or calling the
    largest stake, folded customers no higher than the smallest stake still in."""
    for stakes in itertools.product((1, 2, 3), repeat=4):
        for all_in in itertools.product((False, True), repeat=4):
            for folded in itertools.product((False, True), repeat=4):
                live = [i for i in range(4) if not folded[i]]
                callers = [i for i in live if not all_in[i]]
                if len(live) < 2 or any(all_in[i] and folded[i] for i in range(4)):
                    continue
                top = max(stakes[i] for i in live)
                if any(stakes[i] != top for i in callers):
                    continue
                if any(stakes[i] > min(stakes[j] for j in live) for i in range(4) if folded[i]):
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
