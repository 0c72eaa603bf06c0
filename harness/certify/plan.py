"""The certification plan: a TOML file read with :mod:`tomllib` and checked before anything runs.

The format is documented, key by key, in ``examples/plan.toml`` (an
annotated plan that the tests load and run) and in ``docs/certify.md``.
Every name in a plan (engine, device, game, profile, statistical test) is
checked against its registry, so whatever is registered can be certified
and a misspelt name fails at once, naming the key and the valid choices.
A malformed plan raises :class:`PlanError`: one line naming the file and
the key.
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
import pathlib
import tomllib

FORMAT = 1  # the plan format this module reads (the plan's ``format`` key)
PROCEDURES = ("holm",)  # family-wise procedures of the battery (stats.battery.holm)


class PlanError(ValueError):
    """The plan is malformed or names something that does not exist (one line: file, key, what)."""


@dataclasses.dataclass(frozen=True)
class Engine:
    """The generator every drawing section uses: replay (``seed``) or production (no seed)."""

    name: str = "chacha20"
    seed: bytes | None = None
    stream: int = 0
    show_seed: bool = False

    @property
    def replay(self) -> bool:
        return self.seed is not None


@dataclasses.dataclass(frozen=True)
class Statistics:
    """Levels of the battery: family-wise α per device, the procedure, the power δ is stated at,
    and the δ at or above which a test is reported as having low power."""

    alpha: float = 0.01
    procedure: str = "holm"
    power: float = 0.99
    low_power_delta: float = 1.0


@dataclasses.dataclass(frozen=True)
class DeviceSection:
    """One device to test: ours (drawn from the engine) or a capture file of anyone's."""

    key: str
    device: str
    title: str
    samples: int | None = None
    target_delta: float | None = None
    input: pathlib.Path | None = None
    format: str = "auto"
    tests: tuple = ()
    stream: int | None = None


@dataclasses.dataclass(frozen=True)
class GameSection:
    """One table game: its exact analysis with the operator's options, and optionally a simulation."""

    key: str
    game: str
    title: str
    variant: str | None = None
    options: tuple = ()  # (name, value) pairs, as the game declares them (a file option: its resolved path)
    simulate: int | None = None
    stream: int | None = None
    strategy: str | None = None

    def files(self) -> list[pathlib.Path]:
        """The files the game's file options name."""
        from harness.games.registry import game

        return [pathlib.Path(value) for name, value in self.options if game(self.game).option(name).kind == "file"]


@dataclasses.dataclass(frozen=True)
class SlotSection:
    """One slot model: exact PAR sheet, checked against every profile of the plan."""

    key: str
    model: pathlib.Path
    title: str
    simulate: int | None = None
    stream: int | None = None


@dataclasses.dataclass(frozen=True)
class RoundsSection:
    """Scripted e-table rounds with faults and a recovery, journaled (:mod:`harness.rounds.study`)."""

    key: str
    game: str
    bets: pathlib.Path
    title: str
    variant: str | None = None
    options: tuple = ()  # (name, value) pairs of the game's round options
    rounds: int = 10
    stream: int | None = None


@dataclasses.dataclass(frozen=True)
class Plan:
    """A checked certification plan.

    Attributes
    ----------
    path : pathlib.Path
    sha256 : str
        SHA-256 of the plan file's bytes (a resumed run must be given the same plan).
    title : str
    profiles : tuple of str
        Jurisdiction profiles (:data:`harness.slot.profiles.PROFILES`); slots are checked against each.
    engine : Engine
    statistics : Statistics
    devices, games, slots, rounds : tuple
        The sections, in plan order.
    selftest : bool
        Whether the build's self-test is a section (default true).
    """

    path: pathlib.Path
    sha256: str
    title: str
    profiles: tuple
    engine: Engine
    statistics: Statistics
    devices: tuple
    games: tuple
    slots: tuple
    selftest: bool = True
    rounds: tuple = ()

    @property
    def sections(self) -> tuple:
        """Every section in run order: devices, games, slots, rounds (the self-test comes first, separately)."""
        return self.devices + self.games + self.slots + self.rounds

    def inputs(self) -> list[pathlib.Path]:
        """Every file the plan reads besides itself: captures, option files, slot models and bet scripts."""
        return ([d.input for d in self.devices if d.input is not None] + [f for g in self.games for f in g.files()]
                + [s.model for s in self.slots] + [r.bets for r in self.rounds])


class _Reader:
    """Typed access to a TOML table, with errors that name the file and the key."""

    def __init__(self, path: pathlib.Path, table: dict, where: str = ""):
        self.path, self.table, self.where = path, table, where
        self.used: set = set()

    def fail(self, key: str | None, message: str):
        name = f"{self.where}.{key}" if self.where and key else (key or self.where or "plan")
        raise PlanError(f"{self.path.name}: {name}: {message}")

    def get(self, key, kind, default=None, *, required=False):
        self.used.add(key)
        if key not in self.table:
            if required:
                self.fail(key, "is required")
            return default
        value = self.table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):  # true is not 1
            names = {dict: "a table", list: "an array", str: "a string", int: "a whole number",
                     float: "a number", bool: "true or false"}
            self.fail(key, f"must be {' or '.join(names[k] for k in kinds)}, got {value!r}")
        return value

    def integer(self, key, low, high=None, default=None, *, required=False):
        value = self.get(key, int, default, required=required)
        if value is not None and (value < low or (high is not None and value > high)):
            bound = f">= {low:,}" if high is None else f"in [{low:,}, {high:,}]"
            self.fail(key, f"must be a whole number {bound}, got {value:,}")
        return value

    def level(self, key, default):
        value = self.get(key, (int, float), default)
        if not (math.isfinite(value) and 0 < value < 1):
            self.fail(key, f"must be strictly between 0 and 1, got {value!r}")
        return float(value)

    def choice(self, key, choices, default=None, *, required=False):
        value = self.get(key, str, default, required=required)
        if value is not None and value not in choices:
            self.fail(key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def table_of(self, key) -> "_Reader":
        inner = self.get(key, dict, {})
        return _Reader(self.path, inner, f"{self.where}.{key}" if self.where else key)

    def tables(self, key) -> list["_Reader"]:
        items = self.get(key, list, [])
        out = []
        for i, item in enumerate(items):
            where = f"{key}[{i}]"
            if not isinstance(item, dict):
                raise PlanError(f"{self.path.name}: {where}: must be a table ([[{key}]]), got {item!r}")
            out.append(_Reader(self.path, item, where))
        return out

    def file(self, key, *, required=True) -> pathlib.Path | None:
        value = self.get(key, str, required=required)
        if value is None:
            return None
        path = pathlib.Path(value)
        path = path if path.is_absolute() else self.path.parent / path
        if not path.is_file():
            self.fail(key, f"no such file: {value} (paths are relative to the plan's folder)")
        return path

    def done(self) -> None:
        """Refuse keys the format does not know (a misspelt key must not be silently ignored)."""
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            self.fail(None, f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}")


def _engine(plan: _Reader) -> Engine:
    from rngcore.engines import engines

    r = plan.table_of("engine")
    name = r.choice("name", tuple(engines()), "chacha20")
    cls = engines()[name]
    seed_text = r.get("seed", str)
    seed = None
    if seed_text is not None:
        try:
            seed = cls.parse_seed(seed_text)
        except (ValueError, TypeError) as exc:
            r.fail("seed", f"{name}: {exc}")
    elif not cls.has_production:
        r.fail("seed", f"the {name} engine has no production mode: give a replay seed")
    stream = r.integer("stream", 0, 2**64 - 1, 0)
    if "stream" in r.table and not cls.has_streams:
        r.fail("stream", f"the {name} engine has no stream ids")
    show = r.get("show_seed", bool, False)
    r.done()
    return Engine(name, seed, stream, show)


def _statistics(plan: _Reader) -> Statistics:
    r = plan.table_of("statistics")
    alpha = r.level("alpha", 0.01)
    procedure = r.choice("procedure", PROCEDURES, "holm")
    power = r.level("power", 0.99)
    delta = r.get("low_power_delta", (int, float), 1.0)
    if not (math.isfinite(delta) and delta > 0):
        r.fail("low_power_delta", f"must be a positive number, got {delta!r}")
    r.done()
    return Statistics(alpha, procedure, power, float(delta))


def _key(kind: str, name: str, seen: dict) -> str:
    """A section's stable key: ``device:roulette-single``, numbered when a name repeats."""
    base = f"{kind}:{name}"
    seen[base] = seen.get(base, 0) + 1
    return base if seen[base] == 1 else f"{base}#{seen[base]}"


def _device_spec(r: _Reader, name: str):
    from harness.sources import device_to_test

    try:
        return device_to_test(name)
    except ValueError as exc:
        r.fail("device", str(exc))


def _devices(plan: _Reader, seen: dict) -> tuple:
    from stats.registry import test_names

    out = []
    for r in plan.tables("devices"):
        name = r.get("device", str, required=True)
        spec = _device_spec(r, name)
        source = r.file("input", required=False)
        fmt = r.choice("format", ("auto", "labels", "indices"), "auto")
        samples = r.integer("samples", 1, 1 << 53)
        target = r.table_of("target")
        delta = target.get("delta", (int, float))
        if delta is not None and not (math.isfinite(delta) and delta > 0):
            target.fail("delta", f"must be a positive number, got {delta!r}")
        target.done()
        if samples is not None and delta is not None:
            r.fail("target", "give either samples or a target, not both")
        if source is None and not hasattr(spec, "draw"):
            r.fail("input", f"{name} is a device kind, not one of our devices: give a capture file (input)")
        tests = r.get("tests", list, [])
        for test in tests:
            if test not in test_names():
                r.fail("tests", f"{test!r} is not a battery test; valid: {', '.join(test_names())}")
        stream = r.integer("stream", 0, 2**64 - 1)
        title = r.get("title", str, f"{name}" + (f" (capture {source.name})" if source else ""))
        r.done()
        out.append(DeviceSection(_key("device", name, seen), name, title, samples,
                                 None if delta is None else float(delta), source, fmt, tuple(tests), stream))
    return tuple(out)


def _games(plan: _Reader, seen: dict, path: pathlib.Path) -> tuple:
    from harness.games.registry import GAMES

    out = []
    for r in plan.tables("games"):
        name = r.choice("game", tuple(GAMES), required=True)
        game = GAMES[name]
        variant = r.get("variant", str)
        if variant is not None and variant not in game.variants:
            r.fail("variant", f"{variant!r} is not a variant of {name}; valid: {', '.join(game.variants)}")
        strategy = r.get("strategy", str)
        try:
            chosen = game.check_strategy(strategy)
        except ValueError as exc:
            r.fail("strategy", str(exc))
        options = r.table_of("options")
        given = {}
        for option in options.table:
            declared = game.option(option)
            if declared is None:
                taken = ", ".join(o.name for o in game.options) or "none"
                options.fail(option, f"{name} takes no option {option!r} (its options: {taken})")
            value = options.table[option]
            if declared.kind == "file" and isinstance(value, str):  # relative to the plan, like every path
                value = str(path.parent / value) if not pathlib.Path(value).is_absolute() else value
            try:
                declared.check(name, value)
            except (ValueError, TypeError) as exc:
                options.fail(option, str(exc))
            given[option] = value
        try:
            game.check_together(chosen, game.check_options(given))
        except ValueError as exc:
            options.fail(None, str(exc))
        simulate = r.integer("simulate", 1, 2**60)
        stream = r.integer("stream", 0, 2**64 - 1)
        title = r.get("title", str, name)
        r.done()
        out.append(GameSection(_key("game", name, seen), name, title, variant, tuple(sorted(given.items())),
                               simulate, stream, strategy))
    return tuple(out)


def _slots(plan: _Reader, seen: dict) -> tuple:
    out = []
    for r in plan.tables("slots"):
        model = r.file("model")
        simulate = r.integer("simulate", 1, 2**64 - 1)
        stream = r.integer("stream", 0, 2**64 - 1)
        title = r.get("title", str, model.stem)
        r.done()
        out.append(SlotSection(_key("slot", model.stem, seen), model, title, simulate, stream))
    return tuple(out)


def _rounds(plan: _Reader, seen: dict) -> tuple:
    from harness.rounds import RoundError, script
    from harness.rounds.table import rules_for

    out = []
    for r in plan.tables("rounds"):
        name = r.get("game", str, required=True)
        game = name
        family, colon, model = name.partition(":")
        if colon and family == "slot":  # slot:MODEL: the model file, like every path, from the plan's folder
            path = pathlib.Path(model)
            game = f"slot:{path if path.is_absolute() else plan.path.parent / path}"
        variant = r.get("variant", str)
        try:
            rules = rules_for(game, variant)
        except RoundError as exc:
            r.fail("game", str(exc))
        options = r.table_of("options")
        try:
            given = rules.check_options(options.table)
            options.used.update(options.table)
        except RoundError as exc:
            options.fail(None, str(exc))
        bets = r.file("bets")
        try:
            script.parse(bets, rules, options=given)
        except RoundError as exc:
            r.fail("bets", str(exc))
        rounds = r.integer("rounds", 1, 10_000, default=10)
        stream = r.integer("stream", 0, 2**64 - 1)
        title = r.get("title", str, f"{name} rounds: faults and recovery")
        r.done()
        out.append(RoundsSection(_key("rounds", name, seen), game, bets, title, variant,
                                 tuple(sorted(given.items())), rounds, stream))
    return tuple(out)


def load_plan(path) -> Plan:
    """Read and check the plan at ``path``.

    Raises
    ------
    PlanError
        One line naming the file, the key and what is wrong.
    """
    from harness.slot.profiles import PROFILE_NAMES

    path = pathlib.Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PlanError(f"{path}: cannot read the plan: {exc.strerror or exc}") from None
    try:
        table = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PlanError(f"{path.name}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"{path.name}: not valid TOML: {exc}") from None
    r = _Reader(path, table)
    fmt = r.integer("format", 1, default=FORMAT)
    if fmt != FORMAT:
        r.fail("format", f"this rngcert reads plan format {FORMAT}, got {fmt}")
    title = r.get("title", str, path.stem)
    jurisdiction = r.table_of("jurisdiction")
    profiles = jurisdiction.get("profiles", list, ["jp"])
    if not profiles:
        jurisdiction.fail("profiles", "name at least one profile")
    for profile in profiles:
        if profile not in PROFILE_NAMES:
            jurisdiction.fail("profiles", f"{profile!r} is not a profile; valid: {', '.join(PROFILE_NAMES)}")
    jurisdiction.done()
    engine = _engine(r)
    statistics = _statistics(r)
    selftest = r.get("selftest", bool, True)
    seen: dict = {}
    devices, games, slots = _devices(r, seen), _games(r, seen, path), _slots(r, seen)
    rounds = _rounds(r, seen)
    r.done()
    if not (devices or games or slots or rounds or selftest):
        raise PlanError(f"{path.name}: the plan certifies nothing (no devices, games, slots, rounds or selftest)")
    return Plan(path, hashlib.sha256(raw).hexdigest(), title, tuple(dict.fromkeys(profiles)), engine, statistics,
                devices, games, slots, selftest, rounds)


__all__ = ["Plan", "PlanError", "Engine", "Statistics", "DeviceSection", "GameSection", "SlotSection", "RoundsSection",
           "load_plan", "FORMAT", "PROCEDURES"]
