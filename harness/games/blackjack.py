"""Blackjack (000 別表第1 第2 1): the rules as a cited table, the exact main-bet return,
insurance and the pair side bet, and rounds dealt through the virtual shoe.

Source: ``000_d4cd2a3cb5c95429.txt`` L377-645 (digest ``rules/blackjack.md`` § 1).
The shared twenty-one math (hands, dealer, decision values, strategy) is
:mod:`harness.games.twentyone`, the round engine in C
:mod:`harness.games.twentyone_table`, the shared game plumbing (analysis,
simulation through the shoe) :mod:`harness.games.twentyone_game`; this module
is the table.

What is exact, precisely:

* ``main``: the exact return per initial unit of an **infinite shoe** (the
  many-deck limit) played by the infinite-shoe optimal strategy, which is the
  total-dependent basic strategy of these rules, every cell decided by
  comparing exact fractions (without the hole card, split hands against an A or
  ten are played by their values given no dealer blackjack).  With an infinite shoe split hands are
  independent, so re-splits are exact too.  The finite shoe's figure is not
  computed here (the composition-dependent values of single hands are, see
  :mod:`harness.games.twentyone` and its tests).
* ``insurance``, ``pair``, ``pair_tiered``: exact for the first round of a
  full shoe of ``--decks`` decks (integer counts of cards and suits).
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw
from harness.games.base import GameOption
from harness.games.core import BetResult, OutcomeClass, odds
from harness.games.etable import ETable
from harness.games.twentyone_game import DOUBLE_TOTALS, TwentyOneGame, pair_counts, pair_kind, split_busts_option

SOURCE = "000 別表第1 第2 1"
SHOE_RULES = "jp-blackjack"  # the devices' shoe procedure (rngcore.devices.rulesets)
MIN_DECKS, MAX_DECKS = 4, 8

# Every rule the analysis and the engine read, with its citation.  The operator's
# choices (1-14) are options; the value here is the default used when none is given.
RULES = (
    tw.RuleEntry("decks", 8, "000 第2 1-1 (L381)", "4..8 decks; default 8 (the most permitted)"),
    tw.RuleEntry("hole_card", True, "000 第2 1-5-イ (L403-407)",
                 "operator's choice of the hole-card or no-hole-card rule; default hole-card (not in sources)"),
    tw.RuleEntry("hit_soft_17", False, "000 第2 1-10-ロ (L485-491)", "operator's choice S17 or H17; default S17"),
    tw.RuleEntry("blackjack_pays", Fraction(3, 2), "000 第2 1-12-ハ-(1) (L525)", "6 to 5 is the 1-12-ニ option"),
    tw.RuleEntry("original_bet_only", True, "000 第2 1-12-ロ",
                 "a dealer blackjack collects only the original stake, once, from the hands still standing; "
                 "a busted hand was settled at once (1-9-ホ); matters under the no-hole-card rule"),
    tw.RuleEntry("split_busts_returned", False, "000 第2 1-9-ホ, 1-11-ロ-(2)-(一)(三), 1-12-ロ",
                 "a split hand's bust is lost at once (9-ホ, 11-ロ-(2)-(三), which 11-ロ-(2)-(一) leaves out), so "
                 "12-ロ spares only the hands still standing: 8-8 v 10, one bust, one standing, loses 2 to a "
                 "no-hole-card blackjack; the other reading (the area loses its original stake only: 1) is "
                 "--option split-busts=returned"),
    tw.RuleEntry("double_totals", None, "000 第2 1-9-ニ-(2), 1-9-ヘ-(3-一)",
                 "any two cards; the operator may restrict the totals"),
    tw.RuleEntry("double_after_split", True, "000 第2 1-9-ニ-(2), 1-9-ヘ-(3-二)", "allowed unless the operator bars it"),
    tw.RuleEntry("surrender", True, "000 第2 1-9-ハ, 1-9-ヘ-(1)",
                 "half the stake, before any other action; the operator may disable it"),
    tw.RuleEntry("surrender_upcards", frozenset(range(2, 11)) | {1}, "000 第2 1-9-ハ",
                 "any upcard; not an ace under the no-hole-card rule"),
    tw.RuleEntry("max_hands", 4, "000 第2 1-9-ヘ-(2)",
                 "the operator caps the hands per main area; default 4 (not in sources)"),
    tw.RuleEntry("resplit_aces", False, "000 第2 1-9-ニ-(1)", "aces formed by a split are not split again"),
    tw.RuleEntry("hit_split_aces", False, "000 第2 1-9-ニ-(3)", "no hit on a split-ace hand (one card each)"),
    tw.RuleEntry("insurance_pays", odds(2), "000 第2 1-6-ハ (L419-425)", "up to half the stake, upcard ace"),
    tw.RuleEntry("even_money", True, "000 第2 1-7 (L427-431)",
                 "a blackjack against an ace may take 1 to 1 at once; not with 6 to 5 (1-12-ニ)"),
    tw.RuleEntry("pair_pays", odds(11), "000 第2 1-13-ハ (L531-545)", "first two cards of one rank"),
    tw.RuleEntry("pair_tiered", (odds(25), odds(12), odds(6)), "000 第2 1-13-ニ",
                 "same suit 25, same colour 12, other pair 6 (operator option)"),
)
OPTIONS = (
    GameOption("decks", "N", f"decks in the shoe, {MIN_DECKS}..{MAX_DECKS} (000 第2 1-1; default 8): the side "
                             "bets' exact figures and the simulation's shoe", MIN_DECKS, MAX_DECKS, 8),
    GameOption.choice("dealer", "the dealer stands on all 17s or hits soft 17 (000 第2 1-10-ロ, operator's choice)",
                      ("s17", "h17")),
    GameOption.choice("deal", "the hole-card rule (peek on A/10, 1-8) or the no-hole-card rule (000 第2 1-5-イ, "
                              "operator's choice)", ("hole-card", "no-hole-card")),
    GameOption.choice("surrender", "surrender offered (000 第2 1-9-ハ; 1-9-ヘ-(1) lets the operator disable it)",
                      ("yes", "no")),
    GameOption.choice("das", "double after split (000 第2 1-9-ニ-(2); 1-9-ヘ-(3-二) lets the operator bar it)",
                      ("yes", "no")),
    GameOption.choice("double", "two-card totals that may double (000 第2 1-9-ニ-(2): any; 1-9-ヘ-(3-一) lets the "
                                "operator restrict them)", tuple(DOUBLE_TOTALS)),
    GameOption("max-hands", "N", "hands a main area may hold after splitting, 2 = no re-split "
                                 "(000 第2 1-9-ヘ-(2), operator's cap; default 4, not in sources)", 2, 4, 4),
    split_busts_option(RULES),
    GameOption.choice("blackjack-pays", "3to2 (000 第2 1-12-ハ-(1)) or the 6to5 option (1-12-ニ)", ("3to2", "6to5")),
    GameOption.choice("even-money", "the player declines or takes even money (1 to 1 at once) on a blackjack "
                                    "against an ace (000 第2 1-7; not offered with 6to5, 1-12-ニ); declining is "
                                    "worth more", ("decline", "take")),
)


class BlackjackGame(TwentyOneGame):
    name = "blackjack"
    summary = "Blackjack: main bet (exact, infinite shoe, computed basic strategy), insurance, pair side bets"
    rules = f"{SOURCE} (seed L377-645)"
    options = OPTIONS
    devices = f"shoe:N ({SHOE_RULES} procedure)"
    table = RULES
    shoe_rules = SHOE_RULES
    main_rules = ("hit_soft_17", "blackjack_pays", "surrender", "max_hands", "double_after_split")
    etable = ETable("000 別表第1 第2 1-18", ("standard",), ("main", "insurance", "pair", "pair_tiered"),
                    "000 別表第1 第2 1-18 (L633): the bet of 4-ハ and, as an additional bet, only 13-イ",
                    "item 10 (the dealer's drawing) is finished", "000 別表第1 第2 1-19-イ",
                    "000 別表第1 第2 1-12-イ (L519)",
                    note="insurance (6-ハ) is read as part of the main bet's procedure, not an additional bet; "
                         "pair and pair_tiered are the one 13-イ bet under its two pay tables (13-ハ, 13-ニ)")

    def game_rules(self, dealer: str = "s17", deal: str = "hole-card", surrender: str = "yes", das: str = "yes",
                   double: str = "any", max_hands: int = 4, blackjack_pays: str = "3to2",
                   even_money: str = "decline", split_busts: str | None = None) -> tw.Rules:
        """The :class:`~harness.games.twentyone.Rules` of the options (the operator's choices of 1-14,
        the player's even money, 1-7, and the reading of 12-ロ for busted split hands)."""
        return self.operator_rules(deal, surrender, das, double, max_hands, split_busts, hit_soft_17=dealer == "h17",
                                   blackjack_pays=Fraction(6, 5) if blackjack_pays == "6to5" else Fraction(3, 2),
                                   take_even_money=even_money == "take")

    def check_together(self, strategy, options) -> None:
        super().check_together(strategy, options)
        if options.get("even_money") == "take" and options.get("blackjack_pays") == "6to5":
            raise ValueError(f"{self.name}: option even-money=take: even money is not offered with "
                             f"blackjack-pays=6to5 ({self.entry('even_money').source}; 000 第2 1-12-ニ)")

    def side_bets(self, decks: int) -> tuple[BetResult, ...]:
        """The pair bet on the seat's first two cards (same rank), flat 11 to 1 (1-13-ハ) and
        tiered 25/12/6 (1-13-ニ)."""
        ways = pair_counts(decks)
        n = ways["none"][1]
        pair = n - ways["none"][0]
        flat_entry, tier_entry = self.entry("pair_pays"), self.entry("pair_tiered")
        flat = BetResult("pair", flat_entry.source, (
            OutcomeClass("pair", Fraction(pair, n), flat_entry.value),
            OutcomeClass("lose", Fraction(n - pair, n), Fraction(-1))),
            note="'pair' read as the same rank (000 does not define it; 001/003/004 use rank)")
        tier = BetResult("pair_tiered", tier_entry.source, tuple(
            OutcomeClass(f"{kind}_pair", Fraction(ways[kind][0], n), pays)
            for kind, pays in zip(("suited", "coloured", "mixed"), tier_entry.value))
            + (OutcomeClass("lose", Fraction(ways["none"][0], n), Fraction(-1)),),
            note="same suit / same colour, other suit (♦♥, ♠♣) / any other pair")
        return flat, tier

    def side_labels(self, c1: int, up: int, c2: int) -> dict[str, str]:
        kind = pair_kind(c1, c2)
        return {"pair": "lose" if kind == "none" else "pair",
                "pair_tiered": "lose" if kind == "none" else f"{kind}_pair"}


GAMES = (BlackjackGame(),)
