"""What a game declares, and the engine every game shares.

A game module (``harness/games/<game>.py``) holds its rules table with
citations and declares its game(s) in a module-level ``GAMES`` sequence of
:class:`Game` instances; :mod:`harness.games.registry` discovers them.  A
:class:`Game` states its name, its variants (the first is the default), the
options it takes besides the variant (:class:`GameOption`, e.g. ``--decks``)
and offers :meth:`Game.analyse` (exact results of every bet) and
:meth:`Game.simulate` (rounds played through the virtual devices, counted
in C).  :class:`CategoricalGame` is the engine of games settled by one
device outcome per round (wheels, sic bo).
"""
from __future__ import annotations

import dataclasses
import time
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from harness.games import _native
from harness.games.categorical import classify_outcomes, evaluate_all
from harness.games.core import BetResult, BetRule, assert_unique_names
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


@dataclasses.dataclass(frozen=True)
class GameOption:
    """A whole-number option a game takes besides its variant (``--decks N``).

    The command line offers ``--<name>`` for every option some game declares
    and refuses it for the games that do not; the value reaches
    :meth:`Game.analyse` and :meth:`Game.simulate` as the keyword ``name``.

    Attributes
    ----------
    name : str
        Keyword and flag name (``"decks"``).
    metavar : str
        Placeholder in ``--help`` (``"N"``).
    help : str
        What it means for this game, with its range, default and citation.
    low, high : int
        Inclusive range.
    default : int
        Used when the option is not given.
    """

    name: str
    metavar: str
    help: str
    low: int
    high: int
    default: int

    def __post_init__(self):
        if not self.low <= self.default <= self.high:
            raise ValueError(f"option {self.name}: default {self.default} outside {self.low}..{self.high}")

    def check(self, game: str, value: Any) -> int:
        """The value as an int; ValueError naming the game and option otherwise."""
        if value is None:
            return self.default
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not self.low <= value <= self.high:
            raise ValueError(f"{game}: --{self.name} must be a whole number in {self.low}..{self.high}, got {value!r}")
        return int(value)


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
    """The generator's provenance (engine, mode, seed fingerprint, stream,
    position), or None for a generator that has none (numpy's)."""
    provenance = getattr(generator, "provenance", None)
    return None if provenance is None else provenance().as_dict()


class Game:
    """A game of ``rngcert game`` (subclasses fill in the details).

    Attributes
    ----------
    name : str
        The name on the command line.
    summary : str
        One line for the tables of games in ``--help`` and the docs.
    rules : str
        The seed sections the game's rules come from.
    variants : tuple of str
        Rule variants; the first is the default.
    variants_help : str
        What the variants are, in a few words (``--help``).
    options : tuple of GameOption
        Options besides the variant.
    devices : str
        The virtual equipment a simulation draws from.
    chunk : int
        Rounds per C call of a simulation (an interrupt stops between calls).
    """

    name: str = ""
    summary: str = ""
    rules: str = ""
    variants: tuple[str, ...] = ("standard",)
    variants_help: str = ""
    options: tuple[GameOption, ...] = ()
    devices: str = ""
    chunk: int = 1 << 22

    def check_variant(self, variant: str | None) -> str:
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            raise ValueError(f"{self.name}: variant must be one of {', '.join(self.variants)}, got {variant!r}")
        return variant

    def option(self, name: str) -> GameOption | None:
        """The declared option called ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)

    def check_options(self, given: dict) -> dict:
        """Every declared option's value (defaults filled in); ValueError for an undeclared one."""
        for name in given:
            if self.option(name) is None:
                declared = ", ".join(f"--{o.name}" for o in self.options) or "none"
                raise ValueError(f"{self.name} takes no option --{name} (its options: {declared})")
        return {o.name: o.check(self.name, given.get(o.name)) for o in self.options}

    def analyse(self, variant: str | None = None, **options) -> Analysis:
        """Exact results of every bet (computed once per variant and option values)."""
        variant = self.check_variant(variant)
        options = self.check_options(options)
        key = (variant, tuple(sorted(options.items())))
        cache = self.__dict__.setdefault("_analyses", {})
        if key not in cache:
            cache[key] = self._analyse(variant, **options)
        return cache[key]

    def _analyse(self, variant: str, **options) -> Analysis:
        raise NotImplementedError

    def simulate(self, rounds: int, generator, variant: str | None = None, progress: Progress | None = None,
                 **options) -> Simulation:
        """Play ``rounds`` rounds through the devices and compare with the exact results."""
        rounds = self._check_rounds(rounds)
        return self._simulate(rounds, generator, self.check_variant(variant), progress, **self.check_options(options))

    def _simulate(self, rounds: int, generator, variant: str, progress: Progress | None, **options) -> Simulation:
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

    def _analyse(self, variant, **options) -> Analysis:
        bets = self.bets(variant)
        assert_unique_names(bets, self.name)
        return Analysis(self.name, variant, self.parameters(variant), evaluate_all(bets, self.exact_space(variant)),
                        self.note(variant))

    def _simulate(self, rounds, generator, variant, progress, **options) -> Simulation:
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
