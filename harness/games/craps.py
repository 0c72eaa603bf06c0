"""Craps: the bets of 000 別表第1 第5 and 002 ch. 537, as data, and their exact math.

Two dice, 36 equally likely ordered outcomes.  One-roll bets are pay tables
over one roll (:mod:`harness.games.categorical`).  Bets that span rolls are
:class:`ChainBet` rows over the *shooter chain*: the state is the pass-line
point (0 on a come-out roll) and, for the Fire Bet, the set of points the
shooter has made; each roll either decides the bet (a row matches) or moves
the chain on (no row matches).  :func:`harness.games.markov.absorption`
solves the chain exactly.

Features a chain row may test: those of :func:`harness.games.dice.dice_features`
plus ``phase`` (``"come_out"`` / ``"point"``), ``point`` (0 on a come-out
roll), ``made`` (the roll repeats the point), ``seven_out`` (a 7 while a
point is on) and ``points_made`` (different points made so far).

Readings chosen (docs/table_games.md):

* place, place-to-lose, buy, lay and hardway bets are analysed as working on
  every roll (called "on"); being off on come-out rolls (000 5 3-2-ハ, 002
  § 537.3(a)(5),(6)) changes neither the decision probabilities nor the
  return per decision, only the rolls per decision.
* buy / lay commission (000 5 3-4-イ,ロ): taken from the stake when placed; the
  rest of the stake plays at the true odds of 7-2-ヘ/ト.  1-yen truncation
  (7-1) depends on stake sizes and is not modelled.
* Fire Bet (002 § 537.3(a)(40)): settled at the shooter's loser 7 (seven-out,
  § 537.12(a)(5)); a come-out 7 does not end it, although (40) literally says
  "before a 7 is thrown".
"""
from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from harness.games import _native, markov
from harness.games.base import Analysis, DeviceRounds, Game, _replay, _run
from harness.games.categorical import classify_outcomes, evaluate_all
from harness.games.core import LOSE, PUSH, BetResult, BetRule, OutcomeClass, PayRow, Split, Where, odds, rows
from harness.games.core import assert_unique_names
from harness.games.etable import ETable
from harness.games.dice import SIDES, dice_features, dice_space, ordered_features
from harness.games.simulate import BetSimulation, Simulation, class_counts, goodness_of_fit

POINTS = (4, 5, 6, 8, 9, 10)
JP = "000 別表第1 第5"
PA = "002"

# True odds of the point numbers (000 5 7-2-ハ, ニ; 002 § 537.6(a)-(d)).
TAKE_ODDS = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
LAY_ODDS = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}
# 000 5 7-2-ホ; 002 § 537.5(b): place to win.
PLACE_ODDS = {4: (9, 5), 10: (9, 5), 5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)}
# 002 § 537.5(b): place to lose.
PLACE_LOSE_ODDS = {4: (5, 11), 10: (5, 11), 5: (5, 8), 9: (5, 8), 6: (4, 5), 8: (4, 5)}
# 000 5 7-2-チ; 002 § 537.5(b).
HARD_ODDS = {4: 7, 10: 7, 6: 9, 8: 9}
# 002 § 537.5(g): Fire Bet, paid once for the highest number of different points.
FIRE_TABLES = {"a": {4: 24, 5: 249, 6: 999}, "b": {4: 39, 5: 199, 6: 499}}
COMMISSION = Fraction(5, 100)  # 000 5 3-4-イ,ロ

COME_OUT = {"phase": "come_out"}


@dataclasses.dataclass(frozen=True)
class ChainBet:
    """A bet decided over several rolls: rows tried on every roll.

    Attributes
    ----------
    start : int
        Point the bet is placed on (0: before a come-out roll; a point for the
        odds bets, which exist only once their point is set).
    track : {"line", "come"}
        Which line the bet follows in a simulation: the shooter's pass line,
        or a come bet's own line (a come bet's first roll is a roll made
        while the pass-line point is on).  Both are the same chain exactly.
    fire : bool
        The chain must remember the points the shooter made.
    """

    name: str
    source: str
    rows: tuple[PayRow, ...]
    start: int = 0
    track: str = "line"
    fire: bool = False
    push_labels: frozenset = frozenset()
    note: str = ""
    jurisdictions: frozenset = frozenset({"jp", "pa"})

    def decide(self, features: Mapping[str, Any]) -> PayRow | None:
        for row in self.rows:
            if row.when(features):
                return row
        return None

    def labels(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(row.label for row in self.rows))


def chain_features(point: int, mask: int, dice: tuple[int, int]) -> dict[str, Any]:
    """Features of a roll made with pass-line ``point`` (0 = come-out) and the
    points already made (``mask``, bit i = POINTS[i])."""
    f = dice_features(dice)
    total = f["total"]
    f.update(
        phase="point" if point else "come_out",
        point=point,
        made=bool(point) and total == point,
        seven_out=bool(point) and total == 7,
        points_made=bin(mask).count("1"),
    )
    return f


def shooter_next(point: int, mask: int, total: int) -> tuple[int, int]:
    """The shooter chain (000 5 4, 5; 002 § 537.1, § 537.11): (point, mask) after a roll.

    A come-out 4, 5, 6, 8, 9 or 10 sets the point; repeating the point makes it
    (added to the points made) and the next roll is a come-out roll; a 7 with a
    point on is the loser 7: the shooter's turn ends (points made reset).
    """
    if point == 0:
        return (total if total in POINTS else 0), mask
    if total == point:
        return 0, mask | (1 << POINTS.index(point))
    if total == 7:
        return 0, 0
    return point, mask


def _line_rows(dont: bool) -> tuple[PayRow, ...]:
    if not dont:  # 000 5 6-1; 002 § 537.3(a)(1)
        return rows(
            ("win_natural", Where(phase="come_out", total=(7, 11)), odds(1)),
            ("lose_craps", Where(phase="come_out", total=(2, 3, 12)), LOSE),
            ("win_point", Where(phase="point", made=True), odds(1)),
            ("lose_seven_out", Where(phase="point", total=7), LOSE),
        )
    return rows(  # 000 5 6-3 (12 on come-out: 引分け); 002 § 537.3(a)(2) (12: void, returned)
        ("win_craps", Where(phase="come_out", total=(2, 3)), odds(1)),
        ("push_12", Where(phase="come_out", total=12), PUSH),
        ("lose_natural", Where(phase="come_out", total=(7, 11)), LOSE),
        ("win_seven_out", Where(phase="point", total=7), odds(1)),
        ("lose_point", Where(phase="point", made=True), LOSE),
    )


def chain_bets() -> tuple[ChainBet, ...]:
    """Every multi-roll bet as data."""
    bets = [
        ChainBet("pass", f"{JP} 3-3-イ, 6-1, 7-2-イ; {PA} § 537.3(a)(1), § 537.5(b)", _line_rows(False)),
        ChainBet("dont_pass", f"{JP} 3-3-ハ, 6-3, 7-2-イ; {PA} § 537.3(a)(2), § 537.5(b)", _line_rows(True),
                 push_labels=frozenset({"push_12"})),
        ChainBet("come", f"{JP} 3-3-ホ, 6-5, 7-2-ロ; {PA} § 537.3(a)(3), § 537.5(b)", _line_rows(False),
                 track="come"),
        ChainBet("dont_come", f"{JP} 3-3-ト, 6-7, 7-2-ロ; {PA} § 537.3(a)(4), § 537.5(b)", _line_rows(True),
                 track="come", push_labels=frozenset({"push_12"})),
    ]
    for line, track, take_src, lay_src in (
        ("pass", "line", f"{JP} 3-3-ロ, 6-2, 7-2-ハ; {PA} § 537.6(a)", f"{JP} 3-3-ニ, 6-4, 7-2-ニ; {PA} § 537.6(b)"),
        ("come", "come", f"{JP} 3-3-ヘ, 6-6, 7-2-ハ; {PA} § 537.6(c)", f"{JP} 3-3-チ, 6-8, 7-2-ニ; {PA} § 537.6(d)"),
    ):
        dont = "dont_pass" if line == "pass" else "dont_come"
        for n in POINTS:
            on_n = dict(phase="point", point=n)
            bets.append(ChainBet(f"{line}_odds_{n}", take_src, rows(
                ("win", Where(made=True, **on_n), odds(*TAKE_ODDS[n])),
                ("lose", Where(total=7, **on_n), LOSE),
            ), start=n, track=track))
            bets.append(ChainBet(f"{dont}_odds_{n}", lay_src, rows(
                ("win", Where(total=7, **on_n), odds(*LAY_ODDS[n])),
                ("lose", Where(made=True, **on_n), LOSE),
            ), start=n, track=track))
    for n in POINTS:
        bets.append(ChainBet(f"place_{n}", f"{JP} 3-3-リ, 6-9, 7-2-ホ; {PA} § 537.3(a)(5), § 537.5(b)", rows(
            ("win", Where(total=n), odds(*PLACE_ODDS[n])),
            ("lose", Where(total=7), LOSE),
        )))
    for n in POINTS:
        bets.append(ChainBet(f"place_lose_{n}", f"{PA} § 537.3(a)(6), § 537.5(b)", rows(
            ("win", Where(total=7), odds(*PLACE_LOSE_ODDS[n])),
            ("lose", Where(total=n), LOSE),
        ), jurisdictions=frozenset({"pa"})))
    for n in POINTS:
        take = Fraction(*TAKE_ODDS[n])
        bets.append(ChainBet(f"buy_{n}", f"{JP} 3-3-ヌ, 3-4-イ, 6-9, 7-2-ヘ", rows(
            ("win", Where(total=n), (1 - COMMISSION) * take - COMMISSION),
            ("lose", Where(total=7), LOSE),
        ), note="5% of the stake collected when placed; the remaining 95% plays at true odds",
            jurisdictions=frozenset({"jp"})))
    for n in POINTS:
        lay = Fraction(*LAY_ODDS[n])
        fee = COMMISSION * lay
        bets.append(ChainBet(f"lay_{n}", f"{JP} 3-3-ル, 3-4-ロ, 6-10, 7-2-ト", rows(
            ("win", Where(total=7), (1 - fee) * lay - fee),
            ("lose", Where(total=n), LOSE),
        ), note="5% of the would-be winnings collected from the stake when placed; the rest plays at true odds",
            jurisdictions=frozenset({"jp"})))
    for n in (4, 6, 8, 10):
        bets.append(ChainBet(f"hard_{n}", f"{JP} 3-3-ヲ, 6-11, 7-2-チ; {PA} § 537.3(a)({(n - 4) // 2 + 7}), § 537.5(b)", rows(
            ("win", Where(total=n, all_same=True), odds(HARD_ODDS[n])),
            ("lose_easy", Where(total=n), LOSE),
            ("lose_seven", Where(total=7), LOSE),
        )))
    for table, pays in FIRE_TABLES.items():
        fire_rows = tuple(
            (f"points_{k}", Where(seven_out=True, points_made=k), odds(pays[k]) if k in pays else LOSE)
            for k in range(6, -1, -1)
        )
        bets.append(ChainBet(f"fire_bet_{table}", f"{PA} § 537.3(a)(40), § 537.5(g) Table {table.upper()}, § 537.12",
                             rows(*fire_rows), fire=True, jurisdictions=frozenset({"pa"}),
                             note="settled at the shooter's loser 7 (§ 537.12(a)(5)); class points_k = k different points made"))
    return tuple(bets)


def one_roll_bets() -> tuple:
    """Every one-roll bet as data (rules and splits)."""
    def one(name, source, total, pays, jur=frozenset({"jp", "pa"})):
        rule = BetRule(name, source, rows(("win", Where(total=total), odds(pays))))
        return rule, jur

    out = [
        (BetRule("field", f"{JP} 3-3-ワ, 6-12, 7-2-リ; {PA} § 537.3(a)(11), § 537.5(b)", rows(
            ("win_2_or_12", Where(total=(2, 12)), odds(2)),
            ("win", Where(total=(3, 4, 9, 10, 11)), odds(1)),
        )), frozenset({"jp", "pa"})),
        one("any_seven", f"{JP} 3-3-ツ, 6-18, 7-2-ヨ; {PA} § 537.3(a)(12), § 537.5(b)", 7, 4),
        one("any_craps", f"{JP} 3-3-ソ, 6-17, 7-2-カ; {PA} § 537.3(a)(13), § 537.5(b)", (2, 3, 12), 7),
        one("two", f"{JP} 3-3-ヨ, 6-14, 7-2-ル; {PA} § 537.3(a)(14), § 537.5(b)", 2, 30),
        one("three", f"{JP} 3-3-タ, 6-15, 7-2-ヲ; {PA} § 537.3(a)(15), § 537.5(b)", 3, 15),
        one("eleven", f"{JP} 3-3-カ, 6-13, 7-2-ヌ; {PA} § 537.3(a)(17), § 537.5(b)", 11, 15),
        one("twelve", f"{JP} 3-3-レ, 6-16, 7-2-ワ; {PA} § 537.3(a)(16), § 537.5(b)", 12, 30),
        (BetRule("c_and_e", f"{JP} 3-3-ネ, 6-19, 7-2-タ; {PA} § 537.3(a)(18), § 537.5(c)", rows(
            ("win_eleven", Where(total=11), odds(7)),
            ("win_craps", Where(total=(2, 3, 12)), odds(3)),
        ), note="002 pays half as any craps and half as eleven: the same 7 to 1 / 3 to 1"), frozenset({"jp", "pa"})),
    ]
    hops = [(2, 2), (3, 3), (4, 4), (5, 5), (1, 3), (1, 4), (2, 3), (1, 5), (2, 4), (1, 6), (2, 5), (3, 4),
            (2, 6), (3, 5), (3, 6), (4, 5), (4, 6)]  # 002 § 537.3(a)(22)-(38)
    for i, (a, b) in enumerate(hops):
        pays = 30 if a == b else 15
        out.append((BetRule(f"hop_{a}_{b}", f"{PA} § 537.3(a)({22 + i}), § 537.5(b)",
                            rows(("win", Where(dice=(a, b)), odds(pays)))), frozenset({"pa"})))
    out.append((BetRule("six_seven_eight", f"{PA} § 537.3(a)(39), § 537.5(b)", rows(
        ("win_pair", Where(dice=frozenset({(3, 3), (4, 4)})), odds(2)),
        ("win", Where(total=(6, 7, 8)), odds(1)),
    )), frozenset({"pa"})))
    quarter, fifth = Fraction(1, 4), Fraction(1, 5)
    horn_names = ("two", "three", "eleven", "twelve")
    out.append((Split("horn", f"{JP} 8-1-イ, 8-2; {PA} § 537.3(a)(19), § 537.5(d)",
                      tuple((n, quarter) for n in horn_names)), frozenset({"jp", "pa"})))
    for high, label in zip(horn_names, ("2", "3", "11", "12")):
        parts = tuple((n, 2 * fifth if n == high else fifth) for n in horn_names)
        out.append((Split(f"horn_high_{label}", f"{JP} 8-1-ロ, 8-3; {PA} § 537.3(a)(20), § 537.5(e)", parts,
                          note=f"horn high on {label}: 2/5 of the stake on {label}, 1/5 on each other horn number"),
                    frozenset({"jp", "pa"})))
    out.append((Split("whirl", f"{PA} § 537.3(a)(21), § 537.5(f)",
                      tuple((n, fifth) for n in horn_names) + (("any_seven", fifth),)), frozenset({"pa"})))
    return tuple(out)


VARIANTS = {
    "all": "every bet of 000 第5 and 002 ch. 537 (each cites its source)",
    "pa": "002 ch. 537 (Pennsylvania) bets only",
    "jp": "000 別表第1 第5 (Japan) bets only",
}


def _in_variant(jurisdictions, variant: str) -> bool:
    if variant not in VARIANTS:
        raise ValueError(f"craps variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    return variant == "all" or variant in jurisdictions


def one_roll_for(variant: str) -> tuple:
    return tuple(bet for bet, jur in one_roll_bets() if _in_variant(jur, variant))


def chains_for(variant: str) -> tuple[ChainBet, ...]:
    return tuple(bet for bet in chain_bets() if _in_variant(bet.jurisdictions, variant))


@functools.lru_cache(maxsize=None)
def _rolls() -> tuple[tuple[Fraction, tuple[int, int]], ...]:
    space, total = dice_space(2)
    return tuple((Fraction(w, total), f["dice"]) for f, w in space)


def solve_chain(bet: ChainBet) -> BetResult:
    """Exact outcome distribution and mean rolls to a decision of a chain bet."""
    rolls = _rolls()

    def step(state):
        point, mask = state
        for probability, dice in rolls:
            row = bet.decide(chain_features(point, mask, dice))
            if row is not None:
                yield probability, ("absorb", row.label)
            else:
                nxt_point, nxt_mask = shooter_next(point, mask, sum(dice))
                yield probability, ("move", (nxt_point, nxt_mask if bet.fire else 0))

    probabilities, steps = markov.absorption((bet.start, 0), step)
    payout = {row.label: row.pays for row in bet.rows}
    outcomes = tuple(
        OutcomeClass(label, probabilities[label], payout[label], label in bet.push_labels)
        for label in bet.labels() if label in probabilities
    )
    return BetResult(bet.name, bet.source, outcomes, note=bet.note, expected_rolls=steps)


# ------------------------------------------------------------ simulation --

LINE_POINTS = (0,) + POINTS  # index of a line / come point: 0 = come-out
LINE_STATES = len(LINE_POINTS)
MASKS = 1 << len(POINTS)
TABLE_STATES = LINE_STATES * LINE_STATES * MASKS


def come_next(line_point: int, come_point: int, total: int) -> int:
    """A come bet's own point after a roll (0: none pending or just decided).

    A come bet is working when the pass-line point is on (000 5 3-3-ホ: its
    first roll is a sequence roll; 002 § 537.3(a)(3): made after the come-out
    roll); the simulated player keeps one come bet up whenever he may.
    """
    if come_point == 0:
        return total if line_point and total in POINTS else 0
    return 0 if total in (come_point, 7) else come_point


def table_state(line_point: int, come_point: int, mask: int) -> int:
    return (LINE_POINTS.index(line_point) * LINE_STATES + LINE_POINTS.index(come_point)) * MASKS + mask


@functools.lru_cache(maxsize=None)
def table_automaton() -> np.ndarray:
    """next[state * 36 + roll] of the simulated table (pass line, come bet, points made).

    ``roll`` is the ordered index (die1 - 1) * 6 + (die2 - 1) the devices'
    ``dice:2`` draw gives.
    """
    nxt = np.empty(TABLE_STATES * 36, dtype=np.uint16)
    for lp in LINE_POINTS:
        for cp in LINE_POINTS:
            for mask in range(MASKS):
                state = table_state(lp, cp, mask)
                for roll in range(36):
                    total = roll // 6 + roll % 6 + 2
                    lp2, mask2 = shooter_next(lp, mask, total)
                    nxt[state * 36 + roll] = table_state(lp2, come_next(lp, cp, total), mask2)
    return nxt


def decisions(bet: ChainBet, visits: np.ndarray) -> dict[str, int]:
    """Decisions of a chain bet read off the table automaton's visit counts."""
    v = visits.reshape(LINE_STATES, LINE_STATES, MASKS, 36)
    out: dict[str, int] = {}

    def add(row, count):
        if row is not None and count:
            out[row.label] = out.get(row.label, 0) + int(count)

    dice_of = [(r // 6 + 1, r % 6 + 1) for r in range(36)]
    if bet.track == "come":
        by_come = v.sum(axis=2, dtype=np.uint64)  # (line, come, roll)
        for li, lp in enumerate(LINE_POINTS):
            for ci, cp in enumerate(LINE_POINTS):
                if cp == 0 and lp == 0:
                    continue  # no come bet is working on a come-out roll
                for roll in range(36):
                    add(bet.decide(chain_features(cp, 0, dice_of[roll])), by_come[li, ci, roll])
        return out
    if bet.fire:
        by_mask = v.sum(axis=1, dtype=np.uint64)  # (line, mask, roll)
        for li, lp in enumerate(LINE_POINTS):
            for mask in range(MASKS):
                for roll in range(36):
                    add(bet.decide(chain_features(lp, mask, dice_of[roll])), by_mask[li, mask, roll])
        return out
    by_line = v.sum(axis=(1, 2), dtype=np.uint64)  # (line, roll)
    for li, lp in enumerate(LINE_POINTS):
        for roll in range(36):
            add(bet.decide(chain_features(lp, 0, dice_of[roll])), by_line[li, roll])
    return out


class CrapsGame(DeviceRounds, Game):
    name = "craps"
    summary = "two dice: line, come, odds, place, buy/lay, hardway, one-roll and Fire bets"
    rules = f"{JP}; {PA} ch. 537"
    variants = tuple(VARIANTS)
    variants_help = "every bet, 002's only, 000's only"
    devices = "dice:2"
    chunk = 1 << 22
    etable = ETable(f"{JP} 11-3", ("jp",), None,
                    f"{JP} 11 (L2387): the bets of 3-3-イ-ネ and, as additional bets, only 8-1-イ and ロ (horn, horn high)",
                    "the roll of 4-1 (come-out) or 5-1 (a sequence roll) is finished", f"{JP} 12-2", f"{JP} 7-1 (L2211)",
                    note="a round of one-roll bets (3-3-ワ-ネ, horn, horn high) is one roll; a round with a bet "
                         "that spans rolls rolls until each of its bets is decided (harness/rounds/engines/craps.py)")

    # the round engine (DeviceRounds): one roll of two dice, ordered
    def round_bets(self, variant):
        return one_roll_for(variant)

    def device(self, variant):
        return "dice:2", SIDES, 2, None

    def outcome_features(self, variant):
        return list(ordered_features(2))

    def outcome_label(self, variant, index, features):
        return f"{index // SIDES + 1}-{index % SIDES + 1}"

    def _analyse(self, variant, **options) -> Analysis:
        one_roll = one_roll_for(variant)
        chains = chains_for(variant)
        assert_unique_names(list(one_roll) + list(chains), self.name)
        space, _ = dice_space(2)
        results = {r.name: r for r in evaluate_all(one_roll, space)}
        results.update({bet.name: solve_chain(bet) for bet in chains})
        order = [b.name for b in chains] + [b.name for b in one_roll]
        return Analysis(self.name, variant, {"dice": 2, "outcomes": 36}, tuple(results[n] for n in order),
                        VARIANTS[variant])

    def _simulate(self, rounds, generator, variant, progress, **options) -> Simulation:
        automaton = table_automaton()
        visits = np.zeros(automaton.size, dtype=np.uint64)
        state = [table_state(0, 0, 0)]

        def step(n):
            state[0] = _native.chain(generator, SIDES, automaton, n, visits, state[0], per_round=2)

        done, interrupted, seconds = _run(rounds, self.chunk, step, lambda: int(visits.sum(dtype=np.uint64)), progress)
        exact = {b.name: b for b in self.analyse(variant).bets}
        rolls = visits.reshape(-1, 36).sum(axis=0, dtype=np.uint64)
        sims = []
        for bet in chains_for(variant):
            sims.append(BetSimulation(exact[bet.name], decisions(bet, visits)))
        one_roll = one_roll_for(variant)
        components = {b.name: b for b in one_roll if isinstance(b, BetRule)}
        for bet in one_roll:
            labels, class_of = classify_outcomes(bet, ordered_features(2), components)
            sims.append(BetSimulation(exact[bet.name], class_counts(rolls, class_of, labels)))
        fit = goodness_of_fit(rolls, [Fraction(1, 36)] * 36)
        return Simulation(self.name, variant, "dice:2", done, rounds, seconds, fit, tuple(sims),
                          procedure="one roll per round; one pass-line bet, one come bet (while a point is on), "
                                    "place/lay/buy/hardway bets working every roll, Fire Bet per shooter",
                          interrupted=interrupted, replay=_replay(generator),
                          note="outcome chi-square: the 36 ordered rolls vs 1/36")


GAMES = (CrapsGame(),)
