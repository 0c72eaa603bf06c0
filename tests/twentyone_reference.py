"""An independent, straightforward twenty-one round in Python: the reference the C round engine
(csrc/kernels/twentyone.c) is checked against, round by round, on seeded shoes.

Written from the rules (harness.games.twentyone.Rules, each field cited there), not from the
kernel: hands are lists of card values, every rule is tested where the round reaches it.
Dealing order (000 第2 1-5-イ): the seat's first card, the upcard, the seat's second card,
then the hole card under the hole-card rule; under the no-hole-card rule the dealer's second
card comes after the seat has played (1-10-イ), and is not dealt when every hand of the seat
busted (1-10-ハ: the round is settled at once, notwithstanding 10-イ).
"""
from __future__ import annotations

import functools
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
    def __init__(self, cards: list[int], split: bool, split_aces: bool, first: bool = True):
        # first: the initial hand, and after a split the hand played first (the bet-behind's)
        self.cards, self.split, self.split_aces, self.stake, self.first = cards, split, split_aces, 1, first

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


def play(rules: tw.Rules, deal, strategy, area=None) -> Fraction:
    """One round's net per initial unit; ``deal()`` gives the next card's value.  Each finished
    hand gets ``result``, its outcome per unit staked (``area``: the function playing the
    seat's hand, :func:`play_area` by default)."""
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
    finished = (area or play_area)(rules, up, seat, deal, strategy)
    if finished is None:                        # surrendered
        if not rules.hole_card:
            deal()
        return Fraction(-1, 2)
    for h in finished:
        h.result = -1 if best(h.cards) > 21 else 0
    net = Fraction(-sum(h.stake for h in finished if best(h.cards) > 21))
    standing = [h for h in finished if best(h.cards) <= 21]
    if not standing:
        return net                              # 1-10-ハ: every hand busted, no card for the dealer
    if not rules.hole_card:
        dealer.append(deal())
    if blackjack(dealer):
        return against_blackjack(rules, net, standing)
    finish_dealer(rules, dealer, deal)
    return net + settle(rules, dealer, standing)


def against_blackjack(rules: tw.Rules, busted: Fraction, standing: list[Hand]) -> Fraction:
    """An area's net when a dealer blackjack comes after its play (no hole card), ``busted`` its
    busted hands' net and ``standing`` the hands still standing (at least one): 000 1-12-ロ takes
    the original stake once, the busts already lost (1-9-ホ); read for the whole area
    (``split_busts_returned``) the area loses the original stake and nothing else; without
    ``original_bet_only`` every standing stake goes too."""
    if not rules.original_bet_only:
        return busted - sum(h.stake for h in standing)
    return Fraction(-1) if rules.split_busts_returned else busted - 1


def play_behind(rules: tw.Rules, deal, strategy, follow_double: bool, follow_split: bool) -> tuple[Fraction, Fraction]:
    """One round's (seat net, bet-behind net), the bet-behind following the seat (001
    ベットビハインドプレイヤーのアクション): a double is a hit for it (one stake) unless
    ``follow_double``; after a split it follows the first split hand only unless
    ``follow_split``.  Hole-card rule only (001's)."""
    assert rules.hole_card
    finished: list[Hand] = []

    def area(rules_, up, seat, deal_, strategy_):
        hands = play_area(rules_, up, seat, deal_, strategy_)
        finished.extend(hands or [])
        return hands

    seat_net = play(rules, deal, strategy, area)
    if not finished:
        return seat_net, seat_net           # decided before any play, or surrendered: it follows the seat
    followed = [h for h in finished if h.first or follow_split]
    stake = {id(h): 1 if (h.stake == 2 and not follow_double) else h.stake for h in followed}
    # each finished hand's result per unit staked, read back from the seat's own settlement
    return seat_net, sum((stake[id(h)] * h.result for h in followed), Fraction(0))


def play_area(rules: tw.Rules, up: int, seat: list[int], deal, strategy) -> list[Hand] | None:
    """Play one area's two cards to the end: its finished hands, or None if it surrendered."""
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
                return None
            if act == tw.STAND:
                break
            if act == tw.SPLIT:
                x = hand.cards[0]
                held += 1
                hand = Hand([x, deal()], True, x == 1, hand.first)
                pending.append(Hand([x, deal()], True, x == 1, False))
                continue
            hand.cards.append(deal())
            if act == tw.DOUBLE:
                hand.stake = 2
                break
            if best(hand.cards) >= 21:
                break
        finished.append(hand)
    return finished


def finish_dealer(rules: tw.Rules, dealer: list[int], deal) -> None:
    """The dealer draws to 17 (hitting soft 17 under H17)."""
    while best(dealer) < 17 or (best(dealer) == 17 and is_soft(dealer) and rules.hit_soft_17):
        dealer.append(deal())


def settle(rules: tw.Rules, dealer: list[int], standing: list[Hand]) -> Fraction:
    """Net of the standing hands against the dealer's finished hand (a dealer 22 pushes under
    ``dealer_22_push``)."""
    d, net = best(dealer), Fraction(0)
    for h in standing:
        if d > 21:
            h.result = 0 if (d == 22 and rules.dealer_22_push) else 1
        else:
            h.result = (best(h.cards) > d) - (best(h.cards) < d)
        net += h.stake * h.result
    return net


def play_switch(rules: tw.Rules, deal, strategy, swap, seen: list | None = None) \
        -> tuple[tuple[Fraction, Fraction], bool]:
    """One Blackjack Switch round (000 第2 2): each area's net and whether the seat switched
    (``seen``: a list the dealer's hand is put in, its cards as the round ends).

    Deal (2-5-イ): each area's first card, the upcard, each area's second card, the hole
    card.  A dealer blackjack under the peek ends the round (2-7); otherwise the seat
    switches the second cards if ``swap(up, a1, a2, b1, b2)`` (2-8-ニ), a two-card 21 is a
    blackjack (paid ``blackjack_pays``, pushing a dealer blackjack), and each area is
    played in turn; the dealer plays once for both (2-9), a dealer 22 pushes (2-10).
    """
    a1, b1, up, a2, b2 = deal(), deal(), deal(), deal(), deal()
    dealer = [up] + ([deal()] if rules.hole_card else [])
    if seen is not None:
        seen.append(dealer)
    if rules.hole_card and up in (1, 10) and blackjack(dealer):
        return (Fraction(0) if blackjack([a1, a2]) else Fraction(-1),
                Fraction(0) if blackjack([b1, b2]) else Fraction(-1)), False
    switched = bool(swap(up, a1, a2, b1, b2))
    if switched:
        a2, b2 = b2, a2
    areas = [[a1, a2], [b1, b2]]
    played = [None if blackjack(seat) else play_area(rules, up, seat, deal, strategy) for seat in areas]
    nets = [Fraction(0), Fraction(0)]
    standing: list[list[Hand]] = [[], []]
    for i, (seat, hands) in enumerate(zip(areas, played)):
        if blackjack(seat):
            continue
        if hands is None:
            nets[i] = Fraction(-1, 2)
            continue
        nets[i] -= sum(h.stake for h in hands if best(h.cards) > 21)
        standing[i] = [h for h in hands if best(h.cards) <= 21]
    every_hand_busted = all(hands and not standing[i] for i, hands in enumerate(played))   # 2-9-ハ
    if not rules.hole_card and not every_hand_busted:
        dealer.append(deal())
    for i, seat in enumerate(areas):
        if blackjack(seat):
            nets[i] = Fraction(0) if blackjack(dealer) else rules.blackjack_pays
    if standing[0] or standing[1]:
        if blackjack(dealer):
            for i in (0, 1):
                if standing[i]:
                    nets[i] = against_blackjack(rules, nets[i], standing[i])
        else:
            finish_dealer(rules, dealer, deal)
            for i in (0, 1):
                nets[i] += settle(rules, dealer, standing[i])
    return (nets[0], nets[1]), switched


def match_class(codes: list[int]) -> int:
    """The Super Match class of four cards by rank: 0 none, 1 pair, 2 two pair, 3 three, 4 four."""
    counts = sorted((sum(1 for c in codes if c & 15 == r) for r in {c & 15 for c in codes}), reverse=True)
    return {(1, 1, 1, 1): 0, (2, 1, 1): 1, (2, 2): 2, (3, 1): 3, (4,): 4}[tuple(counts)]


def side_class(c1: int, up: int, c2: int) -> int:
    """The first cards' side class as twentyone.h states it."""
    kind = 0
    if c1 & 15 == c2 & 15:
        s1, s2 = (c1 >> 4) & 3, (c2 >> 4) & 3
        kind = 3 if s1 == s2 else 2 if (s1 in (1, 2)) == (s2 in (1, 2)) else 1
    return kind + 4 * ((c1 & 0x3F) == (up & 0x3F))


def dealt_rounds(play_one, shoe_rules: str, decks: int, generator, n: int):
    """``play_one(deal, codes)`` for each of ``n`` rounds dealt through the devices' shoe
    (``deal()`` the next card's value, ``codes`` the card codes dealt so far)."""
    shoe = Shoe(generator, shoe_rules, decks)
    out = []
    for _ in range(n):
        shoe.start_round()
        codes: list[int] = []

        def deal() -> int:
            codes.append(shoe.deal())
            return value(codes[-1])

        out.append(play_one(deal, codes))
        shoe.end_round()
    return out, shoe.shuffles


def rounds(rules: tw.Rules, strategy, shoe_rules: str, decks: int, generator, n: int):
    """(net, side class) of ``n`` rounds dealt through the devices' shoe, one seat."""
    def one(deal, codes):
        net = play(rules, deal, strategy)
        return net, side_class(codes[0], codes[1], codes[2])
    return dealt_rounds(one, shoe_rules, decks, generator, n)


def behind_rounds(rules: tw.Rules, strategy, follow_double: bool, follow_split: bool, shoe_rules: str, decks: int,
                  generator, n: int):
    """(seat net, bet-behind net) of ``n`` rounds dealt through the devices' shoe."""
    return dealt_rounds(lambda deal, codes: play_behind(rules, deal, strategy, follow_double, follow_split),
                        shoe_rules, decks, generator, n)


def switch_rounds(rules: tw.Rules, strategy, swap, shoe_rules: str, decks: int, generator, n: int):
    """(both areas' nets, side class) of ``n`` Blackjack Switch rounds dealt through the devices' shoe."""
    def one(deal, codes):
        nets, switched = play_switch(rules, deal, strategy, swap)
        return nets, match_class([codes[0], codes[1], codes[3], codes[4]]) | 8 * switched
    return dealt_rounds(one, shoe_rules, decks, generator, n)


class _Path(Exception):
    """The round asked for a card beyond the path being played."""


def every_path(play_one, draws):
    """Every way a round can go: (cards dealt, probability, ``play_one(deal)``), exact, path by
    path; ``draws(path)`` gives the next card's (kind, probability) after the cards of ``path``."""
    stack = [((), Fraction(1))]
    while stack:
        path, prob = stack.pop()
        at = [0]

        def deal():
            if at[0] < len(path):
                at[0] += 1
                return path[at[0] - 1]
            raise _Path

        try:
            result = play_one(deal)
        except _Path:
            stack.extend((path + (kind,), prob * p) for kind, p in draws(path) if p)
            continue
        yield path, prob, result


def over_every_ordering(play_one, kinds, counts) -> Fraction:
    """E[``play_one(deal)``] over every ordering of a small shoe of ``counts[i]`` cards of
    ``kinds[i]`` (exact, path by path: cards of one kind are one branch; ``deal()`` gives the
    next card's kind)."""
    def draws(path):
        left = list(counts)
        for kind in path:
            left[kinds.index(kind)] -= 1
        n = sum(left)
        return [(k, Fraction(c, n)) for k, c in zip(kinds, left) if c]

    return sum((prob * net for _, prob, net in every_path(play_one, draws)), Fraction(0))


def over_every_draw(play_one, weights, first=()):
    """Every path of a round dealt from an infinite shoe (value v drawn with probability
    ``weights[v - 1] / sum(weights)`` whatever was dealt), its first cards ``first``:
    (cards dealt, probability, ``play_one(deal)``) as :func:`every_path`."""
    n = sum(weights)
    odds = [(v, Fraction(w, n)) for v, w in zip(range(1, 11), weights) if w]
    return every_path(play_one, lambda path: [(first[len(path)], Fraction(1))] if len(path) < len(first) else odds)


def merged_split_law(rules: tw.Rules, weights, up: int, x: int, strategy) -> dict[Fraction, Fraction]:
    """The law of the round's net when the seat, dealt ``x, x`` against ``up`` without a hole card,
    plays ``strategy`` (which splits it) on an infinite shoe of ``weights``: :func:`play`'s round,
    every draw followed as :func:`over_every_draw` does, but the rounds that reach one state of the
    seat's play merged, so that four split hands stay countable (the paths multiply as the hands'
    and the dealer's: tens of millions for 3-3 or A-A to four hands).  The state: the hands
    finished (by stake and total), the hand in play (its cards: the first two in the order dealt,
    a longer hand as a multiset, all its future depends on), the hands waiting (their two cards)
    and the hands held.  Each step is :func:`play_area`'s (:func:`options`, the strategy, the
    order of the split's two cards, the waiting hands last in first out); the dealer's play and
    the settlement are :func:`finish_dealer`, :func:`settle` and :func:`against_blackjack`."""
    n = sum(weights)
    draws = [(v, Fraction(w, n)) for v, w in zip(range(1, 11), weights) if w]

    def finish(done: tuple, cards: list[int], stake: int) -> tuple:
        t = best(cards)
        return tuple(sorted(done + ((stake, min(t, 22)),)))      # 22: a bust

    @functools.lru_cache(maxsize=None)
    def seat(done: tuple, cards: tuple | None, split: bool, waiting: tuple, held: int) -> dict:
        """Law of the finished hands ((stake, total), sorted; None: surrendered) from this state
        (``cards`` None: the last hand waiting comes into play)."""
        if cards is None:
            return {done: Fraction(1)} if not waiting else seat(done, waiting[-1], True, waiting[:-1], held)
        hand = Hand(list(cards), split, split and len(cards) == 2 and cards[0] == 1)
        allowed = options(rules, up, hand, held)
        act = strategy(tw.of(*cards), up, hand.context(), allowed)
        assert act in allowed, (act, allowed)
        if act == tw.SURRENDER:
            return {None: Fraction(1)}
        if act == tw.STAND:
            return seat(finish(done, hand.cards, 1), None, False, waiting, held)
        out: dict = {}
        for v, p in draws:
            if act == tw.SPLIT:   # this hand's second card, then the new (waiting) hand's
                laws = [(seat(done, (cards[0], v), True, waiting + ((cards[0], w),), held + 1), p * q)
                        for w, q in draws]
            elif act == tw.DOUBLE:
                laws = [(seat(finish(done, hand.cards + [v], 2), None, False, waiting, held), p)]
            elif best(hand.cards + [v]) >= 21:
                laws = [(seat(finish(done, hand.cards + [v], 1), None, False, waiting, held), p)]
            else:
                laws = [(seat(done, tuple(sorted(hand.cards + [v])), split, waiting, held), p)]
            for law, q in laws:
                for k, m in law.items():
                    out[k] = out.get(k, 0) + q * m
        return out

    def dealer_play(deal) -> tuple:
        dealer = [up, deal()]          # the no-hole-card dealer's second card, after the seat (1-10-イ)
        finish_dealer(rules, dealer, deal)
        return tuple(dealer)

    dealers = [(d, p) for _, p, d in over_every_draw(dealer_play, weights)]
    law: dict = {}
    for hands, p in seat((), (x, x), False, (), 1).items():
        for dealer, q in dealers:
            if hands is None:
                net = Fraction(-1, 2)
            else:
                net = Fraction(-sum(stake for stake, t in hands if t > 21))
                standing = []
                for stake, t in hands:
                    if t <= 21:
                        standing.append(Hand([t], True, False))   # one "card" of its total: best() is t
                        standing[-1].stake = stake
                if standing and blackjack(list(dealer[:2])):
                    net = against_blackjack(rules, net, standing)
                elif standing:
                    net += settle(rules, list(dealer), standing)
            law[net] = law.get(net, 0) + p * q
    return law

