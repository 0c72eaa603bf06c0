"""Pennsylvania Blackjack rounds (002, 58 Pa. Code ch. 549): one customer position against the dealer.

The round is the twenty-one engine's (:class:`~harness.rounds.engines.twentyone.TwentyOneRounds`: the
deal, insurance, the customer's decisions and the stakes they add, the dealer's drawing, replay),
played by the game's module (:mod:`harness.games.pa_blackjack`: its cited rules table and its
``decks`` option, 1..8, default 6).  What ch. 549 says that 000 does not:

* the wager (§ 549.4(a), seed L500) is the only bet placed at the betting: ch. 549 lists no side
  wager; insurance (§ 549.10: an ace up, "not more than half" the initial wager, half taken, pays
  2 to 1), the double (§ 549.11: the original wager again, one card), the split (§ 549.12: an equal
  wager, one more pair to three hands, split aces one card each) and the surrender (§ 549.9: half
  the wager, before any other decision) are the wager's procedure, taken as decisions;
* no even money (ch. 549 has none);
* the dealer draws no card when its count cannot change the round (§ 549.13(c), L595): every hand
  busted, surrendered or a blackjack (a blackjack paid 3 to 2, § 549.8);
* winnings: 1 to 1 and 3 to 2 (§ 549.4(f)), 2 to 1 (§ 549.10(c)); ch. 549 states no rounding, so
  the main stake must be even (a 3 to 2 blackjack, a surrender's and insurance's halves are whole
  units only then; an odd stake is refused when it is placed).

The card reader (§ 549.7(f)) is read as a peek, as the game module reads it: with an ace or a
ten-value card up the dealer's blackjack is known before any decision, and ends the round.

The determination point.  ch. 549 rules a live table: it has no fault rule for a system (§ 549.16's
irregularities are a dealer's physical slips, and a dead hand there returns the wager).  The
reading is 000's twenty-one rule, the one the other twenty-one rounds follow (000 別表第1 第2 1-19-イ,
seed 000 L643, 「10の処理が終了した後」): a fault before the end of the dealer's drawing (§ 549.7(i),
§ 549.13(b)) voids the round and returns every stake, the additional ones too; at or after it the
round is settled on what was dealt.  :data:`TABLE` states it.
"""
from __future__ import annotations

from harness.games import pa_blackjack
from harness.games.etable import ETable
from harness.rounds.engines.twentyone import Row, TwentyOneRounds

SOURCE = "002 58 Pa. Code"

#: Pennsylvania Blackjack's round facts (see :class:`~harness.rounds.engines.twentyone.Row`).
TABLE = (
    Row(pa_blackjack.GAMES[0], SOURCE,
        "the dealer's drawing (002 § 549.7(i), § 549.13(b)) is finished: 002 gives no fault rule (ch. 549 rules a "
        "live table), read as 000's twenty-one rule, 000 別表第1 第2 1-19-イ (seed 000 L643, "
        "「10の処理が終了した後」); electronic_table_games.md §3",
        {"main": "§ 549.4(a)", "insurance": "§ 549.10", "surrender": "§ 549.9(a)", "split": "§ 549.12",
         "double": "§ 549.11", "hit": "§ 549.13(a)", "stand": "§ 549.7(g)"},
        etable=ETable("002 58 Pa. Code ch. 549 (a live table's rules: no electronic table-game item)", ("standard",),
                      ("main", "insurance"),
                      "002 § 549.4(a) (L500): the wager against the dealer; ch. 549 lists no side wager",
                      "the dealer's drawing (§ 549.7(i)) is finished",
                      "none in 002 (ch. 549 rules a live table); read as 000 別表第1 第2 1-19-イ",
                      note="insurance (§ 549.10), the double (§ 549.11), the split (§ 549.12) and the surrender "
                           "(§ 549.9) are the wager's procedure, taken as decisions; ch. 549 states no rounding "
                           "(an even main stake settles every outcome in whole units)"),
        joiner=" "),
)


class PennsylvaniaRounds(TwentyOneRounds):
    """The round engine of Pennsylvania Blackjack (see the module doc)."""

    def dealer_draws(self, hands) -> bool:
        """§ 549.13(c): no card for the dealer when its count has no effect on the round: every hand
        busted, surrendered or a blackjack."""
        return not all(h.bust or h.surrendered or h.natural for h in hands)


ROUND_ENGINES = tuple(PennsylvaniaRounds(row) for row in TABLE)
