"""What a game declares, and the engine every game shares.

A game module (``harness/games/<game>.py``) holds its rules table with
citations and declares its game(s) in a module-level ``GAMES`` sequence of
:class:`Game` instances; :mod:`harness.games.registry` discovers them.  A
:class:`Game` states its name, its variants (the first is the default), the
options it takes besides the variant (:class:`GameOption`: a whole number
such as ``--decks``, a named choice, a file), the player strategies it
offers (:class:`Strategy`, ``--strategy``; the first is the default), and
offers :meth:`Game.analyse` (exact results of every bet) and
:meth:`Game.simulate` (rounds played through the virtual devices, counted
in C).  :class:`CategoricalGame` is the engine of games settled by one
device outcome per round (wheels, sic bo).
"""
from __future__ import annotations

import dataclasses
import os
import time
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from harness.games import _native
from harness.games.categorical import classify_outcomes, evaluate_all
from harness.games.core import BetResult, BetRule, assert_unique_names
from harness.games.etable import Dealt, ETable
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
    strategy: str | None = None  # the player strategy, for a game that declares strategies

    def bet(self, name: str) -> BetResult:
        for b in self.bets:
            if b.name == name:
                return b
        raise ValueError(f"{self.game} has no bet {name!r}; bets: {', '.join(b.name for b in self.bets)}")

    def as_dict(self) -> dict:
        strategy = {} if self.strategy is None else {"strategy": self.strategy}
        return {
            "game": self.game,
            "variant": self.variant,
            **strategy,
            "parameters": self.parameters,
            "note": self.note,
            "bets": [b.as_dict() for b in self.bets],
        }


@dataclasses.dataclass(frozen=True)
class OptionFile:
    """The value of a file option: the path as given and the text read from it.

    The text, not the path, is the value: two runs over one file agree, and
    an edited file is a different value (the analysis cache keys on it).
    """

    path: str
    text: str

    def __str__(self) -> str:
        return self.path


def option_named(name: str) -> str:
    """How a message names option ``name`` when nothing says how it was given: ``option NAME``."""
    return f"option {name}"


class OptionError(ValueError):
    """A refused option value, naming the options it is about as the caller chooses.

    The command line names an option as the user typed it (``--decks``,
    ``--option decks``, ``--strategy``); the game that refuses the value
    does not know which, so its message marks each option it names and
    :meth:`named` fills the marks in.  ``str()`` names them ``option NAME``
    (a plan file, a Python caller).  The marked text is the exception's one
    argument, so the error pickles (a worker process raises it).

    Examples
    --------
    >>> e = OptionError.naming(lambda flag: f"g: {flag('decks')} must be 1..8, got 9")
    >>> str(e), e.named(lambda name: f"--{name}")
    ('g: option decks must be 1..8, got 9', 'g: --decks must be 1..8, got 9')
    """

    MARK = "\0"  # never in a command-line value (argv strings end at NUL)

    @classmethod
    def naming(cls, message: Callable[[Callable[[str], str]], str]) -> "OptionError":
        """The error whose text is ``message(flag)``, ``flag(name)`` marking where option ``name`` is named."""
        return cls(message(lambda name: f"{cls.MARK}{name}{cls.MARK}"))

    def named(self, flag: Callable[[str], str] = option_named) -> str:
        """The message with every marked option named ``flag(name)``."""
        parts = str(self.args[0]).split(self.MARK)
        return "".join(flag(part) if i % 2 else part for i, part in enumerate(parts))

    def __str__(self) -> str:
        return self.named()


def as_named(exc: Exception, flag: Callable[[str], str] = option_named) -> str:
    """``exc``'s message, an :class:`OptionError` naming its options ``flag(name)``."""
    return exc.named(flag) if isinstance(exc, OptionError) else str(exc)


@dataclasses.dataclass(frozen=True)
class GameOption:
    """An option a game takes besides its variant and strategy.

    It is of one of three kinds: a whole number in an inclusive range
    (``low``, ``high``), one of named ``choices`` (a rule that is on or off
    is the choices ``("yes", "no")``), or a ``file`` the game reads (a
    user's table).  ``rngcert game G --option NAME=VALUE`` sets any of them;
    a whole-number option is also the flag ``--<name>``, shared by every
    game declaring that name.  The value reaches :meth:`Game.analyse` and
    :meth:`Game.simulate` as the keyword ``name`` (hyphens as underscores):
    an int, the choice's name, or an :class:`OptionFile` (None when a file
    option is not given).

    Attributes
    ----------
    name : str
        Option name (``"decks"``, ``"surrender"``).
    metavar : str
        Placeholder in ``--help`` (``"N"``, ``"FILE"``).
    help : str
        What it means for this game, citing the rule it comes from.
    low, high : int, optional
        Inclusive range of a whole-number option.
    default : int or str, optional
        Used when the option is not given (a choice option: its first choice
        unless given; a file option: none).
    choices : tuple of str
        The named values of a choice option.
    file : bool
        A file option.

    Examples
    --------
    >>> GameOption("decks", "N", "decks in the shoe", 1, 8, 8).describe()
    '1..8, default 8'
    >>> GameOption.choice("dealer", "the dealer's soft 17", ("s17", "h17")).describe()
    's17|h17, default s17'
    """

    name: str
    metavar: str
    help: str
    low: int | None = None
    high: int | None = None
    default: int | str | None = None
    choices: tuple[str, ...] = ()
    file: bool = False

    @classmethod
    def choice(cls, name: str, help: str, choices: tuple[str, ...], default: str | None = None) -> "GameOption":
        """A choice option (the default: the first choice)."""
        return cls(name, "|".join(choices), help, default=choices[0] if default is None and choices else default,
                   choices=tuple(choices))

    @classmethod
    def path(cls, name: str, help: str, metavar: str = "FILE") -> "GameOption":
        """A file option (no default: the game says what its absence means)."""
        return cls(name, metavar, help, file=True)

    @property
    def kind(self) -> str:
        """``"whole"``, ``"choice"`` or ``"file"``."""
        return "file" if self.file else "choice" if self.choices else "whole"

    def __post_init__(self):
        whole = self.low is not None or self.high is not None
        if sum((whole, bool(self.choices), self.file)) != 1:
            raise ValueError(f"option {self.name}: give exactly one of a range (low, high), choices or file")
        if self.kind == "whole" and (self.low is None or self.high is None
                                     or not isinstance(self.default, int) or not self.low <= self.default <= self.high):
            raise ValueError(f"option {self.name}: default {self.default} outside {self.low}..{self.high}")
        if self.kind == "choice" and (len(set(self.choices)) != len(self.choices) or self.default not in self.choices):
            raise ValueError(f"option {self.name}: choices must be distinct and hold the default {self.default!r}")
        if self.kind == "file" and self.default is not None:
            raise ValueError(f"option {self.name}: a file option has no default")

    def allowed(self) -> str:
        """The allowed values, as an error message or ``--help`` states them."""
        if self.kind == "whole":
            return f"a whole number in {self.low}..{self.high}"
        if self.kind == "choice":
            return "one of " + "|".join(self.choices)
        return "the path of a readable text file"

    def describe(self) -> str:
        """Values and default in a few words (``--help``, the docs)."""
        if self.kind == "whole":
            return f"{self.low}..{self.high}, default {self.default}"
        if self.kind == "choice":
            return f"{'|'.join(self.choices)}, default {self.default}"
        return f"{self.metavar}, default none"

    def check(self, game: str, value: Any, typed: str | None = None):
        """The value in its kind (see the class doc); :class:`OptionError` naming the
        game, the option and the allowed values otherwise.  Text (from
        ``--option NAME=VALUE``) is parsed.

        ``typed`` is how the message names the option (``"--strategy"``: a value given
        under another flag); by default the option's mark, which the command line fills
        in as the user typed it (``--decks`` or ``--option decks``).
        """
        if value is None:
            return self.default

        def refuse(text: Callable[[str], str]):
            raise OptionError.naming(lambda flag: f"{game}: {typed or flag(self.name)}{text(flag)}") from None

        if self.kind == "whole":
            if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not self.low <= value <= self.high:
                refuse(lambda flag: f" must be {self.allowed()}, got {value!r}")
            return int(value)
        if self.kind == "choice":
            if value not in self.choices:
                refuse(lambda flag: f" must be {self.allowed()}, got {value!r}")
            return value
        if isinstance(value, OptionFile):
            return value
        if not isinstance(value, str) or not value:
            refuse(lambda flag: f" must be {self.allowed()}, got {value!r}")
        try:
            with open(value, encoding="utf-8") as handle:
                return OptionFile(value, handle.read())
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
            refuse(lambda flag: f": cannot read {value}: {reason}")

    @property
    def keyword(self) -> str:
        """The keyword the value reaches ``analyse``/``simulate`` as."""
        return self.name.replace("-", "_")


def named_options(owner: str, declared, given) -> list:
    """The ``given`` (name or keyword, value) pairs as [(declared GameOption, value)], in order;
    ValueError naming ``owner`` (what takes the options: a game, a game's rounds) for an undeclared
    or a repeated option.

    The one lookup of ``--option NAME=VALUE`` texts (:func:`harness.commands._options.parse_option_pairs`)
    and of a round's options (:meth:`harness.rounds.table.RoundRules.check_options`).
    """
    out: list = []
    for name, value in given:
        option = next((o for o in declared if name in (o.name, o.keyword)), None)
        if option is None:
            names = ", ".join(o.name for o in declared) or "none"
            raise ValueError(f"{owner} has no option {name!r} (its options: {names})")
        if any(o is option for o, _ in out):
            raise OptionError.naming(lambda flag: f"{owner}: {flag(option.name)} given twice")
        out.append((option, value))
    return out


@dataclasses.dataclass(frozen=True)
class Strategy:
    """A player strategy a game offers (``--strategy NAME``).

    Attributes
    ----------
    name : str
        The name on the command line (``"house-way"``).
    help : str
        What the player does, citing the rule it follows.
    file : str, optional
        The game's file option this strategy plays (a player's own chart): ``--strategy FILE``,
        a value that names no strategy, is this strategy with FILE as that option (the longer
        ``--strategy NAME --option FILE_OPTION=FILE`` says the same).
    """

    name: str
    help: str
    file: str | None = None


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
        Options besides the variant (whole numbers, named choices, files).
    strategies : tuple of Strategy
        The player strategies the game offers; the first is the default.  A
        game whose player has no choice declares none (and refuses one).
    devices : str
        The virtual equipment a simulation draws from.
    chunk : int
        Rounds per C call of a simulation (an interrupt stops between calls).
    etable : ETable or None
        The game's electronic table-game mode (000's mode B): permitted bets,
        determination point, fault rule (:mod:`harness.games.etable`); None
        for a game 000 gives no such mode.

    Notes
    -----
    ``_analyse`` and ``_simulate`` receive every declared option as a
    keyword (defaults filled in) and, when the game declares strategies,
    the keyword ``strategy``; :meth:`check_together` refuses combinations
    the game cannot play.
    """

    name: str = ""
    summary: str = ""
    rules: str = ""
    variants: tuple[str, ...] = ("standard",)
    variants_help: str = ""
    options: tuple[GameOption, ...] = ()
    strategies: tuple[Strategy, ...] = ()
    devices: str = ""
    chunk: int = 1 << 22
    etable: ETable | None = None

    def check_variant(self, variant: str | None) -> str:
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            raise ValueError(f"{self.name}: variant must be one of {', '.join(self.variants)}, got {variant!r}")
        return variant

    def check_strategy(self, strategy: str | None) -> str | None:
        """The strategy's name (the first when None), or None for a game that declares none."""
        names = [s.name for s in self.strategies]
        if not names:
            if strategy is not None:
                raise ValueError(f"{self.name} offers no player strategies, so --strategy does not apply "
                                 f"(got {strategy!r})")
            return None
        if strategy is None:
            return names[0]
        if strategy not in names:
            reads = any(s.file for s in self.strategies) or not isinstance(strategy, str)
            plays = "" if reads or not os.path.isfile(strategy) else \
                f" ({self.name} plays no strategy file)"  # --strategy FILE, which another game reads
            raise ValueError(f"{self.name}: strategy must be one of {', '.join(names)}, got {strategy!r}{plays}")
        return strategy

    def strategy_file(self, strategy, options: dict) -> tuple:
        """``(strategy, options)`` with ``--strategy FILE`` read: a value naming none of the strategies,
        for a game with a strategy that plays a file (:attr:`Strategy.file`), is that strategy with the
        file as its option; anything else as given.  ValueError for an unreadable FILE, or a file
        given both ways."""
        reader = next((s for s in self.strategies if s.file is not None), None)
        names = [s.name for s in self.strategies]
        if reader is None or strategy is None or strategy in names:
            return strategy, options
        option = self.option(reader.file)
        if any(value is not None and self.option(name) is option for name, value in options.items()):
            raise OptionError.naming(lambda flag: f"{self.name}: the {option.name} is given twice (--strategy FILE "
                                                  f"and {flag(option.name)})")
        try:
            value = option.check(self.name, strategy, typed="--strategy")
        except ValueError as exc:
            raise ValueError(f"{exc} (--strategy takes {', '.join(names)} or a FILE)") from None
        return reader.name, {**options, option.name: value}

    def option(self, name: str) -> GameOption | None:
        """The declared option called ``name`` (or with that keyword), or None."""
        return next((o for o in self.options if name in (o.name, o.keyword)), None)

    def check_options(self, given: dict) -> dict:
        """Every declared option's value by keyword (defaults filled in); ValueError for an undeclared one."""
        for name in given:
            if self.option(name) is None:
                declared = ", ".join(f"--{o.name}" for o in self.options) or "none"
                raise ValueError(f"{self.name} takes no option --{name} (its options: {declared})")
        values = {o.keyword: None for o in self.options}
        for name, value in given.items():
            values[self.option(name).keyword] = value
        return {o.keyword: o.check(self.name, values[o.keyword]) for o in self.options}

    def check_together(self, strategy: str | None, options: dict) -> None:
        """Refuse (ValueError) a strategy and option values the game cannot play together (default: any go)."""

    def _checked(self, variant, strategy, options) -> tuple[str, dict]:
        strategy, options = self.strategy_file(strategy, options)
        variant, strategy, options = self.check_variant(variant), self.check_strategy(strategy), self.check_options(options)
        self.check_together(strategy, options)
        return variant, ({"strategy": strategy} if self.strategies else {}) | options

    def analyse(self, variant: str | None = None, strategy: str | None = None, **options) -> Analysis:
        """Exact results of every bet (computed once per variant, strategy and option values)."""
        variant, keywords = self._checked(variant, strategy, options)
        key = (variant, tuple(sorted(keywords.items())))
        cache = self.__dict__.setdefault("_analyses", {})
        if key not in cache:
            analysis = self._analyse(variant, **keywords)
            cache[key] = dataclasses.replace(analysis, strategy=keywords.get("strategy"))
        return cache[key]

    def _analyse(self, variant: str, **options) -> Analysis:
        raise NotImplementedError

    def simulate(self, rounds: int, generator, variant: str | None = None, progress: Progress | None = None,
                 strategy: str | None = None, **options) -> Simulation:
        """Play ``rounds`` rounds through the devices and compare with the exact results."""
        rounds = self._check_rounds(rounds)
        variant, keywords = self._checked(variant, strategy, options)
        self.check_simulation(keywords.get("strategy"))
        return self._simulate(rounds, generator, variant, progress, **keywords)

    def check_simulation(self, strategy: str | None) -> None:
        """Refuse (ValueError) a strategy the game analyses but does not deal rounds with (default:
        none); the CLI asks before the analysis, so the refusal comes at once."""

    def _simulate(self, rounds: int, generator, variant: str, progress: Progress | None, **options) -> Simulation:
        raise NotImplementedError

    chart_formats: tuple[str, ...] = ()

    def chart(self, fmt: str, variant: str | None = None, strategy: str | None = None, **options) -> str:
        """The strategy chart the analysis plays, printed as ``fmt`` (one of ``chart_formats``), for a
        game with a player strategy chart (``rngcert game G --chart``); ValueError for one without."""
        raise ValueError(f"{self.name} has no strategy chart (--chart applies to games with a player "
                         f"strategy chart)")

    def round_bets(self, variant: str) -> tuple:
        """The bets a single round settles (rules, splits, families), for :mod:`harness.rounds`;
        NotImplementedError for a game with no round engine yet."""
        raise NotImplementedError(f"{self.name} has no round engine yet")

    def round_outcome(self, generator, variant: str, **options) -> Dealt:
        """Deal one round through the devices: its features (what :meth:`round_bets` classify),
        what is shown and a record that re-deriving the round must reproduce."""
        raise NotImplementedError(f"{self.name} has no round engine yet")

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        """The round a journaled ``record`` of :meth:`round_outcome` describes (recovery settles on it);
        ValueError if the record is not one this game deals."""
        raise NotImplementedError(f"{self.name} has no round engine yet")

    def round_batch(self, generator, variant: str, rounds: int, **options) -> tuple[np.ndarray, np.ndarray, list]:
        """``rounds`` rounds drawn one after another exactly as :meth:`round_outcome` draws each.

        Returns ``(keys, ends, outcomes)``: round i dealt ``outcomes[keys[i]]`` and the rounds
        through i consumed ``ends[i]`` output bytes from the generator's position at the call.
        ``outcomes`` is a list of the rounds' own outcomes (this default, which calls
        :meth:`round_outcome` per round), or a *tuple*: the game's table of every outcome its
        devices can produce, the same object on every call (a batch kernel's override), so a
        caller may work per outcome instead of per round.
        """
        return batch_by_rounds(self, generator, variant, rounds, **options)

    @staticmethod
    def _check_rounds(rounds: int) -> int:
        if not isinstance(rounds, (int, np.integer)) or rounds < 1:
            raise ValueError(f"rounds must be a whole number >= 1, got {rounds!r}")
        return int(rounds)


def batch_by_rounds(engine, generator, variant: str, rounds: int, **options) -> tuple[np.ndarray, np.ndarray, list]:
    """``rounds`` calls of ``engine.round_outcome``, as :meth:`Game.round_batch` returns them."""
    start = generator.provenance().position
    outcomes, ends = [], np.empty(rounds, dtype=np.uint64)
    for i in range(rounds):
        outcomes.append(engine.round_outcome(generator, variant, **options))
        ends[i] = generator.provenance().position - start
    return np.arange(rounds), ends, outcomes


class DeviceRounds:
    """The round engine of a game whose round is one device outcome (a spin, a roll).

    Mixed into a :class:`Game` (before it) that offers ``device(variant)``,
    ``outcome_features(variant)`` and :meth:`outcome_label`; its
    ``round_bets`` are the bets one outcome settles.
    """

    def outcome_label(self, variant: str, index: int, features: dict) -> str:
        """How round index ``index`` (with these features) is shown (a pocket, a symbol, the dice)."""
        return str(index)

    def round_outcome(self, generator, variant: str, **options) -> Dealt:
        """One device outcome, drawn by the kernel the simulation uses (void sections re-spun)."""
        device, sections, per_round, void = self.device(variant)
        counts = np.zeros(sections ** per_round, dtype=np.uint64)
        _native.tally(generator, sections, 1, counts, per_round=per_round, void=void)
        return self.round_dealt(variant, {"index": int(np.flatnonzero(counts)[0])})

    def round_batch(self, generator, variant: str, rounds: int, **options):
        """Every round drawn by one C call, as :meth:`round_outcome` would draw them one by one."""
        device, sections, per_round, void = self.device(variant)
        keys, ends = _native.rounds(generator, sections, rounds, per_round=per_round, void=void)
        cache = self.__dict__.setdefault("_round_table", {})  # every outcome's Dealt, built once per variant
        if variant not in cache:
            features = self.__dict__.get("_round_features", {}).get(variant) or self.outcome_features(variant)
            cache[variant] = tuple(None if f is None else self.round_dealt(variant, {"index": i})
                                   for i, f in enumerate(features))
        return keys, ends, cache[variant]

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        cache = self.__dict__.setdefault("_round_features", {})  # one table per variant, built once
        if variant not in cache:
            cache[variant] = self.outcome_features(variant)
        features = cache[variant]
        index = record.get("index") if isinstance(record, dict) else None
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(features) \
                or features[index] is None:
            raise ValueError(f"{self.name}: {record!r} is not a round outcome of variant {variant}")
        return Dealt(features[index], self.outcome_label(variant, index, features[index]), {"index": index})


class CategoricalGame(DeviceRounds, Game):
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

    def round_bets(self, variant: str) -> tuple:
        return self.bets(variant)

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
