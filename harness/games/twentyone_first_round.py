"""The law of the first round dealt from a full finite shoe by the C round engine's strategy table.

Why this law.  A simulation deals rounds from a finite shoe to its cut card.  The
first round after each shuffle is dealt from a uniformly shuffled full shoe:
the shuffle is uniform, the cut keeps it so, and the burn (a count, or "turn a
card and burn as many as its value") stops at a position set by the cards
burned themselves, so the cards dealt after it are, given the burn, a uniform
ordering of the rest, and so unconditionally a uniform ordering of the full
shoe.  Its law is therefore exactly this module's.  Later rounds are not: how
many rounds a shoe deals before the cut card depends on the cards (the
"cut-card effect"), and rounds of one shoe are dependent, so a chi-square of
every round against any one law has the wrong null and fails once the sample
is large.  The first rounds of distinct shoes are independent draws of this
law, which is what :func:`harness.games.twentyone_game.TwentyOneGame.simulate`
tests.

The classes are the round's net per initial unit for a round in which the seat
did not split, and one class, :data:`SPLIT`, for a round that split: split
hands share the shoe, and the split class's probability (the strategy splits
the first two cards, and, under the peek, the dealer has no blackjack) is
exact without valuing the split hands.

Method.  Every (upcard, first two cards) and every card the strategy draws is
enumerated with its probability from the cards left (the dealer's hole card
treated as drawn after the player's cards: exchangeability, as in
:mod:`harness.games.twentyone`); for each composition a standing hand leaves,
the dealer's outcome law is a forward recursion over the dealer's draws,
evaluated for every such composition at once (numpy).  Probabilities are
float64 products and sums of positive terms of exact integer counts (relative
error below 1e-12); this is a test's null, and the tests check it against the
C round over every ordering of small shoes in exact fractions.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from harness.games import twentyone as tw
from harness.games import twentyone_pontoon as pt
from harness.games.twentyone_table import hand_keys, units
from harness.kernels import lib

SPLIT = "split"
# kernel action codes (twentyone.h)
_STAND, _HIT, _DOUBLE, _SPLIT, _SURRENDER = (lib.KERN_TW_STAND, lib.KERN_TW_HIT, lib.KERN_TW_DOUBLE,
                                             lib.KERN_TW_SPLIT, lib.KERN_TW_SURRENDER)
_RESCUE = lib.KERN_TW_RESCUE


# the kernel's key of each two-card hand (a multiset of two values)
_TWO_CARD_KEYS = {hand: key for key, hand in hand_keys() if key < lib.KERN_TW_PAIRS}


def _key(hand: tuple, pontoon: bool = False) -> int:
    """The kernel's hand key (twentyone.h): two cards by their values, else 55 + soft * 32 + total
    (+ 64 per card over three, up to seven, in Pontoon)."""
    if tw.cards(hand) == 2:
        return _TWO_CARD_KEYS[hand]
    t, soft = tw.total(hand)
    more = 64 * (min(tw.cards(hand), 7) - 3) if pontoon else 0
    return lib.KERN_TW_PAIRS + 32 * soft + t + more


def dealer_laws(rules: tw.Rules, up: int, left: np.ndarray) -> np.ndarray:
    """P(dealer outcome) for each row of ``left`` (cards of each value left, the upcard gone).

    Returns an array (rows, tw.OUTCOMES).  The dealer draws from ``left`` until
    it stands (S17/H17); a natural is ``tw.DBJ``, a 22 under ``dealer_22_push``
    ``tw.D22``.  Dealer states are the multisets drawn so far, processed by the
    number of cards drawn, so every path into a state is summed before it draws.
    """
    moves = tw.dealer_moves(rules.hit_soft_17, rules.dealer_22_push)
    left = np.asarray(left, dtype=np.float64)
    rows = left.shape[0]
    size = left.sum(axis=1)
    out = np.zeros((rows, tw.OUTCOMES))
    layer = {tw.EMPTY: np.ones(rows)}
    drawn_cards = 0
    while layer:
        following: dict = {}
        for drawn, reach in layer.items():
            base = up + tw.hard_total(drawn)
            ace = up == tw.ACE or drawn[0] > 0
            remaining = size - drawn_cards
            safe = np.where(remaining > 0, remaining, 1.0)
            row = moves[(base, ace, drawn_cards == 0)]
            for i in range(10):
                v = i + 1
                w = np.clip(left[:, i] - drawn[i], 0, None) / safe * (remaining > 0)
                p = reach * w
                if row[i] >= 0:
                    out[:, row[i]] += p
                else:
                    nxt = tw.add(drawn, v)
                    found = following.get(nxt)
                    following[nxt] = p if found is None else found + p
        layer = following
        drawn_cards += 1
    return out


def first_round_law(rules: tw.Rules, counts, cells: np.ndarray,
                    settle: tw.Settle = tw.standard_settle, suits: dict | None = None) -> np.ndarray:
    """P(class) of the first round of a full shoe of ``counts`` played by the kernel table ``cells``.

    Parameters
    ----------
    rules : Rules
        The rules the kernel plays (``twentyone_table.c_rules`` reads the same).
    counts : sequence of 10 int
        Cards of each value (A, 2..9, ten-value) in the shoe.
    cells : ndarray of uint8
        The kernel's strategy table (``twentyone_table.strategy_cells``).
    settle : callable, optional
        Net per unit staked of a standing hand against a dealer outcome.
    suits : dict, optional
        Pontoon: the shoe's cards of each suit for the values 6, 7, 8 (the suited 6-7-8 and
        7-7-7 bonuses); default an equal share of each value (full decks).

    Returns
    -------
    ndarray of float64, shape (KERN_TW_FIRSTS,)
        The kernel's first-round classes (``kern_tw_play``'s ``firsts``): the
        probability of each net (index ``net * KERN_TW_DEN + KERN_TW_NET_OFFSET``)
        of a round without a split, then of a round that split
        (``KERN_TW_SPLIT_CLASS``).  They sum to 1.

    Raises
    ------
    ValueError
        If the table has no play for a hand the first round reaches, or a net
        is not a whole number of kernel units.
    """
    counts = tuple(int(c) for c in counts)
    n = sum(counts)
    can = int(rules.max_hands > 1)
    law = np.zeros(lib.KERN_TW_FIRSTS)
    pontoon = rules.pontoon
    shoe = tw.FiniteShoe(counts)
    if suits is not None:
        shoe.suits = suits

    indices: dict = {}

    def index(net) -> int:
        found = indices.get(net)
        if found is None:
            found = indices[net] = units(net, "a net") + lib.KERN_TW_NET_OFFSET
        return found

    lost = {1: index(-1), 2: index(-2)}

    def p_bj(up: int, removed: tuple) -> float:
        """P(the dealer's next card completes a natural | ``removed`` gone)."""
        if up not in (tw.ACE, tw.TEN):
            return 0.0
        other = tw.TEN if up == tw.ACE else tw.ACE
        return (counts[other - 1] - removed[other - 1]) / (n - tw.cards(removed))

    for up in tw.VALUES:
        if not counts[up - 1]:
            continue
        peek = rules.peeks(up)
        no_bj = (lambda removed: 1 - p_bj(up, removed)) if peek else (lambda removed: 1.0)
        # The player's hands, as multisets, by the number of cards: the weight of every way
        # to reach one (paths merge: the table plays a longer hand by its total alone).
        # Paths are weighted without conditioning on the hole card; each settled hand is
        # then joint with "no dealer natural" under the peek (its dealer law drops it).
        layer: dict[tuple, float] = {}
        for c1 in tw.VALUES:
            for c2 in tw.VALUES[c1 - 1:]:
                removed = tw.of(up, c1, c2)
                if any(r > c for r, c in zip(removed, counts)):
                    continue
                p = counts[up - 1] / n * (counts[c1 - 1] - (c1 == up)) / (n - 1) \
                    * (counts[c2 - 1] - (c2 == up) - (c2 == c1)) / (n - 2) * (1 if c1 == c2 else 2)
                hand = tw.of(c1, c2)
                if tw.is_natural(hand) and rules.take_even_money and up == tw.ACE:
                    law[index(Fraction(1))] += p        # even money (000 1-7)
                    continue
                if tw.is_natural(hand) and pontoon:
                    law[index(rules.blackjack_pays)] += p     # 000 第2 3-5-ハ: paid at once
                    continue
                if tw.is_natural(hand):
                    bj = p_bj(up, removed)
                    law[index(rules.blackjack_pays)] += p * (1 - bj)
                    law[index(Fraction(0))] += p * bj
                    continue
                if peek:
                    law[index(Fraction(-1))] += p * p_bj(up, removed)   # the peek ends the round
                layer[hand] = layer.get(hand, 0.0) + p
        stands: dict[tuple, float] = {}     # (hand, stake) -> weight of standing with it
        while layer:
            following: dict[tuple, float] = {}
            for hand, weight in layer.items():
                removed = tw.add(hand, up)
                a = int(cells[lib.kern_tw_cell(0, up, can, _key(hand, pontoon))])
                if a == lib.KERN_TW_NO_CELL:
                    raise ValueError(f"the strategy has no play for {tw.describe(hand)} against {up}")
                if a == _STAND:
                    stands[(hand, 1)] = stands.get((hand, 1), 0.0) + weight
                    continue
                if a == _SURRENDER and pontoon:
                    # 3-10-ロ: half the stake, all of it if the dealer makes pontoon
                    bj = p_bj(up, removed)
                    law[index(Fraction(-1, 2))] += weight * (1 - bj)
                    law[index(Fraction(-1))] += weight * bj
                    continue
                if a in (_SURRENDER, _SPLIT):
                    # two cards: the surrender ends the round; the whole split is one class
                    cls = lib.KERN_TW_SPLIT_CLASS if a == _SPLIT else index(Fraction(-1, 2))
                    law[cls] += weight * no_bj(removed)
                    continue
                stake = 2 if a == _DOUBLE else 1
                left = n - tw.cards(removed)
                for i, c in enumerate(counts):
                    c -= removed[i]
                    if c <= 0:
                        continue
                    nxt, w = tw.add(hand, i + 1), weight * c / left
                    t = tw.total(nxt)[0]
                    if pontoon and (a == _DOUBLE or t == 21):
                        _pontoon_settled(rules, shoe, cells, up, nxt, a == _DOUBLE, w, stands, law, index)
                        continue
                    if t > 21:
                        law[lost[stake]] += w * no_bj(tw.add(removed, i + 1))
                    elif a == _DOUBLE or t == 21:     # one card to a double; 21 stands
                        stands[(nxt, stake)] = stands.get((nxt, stake), 0.0) + w
                    else:
                        following[nxt] = following.get(nxt, 0.0) + w
            layer = following
        if stands:
            _settle_stands(rules, up, counts, stands, settle, law, index)
    return law


def _pontoon_settled(rules, shoe, cells, up, hand, doubled, weight, stands, law, index) -> None:
    """Pontoon (000 第2 3): a hand just doubled (its aces count 1, a bust, a 21 that wins 1 to 1 on
    the stake, a rescue, or a stand as ``(hand, "doubled")``), or a hit to 21 (its bonus law)."""
    if not doubled:
        for pays, q in pt.pay_law(rules, shoe, hand, False).items():
            law[index(pays)] += weight * q
        return
    t = tw.hard_total(hand)
    if t > 21:
        law[index(Fraction(-2))] += weight
    elif t == 21:
        law[index(Fraction(2))] += weight
    elif int(cells[lib.kern_tw_cell(3, up, 0, lib.KERN_TW_PAIRS + t)]) == _RESCUE:
        law[index(Fraction(-1))] += weight
    else:
        stands[(hand, "doubled")] = stands.get((hand, "doubled"), 0.0) + weight


def _settle_stands(rules, up, counts, stands: dict, settle, law: np.ndarray, index) -> None:
    """Add to ``law`` every standing hand's nets against the dealer's law for the cards it leaves."""
    peek = rules.peeks(up)
    hands = list(dict.fromkeys(hand for hand, _ in stands))
    row = {hand: i for i, hand in enumerate(hands)}
    left = np.array([[c - r for c, r in zip(counts, tw.add(hand, up))] for hand in hands])
    laws = dealer_laws(rules, up, left)
    # The standard settlement reads only the total: its nets are shared by every hand of one total.
    by_total = settle is tw.standard_settle
    nets: dict = {}
    for (hand, stake), weight in stands.items():
        dist = laws[row[hand]]
        key = tw.total(hand) if by_total else hand
        if stake == "doubled":     # Pontoon: a doubled hand counts its aces 1
            key, stake = tw.hard_total(hand), 2
        for o in range(tw.OUTCOMES):
            if not dist[o] or (o == tw.DBJ and peek):
                continue
            found = nets.get((key, stake, o))
            if found is None:
                if o == tw.DBJ:     # no hole card: a dealer natural takes the original stake only (1-12-ロ)
                    net = Fraction(-1 if rules.original_bet_only else -stake)
                elif rules.pontoon and stake == 2:
                    net = Fraction(2 * pt.doubled_net(key, o))
                else:
                    net = stake * settle(hand, o, False)
                found = nets[(key, stake, o)] = index(net)
            law[found] += weight * dist[o]


def labelled(law: np.ndarray, label) -> dict[str, float]:
    """The classes of ``law`` with a probability, by name: ``label(net)`` for a net, ``SPLIT``."""
    out = {}
    for i in np.flatnonzero(law):
        out[SPLIT if i == lib.KERN_TW_SPLIT_CLASS else label(Fraction(int(i) - lib.KERN_TW_NET_OFFSET,
                                                                          lib.KERN_TW_DEN))] = float(law[i])
    return out
