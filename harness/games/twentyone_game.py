"""The twenty-one family's game plumbing: one :class:`TwentyOneGame` every variant subclasses.

A variant module (``blackjack.py``, ``blackjack_switch.py``, ``deluxe_blackjack.py``,
``pa_blackjack.py``, ``pontoon.py``)
holds its cited rules table, its options, how the options become
:class:`~harness.games.twentyone.Rules`, and its side bets; this module turns
that into the exact analysis (:mod:`harness.games.twentyone`) and the
simulation through the virtual shoe.

What is exact, precisely:

* ``main``: the exact return per initial unit for an **infinite shoe** (the
  many-deck limit) played by the infinite-shoe optimum, which is the
  total-dependent basic strategy of the rules (every cell decided by
  comparing exact fractions).  With an infinite shoe split hands are
  independent, so re-splits are exact too.  The finite shoe's whole first
  round is not computed here (single decisions are: ``twentyone.Evaluator``).
* the side bets and ``insurance``: exact for the first round of a full shoe; without the hole card
  insurance is exact under the strategy analysed, on the main bet's shoe (a round whose hands all
  bust deals no second card and loses it: :mod:`harness.games.twentyone_insurance`).
"""
from __future__ import annotations

import functools
import json
from fractions import Fraction

import numpy as np

from rngcore.devices import cards as device_cards
from harness.games import twentyone as tw
from harness.games import twentyone_composition as tc
from harness.games import twentyone_insurance as ti
from harness.games import twentyone_pontoon as pt
from harness.games import twentyone_pontoon_chart as pc
from harness.games.twentyone_table import TwentyOneTable, net_of, side_cards
from harness.kernels import lib
from harness.games.base import Analysis, Game, GameOption, Strategy, _replay, _run
from harness.games.core import BetResult, OutcomeClass
from harness.games.simulate import BetSimulation, FitResult, Simulation, goodness_of_fit
from harness.games.twentyone_behind import behind_law
from harness.games.twentyone_first_round import first_round_law, labelled

BASIC = Strategy("basic", "the total-dependent basic strategy computed for these rules (the infinite-shoe optimum, "
                          "every cell by exact EV comparison; without the hole card the split hands against an A or "
                          "ten are played by their values given no dealer blackjack, the split valued exactly for "
                          "that play)")
TABLE = Strategy("table", "the player's own chart: --strategy FILE (also spelt --strategy table --option "
                          "chart=FILE), in the layout --chart csv prints (CSV: hand,2,...,10,A; codes H S D Ds P R "
                          "Rs); its return is computed exactly", file="chart")
COMPOSITION = Strategy("composition", "the composition-dependent optimum of the first decision: each initial two "
                                      "cards against each upcard played by the best exact value for a full shoe of "
                                      "--decks decks less those cards, every later decision by basic strategy; its "
                                      "return is exact for that fresh finite shoe (docs/table_games.md)")
CHART = GameOption.path("chart", "the strategy chart of --strategy table, which --strategy FILE sets (CSV: "
                                 "hand,2,...,10,A; rows hard 5..19, soft 13..20, pair 2..10, A; codes H S D Ds P R Rs)")
DOUBLE_TOTALS = {"any": None, "9-11": frozenset({9, 10, 11}), "10-11": frozenset({10, 11})}  # the operator's choices
# The two readings of "original bet only" for split hands (Rules.split_busts_returned; the
# tables' split_busts_returned entries cite each game's clauses).
SPLIT_BUSTS = ("lost", "returned")
MAIN_NOTE = ("main bet exact for an infinite shoe with its basic strategy (splits exact there); "
             "side bets and insurance exact for the first round of a full shoe")
RED = frozenset({1, 2})  # hearts, diamonds (rngcore.devices.cards suits S, H, D, C)


def split_busts_option(table) -> GameOption:
    """The option choosing the reading of "original bet only" for busted split hands
    (``Rules.split_busts_returned``), citing ``table``'s ``split_busts_returned`` entry, whose
    value is the default."""
    entry = next(e for e in table if e.name == "split_busts_returned")
    return GameOption.choice("split-busts", "under the no-hole-card rule, a dealer blackjack after a split: the busted "
                                            "split hands stay lost and the standing ones lose the original stake once "
                                            "(lost), or the area loses its original stake only, its busts returned "
                                            f"(returned); {entry.source}, default {SPLIT_BUSTS[entry.value]} "
                                            "(docs/table_games.md)", SPLIT_BUSTS, default=SPLIT_BUSTS[entry.value])


def net_label(net: Fraction) -> str:
    """Outcome class of a round's net per initial unit: ``"net +3/2"``, ``"net 0"``, ``"net -1"``."""
    return f"net {'+' if net > 0 else ''}{net}"


@functools.lru_cache(maxsize=None)
def infinite(rules: tw.Rules):
    """(initial hands, basic strategy) of an infinite shoe under ``rules`` (cached per rule set;
    Pontoon's own shoe and values, :mod:`harness.games.twentyone_pontoon`)."""
    return pt.pontoon_analysis(rules) if rules.pontoon else tw.infinite_deck_analysis(rules)


def strategy_chart(rules: tw.Rules, strategy) -> dict:
    """The chart of a computed strategy (Pontoon's has its own rows)."""
    return pc.chart(rules, strategy) if rules.pontoon else tw.chart(strategy)


@functools.lru_cache(maxsize=16)
def played_hands(rules: tw.Rules, chart) -> list:
    """The infinite shoe's initial hands played by the basic strategy (``chart`` None) or a chart
    (cached: a chart is equal to another of the same cells)."""
    if chart is None:
        return infinite(rules)[0]
    if rules.pontoon:   # Pontoon's shoe and values (harness.games.twentyone_pontoon)
        return tw.first_round(rules, tw.InfiniteShoe(pt.PONTOON_WEIGHTS), chart, distributions=True,
                              evaluator=pt.PontoonEvaluator)
    return tw.first_round(rules, tw.InfiniteShoe(), chart, distributions=True)


def main_result(rules: tw.Rules, source: str, chart=None) -> BetResult:
    """The main bet's exact outcome distribution: the round's net per initial unit."""
    return BetResult("main", source, net_classes(tw.net_distribution(played_hands(rules, chart))), note=MAIN_NOTE)


def net_classes(dist: dict) -> tuple[OutcomeClass, ...]:
    """The outcome classes of a law of the round's net per initial unit."""
    return tuple(OutcomeClass(net_label(net), p, net, push=net == 0) for net, p in sorted(dist.items()) if p)


@functools.lru_cache(maxsize=8)
def composition_play(rules: tw.Rules, decks: int, tens_per_deck: int) -> tc.CompositionPlay:
    """The composition strategy's first round of a full shoe of ``decks`` decks (cached per rule set)."""
    return tc.composition_play(rules, tw.FiniteShoe.decks(decks, tens_per_deck), infinite(rules)[1],
                               pt.PontoonEvaluator if rules.pontoon else None)


def composition_result(rules: tw.Rules, play: tc.CompositionPlay, source: str, decks: int) -> BetResult:
    """The main bet under the composition strategy: the law of the round's net where the seat does not
    split, and the rounds that split as one class valued by their exact mean net
    (:func:`~harness.games.twentyone_composition.round_law`); the note gives basic strategy's return
    on the same shoe."""
    law, split_p, split_net = tc.round_law(rules, play.hands)
    outcomes = net_classes(law)
    if split_p:
        outcomes += (OutcomeClass("split", split_p, split_net),)
    basic = play.basic_return
    return BetResult("main", source, outcomes, note=(
        f"exact for the first round of a full {decks}-deck shoe: the first decision of each two cards against "
        f"each upcard by its exact composition-dependent value, every later decision (3+ cards, split hands) by "
        f"basic strategy; 'split': the rounds that split, by their mean net (split hands valued on the shoe less "
        f"the pair cards); {len(play.differences())} first decisions differ from basic strategy, which returns "
        f"{float(1 + basic) * 100:.4f}% on this shoe"))


def insurance_result(decks: int, pays: Fraction, source: str, deck: tuple[int, int] = (52, 16),
                     rules: tw.Rules | None = None, strategy=None, finite: bool = False) -> BetResult:
    """Insurance on every hand with an ace up: it wins if the dealer's second card is ten-valued
    (``deck``: cards and ten-value cards per deck; Pontoon's (48, 12)).  With the hole card that is
    the hole card of the first round of a full shoe.  Without it (``rules``) the card is not dealt
    when every hand of the seat busted (000 1-10-ハ), and the insurance is lost: the law of
    :func:`harness.games.twentyone_insurance.insurance_law` with the seat playing ``strategy``, on the
    main bet's shoe (``finite``: the full ``decks``-deck shoe, else the infinite shoe)."""
    if rules is None or rules.hole_card:
        n, tens = deck[0] * decks - 1, deck[1] * decks
        return BetResult("insurance", source, (OutcomeClass("win", Fraction(tens, n), pays),
                                               OutcomeClass("lose", Fraction(n - tens, n), Fraction(-1))),
                         note="exact for the first round of a full shoe; insurance taken whatever the player holds")
    shoe = insurance_shoe(decks, deck, finite)
    law = ti.insurance_law(rules, shoe, strategy, pt.allowed_actions if rules.pontoon else tw.allowed_actions)
    return busted_insurance(law, pays, source, decks, finite, "every hand of the seat busted")


def insurance_shoe(decks: int, deck: tuple[int, int], finite: bool):
    """The main bet's shoe, which insurance without the hole card is valued on: the full
    ``decks``-deck shoe (``finite``), else the infinite shoe."""
    return tw.FiniteShoe.decks(decks, deck[1]) if finite else tw.InfiniteShoe((1,) * 9 + (deck[1] // 4,))


def busted_insurance(law: dict, pays: Fraction, source: str, decks: int, finite: bool, busted: str,
                     clauses: tuple[str, str] = ("1-10-ハ", "1-6-ロ")) -> BetResult:
    """The insurance bet of a law without the hole card (:mod:`harness.games.twentyone_insurance`):
    ``win``, ``busted`` (``busted`` says when the dealer's second card is not dealt), ``lose``;
    ``clauses``: 000's items that deal no card then and lose the insurance."""
    where = f"the first round of a full {decks}-deck shoe" if finite else "an infinite shoe (the main bet's)"
    return BetResult("insurance", source, (OutcomeClass("win", law["win"], pays),
                                           OutcomeClass("busted", law["busted"], Fraction(-1)),
                                           OutcomeClass("lose", law["lose"], Fraction(-1))),
                     note=(f"exact for {where}, insurance taken on every hand, the seat playing the strategy "
                           f"analysed; 'busted': {busted}, so the dealer's second card is not "
                           f"dealt (000 {clauses[0]}) and the insurance is lost ({clauses[1]})"))


def pair_kind(a: int, b: int) -> str:
    """How two card codes pair: ``"suited"`` (same rank and suit), ``"coloured"`` (same rank, the
    other suit of the same colour), ``"mixed"`` (same rank, other colour), or ``"none"``."""
    if device_cards.rank_of(a) != device_cards.rank_of(b):
        return "none"
    sa, sb = device_cards.suit_of(a), device_cards.suit_of(b)
    if sa == sb:
        return "suited"
    return "coloured" if (sa in RED) == (sb in RED) else "mixed"


def pair_counts(decks: int) -> dict[str, tuple[int, int]]:
    """Ways (out of 52 decks - 1) the second card pairs the first, by :func:`pair_kind`."""
    n = 52 * decks - 1
    kinds = {"suited": decks - 1, "coloured": decks, "mixed": 2 * decks}
    kinds["none"] = n - sum(kinds.values())
    return {k: (w, n) for k, w in kinds.items()}


def show(value):
    """A rule value for the JSON report."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [show(v) for v in value]
    return value


class TwentyOneGame(Game):
    """A game of the family: a subclass states its table, options, rules and side bets.

    Attributes
    ----------
    table : tuple of RuleEntry
        Every rule with its citation.
    shoe_rules : str
        The devices' shoe procedure (``rngcore.devices.rulesets``).
    main_rules : tuple of str
        The table entries the main bet's source cites.
    """

    table: tuple = ()
    shoe_rules: str = ""
    main_rules: tuple[str, ...] = ()
    strategies = (BASIC, TABLE, COMPOSITION)
    chunk = 1 << 20
    fixed_decks: int | None = None
    deck = (52, 16)          # cards and ten-value cards per deck
    chart_option = CHART     # the file option of a strategy that plays the player's chart

    def entry(self, name: str) -> tw.RuleEntry:
        return next(e for e in self.table if e.name == name)

    def game_rules(self, **choices) -> tw.Rules:
        return tw.rules_from(self.table)

    def operator_rules(self, deal: str = "hole-card", surrender: str = "yes", das: str = "yes", double: str = "any",
                       max_hands: int = 4, split_busts: str | None = None, **fields) -> tw.Rules:
        """The table's rules with the operator's choices Blackjack and Switch share (000 第2 1-14,
        2-13): the dealing method, surrender, DAS, the totals that double, the split cap; the
        reading of "original bet only" for busted split hands (``split_busts``: lost or
        returned, None the table's); and any other ``Rules`` fields."""
        hole = deal == "hole-card"
        ups = self.entry("surrender_upcards").value
        if split_busts is not None:
            fields["split_busts_returned"] = split_busts == "returned"
        return tw.rules_from(self.table, hole_card=hole, surrender=surrender == "yes",
                             surrender_upcards=ups if hole else ups - {tw.ACE},   # 1-9-ハ, 2-8-ハ: not against an ace
                             double_after_split=das == "yes", double_totals=DOUBLE_TOTALS[double],
                             max_hands=max_hands, **fields)

    def side_bets(self, decks: int) -> tuple[BetResult, ...]:
        return ()

    def side_labels(self, c1: int, up: int, c2: int) -> dict[str, str]:
        """Each side bet's outcome class for a seat's first cards and the upcard (card codes)."""
        return {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if any(s.file == "chart" for s in cls.strategies):
            cls.options = tuple(cls.options) + (cls.chart_option,)

    def check_together(self, strategy, options) -> None:
        if (strategy == "table") != (options.get("chart") is not None):
            raise ValueError(f"{self.name}: --strategy table and --option chart=FILE go together "
                             "(--strategy FILE says both)")

    def _decks(self, choices: dict) -> tuple[int, dict, object]:
        choices = dict(choices)
        decks = choices.pop("decks", None) or self.fixed_decks
        given = choices.pop("chart", None)
        chart = None if given is None else self.read_chart(given.text, f"{self.name}: strategy chart {given.path}",
                                                           choices)
        return decks, choices, chart

    def read_chart(self, text: str, where: str, choices: dict):
        """The player's chart as a strategy (``choices``: the game's other options)."""
        return tw.read_chart(text, where)

    def _composition(self, strategy, rules: tw.Rules, decks: int):
        """The composition strategy's play of a full shoe, if that is the strategy."""
        return self.composition_play(rules, decks) if strategy == COMPOSITION.name else None

    # -- what a variant with its own composition play (Blackjack Switch) replaces --

    composition_text = staticmethod(tc.chart_text)   # its table as text (--chart --strategy composition)

    def composition_play(self, rules: tw.Rules, decks: int):
        """The composition strategy's first round of a full shoe of ``decks`` decks."""
        return composition_play(rules, decks, self.deck[1])

    def composition_main(self, rules: tw.Rules, play, source: str, decks: int) -> BetResult:
        """The main bet under the composition strategy."""
        return composition_result(rules, play, source, decks)

    def composition_table(self, play) -> dict:
        """The composition strategy's table (``--chart --strategy composition``)."""
        return tc.chart(play)

    def _analyse(self, variant, *, strategy, **choices) -> Analysis:
        decks, choices, chart = self._decks(choices)
        behind = self.behind_choices(choices)
        rules = self.game_rules(**choices)
        play = self._composition(strategy, rules, decks)
        source = "; ".join(dict.fromkeys(self.entry(n).source for n in self.main_rules))
        main = self.main_bet(rules, source, chart) if play is None else self.composition_main(rules, play, source, decks)
        bets = (main, self.insurance_bet(rules, chart, play, decks), *self.side_bets(decks),
                *(self.behind_bets(rules, chart if play is None else play.strategy, behind) if behind else ()))
        parameters = {"decks": decks, **choices, "main_bet_shoe": "infinite" if play is None else f"full {decks}-deck",
                      "rules": {e.name: {"value": show(e.value), "source": e.source, "note": e.note}
                                for e in self.table},
                      "chart": strategy_chart(rules, infinite(rules)[1]) if chart is None else
                      {"upcards": [str(u) if u != tw.ACE else "A" for u in tw.CHART_UPCARDS],
                       "rows": {n: [r[u] for u in tw.CHART_UPCARDS] for n, r in chart.rows.items()}}}
        note = self.note(rules)
        if play is not None:
            parameters["composition"] = {"basic_strategy_net_this_shoe": show(play.basic_return),
                                         "table": self.composition_table(play)}
            note = (f"main bet exact for the first round of a full {decks}-deck shoe under the composition "
                    f"strategy (first decisions by composition, later ones by basic strategy); side bets and "
                    f"insurance exact for the first round of a full shoe")
        return Analysis(self.name, variant, parameters, bets, note)

    def note(self, rules: tw.Rules) -> str:
        return MAIN_NOTE

    def insurance_bet(self, rules: tw.Rules, chart, play, decks: int) -> BetResult:
        """Insurance with an ace up, the seat playing the strategy analysed (``chart``, or the
        composition ``play``; both None: basic strategy), which it depends on without the hole card."""
        insurance = self.entry("insurance_pays")
        played = None
        if not rules.hole_card:
            played = chart if play is None else play.strategy
            if played is None:
                played = infinite(rules)[1]
        return insurance_result(decks, insurance.value, insurance.source, self.deck, rules, played,
                                finite=play is not None)

    # -- what a variant with another round (Blackjack Switch's two areas) replaces --

    def main_bet(self, rules: tw.Rules, source: str, chart) -> BetResult:
        """The main bet's exact outcome law (the round's net per initial unit)."""
        return main_result(rules, source, chart)

    def swaps(self, rules: tw.Rules, chart) -> np.ndarray | None:
        """The switch decisions of a two-area game (Blackjack Switch), under the strategy the
        areas are played with; None for one area."""
        return None

    def c_table(self, rules: tw.Rules, chart, decks: int, behind: tuple[bool, bool] | None = None) -> TwentyOneTable:
        """The C table dealing this game's rounds (``behind``: the bet-behind's choices, if it has one)."""
        return TwentyOneTable(rules, infinite(rules)[1] if chart is None else chart, self.shoe_rules, decks,
                              swaps=self.swaps(rules, chart), behind=behind or (True, True))

    def behind_choices(self, choices: dict) -> tuple[bool, bool] | None:
        """Pop the bet-behind's (follow double, follow split) choices from ``choices``; None if the
        game has no bet-behind."""
        return None

    def behind_bets(self, rules: tw.Rules, chart, behind: tuple[bool, bool] | None) -> tuple[BetResult, ...]:
        """The bet-behind's exact law (:mod:`harness.games.twentyone_behind`), if the game has one."""
        if behind is None:
            return ()
        law = behind_law(rules, played_hands(rules, chart), *behind, strategy=chart)
        follow = ", ".join(f"follow {what} {'yes' if on else 'no'}" for what, on in zip(("double", "split"), behind))
        return (BetResult("bet_behind", self.entry("bet_behind").source,
                          tuple(OutcomeClass(net_label(net), p, net, push=net == 0) for net, p in law.items()),
                          note=f"follows the seat ({follow}); exact for an infinite shoe with the seat's strategy"),)

    def side_labels_of(self, side: int) -> dict[str, str]:
        """Each side bet's outcome class for a kernel side class."""
        return self.side_labels(*side_cards(side))

    def first_round_law(self, rules: tw.Rules, table: TwentyOneTable, chart, decks: int) -> dict[str, float]:
        """The exact law of the kernel's first-round classes (:data:`lib.KERN_TW_FIRSTS`), by label:
        the round's net (a round that split one class), the full shoe's first round."""
        return _law(rules, table.counts, table.cells.tobytes())

    def first_round_observed(self, firsts: np.ndarray) -> dict[str, int]:
        """The kernel's first-round counts by the labels of :meth:`first_round_law`."""
        return {k: int(v) for k, v in labelled(firsts.astype(np.float64), net_label).items()}

    def first_round_fit(self, rules: tw.Rules, table: TwentyOneTable, firsts: np.ndarray, chart,
                        decks: int) -> FitResult:
        """The chi-square of the first round of each shoe against :meth:`first_round_law` (a class
        the law has not, expected 0)."""
        law, observed = self.first_round_law(rules, table, chart, decks), self.first_round_observed(firsts)
        labels = list(law) + [k for k in observed if k not in law]
        return goodness_of_fit([observed.get(k, 0) for k in labels], [law.get(k, 0.0) for k in labels], labels)

    fit_note = ("outcome chi-square: the first round of each of the {shoes:,} shoes (net classes, a round that "
                "split one class) against the law of the first round of this full {decks}-deck shoe")

    chart_formats = ("text", "csv", "json")

    def chart(self, fmt: str, variant: str | None = None, strategy: str | None = None, **options) -> str:
        """The chart the main bet is analysed with (the computed basic strategy, or the player's
        chart): hard 5..19, soft 13..20, pairs by upcard 2..10, A; codes H S D Ds P R Rs.  Under the
        composition strategy, its table: each two-card hand by its cards x upcard, a ``*`` (text, CSV)
        or an entry of ``differences`` (JSON) where it is not basic strategy's play."""
        if fmt not in self.chart_formats:
            raise ValueError(f"{self.name}: chart format must be one of {', '.join(self.chart_formats)}, got {fmt!r}")
        analysis = self.analyse(variant, strategy, **options)
        if analysis.strategy == COMPOSITION.name:
            table, text, csv = analysis.parameters["composition"]["table"], self.composition_text, tc.chart_csv
        else:
            table, text, csv = analysis.parameters["chart"], tw.chart_text, tw.chart_csv
        if fmt == "json":
            return json.dumps({"game": self.name, **table}, indent=2)
        return csv(table) if fmt == "csv" else text(table)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, **choices) -> Simulation:
        """One seat through the production shoe (shuffle, cut, burn, cut card), basic strategy or the
        player's chart, every side bet placed every round; rounds played in C, counts exact integers."""
        analysis = self.analyse(strategy=strategy, **choices)
        decks, choices, chart = self._decks(choices)
        follow = self.behind_choices(choices)
        rules = self.game_rules(**choices)
        play = self._composition(strategy, rules, decks)
        plays = ("basic strategy" if chart is None else "the player's chart") if play is None else \
            "the composition strategy"
        if play is not None:
            chart = play.strategy       # the C table's two-card cells hold its first decisions
        table = self.c_table(rules, chart, decks, follow)
        behind = None if follow is None else np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
        nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
        sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
        firsts = np.zeros(lib.KERN_TW_FIRSTS, dtype=np.uint64)
        played, interrupted, seconds = _run(rounds, self.chunk,
                                            lambda n: table.play(generator, n, nets, sides, firsts=firsts,
                                                                 behind=behind),
                                            lambda: int(sides.sum(dtype=np.uint64)), progress)
        counts: dict[str, dict[str, int]] = {b.name: {} for b in analysis.bets if b.name != "insurance"}
        for name, classes in (("main", nets), ("bet_behind", behind)):
            for i in np.flatnonzero(classes if classes is not None else []):
                counts[name][net_label(net_of(int(i)))] = int(classes[i])
        for side in np.flatnonzero(sides):
            for name, label in self.side_labels_of(int(side)).items():
                counts[name][label] = counts[name].get(label, 0) + int(sides[side])
        fit = self.first_round_fit(rules, table, firsts, chart, decks)
        sims = tuple((ShoeMainSimulation(analysis.bet(name), in_outcome_order(analysis.bet(name), c), fit)
                      if name == "main" else BetSimulation(analysis.bet(name), in_outcome_order(analysis.bet(name), c)))
                     for name, c in counts.items())
        shoes = int(firsts.sum(dtype=np.uint64))
        return Simulation(self.name, analysis.variant, f"shoe:{decks}", played, rounds, seconds, fit, sims,
                          procedure=f"{self.shoe_rules}: shuffle, cut, burn, cut card, the round in which it "
                                    "comes out is the last; one seat, "
                                    f"{plays}, "
                                    "side bets every round",
                          interrupted=interrupted, replay=_replay(generator),
                          note=self.fit_note.format(shoes=shoes, decks=decks) + "; only that round is dealt "
                               "from a full shoe, and the first rounds of distinct shoes are independent (later "
                               "rounds depend on the cut card, so no one law fits them all); main RTP: every round "
                               f"against the {'infinite' if play is None else 'full ' + str(decks) + '-deck'}-shoe "
                               "exact return")


class ShoeMainSimulation(BetSimulation):
    """The main bet over every round dealt, with its chi-square on the first round of each shoe.

    The interval of the return is over every round; the goodness of fit is
    :func:`first_round_fit` (the only rounds whose law is known exactly).
    """

    def __init__(self, exact: BetResult, counts, first_rounds: FitResult):
        super().__init__(exact, counts)
        object.__setattr__(self, "first_rounds", first_rounds)

    def net(self, label: str) -> Fraction:
        """A round's net from its class label (:func:`net_label`): the composition strategy's exact law
        has one class for the rounds that split, so not every dealt net is one of its classes."""
        return Fraction(label.removeprefix("net "))

    @property
    def fit(self) -> FitResult:
        return self.first_rounds


@functools.lru_cache(maxsize=16)
def _law(rules: tw.Rules, counts: tuple, cells: bytes) -> dict[str, float]:
    law = first_round_law(rules, counts, np.frombuffer(cells, dtype=np.uint8))
    return labelled(law, net_label)


def in_outcome_order(bet: BetResult, counts: dict[str, int]) -> dict[str, int]:
    """``counts`` keyed in the order of the bet's outcome classes (then any other label)."""
    order = {o.label: i for i, o in enumerate(bet.outcomes)}
    return dict(sorted(counts.items(), key=lambda kv: order.get(kv[0], len(order))))
