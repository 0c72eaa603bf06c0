"""Blackjack (000 別表第1 第2 1): the rules as a cited table, the exact main-bet return,
insurance and the pair side bet, and rounds dealt through the virtual shoe.

Source: ``000_d4cd2a3cb5c95429.txt`` L377-645 (digest ``rules/blackjack.md`` § 1).
The shared twenty-one math (hands, dealer, decision values, strategy, the
round engine) is :mod:`harness.games.twentyone`; this module is the table.

What is exact, precisely:

* ``main``: the exact return per initial unit of an **infinite shoe** (the
  many-deck limit) played by the infinite-shoe optimal strategy, which is the
  total-dependent basic strategy of these rules, every cell decided by
  comparing exact fractions.  With an infinite shoe split hands are
  independent, so re-splits are exact too.  The finite shoe's figure is not
  computed here (the composition-dependent values of single hands are, see
  :mod:`harness.games.twentyone` and its tests).
* ``insurance``, ``pair``, ``pair_tiered``: exact for the first round of a
  full shoe of ``--decks`` decks (integer counts of cards and suits).
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from rngcore.devices import cards as device_cards
from rngcore.devices.shoe import Shoe
from harness.games import twentyone as tw
from harness.games.base import Analysis, Game, GameOption, Strategy, _replay, _run
from harness.games.core import BetResult, OutcomeClass, odds
from harness.games.simulate import BetSimulation, Simulation

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
                 "a dealer blackjack collects only the original stake (matters under the no-hole-card rule)"),
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
_TABLE = {e.name: e for e in RULES}
DOUBLE_TOTALS = {"any": None, "9-11": frozenset({9, 10, 11}), "10-11": frozenset({10, 11})}
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
    GameOption.choice("blackjack-pays", "3to2 (000 第2 1-12-ハ-(1)) or the 6to5 option (1-12-ニ)", ("3to2", "6to5")),
)
STRATEGIES = (Strategy("basic", "the total-dependent basic strategy computed for these rules (the infinite-shoe "
                                "optimum, every cell by exact EV comparison)"),)


def game_rules(dealer: str = "s17", deal: str = "hole-card", surrender: str = "yes", das: str = "yes",
               double: str = "any", max_hands: int = 4, blackjack_pays: str = "3to2") -> tw.Rules:
    """The :class:`~harness.games.twentyone.Rules` of the options (the operator's choices of 1-14)."""
    hole = deal == "hole-card"
    ups = _TABLE["surrender_upcards"].value
    return tw.rules_from(RULES, hit_soft_17=dealer == "h17", hole_card=hole, surrender=surrender == "yes",
                         surrender_upcards=ups if hole else ups - {tw.ACE},   # 1-9-ハ: not against an ace
                         double_after_split=das == "yes", double_totals=DOUBLE_TOTALS[double], max_hands=max_hands,
                         blackjack_pays=Fraction(6, 5) if blackjack_pays == "6to5" else Fraction(3, 2))


def main_result(rules: tw.Rules, source: str, note: str) -> tuple[BetResult, tw.TableStrategy, Fraction]:
    """The main bet's exact outcome distribution (infinite shoe, its basic strategy)."""
    hands, strategy = _infinite(rules)
    dist = tw.net_distribution(hands)
    outcomes = tuple(OutcomeClass(net_label(net), p, net, push=net == 0) for net, p in sorted(dist.items()) if p)
    return BetResult("main", source, outcomes, note=note), strategy, tw.expected_return(hands)


@functools.lru_cache(maxsize=None)
def _infinite(rules: tw.Rules):
    return tw.infinite_deck_analysis(rules)


def _strategy(rules: tw.Rules) -> tw.TableStrategy:
    return _infinite(rules)[1]


def net_label(net: Fraction) -> str:
    """Outcome class of a round's net per initial unit: ``"net +3/2"``, ``"net 0"``, ``"net -1"``."""
    return f"net {'+' if net > 0 else ''}{net}"


def insurance_result(decks: int, pays: Fraction, source: str) -> BetResult:
    """Insurance on every hand with an ace up (000 1-6): wins if the hole card is ten-valued."""
    n = 52 * decks - 1
    tens = 16 * decks
    return BetResult("insurance", source, (OutcomeClass("win", Fraction(tens, n), pays),
                                           OutcomeClass("lose", Fraction(n - tens, n), Fraction(-1))),
                     note="exact for the first round of a full shoe; insurance taken whatever the player holds")


def pair_results(decks: int, single: Fraction, tiered: tuple, sources: tuple[str, str]) -> tuple[BetResult, ...]:
    """The pair side bet on the first two cards (same rank), flat and tiered (000 1-13)."""
    n = 52 * decks - 1
    suited, colour, other = decks - 1, decks, 2 * decks
    pair = suited + colour + other
    flat = BetResult("pair", sources[0], (OutcomeClass("pair", Fraction(pair, n), single),
                                          OutcomeClass("lose", Fraction(n - pair, n), Fraction(-1))),
                     note="'pair' read as the same rank (000 does not define it; 001/003/004 use rank)")
    s, c, o = tiered
    tier = BetResult("pair_tiered", sources[1], (
        OutcomeClass("suited_pair", Fraction(suited, n), s), OutcomeClass("coloured_pair", Fraction(colour, n), c),
        OutcomeClass("other_pair", Fraction(other, n), o), OutcomeClass("lose", Fraction(n - pair, n), Fraction(-1))),
        note="same suit / same colour other suit (♦♥, ♠♣) / any other pair")
    return flat, tier


class BlackjackGame(Game):
    name = "blackjack"
    summary = "Blackjack: main bet (exact, infinite shoe, computed basic strategy), insurance, pair side bets"
    rules = f"{SOURCE} (seed L377-645)"
    options = OPTIONS
    strategies = STRATEGIES
    devices = f"shoe:N ({SHOE_RULES} procedure)"
    chunk = 1 << 12

    def _analyse(self, variant, *, strategy, decks, **choices) -> Analysis:
        rules = game_rules(**choices)
        main, strategy_table, _ = main_result(rules, _sources("hit_soft_17", "blackjack_pays", "surrender",
                                                                "max_hands", "double_after_split"), MAIN_NOTE)
        bets = (main, insurance_result(decks, _TABLE["insurance_pays"].value, _TABLE["insurance_pays"].source),
                *pair_results(decks, _TABLE["pair_pays"].value, _TABLE["pair_tiered"].value,
                              (_TABLE["pair_pays"].source, _TABLE["pair_tiered"].source)))
        parameters = {"decks": decks, **choices, "main_bet_shoe": "infinite",
                      "rules": {e.name: {"value": _show(e.value), "source": e.source, "note": e.note} for e in RULES},
                      "chart": tw.chart(strategy_table)}
        return Analysis(self.name, variant, parameters, bets, MAIN_NOTE)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, decks, **choices) -> Simulation:
        return simulate(self, rounds, generator, decks, choices, progress)


MAIN_NOTE = ("main bet exact for an infinite shoe with its basic strategy (splits exact there); "
             "side bets and insurance exact for a full shoe of the given decks")


def _sources(*names: str) -> str:
    return "; ".join(dict.fromkeys(_TABLE[n].source for n in names))


def _show(value):
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [_show(v) for v in value]
    return value


def simulate(game: Game, rounds: int, generator, decks: int, choices: dict, progress) -> Simulation:
    """Deal ``rounds`` rounds for one seat through the production shoe (cut card, burn).

    The seat plays the analysed basic strategy on the main bet and places the pair
    bets every round.  Counts are exact integers; the report compares them with the
    exact figures (the main bet's are an infinite shoe's: see the note).
    """
    analysis = game.analyse(decks=decks, **choices)
    rules = game_rules(**choices)
    strategy = _strategy(rules)
    shoe = Shoe(generator, SHOE_RULES, decks)
    main_counts: dict[str, int] = {}
    pair_counts: dict[str, int] = {}
    tier_counts: dict[str, int] = {}
    done = [0]
    values = np.array([0] + [tw.card_value(r) for r in range(1, 14)])

    def step(n: int) -> None:
        for _ in range(n):
            shoe.start_round()
            dealt: list[int] = []

            def deal() -> int:
                code = shoe.deal()
                dealt.append(code)
                return int(values[code & 0x0F])

            label = net_label(tw.play_round(rules, deal, strategy))
            main_counts[label] = main_counts.get(label, 0) + 1
            a, b = dealt[0], dealt[2]  # the seat's first two cards (1-5-イ order)
            flat, tier = _pair_class(a, b)
            pair_counts[flat] = pair_counts.get(flat, 0) + 1
            tier_counts[tier] = tier_counts.get(tier, 0) + 1
            shoe.end_round()
            done[0] += 1

    played, interrupted, seconds = _run(rounds, game.chunk, step, lambda: done[0], progress)
    sims = (BetSimulation(analysis.bet("main"), main_counts), BetSimulation(analysis.bet("pair"), pair_counts),
            BetSimulation(analysis.bet("pair_tiered"), tier_counts))
    return Simulation(game.name, analysis.variant, f"shoe:{decks}", played, rounds, seconds, sims[0].fit, sims,
                      procedure=f"{SHOE_RULES}: shuffle, cut, burn, cut card 1/4 from the end, finish the round "
                                "(000 第2 1-15); one seat, basic strategy",
                      interrupted=interrupted, replay=_replay(generator),
                      note="outcome chi-square: the main bet's net per round against the infinite-shoe exact "
                           "probabilities; a finite shoe dealt to its cut card differs from them by far less "
                           "than the test resolves below about 10^6 rounds")


def _pair_class(a: int, b: int) -> tuple[str, str]:
    if device_cards.rank_of(a) != device_cards.rank_of(b):
        return "lose", "lose"
    sa, sb = device_cards.suit_of(a), device_cards.suit_of(b)
    if sa == sb:
        return "pair", "suited_pair"
    red = {1, 2}  # H, D (rngcore.devices.cards: S, H, D, C)
    return "pair", "coloured_pair" if (sa in red) == (sb in red) else "other_pair"


GAMES = (BlackjackGame(),)
