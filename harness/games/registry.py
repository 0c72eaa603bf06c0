"""The games of ``rngcert game``: exact analysis and simulation per game.

Each :class:`Game` names its variants (the first is the default) and offers
:meth:`Game.analyse` (exact results of every bet) and :meth:`Game.simulate`
(rounds played through the virtual devices, counted in C).  Games are built
from the data modules: the device tables of :mod:`rngcore.devices`, and the
pay tables of :mod:`harness.games.roulette`, :mod:`~harness.games.money_wheels`,
:mod:`~harness.games.sic_bo`, :mod:`~harness.games.craps` and
:mod:`~harness.games.baccarat`.
"""
from __future__ import annotations

import dataclasses
import functools
import time
from fractions import Fraction
from typing import Callable

import numpy as np

from rngcore.devices import WHEELS
from rngcore.devices import cards as device_cards
from harness.games import _native, baccarat, craps, money_wheels, roulette, sic_bo
from harness.games.categorical import classify_outcomes, evaluate_all
from harness.games.core import BetResult, BetRule, assert_unique_names
from harness.games.dice import dice_space, ordered_features
from harness.games.simulate import BetSimulation, Simulation, class_counts, goodness_of_fit

Progress = Callable[[int, int], None]


@dataclasses.dataclass(frozen=True)
class Analysis:
    """Exact results of every bet of one game variant."""

    game: str
    variant: str
    parameters: dict
    bets: tuple[BetResult, ...]
    note: str = ""

    def bet(self, name: str) -> BetResult:
        for b in self.bets:
            if b.name == name:
                return b
        raise ValueError(f"{self.game} has no bet {name!r}; bets: {', '.join(b.name for b in self.bets)}")

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "variant": self.variant,
            "parameters": self.parameters,
            "note": self.note,
            "bets": [b.as_dict() for b in self.bets],
        }


def _run(rounds: int, chunk: int, step: Callable[[int], None], done_so_far: Callable[[], int],
         progress: Progress | None) -> tuple[int, bool, float]:
    """Play ``rounds`` in chunks; Ctrl-C stops after the chunk in flight.

    The count of rounds done is read back from the tallies themselves, so an
    interrupt can never make the report disagree with its counts.
    """
    start = time.perf_counter()
    interrupted = False
    try:
        while done_so_far() < rounds:
            step(min(chunk, rounds - done_so_far()))
            if progress is not None:
                progress(done_so_far(), rounds)
    except KeyboardInterrupt:
        interrupted = True
    return done_so_far(), interrupted, time.perf_counter() - start


def _replay(generator) -> dict | None:
    seed = getattr(generator, "seed", None)
    info = {}
    if seed is not None:
        info["seed"] = bytes(seed).hex() if isinstance(seed, (bytes, bytearray)) else str(seed)
    for attr in ("stream", "position"):
        value = getattr(generator, attr, None)
        if value is not None:
            info[attr] = int(value)
    return info or None


class Game:
    """A game of ``rngcert game`` (subclasses fill in the details)."""

    name: str = ""
    variants: tuple[str, ...] = ()
    uses_decks: bool = False
    chunk: int = 1 << 22

    def check_variant(self, variant: str | None) -> str:
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            raise ValueError(f"{self.name}: variant must be one of {', '.join(self.variants)}, got {variant!r}")
        return variant

    def analyse(self, variant: str | None = None, decks: int | None = None) -> Analysis:
        """Exact results of every bet (computed once per variant and deck count)."""
        key = (self.check_variant(variant), self._decks(decks) if self.uses_decks else None)
        cache = self.__dict__.setdefault("_analyses", {})
        if key not in cache:
            cache[key] = self._analyse(*key)
        return cache[key]

    def _analyse(self, variant: str, decks: int | None) -> Analysis:
        raise NotImplementedError

    def _decks(self, decks):
        return None

    def simulate(self, rounds: int, generator, variant: str | None = None, decks: int | None = None,
                 progress: Progress | None = None) -> Simulation:
        raise NotImplementedError

    @staticmethod
    def _check_rounds(rounds: int) -> int:
        if not isinstance(rounds, (int, np.integer)) or rounds < 1:
            raise ValueError(f"rounds must be a whole number >= 1, got {rounds!r}")
        return int(rounds)


class CategoricalGame(Game):
    """A game settled by one device outcome per round (wheels, sic bo).

    Subclasses supply, per variant: the bets, the device's outcomes (sections
    or ordered dice) with their features, and how the device is drawn.
    """

    def bets(self, variant: str) -> tuple:
        raise NotImplementedError

    def outcome_features(self, variant: str) -> list[dict | None]:
        """Features of every round index the device can produce (None: void)."""
        raise NotImplementedError

    def exact_space(self, variant: str):
        features = self.outcome_features(variant)
        return [(f, 1) for f in features if f is not None]

    def device(self, variant: str) -> tuple[str, int, int, int | None]:
        """(device name, sections, outcomes per round, void section)."""
        raise NotImplementedError

    def parameters(self, variant: str) -> dict:
        return {}

    def note(self, variant: str) -> str:
        return ""

    def _analyse(self, variant, decks) -> Analysis:
        bets = self.bets(variant)
        assert_unique_names(bets, self.name)
        return Analysis(self.name, variant, self.parameters(variant), evaluate_all(bets, self.exact_space(variant)),
                        self.note(variant))

    def simulate(self, rounds, generator, variant=None, decks=None, progress=None) -> Simulation:
        rounds = self._check_rounds(rounds)
        variant = self.check_variant(variant)
        device, sections, per_round, void = self.device(variant)
        counts = np.zeros(sections ** per_round, dtype=np.uint64)
        done, interrupted, seconds = _run(
            rounds, self.chunk,
            lambda n: _native.tally(generator, sections, n, counts, per_round=per_round, void=void),
            lambda: int(counts.sum(dtype=np.uint64)), progress)
        features = self.outcome_features(variant)
        live = [i for i, f in enumerate(features) if f is not None]
        live_features = [features[i] for i in live]
        live_counts = counts[live]
        exact = self.analyse(variant)
        bets = self.bets(variant)
        components = {b.name: b for b in bets if isinstance(b, BetRule)}
        sims = []
        for bet, result in zip(bets, exact.bets):
            labels, class_of = classify_outcomes(bet, live_features, components)
            sims.append(BetSimulation(result, class_counts(live_counts, class_of, labels)))
        fit = goodness_of_fit(live_counts, [Fraction(1, len(live))] * len(live))
        return Simulation(self.name, variant, device, done, rounds, seconds, fit, tuple(sims),
                          procedure=f"{per_round} outcome(s) per round on {sections} sections"
                          + (f", section {void} void (re-spun)" if void is not None else ""),
                          interrupted=interrupted, replay=_replay(generator),
                          note="outcome chi-square: every device outcome (section / ordered dice) vs uniform")


class RouletteGame(CategoricalGame):
    def __init__(self, name: str):
        self.name = name
        self.layouts = roulette.LAYOUTS[name]
        self.variants = tuple(self.layouts)

    def bets(self, variant):
        return roulette.bets(self.layouts[variant])

    def outcome_features(self, variant):
        layout = self.layouts[variant]
        pockets = roulette.pocket_features(layout)
        return [pockets.get(label) if i != layout.wheel.void_section else None
                for i, label in enumerate(layout.wheel.sections)]

    def device(self, variant):
        wheel = self.layouts[variant].wheel
        return self.layouts[variant].device, len(wheel.sections), 1, wheel.void_section

    def parameters(self, variant):
        wheel = self.layouts[variant].wheel
        return {"wheel": wheel.citation, "pockets": len(wheel.sections) - (wheel.void_section is not None)}

    def note(self, variant):
        return self.layouts[variant].note


class SymbolWheelGame(CategoricalGame):
    """Big Six / Money Wheel: a bet names a symbol; the wheel is a device table."""

    def __init__(self, name: str, variants: dict[str, Callable[[], tuple]], citation: str):
        self.name = name
        self._bets = variants
        self.variants = tuple(variants)
        self.wheel = WHEELS[name]
        self.citation = citation

    def bets(self, variant):
        return self._bets[variant]()

    def outcome_features(self, variant):
        return [{"symbol": label, "section": i} for i, label in enumerate(self.wheel.sections)]

    def device(self, variant):
        return self.name, len(self.wheel.sections), 1, self.wheel.void_section

    def parameters(self, variant):
        return {"wheel": self.wheel.citation, "sections": len(self.wheel.sections), "symbol_sections": self.wheel.counts}

    def note(self, variant):
        return self.citation


class SicBoGame(CategoricalGame):
    name = "sic-bo"
    variants = ("standard",)

    def bets(self, variant):
        return sic_bo.BETS

    def outcome_features(self, variant):
        return list(ordered_features(3))

    def exact_space(self, variant):
        return dice_space(3)[0]

    def device(self, variant):
        return "dice:3", 6, 3, None

    def parameters(self, variant):
        return {"dice": 3, "outcomes": 216}

    def note(self, variant):
        return "000 別表第1 第6: base bets 3-3 and the optional bets of 7-1 (odd/even, four-number, three-dice)"


class CrapsGame(Game):
    name = "craps"
    variants = tuple(craps.VARIANTS)
    chunk = 1 << 22

    def _analyse(self, variant, decks) -> Analysis:
        one_roll = craps.one_roll_for(variant)
        chains = craps.chains_for(variant)
        assert_unique_names(list(one_roll) + list(chains), self.name)
        space, _ = dice_space(2)
        results = {r.name: r for r in evaluate_all(one_roll, space)}
        results.update({bet.name: craps.solve_chain(bet) for bet in chains})
        order = [b.name for b in chains] + [b.name for b in one_roll]
        return Analysis(self.name, variant, {"dice": 2, "outcomes": 36}, tuple(results[n] for n in order),
                        craps.VARIANTS[variant])

    def simulate(self, rounds, generator, variant=None, decks=None, progress=None) -> Simulation:
        rounds = self._check_rounds(rounds)
        variant = self.check_variant(variant)
        automaton = craps.table_automaton()
        visits = np.zeros(automaton.size, dtype=np.uint64)
        state = [craps.table_state(0, 0, 0)]

        def step(n):
            state[0] = _native.chain(generator, 6, automaton, n, visits, state[0], per_round=2)

        done, interrupted, seconds = _run(rounds, self.chunk, step, lambda: int(visits.sum(dtype=np.uint64)), progress)
        exact = {b.name: b for b in self.analyse(variant).bets}
        rolls = visits.reshape(-1, 36).sum(axis=0, dtype=np.uint64)
        sims = []
        for bet in craps.chains_for(variant):
            sims.append(BetSimulation(exact[bet.name], craps.decisions(bet, visits)))
        one_roll = craps.one_roll_for(variant)
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


class BaccaratGame(Game):
    name = "baccarat"
    variants = tuple(baccarat.PROCEDURES)
    uses_decks = True
    chunk = 1 << 21
    DEFAULT_DECKS = 8

    def _decks(self, decks):
        decks = self.DEFAULT_DECKS if decks is None else decks
        baccarat.shoe_faces(decks)  # validates
        return int(decks)

    def _analyse(self, variant, decks) -> Analysis:
        assert_unique_names(baccarat.BETS, self.name)
        rules = baccarat.rule_set(variant)
        return Analysis(self.name, variant,
                        {"decks": decks, "procedure": "etable" if rules is None else rules.name},
                        baccarat.analyse(baccarat.shoe_faces(decks)),
                        "exact for the first round of a full shoe; simulation: " + baccarat.procedure_note(variant))

    def simulate(self, rounds, generator, variant=None, decks=None, progress=None) -> Simulation:
        rounds = self._check_rounds(rounds)
        variant = self.check_variant(variant)
        decks = self._decks(decks)
        table = _native.BaccaratTable(device_cards.fresh_stack(decks), baccarat.c_rules(variant, decks))
        counts = np.zeros(baccarat.CLASSES, dtype=np.uint64)
        done, interrupted, seconds = _run(
            rounds, self.chunk, lambda n: table.play(generator, n, counts),
            lambda: int(counts.sum(dtype=np.uint64)), progress)
        exact_counts, total = baccarat.exact_counts(baccarat.shoe_faces(decks))
        results = baccarat.results_from_counts(exact_counts, total)
        sims = tuple(BetSimulation(result, baccarat.label_counts(rule, counts))
                     for rule, result in zip(baccarat.BETS, results))
        fit = goodness_of_fit(counts, [Fraction(int(c), total) for c in exact_counts])
        note = ("outcome chi-square: round classes (totals, cards per hand, pair state) vs the exact "
                "fresh-shoe probabilities")
        if baccarat.rule_set(variant) is not None:
            note += ("; rounds dealt down a shoe are not independent and carry a small cut-card effect, "
                     "so at very large N the fresh-shoe reference is approximate")
        return Simulation(self.name, variant, f"shoe:{decks}", done, rounds, seconds, fit, sims,
                          procedure=f"{baccarat.procedure_note(variant)}; shoes shuffled: {table.shoes}",
                          interrupted=interrupted, replay=_replay(generator), note=note)


GAMES: dict[str, Game] = {
    "baccarat": BaccaratGame(),
    "roulette-single": RouletteGame("roulette-single"),
    "roulette-double": RouletteGame("roulette-double"),
    "big-six": SymbolWheelGame("big-six", {"standard": money_wheels.big_six_bets}, "002 ch. 533"),
    "money-wheel": SymbolWheelGame(
        "money-wheel",
        {v: functools.partial(money_wheels.money_wheel_bets, v) for v in money_wheels.MONEY_WHEEL_TABLES},
        "000 別表第1 第8 (the operator uses the 6-2 table or elects 6-3)"),
    "sic-bo": SicBoGame(),
    "craps": CrapsGame(),
}


def game(name: str) -> Game:
    """The game called ``name``; ValueError listing the valid names."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; valid games: {', '.join(GAMES)}") from None
