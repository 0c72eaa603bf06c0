"""An independent, straightforward Pontoon round in Python (000 別表第1 第2 3): the reference the
exact analysis (harness.games.twentyone_pontoon) and the C round engine are checked against.

Written from the seed's text, not from the analysis or the kernel: hands are lists of card
codes (rank in the low 4 bits, suit above: rngcore.devices.cards), every rule tested where the
round reaches it.  Deal (3-5-イ): the seat's first card, the upcard, the seat's second card; no
hole card: the dealer's second card after the seat has played (3-8 applying 2-9), drawn also
when the seat's hands are all settled, but not when every one of them busted (2-9-ハ: settled at
once, notwithstanding 2-9-イ); the dealer draws on only if a hand is left standing.
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw

SPADES = 0


def value(code: int) -> int:
    """A = 1, 2..9, J/Q/K = 10 (3-5-ロ; a Pontoon deck has no 10s)."""
    return min(code & 0x0F, 10)


def suit(code: int) -> int:
    return (code >> 4) & 3


def points(codes: list[int], doubled: bool = False) -> int:
    """The hand's total: an ace counts 11 unless that exceeds 21, and always 1 in a doubled hand (3-5-ロ-(1))."""
    hard = sum(value(c) for c in codes)
    if not doubled and any(value(c) == 1 for c in codes) and hard + 10 <= 21:
        return hard + 10
    return hard


def pontoon(codes: list[int]) -> bool:
    """The first two cards total 21 (3-3)."""
    return len(codes) == 2 and points(codes) == 21


class Hand:
    def __init__(self, codes, split, split_aces):
        self.codes, self.split, self.split_aces = codes, split, split_aces
        self.stake, self.doubled, self.rescued = 1, False, False

    def total(self) -> int:
        return points(self.codes, self.doubled)

    def context(self) -> tw.Context:
        return tw.Context(self.split, self.split_aces and len(self.codes) == 2)


def bonus_pays(rules: tw.Rules, hand: Hand) -> Fraction:
    """Net per unit of a winning undoubled 21 (3-10-ニ), from the table's order: 5, 6, 7+ cards;
    6-7-8 mixed, one suit, spades; 7-7-7 mixed, one suit, spades."""
    five, six, seven, s678, s678_suit, s678_spades, s777, s777_suit, s777_spades = rules.pontoon_bonus
    values = sorted(value(c) for c in hand.codes)
    suits = {suit(c) for c in hand.codes}
    for three, pays in (([6, 7, 8], (s678, s678_suit, s678_spades)), ([7, 7, 7], (s777, s777_suit, s777_spades))):
        if values == three:
            if suits == {SPADES}:
                return pays[2]
            return pays[1] if len(suits) == 1 else pays[0]
    n = len(hand.codes)
    if n >= 7:
        return seven
    return {5: five, 6: six}.get(n, Fraction(1))


def options(rules: tw.Rules, up: int, hand: Hand, held: int) -> tuple[str, ...]:
    """What the decider may do (3-7-ハ, ニ, ト) while the hand is 20 or less."""
    n, t = len(hand.codes), hand.total()
    out = [tw.STAND]
    if t <= 20 and not (hand.split_aces and n == 2):
        out.append(tw.HIT)
        if (n == 2 or (rules.double_any_cards and n >= 3)) and (not hand.split or rules.double_after_split):
            out.append(tw.DOUBLE)
    if n == 2 and not hand.split and up in (1, 10):
        out.append(tw.SURRENDER)
    if n == 2 and value(hand.codes[0]) == value(hand.codes[1]) and held < rules.max_hands and not hand.split_aces:
        out.append(tw.SPLIT)
    return tuple(out)


def multiset(codes: list[int]) -> tuple:
    return tw.of(*(value(c) for c in codes))


def play_hands(rules: tw.Rules, up: int, seat: list[int], deal, strategy) -> list[Hand] | None:
    """The seat's hands played to their end, or None if it surrendered."""
    pending, finished, held = [Hand(seat, False, False)], [], 1
    while pending:
        hand = pending.pop()
        while True:
            allowed = options(rules, up, hand, held)
            act = strategy(multiset(hand.codes), up, hand.context(), allowed)
            assert act in allowed, (act, allowed)
            if act == tw.SURRENDER:
                return None
            if act == tw.STAND:
                break
            if act == tw.SPLIT:
                x, y = hand.codes
                held += 1
                aces = value(x) == 1
                hand = Hand([x, deal()], True, aces)           # this hand first, then the other
                pending.append(Hand([y, deal()], True, aces))
                continue
            hand.codes.append(deal())
            if act == tw.DOUBLE:
                hand.stake, hand.doubled = 2, True
                if hand.total() <= 20:    # 3-7-ホ: keep the double or withdraw it
                    keep = strategy(multiset(hand.codes), up, tw.Context(hand.split, False, True),
                                    (tw.STAND, tw.RESCUE))
                    hand.rescued = keep == tw.RESCUE
                break
            if hand.total() >= 21:
                break
        finished.append(hand)
    return finished


def play(rules: tw.Rules, deal, strategy) -> Fraction:
    """One round's net per initial unit; ``deal()`` gives the next card's code."""
    first, up_code, second = deal(), deal(), deal()
    up = value(up_code)
    dealer = [up_code]
    seat = [first, second]
    if pontoon(seat):                      # 3-5-ハ: settled at once, a player 21 always wins
        dealer.append(deal())
        return rules.blackjack_pays
    hands = play_hands(rules, up, seat, deal, strategy)
    if hands is not None and all(h.total() > 21 for h in hands):
        return -Fraction(sum(h.stake for h in hands))   # 2-9-ハ: no second card for the dealer
    dealer.append(deal())
    if hands is None:                      # 3-10-ロ: half, unless the dealer makes pontoon
        return Fraction(-1) if pontoon(dealer) else Fraction(-1, 2)
    net = Fraction(0)
    standing = []
    for h in hands:
        if h.total() > 21:
            net -= h.stake                 # 3-7-ヘ: a bust is settled at once
        elif h.rescued:
            net -= 1                       # 3-7-ホ: the original stake collected
        else:
            standing.append(h)
    if not standing:
        return net
    for h in standing:
        if h.total() == 21:                # 3-9-ロ-(1)-(一): a 21 wins whatever the dealer holds
            net += h.stake if h.doubled else bonus_pays(rules, h)   # 3-10-ホ
    rest = [h for h in standing if h.total() < 21]
    if pontoon(dealer):
        return net - (1 if rest else 0)    # 3-10-ハ: the original stake only
    while points(dealer) < 17 or (points(dealer) == 17 and soft(dealer)):
        dealer.append(deal())              # 3-8 applying 2-9: hits soft 17
    d = points(dealer)
    for h in rest:
        t = h.total()
        net += h.stake * (1 if d > 21 or t > d else -1 if t < d else 0)
    return net


def soft(codes: list[int]) -> bool:
    hard = sum(value(c) for c in codes)
    return any(value(c) == 1 for c in codes) and hard + 10 <= 21
