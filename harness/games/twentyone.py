"""The twenty-one family's shared math: hands, the dealer, and the exact EV of every decision.

Every twenty-one game (``blackjack``, ``blackjack-switch``, ``deluxe-blackjack``,
``pa-blackjack``, ``pontoon``) states its rules as a :class:`Rules` table and hands it
to this module; what only Switch and Pontoon have is in
:mod:`harness.games.twentyone_switch` and :mod:`harness.games.twentyone_pontoon`.

Cards are point values 1..10 (1 = ace, 10 = any ten-value card); suits never
matter to the main bet but for Pontoon's suited bonuses (its module).  A shoe is a :class:`FiniteShoe` (cards of each value
left) or an :class:`InfiniteShoe` (fixed draw probabilities).  A hand is a
multiset of values, a 10-tuple of counts, so every probability is a function
of exactly which cards have left the shoe.

Exact method.  For the first round of a full shoe, the unseen cards are a
uniform random ordering, so the order in which they are dealt does not
matter (exchangeability): the dealer's hole card can be treated as drawn after
the player's cards.  So the value of a decision is computed *jointly with*
"the dealer has no blackjack": a terminal hand contributes
``P(path) * sum over dealer outcomes o != blackjack of P(o | cards left) * pay``,
which is exact and keeps every decision's comparison at a node the same as
with the conditional values (the conditioning factor is common to the node).
A hit or a double draws each value with probability count / cards left;
the dealer plays out from the cards left after the player's (composition
dependent at every step).  Everything is ``fractions.Fraction``.

Splits.  Two hands of one round share the shoe, so their values are not
independent.  Like the published analysers, a split hand is evaluated on the
shoe less the upcard and the pair cards dealt so far (how many hands have
been split), not less the other hands' drawn cards; with an infinite shoe
this is exact (the hands are independent).  The approximation's size on a
finite shoe is bounded in the tests by the exhaustive round-by-round check on
small shoes (``tests/test_games_twentyone.py``).  Without the hole card a split against an
A or ten is played by the peeking twin's decisions (valued jointly with "no blackjack") and
the dealer-blackjack case of that play is added exactly (:meth:`Evaluator.split_blackjack_law`:
busts lost at once, the original stake once from the hands still standing, 000 1-9-ホ, 1-12-ロ;
or, read for the whole area, ``Rules.split_busts_returned``, the original stake only).
"""
from __future__ import annotations

import dataclasses
import functools
import math
from fractions import Fraction
from typing import Callable, Iterable, Mapping

from harness.kernels import ffi, lib
from rngcore.errors import raise_for_status

VALUES = tuple(range(1, 11))
ACE, TEN = 1, 10
STAND, HIT, DOUBLE, SPLIT, SURRENDER = "S", "H", "D", "P", "R"
RESCUE = "W"   # Pontoon's double-down rescue (000 第2 3-7-ホ): withdraw the double stake, lose the original
ACTIONS = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)
ACTION_NAMES = {STAND: "stand", HIT: "hit", DOUBLE: "double", SPLIT: "split", SURRENDER: "surrender",
                RESCUE: "rescue"}
# Dealer outcome indices: final totals 17..21, bust, blackjack, 22 (a push in Switch, else a bust).
D17, D21, DBUST, DBJ, D22 = 0, 4, 5, 6, 7
OUTCOMES = 8
EMPTY = (0,) * 10


def add(hand: tuple, value: int, count: int = 1) -> tuple:
    """The multiset ``hand`` with ``count`` more cards of ``value``."""
    out = list(hand)
    out[value - 1] += count
    return tuple(out)


def of(*values: int) -> tuple:
    """The multiset of the given card values."""
    hand = EMPTY
    for v in values:
        hand = add(hand, v)
    return hand


@functools.lru_cache(maxsize=1 << 16)     # the exact analyses ask it millions of times of a few thousand hands
def hard_total(hand: tuple) -> int:
    return sum(v * n for v, n in zip(VALUES, hand))


@functools.lru_cache(maxsize=1 << 16)
def total(hand: tuple) -> tuple[int, bool]:
    """(best total, soft): an ace counts 11 while that does not exceed 21 (000 第2 1-5-ロ; 002 § 549.3(b))."""
    hard = hard_total(hand)
    if hand[0] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def cards(hand: tuple) -> int:
    return sum(hand)


def is_natural(hand: tuple) -> bool:
    """Two cards totalling 21: an ace and a ten-value card."""
    return cards(hand) == 2 and hand[0] == 1 and hand[9] == 1


def pair_value(hand: tuple) -> int | None:
    """The value of a two-card pair of equal point value (000 1-9-ニ-(1)), else None."""
    if cards(hand) == 2:
        for v, n in zip(VALUES, hand):
            if n == 2:
                return v
    return None


# ------------------------------------------------------------------- rules --

@dataclasses.dataclass(frozen=True)
class Rules:
    """A twenty-one rule set, as the analysis and the engine read it.

    Every field is one rule of a seed; the game modules build this from
    their cited tables.

    Attributes
    ----------
    hit_soft_17 : bool
        The dealer draws to a soft 17 (000 1-10-ロ-(2)); else stands on all 17s.
    blackjack_pays : Fraction
        Net win of a player blackjack (3/2, 6/5, or 1 in Switch).
    hole_card : bool
        The dealer takes a hole card and peeks with an ace or ten-value card up
        (000 1-5-イ-(2), 1-8); False: the no-hole-card rule, the dealer's second
        card comes after the players act.
    original_bet_only : bool
        Against a dealer blackjack only the original stake is lost (000 1-12-ロ);
        matters under the no-hole-card rule.
    split_busts_returned : bool
        With ``original_bet_only``, how a no-hole-card dealer blackjack settles an area whose
        split hands busted while another still stands.  False (000's reading, the default):
        a bust was lost at once (1-9-ホ, 1-11-ロ-(2)-(三)) and the hands still standing lose
        the original stake once (1-12-ロ), so 8-8 against a ten, one hand busted, one
        standing, loses 2.  True: the area loses its original stake only, whatever its split
        hands did (1-12-ロ read for the whole area, the busts' stakes returned), so the same
        round loses 1.  Not for Pontoon.  ``docs/table_games.md`` gives the reasons.
    double_totals : frozenset of int or None
        Hard or soft totals a two-card hand may double on (None: any, 000 1-9-ニ-(2)).
    double_after_split : bool
    surrender : bool
        Surrender of the initial two cards (half the stake), allowed against the
        upcards in ``surrender_upcards``.
    surrender_upcards : frozenset of int
    max_hands : int
        Hands one seat may hold after splitting (2 = no re-split).
    resplit_aces : bool
    hit_split_aces : bool
        Split aces may draw (and double) like other split hands; else one card each.
    dealer_22_push : bool
        A dealer 22 pushes every hand but a player blackjack (000 第2 2-10).
    take_even_money : bool
        The player takes even money on a blackjack against an ace (000 第2 1-7): paid 1 to 1
        at once, before the peek or the dealer's second card.  A player's choice, not a
        rule: declining is worth more (3/2 times the chance of no dealer blackjack).
    switch : bool
        Two hands per seat, equal stakes (000 第2 2-4-ハ), whose second cards the seat may
        exchange after the peek (2-8-ニ); :mod:`harness.games.twentyone_switch`.
    pontoon : bool
        Pontoon's settlement (000 第2 3; :mod:`harness.games.twentyone_pontoon`): a player 21
        always wins (3-9-ロ-(1)-(一)), a pontoon at once; 21s of five, six, seven or more cards and
        6-7-8 / 7-7-7 pay ``pontoon_bonus`` (3-10-ニ); an ace in a doubled hand counts 1
        (3-5-ロ-(1)); a doubled win pays 1 to 1 on the total stake (3-10-ホ); a doubled hand of 20
        or less may be rescued (3-7-ホ); a surrender loses all against a dealer pontoon (3-10-ロ).
    pontoon_bonus : tuple of Fraction
        Pays of :data:`harness.games.twentyone_pontoon.BONUS_HANDS`, in that order.
    double_any_cards : bool
        A hand of three or more cards totalling 20 or less may double (000 第2 3-7-ト-(2)-(一)).
    """

    hit_soft_17: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    hole_card: bool = True
    original_bet_only: bool = True
    split_busts_returned: bool = False
    double_totals: frozenset | None = None
    double_after_split: bool = True
    surrender: bool = False
    surrender_upcards: frozenset = frozenset(VALUES)
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    dealer_22_push: bool = False
    take_even_money: bool = False
    switch: bool = False
    pontoon: bool = False
    pontoon_bonus: tuple = ()
    double_any_cards: bool = False

    def may_double(self, hand: tuple, split: bool) -> bool:
        n = cards(hand)
        if (n != 2 and not (self.double_any_cards and n >= 3)) or (split and not self.double_after_split):
            return False
        return self.double_totals is None or total(hand)[0] in self.double_totals

    def may_surrender(self, up: int) -> bool:
        return self.surrender and up in self.surrender_upcards

    def peeks(self, up: int) -> bool:
        """Whether a dealer blackjack is known before the players act."""
        return self.hole_card and up in (ACE, TEN)


# ------------------------------------------------------------------- shoes --

class FiniteShoe:
    """A shoe of known composition: ``counts[v - 1]`` cards of value v."""

    def __init__(self, counts):
        self.counts = tuple(int(c) for c in counts)
        if len(self.counts) != 10 or min(self.counts) < 0:
            raise ValueError(f"a shoe is 10 non-negative counts (A, 2..9, ten-value), got {counts!r}")
        self.size = sum(self.counts)

    @classmethod
    def decks(cls, decks: int, tens_per_deck: int = 16) -> "FiniteShoe":
        """``decks`` standard decks (``tens_per_deck=12``: Pontoon's, the 10s removed)."""
        return cls([4 * decks] * 9 + [tens_per_deck * decks])

    def left(self, removed: tuple) -> tuple:
        return tuple(c - r for c, r in zip(self.counts, removed))

    def key(self, removed: tuple):
        return removed

    def draws(self, removed: tuple) -> tuple[tuple[int, Fraction], ...]:
        """(value, probability) of the next card with ``removed`` gone; empty if none is left."""
        return _draws(self.left(removed))

    def probability(self, removed: tuple, value: int) -> Fraction:
        left = self.left(removed)
        n = sum(left)
        return Fraction(left[value - 1], n) if n else Fraction(0)

    def __repr__(self):
        return f"FiniteShoe({self.counts})"


@functools.lru_cache(maxsize=1 << 12)    # a hand's hit, double and split ask it of one composition in turn
def _draws(left: tuple) -> tuple[tuple[int, Fraction], ...]:
    n = sum(left)
    return tuple((v, Fraction(c, n)) for v, c in zip(VALUES, left) if c > 0) if n > 0 else ()


class InfiniteShoe:
    """Every card drawn with fixed probabilities (removal changes nothing)."""

    def __init__(self, weights=(1,) * 9 + (4,)):
        n = sum(weights)
        self.probabilities = tuple(Fraction(w, n) for w in weights)

    def key(self, removed: tuple):
        return None

    def draws(self, removed: tuple) -> list[tuple[int, Fraction]]:
        return [(v, p) for v, p in zip(VALUES, self.probabilities) if p > 0]

    def probability(self, removed: tuple, value: int) -> Fraction:
        return self.probabilities[value - 1]


# ------------------------------------------------------------------ dealer --

def _stands(t: int, soft: bool, hit_soft_17: bool) -> bool:
    """The dealer stands on 17 or more, drawing to a soft 17 under H17 (000 1-10-ロ, 2-9)."""
    return t > 17 or (t == 17 and not (soft and hit_soft_17))


def _outcome(t: int, natural: bool, dealer_22_push: bool) -> int:
    """Outcome index of a dealer who stood on ``t`` (a 22 pushes under Switch's 2-10)."""
    if natural:
        return DBJ
    if t <= 21:
        return t - 17
    return D22 if (t == 22 and dealer_22_push) else DBUST


def dealer_stands(hand: tuple, hit_soft_17: bool) -> bool:
    return _stands(*total(hand), hit_soft_17)


def dealer_outcome(hand: tuple, dealer_22_push: bool = False) -> int:
    """Outcome index of a finished dealer hand."""
    return _outcome(total(hand)[0], is_natural(hand), dealer_22_push)


@functools.lru_cache(maxsize=None)
def dealer_moves(hit_soft_17: bool, dealer_22_push: bool) -> dict[tuple[int, bool, bool], tuple[int, ...]]:
    """The dealer's play as a table, for the loops that walk the dealer's draws over many
    compositions (:class:`Dealer`, :mod:`harness.games.twentyone_first_round`):
    (hard total so far, holds an ace, the next card is the second) -> per value 1..10 the
    outcome index if the dealer stands after drawing it, else -1 (draws on)."""
    out = {}
    for hard in range(1, 22):
        for ace in (False, True):
            for second in (False, True):
                row = []
                for v in VALUES:
                    h = hard + v
                    soft = (ace or v == ACE) and h <= 11
                    t = h + 10 if soft else h
                    row.append(_outcome(t, second and t == 21, dealer_22_push)
                               if _stands(t, soft, hit_soft_17) else -1)
                out[(hard, ace, second)] = tuple(row)
    return out


@functools.lru_cache(maxsize=64)
def _dealer_scale(n: int):
    """(scale[j] = (n-j)...(n-K+1) for j = 0..17 as 256-bit limbs, (n)_K) of a shoe of ``n`` cards
    left, K = min(17, n) the most cards a dealer draws; ValueError if (n)_K needs more than 256 bits."""
    deepest = min(lib.KERN_TWD_MAX_DEPTH, n)
    scale = [math.perm(n - j, deepest - j) for j in range(deepest + 1)] + [0] * (lib.KERN_TWD_MAX_DEPTH - deepest)
    width = 8 * lib.KERN_TWD_LIMBS
    if scale[0].bit_length() > 8 * width:
        raise ValueError(f"a shoe of {n} cards is too large for the exact dealer law ({8 * width}-bit sums)")
    limbs = [(x >> (64 * k)) & 0xFFFF_FFFF_FFFF_FFFF for x in scale for k in range(lib.KERN_TWD_LIMBS)]
    return ffi.new("uint64_t[]", limbs), scale[0]


# the most cards a law's node may have gone past the full shoe: the upcard, the split pair cards
# and a hand's cards (at most 21 of them before a bust card), with room to spare
_LAW_DEPTH = 48


def _law_floor(shoe: FiniteShoe) -> int:
    """B of the finite-shoe laws' denominators D(n) = n!/B! (:meth:`Evaluator._law`): every node the
    analyses reach leaves at least B + K cards, K the most a dealer then draws."""
    return max(0, shoe.size - _LAW_DEPTH - lib.KERN_TWD_MAX_DEPTH)


@functools.lru_cache(maxsize=1 << 10)
def _law_denominator(n: int, floor: int) -> int:
    """D(n) = n!/floor! (1 if n < floor: no node has so few cards, the law's scale fails closed)."""
    return math.perm(n, n - floor) if n >= floor else 1


class Dealer:
    """The dealer's final-outcome distribution for every composition left (memoised)."""

    def __init__(self, rules: Rules, shoe):
        self.rules, self.shoe = rules, shoe
        self._cache: dict = {}     # the law as fractions (the outcome distributions' callers)
        self._counted: dict = {}   # a finite shoe's law as integers over one denominator (the stand values)

    def distribution(self, removed: tuple, up: int) -> tuple[Fraction, ...]:
        """P(outcome) for the dealer with ``up`` showing, the cards in ``removed`` (incl. ``up``) gone."""
        key = (self.shoe.key(removed), up)
        found = self._cache.get(key)
        if found is None:
            if isinstance(self.shoe, FiniteShoe):
                numerators, denominator = self.counts(removed, up)
                found = tuple(Fraction(x, denominator) for x in numerators)
            else:
                found = self._play(removed, of(up))
            self._cache[key] = found
        return found

    def counts(self, removed: tuple, up: int) -> tuple[tuple[int, ...], int]:
        """:meth:`distribution` on a finite shoe as (integer numerators, their one denominator)."""
        key = (removed, up)
        found = self._counted.get(key)
        if found is None:
            found = self._counted[key] = self._count(removed, of(up))
        return found

    def _count(self, removed: tuple, hand: tuple) -> tuple[tuple[int, ...], int]:
        """The law of :meth:`_play` on a finite shoe, in integers: a dealer path drawing j cards
        with counts c1..cj left has probability c1...cj / n(n-1)...(n-j+1), which is
        c1...cj * (n-j)...(n-K+1) over the one denominator n(n-1)...(n-K+1), with K the most
        cards the dealer can draw (every draw adds at least 1 to a hard total at most 17).
        So the outcome numerators are sums of integer products, summed exactly in C
        (``csrc/kernels/twentyone_dealer.c``, 256-bit integers), and only the 8 results are
        fractions (:meth:`_play`, the Fractions at every step, is its reference in the tests)."""
        left = self.shoe.left(removed)
        if min(left) < 0:       # fail closed: no play removes a card the shoe does not hold
            raise ValueError(f"the dealer's law: more cards gone than {self.shoe} holds ({removed})")
        n = sum(left)
        scale, denominator = _dealer_scale(n)
        out = ffi.new("uint64_t[]", lib.KERN_TWD_OUTCOMES * lib.KERN_TWD_LIMBS)
        status = lib.kern_tw_dealer_law(ffi.new("uint32_t[10]", left), VALUES[hand.index(1)],
                                        int(self.rules.hit_soft_17), int(self.rules.dealer_22_push), scale, out)
        raise_for_status(status, "the dealer's law")
        if status == lib.KERN_TWD_OVERFLOW:     # cannot happen under _dealer_scale's bound: fail closed
            raise ValueError(f"the dealer's law: a numerator passed {64 * lib.KERN_TWD_LIMBS} bits")
        raw, width = bytes(ffi.buffer(out)), 8 * lib.KERN_TWD_LIMBS
        return tuple(int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)), denominator

    def _play(self, removed: tuple, hand: tuple) -> tuple[Fraction, ...]:
        rules, shoe = self.rules, self.shoe
        memo: dict = {}

        def play(drawn: tuple, hand: tuple) -> list[Fraction]:
            found = memo.get(hand)
            if found is not None:
                return found
            out = [Fraction(0)] * OUTCOMES
            gone = tuple(a + b for a, b in zip(removed, drawn))
            for v, p in shoe.draws(gone):
                nxt = add(hand, v)
                if dealer_stands(nxt, rules.hit_soft_17):
                    out[dealer_outcome(nxt, rules.dealer_22_push)] += p
                else:
                    for i, q in enumerate(play(add(drawn, v), nxt)):
                        if q:
                            out[i] += p * q
            memo[hand] = out
            return out

        return tuple(play(EMPTY, hand))


# ------------------------------------------------------------- evaluation --

def standard_hand_key(hand: tuple) -> tuple:
    """What a hand's value depends on besides the cards left, for the standard settlement:
    its total, whether it still has two cards and, for a two-card pair, the pair's value.

    With an infinite shoe the total and the card count decide the hand's future; the pair
    decides its play: a chart plays a pair it does not split by its pair row, which may differ
    from the row of the same total (5-5 D where hard 10 says H), so 5-5 and 4-6 must not share
    one memo entry.  After a hit the hand is a total again."""
    return total(hand), min(cards(hand), 3), pair_value(hand)


Settle = Callable[[tuple, int, bool], Fraction]


def standard_settle(hand: tuple, outcome: int, split: bool) -> Fraction:
    """Net per unit staked of a finished, unbusted, non-blackjack hand (000 1-11):
    higher total wins, equal pushes, dealer bust wins, dealer blackjack wins for the dealer;
    a dealer 22 (Switch) pushes."""
    if outcome == DBUST:
        return Fraction(1)
    if outcome in (DBJ,):
        return Fraction(-1)
    if outcome == D22:
        return Fraction(0)
    t, _ = total(hand)
    d = 17 + outcome
    return Fraction((t > d) - (t < d))


@dataclasses.dataclass(frozen=True)
class Context:
    """Where a hand stands: two cards dealt (``first``), after a split, a split ace; ``doubled``:
    Pontoon's rescue decision after a double (000 第2 3-7-ホ)."""

    split: bool = False
    split_aces: bool = False
    doubled: bool = False


class Evaluator:
    """Exact values of every decision for one upcard, on one shoe, under ``rules``.

    Values are *joint with no dealer blackjack* where the dealer peeks (see the
    module doc); under the no-hole-card rule a dealer blackjack is an outcome
    like any other (and costs only the original stake, ``original_bet_only``).

    Parameters
    ----------
    strategy : callable or None
        ``strategy(hand, up, context, allowed) -> action`` for a fixed strategy;
        None plays every decision for the best value (composition dependent).
    """

    def __init__(self, rules: Rules, shoe, up: int, dealer: Dealer, strategy=None, settle: Settle = standard_settle,
                 hand_key: Callable[[tuple], object] | None = None):
        self.rules, self.shoe, self.up, self.dealer = rules, shoe, up, dealer
        self.strategy, self.settle = strategy, settle
        self.hand_key = hand_key or standard_hand_key
        self.peek = rules.peeks(up)
        self._memo: dict = {}
        self._stands: dict = {}
        self._dists: dict = {}      # laws of _play_law
        self._counted = isinstance(shoe, FiniteShoe)
        self._floor = _law_floor(shoe) if self._counted else 0
        self._laws: dict = {}       # the dealer's law over D(n) per composition (finite shoe)

    # -- terminal values -------------------------------------------------------

    def blackjack_after(self, removed: tuple) -> Fraction:
        """P(the dealer's second card completes a blackjack | cards removed)."""
        if self.up not in (ACE, TEN):
            return Fraction(0)
        return self.shoe.probability(removed, TEN if self.up == ACE else ACE)

    def _blackjack_may_come(self) -> bool:
        """No hole card and an A or ten-value card up: a dealer blackjack may follow the play."""
        return not self.peek and self.up in (ACE, TEN)

    def _no_bj(self, removed: tuple) -> Fraction:
        """P(the dealer does not complete a blackjack | cards removed), for the joint values."""
        if not self.peek:
            return Fraction(1)
        return 1 - self.blackjack_after(removed)

    def stand(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> Fraction:
        """Joint value of standing on ``hand`` (its cards and the upcard in ``removed``)."""
        key = (self.shoe.key(removed), self.hand_key(hand), stake, ctx.split)
        found = self._stands.get(key)
        if found is None:
            found = self._stands[key] = self._stand(hand, removed, stake, ctx)
        return found

    def _stand(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> Fraction:
        if isinstance(self.shoe, FiniteShoe):
            found = self._stand_counted(hand, removed, stake, ctx)
            if found is not None:
                return found
        value = Fraction(0)
        for outcome, p in enumerate(self.dealer.distribution(removed, self.up)):
            net = self._stand_net(hand, outcome, stake, ctx) if p else None
            if net is not None:
                value += p * net
        return value

    def _stand_net(self, hand: tuple, outcome: int, stake: int, ctx: Context) -> Fraction | None:
        """Net of a standing hand against a dealer outcome; None for a dealer blackjack under the
        peek (the values are joint with "no dealer blackjack")."""
        if outcome == DBJ:
            if self.peek:
                return None
            return Fraction(-1 if self.rules.original_bet_only else -stake)
        return stake * self.settle(hand, outcome, ctx.split)

    def _stand_counted(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> Fraction | None:
        """:meth:`_stand` summed in integers over the dealer's one denominator on a finite shoe (one
        fraction instead of one per outcome: the finite-shoe analyses' hot spot), or None where a
        net per outcome is not a whole number of stakes."""
        numerators, denominator = self.dealer.counts(removed, self.up)
        value = 0
        for outcome, x in enumerate(numerators):
            net = self._stand_net(hand, outcome, stake, ctx) if x else None
            if net is None:
                continue
            if net.denominator != 1:
                return None
            value += x * int(net)
        return Fraction(value, denominator)

    def bust(self, removed: tuple, stake: int) -> Fraction:
        return -stake * self._no_bj(removed)

    # -- decisions --------------------------------------------------------------

    def allowed(self, hand: tuple, ctx: Context) -> tuple[str, ...]:
        """Actions open to ``hand`` (splits are decided by :meth:`pair_split`)."""
        t, _ = total(hand)
        if ctx.split_aces and cards(hand) == 2 and not self.rules.hit_split_aces:
            return (STAND,)
        acts = [STAND]
        if t < 21:
            acts.append(HIT)
            if self.rules.may_double(hand, ctx.split):
                acts.append(DOUBLE)
        if cards(hand) == 2 and not ctx.split and self.rules.may_surrender(self.up):
            acts.append(SURRENDER)
        return tuple(acts)

    def action_value(self, action: str, hand: tuple, removed: tuple, ctx: Context) -> Fraction:
        if action == STAND:
            return self.stand(hand, removed, 1, ctx)
        if action == SURRENDER:
            # Half the stake, with or without a dealer blackjack to come (no-hole-card);
            # under the peek the surrender happens only after "no blackjack".
            return Fraction(-1, 2) * (self._no_bj(removed) if self.peek else 1)
        if action == DOUBLE:
            value = Fraction(0)
            for v, p in self.shoe.draws(removed):
                nxt, gone = add(hand, v), add(removed, v)
                value += p * (self.bust(gone, 2) if total(nxt)[0] > 21 else self.stand(nxt, gone, 2, ctx))
            return value
        if action == HIT:
            value = Fraction(0)
            after = Context(ctx.split, False)
            for v, p in self.shoe.draws(removed):
                nxt, gone = add(hand, v), add(removed, v)
                value += p * (self.bust(gone, 1) if total(nxt)[0] > 21 else self.best(nxt, gone, after)[1])
            return value
        raise ValueError(f"unknown action {action!r}")

    def best(self, hand: tuple, removed: tuple, ctx: Context) -> tuple[str, Fraction]:
        """(action, joint value) of the strategy's (or the best) play of ``hand``."""
        key = (self.shoe.key(removed), self.hand_key(hand), ctx)
        found = self._memo.get(key)
        if found is not None:
            return found
        acts = self.allowed(hand, ctx)
        if self.strategy is not None:
            act = self.strategy(hand, self.up, ctx, acts)
            found = (act, self.action_value(act, hand, removed, ctx))
        else:
            found = max(((a, self.action_value(a, hand, removed, ctx)) for a in acts), key=lambda av: av[1])
        self._memo[key] = found
        return found

    def values(self, hand: tuple, removed: tuple, ctx: Context = Context()) -> dict[str, Fraction]:
        """Joint value of every allowed action of a hand (a split included for a pair)."""
        out = {a: self.action_value(a, hand, removed, ctx) for a in self.allowed(hand, ctx)}
        x = pair_value(hand)
        if x is not None and not ctx.split and self.rules.max_hands >= 2:
            if not self._blackjack_may_come():
                out[SPLIT] = self.pair_split(x, removed)
            else:
                # No hole card: the split hands are played jointly with "no blackjack" (the
                # peeking twin) and the dealer-blackjack case of that play is added exactly.
                twin = self._peeking()
                law = twin.split_blackjack_law(x, removed)
                out[SPLIT] = twin.pair_split(x, removed) + self.blackjack_after(removed) * sum(
                    (net * q for net, q in law.items()), Fraction(0))
        return out

    def _peeking(self) -> "Evaluator":
        twin = self.__dict__.get("_twin")
        if twin is None:
            twin = self._twin = type(self)(self.rules, self.shoe, self.up, self.dealer, self.strategy, self.settle,
                                           self.hand_key)
            twin.peek = True
        return twin

    # -- splits -----------------------------------------------------------------

    def _split_setup(self, x: int, removed: tuple) -> tuple[bool, Context, tuple]:
        """(may the pair be split again, the split hands' context, the removed cards less the pair)."""
        aces = x == ACE
        can_resplit = self.rules.max_hands > 2 and (not aces or self.rules.resplit_aces)
        return can_resplit, Context(split=True, split_aces=aces), add(removed, x, -2)

    def pair_split(self, x: int, removed: tuple) -> Fraction:
        """Joint value of splitting a pair of ``x`` (both pair cards in ``removed``).

        Hands are completed one at a time; a hand whose second card is another
        ``x`` is split again while the seat holds fewer than ``max_hands`` hands
        (aces only with ``resplit_aces``).  A hand is valued on the shoe less the
        upcard and the pair cards dealt so far (module doc).
        """
        rules = self.rules
        can_resplit, ctx, base = self._split_setup(x, removed)

        @functools.lru_cache(maxsize=None)
        def level(k: int) -> tuple[Fraction, Fraction, Fraction]:
            """(P(next card is x), value of [x, y != x], value of a stuck [x, x]) with k x's gone."""
            gone = add(base, x, k)
            q = Fraction(0)
            a = b = Fraction(0)
            for v, p in self.shoe.draws(gone):
                hand, after = of(x, v), add(gone, v)
                val = self._split_hand(hand, after, ctx)
                if v == x:
                    q, b = p, p * val
                else:
                    a += p * val
            return q, a, b

        @functools.lru_cache(maxsize=None)
        def pending(hands: int, waiting: int, k: int) -> Fraction:
            """Value of the ``waiting`` hands still to get their second card."""
            if waiting == 0:
                return Fraction(0)
            q, a, b = level(k)
            rest = a + (1 - q) * pending(hands, waiting - 1, k)
            if not q:           # no x left (b is 0): no level past the last pair card
                return rest
            if can_resplit and hands < rules.max_hands:
                return rest + q * pending(hands + 1, waiting + 1, k + 1)
            return rest + b + q * pending(hands, waiting - 1, k + 1)

        return pending(2, 2, 2)

    def _split_hand(self, hand: tuple, removed: tuple, ctx: Context) -> Fraction:
        return self.best(hand, removed, ctx)[1]

    # -- a split when a dealer blackjack may come (no hole card, A or ten up) ------------
    #
    # 000 1-9-ホ settles a bust at once and 1-11-ロ-(2)-(一) takes a busted hand out of "lost
    # to a dealer blackjack"; then 1-12-ロ collects only the original stake (one unit) from the
    # hands still standing, returning every stake a split or double added.  So given a dealer
    # blackjack a split nets minus its busted stakes, minus 1 if any hand still stands (with
    # ``split_busts_returned``: minus 1 if any hand stands, its busts returned).  The
    # hands are played as the peeking twin plays them (their decisions valued jointly with
    # "no blackjack"); called on that twin.

    def _blackjack_world(self, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """Law of (net settled at once, stake still standing) of a split hand played by
        :meth:`best`, given a dealer blackjack to come."""
        key = (self.shoe.key(removed), self.hand_key(hand), ctx)
        memo = self.__dict__.setdefault("_world", {})
        found = memo.get(key)
        if found is not None:
            return found
        act = self.best(hand, removed, ctx)[0]
        if act == STAND:
            out = self._world_stand(hand, ctx)
        else:
            out = {}
            for v, p in self.shoe.draws(removed):
                nxt, gone = add(hand, v), add(removed, v)
                if act == DOUBLE:
                    sub = self._world_doubled(nxt, gone, ctx)
                elif total(nxt)[0] > 21:
                    sub = {(Fraction(-1), 0): 1}
                else:
                    sub = self._blackjack_world(nxt, gone, Context(ctx.split, False))
                for k, q in sub.items():
                    out[k] = out.get(k, 0) + p * q
        memo[key] = out
        return out

    def _world_stand(self, hand: tuple, ctx: Context) -> dict:
        """A standing hand against a dealer blackjack: its one stake waits for the settlement."""
        return {(Fraction(0), 1): Fraction(1)}

    def _world_doubled(self, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """A doubled hand (its third card in ``hand``): a bust loses both stakes at once."""
        return {(Fraction(-2), 0): 1} if total(hand)[0] > 21 else {(Fraction(0), 2): 1}

    def split_blackjack_law(self, x: int, removed: tuple) -> dict[Fraction, Fraction]:
        """Law of a split's net given a dealer blackjack (the hands as :meth:`pair_split` plays
        them): the nets settled at once, and the original stake once if a hand still stands
        (every standing stake without ``original_bet_only``)."""
        rules = self.rules
        can_resplit, ctx, base = self._split_setup(x, removed)

        def combine(a: dict, b: dict) -> dict:
            out: dict = {}
            for (n1, l1), p in a.items():
                for (n2, l2), q in b.items():
                    k = (n1 + n2, l1 + l2)
                    out[k] = out.get(k, 0) + p * q
            return out

        @functools.lru_cache(maxsize=None)
        def level(k: int):
            gone = add(base, x, k)
            q, a, b = Fraction(0), {}, {}
            for v, p in self.shoe.draws(gone):
                target = b if v == x else a
                if v == x:
                    q = p
                for key, m in self._blackjack_world(of(x, v), add(gone, v), ctx).items():
                    target[key] = target.get(key, 0) + p * m
            return q, a, b

        @functools.lru_cache(maxsize=None)
        def pending(hands: int, waiting: int, k: int) -> dict:
            if waiting == 0:
                return {(Fraction(0), 0): Fraction(1)}
            q, a, b = level(k)
            out = combine(a, pending(hands, waiting - 1, k))
            if not q:           # no x left (b is empty): no level past the last pair card
                return out
            if can_resplit and hands < rules.max_hands:
                more = {key: q * m for key, m in pending(hands + 1, waiting + 1, k + 1).items()}
            else:
                more = combine(b, pending(hands, waiting - 1, k + 1))
            for key, m in more.items():
                out[key] = out.get(key, 0) + m
            return out

        law: dict = {}
        for (net, live), m in pending(2, 2, 2).items():
            if live and not rules.original_bet_only:
                net -= live
            elif live:
                # 1-12-ロ: the original stake once; read for the whole area, the busts come back too
                net = Fraction(-1) if rules.split_busts_returned else net - 1
            law[net] = law.get(net, 0) + m
        return law

    # -- outcome distributions: (dealer outcome, net) -> joint probability -------------
    #
    # Split hands face one dealer: they are independent only given the dealer's final
    # outcome, so distributions are kept per dealer outcome and summed over it at the end.
    #
    # The recursion below works on *laws*: on an infinite shoe a law is the distribution itself;
    # on a finite shoe it holds numerators over D(n) = n!/B! for a node of n cards left (B fixed
    # per shoe, :func:`_law_floor`).  As D(n) = n * D(n - 1), a draw of a value with c cards left
    # weighs its sub-law by the integer c, with no division, and the dealer's law (integers over
    # (n)_K, :meth:`Dealer.counts`) is scaled to D(n) by (n-K)!/B!: so a finite shoe's laws are
    # integer sums (but for a Fraction pay weight, Pontoon's suited bonuses: exact either way),
    # and only a law leaving the recursion is divided (:meth:`_probabilities`), not a Fraction
    # product at every step.

    def _law(self, removed: tuple) -> tuple:
        """The dealer's outcome law with ``removed`` gone, as the recursion's laws are."""
        if not self._counted:
            return self.dealer.distribution(removed, self.up)
        found = self._laws.get(removed)
        if found is None:
            numerators, denominator = self.dealer.counts(removed, self.up)
            scale, rest = divmod(self._denominator(sum(self.shoe.left(removed))), denominator)
            if rest:     # fail closed: a node deeper than _law_floor's bound
                raise ValueError(f"the outcome law: {removed} is deeper than the bound of {self.shoe}")
            found = self._laws[removed] = tuple(x * scale for x in numerators)
        return found

    def _weights(self, removed: tuple):
        """(value, weight) of the next card, as the recursion's laws are: the cards of that value left
        on a finite shoe (the law a level down is over D(n - 1) = D(n) / n), else its probability."""
        if not self._counted:
            return self.shoe.draws(removed)
        return [(v, c) for v, c in zip(VALUES, self.shoe.left(removed)) if c > 0]

    def _denominator(self, n: int) -> int:
        return _law_denominator(n, self._floor)

    def _probabilities(self, law: dict, removed: tuple) -> dict:
        """A law of the recursion as probabilities (finite shoe: its numerators over D(n))."""
        if not self._counted:
            return law
        d = self._denominator(sum(self.shoe.left(removed)))
        return {key: Fraction(m) / d for key, m in law.items()}

    def stand_law(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> dict:
        out: dict = {}
        for outcome, p in enumerate(self._law(removed)):
            net = self._stand_net(hand, outcome, stake, ctx) if p else None
            if net is not None:
                out[(outcome, net)] = out.get((outcome, net), 0) + p
        return out

    def _lost(self, removed: tuple, net: Fraction) -> dict:
        """A settled hand (bust, surrender) against every dealer outcome still possible (a law)."""
        return {(o, net): p for o, p in enumerate(self._law(removed)) if p and not (o == DBJ and self.peek)}

    def play_dist(self, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """Distribution of (dealer outcome, net of ``hand`` played by :meth:`best`), joint as the values."""
        return self._probabilities(self._play_law(hand, removed, ctx), removed)

    def _play_law(self, hand: tuple, removed: tuple, ctx: Context) -> dict:
        key = (self.shoe.key(removed), self.hand_key(hand), ctx)
        found = self._dists.get(key)
        if found is None:
            found = self._dists[key] = self.action_law(self.best(hand, removed, ctx)[0], hand, removed, ctx)
        return found

    def action_dist(self, action: str, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """Distribution of (dealer outcome, net) of ``hand`` played by ``action``, then :meth:`best`."""
        return self._probabilities(self.action_law(action, hand, removed, ctx), removed)

    def action_law(self, action: str, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """:meth:`action_dist` as a law of the recursion."""
        if action == STAND:
            return self.stand_law(hand, removed, 1, ctx)
        if action == SURRENDER:
            return self._lost(removed, Fraction(-1, 2))
        stake = 2 if action == DOUBLE else 1
        after = Context(ctx.split, False)
        out: dict = {}
        for v, p in self._weights(removed):
            nxt, gone = add(hand, v), add(removed, v)
            if total(nxt)[0] > 21:
                sub = self._lost(gone, Fraction(-stake))
            elif action == DOUBLE:
                sub = self.stand_law(nxt, gone, 2, ctx)
            else:
                sub = self._play_law(nxt, gone, after)
            for key, q in sub.items():
                out[key] = out.get(key, 0) + p * q
        return out

    def split_dist(self, x: int, removed: tuple) -> dict:
        """Distribution of (dealer outcome, total net) of a split of ``x``: the hands as in
        :meth:`pair_split`, independent given the dealer's outcome (exact with an infinite shoe)."""
        rules = self.rules
        can_resplit, ctx, base = self._split_setup(x, removed)
        dealer = self.dealer.distribution(removed, self.up)

        @functools.lru_cache(maxsize=None)
        def level(k: int, o: int):
            """(P(next card is x), [x, y != x] and stuck [x, x] net distributions given outcome o)."""
            gone = add(base, x, k)
            po = self.dealer.distribution(gone, self.up)[o]
            q, a, b = Fraction(0), {}, {}
            for v, p in self.shoe.draws(gone):
                target = b if v == x else a
                if v == x:
                    q = p
                for (oo, net), m in self.play_dist(of(x, v), add(gone, v), ctx).items():
                    if oo == o:
                        target[net] = target.get(net, 0) + p * m / po
            return q, a, b

        @functools.lru_cache(maxsize=None)
        def pending(hands: int, waiting: int, k: int, o: int) -> dict:
            if waiting == 0:
                return {Fraction(0): Fraction(1)}
            q, a, b = level(k, o)
            out = convolve(a, pending(hands, waiting - 1, k, o))
            if not q:           # no x left (b is empty): no level past the last pair card
                return out
            if can_resplit and hands < rules.max_hands:
                more = {net: q * m for net, m in pending(hands + 1, waiting + 1, k + 1, o).items()}
            else:
                more = convolve(b, pending(hands, waiting - 1, k + 1, o))
            for net, m in more.items():
                out[net] = out.get(net, 0) + m
            return out

        return {(o, net): po * m for o, po in enumerate(dealer) if po and not (o == DBJ and self.peek)
                for net, m in pending(2, 2, 2, o).items()}

    def initial_dist(self, action: str, hand: tuple, removed: tuple) -> dict:
        """Distribution of the net of an initial hand's chosen action, joint as :meth:`values`."""
        if action != SPLIT:
            joint = self.action_dist(action, hand, removed, Context())
        elif not self._blackjack_may_come():
            joint = self.split_dist(pair_value(hand), removed)
        else:
            twin, p = self._peeking(), self.blackjack_after(removed)
            joint = twin.split_dist(pair_value(hand), removed)
            for net, q in twin.split_blackjack_law(pair_value(hand), removed).items():
                joint[(DBJ, net)] = joint.get((DBJ, net), 0) + p * q
        out: dict = {}
        for (_, net), m in joint.items():
            out[net] = out.get(net, 0) + m
        return out


def convolve(a: Mapping, b: Mapping) -> dict:
    """Distribution of the sum of two independent nets."""
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


# --------------------------------------------------------------- the round --

@dataclasses.dataclass(frozen=True)
class HandValue:
    """One initial hand (two cards against an upcard): its probability and every action's value."""

    up: int
    hand: tuple
    probability: Fraction
    dealer_blackjack: Fraction           # P(dealer blackjack | these three cards)
    values: Mapping[str, Fraction]       # per action: E[net | these cards], dealer blackjack included
    action: str                          # the action played
    distribution: Mapping[Fraction, Fraction] | None = None   # net -> P(net | these cards), if asked for

    @property
    def value(self) -> Fraction:
        return self.values[self.action]


def first_round(rules: Rules, shoe, strategy=None, settle: Settle = standard_settle,
                distributions: bool = False, evaluators: dict | None = None, evaluator=None) -> list[HandValue]:
    """Every initial (upcard, two cards) of a full shoe, with each action's exact value.

    A player blackjack is settled before any decision: it wins ``blackjack_pays``
    unless the dealer also has one (a push; a Pontoon wins whatever the dealer holds).
    With the peek, a dealer blackjack ends the round before any decision (every other
    hand loses its stake).  ``evaluator``: the :class:`Evaluator` class to value hands
    with (Pontoon's, :mod:`harness.games.twentyone_pontoon`).
    """
    dealer = Dealer(rules, shoe)
    out = []
    for up, p_up in shoe.draws(EMPTY):
        ev = (evaluator or Evaluator)(rules, shoe, up, dealer, strategy, settle)
        if evaluators is not None:
            evaluators[up] = ev
        r0 = of(up)
        for c1, p1 in shoe.draws(r0):
            r1 = add(r0, c1)
            for c2, p2 in shoe.draws(r1):
                if c2 < c1:
                    continue
                prob = p_up * p1 * p2 * (1 if c1 == c2 else 2)
                hand = of(c1, c2)
                removed = add(r1, c2)
                p_bj = Fraction(0)
                if up in (ACE, TEN):
                    p_bj = shoe.probability(removed, TEN if up == ACE else ACE)
                settled = settled_first(rules, up, hand, p_bj)
                if settled is not None:
                    out.append(HandValue(up, hand, prob, p_bj, {STAND: settled[0]}, STAND,
                                         settled[1] if distributions else None))
                    continue
                joint = ev.values(hand, removed)
                if ev.peek:
                    values = {a: v - p_bj for a, v in joint.items()}
                else:
                    values = joint
                if strategy is not None:
                    acts = tuple(joint)
                    act = strategy(hand, up, Context(), acts)
                else:
                    act = max(values, key=values.get)
                dist = initial_distribution(ev, act, hand, removed, p_bj) if distributions else None
                out.append(HandValue(up, hand, prob, p_bj, values, act, dist))
    return out


def settled_first(rules: Rules, up: int, hand: tuple, p_bj: Fraction) -> tuple[Fraction, dict] | None:
    """(value, net distribution) of an initial hand settled before any decision, None for one that
    is played: even money on a blackjack against an ace (000 1-7: 1 at once), a Pontoon pontoon
    (3-5-ハ: paid at once), a blackjack (pushing a dealer blackjack, ``p_bj`` its probability)."""
    if not is_natural(hand):
        return None
    if rules.take_even_money and up == ACE:
        return Fraction(1), {Fraction(1): Fraction(1)}
    if rules.pontoon:
        return rules.blackjack_pays, {rules.blackjack_pays: Fraction(1)}
    return (1 - p_bj) * rules.blackjack_pays, {rules.blackjack_pays: 1 - p_bj, Fraction(0): p_bj}


def initial_distribution(ev: Evaluator, act: str, hand: tuple, removed: tuple, p_bj: Fraction) -> dict:
    """P(net | the initial cards) of an initial hand played by ``act`` (a peeked dealer blackjack,
    ``p_bj``, included as the loss of the stake)."""
    dist = ev.initial_dist(act, hand, removed)
    if ev.peek:
        dist[Fraction(-1)] = dist.get(Fraction(-1), 0) + p_bj
    return {net: m for net, m in dist.items() if m}


def net_distribution(hands: list[HandValue]) -> dict:
    """P(net per initial unit) of the round over the initial hands (needs ``distributions=True``)."""
    out: dict = {}
    for h in hands:
        for net, m in h.distribution.items():
            out[net] = out.get(net, 0) + h.probability * m
    return out


def expected_return(hands: list[HandValue]) -> Fraction:
    """E[net per initial unit] over the initial hands."""
    return sum((h.probability * h.value for h in hands), Fraction(0))


# ------------------------------------------------------------ rule tables --

@dataclasses.dataclass(frozen=True)
class RuleEntry:
    """One rule of a game's table: a :class:`Rules` field (or a side-bet price) and its citation."""

    name: str
    value: object
    source: str
    note: str = ""


def rules_from(table, **changes) -> Rules:
    """The :class:`Rules` a table states (entries naming no field are side-bet data), with changes."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    given = {e.name: e.value for e in table if e.name in fields}
    given.update(changes)
    return Rules(**given)


# --------------------------------------------------------------- strategy --

CONTEXTS = (Context(), Context(split=True), Context(split=True, split_aces=True))


class TableStrategy:
    """A total-dependent strategy: an action per (upcard, total, soft, two cards?, context), and
    per (upcard, pair value) whether to split.  Callable as an :class:`Evaluator` strategy."""

    def __init__(self, cells: Mapping, splits: Mapping):
        self.cells, self.splits = dict(cells), dict(splits)

    def key(self, hand: tuple, up: int, ctx: Context):
        t, soft = total(hand)
        return (up, t, soft, cards(hand) == 2, ctx)

    def longer(self, hand: tuple, up: int) -> str | None:
        """The play of the same total with more cards (a chart's fallback for D and R)."""
        t, soft = total(hand)
        return self.cells.get((up, t, soft, False, Context()))

    def __call__(self, hand: tuple, up: int, ctx: Context, allowed: tuple[str, ...]) -> str:
        x = pair_value(hand)
        if SPLIT in allowed and self.splits.get((up, x)):
            return SPLIT
        try:
            act = self.cells[self.key(hand, up, ctx)]
        except KeyError:
            raise ValueError(f"the strategy has no cell for {describe(hand)} against {up}") from None
        if act not in allowed:
            raise ValueError(f"the strategy plays {ACTION_NAMES[act]} on {describe(hand)} against {up}, "
                             f"which the rules do not allow")
        return act


def describe(hand: tuple) -> str:
    t, soft = total(hand)
    return f"{'soft' if soft else 'hard'} {t} ({cards(hand)} cards)"


def infinite_deck_analysis(rules: Rules, weights=(1,) * 9 + (4,), settle: Settle = standard_settle,
                           distributions: bool = True) -> tuple[list[HandValue], TableStrategy]:
    """The first round of an infinite shoe played for the best value, and that play as a table.

    With an infinite shoe a hand's future depends only on its total, softness and
    whether it still has two cards, so the optimum *is* total dependent: the
    basic strategy of ``rules``, every cell decided by comparing exact fractions,
    but for the split hands against an A or ten without the hole card: those are
    played by their values jointly with "no dealer blackjack" (the peeking twin),
    the split's value exact for that play (:meth:`Evaluator.split_blackjack_law`).
    """
    shoe = InfiniteShoe(weights)
    evaluators: dict = {}
    hands = first_round(rules, shoe, None, settle, distributions, evaluators)
    cells, splits = {}, {}
    for h in hands:
        if is_natural(h.hand):
            continue
        x = pair_value(h.hand)
        if x is not None:
            splits[(h.up, x)] = h.action == SPLIT
        rest = {a: v for a, v in h.values.items() if a != SPLIT}
        act = h.action if h.action != SPLIT else max(rest, key=rest.get)
        cells.setdefault((h.up, *total(h.hand), True, Context()), act)
    for up, ev in evaluators.items():
        # Under the no-hole-card rule a split against an A or 10 is valued by the peeking
        # twin (Evaluator.values): its split hands' plays are in the twin's memo.
        for each in (ev, ev.__dict__.get("_twin")):
            for (_, hand_key, ctx), (act, _) in ({} if each is None else each._memo).items():
                (t, soft), n, _ = hand_key
                cells.setdefault((up, t, soft, n == 2, ctx), act)
    return hands, TableStrategy(cells, splits)


# --------------------------------------------------------------- the round --

def allowed_actions(rules: Rules, up: int, hand: tuple, ctx: Context, can_split: bool) -> tuple[str, ...]:
    """Actions open to ``hand`` in a round against ``up``; ``can_split``: the seat may hold
    another hand (fewer than ``max_hands``).  The round engine in C asks its strategy table,
    which :mod:`harness.games.twentyone_table` fills by asking the strategy with these."""
    t, _ = total(hand)
    acts = [STAND]
    if not (ctx.split_aces and cards(hand) == 2 and not rules.hit_split_aces) and t < 21:
        acts.append(HIT)
        if rules.may_double(hand, ctx.split):
            acts.append(DOUBLE)
    if cards(hand) == 2 and not ctx.split and rules.may_surrender(up):
        acts.append(SURRENDER)
    if pair_value(hand) is not None and can_split and (not ctx.split_aces or rules.resplit_aces):
        acts.append(SPLIT)
    return tuple(acts)


# ------------------------------------------------------------------ chart --

CHART_UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, ACE)


def chart(strategy: TableStrategy) -> dict:
    """The strategy's two-card decisions as the familiar chart.

    Rows ``hard 5`` .. ``hard 19`` (two different cards), ``soft 13`` .. ``soft 20``
    (A,2 .. A,9) and ``pair 2`` .. ``pair 10``, ``pair A``; columns the upcards
    2..10, A; codes H (hit), S (stand), D (double, else hit), Ds (double, else
    stand), P (split), R (surrender, else hit), Rs (surrender, else stand).
    """
    def cell(hand: tuple, up: int) -> str:
        x = pair_value(hand)
        if x is not None and strategy.splits.get((up, x)):
            return SPLIT
        act = strategy.cells[strategy.key(hand, up, Context())]
        if act in (DOUBLE, SURRENDER):
            # What to do when it is not allowed: the same total's play with more cards.
            if strategy.longer(hand, up) == STAND:
                return act + "s"
        return act

    rows: dict[str, list[str]] = {}
    for t in range(5, 20):
        a = max(2, t - 10)
        rows[f"hard {t}"] = [cell(of(a, t - a) if t - a != a else of(a - 1, t - a + 1), up) for up in CHART_UPCARDS]
    for other in range(2, 10):
        rows[f"soft {11 + other}"] = [cell(of(ACE, other), up) for up in CHART_UPCARDS]
    for x in list(range(2, 11)) + [ACE]:
        rows[f"pair {'A' if x == ACE else x}"] = [cell(of(x, x), up) for up in CHART_UPCARDS]
    return {"upcards": ["A" if u == ACE else str(u) for u in CHART_UPCARDS], "rows": rows}


def chart_text(table: dict) -> str:
    """The chart as aligned text."""
    lines = ["          " + " ".join(f"{u:>2}" for u in table["upcards"])]
    for name, codes in table["rows"].items():
        lines.append(f"{name:<9} " + " ".join(f"{c:>2}" for c in codes))
    return "\n".join(lines)


def chart_csv(table: dict) -> str:
    """The chart as CSV (a header of upcards, one row per hand)."""
    lines = ["hand," + ",".join(table["upcards"])]
    lines += [f"{name}," + ",".join(codes) for name, codes in table["rows"].items()]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------- a user's chart --

CODES = {"H": (HIT, HIT), "S": (STAND, STAND), "D": (DOUBLE, HIT), "Ds": (DOUBLE, STAND),
         "R": (SURRENDER, HIT), "Rs": (SURRENDER, STAND), "P": (SPLIT, None)}


class ChartCells:
    """A strategy chart's rows (name -> upcard -> code), compared and hashed by its cells: equal charts
    of one kind are one strategy, so its exact values are computed once, however often it is read."""

    def __init__(self, rows: Mapping[str, Mapping[int, str]]):
        self.rows = rows
        self._cells = tuple(sorted((name, tuple(sorted(row.items()))) for name, row in rows.items()))

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._cells == other._cells

    def __hash__(self) -> int:
        return hash(self._cells)


class ChartStrategy(ChartCells):
    """A strategy read from a chart (the layout of :func:`chart_csv`): two-card decisions by
    row and upcard, D/R falling back to their second letter (H if none) where not allowed, a
    hand of more cards played by its total's row (without D/R), totals without a row by the
    obvious play (hard 20+, soft 21: stand; hard 4, soft 12: hit)."""

    def _code(self, hand: tuple, up: int) -> str:
        x = pair_value(hand)
        if x is not None:
            return self.rows[f"pair {'A' if x == ACE else x}"][up]
        t, soft = total(hand)
        row = self.rows.get(f"{'soft' if soft else 'hard'} {t}")
        if row is None:
            return STAND if t >= 20 else HIT
        return row[up]

    def _total_code(self, hand: tuple, up: int) -> str:
        t, soft = total(hand)
        row = self.rows.get(f"{'soft' if soft else 'hard'} {t}")
        return (STAND if t >= 20 else HIT) if row is None else row[up]

    def __call__(self, hand: tuple, up: int, ctx: Context, allowed: tuple[str, ...]) -> str:
        code = self._code(hand, up) if cards(hand) == 2 else self._total_code(hand, up)
        act, fallback = CODES[code]
        if act == SPLIT and SPLIT not in allowed:
            act, fallback = CODES[self._total_code(hand, up)]
            if act == SPLIT:
                act, fallback = HIT, HIT
        if act in allowed:
            return act
        return fallback if fallback in allowed else STAND


def read_chart_rows(text: str, where: str, codes: Mapping, known: Callable[[str], bool], rows_hint: str,
                    required: Iterable[str], check_cell: Callable[[int, str, str, str, int], None]) -> dict:
    """The rows of a chart in CSV text (``hand,2,...,10,A``, then one row per hand): name -> upcard -> code.

    The reading every game's chart shares: ``known(name)`` says whether a row name is one of the game's
    (``rows_hint`` lists them in the message), every code must be one of ``codes``, every row in
    ``required`` must be given, and ``check_cell(line, name, cell, code, upcard)`` refuses (ValueError) a
    code the game does not allow there, ``cell`` naming it as ``row 'hard 12' against 3``.

    Raises ValueError naming ``where`` and the line for an empty chart, a wrong header, an unknown or
    repeated row, a short or long row, an empty cell, an unknown code or a missing row.
    """
    lines = [line.strip() for line in text.splitlines()]
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line and not line.startswith("#")]
    if not numbered:
        raise ValueError(f"{where}: empty chart")
    head_no, head = numbered[0]
    wanted = ["hand"] + ["A" if u == ACE else str(u) for u in CHART_UPCARDS]
    if [u.strip() for u in head.split(",")] != wanted:
        raise ValueError(f"{where} line {head_no}: the header must be {','.join(wanted)}, got {head!r}")
    rows: dict[str, dict[int, str]] = {}
    for no, line in numbered[1:]:
        cells = [c.strip() for c in line.split(",")]
        name = cells[0]
        if not known(name):
            raise ValueError(f"{where} line {no}: unknown row {name!r} ({rows_hint})")
        if name in rows:
            raise ValueError(f"{where} line {no}: row {name!r} given twice")
        if len(cells) != len(wanted):
            raise ValueError(f"{where} line {no}: row {name!r} has {len(cells) - 1} cells, not {len(wanted) - 1} "
                             f"(one per upcard {','.join(wanted[1:])})")
        row = {}
        for up, code in zip(CHART_UPCARDS, cells[1:]):
            cell = f"row {name!r} against {'A' if up == ACE else up}"
            if not code:
                raise ValueError(f"{where} line {no}: missing cell: {cell} is empty (codes: {', '.join(codes)})")
            if code not in codes:
                raise ValueError(f"{where} line {no}: unknown code {code!r} in {cell} (codes: {', '.join(codes)})")
            check_cell(no, name, cell, code, up)
            row[up] = code
        rows[name] = row
    missing = [n for n in required if n not in rows]
    if missing:
        raise ValueError(f"{where}: missing row(s) {', '.join(missing)}")
    return rows


def read_chart(text: str, where: str) -> ChartStrategy:
    """A :class:`ChartStrategy` from CSV text (``hand,2,...,10,A`` then one row per hand).

    Raises ValueError naming ``where`` and the line for a missing row or cell, an
    unknown row, upcard or code, or a split on a row that is not a pair.
    """
    names = ([f"hard {t}" for t in range(5, 20)] + [f"soft {t}" for t in range(13, 21)]
             + [f"pair {x}" for x in list(range(2, 11)) + ["A"]])

    def check_cell(no: int, name: str, cell: str, code: str, up: int) -> None:
        if code == "P" and not name.startswith("pair"):
            raise ValueError(f"{where} line {no}: split (P) on {cell[len('row '):]}, which is not a pair")

    known = set(names)
    return ChartStrategy(read_chart_rows(text, where, CODES, known.__contains__,
                                         "rows: hard 5..19, soft 13..20, pair 2..10, A", names, check_cell))
