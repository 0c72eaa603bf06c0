"""Pontoon rounds in mode B (000 別表第1 第2 3-14, 3-15): one customer position against the dealer.

The round is the twenty-one engine's (:class:`~harness.rounds.engines.twentyone.TwentyOneRounds`: the
deal, insurance, the customer's decisions and the stakes they add, the dealer's drawing, replay); what
Pontoon changes is here, read from the game's module (:mod:`harness.games.pontoon`: its cited rules
table and options) and its math (:mod:`harness.games.twentyone_pontoon`: the bonus hands, the doubled
hand's comparison, the legal actions with the rescue, the computed basic strategy):

* the stack is 4 to 8 decks with the 10s removed (3-1, round option ``decks``, default 8), freshly
  shuffled each round; there is no hole card (3-5-イ): the dealer's second card comes after the
  customer's choices (3-8 applying 2-9-イ), then the dealer hits soft 17 (2-9-ロ), unless every hand
  busted (2-9-ハ);
* insurance (3-6) with an ace up wins when the dealer's second card is a ten-value card;
* the customer's choices (3-7): surrender against an A, K, Q or J up card, before any other action
  (7-ハ); split, double (two cards; three or more totalling 20 or less with
  ``double-cards=any``, 7-ト-(2)-(一)), hit (7-ニ); after a double that leaves 20 or less, the
  rescue (7-ホ: the script's ``rescue``, or ``stand`` to keep the double);
* the settlement (3-9, 3-10), each stake on its own class: a pontoon (the first two cards of an
  unsplit hand total 21) pays 3 to 2 whatever the dealer holds; every player 21 wins, by the bonus
  table (5-card 21 3 to 2, 6-card 2 to 1, 7 or more 3 to 1; 6-7-8 and 7-7-7 3 to 2 mixed, 2 to 1
  one suit, 3 to 1 all spades), else 1 to 1; a doubled hand counts its aces 1 (3-5-ロ-(1)) and a
  win pays 1 to 1 on both stakes (10-ホ); a rescue collects the original stake and returns the
  double stake (7-ホ); a surrender collects half the stake, all of it against a dealer pontoon
  (10-ロ); against a dealer pontoon a hand with split or double stakes loses only the original
  stake (10-ハ); winnings below 1 yen are truncated (10-イ).

The readings where the seed is silent are the game module's (its docstring): a split hand's two-card
21 is no pontoon; the bonus hands pay on split hands too; the rescue's original stake is collected
like a bust; a surrendered hand loses all to a dealer pontoon; and 10-ハ's "the original stake only"
is one original stake for the seat: against a dealer pontoon the first of its hands left standing at
20 or less loses its stake and every other stake of the standing hands is returned (the game's
:meth:`~harness.games.twentyone_pontoon.PontoonEvaluator.pontoon_split_law`, ``tests/pontoon_reference.py``).

The determination point (3-15, applying 1-19-イ with its 「十」 read as 「3の8において準用する2の九」,
seed L991; digest electronic_table_games.md §3, which agrees) is the end of item 8, the dealer's
drawing: :data:`TABLE` states it, and every card of a round is drawn before it, so a fault anywhere
before it voids the round and returns every stake, the additional ones too.
"""
from __future__ import annotations

import functools
from fractions import Fraction

from harness.games import pontoon
from harness.games import twentyone as tw
from harness.games import twentyone_pontoon as pt
from harness.games.core import odds
from harness.games.etable import ETable
from harness.rounds.engines.twentyone import Hand, Row, TwentyOneRounds, hand_of
from rngcore.devices import cards

#: Pontoon's round facts (see :class:`~harness.rounds.engines.twentyone.Row`): its module declares no
#: mode B, so the row does (3-14 applies 1-18 with its own items).
TABLE = (
    Row(pontoon.GAMES[0], pontoon.SOURCE,
        "item 8 (the dealer's drawing, 第2 3-8 applying 2-9) is finished: 000 別表第1 第2 3-15 (seed L991: 1-19-イ "
        "applied, its 「十」 read as 「3の8において準用する2の九」); electronic_table_games.md §3",
        {"main": "4-ハ", "insurance": "6-イ", "surrender": "7-ハ", "split": "7-ニ-(1)", "double": "7-ニ-(2)",
         "hit": "7-ニ-(3)", "stand": "7-ニ", "rescue": "7-ホ"},
        etable=ETable("000 別表第1 第2 3-14 (applying 1-18)", ("standard",), ("main",),
                      "000 別表第1 第2 3-14 (L987, applying 1-18): the bet of 3-4-ハ only (1-18's additional bet "
                      "of 13-イ is read as 「それ」, the bet itself: no additional bet)",
                      "item 8 (the dealer's drawing) is finished", "000 別表第1 第2 3-15 (applying 1-19-イ)",
                      "000 別表第1 第2 3-10-イ (L935)",
                      note="insurance (3-6) is read as part of the main bet's procedure, as blackjack's (1-6)"),
        ranks=cards.PONTOON_RANKS),
)

SPADES = pt.SPADES


@functools.lru_cache(maxsize=8)
def pontoon_chart(rules: tw.Rules) -> pt.PontoonStrategy:
    """Pontoon's computed basic strategy (the game's ``main`` analysis's: the infinite Pontoon shoe's
    optimum, with the rescue)."""
    return pt.pontoon_analysis(rules, distributions=False)[1]


def bonus_class(codes) -> str:
    """The class of an undoubled winning 21 of card codes ``codes`` (3-10-ニ): one of
    :data:`harness.games.twentyone_pontoon.BONUS_HANDS`, or ``win`` (1 to 1)."""
    hand = hand_of(codes)
    for three, name in ((pt.SIX_SEVEN_EIGHT, "678"), (pt.SEVEN_SEVEN_SEVEN, "777")):
        if hand == three:
            suits = {int(cards.suit_of(c)) for c in codes}
            return name + ("_spades" if suits == {SPADES} else "_suited" if len(suits) == 1 else "")
    n = len(codes)
    return ("five_card_21", "six_card_21", "seven_card_21")[min(n, 7) - 5] if n >= 5 else "win"


class PontoonRounds(TwentyOneRounds):
    """The round engine of Pontoon (see the module doc)."""

    natural_word = "pontoon"
    hand_note = ("a hand's stake (3-9, 3-10); 'returned': a split's or a double's stake against a dealer pontoon "
                 "(3-10-ハ); 'withdrawn': a rescued double stake (3-7-ホ)")

    def hand_classes(self, kind: str) -> list[tuple[str, Fraction]]:
        rules = self.game.game_rules()
        if kind == "double":  # a doubled hand's win pays 1 to 1 on its total stake (3-10-ホ)
            return [("win", odds(1)), ("push", Fraction(0)), ("returned", Fraction(0)), ("withdrawn", Fraction(0)),
                    ("bust", Fraction(-1)), ("lose", Fraction(-1))]
        first = [("pontoon", rules.blackjack_pays)] if kind == "original" else []
        extra = [("surrender", Fraction(-1, 2)), ("surrender_pontoon", Fraction(-1))] if kind == "original" else []
        return [*first, *zip(pt.BONUS_HANDS, rules.pontoon_bonus), ("win", odds(1)), ("push", Fraction(0)),
                ("returned", Fraction(0)), *extra, ("rescue", Fraction(-1)), ("bust", Fraction(-1)),
                ("lose", Fraction(-1))]

    def chart(self, rules: tw.Rules) -> pt.PontoonStrategy:
        return pontoon_chart(rules)

    def dealer_draws(self, hands) -> bool:
        """Unless every hand busted (3-8 applying 2-9-ハ): a pontoon, a surrender or a rescue still sees
        the dealer draw, as the text says.  (The game's C round draws only to a hand left standing, so
        here a round of settled hands takes more cards than it; docs/rounds.md.)"""
        return not all(h.bust for h in hands)

    def allowed(self, rules: tw.Rules, up: int, h: Hand, ctx: tw.Context, room: bool) -> tuple[str, ...]:
        """:func:`harness.games.twentyone_pontoon.allowed_actions`: a doubled hand keeps or is rescued."""
        return pt.allowed_actions(rules, up, h.hand, tw.Context(h.split, False, True) if h.doubled else ctx, room)

    def _settle(self, hands, dealer, insured: set, rules: tw.Rules, firsts, seconds) -> dict:
        """Each stake's class (3-9, 3-10; the module doc)."""
        d_hand = hand_of(dealer)
        dealer_pontoon = tw.is_natural(d_hand)
        outcome = tw.dealer_outcome(d_hand)
        features: dict = {b.name: None for b in self._bets()}
        for k in insured:  # 3-6-ロ: the dealer's second card is a ten-value card
            features[self.insurance_slot(k)] = "win" if dealer_pontoon else "lose"
        lost_original = False  # 3-10-ハ: one original stake of the seat's standing hands, against a pontoon
        for h in hands:
            slot, double = self._slot(h), f"double_{h.number}"
            t = h.points[0]
            if h.surrendered:
                features[slot] = "surrender_pontoon" if dealer_pontoon else "surrender"   # 3-10-ロ
                continue
            if h.natural:
                label = "pontoon"                                   # 3-5-ハ, 3-10-ニ-(1)-(一)
            elif h.bust:
                label = "bust"                                      # 3-7-ヘ, 3-9-ロ-(2)-(二)
            elif h.rescued:
                features[slot], features[double] = "rescue", "withdrawn"   # 3-7-ホ
                continue
            elif t == 21:                                           # 3-9-ロ-(1)-(一): whatever the dealer holds
                label = "win" if h.doubled else bonus_class(h.codes)   # 3-10-ホ, 3-10-ニ
            elif dealer_pontoon:
                label = "returned" if lost_original else "lose"     # 3-9-ロ-(2)-(一), 3-10-ハ
                lost_original = True
                if h.doubled:
                    features[double] = "returned"
            else:
                net = pt.doubled_net(t, outcome)                    # 3-9-ロ: the comparison of totals
                label = "win" if net > 0 else "push" if net == 0 else "lose"
            features[slot] = label
            if h.doubled and features[double] is None:
                features[double] = label
        return features


ROUND_ENGINES = tuple(PontoonRounds(row) for row in TABLE)
