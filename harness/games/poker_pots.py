"""Pots of the player-versus-player poker games (000 別表第1 第3 9, 10, 11):
all-in pots, the showdown's order, the house's share and the odd yen, as
the seed states them.

Source: ``000_d4cd2a3cb5c95429.txt`` L1707-1779 (Omaha 9-7 all-in, 9-8
showdown, 9-9 payment; Texas Hold'em applies them, 第3 10; tournaments,
11-5); digest ``rules/poker.md`` §8.3-8.5, §9, §10.  The original wins where
they differ.  Every amount is whole yen; shares are exact fractions until
the seed truncates or rounds them.

* 9-7-ロ: a betting round with an all-in gathers, instead of one pot, one
  pot per all-in level (smallest first, equal levels together): the pot
  gathered before the round (first level only) plus every customer's stake
  this round up to the level, less the pots of the levels below; if every
  customer who held the option at the start of the round went all-in, the
  largest level is not processed unless two or more share it; above the
  last level processed, one customer's excess is returned to him and two or
  more customers' excess is the pot carried to the next round.
* 9-8: the customers who are not all-in contend for the pot carried last
  (or, when it is 0, they and the last all-in customer processed contend
  for all the all-in pots, 8-ロ); then each all-in customer, the most
  recently processed first, wins when his hand is at least the strongest
  shown so far.
* 9-9-イ: each pot's prize is pot x r, 0.90 <= r < 1 (the operator's), rounded
  up to the yen; 9-9-ハ: a winner takes his pot's prize and the prizes of
  the pots below, less what later winners take, split with the winners of
  equal hands before him; 9-9-ロ: each amount truncated to the yen, the
  truncated yen paid to the winner nearest clockwise from the customer to
  the right of the small blind.
* 11-5: a tournament's prize pool is the pooled entry stakes x r,
  0.70 <= r < 1.

Readings where the seed is silent or unclear (digest §8.5, §11): the
customer to the right of the small blind counts as the nearest when he won;
all-in customers processed together show together, and "the strongest
shown so far" includes one another's hands, so only the best of them wins
(equal hands split), as in poker.

* 9-12, 9-13 (Hi-Lo 8 or better): the high and the low are decided apart,
  each as 9-8 decides the pot (a customer without a low loses the low);
  each prize's high half is half of it rounded up, its low half half of it
  rounded down, and a prize no low winner reaches goes whole to the high;
  each half's truncated yen go to its best hand, equal hands by the suit of
  their strongest card (spades first for the high, clubs first for the low).
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Sequence

SOURCE = "000 別表第1 第3 9"

# The operator's shares, each a rule of the seed.
POT_SHARE = (Fraction(90, 100), Fraction(1), f"{SOURCE} 9-9-イ")            # 0.90 <= r < 1
TOURNAMENT_SHARE = (Fraction(70, 100), Fraction(1), "000 別表第1 第3 11-5")  # 0.70 <= r < 1


def check_share(r: Fraction, rule: tuple[Fraction, Fraction, str] = POT_SHARE) -> Fraction:
    """``r`` as a fraction if the rule allows it (low <= r < high); ValueError naming the rule otherwise."""
    r = Fraction(r)
    low, high, source = rule
    if not low <= r < high:
        raise ValueError(f"the share r = {r} is outside {float(low):.2f} <= r < {float(high):.0f} ({source})")
    return r


@dataclasses.dataclass(frozen=True)
class Pot:
    """A pot gathered at an all-in level (or, ``level`` None, the pot carried from the last round)."""

    amount: int
    level: int | None
    all_in: tuple[int, ...]    # the customers (seat indices) whose all-in it is


@dataclasses.dataclass(frozen=True)
class Gathered:
    """What a betting round's gathering leaves: the all-in pots it made (in processing
    order), the pot carried to the next round and the stakes returned to customers."""

    pots: tuple[Pot, ...]
    carried: int
    returned: dict[int, int]


def gather(carried: int, stakes: Sequence[int], all_in: Sequence[bool], had_option: Sequence[bool],
           folded: Sequence[bool]) -> Gathered:
    """Gather one betting round (9-3-ニ, 9-4-ニ, 9-7-ロ).

    Parameters
    ----------
    carried : int
        The pot gathered at the end of the previous betting round (0 if none).
    stakes : sequence of int
        Each customer's cumulative stake in this round (folded customers' included).
    all_in : sequence of bool
        Whether each customer went all-in in this round.
    had_option : sequence of bool
        Whether each customer held the option at the start of the round (7-ロ-(3)).
    folded : sequence of bool
        Whether each customer has folded.
    """
    n = len(stakes)
    if not (len(all_in) == len(had_option) == len(folded) == n) or carried < 0 or min(stakes, default=0) < 0:
        raise ValueError("gather: one stake, all-in flag, option flag and fold flag per customer; no negative amount")
    levels = sorted({stakes[i] for i in range(n) if all_in[i]})
    if not levels:
        return Gathered((), carried + sum(stakes), {})
    holders = [i for i in range(n) if had_option[i] and not folded[i]]
    if holders and all(all_in[i] for i in holders):  # 7-ロ-(3): the largest alone is not processed
        top = [i for i in holders if stakes[i] == levels[-1]]
        if len(top) == 1:
            levels = levels[:-1]
    if not levels:  # only the largest all-in, unprocessed: its stake above every other is returned (reading)
        top = max(range(n), key=lambda i: stakes[i])
        excess = stakes[top] - max((stakes[i] for i in range(n) if i != top), default=0)
        return Gathered((), carried + sum(stakes) - excess, {top: excess} if excess else {})
    pots: list[Pot] = []
    below = 0
    for k, level in enumerate(levels):
        amount = (carried if k == 0 else 0) + sum(min(s, level) for s in stakes) - below
        pots.append(Pot(amount, level, tuple(i for i in range(n) if all_in[i] and stakes[i] == level)))
        below += amount - (carried if k == 0 else 0)
    over = [i for i in range(n) if stakes[i] > levels[-1]]
    if len(over) == 1:                                            # 7-ロ-(4)-(一)
        return Gathered(tuple(pots), 0, {over[0]: stakes[over[0]] - levels[-1]})
    return Gathered(tuple(pots), sum(stakes[i] - levels[-1] for i in over), {})  # 7-ロ-(4)-(二)


@dataclasses.dataclass(frozen=True)
class Settlement:
    """Who is paid what (yen), the house's share and the prize of each pot."""

    paid: dict[int, int]
    house: int
    prizes: tuple[int, ...]


def prize(pot: int, r: Fraction | None) -> int:
    """9-9-イ: pot x r rounded up to the yen; ``r`` None: the pot itself (a tournament's
    game, 11-3-ハ, which excludes 9-9-イ and 13-イ)."""
    return pot if r is None else math.ceil(Fraction(pot) * r)


def _share(r: Fraction | None) -> Fraction | None:
    return None if r is None else check_share(r)


def _truncated(amounts: dict[int, Fraction], unit: int) -> dict[int, int]:
    """Each amount truncated to a whole number of ``unit`` (9-9-ロ, 13-ロ: the yen; in a
    tournament's game the smallest tournament chip, 11-3-ハ)."""
    return {i: math.floor(a / unit) * unit for i, a in amounts.items()}


def settle(pots: Sequence[Pot], carried: int, hands: dict[int, int], clockwise: Sequence[int],
           r: Fraction, unit: int = 1) -> Settlement:
    """Decide and pay every pot (9-8, 9-9).

    Parameters
    ----------
    pots : sequence of Pot
        Every all-in pot of the round, in processing order (earlier rounds first).
    carried : int
        The pot carried at the end of the last betting round (the main pot).
    hands : dict
        Hand value (larger wins, equal ties) of every customer who has not folded.
    clockwise : sequence of int
        The customers clockwise from the customer to the right of the small
        blind (9-9-ロ's odd yen go to the first winner in this order).
    r : Fraction or None
        The operator's share, 0.90 <= r < 1 (9-9-イ); None in a tournament's
        game, which pays the whole pot (11-3-ハ).
    unit : int
        What a share is truncated to: 1 yen (9-9-ロ), or in a tournament's
        game the smallest tournament chip's points (11-3-ハ reads "1 yen" so).
    """
    r = _share(r)
    prizes = [prize(p.amount, r) for p in pots]
    amounts = shares(pots, carried, hands, prizes, prize(carried, r))
    paid = _truncated(amounts, unit)
    odd = sum(amounts.values(), Fraction(0)) - sum(paid.values())
    if amounts:
        first = next(i for i in clockwise if i in amounts)   # 9-9-ロ
        paid[first] += int(odd)
    total = carried + sum(p.amount for p in pots)
    return Settlement(paid, total - sum(paid.values()), tuple(prizes) + (prize(carried, r),))


def _decided(pots: Sequence[Pot], carried: int, hands: dict[int, int]) -> list[tuple[list[int], int | None]]:
    """The winners of 9-8 (9-12 for each half) group by group, in the order they are
    decided, each with the last all-in pot its amount reaches (None: the main contest,
    whose amount reaches every pot).  A customer absent from ``hands`` (folded, or
    without a low for the low half) cannot win."""
    all_in = {i for p in pots for i in p.all_in}
    last = pots[-1].all_in if pots else ()
    # The main contest: 8-イ over the customers not all-in, or 8-ロ with the last all-in processed.
    contenders = [i for i in hands if i not in all_in]
    remaining = list(pots)
    if not carried:
        contenders += [i for i in last if i in hands]
        remaining = list(pots[:-1])
    levels = {i: k for k, p in enumerate(pots) for i in p.all_in}
    shown: list[int] = []
    decided: list[tuple[list[int], int | None]] = []
    if contenders:
        best = max(hands[i] for i in contenders)
        decided.append(([i for i in contenders if hands[i] == best], None))
        shown.append(best)
    # 8-イ-(3): the all-in customers, the most recently processed first.
    for pot in reversed(remaining):
        here = [i for i in pot.all_in if i in hands]
        if not here:
            continue
        strongest = max([hands[i] for i in here] + shown)
        group = [i for i in here if hands[i] == strongest]
        shown.append(max(hands[i] for i in here))
        if group:
            decided.append((group, levels[group[0]]))
    return decided


def shares(pots: Sequence[Pot], carried: int, hands: dict[int, int], prizes: Sequence[int],
           main_prize: int) -> dict[int, Fraction]:
    """Each winner's exact amount (9-8, 9-9-ハ) of the given prizes (one per all-in pot, and the main pot's)."""
    decided = _decided(pots, carried, hands)
    # 9-9-ハ: amounts from the last decided winner back to the first.
    amounts: dict[int, Fraction] = {}
    later = Fraction(0)
    for g in range(len(decided) - 1, -1, -1):
        group, reach = decided[g]
        if reach is None:
            base = Fraction((main_prize if carried else 0) + sum(prizes, 0))
            share = (base - later) / len(group)          # 9-9-ハ-(1), (2), (4)
        else:
            equal_before = sum(1 for h in range(g) for i in decided[h][0] if hands[i] == hands[group[0]])
            base = Fraction(sum(prizes[:reach + 1]))
            share = (base - later) / (len(group) + equal_before)  # 9-9-ハ-(3)
        for i in group:
            amounts[i] = amounts.get(i, Fraction(0)) + share
        later += share * len(group)
    return amounts


# ------------------------------------------------------------ Hi-Lo 8 --

@dataclasses.dataclass(frozen=True)
class HiLoSettlement:
    """A Hi-Lo settlement (9-13): who is paid what for each half, the house's share, each pot's prize."""

    high: dict[int, int]
    low: dict[int, int]
    house: int
    prizes: tuple[int, ...]

    @property
    def paid(self) -> dict[int, int]:
        """Each customer's total: both halves."""
        return {i: self.high.get(i, 0) + self.low.get(i, 0) for i in {*self.high, *self.low}}


def hilo_shares(pots: Sequence[Pot], carried: int, high: dict[int, int], low: dict[int, int], prizes: Sequence[int],
                main_prize: int, unit: int = 1) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Each winner's exact amount of the high half and of the low half (9-12, 9-13-ハ).

    Each prize's low half is half of it rounded down (to a whole ``unit``, as
    :func:`settle`), its high half the rest (rounded up); a prize that no low winner's amount reaches goes whole to
    the high (13-ハ-(2), (4), (6): "the whole prize" when no customer wins
    the low of it).  ``low`` holds the low values of the customers who have
    a low (9-11); the others lose the low (12-イ-(2)-(四)).
    """
    lows = {i: v for i, v in low.items() if v}
    reach = [r for _, r in _decided(pots, carried, lows)]
    top = len(pots) if None in reach else max((r + 1 for r in reach), default=0)  # pots the low reaches
    main_used = None in reach and bool(carried)
    low_prizes = [p // (2 * unit) * unit for p in prizes]
    high_prizes = [p - lo if k < top else p for k, (p, lo) in enumerate(zip(prizes, low_prizes))]
    low_main = main_prize // (2 * unit) * unit
    high_main = main_prize - low_main if main_used else main_prize
    return (shares(pots, carried, high, high_prizes, high_main),
            shares(pots, carried, lows, low_prizes, low_main))


def settle_hilo(pots: Sequence[Pot], carried: int, high: dict[int, int], low: dict[int, int],
                high_first: Sequence[int], low_first: Sequence[int], r: Fraction, unit: int = 1) -> HiLoSettlement:
    """Decide and pay every pot of Omaha Hi-Lo 8 or better (9-12, 9-13).

    Parameters
    ----------
    pots, carried, r
        As for :func:`settle` (13-イ: the prizes are those of 9-9-イ).
    high, low : dict
        The high value (9-8-イ-(1)) and the low value (9-11; 0 = no low) of
        every customer who has not folded.
    high_first, low_first : sequence of int
        The customers in the order 13-ロ gives the truncated yen of each half:
        the best high (low) hand first, equal hands by the suit of their
        strongest card (:func:`harness.games.poker_hands.omaha_odd_chip_order`).
    unit : int
        As for :func:`settle`.
    """
    r = _share(r)
    prizes = [prize(p.amount, r) for p in pots]
    main_prize = prize(carried, r)
    exact = hilo_shares(pots, carried, high, low, prizes, main_prize, unit)
    halves = []
    for amounts, first in zip(exact, (high_first, low_first)):
        paid = _truncated(amounts, unit)
        odd = sum(amounts.values(), Fraction(0)) - sum(paid.values())
        if amounts:  # 13-ロ: the half's truncated yen to its best hand
            paid[next(i for i in first if i in amounts)] += int(odd)
        halves.append(paid)
    total = carried + sum(p.amount for p in pots)
    return HiLoSettlement(halves[0], halves[1], total - sum(halves[0].values()) - sum(halves[1].values()),
                          tuple(prizes) + (main_prize,))
