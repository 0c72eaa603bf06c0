"""Mississippi Stud rounds in mode B (000 別表第1 第3 7-11, applying 4-9): one customer position, the ante and
the three street bets.

Built on :mod:`harness.games.mississippi_stud`'s public rules (its pay table, its streets, the exact
optimal decisions of its backward induction and the ``deck`` device procedure of its simulation): a
round shuffles a fresh deck through the ``deck`` device, the customer's two cards its first two and the
three community cards the next three, turned up in that order (7-3 .. 7-6).

The bets.  7-11 applies 4-9 with 「二ハの（1）及び（2）に掲げる」 read as 「72のハに規定する」 and
「それら」 as 「それ」 (seed L1577): mode B offers the bet of 7-2-ハ, the ``ante``, only (the game module's
``etable``).  Before each community card is turned up the customer folds,
every stake placed collected (7-4-イ-(1)), or bets 1, 2 or 3 antes on the street (7-4-イ-(2), 7-5, 7-6):
each street bet is an additional stake of the round (``street_3rd``, ``street_4th``, ``street_5th``),
announced by its ``decision`` record and taken while the round is dealt, as twenty-one's doubles are.
Each decision is the game's exact optimal one (:func:`harness.games.mississippi_stud.street_action`: the
largest expectation for the cards in view and the antes staked so far, a tie to the larger stake).

The settlement (7-7-ロ, 7-8-ロ): the ante and every street bet pay by the final five cards: a pair of
jacks or better wins by the table (1 to 1 up to 500 to 1 for a royal flush), a pair of 6s to 10s is a
standoff (every stake returned), anything less loses; a fold loses every stake placed.  The odds are
whole, so no rounding arises (7-8 states none).

The determination point: 7-12 applies 4-10-イ with its proviso read as 「77のイの処理が終了した」 (seed L1581):
a fault once the customer's hand is turned up and checked (7-7-イ) settles, before it voids.  Every
decision and street bet is journaled before the outcome, so a fault anywhere before it voids the round
and returns the street bets with the ante.
"""
from __future__ import annotations

import functools

from harness.games import mississippi_stud as ms
from harness.games import poker_hands as ph
from harness.games.core import PUSH, BetRule, Where, rows
from harness.games.etable import Dealt
from harness.rounds.engine import DeckRounds, card_text

CARDS = 5  # the customer's two, then the three community cards (the game's simulation deals the same)
FOLD = "fold"
STAKES = ("ante", *(f"street_{street}" for street, _ in ms.STREETS))


@functools.lru_cache(maxsize=None)
def stake_rules() -> tuple[BetRule, ...]:
    """The ante and each street bet: paid by the final hand (7-8-ロ), returned on a pair of 6s to 10s
    (7-7-ロ), collected on a lesser hand or a fold (7-4-イ-(1))."""
    pays = [(label, Where(hand=label), pay) for label, pay, _ in ms.PAYS] + [("pair_6_to_10", Where(hand="pair_6_to_10"),
                                                                              PUSH)]
    source = ", ".join(dict.fromkeys([ms.STREET_BETS[1], ms.PUSH_PAIRS[1], ms.WINNING_PAIRS[1],
                                      *(s for *_, s in ms.PAYS)]))
    return tuple(BetRule(name, source, rows(*pays), push_labels=frozenset({"pair_6_to_10"}),
                         note="the ante" if name == "ante" else
                              f"the {name[7:]} street bet: 1, 2 or 3 antes, an additional stake of the decision")
                 for name in STAKES)


class MississippiStudRounds(DeckRounds):
    """The round engine of Mississippi Stud (see the module doc): cards 1-2 the customer's, 3-5 the
    community cards."""

    name = "mississippi-stud"
    cards = CARDS

    def round_bets(self, variant: str) -> tuple:
        return stake_rules()

    def deal(self, variant: str, codes: list[int], **options) -> Dealt:
        staked, decisions = 1, []
        for (street, source), known in zip(ms.STREETS, (2, 3, 4)):
            act = ms.street_action(codes[:known], staked)
            decision = {"decision": f"bet {act}" if act else FOLD, "street": street, "strategy": "optimal",
                        "clause": source, "cards": card_text(codes[:known]), "staked": staked}
            if act:
                decision["adds"] = [{"bet": f"street_{street}", "of": "ante", "share": str(act)}]
            decisions.append(decision)
            if not act:
                break
            staked += act
        folded = decisions[-1]["decision"] == FOLD
        hand = FOLD if folded else ms.class_labels()[int(ph.completion_class([codes])[0])]
        shown = (f"customer {card_text(codes[:2])}, community {card_text(codes[2:])}: "
                 f"{'folded on ' + decisions[-1]['street'] + ' street' if folded else hand}, {staked} antes staked")
        return Dealt({"hand": hand}, shown, {"cards": codes, "hand": hand}, tuple(decisions))


ROUND_ENGINES = (MississippiStudRounds(),)
