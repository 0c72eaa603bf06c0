"""Caribbean Stud Poker rounds in mode B (000 別表第1 第3 4-9): one customer position against the dealer.

Built on :mod:`harness.games.caribbean_stud`'s public rules (its pay table,
strategies and the ``deck`` device procedure of its simulation): a round
shuffles a fresh deck through the ``deck`` device, the customer's hand its
first five cards and the dealer's the next five, the first of them face up
(4-3).  The customer's fold-or-bet decision (4-4) is made by the round
option ``strategy`` (``optimal``, by the exact expectation for the hand and
the up card, or ``ak``) and journaled as its own ``decision`` record while
the round is dealt; the outcome is determined when the dealer's hand is
turned face up (5-イ), after it.

As in Three Card Poker's rounds, the stake is placed whole when betting
closes: ``ante_bet`` is the ante and the bet together (4-4: the bet is twice
the ante, so the stake is a multiple of 3), settled by the game's table per
unit of the whole stake; a fold collects the ante third and returns the bet,
never placed.

The progressive (4-2-ハ-(2), 4-6-ハ) is the bet ``progressive``, only with an
ante (4-2-ロ ただし書), won by the customer's five cards unless he folded
(4-5-ロ), funding and paying the game's meter (:mod:`harness.rounds.progressive`).
"""
from __future__ import annotations

import functools

import numpy as np

from harness.games import caribbean_stud as csp
from harness.games import poker_hands as ph
from harness.games.base import GameOption
from harness.games.etable import Dealt
from harness.rounds import progressive
from harness.rounds.engine import DeckRounds, card_text, whole_stake

STRATEGY = GameOption.choice("strategy", f"the customer's fold-or-bet decision ({csp.SOURCE} 4-4): optimal "
                                         "(the larger exact expectation for the hand and the up card) or ak",
                             csp.STRATEGIES)
CARDS = 10  # the customer's five, then the dealer's five (the first face up)


@functools.lru_cache(maxsize=None)
def ante_bet():
    """The game's ante-and-bet table (per unit of ante) per unit of the whole stake, ante + bet."""
    return whole_stake(csp.bet_rule(), 1 + csp.BET_STAKE[0],
                       "the stake is ante + bet (the bet is 2 antes, 4-4); on a fold the bet is returned")


class CaribbeanStudRounds(progressive.Metered, DeckRounds):
    """The round engine of Caribbean Stud Poker (see the module doc): one fresh deck from the ``deck``
    device, cards 1-5 the customer's, 6-10 the dealer's."""

    name = "caribbean-stud"
    cards = CARDS
    round_options = (STRATEGY, *progressive.OPTIONS)

    def round_bets(self, variant: str) -> tuple:
        return (ante_bet(), progressive.bet_rule(self.name))

    def check_bets(self, bets: tuple, options: dict):
        return progressive.needs(bets, with_any=("ante_bet",), clause=f"{csp.SOURCE} 4-2-ロ ただし書")

    def deal(self, variant: str, codes: list[int], *, strategy: str = "optimal", **options) -> Dealt:
        STRATEGY.check("caribbean-stud rounds", strategy)
        mine, theirs = codes[:5], codes[5:]
        value, dealer = (int(v) for v in ph.rank([mine, theirs]))
        if strategy == "optimal":
            bets = bool(csp.optimal_bets(np.array([codes[:6]], dtype=np.uint8))[0])
        else:
            bets = value >= _qualifying()
        if not bets:
            outcome = "fold"
        elif dealer < _qualifying():
            outcome = "not_qualified"
        else:
            outcome = "win" if value > dealer else "tie" if value == dealer else "lose"
        hand = ph.category_name(value)
        decision = {"decision": "bet" if bets else "fold", "strategy": strategy, "clause": f"{csp.SOURCE} 4-4",
                    "hand": card_text(mine), "up_card": card_text(theirs[:1])}
        return Dealt({"outcome": outcome, "hand": hand, **progressive.award(self.name, codes, bets)},
                     f"customer {card_text(mine)} ({hand}), dealer {card_text(theirs)} ({ph.category_name(dealer)}): "
                     f"{outcome}",
                     {"cards": codes, "outcome": outcome, "hand": hand}, (decision,))


@functools.lru_cache(maxsize=None)
def _qualifying() -> int:
    return int(ph.rank([ph.parse(csp.DEALER_QUALIFIES_FROM[0])])[0])


ROUND_ENGINES = (CaribbeanStudRounds(),)
