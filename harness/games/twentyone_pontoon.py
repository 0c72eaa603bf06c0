"""Pontoon's math (000 別表第1 第2 3): what it changes in the twenty-one family's exact values.

The round, the dealer and the splits are :mod:`harness.games.twentyone`'s; with
``Rules.pontoon`` this module's :class:`PontoonEvaluator` values the hands:

* a player 21 always wins (3-9-ロ-(1)-(一)), whatever the dealer makes, a dealer
  pontoon included; a pontoon (the first two cards) is paid at once (3-5-ハ);
* a winning 21 of five, six, seven or more cards and 6-7-8 / 7-7-7 pay the bonus
  table (3-10-ニ; the suited and all-spade 6-7-8 / 7-7-7 more);
* an ace in a doubled hand counts 1 (3-5-ロ-(1), literal), a doubled hand's win pays
  1 to 1 on its total stake (3-10-ホ), and a doubled hand of 20 or less may be
  *rescued* (3-7-ホ): the double stake withdrawn, the original stake lost at once;
* with ``double_any_cards`` a hand of three or more cards of 20 or less may double
  (3-7-ト-(2)-(一));
* a surrender (upcard A, K, Q or J, 3-7-ハ) loses half the stake, all of it if the
  dealer makes pontoon (3-10-ロ: the half applies "other than" a dealer pontoon);
* no hole card (3-5-イ): a dealer pontoon collects only the original stake of a hand
  with split or double stakes (3-10-ハ), which is ``Rules.original_bet_only``.

Splits against an A or ten-value card (a dealer pontoon may come): the family's
no-hole-card split (:meth:`harness.games.twentyone.Evaluator.split_blackjack_law`), the
split hands played by decisions valued jointly with "no dealer pontoon", their value adding
the exact value of the dealer-pontoon case for that same play; Pontoon's hands in it
(:meth:`PontoonEvaluator._world_stand`, :meth:`PontoonEvaluator._world_doubled`): each 21
wins its pay, a bust or a rescue loses what it lost at once, and the standing hands of 20
or less lose the original stake once (3-10-ハ).  With an infinite shoe the split hands are
independent, so this is exact there.

What a hand's future depends on (its key, for the infinite shoe's memo and the
strategy table): its total, softness, card count (``min(cards, 7)``: 5, 6 and 7+
card 21s pay differently, 3+ cards may double) and, for the two- and three-card
hands that are or may become 6-7-8 or 7-7-7, the cards themselves.  The memo's key
adds a two-card pair's value: a chart may play a pair it does not split (a split 6-6 that
may not be split again, ``split pair 6``) otherwise than the other hands of its total.
Nothing else: the other games' keys are not touched.

Suits.  The strategy sees card values, not suits.  Given every card's value, the
suits within one value are a uniform permutation of that value's cards, so the
suit of the hand's 6 (7, 8) is that of a card drawn at random from the shoe's
6s, independently for distinct values, and three 7s are a random 3-subset of the
7s: :func:`suit_odds` from the full shoe's suits per value.  So the values are
exact for a suit-blind strategy, on a finite shoe too.
"""
from __future__ import annotations

import math
from fractions import Fraction

from harness.games import twentyone as tw
from harness.games.twentyone import (DBJ, DBUST, DOUBLE, RESCUE, STAND, SURRENDER, Context, add, cards, hard_total,
                                     of, total)

# The bonus hands of 3-10-ニ, in the order of Rules.pontoon_bonus.
BONUS_HANDS = ("five_card_21", "six_card_21", "seven_card_21", "678", "678_suited", "678_spades",
               "777", "777_suited", "777_spades")
SIX_SEVEN_EIGHT, SEVEN_SEVEN_SEVEN = of(6, 7, 8), of(7, 7, 7)
SPADES = 0   # rngcore.devices.cards suit order S, H, D, C
PONTOON_WEIGHTS = (1,) * 9 + (3,)   # a Pontoon deck: 4 of each A..9, 12 of J, Q, K (3-1)


def _within(hand: tuple, whole: tuple) -> bool:
    return all(a <= b for a, b in zip(hand, whole))


def bonus_tag(hand: tuple):
    """The hand itself if it is 2 or 3 cards that are or may become 6-7-8 or 7-7-7, else None."""
    if cards(hand) in (2, 3) and (_within(hand, SIX_SEVEN_EIGHT) or _within(hand, SEVEN_SEVEN_SEVEN)):
        return hand
    return None


def hand_key(hand: tuple):
    """What a Pontoon hand's value depends on with an infinite shoe (module doc), and a two-card
    pair's value: a chart plays a pair it does not split by its own row (``split pair 6``, not
    ``hard 12``; :func:`harness.games.twentyone.standard_hand_key`)."""
    return total(hand), min(cards(hand), 7), bonus_tag(hand), tw.pair_value(hand)


def suits_of(shoe) -> dict[int, tuple[int, ...]] | None:
    """Cards of each suit per value of a finite shoe: ``shoe.suits`` if it states them, else an
    equal share of each value's count (full decks); None for an infinite shoe (suits uniform)."""
    if isinstance(shoe, tw.InfiniteShoe):
        return None
    given = getattr(shoe, "suits", None)
    if given is not None:
        return given
    out = {}
    for v in (6, 7, 8):
        c = shoe.counts[v - 1]
        if c % 4:
            raise ValueError(f"a shoe of {c} {v}s has no equal suits: give FiniteShoe.suits")
        out[v] = (c // 4,) * 4
    return out


def suit_odds(shoe, hand: tuple) -> tuple[Fraction, Fraction, Fraction]:
    """(P all spades, P all one other suit, P mixed) of a 6-7-8 or 7-7-7 ``hand`` (module doc)."""
    suits = suits_of(shoe)
    p = []
    for s in range(4):
        if suits is None:
            p.append(Fraction(1, 64))
        elif hand == SEVEN_SEVEN_SEVEN:
            p.append(Fraction(math.comb(suits[7][s], 3), math.comb(sum(suits[7]), 3)))
        else:
            q = Fraction(1)
            for v in (6, 7, 8):
                q *= Fraction(suits[v][s], sum(suits[v]))
            p.append(q)
    spades = p[SPADES]
    other = sum(p) - spades
    return spades, other, 1 - spades - other


def pay_law(rules: tw.Rules, shoe, hand: tuple, split: bool) -> dict[Fraction, Fraction]:
    """Net per unit of an undoubled 21 (it always wins, 3-9-ロ-(1)-(一)): the bonus table of 3-10-ニ."""
    bonus = dict(zip(BONUS_HANDS, rules.pontoon_bonus))
    n = cards(hand)
    for three, name in ((SIX_SEVEN_EIGHT, "678"), (SEVEN_SEVEN_SEVEN, "777")):
        if hand == three:
            spades, other, mixed = suit_odds(shoe, hand)
            out: dict = {}
            for pays, p in ((bonus[name], mixed), (bonus[name + "_suited"], other), (bonus[name + "_spades"], spades)):
                if p:
                    out[pays] = out.get(pays, 0) + p
            return out
    if n >= 5:
        return {bonus[("five_card_21", "six_card_21", "seven_card_21")[min(n, 7) - 5]]: Fraction(1)}
    return {Fraction(1): Fraction(1)}      # a split hand's two-card 21 is no pontoon (first two cards dealt)


def doubled_net(t: int, outcome: int) -> int:
    """Net per unit staked of a doubled hand of (hard) total ``t`` <= 21 against a dealer outcome
    other than a pontoon: a 21 always wins, 1 to 1 (3-10-ホ)."""
    if t == 21 or outcome == DBUST:
        return 1
    d = 17 + outcome
    return (t > d) - (t < d)


class PontoonEvaluator(tw.Evaluator):
    """:class:`harness.games.twentyone.Evaluator` with Pontoon's settlement (module doc)."""

    def __init__(self, rules: tw.Rules, shoe, up: int, dealer: tw.Dealer, strategy=None,
                 settle: tw.Settle = tw.standard_settle, key=None):
        super().__init__(rules, shoe, up, dealer, strategy, settle, key or hand_key)
        self._doubled: dict = {}
        self.rescues: dict = {}        # (total, split) -> keep (S) or rescue (W), the infinite shoe's play

    # -- standing --------------------------------------------------------------

    def _stand(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> Fraction:
        if total(hand)[0] != 21:
            return super()._stand(hand, removed, stake, ctx)
        win = sum((pays * p for pays, p in pay_law(self.rules, self.shoe, hand, ctx.split).items()), Fraction(0))
        # whatever the dealer makes (its law sums to 1 but for a shoe too small to finish the round)
        if isinstance(self.shoe, tw.FiniteShoe):      # one fraction of the law's integer numerators
            numerators, denominator = self.dealer.counts(removed, self.up)
            dealt = Fraction(sum(x for o, x in enumerate(numerators) if not (o == DBJ and self.peek)), denominator)
        else:
            dealt = sum(p for o, p in enumerate(self.dealer.distribution(removed, self.up))
                        if not (o == DBJ and self.peek))
        return win * dealt

    def stand_law(self, hand: tuple, removed: tuple, stake: int, ctx: Context) -> dict:
        if total(hand)[0] != 21:
            return super().stand_law(hand, removed, stake, ctx)
        law = pay_law(self.rules, self.shoe, hand, ctx.split)
        out: dict = {}
        for o, p in enumerate(self._law(removed)):
            if p and not (o == DBJ and self.peek):
                for pays, q in law.items():
                    out[(o, pays)] = out.get((o, pays), 0) + p * q
        return out

    def doubled_stand(self, t: int, removed: tuple, split: bool) -> Fraction:
        """Value of standing on a doubled hand of hard total ``t`` (a pontoon takes the original stake)."""
        key = (self.shoe.key(removed), t)
        found = self._doubled.get(key)
        if found is None:
            if isinstance(self.shoe, tw.FiniteShoe):     # summed over the law's one denominator
                numerators, denominator = self.dealer.counts(removed, self.up)
                found = Fraction(sum(x * self._doubled_net(t, o) for o, x in enumerate(numerators)
                                     if x and not (o == DBJ and self.peek)), denominator)
            else:
                found = sum((p * net for (_, net), p in self._doubled_stand_dist(t, removed).items()), Fraction(0))
            self._doubled[key] = found
        return found

    @staticmethod
    def _doubled_net(t: int, o: int) -> int:
        """A doubled hand's net against outcome ``o``: a 21 wins whatever the dealer makes; a dealer
        pontoon takes the original stake only (3-10-ハ)."""
        return -1 if o == DBJ and t < 21 else 2 * doubled_net(t, o)

    def _doubled_stand_dist(self, t: int, removed: tuple) -> dict:
        """The law (:meth:`harness.games.twentyone.Evaluator.action_law`'s) of standing on a doubled hard ``t``."""
        law = self._law(removed)
        return {(o, Fraction(self._doubled_net(t, o))): p for o, p in enumerate(law) if p and not (o == DBJ and self.peek)}

    def after_double(self, hand: tuple, removed: tuple, ctx: Context) -> tuple[str, Fraction]:
        """(keep S or rescue W, value) of a doubled hand of 21 or less (its aces count 1)."""
        t = hard_total(hand)
        keep = self.doubled_stand(t, removed, ctx.split)
        if t > 20:
            return STAND, keep
        rescue = self.bust(removed, 1)            # 3-7-ホ: the original stake collected at once
        if self.strategy is not None:
            act = self.strategy(hand, self.up, Context(ctx.split, False, True), (STAND, RESCUE))
        else:
            act = RESCUE if rescue > keep else STAND
            if isinstance(self.shoe, tw.InfiniteShoe):
                self.rescues.setdefault((t, ctx.split), act)
        return act, rescue if act == RESCUE else keep

    # -- a split against a possible dealer pontoon (the family's law, Pontoon's hands) ------

    def _world_stand(self, hand: tuple, ctx: Context) -> dict:
        """A 21 wins its pay whatever the dealer holds (3-9-ロ-(1)-(一)); 20 or less waits."""
        if total(hand)[0] == 21:
            return {(pays, 0): q for pays, q in pay_law(self.rules, self.shoe, hand, ctx.split).items()}
        return super()._world_stand(hand, ctx)

    def _world_doubled(self, hand: tuple, removed: tuple, ctx: Context) -> dict:
        """A doubled hand (aces count 1): a bust loses both stakes, a 21 wins them, a rescue loses
        the original stake at once (3-7-ホ), else it waits."""
        t = hard_total(hand)
        if t > 21:
            return {(Fraction(-2), 0): 1}
        if t == 21:
            return {(Fraction(2), 0): 1}
        if self.after_double(hand, removed, ctx)[0] == RESCUE:
            return {(Fraction(-1), 0): 1}
        return {(Fraction(0), 2): 1}

    # -- decisions ---------------------------------------------------------------

    def action_value(self, action: str, hand: tuple, removed: tuple, ctx: Context) -> Fraction:
        if action == SURRENDER:
            p = self.blackjack_after(removed)
            return Fraction(-1, 2) * (1 - p) - p
        if action == DOUBLE:
            value = Fraction(0)
            for v, p in self.shoe.draws(removed):
                nxt, gone = add(hand, v), add(removed, v)
                value += p * (self.bust(gone, 2) if hard_total(nxt) > 21 else self.after_double(nxt, gone, ctx)[1])
            return value
        return super().action_value(action, hand, removed, ctx)

    def action_law(self, action: str, hand: tuple, removed: tuple, ctx: Context) -> dict:
        if action == SURRENDER:
            return {(o, Fraction(-1) if o == DBJ else Fraction(-1, 2)): p
                    for o, p in enumerate(self._law(removed)) if p}
        if action != DOUBLE:
            return super().action_law(action, hand, removed, ctx)
        out: dict = {}
        for v, p in self._weights(removed):
            nxt, gone = add(hand, v), add(removed, v)
            t = hard_total(nxt)
            if t > 21:
                sub = self._lost(gone, Fraction(-2))
            elif self.after_double(nxt, gone, ctx)[0] == RESCUE:
                sub = self._lost(gone, Fraction(-1))
            else:
                sub = self._doubled_stand_dist(t, gone)
            for key, q in sub.items():
                out[key] = out.get(key, 0) + p * q
        return out


# --------------------------------------------------------------- strategy --

class PontoonStrategy(tw.TableStrategy):
    """A Pontoon strategy table: an action per (upcard, total, soft, cards up to 7, bonus tag,
    context), the rescue per (upcard, hard total, context ``doubled``), splits per (upcard, pair)."""

    def key(self, hand: tuple, up: int, ctx: Context):
        if ctx.doubled:
            return up, hard_total(hand), False, 0, None, ctx
        t, soft = total(hand)
        return up, t, soft, min(cards(hand), 7), bonus_tag(hand), ctx

    def longer(self, hand: tuple, up: int) -> str | None:
        t, soft = total(hand)
        return self.cells.get((up, t, soft, 3, None, Context()))


def pontoon_analysis(rules: tw.Rules, weights=PONTOON_WEIGHTS,
                     distributions: bool = True) -> tuple[list[tw.HandValue], PontoonStrategy]:
    """The first round of an infinite Pontoon shoe played for the best value, and that play as a
    table (the infinite-shoe optimum: Pontoon's basic strategy, every cell by exact fractions but the
    split hands against an A or J, played by their values given no dealer pontoon: the module doc)."""
    shoe = tw.InfiniteShoe(weights)
    evaluators: dict = {}
    hands = tw.first_round(rules, shoe, None, distributions=distributions, evaluators=evaluators,
                           evaluator=PontoonEvaluator)
    cells, splits = {}, {}
    for h in hands:
        if tw.is_natural(h.hand):
            continue
        x = tw.pair_value(h.hand)
        if x is not None:
            splits[(h.up, x)] = h.action == tw.SPLIT
        rest = {a: v for a, v in h.values.items() if a != tw.SPLIT}
        act = h.action if h.action != tw.SPLIT else max(rest, key=rest.get)
        cells.setdefault((h.up, *total(h.hand), 2, bonus_tag(h.hand), Context()), act)
    for up, ev in evaluators.items():
        for each in (ev, ev.__dict__.get("_twin")):
            if each is None:
                continue
            for (_, ((t, soft), n, tag, _pair), ctx), (act, _) in each._memo.items():
                cells.setdefault((up, t, soft, n, tag, ctx), act)
            for (t, split), act in each.rescues.items():
                cells.setdefault((up, t, False, 0, None, Context(split, False, True)), act)
    # a doubled total the optimum never reached (it never doubles into it): keep
    for up in tw.VALUES:
        for t in range(2, 21):
            for split in (False, True):
                cells.setdefault((up, t, False, 0, None, Context(split, False, True)), STAND)
    return hands, PontoonStrategy(cells, splits)


def allowed_actions(rules: tw.Rules, up: int, hand: tuple, ctx: Context, can_split: bool) -> tuple[str, ...]:
    """:func:`harness.games.twentyone.allowed_actions` and, for a doubled hand, keep or rescue."""
    if ctx.doubled:
        return (STAND, RESCUE) if hard_total(hand) <= 20 else (STAND,)
    return tw.allowed_actions(rules, up, hand, ctx, can_split)


# ------------------------------------------------------------------ chart --

def chart(strategy: PontoonStrategy) -> dict:
    """The two-card chart of :func:`harness.games.twentyone.chart`, then the rows Pontoon adds:
    the 6-7-8 / 7-7-7 candidates (``6-7`` ``6-8`` ``7-8``; ``pair 7`` is in the chart), hands of
    3, 4, 5, 6 and 7+ cards by total (``hard 14 x3``, ...; D: double, allowed only with 3+-card
    doubles), and the rescue of a doubled total (``doubled 12``: S keep, W rescue)."""
    table = tw.chart(strategy)
    rows = table["rows"]
    ups = tw.CHART_UPCARDS
    for a, b in ((6, 7), (6, 8), (7, 8)):
        rows[f"{a}-{b}"] = [strategy.cells[strategy.key(of(a, b), up, Context())] for up in ups]
    for n in (3, 4, 5, 6, 7):
        for soft in (False, True):
            for t in range(13 if soft else 12, 21):
                cell = [strategy.cells.get((up, t, soft, n, None, Context())) for up in ups]
                if all(cell):
                    rows[f"{'soft' if soft else 'hard'} {t} x{n}{'+' if n == 7 else ''}"] = cell
    for t in range(12, 21):
        rows[f"doubled {t}"] = [strategy.cells[(up, t, False, 0, None, Context(False, False, True))] for up in ups]
    return table
