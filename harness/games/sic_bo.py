"""Sic Bo, Japan's pay table (000 別表第1 第6), as data.

Three dice; each of the 216 ordered outcomes has probability 1/216 (000 第6
10-2, 10-3).  Base bets 3-3-イ..チ with outcomes 5-2 and odds 6-2; the
optional bets of 7-1 (odd and even together, the four-number combinations,
the three-dice combinations) with outcomes 7-2 and odds 7-3.

Features a row may test are those of :func:`harness.games.dice.dice_features`.
"""
from __future__ import annotations

import itertools

from harness.games.base import CategoricalGame
from harness.games.core import BetRule, Where, odds, rows
from harness.games.etable import ETable
from harness.games.dice import SIDES, dice_space, ordered_features

SOURCE = "000 別表第1 第6"

# 000 第6 6-2-ニ (1)-(7): odds of the total bets.
TOTAL_ODDS = {4: 62, 17: 62, 5: 31, 16: 31, 6: 18, 15: 18, 7: 12, 14: 12, 8: 8, 13: 8, 9: 7, 12: 7, 10: 6, 11: 6}

# 000 第6 3-3-ヘ: the 15 two-dice combinations.
PAIRS = tuple(itertools.combinations(range(1, 7), 2))

# 000 第6 7-1-ハ: the four four-number combinations.
FOUR_NUMBER_SETS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6), (2, 3, 5, 6))

AT_LEAST_ONE = range(1, 4)
AT_LEAST_TWO = range(2, 4)


def _three_of(numbers: tuple[int, ...]) -> frozenset:
    """The sets of three different faces drawn from ``numbers``."""
    return frozenset(frozenset(c) for c in itertools.combinations(numbers, 3))


def _bets() -> tuple[BetRule, ...]:
    bets = [
        BetRule("small", f"{SOURCE} 3-3-イ, 5-2-イ, 6-2-イ",
                rows(("win", Where(total=range(4, 11), all_same=False), odds(1)))),
        BetRule("big", f"{SOURCE} 3-3-ロ, 5-2-ロ, 6-2-ロ",
                rows(("win", Where(total=range(11, 18), all_same=False), odds(1)))),
        # 7-1-イ/ロ: optional, offered together.
        BetRule("odd", f"{SOURCE} 7-1-イ, 7-2-イ, 7-3-イ (optional)",
                rows(("win", Where(total=frozenset(range(3, 19, 2)), all_same=False), odds(1)))),
        BetRule("even", f"{SOURCE} 7-1-ロ, 7-2-ロ, 7-3-ロ (optional)",
                rows(("win", Where(total=frozenset(range(4, 19, 2)), all_same=False), odds(1)))),
    ]
    for n in range(1, 7):  # 3-3-ハ, 6-2-ハ (1)-(3): 1, 2, 12 to 1
        count = f"count_{n}"
        bets.append(BetRule(f"single_{n}", f"{SOURCE} 3-3-ハ, 5-2-ハ, 6-2-ハ", rows(
            ("three_dice", Where(**{count: 3}), odds(12)),
            ("two_dice", Where(**{count: 2}), odds(2)),
            ("one_die", Where(**{count: 1}), odds(1)),
        )))
    for total, pays in sorted(TOTAL_ODDS.items()):  # 3-3-ニ: triples are not excluded
        bets.append(BetRule(f"total_{total}", f"{SOURCE} 3-3-ニ, 5-2-ニ, 6-2-ニ",
                            rows(("win", Where(total=total), odds(pays)))))
    for n in range(1, 7):  # 3-3-ホ: at least two dice show n
        bets.append(BetRule(f"double_{n}", f"{SOURCE} 3-3-ホ, 5-2-ホ, 6-2-ホ",
                            rows(("win", Where(**{f"count_{n}": AT_LEAST_TWO}), odds(11)))))
    for a, b in PAIRS:  # 3-3-ヘ: two of the dice show a and b; pays once
        bets.append(BetRule(f"combination_{a}_{b}", f"{SOURCE} 3-3-ヘ, 5-2-ヘ, 6-2-ヘ",
                            rows(("win", Where(**{f"count_{a}": AT_LEAST_ONE, f"count_{b}": AT_LEAST_ONE}), odds(6)))))
    bets.append(BetRule("any_triple", f"{SOURCE} 3-3-ト, 5-2-ト, 6-2-ト",
                        rows(("win", Where(all_same=True), odds(31)))))
    for n in range(1, 7):
        bets.append(BetRule(f"triple_{n}", f"{SOURCE} 3-3-チ, 5-2-チ, 6-2-チ",
                            rows(("win", Where(**{f"count_{n}": 3}), odds(180)))))
    for numbers in FOUR_NUMBER_SETS:  # 7-1-ハ: three different numbers of the four
        name = "four_number_" + "_".join(map(str, numbers))
        bets.append(BetRule(name, f"{SOURCE} 7-1-ハ, 7-2-ハ, 7-3-ハ (optional)",
                            rows(("win", Where(distinct=True, faces=_three_of(numbers)), odds(7))),
                            note="reading: the three dice show three different numbers of the four "
                                 "(a doubled number is not 'three of the four numbers')"))
    for dice in itertools.combinations_with_replacement(range(1, 7), 3):  # 7-1-ニ: no triples
        if len(set(dice)) == 1:
            continue
        pays = odds(50) if len(set(dice)) == 2 else odds(30)
        bets.append(BetRule("three_dice_" + "_".join(map(str, dice)), f"{SOURCE} 7-1-ニ, 7-2-ニ, 7-3-ニ (optional)",
                            rows(("win", Where(dice=dice), pays))))
    return tuple(bets)


BETS: tuple[BetRule, ...] = _bets()


class SicBoGame(CategoricalGame):
    name = "sic-bo"
    summary = "three dice: small/big, totals, doubles, triples, combinations, optional bets"
    rules = SOURCE
    devices = "dice:3"
    etable = ETable("000 別表第1 第6 10-3", ("standard",), None,
                    "000 別表第1 第6 10 (L2605): the bets of 3-3-イ-チ and, as additional bets, only 7-1-イ-ニ",
                    "item 4 (the shaker roll) is finished", "000 別表第1 第6 11-1")

    def bets(self, variant):
        return BETS

    def outcome_features(self, variant):
        return list(ordered_features(3))

    def exact_space(self, variant):
        return dice_space(3)[0]

    def device(self, variant):
        return "dice:3", SIDES, 3, None

    def parameters(self, variant):
        return {"dice": 3, "outcomes": SIDES**3}

    def outcome_label(self, variant, index, features):
        return "-".join(str(d) for d in features["dice"])

    def note(self, variant):
        return "000 別表第1 第6: base bets 3-3 and the optional bets of 7-1 (odd/even, four-number, three-dice)"


GAMES = (SicBoGame(),)
