"""Playing cards: the uint16 card code, labels, and the fresh (unshuffled) stack.

Card code (one ``uint16`` per physical card)::

    bit 15 ........ 8 7 6 5 4 3 ..... 0
        deck of origin  0 0 suit  rank

* ``rank`` (bits 0-3): 1 = A, 2..10, 11 = J, 12 = Q, 13 = K.
* ``suit`` (bits 4-5): 0 = S (spades), 1 = H (hearts), 2 = D (diamonds), 3 = C (clubs).
* ``deck`` (bits 8-15): 0-based index of the deck the card came from (0..11).

So ``0x0A1D`` is the king of hearts from deck 10; ``code & 0xFF`` identifies the
face (rank and suit) and ``code >> 8`` the deck.  Duplicates in a multi-deck
shoe are distinct physical cards and keep distinct codes.

Labels are rank + suit as printed: ``"AS"``, ``"10H"``, ``"QD"``.  The label
index of a face is ``suit * 13 + rank - 1`` in a standard deck (AS..KS, AH..KH,
AD..KD, AC..KC); a Pontoon deck (000 別表第1 第2 3-1: the 10s removed) has 48
labels in the same order with the four 10s left out.

The fresh stack is deck 0 in label order, then deck 1, and so on; a shuffle
permutes it.  Which order the fresh stack starts in does not change the
distribution of a uniform shuffle, but it fixes the replay: the same seed and
stream always give the same cards.
"""
from __future__ import annotations

import functools

import numpy as np

from rngcore.devices import specs
from rngcore.devices.registry import Device

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
MAX_DECKS = 12
STANDARD_RANKS = tuple(range(1, 14))
PONTOON_RANKS = tuple(r for r in STANDARD_RANKS if r != 10)  # 000 第2 3-1: 10s removed


def encode(rank: int, suit: int, deck: int = 0) -> int:
    """The uint16 code of the card of ``rank`` (1..13), ``suit`` (0..3) from ``deck``."""
    if not 1 <= rank <= 13:
        raise ValueError(f"rank must be in 1..13 (A=1, J=11, Q=12, K=13), got {rank}")
    if not 0 <= suit <= 3:
        raise ValueError(f"suit must be in 0..3 (0=S, 1=H, 2=D, 3=C), got {suit}")
    if not 0 <= deck < MAX_DECKS:
        raise ValueError(f"deck must be in 0..{MAX_DECKS - 1}, got {deck}")
    return (deck << 8) | (suit << 4) | rank


def rank_of(code) -> np.ndarray | int:
    """Rank 1..13 of card code(s)."""
    return code & 0x0F


def suit_of(code) -> np.ndarray | int:
    """Suit 0..3 (S, H, D, C) of card code(s)."""
    return (code >> 4) & 0x03


def deck_of(code) -> np.ndarray | int:
    """0-based deck of origin of card code(s)."""
    return code >> 8


def card_label(code: int) -> str:
    """Rank + suit as printed on the card, e.g. ``"10H"``."""
    code = int(code)
    rank, suit = code & 0x0F, (code >> 4) & 0x03
    if not 1 <= rank <= 13 or code & 0xC0:
        raise ValueError(f"{code:#06x} is not a card code (see rngcore.devices.cards)")
    return RANKS[rank - 1] + SUITS[suit]


def face_labels(ranks: tuple[int, ...] = STANDARD_RANKS) -> tuple[str, ...]:
    """Labels of the distinct faces of one deck, in label-index order."""
    return tuple(RANKS[r - 1] + s for s in SUITS for r in ranks)


def fresh_stack(decks: int, ranks: tuple[int, ...] = STANDARD_RANKS) -> np.ndarray:
    """Codes of ``decks`` unshuffled decks (deck 0 in label order, then deck 1, ...)."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be in 1..{MAX_DECKS}, got {decks}")
    one = [(suit << 4) | rank for suit in range(4) for rank in ranks]
    return np.array([(d << 8) | c for d in range(decks) for c in one], dtype=np.uint16)


def label_lookup(ranks: tuple[int, ...] = STANDARD_RANKS) -> np.ndarray:
    """Table mapping ``code & 0xFF`` to the label index (255 for no such face)."""
    table = np.full(256, 255, dtype=np.uint8)
    for index, (suit, rank) in enumerate((s, r) for s in range(4) for r in ranks):
        table[(suit << 4) | rank] = index
    return table


def label_indices(codes: np.ndarray, ranks: tuple[int, ...] = STANDARD_RANKS) -> np.ndarray:
    """Label index of every card code (the deck of origin dropped)."""
    return label_lookup(ranks)[np.asarray(codes) & 0xFF]


def _stack(ranks: tuple[int, ...], name: str, decks: int = 1) -> specs.Drawing:
    return specs.stack(face_labels(ranks), tuple(int(i) for i in label_indices(fresh_stack(decks, ranks), ranks)), name)


DEVICES = (
    Device("shoe", "a shoe of N 52-card decks, one shuffled stack per outcome",
           "stack of N 52-card decks: 000 別表第1 第1 1, 第2 1-1; 001; 002 § 549.3; 003 Art. 1",
           functools.partial(_stack, STANDARD_RANKS), labels="rank+suit (AS, 10H, QD)",
           parameter="decks", low=1, high=MAX_DECKS),
    Device("pontoon", "a Pontoon shoe of N decks without 10s, one shuffled stack per outcome",
           "Pontoon stack, 10s removed: 000 別表第1 第2 3-1",
           functools.partial(_stack, PONTOON_RANKS), labels="rank+suit, no 10s",
           parameter="decks", low=1, high=MAX_DECKS),
    Device("deck", "one 52-card deck shuffled per round", "one 52-card deck per round: 000 別表第1 第3 1, 2",
           functools.partial(_stack, STANDARD_RANKS), labels="rank+suit (AS, 10H, QD)"),
)
