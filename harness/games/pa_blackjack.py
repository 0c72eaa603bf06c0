"""Pennsylvania Blackjack (002, 58 Pa. Code ch. 549): the rules as a cited table, the exact
main-bet return and insurance, and rounds dealt through the virtual shoe.

Source: ``002_69519c774cc7bbb1.txt`` L461-611 (digest ``rules/blackjack.md`` § 5).
The game plumbing is :mod:`harness.games.twentyone_game`.

Readings: § 549.12(c) allows "one more pair" after a split (3 hands) and gives
split aces one card each; whether a split ace may be split again is not said:
it may not be here (``resplit_aces``).  § 549.8-549.12 settle against a dealer
blackjack "when the dealer's second card is revealed"; the card reader (§ 549.7(f))
has checked it before any decision, so a dealer blackjack costs only the original
stake and the analysis treats it as a peek (the same values).
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw
from harness.games.base import GameOption
from harness.games.core import odds
from harness.games.twentyone_game import TwentyOneGame

SOURCE = "002 58 Pa. Code ch. 549"
SHOE_RULES = "pa-blackjack"
MIN_DECKS, MAX_DECKS = 1, 8

RULES = (
    tw.RuleEntry("decks", 6, "002 § 549.3(a)", "at least one deck; default 6 (not in sources)"),
    tw.RuleEntry("hole_card", True, "002 § 549.7(e),(f)",
                 "second card face down; with an A or 10-value up it is read by the card reader first"),
    tw.RuleEntry("hit_soft_17", False, "002 § 549.13(b); layout § 549.2(c)(2)", "draws to 16, stands on all 17s"),
    tw.RuleEntry("blackjack_pays", Fraction(3, 2), "002 § 549.4(f), 549.8", "a blackjack pushes a dealer blackjack"),
    tw.RuleEntry("original_bet_only", True, "002 § 549.11(b), 549.12(d)",
                 "a dealer blackjack collects only the original wager"),
    tw.RuleEntry("surrender", True, "002 § 549.9(a)",
                 "after the first two cards, before any other decision; half the wager; all of it "
                 "against a dealer blackjack (549.9(a)(2))"),
    tw.RuleEntry("double_totals", None, "002 § 549.11(a)", "any first two cards except a blackjack"),
    tw.RuleEntry("double_after_split", True, "002 § 549.11(a), 549.12(c)", "the first two cards of a split pair"),
    tw.RuleEntry("max_hands", 3, "002 § 549.12(c)(1)", "one more pair: three hands at most"),
    tw.RuleEntry("resplit_aces", False, "002 § 549.12(c)(2)", "reading: a split ace's one card ends it"),
    tw.RuleEntry("hit_split_aces", False, "002 § 549.12(c)(2)", "one card to each split ace"),
    tw.RuleEntry("insurance_pays", odds(2), "002 § 549.10", "up to half the initial wager, upcard ace"),
)


class PennsylvaniaBlackjackGame(TwentyOneGame):
    name = "pa-blackjack"
    summary = "Pennsylvania Blackjack: main bet (exact, infinite shoe, basic strategy) and insurance"
    rules = f"{SOURCE} (seed L461-611)"
    options = (GameOption("decks", "N", f"decks in the shoe, {MIN_DECKS}..{MAX_DECKS} (002 § 549.3(a) sets only a "
                                        "minimum; default 6, not in sources): insurance and the simulation's shoe",
                          MIN_DECKS, MAX_DECKS, 6),)
    devices = f"shoe:N ({SHOE_RULES} procedure)"
    table = RULES
    shoe_rules = SHOE_RULES
    main_rules = ("hit_soft_17", "blackjack_pays", "surrender", "max_hands", "double_after_split")


GAMES = (PennsylvaniaBlackjackGame(),)
