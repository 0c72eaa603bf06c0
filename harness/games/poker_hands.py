"""Poker hand ranks (000 別表第1 第3 3, 5-4, 9-8, 9-11) and the C evaluator.

Source: ``000_d4cd2a3cb5c95429.txt`` L1005-1041 (five-card ranks and
tie-breaks), L1227-1245 (Three Card Poker's ranks), L1733-1763 (Omaha's
exactly two hole cards and three board cards), L1781-1800 (the
eight-or-better low); digest ``rules/poker.md`` §1, §4, §8.4, §8.6.  The
original wins where the digest differs.

The ranks are data: :data:`FIVE_CARD_RANKS` and :data:`THREE_CARD_RANKS`
list every category, strongest first, with the item of the seed defining it
and the C code the evaluator gives it.  The evaluator itself is
``csrc/kernels/poker_eval.h``: a hand's value is one ``uint32`` whose integer
order is the seed's order (larger wins, equal ties), ``category << 26`` in
the top bits.  A card is its label index in :mod:`rngcore.devices.cards`
(``suit * 13 + rank - 1``), so a row of the ``deck`` device is a dealt hand.

Readings (the seed is silent):

* quads / trips / full house of equal rank, possible only with shared
  cards, are decided by the remaining cards as in 3-2-ト ("the hand
  containing the stronger card");
* flushes are compared card by card, highest first (3-2-ト);
* the low of 9-11 compares the highest card first: the lower wins (A low).
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from typing import Sequence

import numpy as np

from harness.kernels import ffi, lib
from rngcore.devices import cards as card_codes
from rngcore.errors import raise_for_status

SOURCE = "000 別表第1 第3"
CATEGORY_SHIFT = 26


@dataclasses.dataclass(frozen=True)
class HandRank:
    """One category of a rank table: its C code, name, seed item and definition."""

    code: int
    name: str
    item: str
    definition: str


# 3-1 イ..ヌ, strongest first; tie-breaks 3-2 イ..ト (code: the evaluator's category).
FIVE_CARD_RANKS: tuple[HandRank, ...] = (
    HandRank(lib.KERN_PK_ROYAL_FLUSH, "royal_flush", f"{SOURCE} 3-1-イ", "A, K, Q, J, 10 of one suit"),
    HandRank(lib.KERN_PK_STRAIGHT_FLUSH, "straight_flush", f"{SOURCE} 3-1-ロ, 3-2-ト",
             "five suited cards consecutive in A, K, ..., 2, A; 5-4-3-2-A lowest, no wrap-around"),
    HandRank(lib.KERN_PK_QUADS, "four_of_a_kind", f"{SOURCE} 3-1-ハ, 3-2-イ", "four of one rank; the higher four"),
    HandRank(lib.KERN_PK_FULL_HOUSE, "full_house", f"{SOURCE} 3-1-ニ, 3-2-ロ", "three of a rank and a pair; the higher three"),
    HandRank(lib.KERN_PK_FLUSH, "flush", f"{SOURCE} 3-1-ホ, 3-2-ト", "five of one suit; card by card"),
    HandRank(lib.KERN_PK_STRAIGHT, "straight", f"{SOURCE} 3-1-ヘ, 3-2-ト",
             "five consecutive in A, K, ..., 2, A; 5-4-3-2-A lowest, no wrap-around"),
    HandRank(lib.KERN_PK_TRIPS, "three_of_a_kind", f"{SOURCE} 3-1-ト, 3-2-ハ", "three of one rank; the higher three"),
    HandRank(lib.KERN_PK_TWO_PAIR, "two_pair", f"{SOURCE} 3-1-チ, 3-2-ニ",
             "two pairs; the higher pair, the other pair, the fifth card"),
    HandRank(lib.KERN_PK_PAIR, "one_pair", f"{SOURCE} 3-1-リ, 3-2-ホ", "one pair; the pair, then the other cards"),
    HandRank(lib.KERN_PK_HIGH_CARD, "high_card", f"{SOURCE} 3-1-ヌ, 3-2-ヘ", "five odds; card by card"),
)

# 5-4-イ (1)..(6), strongest first; tie-breaks 5-4-ロ.
THREE_CARD_RANKS: tuple[HandRank, ...] = (
    HandRank(lib.KERN_PK3_STRAIGHT_FLUSH, "straight_flush", f"{SOURCE} 5-4-イ-(1), 5-4-ロ-(3)",
             "three suited cards consecutive in A, K, ..., 2, A; 3-2-A lowest"),
    HandRank(lib.KERN_PK3_TRIPS, "three_of_a_kind", f"{SOURCE} 5-4-イ-(2), 5-4-ロ-(3)", "three of one rank"),
    HandRank(lib.KERN_PK3_STRAIGHT, "straight", f"{SOURCE} 5-4-イ-(3), 5-4-ロ-(3)",
             "three consecutive in A, K, ..., 2, A; 3-2-A lowest"),
    HandRank(lib.KERN_PK3_FLUSH, "flush", f"{SOURCE} 5-4-イ-(4), 5-4-ロ-(3)", "three of one suit; card by card"),
    HandRank(lib.KERN_PK3_PAIR, "one_pair", f"{SOURCE} 5-4-イ-(5), 5-4-ロ-(1)", "a pair; the pair, then the odd card"),
    HandRank(lib.KERN_PK3_HIGH_CARD, "high_card", f"{SOURCE} 5-4-イ-(6), 5-4-ロ-(2)", "no pair; card by card"),
)

KINDS = {"best5": lib.KERN_PK_BEST5, "three": lib.KERN_PK_THREE, "omaha-hi": lib.KERN_PK_OMAHA_HI,
         "omaha-lo": lib.KERN_PK_OMAHA_LO, "low8": lib.KERN_PK_LOW8}
_CARDS_PER_HAND = {"best5": (5, 6, 7), "three": (3,), "omaha-hi": (9,), "omaha-lo": (9,), "low8": (5, 6, 7)}


def category(value) -> np.ndarray | int:
    """The category code(s) (a ``code`` of the rank tables) of hand value(s)."""
    return np.asarray(value) >> CATEGORY_SHIFT if not isinstance(value, int) else value >> CATEGORY_SHIFT


def category_name(value: int, three: bool = False) -> str:
    table = THREE_CARD_RANKS if three else FIVE_CARD_RANKS
    code = int(value) >> CATEGORY_SHIFT
    return next(r.name for r in table if r.code == code)


def parse(text: str | Sequence[str]) -> list[int]:
    """Card indices of labels as printed (``"AS KH 10D"`` or a list of labels)."""
    labels = text.split() if isinstance(text, str) else list(text)
    index = {label: i for i, label in enumerate(card_codes.face_labels())}
    try:
        return [index[label.upper()] for label in labels]
    except KeyError as exc:
        raise ValueError(f"unknown card {exc.args[0]!r}; cards read rank+suit, e.g. AS, 10H, QD") from None


def rank(hands, kind: str = "best5") -> np.ndarray:
    """Values (uint32, larger wins) of hands: an (n, k) array of card indices.

    ``kind``: ``best5`` (best five of 5..7 cards), ``three`` (3 cards, 5-4),
    ``omaha-hi`` / ``omaha-lo`` (4 hole cards then 5 board cards, exactly
    2 + 3; a low is 0 when there is none) or ``low8`` (any five of 5..7).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    hands = np.ascontiguousarray(np.atleast_2d(np.asarray(hands)), dtype=np.uint8)
    if hands.ndim != 2 or hands.shape[1] not in _CARDS_PER_HAND[kind]:
        raise ValueError(f"{kind} hands hold {' or '.join(map(str, _CARDS_PER_HAND[kind]))} cards, "
                         f"got shape {hands.shape}")
    out = np.zeros(hands.shape[0], dtype=np.uint32)
    raise_for_status(lib.kern_pk_rank(ffi.from_buffer("uint8_t[]", hands), hands.shape[1], hands.shape[0],
                                      KINDS[kind], ffi.from_buffer("uint32_t[]", out)),
                     f"ranking {kind} hands (cards are 0..51, each at most once per hand)")
    return out


@functools.lru_cache(maxsize=None)
def all_values(size: int) -> np.ndarray:
    """The value of every hand of 3 (5-4) or 5 (3-1) cards, lexicographic order of sorted indices."""
    kind = {3: lib.KERN_PK_THREE, 5: lib.KERN_PK_BEST5}.get(size)
    if kind is None:
        raise ValueError(f"all_values takes 3 or 5 cards, got {size}")
    out = np.zeros(math.comb(52, size), dtype=np.uint32)
    raise_for_status(lib.kern_pk_all_values(size, kind, ffi.from_buffer("uint32_t[]", out)), "enumerating hands")
    out.flags.writeable = False
    return out


def category_counts(size: int) -> dict[str, int]:
    """Hands of ``size`` cards (5..7, best five; 3 by 5-4) in each category, every hand enumerated in C."""
    if size == 3:
        counts = np.bincount(all_values(3) >> CATEGORY_SHIFT, minlength=16)
        table = THREE_CARD_RANKS
    else:
        if size not in (5, 6, 7):
            raise ValueError(f"category_counts takes 3 or 5..7 cards, got {size}")
        counts = np.zeros(16, dtype=np.uint64)
        raise_for_status(lib.kern_pk_category_counts(size, ffi.from_buffer("uint64_t[]", counts)),
                         "counting hands")
        table = FIVE_CARD_RANKS
    return {r.name: int(counts[r.code]) for r in table}


# ------------------------------------------------------- Omaha Hi-Lo --

# 9-13-ロ: equal best hands share a half's truncated yen by the suit of their
# strongest card (3-2 proviso order, A highest): spades first for the high,
# clubs first for the low.  Suit index of a card: S 0, H 1, D 2, C 3.
ODD_CHIP_SUITS = {"high": ((0, 1, 2, 3), f"{SOURCE} 9-13-ロ"), "low": ((3, 2, 1, 0), f"{SOURCE} 9-13-ロ")}
_TWO_OF_FOUR = tuple(itertools.combinations(range(4), 2))
_THREE_OF_FIVE = tuple(itertools.combinations(range(5), 3))


@dataclasses.dataclass(frozen=True)
class OmahaShowdown:
    """The high and low value of every customer (0: no low) and the order 9-13-ロ
    gives each half's truncated yen in (best hand first, then the suit rule)."""

    high: dict[int, int]
    low: dict[int, int]
    high_first: tuple[int, ...]
    low_first: tuple[int, ...]


def _suit_key(five: Sequence[int], half: str) -> tuple[int, ...]:
    """The suits of five cards, strongest card first (3-2 proviso; equal ranks by the
    half's suit order), each as its place in that order: smaller comes first."""
    order = ODD_CHIP_SUITS[half][0]
    strength = [(-((c % 13 + 12) % 13), order.index(c // 13)) for c in five]  # A strongest, 2 weakest
    return tuple(place for _, place in sorted(strength))


def omaha_showdown(holes: dict[int, Sequence[int]], board: Sequence[int]) -> OmahaShowdown:
    """Each customer's high and low hand of exactly two of his four cards and three
    of the five board cards (9-8-イ-(1), 9-11), and the odd-yen order of 9-13-ロ.

    Readings where the seed is silent: equal best hands whose strongest cards
    share a suit (a board card) are decided by the next card, and so on (two
    customers' hands always differ in their own cards); a customer whose
    best hand can be made of more than one five cards shows the one the
    suit rule prefers.
    """
    high: dict[int, int] = {}
    low: dict[int, int] = {}
    keys: dict[str, dict[int, tuple]] = {"high": {}, "low": {}}
    for i, hole in holes.items():
        fives = np.array([[hole[a], hole[b], *(board[k] for k in t)] for a, b in _TWO_OF_FOUR
                          for t in _THREE_OF_FIVE], dtype=np.uint8)
        for half, values in (("high", rank(fives)), ("low", rank(fives, "low8"))):
            best = int(values.max())
            (high if half == "high" else low)[i] = best
            keys[half][i] = min(_suit_key(f, half) for f, v in zip(fives.tolist(), values) if v == best)
    return OmahaShowdown(high, low,
                         tuple(sorted(holes, key=lambda i: (-high[i], keys["high"][i]))),
                         tuple(sorted(holes, key=lambda i: (-low[i], keys["low"][i]))))


# ---------------------------------------------------------- completions --

STUD_CLASSES = lib.KERN_STUD_CLASSES
STUD_PAIR_CLASS = lib.KERN_STUD_PAIR_CLASS


PAIR_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # a pair class's rank, in order


def stud_class_labels(paying: set[str], pair_label) -> list[str | None]:
    """The pay-table label of each completion class of ``stud_classes.h``
    (None: unused): a category's name if ``paying`` holds it, else ``"lose"``;
    one pair by ``pair_label(rank)``, rank one of :data:`PAIR_RANKS`."""
    labels: list[str | None] = [None] * STUD_CLASSES
    for r in FIVE_CARD_RANKS:
        if r.code != lib.KERN_PK_PAIR:
            labels[r.code] = r.name if r.name in paying else "lose"
    for k, rank in enumerate(PAIR_RANKS):
        labels[STUD_PAIR_CLASS + k] = pair_label(rank)
    return labels


def completion_class(hands) -> np.ndarray:
    """The class of five-card hands as ``csrc/kernels/stud_classes.h`` counts them:
    the category, one pair split by its rank (``STUD_PAIR_CLASS`` + 0 for 2s .. 12 for As)."""
    values = rank(hands).astype(np.int64)
    cat = values >> CATEGORY_SHIFT
    pair = np.maximum((values >> 13) & 0x1FFF, 1)
    pair_rank = np.floor(np.log2(pair)).astype(np.int64)  # one bit set: exact
    return np.where(cat == lib.KERN_PK_PAIR, STUD_PAIR_CLASS + pair_rank, cat)


@functools.lru_cache(maxsize=None)
def completion_classes(known: int) -> np.ndarray:
    """For every set of ``known`` cards (2..5; lexicographic order), the classes of
    all its completions to five cards (``(C(52, known), STUD_CLASSES)`` counts), counted in C."""
    if known not in (2, 3, 4, 5):
        raise ValueError(f"completion_classes takes 2..5 known cards, got {known}")
    out = np.zeros((math.comb(52, known), STUD_CLASSES), dtype=np.uint32)
    raise_for_status(lib.kern_stud_classes(known, ffi.from_buffer("uint32_t[]", out)), "counting completions")
    out.flags.writeable = False
    return out


_BINOMIAL = np.array([[math.comb(n, k) for k in range(8)] for n in range(53)], dtype=np.int64)


def lex_index(sets) -> np.ndarray:
    """Position of each set of k distinct cards (rows, any order) in the lexicographic
    order of sorted k-sets of the 52 cards (the order of :func:`all_values`)."""
    cards = np.sort(np.atleast_2d(np.asarray(sets, dtype=np.int64)), axis=1)
    k = cards.shape[1]
    steps = _BINOMIAL[51 - cards, k - np.arange(k)]
    return math.comb(52, k) - 1 - steps.sum(axis=1)
