"""Pontoon (000 別表第1 第2 3): the rules as a cited table, the exact main-bet return and
insurance, and rounds dealt through the virtual shoe.

Source: ``000_d4cd2a3cb5c95429.txt`` L823-991 (digest ``rules/blackjack.md`` § 3).  What
Pontoon changes in the family's math is :mod:`harness.games.twentyone_pontoon`; the rest is
:mod:`harness.games.twentyone` and the plumbing :mod:`harness.games.twentyone_game`.

What is exact, precisely: ``main`` for an **infinite Pontoon shoe** (48-card decks, the 10s
removed: 4 of each A..9 and 12 ten-value cards per deck) played by its computed basic
strategy (total, softness, card count and the 6-7-8 / 7-7-7 candidates; suits not looked
at), splits exact there; ``insurance`` on the same shoe under the same strategy, the rounds whose
hands all bust (no second card, 3-8 applying 2-9-ハ) lost (:mod:`harness.games.twentyone_insurance`).

Readings where the seed is silent (each in the table's notes and docs/table_games.md): a
surrendered hand loses its whole stake to a dealer pontoon (3-10-ロ grants the half only
otherwise); a split hand's two-card 21 is no pontoon (paid 1 to 1); 6-7-8 and 7-7-7 and the
card-count 21s pay on split hands too; the rescue's original stake is collected at once, like
a bust; the operator's double stake is read as the full original stake.
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw
from harness.games import twentyone_pontoon_chart as pc
from harness.games.base import GameOption, Strategy
from harness.games.core import odds
from harness.games.twentyone_game import BASIC, COMPOSITION, TwentyOneGame

SOURCE = "000 別表第1 第2 3"
SHOE_RULES = "jp-pontoon"
MIN_DECKS, MAX_DECKS = 4, 8

RULES = (
    tw.RuleEntry("decks", 8, "000 第2 3-1 (L827)", "4..8 decks with the 10s removed (48 cards); default 8"),
    tw.RuleEntry("hole_card", False, "000 第2 3-5-イ (L849)",
                 "no hole card: the dealer's second card after the players act (3-8 applying 2-9)"),
    tw.RuleEntry("hit_soft_17", True, "000 第2 3-8 (applying 2-9)", "the dealer hits soft 17 (fixed)"),
    tw.RuleEntry("pontoon", True, "000 第2 3-9-ロ, 3-10",
                 "a player 21 always wins, a dealer pontoon included; bonus hands; Pontoon's double rules"),
    tw.RuleEntry("blackjack_pays", Fraction(3, 2), "000 第2 3-10-ニ-(1)-(一)",
                 "a pontoon (the first two cards total 21) pays 3 to 2, settled at once (3-5-ハ)"),
    tw.RuleEntry("pontoon_bonus", (odds(3, 2), odds(2), odds(3), odds(3, 2), odds(2), odds(3), odds(3, 2),
                                   odds(2), odds(3)), "000 第2 3-10-ニ (L955-971)",
                 "5-card 21 3:2, 6-card 21 2:1, 7+-card 21 3:1; 6-7-8 and 7-7-7: mixed suits 3:2, one suit "
                 "(not spades) 2:1, all spades 3:1; also on split hands (not excluded)"),
    tw.RuleEntry("doubled_pays", odds(1), "000 第2 3-10-ホ", "any win of a doubled hand pays 1 to 1 on its total stake"),
    tw.RuleEntry("doubled_aces_one", True, "000 第2 3-5-ロ-(1)",
                 "an ace in a hand on which a double down was made counts 1 (literal, as written)"),
    tw.RuleEntry("double_rescue", True, "000 第2 3-7-ホ",
                 "a doubled hand of 20 or less may withdraw the double stake; the original stake is collected "
                 "at once"),
    tw.RuleEntry("original_bet_only", True, "000 第2 3-10-ハ",
                 "a dealer pontoon collects only the original stake of a hand with split or double stakes"),
    tw.RuleEntry("double_totals", None, "000 第2 3-7-ニ-(2)", "any two cards but split aces; no operator restriction"),
    tw.RuleEntry("double_any_cards", False, "000 第2 3-7-ト-(2)-(一)",
                 "the operator may allow a double on 3+ cards totalling 20 or less; default not (the base rule)"),
    tw.RuleEntry("double_after_split", True, "000 第2 3-7-ニ-(2), 3-7-ト-(2)-(二)", "allowed unless the operator bars it"),
    tw.RuleEntry("surrender", True, "000 第2 3-7-ハ, 3-10-ロ",
                 "before any other action; half the stake, all of it if the dealer makes pontoon (reading: 3-10-ロ "
                 "grants the half only otherwise); the operator may not disable it (3-7-ト lists no such choice)"),
    tw.RuleEntry("surrender_upcards", frozenset({tw.ACE, tw.TEN}), "000 第2 3-7-ハ", "upcard A, K, Q or J only"),
    tw.RuleEntry("max_hands", 4, "000 第2 3-7-ト-(1)",
                 "the operator caps the hands per main area; default 4 (not in sources)"),
    tw.RuleEntry("resplit_aces", False, "000 第2 3-7-ニ-(1)", "aces formed by a split are not split again"),
    tw.RuleEntry("hit_split_aces", False, "000 第2 3-7-ニ-(3)", "no hit (or double) on a split-ace hand"),
    tw.RuleEntry("insurance_pays", odds(2), "000 第2 3-6 (L859-865)", "up to half the stake, upcard ace"),
)
OPTIONS = (
    GameOption("decks", "N", f"decks in the shoe (48 cards, the 10s removed), {MIN_DECKS}..{MAX_DECKS} "
                             "(000 第2 3-1; default 8): insurance's exact figure and the simulation's shoe",
               MIN_DECKS, MAX_DECKS, 8),
    GameOption.choice("double-cards", "a double on two cards only, or also on 3+ cards totalling 20 or less "
                                      "(000 第2 3-7-ト-(2)-(一), operator's choice; default two)", ("two", "any")),
    GameOption.choice("das", "double after split (000 第2 3-7-ニ-(2); 3-7-ト-(2)-(二) lets the operator bar it)",
                      ("yes", "no")),
    GameOption("max-hands", "N", "hands a main area may hold after splitting, 2 = no re-split "
                                 "(000 第2 3-7-ト-(1), operator's cap; default 4, not in sources)", 2, 4, 4),
)
TABLE = Strategy("table", "the player's own chart: --strategy FILE (also spelt --strategy table --option "
                          "chart=FILE), in the layout --chart csv prints (the two-card rows, 6-7 6-8 7-8, hard/soft T "
                          "x3..x7+, doubled 12..20; optional split rows; codes H S D Ds P R Rs, W rescue); its return "
                          "is computed exactly", file="chart")
CHART = GameOption.path("chart", "the strategy chart of --strategy table, which --strategy FILE sets (the CSV "
                                 "rngcert game pontoon --chart csv prints; surrender only on two cards against A, K, Q, "
                                 "J, 3-7-ハ; D on 3+ cards only with double-cards=any, 3-7-ト-(2)-(一))")
MAIN_NOTE = ("main bet exact for an infinite Pontoon shoe (48-card decks) with its computed basic strategy "
             "or the player's chart (total, softness, card count, 6-7-8 / 7-7-7 candidates; suits not looked at, "
             "the suited bonuses by their exact odds); insurance exact for the first round of a full shoe")


class PontoonGame(TwentyOneGame):
    name = "pontoon"
    summary = ("Pontoon: 21 always wins, bonus hands, double rescue; main bet (exact, infinite shoe, computed "
               "basic strategy) and insurance")
    rules = f"{SOURCE} (seed L823-991)"
    options = OPTIONS
    strategies = (BASIC, TABLE, COMPOSITION)
    chart_option = CHART
    devices = f"shoe:N ({SHOE_RULES} procedure, 48-card decks)"
    table = RULES
    shoe_rules = SHOE_RULES
    deck = (48, 12)
    main_rules = ("pontoon", "pontoon_bonus", "hit_soft_17", "double_rescue", "surrender", "max_hands")

    def game_rules(self, double_cards: str = "two", das: str = "yes", max_hands: int = 4) -> tw.Rules:
        """The :class:`~harness.games.twentyone.Rules` of the options (the operator's choices of 3-7-ト)."""
        return tw.rules_from(RULES, double_any_cards=double_cards == "any", double_after_split=das == "yes",
                             max_hands=max_hands)

    def read_chart(self, text: str, where: str, choices: dict) -> pc.PontoonChart:
        return pc.read_chart(text, where, self.game_rules(**choices))

    def note(self, rules: tw.Rules) -> str:
        return MAIN_NOTE


GAMES = (PontoonGame(),)
