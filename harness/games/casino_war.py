"""Casino War (000 別表第1 第4): the rules as a table, exact returns for a
dealt-down shoe, and the round classes the C table reports.

Source: ``000_d4cd2a3cb5c95429.txt`` L1927-2073 (digest ``rules/casino_war.md``).
One customer plays heads-up against the dealer.  A round is one of
:data:`CLASSES`:

=============  ==========================================================
``win``        customer's card higher (4-3-イ, 6-2-イ): main 1 to 1 (7-2-イ)
``lose``       customer's card lower: main lost
``war_higher`` tie, war, customer's war card higher (8-2-イ, 8-3-イ)
``war_tie``    tie, war, war cards equal (8-2-イ, 8-3-ロ)
``war_lower``  tie, war, customer's war card lower (8-2-ロ)
``surrender``  tie, customer ends the bet (8-1-イ): half the main stake lost
=============  ==========================================================

Exact method.  A shuffled shoe is a uniform permutation; the cards at any
fixed set of positions are a uniform ordered sample.  Where each round starts
depends only on which earlier rounds were ties (a war takes ``2 + burns``
more cards), and swapping the two cards of a comparison changes neither a
tie nor any position, so "higher" and "lower" are equally likely in every
round of every shoe.  What remains is the pattern of ties among disjoint card
pairs, which is exchangeable: ``Q(k, j)``, the chance that k given pairs
show a given pattern with j ties, depends on k and j only.  With ``R(m)``
the chance that m given pairs all tie (a generating function over the rank
counts), ``Q(k, k) = R(k)`` and ``Q(k, j) = Q(k - 1, j) - Q(k, j + 1)``.
The expected number of rounds, ties and war ties in a shoe then follow by
summing over the number of earlier ties (renewal reward: the long-run return
per round is E[net per shoe] / E[rounds per shoe]).  Everything is integer
arithmetic over one common denominator.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np

from rngcore.devices import cards
from rngcore.devices.rulesets import rule_set
from rngcore.engine import locked_call
from harness.kernels import ffi, lib
from harness.games.baccarat import shoe_c_rules
from harness.games.base import Analysis, Game, GameOption, Strategy, _replay, _run
from harness.games.core import BetResult, BetRule, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import BetSimulation, Simulation, goodness_of_fit

SOURCE = "000 別表第1 第4"
CLASSES = ("win", "lose", "war_higher", "war_tie", "war_lower", "surrender")
# The customer's choice on a tie (8-1); the first is the default of ``rngcert game casino-war``.
PLAYER_STRATEGIES = (
    Strategy("war", "on a tie, go to war: an additional stake equal to the main stake (000 第4 8-1-ロ)"),
    Strategy("surrender", "on a tie, end the bet: half the main stake lost (000 第4 8-1-イ)"),
)
STRATEGIES = tuple(s.name for s in PLAYER_STRATEGIES)
MIN_DECKS, MAX_DECKS = 1, 8
SHOE_RULES = "jp-casino-war"  # the devices' shoe procedure (rngcore.devices.rulesets)


def class_features(label: str) -> dict:
    """Features a pay table may test: ``first`` (win / lose / tie) and ``war``
    (higher / tie / lower, or ``None``: no war; ``"surrendered"``)."""
    if label not in CLASSES:
        raise ValueError(f"casino-war class must be one of {', '.join(CLASSES)}, got {label!r}")
    if label in ("win", "lose"):
        return {"first": label, "war": None}
    return {"first": "tie", "war": "surrendered" if label == "surrender" else label[4:]}


def main_bet(war_tie_pays: int = 2) -> BetRule:
    """The main bet (4-3-イ) with the tie resolved by war or surrender (8).

    Net per unit of the original stake: a won war pays the additional stake
    1 to 1 and pushes the main stake (8-2-イ, 8-3-イ); a tie in the war pays
    the additional stake ``war_tie_pays`` to 1 (8-3-ロ: 2); a lost war loses
    both stakes (8-2-ロ); surrender loses half the stake (8-1-イ).
    """
    if not isinstance(war_tie_pays, int) or war_tie_pays < 1:
        raise ValueError(f"war_tie_pays must be a whole number >= 1 ('N to 1'), got {war_tie_pays!r}")
    note = "net per unit of the original stake; the additional (war) stake equals it (8-1-ロ)"
    if war_tie_pays != 2:
        note += f"; OPERATOR VARIANT: a war tie pays {war_tie_pays} to 1 (000 8-3-ロ: 2 to 1)"
    return BetRule(
        "main", f"{SOURCE} 4-3-イ, 6-2-イ, 7-2-イ, 8-1, 8-2, 8-3",
        rows(("win", Where(first="win"), odds(1)),
             ("war_higher", Where(war="higher"), odds(1)),
             ("war_tie", Where(war="tie"), odds(war_tie_pays)),
             ("war_lower", Where(war="lower"), Fraction(-2)),
             ("surrender", Where(war="surrendered"), Fraction(-1, 2))),
        note=note)


TIE_BET = BetRule(
    "tie", f"{SOURCE} 4-2, 4-3-ロ, 6-2-ロ, 7-2-ロ",
    rows(("win", Where(first="tie"), odds(10))),
    note="the first comparison only (a tie in the war pays through the additional bet); "
         "only with a main bet (4-2)")

ADDITIONAL_BET = BetRule(
    "additional", f"{SOURCE} 8-1-ロ, 8-2, 8-3",
    rows(("higher", Where(war="higher"), odds(1)), ("tie", Where(war="tie"), odds(2))),
    note="the additional stake alone, per war (placed only after a tie)")


PLACED_IN_WAR_ONLY = frozenset({ADDITIONAL_BET.name})  # no stake on rounds without a war


def bets(strategy: str, war_tie_pays: int = 2) -> tuple[BetRule, ...]:
    """The bets reported for a strategy (the additional bet only when going to war)."""
    check_strategy(strategy)
    additional = (dataclasses.replace(ADDITIONAL_BET, rows=rows(
        ("higher", Where(war="higher"), odds(1)), ("tie", Where(war="tie"), odds(war_tie_pays)))),)
    return (main_bet(war_tie_pays), TIE_BET) + (additional if strategy == "war" else ())


def check_strategy(strategy: str) -> str:
    if strategy not in STRATEGIES:
        raise ValueError(f"casino-war strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    return strategy


def check_decks(decks) -> int:
    if not isinstance(decks, int) or isinstance(decks, bool) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(f"casino-war decks must be a whole number in {MIN_DECKS}..{MAX_DECKS}, got {decks!r}")
    return decks


def standard_shoe(decks: int) -> tuple[int, ...]:
    """Rank counts of a fresh shoe: 13 ranks of 4 * decks cards."""
    return (4 * check_decks(decks),) * 13


# -------------------------------------------------------------- tie patterns --

def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def all_tie_ways(rank_counts: Sequence[int]) -> list[int]:
    """``A[m]``: ordered ways to deal m card pairs that are all ties.

    m! [x^m] prod_r sum_a [n_r]_(2a) x^a / a!, kept in integers by carrying
    the multinomial a_1! ... a_r! explicitly.
    """
    poly = [Fraction(1)]
    for n in rank_counts:
        term = [Fraction(_falling(n, 2 * a), math.factorial(a)) for a in range(n // 2 + 1)]
        out = [Fraction(0)] * (len(poly) + len(term) - 1)
        for i, p in enumerate(poly):
            for j, t in enumerate(term):
                out[i + j] += p * t
        poly = out
    ways = [int(c * math.factorial(m)) for m, c in enumerate(poly)]
    assert all(Fraction(w) == c * math.factorial(m) for m, (w, c) in enumerate(zip(ways, poly)))
    return ways


class TiePatterns:
    """``Q(k, j)`` for a shoe (see the module doc), as integers over ``denominator``.

    ``Q(k, j)`` is the probability that k given disjoint card pairs show a
    given tie pattern with j ties (pairs are exchangeable).
    """

    def __init__(self, rank_counts: Sequence[int], max_pairs: int):
        n = sum(rank_counts)
        self.cards = n
        self.max_pairs = max_pairs = min(max_pairs, n // 2)
        ways = all_tie_ways(rank_counts)
        self.denominator = _falling(n, 2 * max_pairs)
        # R(m) * denominator = A(m) [N - 2m]_(2 (K - m))
        r = [(ways[m] if m < len(ways) else 0) * _falling(n - 2 * m, 2 * (max_pairs - m))
             for m in range(max_pairs + 1)]
        self._q: list[list[int]] = []
        for k in range(max_pairs + 1):
            row = [0] * (k + 1)
            row[k] = r[k]
            for j in range(k - 1, -1, -1):
                row[j] = self._q[k - 1][j] - row[j + 1]
            self._q.append(row)

    def q(self, k: int, j: int) -> int:
        if k > self.max_pairs:
            raise ValueError(f"tie patterns computed for {self.max_pairs} pairs, asked for {k}")
        return self._q[k][j] if 0 <= j <= k else 0


# ------------------------------------------------------------ shoe analysis --

@dataclasses.dataclass(frozen=True)
class ShoeProcedure:
    """How a shoe is dealt for the exact analysis.

    ``burn``: cards burned after the shuffle; ``cut_positions``: the possible
    numbers of cards in front of the cut card (equally likely); the round
    after the one in which the cut card comes out is the last (000 第4 9,
    第1 10), or that round itself if the cut card came out at its start.
    ``war_burns``: cards burned before the war cards.
    """

    burn: int
    cut_positions: tuple[int, ...]
    war_burns: int = 0


@dataclasses.dataclass(frozen=True)
class ShoeExpectation:
    """Expected counts per shoe (exact): rounds, ties and war ties."""

    rounds: Fraction
    ties: Fraction
    war_ties: Fraction
    strategy: str

    def class_probabilities(self) -> dict[str, Fraction]:
        """Long-run share of each round class (E[count per shoe] / E[rounds per shoe])."""
        plain = (self.rounds - self.ties) / 2  # higher and lower equally likely (module doc)
        if self.strategy == "surrender":
            counts = {"win": plain, "lose": plain, "surrender": self.ties}
        else:
            war = (self.ties - self.war_ties) / 2
            counts = {"win": plain, "lose": plain, "war_higher": war, "war_tie": self.war_ties, "war_lower": war}
        return {c: counts.get(c, Fraction(0)) / self.rounds for c in CLASSES}


def round_length_max(strategy: str, war_burns: int) -> int:
    return 2 if strategy == "surrender" else 4 + war_burns


def first_round(rank_counts: Sequence[int], strategy: str) -> ShoeExpectation:
    """The first round of a fresh shoe (equally: every round of a freshly shuffled stack)."""
    check_strategy(strategy)
    patterns = TiePatterns(rank_counts, 2)
    d = patterns.denominator
    return ShoeExpectation(Fraction(1), Fraction(patterns.q(1, 1), d),
                           Fraction(patterns.q(2, 2), d) if strategy == "war" else Fraction(0), strategy)


def dealt_shoe(rank_counts: Sequence[int], procedure: ShoeProcedure, strategy: str) -> ShoeExpectation:
    """Expected rounds, ties and war ties per shoe dealt down to the cut card.

    Round k is played iff round k-1 started in front of the cut card (the
    one-more-round rule, module doc of :mod:`rngcore.devices.shoe`); round k
    starts at ``burn + 2 (k - 1) + w T``, T the ties among rounds 1..k-1 and
    w = 2 + war_burns when going to war (0 on surrender).
    """
    check_strategy(strategy)
    n = sum(rank_counts)
    longest = round_length_max(strategy, procedure.war_burns)
    cuts = procedure.cut_positions
    if not cuts or min(cuts) <= procedure.burn or max(cuts) > n - (2 * longest - 1):
        raise ValueError(
            f"the cut card must leave {procedure.burn + 1}+ cards in front of it (burn {procedure.burn}) and "
            f"{2 * longest - 1}+ behind it (this round and one more of up to {longest} cards) in a "
            f"{n}-card shoe; got {min(cuts, default=None)}..{max(cuts, default=None)} in front")
    w = longest - 2
    max_rounds = (max(cuts) - procedure.burn + 1) // 2 + 2
    patterns = TiePatterns(rank_counts, max_rounds + 1)
    rounds = ties = war_ties = 0
    for cut in cuts:
        # round 1 is always played
        rounds += patterns.denominator
        ties += patterns.q(1, 1)
        war_ties += patterns.q(2, 2)
        for k in range(2, max_rounds + 1):
            live = [t for t in range(k - 1) if procedure.burn + 2 * (k - 2) + w * t < cut]
            if not live:
                break
            for t in live:
                ways = math.comb(k - 2, t)
                rounds += ways * patterns.q(k - 2, t)
                ties += ways * patterns.q(k - 1, t + 1)     # round k-1 either way, round k a tie
                war_ties += ways * patterns.q(k, t + 2)     # ... and its war cards a tie too
    scale = patterns.denominator * len(cuts)
    if strategy == "surrender":
        war_ties = 0
    return ShoeExpectation(Fraction(rounds, scale), Fraction(ties, scale), Fraction(war_ties, scale), strategy)


def results(expectation: ShoeExpectation, bet_rules: Sequence[BetRule]) -> tuple[BetResult, ...]:
    """Exact bet results from a shoe expectation (per round, long run; the
    additional bet per war)."""
    probabilities = expectation.class_probabilities()
    out = []
    for rule in bet_rules:
        weights: dict[str, Fraction] = {}
        for cls, label in class_of_bet(rule).items():
            if label is not None and probabilities[cls]:
                weights[label] = weights.get(label, Fraction(0)) + probabilities[cls]
        out.append(result_from_weights(rule, weights, sum(weights.values(), Fraction(0))))
    return tuple(out)


def class_of_bet(rule: BetRule) -> dict[str, str | None]:
    """Each round class's outcome label for ``rule`` (None: the bet is not placed)."""
    out: dict[str, str | None] = {}
    for label in CLASSES:
        features = class_features(label)
        if rule.name in PLACED_IN_WAR_ONLY and features["war"] in (None, "surrendered"):
            out[label] = None
        else:
            out[label] = rule.classify(features).label
    return out


def label_counts(rule: BetRule, counts: Mapping[str, int]) -> dict[str, int]:
    """Sum round-class counts into the bet's outcome labels."""
    out: dict[str, int] = {}
    for cls, label in class_of_bet(rule).items():
        if label is not None and counts.get(cls):
            out[label] = out.get(label, 0) + int(counts[cls])
    return out


def shoe_rules(decks: int, *, simulation: bool = False) -> dict[str, int]:
    """The ``kern_bac_rules`` fields of the production shoe ``jp-casino-war``.

    The exact analysis takes any 1..8 decks with that shoe's procedure; the
    simulation keeps the procedure's own deck range (000 第4 1: 4..8).
    """
    rules = rule_set(SHOE_RULES)
    if not simulation:
        rules = rules.with_options(decks=(MIN_DECKS, MAX_DECKS))
    fields = shoe_c_rules(rules, check_decks(decks))
    if not fields["one_more_round"] or fields["burn_mode"] > 1 or fields["burn_each_round"]:
        raise ValueError(f"{rules.name}: a Casino War shoe needs a counted burn and the one-more-round rule")
    return fields


def production_procedure(decks: int, war_burns: int = 0) -> ShoeProcedure:
    """The exact model of the production shoe for ``decks`` decks."""
    fields = shoe_rules(decks)
    n = 52 * decks
    return ShoeProcedure(fields["burn_count"] if fields["burn_mode"] == 1 else 0,
                         tuple(n - behind for behind in range(fields["cut_behind_hi"], fields["cut_behind_lo"] - 1, -1)),
                         war_burns)


# ----------------------------------------------------------------- analysis --

def analyse(decks: int, strategy: str = "war", burns: int = 0, bonus: int = 2):
    """Exact results: the long-run average over shoes dealt to the cut card
    (what a simulation of the production shoe estimates), then the first
    round of a fresh shoe (bets suffixed ``_first_round``).

    Returns (parameters, bet results, note).
    """
    decks, strategy = check_decks(decks), check_strategy(strategy)
    rules = bets(strategy, bonus)
    shoe = standard_shoe(decks)
    procedure = production_procedure(decks, burns)
    dealt = dealt_shoe(shoe, procedure, strategy)
    first = results(first_round(shoe, strategy), rules)
    renamed = tuple(dataclasses.replace(r, name=r.name + "_first_round") for r in first)
    parameters = {
        "decks": decks,
        "strategy": strategy,
        "shoe": SHOE_RULES,
        "burn": procedure.burn,
        "cards_in_front_of_cut_card": list(procedure.cut_positions),
        "war_burns": burns,
        "war_tie_pays": f"{bonus} to 1",
        "rounds_per_shoe_float": float(dealt.rounds),
        "rounds_per_shoe": {"exact": f"{dealt.rounds.numerator}/{dealt.rounds.denominator}"},
    }
    note = ("one customer heads-up; RTP per unit of the original stake; first: the long-run average per round over "
            "shoes dealt to the cut card (the round after the cut card's is the last, 000 第4 9 / 第1 10); "
            "*_first_round: the first round of a fresh shoe")
    return parameters, results(dealt, rules) + renamed, note, dealt


# --------------------------------------------------------------- simulation --

WORD_BITS = 64


class WarTable:
    """The C Casino War table (csrc/kernels/casino_war.h) dealing the production shoe."""

    def __init__(self, decks: int, strategy: str = "war", war_burns: int = 0):
        self._ffi, self._lib = ffi, lib
        fresh = np.ascontiguousarray(cards.fresh_stack(check_decks(decks)), dtype=np.uint16)
        self._table = ffi.new("kern_war_table *")
        rules = ffi.new("kern_bac_rules *", shoe_rules(decks, simulation=True))
        status = lib.kern_war_table_init(self._table, ffi.from_buffer("uint16_t[]", fresh), fresh.size, rules,
                                        int(check_strategy(strategy) == "surrender"), war_burns)
        if status != lib.RNG_OK:
            raise ValueError(f"the {SHOE_RULES} cut card leaves too few cards behind it for a war round with "
                             f"{war_burns} burns and one more round ({decks} decks)")

    @property
    def shoes(self) -> int:
        return int(self._table.shoe.shoes)

    def play(self, generator, rounds: int, counts, bits: int = WORD_BITS) -> None:
        """Play ``rounds`` rounds, adding to ``counts`` (uint64[6], :data:`CLASSES` order)."""
        if counts.dtype != np.uint64 or counts.shape != (len(CLASSES),) or not counts.flags.c_contiguous:
            raise ValueError(f"counts must be a contiguous uint64 array of {len(CLASSES)} classes")
        locked_call(generator, self._lib.kern_war_play, self._table, rounds,
                    self._ffi.from_buffer("uint64_t[]", counts), bits, what=f"playing {rounds} casino-war rounds")


def simulate(rounds: int, generator, decks: int, strategy: str = "war", burns: int = 0, bonus: int = 2,
             progress=None, chunk: int = 1 << 22):
    """Play ``rounds`` rounds through the production shoe (C table) and
    compare every bet with its exact long-run return.

    Returns a :class:`harness.games.simulate.Simulation`.
    """
    _, exact, _, dealt = analyse(decks, strategy, burns, bonus)
    table = WarTable(decks, strategy, burns)
    counts = np.zeros(len(CLASSES), dtype=np.uint64)
    done, interrupted, seconds = _run(rounds, chunk, lambda n: table.play(generator, n, counts),
                                      lambda: int(counts.sum(dtype=np.uint64)), progress)
    tally = {c: int(counts[i]) for i, c in enumerate(CLASSES)}
    sims = tuple(BetSimulation(result, label_counts(rule, tally))
                 for rule, result in zip(bets(strategy, bonus), exact))
    probabilities = dealt.class_probabilities()
    fit = goodness_of_fit(counts, [probabilities[c] for c in CLASSES])
    return Simulation(
        "casino-war", strategy, f"shoe:{decks}", done, rounds, seconds, fit, sims,
        procedure=(f"shoe procedure {SHOE_RULES} (burn {table_burn(decks)}, cut card, one more round), "
                   f"{burns} burn(s) before the war cards; shoes shuffled: {table.shoes}"),
        interrupted=interrupted, replay=_replay(generator),
        note="outcome chi-square: round classes vs their exact long-run shares over dealt shoes; rounds of one "
             "shoe are not independent, so the interval and the test are approximate at very large N")


def table_burn(decks: int) -> int:
    fields = shoe_rules(decks)
    return fields["burn_count"] if fields["burn_mode"] == 1 else 0


# ---------------------------------------------------------------- the game --

class CasinoWarGame(Game):
    name = "casino-war"
    summary = "Casino War: main bet with war or surrender on a tie, tie bet; exact over a dealt-down shoe"
    rules = f"{SOURCE} (seed L1927-2073)"
    strategies = PLAYER_STRATEGIES
    options = (
        GameOption("decks", "N", f"decks in the shoe, {MIN_DECKS}..{MAX_DECKS} (default 8; 000 第4 1 and "
                                 "the simulation's shoe take 4..8)", MIN_DECKS, MAX_DECKS, 8),
        GameOption("burns", "N", "cards burned before the war cards (000 第4 8-2 burns none: default 0; "
                                 "3 is common elsewhere)", 0, 16, 0),
        GameOption("bonus", "N", "the war-tie pay: a tie in the war pays the additional stake N to 1 "
                                 "(000 第4 8-3-ロ: 2; 1 is the 'no bonus' rule of other houses)", 1, 100, 2),
        GameOption.choice("surrender", "the house offers surrender on a tie (000 第4 8-1-イ: yes); with no, "
                                       "every tie goes to war", ("yes", "no")),
    )
    devices = "shoe:N (jp-casino-war procedure)"
    etable = ETable("000 別表第1 第4 12", ("standard",), ("main", "tie", "additional"),
                    "000 別表第1 第4 12 (L2063): the bets of 4-3-イ and ロ and of 8 only",
                    "item 6 (the comparison); in a war, 8-1-イ (surrender) or the first part of 8-2 (the war deal)",
                    "000 別表第1 第4 13-1")

    def check_together(self, strategy, options) -> None:
        if strategy == "surrender" and options["surrender"] == "no":
            raise ValueError("casino-war: --strategy surrender needs a house that offers it "
                             "(--option surrender=yes, 000 第4 8-1-イ)")

    def _analyse(self, variant, *, strategy, decks, burns, bonus, surrender) -> Analysis:
        parameters, results_, note, _ = analyse(decks, strategy, burns, bonus)
        return Analysis(self.name, variant, parameters | {"surrender_offered": surrender}, results_, note)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, decks, burns, bonus, surrender):
        return simulate(rounds, generator, decks, strategy, burns, bonus, progress, self.chunk)


GAMES = (CasinoWarGame(),)
