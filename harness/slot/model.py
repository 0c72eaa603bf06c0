"""Read and validate a slot game model (TOML, see ``docs/slot_model.md``).

The model is data: window, bet, paylines (or ways: symbols on adjacent
reels, paid by the ways rule of :mod:`harness.slot.ways_rule`), symbols with their pays, reel strips, an
optional free-spins feature and an optional progressive jackpot.
Everything a player can be paid is an integer number of credits; the only
non-integer quantity, the progressive's contribution rate, is an exact
:class:`fractions.Fraction`.  Every problem is reported as a
:class:`~harness.slot.errors.ModelError` naming its place in the file; the
numbering the user sees (reels, rows, strip positions, paylines) starts at 1.

Money is bounded: every amount (bet per line, total bet, pay, multiplier,
reset) and the largest possible win of one play are at most
:data:`MAX_PLAY_WIN` credits, so the C simulation's per-chunk totals (2^20
plays) stay below 2^56, far inside its 64-bit integers.  Retriggered free
spins have no fixed upper bound; the simulation checks its sums for overflow
and refuses rather than wrap.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import pathlib
import re
import tomllib
from fractions import Fraction
from collections.abc import Sequence
from typing import Any, BinaryIO, Mapping

from harness.slot.bonus import KINDS as BONUS_KINDS
from harness.slot.bonus import MAX_PICK_ITEMS, Bonus, PickItem, top_award
from harness.slot.errors import ModelError, listed, shown
from harness.slot.limits import (
    MAX_DIGITS,
    MAX_FREE_SPINS,
    MAX_LADDER,
    MAX_MODEL_BYTES,
    MAX_HEIGHT_WAYS,
    MAX_NAME,
    MAX_PAYLINES,
    MAX_PLAY_WIN,
    MAX_REEL_STOPS,
    MAX_REELS,
    MAX_ROWS,
    MAX_SCATTER_CELLS,
    MAX_SYMBOLS,
)

KINDS = ("regular", "wild", "scatter")
WILD_COMBINE = ("multiply", "add")
MAX_WILD_MULTIPLIER = 1000  # x per wild: a combination's multiplier stays small enough to tabulate
_MONEY_LIMIT = f"2**36 = {MAX_PLAY_WIN:,} credits"
_MONEY_WHY = "so that simulation totals stay exact in 64-bit integers"
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*")
_COUNT = re.compile(r"[0-9]{1,6}")
# ASCII digits only: str.isdigit() and \d also take "²" and other scripts' digits.
_DECIMAL = re.compile(r"\s*([0-9]+)(?:\.([0-9]+))?\s*")
_RATIO = re.compile(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*")


@dataclasses.dataclass(frozen=True)
class Symbol:
    """One symbol of the game.

    ``pays`` maps a count to a pay: for ``regular`` and ``wild`` symbols the
    count is the length of a left-to-right run on a payline and the pay is a
    multiple of the bet per line; for the ``scatter`` the count is the number
    shown anywhere in the window and the pay is a multiple of the total bet.
    ``substitutes`` (wilds only) lists the regular symbols the wild stands in
    for on a payline; ``multiplier`` (wilds only) multiplies the pay of every
    line combination the wild is part of (see ``SlotModel.wild_multipliers``).
    """

    name: str
    kind: str
    pays: Mapping[int, int]
    substitutes: frozenset[str] = frozenset()
    multiplier: int = 1
    expanding: bool = False  # wilds only: covers its whole reel when it lands (scatters still count)
    sticky: bool = False  # wilds only: stays where it lands for the rest of the free spins (harness.slot.sticky)


@dataclasses.dataclass(frozen=True)
class FreeSpins:
    """Free spins awarded by scatter counts.

    ``spins[n]`` free spins are awarded by ``n`` of the trigger scatter
    ``scatter`` (a symbol index) in the base game (a count above every key
    uses the largest key below it); ``retrigger`` is the same table during
    the free spins (empty: no retriggers).  Every win in a free spin is
    multiplied by ``multiplier``.  Free spins are played at the triggering
    bet on ``feature`` strips.
    """

    spins: Mapping[int, int]
    retrigger: Mapping[int, int]
    multiplier: int
    scatter: int = -1  # the trigger scatter's symbol index (set by the loader)
    max_spins: int | None = None  # sticky wilds with retriggers: the most spins one session plays (harness.slot.sticky)


@dataclasses.dataclass(frozen=True)
class HoldAndSpin:
    """The hold-and-spin feature (:mod:`harness.slot.hold_spin`).

    ``symbol`` (a scatter's index) is the coin; ``trigger`` coins in the
    paid spin's window start it; ``land`` is the probability that an empty
    position lands a coin in one respin; ``values`` maps a coin value
    (a multiple of the total bet) to its weight; ``grand`` is added when
    every position is locked.
    """

    symbol: int
    trigger: int
    respins: int
    land: Fraction
    values: Mapping[int, int]
    grand: int


@dataclasses.dataclass(frozen=True)
class Progressive:
    """A progressive jackpot won by ``count`` × ``symbol`` on a played line.

    ``contribution`` is the share of each total bet added to the meter;
    ``reset`` the meter's value (credits) after a hit.  ``wilds``: whether
    wilds that substitute for ``symbol`` count towards the combination.
    """

    symbol: str
    count: int
    wilds: bool
    contribution: Fraction
    reset: int


@dataclasses.dataclass(frozen=True)
class MysteryLevel:
    """One level of a mystery progressive (:mod:`harness.slot.progressive`).

    Every play hits exactly one level, or none, independently of its reels:
    this level with ``probability``.  ``contribution`` is the share of each
    total bet added to its meter; ``reset`` its value (credits) after a hit.
    """

    name: str
    probability: Fraction
    contribution: Fraction
    reset: int


MAX_MYSTERY_LEVELS = 8


@dataclasses.dataclass(frozen=True)
class JackpotLevel:
    """One level of a multi-level progressive won by a symbol combination (:mod:`harness.slot.jackpot`).

    ``on = "scatter"``: ``count`` or more of the jackpot scatter ``symbol``
    (an index) in the paid spin's window win this level, unless they reach a
    higher scatter level's count.  ``on = "line"``: ``count`` or more of the
    jackpot line ``symbol`` from reel 1 on a played payline of the paid spin
    (substituting wilds too if ``wilds``), unless some payline reaches a
    higher line level's count.  A play wins one level of each kind at most.
    ``contribution`` and ``reset`` as for :class:`MysteryLevel`.
    """

    name: str
    symbol: int
    count: int
    contribution: Fraction
    reset: int
    on: str = "scatter"
    wilds: bool = False


@dataclasses.dataclass(frozen=True)
class Cascade:
    """The ``[cascade]`` section (solved by :mod:`harness.slot.cascade`).

    ``refill[r]``: the refill strip of reel ``r`` (symbol indices);
    ``ladder[k]``: the multiplier of the ``k``-th window of a play (the last one repeats).
    """

    refill: tuple[tuple[int, ...], ...]
    ladder: tuple[int, ...] = (1,)

    def rung(self, k: int) -> int:
        return min(k, len(self.ladder) - 1)


@dataclasses.dataclass(frozen=True)
class SlotModel:
    """A validated game model (0-based rows and symbol indices inside)."""

    name: str
    rows: int
    reels: int
    bet_per_line: int
    paylines: Sequence[tuple[int, ...]]  # a tuple; every path of the window (WayPaths) for a ways game
    symbols: tuple[Symbol, ...]
    base_strips: tuple[tuple[int, ...], ...]
    feature_strips: tuple[tuple[int, ...], ...]
    free_spins: FreeSpins | None
    progressive: Progressive | None
    source: str | None = None
    ways: bool = False  # a ways game: ``paylines`` are every row path (their number sets the bet), paid by harness.slot.ways_rule
    # Stop weights (virtual reels): ``base_weights[r][p]`` is how many of reel r's
    # equally likely virtual stops land on physical stop p; None: every stop weighs 1.
    base_weights: tuple[tuple[int, ...], ...] | None = None
    feature_weights: tuple[tuple[int, ...], ...] | None = None
    # How the multipliers of several wilds in one combination combine: "multiply" or "add".
    wild_multipliers: str = "multiply"
    # The bets the machine offers, as multiples of bet_per_line (1 = the model's bet).
    bet_levels: tuple[int, ...] = (1,)
    hold_and_spin: HoldAndSpin | None = None
    bonus: Bonus | None = None  # a wheel or pick bonus started by the paid spin (harness.slot.bonus)
    mystery: tuple[MysteryLevel, ...] = ()  # mystery progressive levels, hit independently of the reels
    cap: int | None = None  # the most one play pays, x total bet (progressives outside it; harness.slot.cap)
    cascade: Cascade | None = None  # winning symbols removed and refilled (harness.slot.cascade)
    both_ways: bool = False  # every line also paid right to left (harness.slot.both_ways)
    # Reel heights drawn per spin (harness.slot.heights): per reel, (height, weight) pairs; ``rows`` the tallest.
    heights: tuple[tuple[tuple[int, int], ...], ...] | None = None
    stake: int | None = None  # bet.total: the credits staked per play whatever the ways (with heights)
    jackpots: tuple[JackpotLevel, ...] = ()  # progressive levels won by counts of a symbol (harness.slot.jackpot)

    def combination_multiplier(self, symbols) -> int:
        """The multiplier of a line combination made of ``symbols`` (indices, reel 1 first).

        ``multiply``: the product of the multipliers of the wilds among them;
        ``add``: their sum, counting only wilds with a multiplier above 1.
        Either is 1 when no such wild is among them.
        """
        ms = [self.symbols[x].multiplier for x in symbols if self.symbols[x].multiplier > 1]
        if not ms:
            return 1
        return sum(ms) if self.wild_multipliers == "add" else math.prod(ms)

    @property
    def top_multiplier(self) -> int:
        """The largest multiplier a combination of ``reels`` symbols can have."""
        top = max((s.multiplier for s in self.symbols), default=1)
        if top == 1:
            return 1
        return top * self.reels if self.wild_multipliers == "add" else top ** self.reels

    def stop_totals(self, feature: bool = False) -> tuple[int, ...]:
        """Equally likely (virtual) stops of each reel: the strip length, or its total weight."""
        strips, weights = ((self.feature_strips, self.feature_weights) if feature
                           else (self.base_strips, self.base_weights))
        return tuple(len(s) for s in strips) if weights is None else tuple(sum(w) for w in weights)

    @property
    def total_bet(self) -> int:
        """Credits staked per play: bet per line (per way) × paylines (ways) played, or the stated stake."""
        return self.stake if self.stake is not None else self.bet_per_line * len(self.paylines)

    @property
    def line_word(self) -> str:
        """What one evaluated path is called in messages: "payline" or "way"."""
        return "way" if self.ways else "payline"

    @property
    def symbol_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.symbols)

    def symbol_index(self, name: str) -> int:
        return self.symbol_names.index(name)

    @property
    def scatter(self) -> int | None:
        """Index of the first scatter symbol, or None (:attr:`scatters` lists them all)."""
        return self.scatters[0] if self.scatters else None

    @property
    def scatters(self) -> tuple[int, ...]:
        """Indices of the scatter symbols, in the order they are listed."""
        return tuple(i for i, s in enumerate(self.symbols) if s.kind == "scatter")

    @property
    def max_scatter(self) -> int:
        """Most scatters of one symbol a window can show."""
        return self.rows * self.reels

    @property
    def expanding(self) -> tuple[int, ...]:
        """Indices of the expanding wilds, in the order they are listed (the first wins a column)."""
        return tuple(i for i, s in enumerate(self.symbols) if s.expanding)

    @functools.cached_property
    def scatter_code(self) -> "ScatterCode":
        """How the joint scatter counts of a column or window are numbered (one cell index)."""
        return ScatterCode.of(self)

    @functools.cached_property
    def scatter_awards(self) -> "ScatterAwards":
        """What each scatter count awards (the one table the analysis and both players read)."""
        return ScatterAwards.of(self)


def award_for(table: Mapping[int, int], count: int) -> int:
    """The award listed for the largest count <= ``count`` (0 if none)."""
    best = 0
    for k, v in table.items():
        if k <= count:
            best = v
    return best


@dataclasses.dataclass(frozen=True)
class ScatterCode:
    """The joint counts of several scatter symbols as one cell index.

    Scatter ``i`` (``symbols[i]`` a symbol index) counts in digit ``i`` of a
    mixed-radix number with radices ``radix``: a column (or window) showing
    ``n_i`` of scatter ``i`` has cell ``sum_i n_i * place[i]``.  No digit can
    overflow (``radix[i]`` exceeds the most that scatter can show in a
    window), so the cell of a window is the SUM of its columns' cells: the
    joint programme, the convolution over reels and both players add cells
    as they added a single scatter count, and every table indexed by the
    count is indexed by the cell.  One scatter: ``radix = rows x reels + 1``
    and the cell is the count itself.  Several: each radix is one more than
    the most that scatter can show on the strips (base and feature), which
    keeps the tables small.
    """

    symbols: tuple[int, ...]
    radix: tuple[int, ...]

    @classmethod
    def of(cls, model: SlotModel) -> "ScatterCode":
        scatters = model.scatters
        if len(scatters) <= 1 or model.cascade is not None:  # refills may fill the window with any scatter
            return cls(symbols=scatters, radix=(model.max_scatter + 1,) * len(scatters))
        def most(x: int, strips) -> int:  # the most x a window of these strips can show
            return sum(max(sum(strip[(p + h) % len(strip)] == x for h in range(model.rows))
                           for p in range(len(strip))) for strip in strips)

        radix = tuple(max(most(x, model.base_strips), most(x, model.feature_strips)) + 1 for x in scatters)
        return cls(symbols=scatters, radix=radix)

    @property
    def place(self) -> tuple[int, ...]:
        out, value = [], 1
        for r in self.radix:
            out.append(value)
            value *= r
        return tuple(out)

    @property
    def cells(self) -> int:
        """Number of cells a window can reach (1 without scatters)."""
        return math.prod(self.radix)

    def column_max(self, rows: int) -> int:
        """A bound on one column's cell: ``rows`` of every scatter (``rows`` without scatters)."""
        return rows * sum(self.place) if self.symbols else rows

    def width(self, rows: int, reels: int) -> int:
        """Entries of every table indexed by the cell: the window's bound ``reels x column_max``, plus one.

        With one scatter (or none) that is ``rows x reels + 1``, every count;
        with several, the cells at or above :attr:`cells` are never reached.
        """
        return reels * self.column_max(rows) + 1

    def count(self, cell: int, i: int) -> int:
        """Scatter ``i``'s count in ``cell``."""
        return cell // self.place[i] % self.radix[i]


@dataclasses.dataclass(frozen=True)
class ScatterAwards:
    """What a window in scatter cell ``k`` (:class:`ScatterCode`) awards, for every cell.

    Each scatter pays the pay listed for the largest count <= its count
    (:func:`award_for`), and the window's scatter pay is the sum over the
    scatter symbols; free spins follow the count of their trigger scatter.
    All zero without a scatter.

    Attributes
    ----------
    pay : tuple[int, ...]
        ``pay[k]``: the scatter pay, a multiple of the total bet.
    trigger : tuple[int, ...]
        ``trigger[k]``: free spins awarded by the paid spin (0 without free spins).
    retrigger : tuple[int, ...]
        ``retrigger[k]``: free spins awarded by a free spin.
    buckets : tuple[tuple[int, int, int], ...]
        The scatter outcome classes: ``(i, lo, hi)``, count ranges of scatter
        ``i`` (its position in ``code.symbols``) that share one award, one
        starting at every count listed in any of its tables.
    code : ScatterCode
    tables : tuple[tuple[Mapping[int, int], Mapping[int, int], Mapping[int, int]], ...]
        Per scatter: its pays, its free-spin awards and its retrigger awards
        by count (empty for a scatter that triggers nothing).
    """

    pay: tuple[int, ...]
    trigger: tuple[int, ...]
    retrigger: tuple[int, ...]
    buckets: tuple[tuple[int, int, int], ...]
    code: ScatterCode
    tables: tuple = ()

    @classmethod
    def of(cls, model: SlotModel) -> "ScatterAwards":
        code = model.scatter_code
        fsp = model.free_spins
        tables = tuple((model.symbols[x].pays, fsp.spins if fsp and fsp.scatter == x else {},
                        fsp.retrigger if fsp and fsp.scatter == x else {}) for x in code.symbols)
        buckets = []
        for i, (pays, spins, retrigger) in enumerate(tables):
            keys = sorted(set(pays) | set(spins) | set(retrigger))
            ends = [k - 1 for k in keys[1:]] + [model.max_scatter]
            buckets += [(i, lo, hi) for lo, hi in zip(keys, ends)]
        reached = code.cells if code.symbols else 1

        def total(column: int):
            return tuple(sum(award_for(t[column], code.count(k, i)) for i, t in enumerate(tables)) if k < reached
                         else 0 for k in range(code.width(model.rows, model.reels)))

        return cls(pay=total(0), trigger=total(1), retrigger=total(2), buckets=tuple(buckets), code=code,
                   tables=tables)

    @property
    def width(self) -> int:
        """Entries of each table: the cells 0 .. width - 1 (:meth:`ScatterCode.width`)."""
        return len(self.pay)

    def awards(self, i: int, count: int) -> tuple[int, int, int]:
        """(pay, free spins, retriggered spins) that ``count`` of scatter ``i`` awards."""
        return tuple(award_for(t, count) for t in self.tables[i])


# --- reading -----------------------------------------------------------------


def load_model(path: str | pathlib.Path) -> SlotModel:
    """Read and validate a model file.

    Raises
    ------
    ModelError
        If the file cannot be read, is larger than ``MAX_MODEL_BYTES``, is not
        valid TOML (the message gives the line and column), or describes an
        impossible game.
    """
    path = pathlib.Path(path)
    try:
        with path.open("rb") as stream:
            return read_model(stream, source=str(path))
    except OSError as exc:
        raise ModelError("", f"cannot read the model: {exc.strerror or exc}", str(path)) from None


def read_model(stream: BinaryIO, source: str | None = None) -> SlotModel:
    """Read and validate a model from a binary stream (a file, or standard input).

    At most ``MAX_MODEL_BYTES + 1`` bytes are read, so an endless or huge
    stream is refused without being held in memory.
    """
    data = stream.read(MAX_MODEL_BYTES + 1)
    if len(data) > MAX_MODEL_BYTES:
        raise ModelError("", f"the model is larger than {MAX_MODEL_BYTES:,} bytes (docs/slot_model.md, Limits)",
                         source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelError("", f"not UTF-8 text (byte {exc.start})", source) from None
    # Universal newlines, as a file read in text mode has them.
    return parse_model(text.replace("\r\n", "\n").replace("\r", "\n"), source=source)


def parse_model(text: str, source: str | None = None) -> SlotModel:
    """Validate a model given as TOML text (see :func:`load_model`)."""
    data = _toml(text, source)
    try:
        return model_from_dict(data, source=source)
    except ModelError as exc:
        raise exc.with_source(source) if source and not exc.source else exc


def _toml(text: str, source: str | None) -> dict:
    """The TOML document, or the ModelError saying where it is not TOML."""
    if len(text) > MAX_MODEL_BYTES:
        raise ModelError("", f"the model is larger than {MAX_MODEL_BYTES:,} characters (docs/slot_model.md, Limits)",
                         source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModelError("TOML syntax", str(exc), source) from None
    except RecursionError:
        raise ModelError("TOML syntax", "arrays or inline tables nested too deeply to read "
                         "(a valid model nests them only a few levels deep)", source) from None
    except ValueError:  # tomllib's int() of a literal beyond Python's int-string limit
        long_number = re.search(r"[0-9][0-9_]{999,}", text)
        at = f" at line {text.count(chr(10), 0, long_number.start()) + 1}" if long_number else ""
        raise ModelError("TOML syntax", f"a number{at} has too many digits to read; "
                         f"amounts in a model are at most {_MONEY_LIMIT}", source) from None


def model_from_dict(data: Mapping[str, Any], source: str | None = None) -> SlotModel:
    """Validate a model given as the dictionary its TOML parses to."""
    _known(data, "top level", {"name", "window", "bet", "symbols", "reels", "free_spins", "progressive",
                               "wild_multipliers", "hold_and_spin", "bonus", "mystery", "cap", "cascade",
                               "jackpot"})
    combine = data.get("wild_multipliers", "multiply")
    if combine not in WILD_COMBINE:
        raise ModelError("wild_multipliers", f"must be one of {', '.join(map(repr, WILD_COMBINE))}: how the "
                         f"multipliers of several wilds in one combination combine, got {shown(combine)}")
    name = data.get("name", "unnamed game")
    if not isinstance(name, str):
        raise ModelError("name", f"must be a string, got {shown(name)}")

    window = _table(data, "window", "top level")
    _known(window, "window", {"rows", "reels", "heights"})
    rows = _int(window, "rows", "window", low=1, high=MAX_ROWS)
    reels = _int(window, "reels", "window", low=1, high=MAX_REELS)
    heights = _heights(window, rows, reels) if "heights" in window else None

    bet = _table(data, "bet", "top level")
    _known(bet, "bet", {"per_line", "paylines", "ways", "per_way", "levels", "both_ways", "total"})
    stake = _stake(bet, heights)
    ways = "ways" in bet
    if ways:
        bet_key, unit = "per_way", "ways"
        paylines = _ways(bet, rows, reels, MAX_PAYLINES if heights is None else MAX_HEIGHT_WAYS)
    else:
        bet_key, unit = "per_line", "paylines"
        paylines = _paylines(bet, rows, reels)
    bet_per_line = _int(bet, bet_key, "bet", low=1, high=MAX_PLAY_WIN, why=_MONEY_WHY)
    if stake is None and bet_per_line * len(paylines) > MAX_PLAY_WIN:
        raise ModelError("bet", f"total bet = {bet_key} {bet_per_line:,} x {len(paylines)} {unit} = "
                         f"{bet_per_line * len(paylines):,} credits exceeds the limit {_MONEY_LIMIT}, {_MONEY_WHY}")
    symbols = _symbols(data, reels, rows)
    names = [s.name for s in symbols]

    reels_table = _table(data, "reels", "top level")
    _known(reels_table, "reels", {"base", "feature", "base_weights", "feature_weights"})
    base = _strips(reels_table, "base", names, reels)
    feature = _strips(reels_table, "feature", names, reels) if "feature" in reels_table else base
    base_weights = _weights(reels_table, "base_weights", base)
    feature_weights = (_weights(reels_table, "feature_weights", feature) if "feature_weights" in reels_table
                       else None if "feature" in reels_table else base_weights)

    free_spins = _free_spins(data, symbols, rows, reels) if "free_spins" in data else None
    for key in ("feature", "feature_weights"):
        if key in reels_table and free_spins is None:
            raise ModelError(f"reels.{key}", f"{key.replace('_', ' ')} are given but there is no [free_spins] "
                             "section to use them")
    progressive = _progressive(data, symbols, reels) if "progressive" in data else None

    model = SlotModel(
        name=name,
        rows=rows,
        reels=reels,
        bet_per_line=bet_per_line,
        paylines=paylines,
        symbols=tuple(symbols),
        base_strips=base,
        feature_strips=feature,
        free_spins=free_spins,
        progressive=progressive,
        source=source,
        ways=ways,
        base_weights=base_weights,
        feature_weights=feature_weights,
        wild_multipliers=combine,
        bet_levels=_levels(bet),
        hold_and_spin=_hold_and_spin(data, symbols, rows * reels) if "hold_and_spin" in data else None,
        bonus=_bonus(data, symbols, rows * reels) if "bonus" in data else None,
        mystery=_mystery(data) if "mystery" in data else (),
        cap=_cap(data) if "cap" in data else None,
        cascade=_cascade(data, names, reels) if "cascade" in data else None,
        jackpots=_jackpots(data, symbols, rows * reels, reels) if "jackpot" in data else (),
        both_ways=_flag(bet, "both_ways", "bet"),
        heights=heights,
        stake=stake,
    )
    if model.cascade is not None:
        _check_cascade(model)
    if model.both_ways:
        # a ways game's free spins are stages of the ways programme, which reads both ways; a payline
        # game paid both ways is read window by window, with nothing beside it
        _check_alone(model, "bet.both_ways", "a both-ways game", "Both-ways pays",
                     frozenset({"free_spins"}) if model.ways else frozenset())
        sticky = [s.name for s in model.symbols if s.sticky]
        if sticky:
            raise ModelError(f"symbols.{sticky[0]}.sticky", "a both-ways game has no sticky wilds (not supported "
                             "together; docs/slot_model.md, Both-ways pays)")
    if model.heights is not None:
        # with [cascade] too: each reel keeps its drawn height through the refills (docs/slot_model.md,
        # "Cascades with reel heights"); free spins go with heights, not with heights and cascades together
        _check_alone(model, "window.heights", "a game with reel heights per spin", "Reel heights per spin",
                     frozenset() if model.cascade is not None else _WITH_HEIGHTS)
        sticky = [s.name for s in model.symbols if s.sticky]
        if sticky:
            raise ModelError(f"symbols.{sticky[0]}.sticky", "a game with reel heights per spin has no sticky "
                             "wilds (a wild would have to keep its cell while the heights change; not supported "
                             "together; docs/slot_model.md, Reel heights per spin)")
    if model.jackpots and model.progressive is not None:
        raise ModelError("jackpot", "jackpot levels and [progressive] in one model are not supported together "
                         "(docs/slot_model.md, Jackpot levels)")
    if any(s.sticky for s in model.symbols):
        _check_sticky(model)
    if model.free_spins is not None:
        _check_max_spins(model)
    if model.cap is not None:
        _check_cap(model)
    if model.bonus is not None and model.hold_and_spin is not None:
        raise ModelError("bonus", "a model has a [bonus] or a [hold_and_spin] feature, not both "
                         "(docs/slot_model.md, Limitations)")
    code = model.scatter_code
    if code.cells > MAX_SCATTER_CELLS:
        raise ModelError("symbols", f"{len(code.symbols)} scatter symbols can show "
                         f"{' x '.join(str(r) for r in code.radix)} = {code.cells:,} joint counts, more than the "
                         f"{MAX_SCATTER_CELLS:,} the exact analysis tabulates (docs/slot_model.md, Limits)")
    _check_largest_win(model)
    return model


def largest_play_win(model: SlotModel) -> tuple[int, list[str]]:
    """An upper bound on the credits one play can win, without retriggers,
    and the terms it is made of (for messages).

    Every payline showing the largest line pay, the largest scatter award,
    the most free spins one trigger awards (each at that win, times the
    multiplier) and the progressive's reset.
    """
    bpl, n_lines, tb = model.bet_per_line, len(model.paylines), model.total_bet
    line_pays = [(p, s.name) for s in model.symbols if s.kind != "scatter" for p in s.pays.values()]
    top_line, top_name = max(line_pays, default=(0, None))
    top_line *= model.top_multiplier  # every wild of the line at the top multiplier
    top_scatter = sum(max(model.symbols[x].pays.values(), default=0) for x in model.scatters)
    spin = n_lines * top_line * bpl + top_scatter * tb
    terms = []
    if top_line:
        bet_key = "per_way" if model.ways else "per_line"
        times = f" x wild multipliers {model.top_multiplier:,}" if model.top_multiplier > 1 else ""
        terms.append(f"{n_lines} {model.line_word}s x {top_line // model.top_multiplier:,} (symbols.{top_name}.pays)"
                     f"{times} x {bpl:,} (bet.{bet_key})")
    if top_scatter:
        names = " + ".join(f"symbols.{model.symbols[x].name}.pays" for x in model.scatters
                           if model.symbols[x].pays)
        terms.append(f"{top_scatter:,} ({names}) x {tb:,} (total bet)")
    total = spin
    fsp = model.free_spins
    if fsp is not None and spin:
        spins = max(fsp.spins.values())
        total += spins * fsp.multiplier * spin
        terms.append(f"{spins:,} (free_spins.spins) x {fsp.multiplier:,} (free_spins.multiplier) x {spin:,} (that spin win)")
    hold = model.hold_and_spin
    if hold is not None:
        top = (model.rows * model.reels * max(v for v, w in hold.values.items() if w) + hold.grand) * tb
        total += top
        terms.append(f"{model.rows * model.reels} coins x the top coin value (hold_and_spin.values) "
                     f"+ hold_and_spin.grand, x {tb:,} (total bet) = {top:,}")
    if model.bonus is not None:
        top = top_award(model.bonus) * tb
        total += top
        terms.append(f"{top_award(model.bonus):,} (the top {model.bonus.kind} award, bonus) x {tb:,} (total bet)")
    if model.jackpots:
        # one level of each kind (scatter, line) at most per play
        top = sum(max((lv.reset for lv in model.jackpots if lv.on == on), default=0) for on in ("scatter", "line"))
        total += top
        terms.append(f"{top:,} (the largest jackpot reset of each kind)")
    if model.mystery:
        top = max(level.reset for level in model.mystery)  # one level at most per play
        total += top
        terms.append(f"{top:,} (the largest mystery reset)")
    if model.progressive is not None and model.progressive.reset:
        total += model.progressive.reset
        terms.append(f"{model.progressive.reset:,} (progressive.reset)")
    return total, terms


def _check_largest_win(model: SlotModel) -> None:
    total, terms = largest_play_win(model)
    top = max(model.bet_levels)
    if top > 1 and total * top > MAX_PLAY_WIN:
        raise ModelError("bet.levels", f"at bet level {top:,} the largest win of one play would be {top:,} x "
                         f"{total:,} = {total * top:,} credits, beyond the limit {_MONEY_LIMIT}, {_MONEY_WHY}")
    if total > MAX_PLAY_WIN:
        raise ModelError(
            "largest win of one play",
            f"{' + '.join(terms)} = {total:,} credits exceeds the limit {_MONEY_LIMIT}, {_MONEY_WHY}; "
            "lower bet.per_line, the pays, free_spins.spins or .multiplier, or progressive.reset",
        )


# --- sections -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class WayPaths(Sequence):
    """Every row path of a ``rows x reels`` window, reel 1 first, in ``itertools.product`` order.

    A ways game's paths, computed when read rather than listed: their number
    is the ways bet (a game with reel heights may have 117,649); the game is
    paid by the ways rule (:mod:`harness.slot.ways_rule`), never path by path.
    """

    rows: int
    reels: int

    def __len__(self) -> int:
        return self.rows ** self.reels

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        i %= n
        out = []
        for _ in range(self.reels):
            i, row = divmod(i, self.rows)
            out.append(row)
        return tuple(reversed(out))

    def __iter__(self):
        return itertools.product(range(self.rows), repeat=self.reels)


def _ways(bet, rows: int, reels: int, limit: int) -> Sequence[tuple[int, ...]]:
    """Every row path of the window, reel 1 first: a ways game's bet is one ``per_way`` on each.

    ``limit``: the most ways; a game with reel heights per spin may have more
    than the C kernels' paylines, as its analysis never reads them one by one.
    """
    if "paylines" in bet:
        raise ModelError("bet", "a ways game pays symbols on adjacent reels, so it has no paylines: "
                         "give 'ways' or 'paylines', not both")
    if "per_line" in bet:
        raise ModelError("bet.per_line", "a ways game is bet per way: write per_way instead")
    value = bet["ways"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError("bet.ways", f"must be a whole number (rows^reels, e.g. 243 = 3^5), got {shown(value)}")
    if value != rows ** reels:
        raise ModelError("bet.ways", f"{value:,} ways, but a window of {rows} rows x {reels} reels has "
                         f"{rows}^{reels} = {rows ** reels:,} paths; ways = {rows ** reels:,}")
    if value > limit:
        raise ModelError("bet.ways", f"{value:,} ways; at most {limit:,} are supported "
                         "(docs/slot_model.md, Limits)")
    if "per_way" not in bet:
        raise ModelError("bet", "missing 'per_way': the credits bet on each way")
    paths = WayPaths(rows, reels)
    return paths if value > MAX_PAYLINES else tuple(paths)  # the listed tuple the C kernels read, as before


MAX_BET_LEVELS = 100


def _heights(window, rows: int, reels: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``heights``: per reel a table ``{ height = weight }``, heights 1..rows (``rows`` is the tallest)."""
    value = window["heights"]
    if not isinstance(value, list) or len(value) != reels:
        raise ModelError("window.heights", f"must list one table of height weights per reel ({reels}), such as "
                         f"{{ 2 = 1, 3 = 2 }}, got {shown(value)}")
    out = []
    for r, table in enumerate(value, start=1):
        where = f"window.heights, reel {r}"
        weights = _value_weights(table, where, "height", "{ 2 = 1, 3 = 2, 4 = 1 }", "the reel has no height",
                                 unit="rows shown")
        for h in weights:
            if not 1 <= h <= rows:
                raise ModelError(where, f"height {h} is impossible: heights run from 1 to window.rows = {rows}")
        out.append(tuple(sorted(weights.items())))
    return tuple(out)


def _stake(bet, heights) -> int | None:
    """``bet.total`` (required with reel heights per spin, refused otherwise)."""
    if heights is None:
        if "total" in bet:
            raise ModelError("bet.total", "only a game with reel heights per spin (window.heights) states its "
                             "total bet; otherwise it is the bet per line (way) x the lines (ways)")
        return None
    if "ways" not in bet:
        raise ModelError("bet", "a game with reel heights per spin pays every way: give ways = rows^reels "
                         "(the most ways, every reel at its tallest) and per_way")
    return _int(bet, "total", "bet", low=1, high=MAX_PLAY_WIN, why=_MONEY_WHY)


def _levels(bet) -> tuple[int, ...]:
    """The bet levels offered: whole numbers >= 1 in increasing order (default: the model's bet only)."""
    value = _whole_numbers(bet.get("levels", [1]), "bet.levels", MAX_BET_LEVELS, "bet multipliers such as [1, 2, 5]",
                           MAX_PLAY_WIN, "level {} must be a whole number >= 1 (a multiple of the bet per line)")
    if any(b <= a for a, b in zip(value, value[1:])):
        raise ModelError("bet.levels", f"levels must increase, got {shown(value)}")
    return tuple(value)


def _paylines(bet, rows: int, reels: int) -> tuple[tuple[int, ...], ...]:
    if "per_way" in bet:
        raise ModelError("bet.per_way", "only a ways game (bet.ways) is bet per way; a payline game has per_line")
    if "paylines" not in bet:
        raise ModelError("bet", "missing 'paylines': list the paylines played, one row number per reel, e.g. [[2, 2, 2, 2, 2]]")
    lines = bet["paylines"]
    if not isinstance(lines, list) or not lines:
        raise ModelError("bet.paylines", "must be a non-empty list of paylines")
    if len(lines) > MAX_PAYLINES:
        raise ModelError("bet.paylines", f"{len(lines):,} paylines; at most {MAX_PAYLINES:,} are supported "
                         "(docs/slot_model.md, Limits)")
    seen: dict[tuple[int, ...], int] = {}
    out = []
    for i, line in enumerate(lines, start=1):
        where = f"bet.paylines, line {i}"
        if not isinstance(line, list) or len(line) != reels:
            raise ModelError(where, f"must list one row number for each of the {reels} reels, got {shown(line)}")
        for r, row in enumerate(line, start=1):
            if isinstance(row, bool) or not isinstance(row, int):
                raise ModelError(where, f"reel {r}: row must be a whole number, got {shown(row)}")
            if not 1 <= row <= rows:
                raise ModelError(where, f"reel {r} points at row {row}, but the window has {rows} rows (1..{rows})")
        key = tuple(row - 1 for row in line)
        if key in seen:
            raise ModelError(where, f"is the same as line {seen[key]}")
        seen[key] = i
        out.append(key)
    return tuple(out)


def _symbols(data, reels: int, rows: int) -> list[Symbol]:
    table = _table(data, "symbols", "top level")
    if not table:
        raise ModelError("symbols", "no symbols defined")
    if len(table) > MAX_SYMBOLS:
        raise ModelError("symbols", f"at most {MAX_SYMBOLS} symbols are supported, got {len(table)}")
    raw = {}
    for name, spec in table.items():
        where = f"symbols.{name}"
        if not _NAME.fullmatch(name) or len(name) > MAX_NAME:
            raise ModelError(f"symbols.{shown(name)}", f"symbol names are 1 to {MAX_NAME} letters, digits "
                             "and _ . + - (no spaces)")
        if not isinstance(spec, dict):
            raise ModelError(where, f"must be a table like {{ kind = \"regular\", pays = {{ 3 = 5 }} }}, got {shown(spec)}")
        _known(spec, where, {"kind", "pays", "substitutes", "multiplier", "expanding", "sticky"})
        kind = spec.get("kind", "regular")
        if kind not in KINDS:
            raise ModelError(f"{where}.kind", f"unknown kind {shown(kind)}; valid kinds: {', '.join(KINDS)}")
        raw[name] = (kind, spec)
    regular = [n for n, (k, _) in raw.items() if k == "regular"]
    out = []
    for name, (kind, spec) in raw.items():
        where = f"symbols.{name}"
        max_count = rows * reels if kind == "scatter" else reels
        what = "scatters in the window" if kind == "scatter" else f"of a kind on {reels} reels"
        pays = _count_table(spec.get("pays", {}), f"{where}.pays", max_count, what, "pay",
                            high=MAX_PLAY_WIN, why=_MONEY_WHY)
        subs: frozenset[str] = frozenset()
        if kind == "wild":
            value = spec.get("substitutes", "all")
            if value == "all":
                subs = frozenset(regular)
            elif isinstance(value, list) and all(isinstance(v, str) for v in value):
                for v in value:
                    if v not in raw:
                        raise ModelError(f"{where}.substitutes", f"unknown symbol {shown(v)}; symbols are: {listed(raw)}")
                    if raw[v][0] != "regular":
                        raise ModelError(f"{where}.substitutes", f"{shown(v)} is a {raw[v][0]}; wilds substitute for regular symbols only")
                subs = frozenset(value)
            else:
                raise ModelError(f"{where}.substitutes", f'must be "all" or a list of regular symbol names, got {shown(value)}')
        elif "substitutes" in spec:
            raise ModelError(f"{where}.substitutes", "only a wild substitutes for other symbols")
        if "multiplier" in spec and kind != "wild":
            raise ModelError(f"{where}.multiplier", "only a wild multiplies the combinations it is part of")
        multiplier = _int(spec, "multiplier", where, low=1, high=MAX_WILD_MULTIPLIER, default=1)
        out.append(Symbol(name=name, kind=kind, pays=pays, substitutes=subs, multiplier=multiplier,
                          expanding=_wild_flag(spec, where, "expanding", kind, "only a wild expands over its reel"),
                          sticky=_wild_flag(spec, where, "sticky", kind, "only a wild sticks in the free spins")))
    return out


def _flag(table, key: str, where: str) -> bool:
    """An optional true/false key (false when absent)."""
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ModelError(f"{where}.{key}", f"must be true or false, got {shown(value)}")
    return value


def _wild_flag(spec, where: str, key: str, kind: str, only: str) -> bool:
    """A true/false property that only a wild may have (``expanding``, ``sticky``)."""
    value = _flag(spec, key, where)
    if value and kind != "wild":
        raise ModelError(f"{where}.{key}", only)
    return value


def _strips(table, key: str, names: list[str], reels: int, section: str = "reels") -> tuple[tuple[int, ...], ...]:
    where = f"{section}.{key}"
    strips = table.get(key)
    if strips is None:
        raise ModelError(where, f"missing: give one strip (list of symbol names) for each of the {reels} reels")
    if not isinstance(strips, list) or len(strips) != reels:
        count = len(strips) if isinstance(strips, list) else type(strips).__name__
        raise ModelError(where, f"must list exactly {reels} reel strips (one per reel), got {count}")
    index = {n: i for i, n in enumerate(names)}
    out = []
    for r, strip in enumerate(strips, start=1):
        if isinstance(strip, str):
            strip = strip.split(None, MAX_REEL_STOPS)  # one past the limit is enough to refuse
        if not isinstance(strip, list):
            raise ModelError(f"{where}: reel {r}", f"must be a list of symbol names or a string of names, "
                             f"got {shown(strip)}")
        if not strip:
            raise ModelError(f"{where}: reel {r}", "is empty; a reel needs at least one stop")
        if len(strip) > MAX_REEL_STOPS:
            raise ModelError(f"{where}: reel {r}", f"has more than {MAX_REEL_STOPS:,} stops, the limit "
                             "(docs/slot_model.md, Limits)")
        row = []
        for p, sym in enumerate(strip, start=1):
            if not isinstance(sym, str) or sym not in index:
                raise ModelError(
                    f"{where}: reel {r}, position {p}",
                    f"unknown symbol {shown(sym)}; symbols are: {listed(names)}",
                )
            row.append(index[sym])
        out.append(tuple(row))
    return tuple(out)


def _weights(table, key: str, strips) -> tuple[tuple[int, ...], ...] | None:
    """Stop weights: one list of whole numbers >= 0 per reel, one per stop of its strip.

    A reel's weights are its virtual reel: a total of ``sum(weights)``
    equally likely virtual stops, ``weights[p]`` of them landing on physical
    stop ``p``; the total is limited like a strip's length.
    """
    if key not in table:
        return None
    where = f"reels.{key}"
    value = table[key]
    if not isinstance(value, list) or len(value) != len(strips):
        count = len(value) if isinstance(value, list) else type(value).__name__
        raise ModelError(where, f"must list exactly {len(strips)} lists of stop weights (one per reel), got {count}")
    out = []
    for r, (weights, strip) in enumerate(zip(value, strips), start=1):
        if not isinstance(weights, list) or len(weights) != len(strip):
            size = len(weights) if isinstance(weights, list) else shown(weights)
            raise ModelError(f"{where}: reel {r}", f"must give one weight for each of the reel's {len(strip)} stops, "
                             f"got {size}")
        for p, w in enumerate(weights, start=1):
            if isinstance(w, bool) or not isinstance(w, int) or w < 0:
                raise ModelError(f"{where}: reel {r}, position {p}", f"a stop weight is a whole number >= 0, got {shown(w)}")
        total = sum(weights)
        if total == 0:
            raise ModelError(f"{where}: reel {r}", "the weights sum to 0, so the reel can never stop")
        if total > MAX_REEL_STOPS:
            raise ModelError(f"{where}: reel {r}", f"the weights sum to {total:,}, more than the {MAX_REEL_STOPS:,} "
                             "virtual stops a reel may have (docs/slot_model.md, Limits)")
        out.append(tuple(weights))
    return tuple(out)


def _scatter_trigger(table, where: str, symbols: list[Symbol], positions: int, what: str,
                     count_key: str = "trigger") -> tuple[int, int]:
    """``symbol`` (a scatter, returned as its index) and ``trigger`` (1..positions) of a feature it starts
    (``count_key``: the count's key in the table)."""
    for key in ("symbol", count_key):
        if key not in table:
            raise ModelError(where, f"missing {key!r}")
    names = [s.name for s in symbols]
    name = table["symbol"]
    if not isinstance(name, str) or name not in names or symbols[names.index(name)].kind != "scatter":
        raise ModelError(f"{where}.symbol", f"{what} a scatter symbol, got {shown(name)}; scatters are: "
                         f"{listed(s.name for s in symbols if s.kind == 'scatter')}")
    return names.index(name), _int(table, count_key, where, low=1, high=positions)


def _hold_and_spin(data, symbols: list[Symbol], positions: int) -> HoldAndSpin:
    where = "hold_and_spin"
    table = _table(data, where, "top level")
    _known(table, where, {"symbol", "trigger", "respins", "land", "values", "grand"})
    for key in ("land", "values"):
        if key not in table:
            raise ModelError(where, f"missing {key!r}")
    coin, trigger = _scatter_trigger(table, where, symbols, positions, "the coin must be")
    respins = _int(table, "respins", where, low=1, high=100, default=3)
    land = _exact_fraction(table["land"], f"{where}.land")
    if not 0 < land < 1:
        raise ModelError(f"{where}.land", f"the probability that an empty position lands a coin must be in (0, 1), "
                         f"got {land}")
    out = _value_weights(table["values"], f"{where}.values", "coin value", "{ 1 = 60, 5 = 30, 25 = 10 }",
                         "no coin value can be drawn")
    grand = _int(table, "grand", where, low=0, high=MAX_PLAY_WIN, default=0, why=_MONEY_WHY)
    return HoldAndSpin(symbol=coin, trigger=trigger, respins=respins, land=land,
                       values=dict(sorted(out.items())), grand=grand)


def _value_weights(value, where: str, noun: str, example: str, never: str,
                   unit: str = "a multiple of the total bet") -> dict[int, int]:
    """A table ``{value = weight}``: values whole numbers >= 1 (``unit``), weights >= 0, not all 0."""
    if not isinstance(value, dict) or not value:
        raise ModelError(where, f"must be a table from {noun} ({unit}) to its weight, "
                         f"e.g. {example}, got {shown(value)}")
    out = {}
    for key, weight in value.items():
        if not isinstance(key, str) or not _COUNT.fullmatch(key) or not 1 <= int(key) <= MAX_PLAY_WIN:
            raise ModelError(where, f"key {shown(key)} is not a {noun} (a whole number >= 1)")
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise ModelError(where, f"the weight of value {key} must be a whole number >= 0, got {shown(weight)}")
        out[int(key)] = weight
    if sum(out.values()) == 0:
        raise ModelError(where, f"the weights sum to 0, so {never}")
    return dict(sorted(out.items()))


def _bonus(data, symbols: list[Symbol], positions: int) -> Bonus:
    """A wheel (``segments``) or pick (``items``, ``picks``) bonus started by a scatter count."""
    where = "bonus"
    table = _table(data, where, "top level")
    kind = table.get("kind")
    if kind not in BONUS_KINDS:
        raise ModelError(f"{where}.kind", f"must be one of {', '.join(map(repr, BONUS_KINDS))}, got {shown(kind)}")
    own = {"wheel": {"segments"}, "pick": {"items", "picks"}}[kind]
    _known(table, where, {"kind", "symbol", "trigger"} | own)
    for key in sorted(own - {"picks"}):
        if key not in table:
            raise ModelError(where, f"missing {key!r}")
    scatter, trigger = _scatter_trigger(table, where, symbols, positions, "the bonus is started by")
    if kind == "wheel":
        out = _value_weights(table["segments"], f"{where}.segments", "segment value", "{ 5 = 10, 20 = 4, 100 = 1 }",
                             "the wheel can never stop")
        return Bonus(kind=kind, symbol=scatter, trigger=trigger, segments=tuple(out.items()))
    items = table["items"]
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_PICK_ITEMS:
        raise ModelError(f"{where}.items", f"must be a list of 1 to {MAX_PICK_ITEMS} items such as "
                         f"{{ value = 5 }} or {{ value = 0, end = true }}, got {shown(items)}")
    board = []
    for i, item in enumerate(items, start=1):
        at = f"{where}.items, item {i}"
        if not isinstance(item, dict):
            raise ModelError(at, f"must be a table like {{ value = 5, weight = 1 }}, got {shown(item)}")
        _known(item, at, {"value", "weight", "end"})
        value = _int(item, "value", at, low=0, high=MAX_PLAY_WIN, why=_MONEY_WHY)
        weight = _int(item, "weight", at, low=0, high=MAX_REEL_STOPS, default=1)
        end = item.get("end", False)
        if not isinstance(end, bool):
            raise ModelError(f"{at}.end", f"must be true or false, got {shown(end)}")
        board.append(PickItem(value=value, weight=weight, end=end))
    can_pick = sum(1 for it in board if it.weight)
    if can_pick == 0:
        raise ModelError(f"{where}.items", "the weights sum to 0, so no item can be picked")
    picks = _int(table, "picks", where, low=1, default=can_pick)
    if picks > can_pick:
        raise ModelError(f"{where}.picks", f"{picks} picks, but only {can_pick} items have a weight above 0, "
                         "so a pick would find nothing to take")
    return Bonus(kind=kind, symbol=scatter, trigger=trigger, items=tuple(board), picks=picks)


def _free_spins(data, symbols: list[Symbol], rows: int, reels: int) -> FreeSpins:
    where = "free_spins"
    table = _table(data, where, "top level")
    _known(table, where, {"spins", "retrigger", "multiplier", "scatter", "max_spins"})
    scatters = [i for i, s in enumerate(symbols) if s.kind == "scatter"]
    if not scatters:
        raise ModelError(where, "free spins are triggered by scatters, but no symbol has kind = \"scatter\"")
    trigger = scatters[0]
    if "scatter" in table:
        name = table["scatter"]
        names = [symbols[i].name for i in scatters]
        if not isinstance(name, str) or name not in names:
            raise ModelError(f"{where}.scatter", f"the trigger must be a scatter symbol, got {shown(name)}; "
                             f"scatters are: {listed(names)}")
        trigger = scatters[names.index(name)]
    elif len(scatters) > 1:
        raise ModelError(f"{where}", f"{len(scatters)} scatter symbols: name the one that triggers the free spins, "
                         f"e.g. scatter = {symbols[scatters[0]].name!r}")
    if "spins" not in table:
        raise ModelError(where, "missing 'spins': a table from scatter count to free spins awarded, e.g. { 3 = 10 }")
    max_count = rows * reels
    spins = _count_table(table["spins"], f"{where}.spins", max_count, "scatters in the window", "number of free spins",
                         high=MAX_FREE_SPINS, why=_SPINS_WHY)
    if not spins:
        raise ModelError(f"{where}.spins", "must award free spins for at least one scatter count")
    retrigger_value = table.get("retrigger", False)
    if retrigger_value is True:
        retrigger = spins
    elif retrigger_value is False:
        retrigger = {}
    else:
        retrigger = _count_table(
            retrigger_value, f"{where}.retrigger", max_count, "scatters in the window", "number of free spins",
            high=MAX_FREE_SPINS, why=_SPINS_WHY,
        )
    multiplier = _int(table, "multiplier", where, low=1, high=MAX_PLAY_WIN, default=1, why=_MONEY_WHY)
    max_spins = None
    if "max_spins" in table:
        most = max(spins.values())
        max_spins = _int(table, "max_spins", where, low=1, high=MAX_FREE_SPINS, why=_SPINS_WHY)
        if max_spins < most:
            raise ModelError(f"{where}.max_spins", f"{max_spins:,} is below the {most:,} free spins "
                             f"{where}.spins awards: a session plays at least its first award")
    return FreeSpins(spins=spins, retrigger=retrigger, multiplier=multiplier, scatter=trigger, max_spins=max_spins)


def _cascade(data, names: list[str], reels: int) -> Cascade:
    """``[cascade]``: one refill strip per reel, and the optional multiplier ladder."""
    table = _table(data, "cascade", "top level")
    _known(table, "cascade", {"refill", "ladder"})
    if "refill" not in table:
        raise ModelError("cascade", "missing 'refill': one refill strip per reel, the symbols that drop into "
                         "the window after a win (docs/slot_model.md, Cascades)")
    refill = _strips(table, "refill", names, reels, section="cascade")
    ladder = _whole_numbers(table.get("ladder", [1]), "cascade.ladder", MAX_LADDER, "multipliers such as [1, 2, 3, 5]",
                            MAX_WILD_MULTIPLIER, f"rung {{}} must be a whole number from 1 to {MAX_WILD_MULTIPLIER}")
    return Cascade(refill=refill, ladder=ladder)


def _check_cascade(model: SlotModel) -> None:
    """Cascades are analysed on their own chain (harness.slot.cascade): what it does not follow is refused.

    Scatter symbols, free spins, a wheel or pick bonus, mystery levels and jackpot levels won by a
    scatter's count are followed (docs/slot_model.md, "Cascades with scatters and free spins", "Cascades
    with a bonus", "Cascades with jackpot levels").
    """
    _check_alone(model, "cascade", "a cascade model", "Cascades",
                 frozenset({"free_spins", "bonus", "mystery", "jackpot"}))
    if any(level.on == "line" for level in model.jackpots):
        raise ModelError("jackpot", "a cascade model has no jackpot levels won on a payline (which window of "
                         "the cascades would win it is not modelled; not supported together; docs/slot_model.md, "
                         "Cascades with jackpot levels)")
    if model.both_ways:
        raise ModelError("cascade", "a cascade model has no both-ways pays (a right-to-left win would remove "
                         "the last cells of its line, and which cells a line paid both ways removes is not "
                         "modelled; not supported together; docs/slot_model.md, Cascades)")
    for s in model.symbols:
        if s.sticky:
            raise ModelError(f"symbols.{s.name}.sticky", "a cascade model has no sticky wilds (a sticky wild "
                             "would have to survive the refills; not supported together; docs/slot_model.md, "
                             "Cascades)")


# the sections a game with reel heights per spin takes (both ways: free spins only, refused there): its
# stages are built from every height's columns (harness.slot.height_reels), as for any ways game
_WITH_HEIGHTS = frozenset({"free_spins", "cap", "progressive", "bonus", "mystery", "jackpot"})


def _check_alone(model: SlotModel, where: str, what: str, section_doc: str,
                 allowed: frozenset[str] = frozenset()) -> None:
    """A feature analysed window by window (cascades, both ways) with no other feature beside it
    but the sections ``allowed`` (cascades follow free spins, a bonus, mystery and jackpot levels)."""
    for section, present in (("free_spins", model.free_spins), ("hold_and_spin", model.hold_and_spin),
                             ("bonus", model.bonus), ("progressive", model.progressive),
                             ("mystery", model.mystery), ("cap", model.cap), ("jackpot", model.jackpots)):
        if present and section not in allowed:
            raise ModelError(where, f"{what} has no [{section}] section (not supported together; "
                             f"docs/slot_model.md, {section_doc})")
    for s in model.symbols:
        if s.expanding:
            raise ModelError(f"symbols.{s.name}", f"{what} has no expanding wild symbols (not supported "
                             f"together; docs/slot_model.md, {section_doc})")


def _check_sticky(model: SlotModel) -> None:
    """Sticky wilds live in the free spins, as the chain of harness.slot.sticky follows them."""
    sticky = [s.name for s in model.symbols if s.sticky]
    where = f"symbols.{sticky[0]}.sticky"
    if model.free_spins is None:
        raise ModelError(where, "a wild sticks for the rest of the free spins, but there is no [free_spins] section")
    if model.free_spins.retrigger and model.free_spins.max_spins is None:
        raise ModelError("free_spins.retrigger", "free spins with sticky wilds and retriggers need "
                         "free_spins.max_spins, the most spins one session plays: the exact session chain "
                         "follows the spins left, and without a bound its figures are not fractions in general "
                         "(docs/slot_model.md, Sticky wilds)")
    if model.expanding:
        raise ModelError(where, "a sticky wild and expanding wilds in one model are not supported together "
                         "(docs/slot_model.md, Sticky wilds)")


def _check_max_spins(model: SlotModel) -> None:
    """``free_spins.max_spins`` bounds a sticky-wild session; nothing else follows it."""
    if model.free_spins.max_spins is None:
        return
    if not any(s.sticky for s in model.symbols):
        raise ModelError("free_spins.max_spins", "only a free-spin session with sticky wilds is capped: without "
                         "them the free spins are analysed as a branching process with no cap "
                         "(docs/slot_model.md, Sticky wilds)")
    if not model.free_spins.retrigger:
        raise ModelError("free_spins.max_spins", "caps the spins retriggers add, but there is no "
                         "free_spins.retrigger")


def _cap(data) -> int:
    """``[cap] win``: the most one play pays, a whole multiple of the total bet."""
    table = _table(data, "cap", "top level")
    _known(table, "cap", {"win"})
    return _int(table, "win", "cap", low=1, high=MAX_PLAY_WIN, why=_MONEY_WHY)


def largest_award(model: SlotModel) -> tuple[int, str]:
    """The largest single award the pay tables list, in credits, and where it is listed.

    A line pay x the bet per line, a scatter pay x the total bet, the top
    bonus prize, the top coin value or the grand award of hold and spin.
    """
    bpl, tb = model.bet_per_line, model.total_bet
    found = [(0, "")]
    for s in model.symbols:
        unit = tb if s.kind == "scatter" else bpl
        found += [(pay * unit, f"symbols.{s.name}.pays") for pay in s.pays.values()]
    b = model.bonus
    if b is not None:
        prizes = [v for v, w in b.segments if w] if b.kind == "wheel" else [it.value for it in b.items if it.weight]
        found.append((max(prizes, default=0) * tb, f"bonus.{'segments' if b.kind == 'wheel' else 'items'}"))
    h = model.hold_and_spin
    if h is not None:
        found.append((max(v for v, w in h.values.items() if w) * tb, "hold_and_spin.values"))
        found.append((h.grand * tb, "hold_and_spin.grand"))
    return max(found)


def _check_cap(model: SlotModel) -> None:
    sticky = [s.name for s in model.symbols if s.sticky]
    if model.free_spins is not None and sticky:
        raise ModelError(f"symbols.{sticky[0]}.sticky", "an award cap with sticky wilds in the free spins is not "
                         "supported: the capped walk needs every free spin independent of the others, and a sticky "
                         "wild ties them (docs/slot_model.md, Award caps)")
    award, where = largest_award(model)
    cap = model.cap * model.total_bet
    if cap < award:
        raise ModelError("cap.win", f"the cap of {model.cap:,} x total bet = {cap:,} credits is below the top "
                         f"award, {award:,} credits ({where}), which could then never be paid as listed")


def _mystery(data) -> tuple[MysteryLevel, ...]:
    """``[[mystery]]`` levels: each a name, a probability per play, a contribution and a reset."""
    levels = data["mystery"]
    if not isinstance(levels, list) or not 1 <= len(levels) <= MAX_MYSTERY_LEVELS:
        raise ModelError("mystery", f"must be 1 to {MAX_MYSTERY_LEVELS} [[mystery]] levels (an array of tables), "
                         f"got {shown(levels)}")
    out, names = [], set()
    for i, level in enumerate(levels, start=1):
        where = f"mystery, level {i}"
        name, contribution, reset = _meter_level(level, where, "mystery", {"probability"}, names)
        probability = _exact_fraction(level["probability"], f"{where}.probability")
        if not 0 < probability < 1:
            raise ModelError(f"{where}.probability", f"the chance that a play hits this level must be in (0, 1), "
                             f"got {probability}")
        out.append(MysteryLevel(name=name, probability=probability, contribution=contribution, reset=reset))
    total = sum(level.probability for level in out)
    if total >= 1:
        raise ModelError("mystery", f"a play hits at most one level, but the levels' probabilities sum to {total} "
                         "(>= 1)")
    _check_shares("mystery", out)
    return tuple(out)


def _meter_level(level, where: str, section: str, own: set[str], names: set[str],
                 optional: frozenset = frozenset()) -> tuple[str, Fraction, int]:
    """A progressive level's table: its own keys ``own`` present (``optional`` keys allowed), and its name,
    contribution and reset."""
    if not isinstance(level, dict):
        raise ModelError(where, f"must be a table ([[{section}]]), got {shown(level)}")
    _known(level, where, {"name", "contribution", "reset"} | own | optional)
    for key in ("name", *sorted(own), "contribution", "reset"):
        if key not in level:
            raise ModelError(where, f"missing {key!r}")
    name = level["name"]
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > MAX_NAME or name in names:
        raise ModelError(f"{where}.name", f"a level's name is 1 to {MAX_NAME} letters, digits and _ . + -, "
                         f"one per level, got {shown(name)}")
    names.add(name)
    contribution = _exact_fraction(level["contribution"], f"{where}.contribution")
    if not 0 <= contribution < 1:
        raise ModelError(f"{where}.contribution", f"must be a share of the bet in [0, 1), got {contribution}")
    return name, contribution, _int(level, "reset", where, low=0, high=MAX_PLAY_WIN, why=_MONEY_WHY)


def _check_shares(section: str, levels) -> None:
    shares = sum(level.contribution for level in levels)
    if shares >= 1:
        raise ModelError(section, f"the levels' contributions sum to {shares} (>= 1): the meters would take "
                         "the whole bet")


def _jackpots(data, symbols: list[Symbol], positions: int, reels: int) -> tuple[JackpotLevel, ...]:
    """``[[jackpot]]`` levels: each a name, a count of the one jackpot scatter, a contribution and a reset."""
    levels = data["jackpot"]
    if not isinstance(levels, list) or not 1 <= len(levels) <= MAX_MYSTERY_LEVELS:
        raise ModelError("jackpot", f"must be 1 to {MAX_MYSTERY_LEVELS} [[jackpot]] levels (an array of tables), "
                         f"got {shown(levels)}")
    out, names, counts = [], set(), {}
    for i, level in enumerate(levels, start=1):
        where = f"jackpot, level {i}"
        name, contribution, reset = _meter_level(level, where, "jackpot", {"symbol", "count"}, names,
                                                 frozenset({"wilds"}))
        on, symbol, count, wilds = _jackpot_win(level, where, symbols, positions, reels)
        first = next((lv for lv in out if lv.on == on), None)
        if first is not None and symbol != first.symbol:
            kind = "scatter" if on == "scatter" else "line"
            raise ModelError(f"{where}.symbol", f"every {kind} level counts the one jackpot {kind} symbol "
                             f"{symbols[first.symbol].name!r}, got {shown(level['symbol'])}")
        if (on, count) in counts:
            raise ModelError(f"{where}.count", f"{count} x {symbols[symbol].name} already wins level "
                             f"{counts[on, count]}")
        counts[on, count] = i
        out.append(JackpotLevel(name=name, symbol=symbol, count=count, contribution=contribution, reset=reset,
                                on=on, wilds=wilds))
    _check_shares("jackpot", out)
    return tuple(out)


def _jackpot_win(level, where: str, symbols: list[Symbol], positions: int, reels: int) -> tuple[str, int, int, bool]:
    """How a jackpot level is won: ``("scatter", symbol, count, False)`` by counts of a scatter in the
    window, or ``("line", symbol, count, wilds)`` by a run of a line symbol on a payline."""
    names = [s.name for s in symbols]
    name = level.get("symbol")
    if isinstance(name, str) and name in names and symbols[names.index(name)].kind != "scatter":
        symbol = names.index(name)
        count = _int(level, "count", where, low=1, high=reels)
        wilds = level.get("wilds", False)
        if not isinstance(wilds, bool):
            raise ModelError(f"{where}.wilds", f"must be true or false, got {shown(wilds)}")
        return "line", symbol, count, wilds
    if "wilds" in level:
        raise ModelError(f"{where}.wilds", "only a level won on a payline counts substituting wilds")
    symbol, count = _scatter_trigger(level, where, symbols, positions,
                                     "a jackpot is won on a payline by a line symbol or by counts of",
                                     count_key="count")
    return "scatter", symbol, count, False


def _progressive(data, symbols: list[Symbol], reels: int) -> Progressive:
    where = "progressive"
    table = _table(data, where, "top level")
    _known(table, where, {"symbol", "count", "wilds", "contribution", "reset"})
    for key in ("symbol", "count", "contribution", "reset"):
        if key not in table:
            raise ModelError(where, f"missing {key!r}")
    symbol = table["symbol"]
    kinds = {s.name: s.kind for s in symbols}
    if not isinstance(symbol, str) or symbol not in kinds:
        raise ModelError(f"{where}.symbol", f"unknown symbol {shown(symbol)}; symbols are: {listed(kinds)}")
    if kinds[symbol] == "scatter":
        raise ModelError(f"{where}.symbol", "the progressive is won on a payline; a scatter never forms a line combination")
    count = _int(table, "count", where, low=1)
    if count > reels:
        raise ModelError(f"{where}.count", f"{count} of a kind is impossible on {reels} reels")
    wilds = table.get("wilds", False)
    if not isinstance(wilds, bool):
        raise ModelError(f"{where}.wilds", f"must be true or false, got {shown(wilds)}")
    contribution = _exact_fraction(table["contribution"], f"{where}.contribution")
    if not 0 <= contribution < 1:
        raise ModelError(f"{where}.contribution", f"must be a share of the bet in [0, 1), got {contribution}")
    reset = _int(table, "reset", where, low=0, high=MAX_PLAY_WIN, why=_MONEY_WHY)
    return Progressive(symbol=symbol, count=count, wilds=wilds, contribution=contribution, reset=reset)


# --- small validators ---------------------------------------------------------


_SECTIONS = ("window", "bet", "symbols", "reels", "free_spins", "progressive", "hold_and_spin", "wild_multipliers",
             "bonus", "mystery", "cap", "cascade")
_SPINS_WHY = "the simulation refuses a feature longer than that"


def _known(table: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    for key in table:
        if key not in allowed:
            hint = ""
            if key in _SECTIONS or key == "name":
                # A TOML key written after a [section] header belongs to that section.
                hint = f" (did you mean the top-level {key!r}? write it before the first [section] header)"
            raise ModelError(where, f"unknown key {shown(key)}; valid keys: {', '.join(sorted(allowed))}{hint}")


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    if key not in data:
        raise ModelError(key, f"missing [{key}] section")
    value = data[key]
    if not isinstance(value, dict):
        raise ModelError(key, f"must be a table ([{key}]), got {shown(value)}")
    return value


def _int(table, key: str, where: str, *, low: int | None = None, high: int | None = None, default=None,
         why: str = "") -> int:
    if key not in table:
        if default is not None:
            return default
        raise ModelError(where, f"missing {key!r}")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(f"{where}.{key}", f"must be a whole number, got {shown(value)}")
    if low is not None and value < low:
        raise ModelError(f"{where}.{key}", f"must be at least {low}, got {shown(value)}")
    if high is not None and value > high:
        raise ModelError(f"{where}.{key}", f"must be at most {_limit(high)}{', ' + why if why else ''}, got {shown(value)}")
    return value


def _whole_numbers(value, where: str, most: int, example: str, high: int, bad: str) -> tuple[int, ...]:
    """A list of 1 to ``most`` whole numbers in 1..``high``; ``bad.format(i)`` says what item ``i`` must be."""
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise ModelError(where, f"must be a list of 1 to {most} {example}, got {shown(value)}")
    for i, x in enumerate(value, start=1):
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= high:
            raise ModelError(where, f"{bad.format(i)}, got {shown(x)}")
    return tuple(value)


def _limit(high: int) -> str:
    return _MONEY_LIMIT if high == MAX_PLAY_WIN else f"{high:,}"


def _count_table(value, where: str, max_count: int, what: str, noun: str, *, high: int, why: str) -> dict[int, int]:
    """A table ``{count = amount}`` with counts in 1..max_count and amounts in 1..high."""
    if not isinstance(value, dict):
        raise ModelError(where, f"must be a table from count to {noun}, e.g. {{ 3 = 5, 4 = 20 }}, got {shown(value)}")
    out = {}
    for key, amount in value.items():
        if not isinstance(key, str) or not _COUNT.fullmatch(key):
            raise ModelError(where, f"key {shown(key)} is not a count (a whole number, digits 0-9)")
        count = int(key)
        if not 1 <= count <= max_count:
            raise ModelError(where, f"{noun} for {count} {what}: impossible, counts run from 1 to {max_count}")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ModelError(where, f"{noun} for count {count} must be a whole number, got {shown(amount)}")
        if amount < 1:
            raise ModelError(where, f"{noun} for count {count} is {shown(amount)}; it must be a positive whole number (leave the count out for no award)")
        if amount > high:
            raise ModelError(where, f"{noun} for count {count} is {shown(amount)}; it must be at most {_limit(high)}, {why}")
        out[count] = amount
    return dict(sorted(out.items()))


def _exact_fraction(value, where: str) -> Fraction:
    """An exact share: an integer, or a string ``"0.015"`` or ``"3/200"`` (never a float)."""
    if isinstance(value, bool):
        raise ModelError(where, f"must be a number written as a string, got {shown(value)}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        raise ModelError(where, f'write it as a string, e.g. "{value}" or a fraction "a/b", so it is exact '
                         f"(got the float {shown(value)})")
    if not isinstance(value, str):
        raise ModelError(where, f"must be a string such as \"0.015\" or \"3/200\", got {shown(value)}")
    decimal, ratio = _DECIMAL.fullmatch(value), _RATIO.fullmatch(value)
    if decimal or ratio:
        digits = sum(len(g or "") for g in (decimal or ratio).groups())
        if digits > MAX_DIGITS:
            raise ModelError(where, f"{shown(value)} has {digits:,} digits; an exact share is written with "
                             f"at most {MAX_DIGITS}")
    if decimal:
        whole, frac = decimal.group(1), decimal.group(2) or ""
        return Fraction(int(whole + frac), 10 ** len(frac))
    if ratio:
        num, den = int(ratio.group(1)), int(ratio.group(2))
        if den == 0:
            raise ModelError(where, "division by zero")
        return Fraction(num, den)
    raise ModelError(where, f"cannot read {shown(value)} as an exact decimal (\"0.015\") or fraction (\"3/200\")")
