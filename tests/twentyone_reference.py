"""An independent, straightforward twenty-one round in Python: the reference the C round engine
(csrc/kernels/twentyone.c) is checked against, round by round, on seeded shoes.

Written from the rules (harness.games.twentyone.Rules, each field cited there), not from the
kernel: hands are lists of card values, every rule is tested where the round reaches it.
Dealing order (000 第2 1-5-イ): the seat's first card, the upcard, the seat's second card,
then the hole card under the hole-card rule; under the no-hole-card rule the dealer's second
card comes after the seat has played (1-10-イ).
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw
from rngcore.devices.shoe import Shoe


def value(code: int) -> int:
    """Point value of a card code: A = 1, 2..9, 10/J/Q/K = 10 (000 1-5-ロ)."""
    return min(code & 0x0F, 10)


def best(cards: list[int]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard <= 11 else hard


def is_soft(cards: list[int]) -> bool:
    return 1 in cards and sum(cards) <= 11


def blackjack(cards: list[int]) -> bool:
    return len(cards) == 2 and sorted(cards) == [1, 10]


class Hand:
    def __init__(self, cards: list[int], split: bool, split_aces: bool):
        self.cards, self.split, self.split_aces, self.stake = cards, split, split_aces, 1

    def context(self) -> tw.Context:
        # a split ace's context lasts while it holds its two cards
        return tw.Context(self.split, self.split_aces and len(self.cards) == 2)


def options(rules: tw.Rules, up: int, hand: Hand, hands_held: int) -> tuple[str, ...]:
    """What the seat may do with ``hand`` (000 1-9, each restriction of ``rules``)."""
    two = len(hand.cards) == 2
    out = [tw.STAND]
    one_card_aces = hand.split_aces and two and not rules.hit_split_aces
    if best(hand.cards) < 21 and not one_card_aces:
        out.append(tw.HIT)
        if two and (not hand.split or rules.double_after_split) and \
                (rules.double_totals is None or best(hand.cards) in rules.double_totals):
            out.append(tw.DOUBLE)
    if two and not hand.split and rules.surrender and up in rules.surrender_upcards:
        out.append(tw.SURRENDER)
    pair = two and hand.cards[0] == hand.cards[1]
    if pair and hands_held < rules.max_hands and (not hand.split_aces or rules.resplit_aces):
        out.append(tw.SPLIT)
    return tuple(out)


def play(rules: tw.Rules, deal, strategy) -> Fraction:
    """One round's net per initial unit; ``deal()`` gives the next card's value."""
    first, up, second = deal(), deal(), deal()
    dealer = [up] + ([deal()] if rules.hole_card else [])
    seat = [first, second]
    if rules.take_even_money and up == 1 and blackjack(seat):
        return Fraction(1)                      # 000 1-7: even money at once, before the peek
    if rules.hole_card and up in (1, 10) and blackjack(dealer):
        return Fraction(0) if blackjack(seat) else Fraction(-1)
    if blackjack(seat):
        if not rules.hole_card:
            dealer.append(deal())
        return Fraction(0) if blackjack(dealer) else rules.blackjack_pays
    pending = [Hand(seat, False, False)]
    finished: list[Hand] = []
    held = 1
    while pending:
        hand = pending.pop()
        while True:
            allowed = options(rules, up, hand, held)
            act = strategy(tw.of(*hand.cards), up, hand.context(), allowed)
            assert act in allowed, (act, allowed)
            if act == tw.SURRENDER:
                if not rules.hole_card:
                    deal()
                return Fraction(-1, 2)
            if act == tw.STAND:
                break
            if act == tw.SPLIT:
                x = hand.cards[0]
                held += 1
                hand = Hand([x, deal()], True, x == 1)
                pending.append(Hand([x, deal()], True, x == 1))
                continue
            hand.cards.append(deal())
            if act == tw.DOUBLE:
                hand.stake = 2
                break
            if best(hand.cards) >= 21:
                break
        finished.append(hand)
    net = Fraction(-sum(h.stake for h in finished if best(h.cards) > 21))
    standing = [h for h in finished if best(h.cards) <= 21]
    if not rules.hole_card:
        dealer.append(deal())
    if not standing:
        return net
    if blackjack(dealer):
        return net - (1 if rules.original_bet_only else sum(h.stake for h in standing))
    while best(dealer) < 17 or (best(dealer) == 17 and is_soft(dealer) and rules.hit_soft_17):
        dealer.append(deal())
    d = best(dealer)
    for h in standing:
        if d > 21:
            net += 0 if (d == 22 and rules.dealer_22_push) else h.stake
        else:
            net += h.stake * ((best(h.cards) > d) - (best(h.cards) < d))
    return net


def side_class(c1: int, up: int, c2: int) -> int:
    """The first cards' side class as twentyone.h states it."""
    kind = 0
    if c1 & 15 == c2 & 15:
        s1, s2 = (c1 >> 4) & 3, (c2 >> 4) & 3
        kind = 3 if s1 == s2 else 2 if (s1 in (1, 2)) == (s2 in (1, 2)) else 1
    return kind + 4 * ((c1 & 0x3F) == (up & 0x3F))


def rounds(rules: tw.Rules, strategy, shoe_rules: str, decks: int, generator, n: int):
    """(net, side class) of ``n`` rounds dealt through the devices' shoe, one seat."""
    shoe = Shoe(generator, shoe_rules, decks)
    out = []
    for _ in range(n):
        shoe.start_round()
        codes: list[int] = []

        def deal() -> int:
            codes.append(shoe.deal())
            return value(codes[-1])

        net = play(rules, deal, strategy)
        out.append((net, side_class(codes[0], codes[1], codes[2])))
        shoe.end_round()
    return out, shoe.shuffles
