"""Insurance without the hole card: the rounds in which the dealer's second card is never dealt.

Insurance (000 第2 1-6; Pontoon 3-6) is offered when the upcard is an ace and wins when the
dealer's second card "proves to be" a ten-value card (6-ロ: 点数が10点であることが明らかとなった
場合に…勝ち、それ以外の場合に…負け).  With the hole card that card is dealt before anyone acts.
Under the no-hole-card rule it is dealt after the seat has played (10-イ), and not at all when
every hand of the seat has busted: the round is then settled at once, notwithstanding 10-イ
(10-ハ; Pontoon through 3-8).  Nothing proves the card a ten, so the insurance is lost
("それ以外の場合"), as the rounds settle it.  An insurance's law for the first round of a fresh
shoe is therefore

* ``win``:  P(a ten-value card next) - P(every hand busts and a ten-value card next),
* ``busted``: P(every hand busts) (lost; no second card),
* ``lose``: the rest,

where "next" is the card the dealer would have dealt himself: the cards are a uniform random
ordering, so the card after the seat's last is the one 10-イ deals.  The seat's hands depend on
its strategy; they are played here exactly as the round plays them, in the order of
:class:`~harness.games.twentyone_seat.SeatPlay` (000 1-9: a split deals each of the two hands
its second card at once and completes the hands last split first, the rounds' and the C round's
order), every card drawn from the cards then left, so the figure is
exact on a finite shoe, splits included, and on an infinite shoe.  A path on which a hand
ends without busting (a stand, a double that holds, a surrender, a blackjack, Pontoon's
rescue or its 21) contributes nothing, which keeps the walk small.

Even money (1-7) is paid at once on a blackjack against the ace, before any second card, and
a blackjack never busts: its figure is the main bet's and does not change.

Blackjack Switch (000 第2 2) insures each area (2-6, per hand, under either dealing rule; it
has no even money) against the one second card of the dealer, which 2-9-イ deals after every
hand of both areas has been played and 2-9-ハ not at all when every one of them busted.  So
both areas' insurances have one law, the one above with "every hand" read over both areas:
the switch decided (2-8-ニ), the first area's hands played, then the second's from the cards
left (the rounds' and the C round's order, one :class:`~harness.games.twentyone_seat.SeatPlay`
of both areas' hands, the split cap per area).  A blackjack (with an ace up never settled
early, 2-8-ホ) and a surrender (not offered against an ace without the hole card, 2-8-ハ)
never bust.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

from harness.games import twentyone as tw
from harness.games.twentyone import ACE, SPLIT, TEN, Context, add, hard_total, of
from harness.games.twentyone_seat import SeatPlay


def busted_rounds(rules: tw.Rules, shoe, strategy, allowed: Callable = tw.allowed_actions) \
        -> tuple[Fraction, Fraction]:
    """(P(every hand busts), P(every hand busts and the next card is ten-valued)) given an ace up.

    Parameters
    ----------
    rules : Rules
        A rule set without the hole card (with it the second card is dealt before the play).
    shoe : FiniteShoe or InfiniteShoe
        The full shoe of the first round.
    strategy : callable
        ``strategy(hand, up, context, allowed) -> action``, as the round asks it.
    allowed : callable
        The actions open to a hand (``allowed(rules, up, hand, context, may_split)``; Pontoon's
        :func:`harness.games.twentyone_pontoon.allowed_actions` adds the rescue).

    Returns
    -------
    tuple of Fraction
        Both probabilities conditional on the upcard being an ace.
    """
    if rules.hole_card:
        raise ValueError("busted_rounds: with the hole card the dealer's second card is dealt before the play")
    if rules.switch:
        raise ValueError("busted_rounds: one area only (a pair of areas settles against one second card)")
    walk = _Walk(rules, shoe, strategy, allowed)
    up = of(ACE)
    busted = with_ten = Fraction(0)
    for c1, p1 in shoe.draws(up):
        for c2, p2 in shoe.draws(add(up, c1)):
            hand = of(c1, c2)
            if tw.is_natural(hand):
                continue                    # a blackjack never busts
            b, t = walk.seat(add(add(up, c1), c2), SeatPlay(((hand, Context(), 0, None),)))
            busted += p1 * p2 * b
            with_ten += p1 * p2 * t
    return busted, with_ten


def insurance_law(rules: tw.Rules, shoe, strategy, allowed: Callable = tw.allowed_actions) \
        -> dict[str, Fraction]:
    """The law of one insurance with an ace up (the module doc): ``win``, ``busted``, ``lose``."""
    return _law(shoe, *busted_rounds(rules, shoe, strategy, allowed))


def switch_busted_rounds(rules: tw.Rules, shoe, strategy, deals) -> tuple[Fraction, Fraction]:
    """:func:`busted_rounds` for Blackjack Switch's pair of areas (000 第2 2): the dealer's second
    card is not dealt only when every hand of both areas busted (2-9-ハ).

    Parameters
    ----------
    rules : Rules
        Blackjack Switch's without the hole card.
    shoe : FiniteShoe or InfiniteShoe
        The full shoe of the first round.
    strategy : callable
        The areas' play after their first decisions (and of a first decision not given).
    deals : iterable
        ``(probability given an ace up, first area's two cards, second area's, first actions)``
        over every four first cards, the areas as played after the switch decision (2-8-ニ), the
        first actions a pair (an area's None: ``strategy``'s) or None.  The first area plays, then
        the second from the cards left (2-8), as the rounds and the C round play them.

    Returns
    -------
    tuple of Fraction
        (P(every hand of both areas busts), jointly with a ten-value card next), given an ace up.
    """
    if rules.hole_card:
        raise ValueError("switch_busted_rounds: with the hole card the dealer's second card is dealt before the play")
    walk = _Walk(rules, shoe, strategy, tw.allowed_actions)
    busted = with_ten = Fraction(0)
    for p, a, b, firsts in deals:
        if tw.is_natural(a) or tw.is_natural(b):
            continue                    # a blackjack never busts (and with an ace up it waits, 2-8-ホ)
        fa, fb = firsts or (None, None)
        removed = add(tuple(x + y for x, y in zip(a, b)), ACE)      # the five first cards
        x, t = walk.seat(removed, SeatPlay(((a, Context(), 0, fa), (b, Context(), 1, fb))))
        busted += p * x
        with_ten += p * t
    return busted, with_ten


def switch_insurance_law(rules: tw.Rules, shoe, strategy, deals) -> dict[str, Fraction]:
    """The law of one area's insurance with an ace up, both areas played (:func:`switch_busted_rounds`);
    the two areas' insurances have the one law (they settle against one second card)."""
    return _law(shoe, *switch_busted_rounds(rules, shoe, strategy, deals))


def _law(shoe, busted: Fraction, with_ten: Fraction) -> dict[str, Fraction]:
    ten = shoe.probability(of(ACE), TEN)
    return {"win": ten - with_ten, "busted": busted, "lose": 1 - ten - busted + with_ten}


class _Walk:
    """The seat's play of its hands in the rounds' order (:class:`~harness.games.twentyone_seat.SeatPlay`,
    each hand a (point-value multiset, context, main area, first action) tuple: the first action an
    area's given first decision, None for the strategy's), every card drawn from the cards then left;
    memoised: on a finite shoe the cards gone are part of the key."""

    def __init__(self, rules: tw.Rules, shoe, strategy, allowed: Callable):
        self.rules, self.shoe, self.strategy, self.allowed = rules, shoe, strategy, allowed
        self._memo: dict = {}

    def seat(self, removed: tuple, seat: SeatPlay) -> tuple[Fraction, Fraction]:
        """(P(the hand in play and every hand after it busts), jointly with a ten next), ``removed`` gone."""
        if seat.done:                                        # after the last hand, the card 10-イ would deal
            return Fraction(1), self.shoe.probability(removed, TEN)
        key = (self.shoe.key(removed), seat.ahead, self._held(seat))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._hand(removed, seat)
        return found

    @staticmethod
    def _held(seat: SeatPlay) -> int:
        """The hands of the main area in play (the split cap is per area, 1-9-ヘ, 2-8-チ); the later
        areas' hands are all still ahead."""
        area = seat.playing[2]
        return sum(h[2] == area for h in seat.hands)

    def _hand(self, removed: tuple, seat: SeatPlay) -> tuple[Fraction, Fraction]:
        rules, up = self.rules, ACE
        hand, ctx, area, first = seat.playing
        acts = self.allowed(rules, up, hand, ctx, self._held(seat) < rules.max_hands)
        if first is not None:
            if first not in acts:
                raise ValueError(f"switch_busted_rounds: {first} is not open to {hand} against an ace")
            act = first
        else:
            act = acts[0] if acts == (tw.STAND,) else self.strategy(hand, up, ctx, acts)
        if act == SPLIT:
            x = tw.pair_value(hand)
            split = Context(split=True, split_aces=x == ACE)
            busted = with_ten = Fraction(0)
            for v1, p1 in self.shoe.draws(removed):          # one card to each hand at once (1-9-ニ-(1))
                for v2, p2 in self.shoe.draws(add(removed, v1)):
                    b, t = self.seat(add(add(removed, v1), v2),
                                     seat.split((of(x, v1), split, area, None), (of(x, v2), split, area, None)))
                    busted += p1 * p2 * b
                    with_ten += p1 * p2 * t
            return busted, with_ten
        if act not in (tw.HIT, tw.DOUBLE):
            return Fraction(0), Fraction(0)                  # it stands (or surrenders): no bust
        busted = with_ten = Fraction(0)
        after = Context(split=ctx.split)                     # as the analysis and the C round key a hit hand
        for v, p in self.shoe.draws(removed):
            nxt, gone = add(hand, v), add(removed, v)
            if hard_total(nxt) > 21:
                b, t = self.seat(gone, seat.next())          # 1-9-ホ: busted, settled at once
            elif act == tw.HIT:
                b, t = self.seat(gone, seat.drawn((nxt, after, area, None)))
            else:
                continue                                     # a double that holds: no bust
            busted += p * b
            with_ten += p * t
        return busted, with_ten
