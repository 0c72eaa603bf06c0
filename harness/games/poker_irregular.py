"""Irregularities of the player-versus-player poker games (000 別表第1 第3 9-14, applied
to Texas Hold'em by 第3 10 and to a tournament's games by 11-3-ハ, ニ without 14-ロ, ハ):
each event and its measure as a table entry, those that change the deal or the
settlement applied by the engine.

Source: ``000_d4cd2a3cb5c95429.txt`` L1851-1879 (digest ``rules/poker.md`` §8.7;
the original wins).

Before the stakes are gathered (9-14-イ) the dealer's measures change which
cards are dealt or void the round; :func:`deal` gives the deck positions
every hole and board card comes from after them, or the rule that voids the
round (its result "did not occur": every stake is returned).  After the
gathering (9-14-ロ) the operator's measures move money between the
customers and the house; :func:`late_stake`, :func:`reduced_stake`,
:func:`void_after_payment` and :func:`wrong_payment` give each party's
change, which always sums to zero.

Readings: an exposed or face-up card is named by its deck position (the
order cards leave the shoe, as :mod:`harness.games.poker_table` deals: hole
cards one at a time clockwise from the small blind, then burn, flop, burn,
turn, burn, river); a card turned up by the dealer after the hole deal
(9-14-イ-(5)) is replaced by the next card of the shoe, the board following
it; with several winners a 9-14-ロ amount is shared equally, exactly (the
seed names "the winning customer" only).  9-14-ロ-(1), (2) read literally:
the winner repays (or is paid) X - X x r for a stake X added (or taken
back) after the gathering, r the rate of 9-9-イ, although the winner's own
gain from X is X x r (digest §8.7 flags the formula as looking inverted;
the original wins).  The seed states no rounding for these amounts: they
are exact fractions of a yen.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Sequence

SOURCE = "000 別表第1 第3 9-14"

#: Every event of 9-14 and its measure; ``applied``: how the engine takes it.
MEASURES = {
    "stake-out-of-turn": (f"{SOURCE}-イ-(1)", "a stake placed, raised or reduced against 9: returned or put back",
                          "refused: the engine accepts no stake 9 does not allow (poker_table raises)"),
    "improper-card": (f"{SOURCE}-イ-(2)", "an improper card drawn, an empty shoe, a wrong number of hole or "
                      "community cards: the round's result did not occur", "void"),
    "face-up-draw": (f"{SOURCE}-イ-(3)", "a card drawn face up: the round's first is a used card (the next card "
                     "dealt in its place), any later one voids the round", "deal"),
    "misdrawn": (f"{SOURCE}-イ-(4)", "a card drawn against 9: not turned up, it is the next card dealt; turned "
                 "up, the round's result did not occur", "deal unchanged / void"),
    "exposed-by-dealer": (f"{SOURCE}-イ-(5)", "the dealer turns up a card before the customer touched his hand: "
                          "one card is a used card and a new one is dealt; two or more void the round", "deal"),
    "no-burn": (f"{SOURCE}-イ-(6)", "community cards dealt without a card burnt first: with no decision since, "
                "the first of them is the burn and one more is dealt; otherwise the round is void", "deal"),
    "cannot-continue": (f"{SOURCE}-イ-(7)", "any other event that stops the game being played as 9 says: the "
                        "round's result did not occur", "void"),
    "late-stake": (f"{SOURCE}-ロ-(1)", "after the gathering, a stake found placed or raised against 9: X - X x r "
                   "collected from the winner, X returned to the customer", "late_stake()"),
    "reduced-stake": (f"{SOURCE}-ロ-(2)", "after the gathering, a stake found reduced by X: X collected from the "
                      "customer, X - X x r paid to the winner", "reduced_stake()"),
    "improper-card-found": (f"{SOURCE}-ロ-(3)", "after the gathering, an improper card found: the round's result "
                            "did not occur, every stake returned and every winning collected back",
                            "void_after_payment()"),
    "wrong-payment": (f"{SOURCE}-ロ-(4)", "a winning paid against 9: the excess collected, the shortfall paid",
                      "wrong_payment()"),
    "unfinished": (f"{SOURCE}-ハ", "a 14-ロ measure that cannot be completed (the customer cannot be identified "
                   "or is absent): the operator records and keeps it", "operator procedure (a record)"),
}


@dataclasses.dataclass(frozen=True)
class Irregularity:
    """What went wrong in one round before the gathering (9-14-イ).

    Attributes
    ----------
    face_up : tuple of int
        Deck positions of cards drawn face up during the hole deal (イ-(3)).
    exposed : tuple of int
        Hole cards the dealer turned up after the deal before their customer
        touched them, as indices into the hole deal (0: the first card dealt; イ-(5)).
    no_burn : str or None
        The street (``"flop"``, ``"turn"``, ``"river"``) dealt without its burn (イ-(6)).
    decided_since : bool
        A customer made a choice after that street was dealt (イ-(6): then void).
    void : str or None
        A :data:`MEASURES` key of an event that voids the round outright
        (``"improper-card"``, ``"misdrawn"`` turned up, ``"cannot-continue"``).
    """

    face_up: tuple[int, ...] = ()
    exposed: tuple[int, ...] = ()
    no_burn: str | None = None
    decided_since: bool = False
    void: str | None = None

    def __post_init__(self):
        if self.void is not None and MEASURES.get(self.void, ("", "", ""))[2] not in ("void", "deal unchanged / void"):
            raise ValueError(f"{self.void!r} is not an event of 9-14-イ that voids a round")
        if self.no_burn not in (None, "flop", "turn", "river"):
            raise ValueError(f"no_burn names a street (flop, turn, river), got {self.no_burn!r}")


@dataclasses.dataclass(frozen=True)
class Deal:
    """Where each card comes from after the measures, or the rule that voids the round."""

    holes: dict[int, list[int]]
    board: list[int]
    measures: tuple[str, ...]      # the rules applied, in order
    void: str | None = None        # the rule that voids the round


def deal(seats: int, hole: int, small_blind: int, irregularity: Irregularity | None = None) -> Deal:
    """Deck positions of each seat's hole cards and of the five board cards.

    Without an irregularity: one card at a time clockwise from the small
    blind, then burn 3 / burn 1 / burn 1 (the reading of
    :mod:`harness.games.poker_table`).
    """
    irr = irregularity or Irregularity()
    applied: list[str] = []
    if irr.void is not None:
        return Deal({}, [], (MEASURES[irr.void][0],), MEASURES[irr.void][0])
    rule3, rule5, rule6 = (MEASURES[k][0] for k in ("face-up-draw", "exposed-by-dealer", "no-burn"))
    if len(irr.face_up) > 1:
        return Deal({}, [], (rule3,), rule3)           # a second card drawn face up in the round
    if len(irr.exposed) > 1:
        return Deal({}, [], (rule5,), rule5)           # two or more cards turned up by the dealer
    if irr.no_burn is not None and irr.decided_since:
        return Deal({}, [], (rule6,), rule6)
    n = hole * seats
    if any(not 0 <= p < n + len(irr.face_up) for p in irr.face_up) or any(not 0 <= j < n for j in irr.exposed):
        raise ValueError(f"face-up draws and exposed cards are cards of the hole deal ({n} cards)")
    holes: dict[int, list[int]] = {s: [] for s in range(seats)}
    dealt: list[int] = []
    p = 0
    for j in range(n):
        while p in irr.face_up:                        # イ-(3): a used card; the next card dealt in its place
            p += 1
            applied.append(rule3)
        holes[(small_blind + j) % seats].append(p)
        dealt.append(p)
        p += 1
    for j in irr.exposed:                              # イ-(5): a used card, a new one from the shoe
        at = holes[(small_blind + j) % seats]
        at[at.index(dealt[j])] = p
        p += 1
        applied.append(rule5)
    if irr.no_burn is not None:                        # イ-(6): the first card dealt becomes the burn, one added
        applied.append(rule6)
    return Deal(holes, [p + 1, p + 2, p + 3, p + 5, p + 7], tuple(applied))


# ------------------------------------------------ after the gathering --

@dataclasses.dataclass(frozen=True)
class Adjustment:
    """What each customer (by seat) and the house receive (negative: pay) under a 9-14-ロ measure."""

    customers: dict[int, Fraction]
    house: Fraction
    rule: str

    def balanced(self) -> bool:
        """No yen is made or lost: the changes sum to zero."""
        return sum(self.customers.values(), Fraction(0)) + self.house == 0


def _add(into: dict[int, Fraction], seat: int, amount: Fraction) -> None:
    into[seat] = into.get(seat, Fraction(0)) + amount


def _shared(winners: Sequence[int], amount: Fraction, into: dict[int, Fraction]) -> None:
    if not winners:
        raise ValueError("a 9-14-ロ measure needs the winning customer(s)")
    for w in winners:
        _add(into, w, amount / len(winners))


def late_stake(customer: int, winners: Sequence[int], added: int, r: Fraction) -> Adjustment:
    """9-14-ロ-(1): the stake ``added`` returned to ``customer``, X - X x r collected from the winners."""
    out: dict[int, Fraction] = {}
    x = Fraction(added)
    _add(out, customer, x)
    _shared(winners, -(x - x * r), out)
    return Adjustment(out, -(x * r), MEASURES["late-stake"][0])


def reduced_stake(customer: int, winners: Sequence[int], reduced: int, r: Fraction) -> Adjustment:
    """9-14-ロ-(2): ``reduced`` collected from ``customer``, X - X x r paid to the winners."""
    out: dict[int, Fraction] = {}
    x = Fraction(reduced)
    _add(out, customer, -x)
    _shared(winners, x - x * r, out)
    return Adjustment(out, x * r, MEASURES["reduced-stake"][0])


def void_after_payment(staked: dict[int, int], paid: dict[int, int]) -> Adjustment:
    """9-14-ロ-(3): every stake returned and every winning collected back; the house gives
    back its share."""
    out: dict[int, Fraction] = {}
    for seat in set(staked) | set(paid):
        change = Fraction(staked.get(seat, 0) - paid.get(seat, 0))
        if change:
            out[seat] = change
    house = Fraction(sum(paid.values()) - sum(staked.values()))
    return Adjustment(out, house, MEASURES["improper-card-found"][0])


def wrong_payment(paid: dict[int, int], due: dict[int, int]) -> Adjustment:
    """9-14-ロ-(4): the excess of what was paid over what was due collected, the shortfall
    paid; the house makes up the difference."""
    out: dict[int, Fraction] = {}
    for seat in set(paid) | set(due):
        change = Fraction(due.get(seat, 0) - paid.get(seat, 0))
        if change:
            out[seat] = change
    return Adjustment(out, -sum(out.values(), Fraction(0)), MEASURES["wrong-payment"][0])
