"""The device registry: every device's name, labels, exact distribution and bulk draw.

This is the interface the statistics battery and the games read (brief,
"Cross-area interfaces: Device registry").  Names::

    roulette-single, roulette-double, roulette-double-as-single, big-six,
    money-wheel, dice:N (1..64 dice), shoe:N (1..12 decks), pontoon:N (1..12
    decks without 10s), deck, tiles

Kinds:

* ``"categorical"`` (wheels): one label index per outcome; ``draw`` -> shape (n,).
* ``"dice"``: N independent faces per outcome; ``draw`` -> shape (n, N),
  faces as indices 0..5 (labels "1".."6").
* ``"permutation"`` (shoes, the deck, the tile set): one freshly shuffled
  stack per row; ``draw`` -> shape (n, width) of label indices.

``probabilities`` is the exact physical distribution of ONE outcome: a wheel's
symbol, one die's face, or the item at any one position of a fresh shuffle.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from rngcore.devices import cards, tiles, wheels
from rngcore.devices._native import shuffled_rows, uniform8

DEVICE_NAMES: tuple[str, ...] = (
    "roulette-single",
    "roulette-double",
    "roulette-double-as-single",
    "big-six",
    "money-wheel",
    "dice:N",
    "shoe:N",
    "pontoon:N",
    "deck",
    "tiles",
)

WHEELS: dict[str, wheels.WheelTable] = {
    w.name: w
    for w in (
        wheels.ROULETTE_SINGLE,
        wheels.ROULETTE_DOUBLE,
        wheels.ROULETTE_DOUBLE_AS_SINGLE,
        wheels.BIG_SIX,
        wheels.MONEY_WHEEL,
    )
}

DIE_FACES = ("1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class DeviceSpec:
    """One device: what it can show and with what exact probability.

    Attributes
    ----------
    name : str
        Canonical name, e.g. ``"shoe:8"``.
    kind : {"categorical", "dice", "permutation"}
    labels : tuple of str
        Label of each category index.
    probabilities : tuple of Fraction
        Exact probability of each label index for one outcome (see module doc).
    width : int
        Values per outcome row (1 for wheels, N for dice, the stack size for
        permutations).
    multiset : tuple of int or None
        Permutation devices: label index of every physical item of the fresh
        stack, in fresh order (``len == width``).
    citation : str
        Where the equipment is defined.
    """

    name: str
    kind: str
    labels: tuple[str, ...]
    probabilities: tuple[Fraction, ...]
    width: int
    multiset: tuple[int, ...] | None
    citation: str
    _draw: Callable[[object, int], np.ndarray] = field(repr=False, compare=False)

    def label_index(self, label: str) -> int:
        """Index of ``label``; ValueError naming the valid labels otherwise."""
        try:
            return self.labels.index(label)
        except ValueError:
            raise ValueError(
                f"{label!r} is not a label of {self.name}; valid labels: {', '.join(self.labels)}"
            ) from None

    def draw(self, generator, n: int) -> np.ndarray:
        """``n`` outcomes as label indices (uint8): shape (n,) or (n, width).

        Reproducible: the same generator state always gives the same array.
        """
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        return self._draw(generator, n)


def _wheel_spec(table: wheels.WheelTable) -> DeviceSpec:
    symbol_of = np.array([max(s, 0) for s in table.symbol_of_section], dtype=np.uint8)
    identity = all(s == i for i, s in enumerate(table.symbol_of_section))

    def draw(generator, n):
        sections = uniform8(generator, len(table.sections), n, void=table.void_section)
        return sections if identity else symbol_of[sections]

    return DeviceSpec(
        name=table.name,
        kind="categorical",
        labels=table.symbols,
        probabilities=table.probabilities,
        width=1,
        multiset=None,
        citation=table.citation,
        _draw=draw,
    )


def _dice_spec(count: int) -> DeviceSpec:
    def draw(generator, n):
        return uniform8(generator, 6, n * count).reshape(n, count)

    return DeviceSpec(
        name=f"dice:{count}",
        kind="dice",
        labels=DIE_FACES,
        probabilities=(Fraction(1, 6),) * 6,
        width=count,
        multiset=None,
        citation="six-sided dice: 000 別表第1 第5 (craps, 2), 第6 (sic bo, 3), 第9 5-1 (pai gow, 3)",
        _draw=draw,
    )


def _permutation_spec(name: str, labels: tuple[str, ...], multiset: tuple[int, ...], citation: str) -> DeviceSpec:
    fresh = np.array(multiset, dtype=np.uint16)

    def draw(generator, n):
        return shuffled_rows(generator, fresh, n).astype(np.uint8)

    counts = Counter(multiset)
    return DeviceSpec(
        name=name,
        kind="permutation",
        labels=labels,
        probabilities=tuple(Fraction(counts[i], len(multiset)) for i in range(len(labels))),
        width=len(multiset),
        multiset=multiset,
        citation=citation,
        _draw=draw,
    )


def _card_spec(name: str, decks: int, ranks: tuple[int, ...], citation: str) -> DeviceSpec:
    multiset = tuple(int(i) for i in cards.label_indices(cards.fresh_stack(decks, ranks), ranks))
    return _permutation_spec(name, cards.face_labels(ranks), multiset, citation)


# More dice than any game throws at once; the bound keeps one outcome row small.
MAX_DICE = 64


def _parse_count(name: str, prefix: str, low: int, high: int) -> int:
    text = name[len(prefix):]
    if not text.isdigit():
        raise ValueError(f"device {name!r}: {prefix}N needs a whole number N, got {text!r}")
    count = int(text)
    if not low <= count <= high:
        raise ValueError(f"device {name!r}: N must be in {low}..{high}, got {count}")
    return count


def device_spec(name: str) -> DeviceSpec:
    """The :class:`DeviceSpec` for a device name (see DEVICE_NAMES).

    Raises
    ------
    ValueError
        For an unknown name (the message lists the valid ones) or a count out
        of range (``shoe:0``, ``shoe:13``, ``dice:0``, ``dice:65``).
    """
    if not isinstance(name, str):
        raise ValueError(f"device name must be a string; valid names: {', '.join(DEVICE_NAMES)}")
    return _device_spec(name)


@functools.lru_cache(maxsize=64)
def _device_spec(name: str) -> DeviceSpec:
    if name in WHEELS:
        return _wheel_spec(WHEELS[name])
    if name.startswith("dice:"):
        return _dice_spec(_parse_count(name, "dice:", 1, MAX_DICE))
    if name.startswith("shoe:"):
        decks = _parse_count(name, "shoe:", 1, cards.MAX_DECKS)
        return _card_spec(f"shoe:{decks}", decks, cards.STANDARD_RANKS,
                          "stack of N 52-card decks: 000 別表第1 第1 1, 第2 1-1; 001; 002 § 549.3; 003 Art. 1")
    if name.startswith("pontoon:"):
        decks = _parse_count(name, "pontoon:", 1, cards.MAX_DECKS)
        return _card_spec(f"pontoon:{decks}", decks, cards.PONTOON_RANKS,
                          "Pontoon stack, 10s removed: 000 別表第1 第2 3-1")
    if name == "deck":
        return _card_spec("deck", 1, cards.STANDARD_RANKS, "one 52-card deck per round: 000 別表第1 第3 1, 2")
    if name == "tiles":
        return _permutation_spec("tiles", tiles.TILE_LABELS, tiles.TILE_SET, tiles.CITATION)
    raise ValueError(f"unknown device {name!r}; valid names: {', '.join(DEVICE_NAMES)}")
