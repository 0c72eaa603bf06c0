"""Pai Gow tiles (000 別表第1 第9): the combination ranks and the dealer's
house way as tables, hand setting, settlement, and exact returns.

Source: ``000_d4cd2a3cb5c95429.txt`` L3037-3283 (digest ``rules/pai_gow.md``).
Tiles are named by their row in the 1-2 table, 1..21 (the ``tiles`` device's
label ``T<row>``, code ``row - 1``).  Item 6-3 (tile points, hand totals) is
empty in the seed and in the official text: the point values below are the
standard Chinese-domino values, an *interpretation* consistent with every
numeric example in 000 (digest §1); a hand that is no combination of 6-2 is
ranked by its total mod 10, each Gee Joon tile counting 3 or 6, whichever
is higher for the hand.

A two-tile hand's strength is one integer key (:func:`hand_key`): the
combination's place in :data:`COMBINATIONS` (6-2 イ..ラ, strongest first),
or for ム its total; then the strongest single tile (6-1, 9-2).  Equal keys
go to the dealer (9-2).  The dealer's house way (8) is :data:`HOUSE_WAY`, a
table of rules with their items, interpreted by :func:`house_way`.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np

from rngcore.devices.tiles import TILE_DESIGNS, TILE_SET
from harness.games.base import Analysis, Game, GameOption, Strategy, _replay, _run
from harness.games.core import BetRule, PUSH, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import BetSimulation, Simulation, goodness_of_fit

SOURCE = "000 別表第1 第9"
ROWS = tuple(range(1, 22))
COPIES = {d.row: d.copies for d in TILE_DESIGNS}

# ------------------------------------------------------------------ tiles --

# Points of each row (interpretation of the empty 6-3, digest §1): the pips of
# the standard identity in rngcore.devices.tiles; Gee Joon (20), (21) count 3 or 6.
POINTS: dict[int, tuple[int, ...]] = {
    d.row: (3, 6) if d.row in (20, 21) else (sum(int(p) for p in d.pips.split(" ")[0].split("-")),)
    for d in TILE_DESIGNS
}
GEE_JOON = frozenset({20, 21})

# 6-1: (1) > (2) > ... > (11) > (12) = (13) > (14) = (15) > (16) = (17) > (18) = (19) > (20) = (21)
SINGLE_RANK: dict[int, int] = {row: 21 - row if row <= 11 else 9 - (row - 12) // 2 for row in ROWS}

# 6-2 イ..ラ, strongest first: (item, name, tiles of one side, tiles of the other side).
COMBINATIONS: tuple[tuple[str, str, frozenset, frozenset], ...] = (
    ("イ", "gee joon", frozenset({20}), frozenset({21})),
    *((item, f"pair of ({row})", frozenset({row}), frozenset({row}))
      for item, row in zip("ロハニホヘトチリヌルヲ", range(1, 12))),
    ("ワ", "mixed 9s", frozenset({12}), frozenset({13})),
    ("カ", "mixed 8s", frozenset({14}), frozenset({15})),
    ("ヨ", "mixed 7s", frozenset({16}), frozenset({17})),
    ("タ", "mixed 5s", frozenset({18}), frozenset({19})),
    ("レ", "wong", frozenset({1}), frozenset({12, 13})),
    ("ソ", "day wong", frozenset({2}), frozenset({12, 13})),
    ("ツ", "gong", frozenset({1}), frozenset({3, 14, 15})),
    ("ネ", "day gong", frozenset({2}), frozenset({3, 14, 15})),
    ("ナ", "high nine", frozenset({1}), frozenset({10, 16, 17})),
    ("ラ", "day high nine", frozenset({2}), frozenset({10, 16, 17})),
)
PAIR_ITEMS = "イロハニホヘトチリヌルヲワカヨタ"    # 8-1: the pairs イ..タ
HIGH_ITEMS = "レソツネナラ"                       # 8-7: wong, gong, high nine


@functools.lru_cache(maxsize=None)
def combination(a: int, b: int) -> str | None:
    """The 6-2 item (イ..ラ) two tiles form, or None (ム)."""
    for item, _, one, other in COMBINATIONS:
        if (a in one and b in other) or (b in one and a in other):
            return item
    return None


@functools.lru_cache(maxsize=None)
def total(a: int, b: int) -> int:
    """Hand total mod 10 (interpretation, 6-3 empty); Gee Joon counts 3 or 6, the better."""
    return max((x + y) % 10 for x in POINTS[a] for y in POINTS[b])


@functools.lru_cache(maxsize=None)
def hand_key(a: int, b: int) -> int:
    """Strength of a two-tile hand: larger wins; equal goes to the dealer (9-2)."""
    item = combination(a, b)
    level = 100 - [c[0] for c in COMBINATIONS].index(item) if item else total(a, b)
    return level * 32 + max(SINGLE_RANK[a], SINGLE_RANK[b])


Hand = tuple[int, int, int, int]
Split = tuple[tuple[int, int], tuple[int, int]]  # (high, low)


def splits(tiles: Sequence[int]) -> list[Split]:
    """The three ways to set four tiles, each as (high, low) by strength (4-3)."""
    a, b, c, d = tiles
    out = []
    for one, two in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
        out.append((one, two) if hand_key(*one) >= hand_key(*two) else (two, one))
    return out


# -------------------------------------------------------------- house way --

@dataclasses.dataclass(frozen=True)
class HouseRule:
    """One rule of the dealer's house way (000 第9 8).

    kind : str
        ``"split"``: holding a pair of ``pair`` (6-2 items), split it when the
        other two tiles' points match one of ``when`` -- (points of one tile,
        points of the other) -- and they form none of ``unless`` (6-2 items,
        or (row, row) tile pairs); ``"keep"``: use a pair イ..タ (8-1);
        ``"high"``: a wong/gong/high nine as the high hand (8-7);
        ``"fixed"``: the tiles of ``tiles`` (one row from each set) set to
        ``totals`` (high, low; None: free) (8-9); ``"best"``: no combination
        (8-8).
    """

    item: str
    kind: str
    pair: str = ""
    when: tuple[tuple[frozenset, frozenset], ...] = ()
    unless: tuple = ()
    tiles: tuple[frozenset, ...] = ()
    totals: tuple[int | None, int | None] = (None, None)
    note: str = ""


def _pts(*values: int) -> frozenset:
    return frozenset(values)


_DOUBLES = _pts(2, 10, 12)

HOUSE_WAY: tuple[HouseRule, ...] = (
    HouseRule("8-2", "split", "イ", ((_pts(6), _pts(4, 5, 6)),), ("ト", "ヲ")),
    HouseRule("8-3-イ", "split", "ロハ", ((_pts(9), _pts(4, 5, 6, 7, 8, 11)),),
              note="「9点及び4点から8点までのいずれか又は11点」 read as 9 with one of 4-8 or 11"),
    HouseRule("8-3-ロ", "split", "ロハ", ((_pts(8), _pts(4, 5, 6, 7, 8)),), ("ニ", "カ")),
    HouseRule("8-3-ハ", "split", "ロハ", ((_pts(7), _pts(4, 5, 6, 7)),), ("ル", "ヨ")),
    HouseRule("8-3-ニ", "split", "ロハ", ((_pts(6), _pts(4, 5, 6)),),
              ("イ", "ト", "ヲ", *((gj, t) for gj in (20, 21) for t in (4, 6, 7, 11, 18, 19)))),
    HouseRule("8-4", "split", "ワ", ((_DOUBLES, _DOUBLES),), ("ロ", "ハ", "ヘ", "ヌ")),
    HouseRule("8-5", "split", "ニカ", ((_DOUBLES, _DOUBLES), (_pts(11), _pts(2, 9, 10, 12))), ("ロ", "ハ", "ヘ", "ヌ"),
              note="the exclusions of 8-4 apply to its combinations only (11 with 2/9/10/12 forms none of them)"),
    HouseRule("8-6", "split", "ルヨ", ((_pts(2), _pts(12)), (_pts(2, 12), _pts(10, 11)))),
    HouseRule("8-1", "keep"),
    HouseRule("8-7", "high",
              note="with two or more, the weakest as high unless its low hand is bad (3 without tiles (1)-(6), "
                   "or 2 or less), then the strongest"),
    HouseRule("8-9-イ", "fixed", tiles=(_pts(10, 16, 17), _pts(3), _pts(5), _pts(8)), totals=(9, 7)),
    HouseRule("8-9-ロ", "fixed", tiles=(_pts(20, 21), _pts(18, 19), _pts(6, 11), _pts(1, 2)), totals=(9, 7)),
    HouseRule("8-9-ハ", "fixed", tiles=(_pts(20, 21), _pts(4, 7), _pts(18, 19), frozenset(ROWS)), totals=(9, None),
              note="the fourth tile forms no combination イ..ラ with the other three"),
    HouseRule("8-8", "best",
              note="then 8-10 among settings with the same totals: high total <= 7 the strongest low hand, "
                   ">= 8 the strongest high hand, not both of the two strongest tiles in one hand if another "
                   "setting with those totals avoids it"),
)


@functools.lru_cache(maxsize=None)
def _point_set(row: int) -> frozenset:
    return frozenset(POINTS[row])


def _points_match(x: int, y: int, when) -> bool:
    px, py = _point_set(x), _point_set(y)
    return any((px & one and py & other) or (py & one and px & other) for one, other in when)


def _excluded(x: int, y: int, unless) -> bool:
    item = combination(x, y)
    return any(u == item if isinstance(u, str) else sorted(u) == sorted((x, y)) for u in unless)


def _key(split: Split) -> tuple[int, int]:
    return hand_key(*split[0]), hand_key(*split[1])


def _totals(split: Split) -> tuple[int, int]:
    return total(*split[0]), total(*split[1])


def _bad_low(low: tuple[int, int]) -> bool:
    """8-7 proviso: a low hand of 3 without any of tiles (1)-(6), or of 2 or less."""
    t = total(*low)
    return t <= 2 or (t == 3 and not any(x <= 6 for x in low))


def _equal_totals(candidates: list[Split], chosen: Split) -> Split:
    """8-10: among settings with the chosen totals, the strongest low (high total <= 7) or
    high (>= 8) hand, avoiding both of the two strongest tiles in one hand."""
    same = [s for s in candidates if _totals(s) == _totals(chosen)]
    if len(same) == 1:
        return chosen
    high_total = _totals(chosen)[0]
    order = (lambda s: (_key(s)[1], _key(s)[0])) if high_total <= 7 else (lambda s: _key(s))
    same.sort(key=order, reverse=True)
    tiles = sorted(chosen[0] + chosen[1], key=lambda t: -SINGLE_RANK[t])
    top = sorted(tiles[:2])

    def together(s: Split) -> bool:
        return sorted(s[0]) == top or sorted(s[1]) == top

    apart = [s for s in same if not together(s)]
    return apart[0] if together(same[0]) and apart else same[0]


_PAIRINGS = tuple(((i, j), tuple(k for k in range(4) if k not in (i, j))) for i, j in itertools.combinations(range(4), 2))


def _apply(rule: HouseRule, tiles: Hand, options: list[Split]) -> Split | None:
    if rule.kind == "split":
        for item in rule.pair:
            for (i, j), (k, m) in _PAIRINGS:
                p, q, x, y = tiles[i], tiles[j], tiles[k], tiles[m]
                if combination(p, q) == item and _points_match(x, y, rule.when) and not _excluded(x, y, rule.unless):
                    apart = [s for s in options if sorted((p, q)) not in (sorted(s[0]), sorted(s[1]))]
                    return max(apart, key=_key)
        return None
    if rule.kind == "keep":
        with_pair = [s for s in options if any(combination(*h) and combination(*h) in PAIR_ITEMS for h in s)]
        return max(with_pair, key=_key) if with_pair else None
    if rule.kind == "high":
        high = [s for s in options if combination(*s[0]) in tuple(HIGH_ITEMS)]
        if not high:
            return None
        high.sort(key=lambda s: _key(s)[0])
        return high[-1] if len(high) > 1 and _bad_low(high[0][1]) else high[0]
    if any(combination(*h) for s in options for h in s):
        return None  # 8-8 and 8-9 only when no combination イ..ラ can be formed
    if rule.kind == "fixed":
        rest = list(tiles)
        for wanted in rule.tiles:
            pick = next((t for t in rest if t in wanted), None)
            if pick is None:
                return None
            rest.remove(pick)
        fits = [s for s in options if all(w is None or t == w for t, w in zip(_totals(s), rule.totals))]
        if not fits:
            return None
        return _equal_totals(options, max(fits, key=lambda s: (_totals(s)[1], _totals(s)[0], _key(s))))
    # 8-8
    low_ok = [s for s in options if _totals(s)[1] >= 4 or (_totals(s)[1] == 3 and any(t <= 6 for t in s[1]))]
    if low_ok or not any(_totals(s)[0] >= 7 for s in options):   # イ, ハ: the highest low total
        chosen = max(options, key=lambda s: (_totals(s)[1], _totals(s)[0], _key(s)))
    else:                                                          # ロ: the highest high total
        chosen = max(options, key=lambda s: (_totals(s)[0], _totals(s)[1], _key(s)))
    return _equal_totals(options, chosen)


def house_way(tiles: Sequence[int], table: Sequence[HouseRule] = HOUSE_WAY) -> Split:
    """The dealer's setting of four tiles (rows 1..21) by the house way (000 第9 8)."""
    tiles = tuple(sorted(_check_tiles(tiles)))
    options = splits(tiles)
    for rule in table:
        chosen = _apply(rule, tiles, options)
        if chosen is not None:
            return chosen
    raise AssertionError(f"house way sets no hand for {tiles}")  # 8-8 always applies


def _check_tiles(tiles: Sequence[int]) -> tuple[int, ...]:
    tiles = tuple(int(t) for t in tiles)
    if len(tiles) != 4 or any(t not in COPIES for t in tiles) or any(tiles.count(t) > COPIES[t] for t in tiles):
        raise ValueError(f"a pai gow hand is 4 tiles of rows 1..21 (rows 1-11 at most twice, 12-21 once), got {tiles}")
    return tiles


# --------------------------------------------------------------- all hands --

@functools.lru_cache(maxsize=None)
def all_hands() -> tuple[Hand, ...]:
    """Every distinct 4-tile hand (sorted rows), in a fixed order."""
    rows_of_set = [t + 1 for t in TILE_SET]
    return tuple(sorted({tuple(sorted(rows_of_set[i] for i in c)) for c in itertools.combinations(range(32), 4)}))


def ways(hand: Sequence[int], taken: Mapping[int, int] | None = None) -> int:
    """Physical tile sets giving ``hand``, from a set missing ``taken`` tiles."""
    out = 1
    for row in set(hand):
        out *= math.comb(COPIES[row] - (taken or {}).get(row, 0), list(hand).count(row))
    return out


def split_index(hand: Hand, split: Split) -> int:
    """Which of :func:`splits` (0..2) a setting is (by its tiles)."""
    wanted = sorted(split[0])
    for i, s in enumerate(splits(hand)):
        if sorted(s[0]) == wanted or sorted(s[1]) == wanted:
            return i
    raise ValueError(f"{split} is not a setting of {hand}")


def read_rule_table(text: str, source: str = "rule table") -> dict[Hand, int]:
    """A user's hand-setting table: lines ``A B C D : X Y`` (rows of the four
    tiles, then the two tiles of one hand); ``#`` starts a comment.  Hands
    not listed are set by the house way.  ValueError naming ``source`` and
    the line for a malformed line, a hand listed twice, or no rule at all."""
    table: dict[Hand, int] = {}
    line_of: dict[Hand, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            left, right = line.split(":")
            hand = tuple(sorted(_check_tiles([int(x) for x in left.split()])))
            pair = tuple(int(x) for x in right.split())
            rest = list(hand)
            for t in pair:
                rest.remove(t)
            if len(pair) != 2:
                raise ValueError
        except ValueError:
            raise ValueError(f"{source} line {number}: expected 'A B C D : X Y' with X Y two of the four tiles, "
                             f"got {line!r}") from None
        if hand in table:
            raise ValueError(f"{source} line {number}: hand {' '.join(map(str, hand))} is already set on line "
                             f"{line_of[hand]}")
        table[hand], line_of[hand] = split_index(hand, (pair, tuple(rest))), number
    if not table:
        raise ValueError(f"{source}: no rule lines ('A B C D : X Y'); an empty table is the house way "
                         f"(--strategy house-way)")
    return table


# The customer's hand setting (7); the first is the default of ``rngcert game pai-gow``.
PLAYER_STRATEGIES = (
    Strategy("house-way", "the dealer sets the customer's tiles by the house way on request (7 ただし書, 8)"),
    Strategy("best-vs-house-way", "each hand set for the best exact EV against the dealer's house way, over every "
                                  "dealer hand of the 28 other tiles (ties: the house way's setting)"),
    Strategy("table", "the customer's own rule table (--option rules=FILE); unlisted hands by the house way"),
)
STRATEGIES = tuple(s.name for s in PLAYER_STRATEGIES)
NAMED_STRATEGIES = STRATEGIES[:2]  # those customer_settings takes by name (a table is given as a mapping)


@dataclasses.dataclass(frozen=True)
class HandTables:
    """Per-hand arrays for the C kernels: tiles, the dealer's keys, the
    customer's three settings' keys."""

    hands: tuple[Hand, ...]
    tiles: np.ndarray       # uint8 [H, 4] rows
    dealer: np.ndarray      # uint32 [H, 2] (high key, low key) by the house way
    settings: np.ndarray    # uint32 [H, 3, 2]
    house_setting: np.ndarray  # uint8 [H]: the house way's setting index


@functools.lru_cache(maxsize=4)
def hand_tables(table: tuple[HouseRule, ...] = HOUSE_WAY) -> HandTables:
    hands = all_hands()
    tiles = np.array(hands, dtype=np.uint8)
    dealer = np.zeros((len(hands), 2), dtype=np.uint32)
    settings = np.zeros((len(hands), 3, 2), dtype=np.uint32)
    house = np.zeros(len(hands), dtype=np.uint8)
    for i, hand in enumerate(hands):
        for j, s in enumerate(splits(hand)):
            settings[i, j] = _key(s)
        chosen = house_way(hand, table)
        dealer[i] = _key(chosen)
        house[i] = split_index(hand, chosen)
    return HandTables(hands, tiles, dealer, settings, house)


# ------------------------------------------------------------ settlement --

BET = BetRule(
    "bet", f"{SOURCE} 4-3, 9-2, 10-2",
    rows(("win", Where(outcome="win"), odds(19, 20)), ("push", Where(outcome="push"), PUSH)),
    push_labels=frozenset({"push"}),
    note="wins when both hands beat the dealer's, loses when both are beaten, else push; equal hands: the "
         "stronger tile, then the dealer (9-2); 19 to 20 (10-2); 1-yen truncation (10-1) not applied")
OUTCOMES = ("win", "push", "lose")


def settle(customer: Split, dealer: Split) -> str:
    """``"win"``, ``"push"`` or ``"lose"`` for the customer (9-2)."""
    (ch, cl), (dh, dl) = _key(customer), _key(dealer)
    high, low = ch > dh, cl > dl
    return "win" if high and low else "lose" if not high and not low else "push"


# ----------------------------------------------------------------- exact --

def _kernels():
    from harness.kernels import ffi, lib

    return ffi, lib


def _copies_array() -> np.ndarray:
    copies = np.zeros(22, dtype=np.uint8)
    for row, c in COPIES.items():
        copies[row] = c
    return copies


@functools.lru_cache(maxsize=4)
def setting_counts(table: tuple[HouseRule, ...] = HOUSE_WAY) -> np.ndarray:
    """uint64 [H, 3, 3]: for customer hand i set by setting s, the dealer tile
    sets (of the 28 left) that win / push / lose for the customer, the dealer
    setting by ``table`` (C: csrc/kernels/pai_gow.h)."""
    from rngcore.errors import raise_for_status

    ffi, lib = _kernels()
    t = hand_tables(table)
    tiles = np.ascontiguousarray(t.tiles)
    dealer = np.ascontiguousarray(t.dealer)
    settings = np.ascontiguousarray(t.settings)
    copies = _copies_array()
    out = np.zeros((len(t.hands), 3, 3), dtype=np.uint64)
    raise_for_status(lib.kern_pg_setting_counts(len(t.hands), ffi.from_buffer("uint8_t[]", tiles),
                                                ffi.from_buffer("uint32_t[]", dealer),
                                                ffi.from_buffer("uint32_t[]", settings),
                                                ffi.from_buffer("uint8_t[]", copies),
                                                ffi.from_buffer("uint64_t[]", out)), "pai gow setting counts")
    return out


def _edge_order(counts: np.ndarray) -> np.ndarray:
    """19 W - 20 L per setting: proportional to the customer's EV at 19 to 20."""
    return 19 * counts[..., 0].astype(np.int64) - 20 * counts[..., 2].astype(np.int64)


def customer_settings(strategy: str | Mapping[Hand, int], table: tuple[HouseRule, ...] = HOUSE_WAY) -> np.ndarray:
    """The customer's setting index (0..2 of :func:`splits`) for every hand.

    ``"house-way"`` (7 ただし書), ``"best-vs-house-way"`` (the best EV against the
    dealer's house way, by exact enumeration over the dealer's possible
    hands; ties keep the house way's setting), or a user's table from
    :func:`read_rule_table` (hands not in it: the house way).
    """
    t = hand_tables(table)
    chosen = t.house_setting.astype(np.intp).copy()
    if strategy == "house-way":
        return chosen
    if strategy == "best-vs-house-way":
        value = _edge_order(setting_counts(table))
        best = value.max(axis=1)
        house_value = value[np.arange(len(chosen)), chosen]
        better = house_value < best
        chosen[better] = value[better].argmax(axis=1)
        return chosen
    if isinstance(strategy, Mapping):
        position = {h: i for i, h in enumerate(t.hands)}
        for hand, s in strategy.items():
            chosen[position[tuple(sorted(hand))]] = s
        return chosen
    raise ValueError(f"pai-gow strategy must be one of {', '.join(NAMED_STRATEGIES)} or a rule table, "
                     f"got {strategy!r}")


@functools.lru_cache(maxsize=1)
def hand_index() -> np.ndarray:
    index = np.full(22 ** 4, 0xFFFF, dtype=np.uint16)
    for i, (a, b, c, d) in enumerate(all_hands()):
        index[((a * 22 + b) * 22 + c) * 22 + d] = i
    return index


def enumerate_deals(chosen: np.ndarray, table: tuple[HouseRule, ...] = HOUSE_WAY,
                    tile_set: Sequence[int] | None = None) -> dict[str, int]:
    """Win / push / lose counts over every deal of 4 + 4 tiles (one tile at a
    time, C(32,4) C(28,4) deals), the customer setting hand i by ``chosen[i]``."""
    from rngcore.errors import raise_for_status

    ffi, lib = _kernels()
    t = hand_tables(table)
    customer = np.ascontiguousarray(t.settings[np.arange(len(t.hands)), chosen], dtype=np.uint32)
    dealer = np.ascontiguousarray(t.dealer)
    tiles = np.array(sorted(tile_set) if tile_set is not None else [x + 1 for x in TILE_SET], dtype=np.uint8)
    out = np.zeros(3, dtype=np.uint64)
    raise_for_status(lib.kern_pg_enumerate(ffi.from_buffer("uint8_t[]", tiles), tiles.size,
                                           ffi.from_buffer("uint16_t[]", hand_index()), len(t.hands),
                                           ffi.from_buffer("uint32_t[]", dealer),
                                           ffi.from_buffer("uint32_t[]", customer), ffi.from_buffer("uint64_t[]", out)),
                     "pai gow enumeration")
    return dict(zip(OUTCOMES, (int(x) for x in out)))


def weighted_counts(chosen: np.ndarray, table: tuple[HouseRule, ...] = HOUSE_WAY) -> dict[str, int]:
    """The same counts from :func:`setting_counts`, each customer hand weighted by its tile sets."""
    counts = setting_counts(table)[np.arange(len(chosen)), chosen].astype(object)
    weight = np.array([ways(h) for h in all_hands()], dtype=object)
    return {o: int((counts[:, k] * weight).sum()) for k, o in enumerate(OUTCOMES)}


DEALS = math.comb(32, 4) * math.comb(28, 4)


@functools.lru_cache(maxsize=None)
def _named_counts(strategy: str) -> dict[str, int]:
    return enumerate_deals(customer_settings(strategy))


def analyse(strategy: str | Mapping[Hand, int] = "house-way") -> tuple[dict, tuple, str, dict[str, int]]:
    """Exact result of the bet for a customer strategy: every deal enumerated
    in C; returns (parameters, bet results, note, outcome counts)."""
    chosen = customer_settings(strategy)
    counts = _named_counts(strategy) if isinstance(strategy, str) else enumerate_deals(chosen)
    if sum(counts.values()) != DEALS:
        raise AssertionError(f"pai gow: {sum(counts.values())} deals enumerated, not {DEALS}")
    result = result_from_weights(BET, counts, DEALS)
    customer_ev = result.expected_net
    parameters = {
        "strategy": strategy if isinstance(strategy, str) else "rule table",
        "deals": DEALS,
        "customer_ev": f"{customer_ev.numerator}/{customer_ev.denominator}",
        "customer_ev_float": float(customer_ev),
        "house_ev": f"{(-customer_ev).numerator}/{(-customer_ev).denominator}",
        "house_ev_float": float(-customer_ev),
        "counts": counts,
    }
    note = ("one customer against the dealer's house way (8); every deal of 4 + 4 of the 32 tiles "
            "enumerated; tile points and hand totals are the standard values (6-3 is empty in the source)")
    return parameters, (result,), note, counts



# ------------------------------------------------------------ simulation --

POSITIONS = 8  # the dealer and 7 betting areas: 32 tiles / 4 (interpretation, digest §4)


def deal_blocks(dice: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(dealer's block, seat's block) of four tiles for each roll (5-1).

    Positions are counted counter-clockwise from the dealer (1) up to the dice
    total; dealing starts there and continues counter-clockwise, four tiles
    to each of the 8 positions: block i goes to position (start - 1 + i) mod 8 + 1.
    """
    totals = dice.astype(np.int64).sum(axis=1) + dice.shape[1]  # faces 0..5 are pips 1..6
    start = (totals - 1) % POSITIONS + 1
    return (1 - start) % POSITIONS, (seat - start) % POSITIONS


def simulate(rounds: int, generator, strategy: str | Mapping[Hand, int] = "house-way", seat: int = 2,
             progress=None, chunk: int = 1 << 17) -> Simulation:
    """Deal ``rounds`` rounds through the ``tiles`` device, the dealing start
    picked by ``dice:3``; the customer at betting area ``seat`` (2..8)."""
    from rngcore.devices import device_spec

    tiles_device, dice_device = device_spec("tiles"), device_spec("dice:3")
    parameters, (exact,), _, counts = analyse(strategy)
    t = hand_tables()
    chosen = customer_settings(strategy)
    customer_keys = t.settings[np.arange(len(t.hands)), chosen]
    index = hand_index()
    outcomes = np.zeros(3, dtype=np.int64)
    seen = np.zeros(len(t.hands), dtype=np.int64)

    def hands_of(sets: np.ndarray, block: np.ndarray) -> np.ndarray:
        picked = np.take_along_axis(sets, (block[:, None] * 4 + np.arange(4)).astype(np.intp), axis=1)
        rows = np.sort(picked.astype(np.int64) + 1, axis=1)
        return index[((rows[:, 0] * 22 + rows[:, 1]) * 22 + rows[:, 2]) * 22 + rows[:, 3]].astype(np.intp)

    def step(n: int) -> None:
        sets = tiles_device.draw(generator, n)
        dealer_block, seat_block = deal_blocks(dice_device.draw(generator, n), seat)
        mine, theirs = hands_of(sets, seat_block), hands_of(sets, dealer_block)
        ck, dk = customer_keys[mine], t.dealer[theirs]
        high, low = ck[:, 0] > dk[:, 0], ck[:, 1] > dk[:, 1]
        cls = np.where(high & low, 0, np.where(high | low, 1, 2))
        outcomes[:] += np.bincount(cls, minlength=3)
        seen[:] += np.bincount(mine, minlength=len(t.hands))

    done, interrupted, seconds = _run(rounds, chunk, step, lambda: int(outcomes.sum()), progress)
    sims = (BetSimulation(exact, {o: int(outcomes[k]) for k, o in enumerate(OUTCOMES) if outcomes[k]}),)
    fit = goodness_of_fit(seen, [Fraction(ways(h), math.comb(32, 4)) for h in t.hands])
    return Simulation(
        "pai-gow", parameters["strategy"], "tiles + dice:3", done, rounds, seconds, fit, sims,
        procedure=f"one washed set per round (tiles), dealing start by 3 dice counted counter-clockwise from the "
                  f"dealer (5-1); customer at position {seat} of {POSITIONS}",
        interrupted=interrupted, replay=_replay(generator),
        note="outcome chi-square: the customer's hand (8130 distinct hands) vs its exact probability")


# ---------------------------------------------------------------- the game --

class PaiGowGame(Game):
    name = "pai-gow"
    summary = "Pai Gow tiles: high and low hands against the dealer's house way, 19 to 20; every deal enumerated"
    rules = f"{SOURCE} (seed L3037-3283)"
    etable = ETable("000 別表第1 第9 13", ("standard",), ("bet",), "000 別表第1 第9 13 (L3271): the bet of 4-3 only",
                    "item 8 (the dealer set his hands) is finished", "000 別表第1 第9 14-1",
                    "000 別表第1 第9 10-1 (L3201)",
                    note="14-1 says the outcome of the dealt 'cards' (トランプ): read as the tiles, a drafting slip")
    strategies = PLAYER_STRATEGIES
    options = (GameOption("seat", "P", "the customer's position for the simulation's deal, 2..8 counter-clockwise "
                                       "from the dealer (1) (5-1; default 2)", 2, POSITIONS, 2),
               GameOption.path("rules", "the customer's rule table of strategy table: lines 'A B C D : X Y' "
                                        "(examples/pai_gow_rules.txt); unlisted hands by the house way (7)"))
    devices = "tiles, dice:3"
    chunk = 1 << 17

    def check_together(self, strategy, options) -> None:
        if (strategy == "table") != (options["rules"] is not None):
            raise ValueError("pai-gow: --strategy table and --option rules=FILE go together "
                             f"(got strategy {strategy} with{'' if options['rules'] else 'out'} a rules file)")

    @staticmethod
    def _strategy(strategy: str, rules) -> str | dict:
        return read_rule_table(rules.text, rules.path) if strategy == "table" else strategy

    def _analyse(self, variant, *, strategy, seat, rules) -> Analysis:
        parameters, results, note, _ = analyse(self._strategy(strategy, rules))
        if rules is not None:
            parameters = parameters | {"strategy": strategy, "rules": rules.path}
        return Analysis(self.name, variant, parameters, results, note)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, seat, rules):
        return simulate(rounds, generator, self._strategy(strategy, rules), seat, progress, self.chunk)


GAMES = (PaiGowGame(),)
