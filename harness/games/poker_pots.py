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
(equal hands split), as in poker.  The Hi-Lo split (9-13) is not built here.
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


def prize(pot: int, r: Fraction) -> int:
    """9-9-イ: pot x r rounded up to the yen."""
    return math.ceil(Fraction(pot) * r)


def settle(pots: Sequence[Pot], carried: int, hands: dict[int, int], clockwise: Sequence[int],
           r: Fraction) -> Settlement:
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
    r : Fraction
        The operator's share, 0.90 <= r < 1 (9-9-イ).
    """
    r = check_share(r)
    prizes = [prize(p.amount, r) for p in pots]
    amounts = shares(pots, carried, hands, prizes, prize(carried, r))
    paid = {i: math.floor(a) for i, a in amounts.items()}
    odd = sum(amounts.values(), Fraction(0)) - sum(paid.values())
    if amounts:
        first = next(i for i in clockwise if i in amounts)   # 9-9-ロ
        paid[first] += int(odd)
    total = carried + sum(p.amount for p in pots)
    return Settlement(paid, total - sum(paid.values()), tuple(prizes) + (prize(carried, r),))


def shares(pots: Sequence[Pot], carried: int, hands: dict[int, int], prizes: Sequence[int],
           main_prize: int) -> dict[int, Fraction]:
    """Each winner's exact amount (9-8, 9-9-ハ) of the given prizes (one per all-in pot, and the main pot's)."""
    all_in = {i for p in pots for i in p.all_in}
    # The main contest: 8-イ over the customers not all-in, or 8-ロ with the last all-in processed.
    last = pots[-1].all_in if pots else ()
    if carried:
        contenders = [i for i in hands if i not in all_in]
        pool_prize = main_prize
        remaining = list(pots)
    else:
        contenders = [i for i in hands if i not in all_in] + [i for i in last if i in hands]
        pool_prize = 0
        remaining = list(pots[:-1]) if pots else []
    shown: list[int] = []
    decided: list[list[int]] = []   # the winners, group by group, in the order they are decided
    if contenders:
        best = max(hands[i] for i in contenders)
        decided.append([i for i in contenders if hands[i] == best])
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
            decided.append(group)
    # 9-9-ハ: amounts from the last decided winner back to the first.
    levels = {i: k for k, p in enumerate(pots) for i in p.all_in}
    total_all_in = sum(prizes, 0)
    amounts: dict[int, Fraction] = {}
    later = Fraction(0)
    for g in range(len(decided) - 1, -1, -1):
        group = decided[g]
        if g == 0 and contenders and group[0] in contenders:
            base = Fraction(pool_prize + total_all_in)
            share = (base - later) / len(group)          # 9-9-ハ-(1), (2), (4)
        else:
            k = levels[group[0]]
            equal_before = sum(1 for h in range(g) for i in decided[h] if hands[i] == hands[group[0]])
            base = Fraction(sum(prizes[:k + 1]))
            share = (base - later) / (len(group) + equal_before)  # 9-9-ハ-(3)
        for i in group:
            amounts[i] = amounts.get(i, Fraction(0)) + share
        later += share * len(group)
    return amounts
