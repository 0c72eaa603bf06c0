"""Three Card Poker rounds in mode B (000 別表第1 第3 5-11): one customer position against the dealer.

Built on :mod:`harness.games.three_card_poker`'s public rules (its pay
tables, strategies and the ``deck`` device procedure of its simulation): a
round shuffles a fresh deck through the ``deck`` device, the customer's
hand its first three cards and the dealer's the next three.  The customer's
play-or-fold decision (5-5-イ) is made by the round option ``strategy``
(``optimal``, exactly Q-6-4, or ``q64``) and journaled as its own
``decision`` record while the round is being dealt; the outcome is
determined when the dealer's hand is revealed (6-イ), after it.

Stakes are known when betting closes, as in Casino War's rounds: the bet
``ante_play`` is the ante and the Play stake together (5-5-イ-(2): the Play
stake equals the ante, so the stake is even), settled by the game's own
ante-and-play table per unit of ante, halved to the unit of the whole
stake; on a fold the ante is collected and the Play half, never placed, is
returned.  ``pair_plus`` (5-7-ハ) settles on the customer's hand; a folded
hand is below a pair under both strategies, so it loses Pair Plus either
way (the digest's 5-5-イ-(1) reading changes nothing here).  Whether the
customer has an ante (so decides) is part of the round's record (``ante``):
a round re-derived from its record (a recovery) settles as it was dealt.  A
record journaled before ``ante`` was recorded is re-derived with the round's
journaled bets (:meth:`harness.rounds.machine.Round.restore` deals a record
with the keywords it was dealt with): an ``ante_play`` bet decides.

The progressive (5-8) is the bet ``progressive``, only with an ante or Pair
Plus (5-8-イ), won by the customer's three cards (5-8-ロ excludes no one),
funding and paying the game's meter (:mod:`harness.rounds.progressive`).
"""
from __future__ import annotations

import functools
from harness.games import poker_hands as ph
from harness.games import three_card_poker as tcp
from harness.games.base import GameOption
from harness.games.etable import Dealt
from harness.rounds import progressive
from harness.rounds.engine import DeckRounds, card_text, whole_stake

STRATEGY = GameOption.choice("strategy", f"the customer's play-or-fold decision ({tcp.SOURCE} 5-5-イ): "
                                         "optimal (exactly Q-6-4) or q64", tcp.STRATEGIES)
CARDS = 6  # the customer's three, then the dealer's three (the game's simulation deals the same)
BONUS = frozenset(name for name, *_ in tcp.ANTE_BONUS)


@functools.lru_cache(maxsize=None)
def ante_play():
    """The game's ante-and-play table (per unit of ante) per unit of the whole stake, ante + Play."""
    return whole_stake(tcp.ante_play_rule(), 1 + tcp.PLAY_STAKE[0],
                       "the stake is ante + Play (Play = ante, 5-5-イ-(2)); on a fold the Play half is returned")


class ThreeCardPokerRounds(DeckRounds):
    """The round engine of Three Card Poker (see the module doc): one fresh deck from the ``deck`` device,
    cards 1-3 the customer's, 4-6 the dealer's."""

    name = "three-card-poker"
    cards = CARDS
    round_options = (STRATEGY,)
    deals_for_bets = True  # a customer with an ante decides; a Pair Plus-only customer does not (5-5-ロ)
    meters = (progressive.METER,)

    def round_bets(self, variant: str) -> tuple:
        return (ante_play(), tcp.PAIR_PLUS, progressive.bet_rule(self.name))

    def check_bets(self, bets: tuple, options: dict):
        return progressive.needs(bets, with_any=("ante_play", "pair_plus"), clause=f"{tcp.SOURCE} 5-8-イ")

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        ante = record.get("ante") if isinstance(record, dict) else None
        if ante is not None:  # the record says whether the customer decided (a record before it: the bets)
            if not isinstance(ante, bool):
                raise ValueError(f"{self.name}: {record!r} is not a round of cards and whether it has an ante")
            options = {**options, "bets": ("ante_play",) if ante else ()}
        return super().round_dealt(variant, record, **options)

    def deal(self, variant: str, codes: list[int], *, strategy: str = "optimal", bets=(), **options) -> Dealt:
        STRATEGY.check("three-card-poker rounds", strategy)
        mine, theirs = codes[:3], codes[3:]
        value, dealer = (int(v) for v in ph.rank([mine, theirs], "three"))
        hand = ph.category_name(value, three=True)
        ante = "ante_play" in bets
        plays = bool(tcp.decisions(strategy, tcp.deals())[int(ph.lex_index([mine])[0])])
        if not ante or not plays:
            outcome = "fold" if ante else None
        elif dealer < _qualifying():
            outcome = "not_qualified"
        else:
            outcome = "win" if value > dealer else "tie" if value == dealer else "lose"
        shown = (f"customer {card_text(mine)} ({hand}), dealer {card_text(theirs)} "
                 f"({ph.category_name(dealer, three=True)})")
        decisions = ()
        if ante:
            decisions = ({"decision": "play" if plays else "fold", "strategy": strategy,
                          "clause": f"{tcp.SOURCE} 5-5-イ", "hand": card_text(mine)},)
        features = {"outcome": outcome, "bonus": hand if hand in BONUS else None, "hand": hand,
                    **progressive.award(self.name, codes)}
        return Dealt(features, f"{shown}: {outcome or 'Pair Plus only'}",
                     {"cards": codes, "ante": ante, "outcome": outcome, "hand": hand}, decisions)


@functools.lru_cache(maxsize=None)
def _qualifying() -> int:
    return int(ph.rank([ph.parse(tcp.DEALER_QUALIFIES_FROM[0])], "three")[0])


ROUND_ENGINES = (ThreeCardPokerRounds(),)
