"""Blackjack Switch (000 別表第1 第2 2): the rules as a cited table, the exact main-bet return,
insurance and the Super Match side bet, and rounds dealt through the virtual shoe.

Source: ``000_d4cd2a3cb5c95429.txt`` L647-821 (digest ``rules/blackjack.md`` § 2).  The
switch's math is :mod:`harness.games.twentyone_switch`, the rest of the family's
:mod:`harness.games.twentyone`; the C round engine plays both areas
(``csrc/kernels/twentyone.c``, ``switch_hands``).

What is exact, precisely:

* ``main``: the law of ONE area's net per unit on it (the second area's law is the same),
  for an **infinite shoe**, each area played by the total-dependent basic strategy of these
  rules (computed without regard to the other area: the infinite-shoe optimum of a hand)
  and the switch decided by the exact values of the two candidate pairs of hands under
  that strategy.  Its mean is the return per unit staked on the pair of areas.  It is not
  the joint optimum of the switch and the play (that is the same here: with an infinite
  shoe the two areas' plays do not interact).
* ``insurance`` (per area) and ``super_match``: exact for the first round of a full shoe;
  without the hole card insurance is exact on the main bet's shoe, the areas played as
  analysed (a round whose hands of both areas all bust deals no second card and loses it,
  2-9-ハ: :func:`harness.games.twentyone_insurance.switch_busted_rounds`).
* ``--strategy composition``: the main bet exact for the first round of a full finite shoe,
  each area's first decision and the switch by their values on the shoe less the five first
  cards (:mod:`harness.games.twentyone_switch_composition`, which states what is exact); not
  simulated (the C round keys an area's first decision by its own two cards only).

Readings (not in sources): a two-card 21 made by the switch counts as a blackjack (2-3
defines a blackjack as the first two cards dealt totalling 21; the digest's reading);
surrender (8-ハ) may follow the switch (8-ニ forbids the switch after a surrender, not the
reverse), so each hand's value used for the decision includes it.
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from harness.games import twentyone as tw
from harness.games import twentyone_switch as sw
from harness.games import twentyone_insurance as ti
from harness.games import twentyone_switch_composition as swc
from harness.games.base import GameOption, Strategy
from harness.games.core import BetResult, OutcomeClass, odds
from harness.games.twentyone_game import (BASIC, DOUBLE_TOTALS, TABLE, TwentyOneGame, busted_insurance, infinite,
                                          insurance_shoe, net_classes, net_label, played_hands, split_busts_option)

SOURCE = "000 別表第1 第2 2"
SHOE_RULES = "jp-blackjack-switch"
MIN_DECKS, MAX_DECKS = 6, 8

RULES = (
    tw.RuleEntry("decks", 8, "000 第2 2-1 (L651)", "6..8 decks; default 8 (the most permitted)"),
    tw.RuleEntry("switch", True, "000 第2 2-4-ハ, 2-8-ニ",
                 "two areas with equal stakes; the second cards may be exchanged before any other action"),
    tw.RuleEntry("hole_card", True, "000 第2 2-5-イ, 2-7",
                 "operator's choice of the hole-card or no-hole-card rule; default hole-card (not in sources)"),
    tw.RuleEntry("hit_soft_17", True, "000 第2 2-9 (L745-751)", "the dealer hits soft 17 (fixed)"),
    tw.RuleEntry("dealer_22_push", True, "000 第2 2-10 (L753-755)",
                 "a dealer 22 pushes every hand but a blackjack (which wins) and a bust (which lost)"),
    tw.RuleEntry("blackjack_pays", Fraction(1), "000 第2 2-11-ハ (L763)",
                 "every win 1 to 1, a blackjack too; a two-card 21 made by the switch read as a blackjack "
                 "(2-3; not in sources)"),
    tw.RuleEntry("original_bet_only", True, "000 第2 2-11-ロ",
                 "a dealer blackjack collects only the original stake, once per area, from the hands still "
                 "standing; a busted hand was settled at once (2-8-ト)"),
    tw.RuleEntry("split_busts_returned", False, "000 第2 2-8-ト, 2-10 (as 1-11-ロ-(2)-(一)(三)), 2-11-ロ",
                 "a split hand's bust is lost at once (8-ト), so 11-ロ spares only the hands still standing in "
                 "the area; the other reading (the area loses its original stake only) is "
                 "--option split-busts=returned"),
    tw.RuleEntry("double_totals", None, "000 第2 2-8-ヘ, 2-8-チ", "any two cards; the operator may restrict the totals"),
    tw.RuleEntry("double_after_split", True, "000 第2 2-8-ヘ, 2-8-チ", "allowed unless the operator bars it"),
    tw.RuleEntry("surrender", True, "000 第2 2-8-ハ, 2-13",
                 "one or both hands, half the stake, before any 8-ヘ action; the operator may disable it"),
    tw.RuleEntry("surrender_upcards", frozenset(tw.VALUES), "000 第2 2-8-ハ",
                 "any upcard; not an ace under the no-hole-card rule"),
    tw.RuleEntry("max_hands", 4, "000 第2 2-8-チ", "the operator caps the hands per area; default 4 (not in sources)"),
    tw.RuleEntry("resplit_aces", False, "000 第2 2-8-ヘ (as 1-9-ニ-(1))", "aces formed by a split are not split again"),
    tw.RuleEntry("hit_split_aces", False, "000 第2 2-8-ヘ (as 1-9-ニ-(3))", "one card to each split ace"),
    tw.RuleEntry("insurance_pays", odds(2), "000 第2 2-6", "per hand, up to half its stake, upcard ace; no even money"),
    tw.RuleEntry("super_match_pays", (odds(40), odds(5), odds(8), odds(1)), "000 第2 2-12 (L765-787)",
                 "the four first cards by rank: four 40, three 5, two pair 8, one pair 1 (three pays less than "
                 "two pair, as the source says)"),
)
OPTIONS = (
    GameOption("decks", "N", f"decks in the shoe, {MIN_DECKS}..{MAX_DECKS} (000 第2 2-1; default 8): the side "
                             "bets' exact figures and the simulation's shoe", MIN_DECKS, MAX_DECKS, 8),
    GameOption.choice("deal", "the hole-card rule (peek on A/10, 2-7) or the no-hole-card rule (000 第2 2-5-イ, "
                              "operator's choice)", ("hole-card", "no-hole-card")),
    GameOption.choice("surrender", "surrender offered (000 第2 2-8-ハ; 2-13 lets the operator disable it)",
                      ("yes", "no")),
    GameOption.choice("das", "double after split (000 第2 2-8-ヘ; 2-8-チ lets the operator bar it)", ("yes", "no")),
    GameOption.choice("double", "two-card totals that may double (000 第2 2-8-ヘ: any; 2-8-チ lets the operator "
                                "restrict them)", tuple(DOUBLE_TOTALS)),
    GameOption("max-hands", "N", "hands one area may hold after splitting, 2 = no re-split (000 第2 2-8-チ, "
                                 "operator's cap; default 4, not in sources)", 2, 4, 4),
    split_busts_option(RULES),
)
COMPOSITION = Strategy("composition", "the composition-dependent optimum on a full shoe of --decks decks less the "
                                      "five first cards: each area's first decision by its best exact value (this "
                                      "action, then basic strategy), the switch where it raises the sum of the two "
                                      "areas' values; its return is exact for that fresh shoe, splits as the "
                                      "published analysers value them (docs/table_games.md); an estimated half hour of CPU for 6 decks (from a timed "
                                      "sample; no full-size run is timed yet); "
                                      "not simulated")
MAIN_NOTE = ("one area's net per unit on it (the other area has the same law; the mean is the return per unit "
             "staked on the pair), exact for an infinite shoe: each area by its basic strategy, the switch by the "
             "exact values of the two candidate pairs of hands")


class BlackjackSwitchGame(TwentyOneGame):
    name = "blackjack-switch"
    summary = ("Blackjack Switch: two areas, the second cards switched by exact EV; main bet (exact, infinite shoe), "
               "insurance, Super Match")
    rules = f"{SOURCE} (seed L647-821)"
    options = OPTIONS
    devices = f"shoe:N ({SHOE_RULES} procedure)"
    table = RULES
    shoe_rules = SHOE_RULES
    main_rules = ("switch", "hit_soft_17", "dealer_22_push", "blackjack_pays", "surrender", "max_hands")
    strategies = (BASIC, TABLE, COMPOSITION)
    composition_text = staticmethod(swc.chart_text)

    def game_rules(self, deal: str = "hole-card", surrender: str = "yes", das: str = "yes", double: str = "any",
                   max_hands: int = 4, split_busts: str | None = None) -> tw.Rules:
        """The :class:`~harness.games.twentyone.Rules` of the options (the operator's choices of 2-13,
        and the reading of 11-ロ for busted split hands)."""
        return self.operator_rules(deal, surrender, das, double, max_hands, split_busts)

    def swaps(self, rules: tw.Rules, chart) -> np.ndarray:
        """The switch decisions under the strategy the areas are played with."""
        return _swaps(rules, chart)

    def main_bet(self, rules: tw.Rules, source: str, chart) -> BetResult:
        law = sw.area_law(rules, played_hands(rules, chart), self.swaps(rules, chart))
        outcomes = tuple(OutcomeClass(net_label(net), p, net, push=net == 0) for net, p in law.items())
        return BetResult("main", source, outcomes, note=MAIN_NOTE)

    def composition_play(self, rules: tw.Rules, decks: int) -> swc.SwitchPlay:
        return _composition_play(rules, decks)

    def composition_main(self, rules: tw.Rules, play: swc.SwitchPlay, source: str, decks: int) -> BetResult:
        """One area's net under the composition strategy: its law where it does not split, and the
        rounds where it splits as one class valued by their mean net."""
        outcomes = net_classes(play.area_law)
        if play.split_probability:
            outcomes += (OutcomeClass("split", play.split_probability, play.split_net),)
        return BetResult("main", source, outcomes, note=(
            f"one area's net per unit on it (the other area has the same law), exact for the first round of a full "
            f"{decks}-deck shoe: each area's first decision and the switch by their exact values on the shoe less "
            f"the five first cards, every later decision by basic strategy; 'split': the rounds where the area "
            f"splits, by their mean net (split hands valued on the shoe less the upcard, the other area's cards and "
            f"the pair cards); {len(play.differences())} area first decisions and {len(play.switch_differences())} "
            f"switch decisions differ from basic strategy's, which returns {float(1 + play.basic_return) * 100:.4f}% "
            f"on this shoe"))

    def insurance_bet(self, rules: tw.Rules, chart, play, decks: int) -> BetResult:
        """Each area's insurance (2-6, one law for both).  Without the hole card the dealer's second
        card is not dealt when every hand of both areas busted (2-9-ハ), which loses it: the areas
        played as analysed, the switch decided first (basic strategy's or the chart's switch cells
        on the infinite shoe, the composition strategy's deals on the full shoe)."""
        if rules.hole_card:
            return super().insurance_bet(rules, chart, play, decks)
        finite = play is not None
        deals = sw.insurance_deals(self.swaps(rules, chart)) if play is None else play.insurance_deals()
        strategy = infinite(rules)[1] if chart is None else chart
        law = ti.switch_insurance_law(rules, insurance_shoe(decks, self.deck, finite), strategy, deals)
        entry = self.entry("insurance_pays")
        return busted_insurance(law, entry.value, entry.source, decks, finite, "every hand of both areas busted",
                                ("第2 2-9-ハ", "2-6-ロ"))

    def composition_table(self, play: swc.SwitchPlay) -> dict:
        return swc.chart(play)

    def check_simulation(self, strategy: str | None) -> None:
        if strategy == COMPOSITION.name:
            raise ValueError(f"{self.name}: --simulate does not play --strategy composition: the C round keys an "
                             "area's first decision by its own two cards and the upcard, and this strategy's also "
                             "reads the other area's two cards (docs/table_games.md)")

    def side_bets(self, decks: int) -> tuple[BetResult, ...]:
        """The Super Match on the four first cards of the pair of areas (2-12)."""
        ways = sw.super_match_ways(decks)
        entry = self.entry("super_match_pays")
        four, three, two_pair, pair = entry.value
        n = ways["none"][1]
        return (BetResult("super_match", entry.source, tuple(
            OutcomeClass(label, Fraction(ways[key][0], n), pays) for label, key, pays in (
                ("four", "four", four), ("three", "three", three), ("two_pair", "two_pair", two_pair),
                ("pair", "pair", pair))) + (OutcomeClass("lose", Fraction(ways["none"][0], n), Fraction(-1)),),
            note="by rank; four excludes three, three and two pair exclude each other, a pair is none of those"),)

    def side_labels_of(self, side: int) -> dict[str, str]:
        match = sw.MATCH[side & 7]
        return {"super_match": "lose" if match == "none" else match}

    fit_note = ("outcome chi-square: the first round of each of the {shoes:,} shoes, its Super Match class and "
                "whether the seat switched, against their exact law for a full {decks}-deck shoe")

    def first_round_law(self, rules, table, chart, decks) -> dict[str, float]:
        """The first round's Super Match class and whether the seat switched (side classes)."""
        return {sw.side_label(k): float(p) for k, p in sw.first_round_sides(rules, self.swaps(rules, chart),
                                                                            decks).items()}

    def first_round_observed(self, firsts: np.ndarray) -> dict[str, int]:
        return {sw.side_label(int(k)): int(firsts[k]) for k in np.flatnonzero(firsts)}

    def note(self, rules: tw.Rules) -> str:
        return (MAIN_NOTE + "; insurance per area (without the hole card on the main bet's shoe) and the Super "
                "Match exact for the first round of a full shoe; "
                "a two-card 21 made by the switch read as a blackjack (not in sources)")


@functools.lru_cache(maxsize=8)
def _swaps(rules: tw.Rules, chart) -> np.ndarray:
    """The switch cells of the basic strategy (``chart`` None) or of a player's chart, cached per
    rule set and chart: one computation per analysis and simulation."""
    return sw.swap_cells(rules, played_hands(rules, chart))


@functools.lru_cache(maxsize=4)
def _composition_play(rules: tw.Rules, decks: int) -> swc.SwitchPlay:
    """The composition strategy's first round of a full shoe (minutes: cached per rule set)."""
    return swc.switch_play(rules, tw.FiniteShoe.decks(decks), infinite(rules)[1], _swaps(rules, None))


GAMES = (BlackjackSwitchGame(),)
