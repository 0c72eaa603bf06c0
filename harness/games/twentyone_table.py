"""The twenty-one round engine in C (``csrc/kernels/twentyone.{h,c}``): its rules, its strategy
table, and a table dealing the production shoe.

The kernel plays the round of :mod:`harness.games.twentyone` for one seat.  It asks its
strategy a table: an action per (context, upcard, may the seat hold another hand, hand),
a two-card hand keyed by its two values and a longer one by (soft, total).  The table is
filled here by asking the Python strategy itself every question the round can put, with
the actions :func:`~harness.games.twentyone.allowed_actions` opens, so the C engine plays
exactly what the strategy would (the computed basic strategy, a player's chart: anything
that looks at no more than that).  ``tests/twentyone_reference.py`` deals the same shoes
through an independent Python round and must agree round by round.
"""
from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np

from harness.games import twentyone as tw
from harness.kernels import ffi, lib
from rngcore.devices import cards
from rngcore.devices.rulesets import rule_set
from rngcore.engine import locked_call
from rngcore.errors import raise_for_status

WORD_BITS = 64
DEN = lib.KERN_TW_DEN
CONTEXTS = (tw.Context(), tw.Context(split=True), tw.Context(split=True, split_aces=True))  # kernel order
RESCUE_CONTEXTS = (tw.Context(doubled=True), tw.Context(split=True, doubled=True))  # kernel contexts 3, 4
ACTION_CODES = {tw.STAND: lib.KERN_TW_STAND, tw.HIT: lib.KERN_TW_HIT, tw.DOUBLE: lib.KERN_TW_DOUBLE,
                tw.SPLIT: lib.KERN_TW_SPLIT, tw.SURRENDER: lib.KERN_TW_SURRENDER, tw.RESCUE: lib.KERN_TW_RESCUE}
LONGER = 64   # keys per card count of a longer Pontoon hand (twentyone.h)
# The side class of the first cards (twentyone.h): kind | up_twin << 2.
SIDE_KINDS = ("none", "mixed", "coloured", "suited")


def units(value: Fraction, what: str) -> int:
    """``value`` stakes as whole kernel units (1 / DEN); ValueError if it is not one."""
    scaled = Fraction(value) * DEN
    if scaled.denominator != 1:
        raise ValueError(f"{what} {value} is not a whole number of 1/{DEN} stakes (the C round engine's unit)")
    return int(scaled)


def c_rules(rules: tw.Rules, behind: tuple[bool, bool] = (True, True)) -> dict[str, int]:
    """The ``kern_tw_rules`` fields of ``rules`` (the strategy table holds the rest) and the
    bet-behind's (follow double, follow split) choices."""
    if not 1 <= rules.max_hands <= lib.KERN_TW_MAX_HANDS:
        raise ValueError(f"the C round engine holds 1..{lib.KERN_TW_MAX_HANDS} hands per seat, "
                         f"got max_hands={rules.max_hands}")
    if rules.split_busts_returned and (rules.pontoon or not rules.original_bet_only):
        raise ValueError("split_busts_returned is a reading of 000 1-12-ロ (original bet only) for Blackjack and "
                         "Switch: not with Pontoon, nor without original_bet_only")
    bonus = [units(p, "a Pontoon bonus pay") for p in rules.pontoon_bonus] if rules.pontoon else []
    return {"pontoon": int(rules.pontoon), "double_any_cards": int(rules.double_any_cards),
            "bonus_units": bonus + [0] * (lib.KERN_TW_BONUSES - len(bonus)),"hit_soft_17": int(rules.hit_soft_17), "hole_card": int(rules.hole_card),
            "original_bet_only": int(rules.original_bet_only), "split_busts_returned": int(rules.split_busts_returned),
            "dealer_22_push": int(rules.dealer_22_push),
            "max_hands": rules.max_hands, "resplit_aces": int(rules.resplit_aces),
            "even_money": int(rules.take_even_money),
            "blackjack_units": units(rules.blackjack_pays, "the blackjack pay"),
            "surrender_units": units(Fraction(-1, 2), "the surrender loss"),
            "switch_hands": int(rules.switch), "follow_double": int(behind[0]), "follow_split": int(behind[1])}


def _longer_hand(soft: bool, t: int) -> tuple | None:
    """A hand of three cards with this (soft, total), or None if there is none."""
    # soft: an ace counted 11 and two more cards (aces allowed); hard: three cards of 2..10
    first, rest, low = ((tw.ACE,), t - 11, 1) if soft else ((), t, 2)
    values = list(first)
    for k in range(3 - len(values), 0, -1):
        v = min(10, rest - low * (k - 1))
        if v < low:
            return None
        values.append(v)
        rest -= v
    hand = tw.of(*values)
    return hand if rest == 0 and tw.total(hand) == (t, soft) else None


def hand_keys(pontoon: bool = False) -> list[tuple[int, tuple]]:
    """(kernel hand key, a hand with that key) for every key a hand can have (Pontoon's longer
    hands keyed by their card count too, twentyone.h)."""
    # two-card hands a <= b in lexicographic order: keys 0..54 (kern_tw_pair_key)
    out = list(enumerate(tw.of(a, b) for a in tw.VALUES for b in tw.VALUES[a - 1:]))
    for soft in (False, True):
        for t in range(32):
            hand = _longer_hand(soft, t)
            if hand is not None:
                out.append((lib.KERN_TW_PAIRS + 32 * soft + t, hand))
    if pontoon:
        for n in range(4, 8):
            out += [(lib.KERN_TW_PAIRS + LONGER * (n - 3) + 32 * soft + t, hand)
                    for (soft, t), hand in _hands_of(n).items()]
    return out


@functools.lru_cache(maxsize=None)
def _hands_of(n: int) -> dict[tuple[bool, int], tuple]:
    """A hand of ``n`` cards (``n`` = 7: seven) for every (soft, total) one can have, not 6-7-8 / 7-7-7."""
    out: dict = {}
    for values in itertools.combinations_with_replacement(tw.VALUES, n):
        hand = tw.of(*values)
        t, soft = tw.total(hand)
        if t < 32:
            out.setdefault((soft, t), hand)
    return out


def strategy_cells(rules: tw.Rules, strategy) -> np.ndarray:
    """The kernel's strategy table (uint8[KERN_TW_CELLS]) for ``strategy(hand, up, ctx, allowed)``.

    Every cell is the strategy's answer with the actions the round would open; a cell the
    strategy has no answer for (it raises ValueError: a question the round never puts, or
    a gap in the strategy) is ``KERN_TW_NO_CELL``, which fails a round that reaches it.
    """
    cells = np.full(lib.KERN_TW_CELLS, lib.KERN_TW_NO_CELL, dtype=np.uint8)
    keys = hand_keys(rules.pontoon)
    for ci, ctx in enumerate(CONTEXTS):
        for up in tw.VALUES:
            for can in (0, 1):
                for key, hand in keys:
                    allowed = tw.allowed_actions(rules, up, hand, ctx, bool(can))
                    try:
                        act = strategy(hand, up, ctx, allowed)
                    except ValueError:
                        continue
                    if act in allowed:
                        cells[lib.kern_tw_cell(ci, up, can, key)] = ACTION_CODES[act]
    if rules.pontoon:
        # the rescue of a doubled hand of hard total t <= 20 (3-7-ホ): contexts 3, 4, key 55 + t
        for ci, ctx in enumerate(RESCUE_CONTEXTS, start=len(CONTEXTS)):
            for up in tw.VALUES:
                for t in range(3, 21):
                    act = strategy(_doubled_hand(t), up, ctx, (tw.STAND, tw.RESCUE))
                    cells[lib.kern_tw_cell(ci, up, 0, lib.KERN_TW_PAIRS + t)] = ACTION_CODES[act]
    return cells


def _doubled_hand(t: int) -> tuple:
    """A three-card hand of hard total ``t`` (3..20): what a doubled hand's rescue is asked with."""
    return tw.of(*([1, 1, t - 2] if t <= 11 else [1, t - 11, 10]))


def net_of(index: int) -> Fraction:
    """The net per initial unit of a kernel net class."""
    return Fraction(index - lib.KERN_TW_NET_OFFSET, DEN)


@functools.lru_cache(maxsize=None)
def side_cards(side: int) -> tuple[int, int, int]:
    """First cards (c1, up, c2 codes) of a side class: what the games' side bets are labelled from."""
    kind, twin = side & 3, side >> 2
    ace = cards.encode(1, 0)
    second = {0: cards.encode(2, 0), 1: cards.encode(1, 1), 2: cards.encode(1, 3), 3: cards.encode(1, 0, 1)}[kind]
    up = cards.encode(1, 0, 2) if twin else cards.encode(3, 0)
    return ace, up, second


class TwentyOneTable:
    """A C twenty-one table: one seat playing ``strategy`` under ``rules`` from the shoe of the
    devices' procedure ``shoe_rules`` with ``decks`` decks (``rngcore.devices.rulesets``).

    With ``rules.switch`` the seat holds two areas and ``swaps`` (uint8[KERN_TW_SWAPS], 1 where
    the seat exchanges the second cards, :func:`harness.games.twentyone_switch.swap_cells`)
    is required.  ``behind``: the bet-behind's (follow double, follow split) choices (001)."""

    def __init__(self, rules: tw.Rules, strategy, shoe_rules: str, decks: int, swaps: np.ndarray | None = None,
                 behind: tuple[bool, bool] = (True, True)):
        procedure = rule_set(shoe_rules)
        fresh = np.ascontiguousarray(cards.fresh_stack(decks, procedure.ranks), dtype=np.uint16)
        values = [min(cards.rank_of(int(c)), tw.TEN) for c in fresh]
        self.counts = tuple(values.count(v) for v in tw.VALUES)   # the shoe's cards of each value
        self._cells = strategy_cells(rules, strategy)
        self._table = ffi.new("kern_tw_table *")
        shoe = ffi.new("kern_bac_rules *", procedure.c_rules(decks))
        c = ffi.new("kern_tw_rules *", c_rules(rules, behind))
        status = lib.kern_tw_table_init(self._table, ffi.from_buffer("uint16_t[]", fresh), fresh.size, shoe, c,
                                        ffi.from_buffer("uint8_t[]", self._cells))
        raise_for_status(status, f"the twenty-one table ({shoe_rules}, {decks} decks)", details={
            lib.RNG_E_ARGUMENT: "the shoe needs a cut card with at least 10 cards behind it and no per-round "
                                "burn, and the strategy may split only pairs"})
        if rules.switch != (swaps is not None):
            raise ValueError("a two-area (switch) table takes its swap cells, and only it does")
        if swaps is not None:
            swaps = np.ascontiguousarray(swaps, dtype=np.uint8)
            if swaps.shape != (lib.KERN_TW_SWAPS,):
                raise ValueError(f"swap cells must be {lib.KERN_TW_SWAPS} values")
            raise_for_status(lib.kern_tw_set_swaps(self._table, ffi.from_buffer("uint8_t[]", swaps)),
                             "the switch decisions", details={lib.RNG_E_ARGUMENT: "each swap cell is 0 or 1"})

    @property
    def cells(self) -> np.ndarray:
        """The strategy table the kernel plays (a copy)."""
        return self._cells.copy()

    @property
    def shoes(self) -> int:
        return int(self._table.shoe.shoes)

    def play(self, generator, rounds: int, nets: np.ndarray, sides: np.ndarray, *, firsts: np.ndarray | None = None,
             behind: np.ndarray | None = None, log: bool = False, bits: int = WORD_BITS):
        """Play ``rounds`` rounds, adding to ``nets`` (uint64[KERN_TW_NETS]) and ``sides``
        (uint64[KERN_TW_SIDES]), and the first round of each shoe to ``firsts``
        (uint64[KERN_TW_FIRSTS]: its net class, or ``KERN_TW_SPLIT_CLASS`` if the seat split);
        and the bet-behind's net to ``behind`` (uint64[KERN_TW_NETS]); with ``log``, return each
        round's (net units, side class) arrays, and the bet-behind's nets too if ``log="behind"``."""
        arrays = [("nets", nets, lib.KERN_TW_NETS), ("sides", sides, lib.KERN_TW_SIDES)]
        if firsts is not None:
            arrays.append(("firsts", firsts, lib.KERN_TW_FIRSTS))
        if behind is not None:
            arrays.append(("behind", behind, lib.KERN_TW_NETS))
        for name, a, size in arrays:
            if a.dtype != np.uint64 or a.shape != (size,) or not a.flags.c_contiguous:
                raise ValueError(f"{name} must be a contiguous uint64 array of {size} classes")
        net_log = np.zeros(rounds if log else 0, dtype=np.int32)
        side_log = np.zeros(rounds if log else 0, dtype=np.uint8)
        behind_log = np.zeros(rounds if log == "behind" else 0, dtype=np.int32)
        optional = [ffi.NULL if a is None else ffi.from_buffer("uint64_t[]", a) for a in (firsts, behind)]
        status = locked_call(generator, lib.kern_tw_play, self._table, rounds, ffi.from_buffer("uint64_t[]", nets),
                             ffi.from_buffer("uint64_t[]", sides), *optional,
                             ffi.from_buffer("int32_t[]", net_log) if log else ffi.NULL,
                             ffi.from_buffer("uint8_t[]", side_log) if log else ffi.NULL,
                             ffi.from_buffer("int32_t[]", behind_log) if log == "behind" else ffi.NULL, bits,
                             what=f"playing {rounds} twenty-one rounds")
        _check_round(status, "a round ran out of cards (the shoe never wraps around); the procedure's cut "
                             "card leaves too few behind it")
        if log == "behind":
            return net_log, side_log, behind_log
        return (net_log, side_log) if log else None

    def round(self, codes) -> tuple[Fraction, int, int]:
        """(net per initial unit, side class, cards used) of the round dealt from ``codes``."""
        return self.round_hands(codes)[:3]

    def round_hands(self, codes) -> tuple[Fraction, int, int, int]:
        """:meth:`round` and the hands the seat held (1 unless it split)."""
        nets, side, used, hands = self.round_areas(codes)
        return nets[0], side, used, hands

    def round_areas(self, codes) -> tuple[tuple[Fraction, Fraction, Fraction], int, int, int]:
        """(each area's net per unit on it and the bet-behind's, side class, cards used, hands
        held) of the round dealt from ``codes``; the second area's net is 0 with one area."""
        stack = np.ascontiguousarray(codes, dtype=np.uint16)
        nets, side, used, hands = (ffi.new("int32_t[3]"), ffi.new("uint32_t *"), ffi.new("uint32_t *"),
                                   ffi.new("uint32_t *"))
        status = lib.kern_tw_round_areas(self._table, ffi.from_buffer("uint16_t[]", stack), stack.size, nets, side,
                                         used, hands)
        raise_for_status(status, "twenty-one round", details={lib.RNG_E_ARGUMENT: "a code is not a card"})
        _check_round(status, f"the round needs more than the {stack.size} cards given")
        return (tuple(Fraction(int(nets[i]), DEN) for i in range(3)), int(side[0]), int(used[0]), int(hands[0]))


class OutOfCards(ValueError):
    """A round needed more cards than were left (a shoe never wraps around)."""


def _check_round(status: int, out_of_cards: str) -> None:
    """Raise for the kernel's own stops (positive statuses; the source's are checked before)."""
    if status == lib.KERN_TW_OUT_OF_CARDS:
        raise OutOfCards(out_of_cards)
    if status == lib.KERN_TW_NO_PLAY:
        raise ValueError("the strategy has no play for a hand the round reached")
