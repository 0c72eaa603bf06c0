"""How each kind of device is drawn: the one place devices meet the statistics' kinds.

A device's statistical shape -- unit word, array shape, label codec, exact
law of one value -- is a kind of :mod:`stats.kinds`, named here by its
registered name; what this module adds is the draw through the unbiased C
primitives.  Each builder returns a :class:`Drawing` (the kind's name, the
labels and exact law, and the bulk draw) for one device; a device module
declares its devices with one of these builders
(:class:`rngcore.devices.registry.Device`).

===============  ===================  ========================================
builder          kind                 draw
===============  ===================  ========================================
:func:`wheel`    ``categorical``      one section per spin, void re-spun
:func:`dice`     ``dice``             N independent faces per roll
:func:`stack`    ``permutation``      one fresh Fisher-Yates shuffle per row
:func:`balls`    ``k-of-n``           the first K of a shuffled set of N balls
===============  ===================  ========================================

The kind classes are not imported here (importing :mod:`stats` costs a
second); :meth:`rngcore.devices.registry.DeviceSpec.as_kind` builds the
kind instance when it is first needed.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from rngcore.devices._native import shuffled_rows, uniform8

Draw = Callable[[object, int], np.ndarray]

#: The kinds the builders make, in the order device lists show them (wheels, dice, stacks, balls).
KIND_ORDER = ("categorical", "dice", "permutation", "k-of-n")


@dataclass(frozen=True)
class Drawing:
    """What a builder makes of a device (fields of :class:`~rngcore.devices.registry.DeviceSpec`).

    Attributes
    ----------
    kind : str
        The :mod:`stats.kinds` kind the device is an instance of.
    labels : tuple of str
        Label of each label index.
    probabilities : tuple of Fraction
        Exact law of ONE value (a wheel's symbol, one die's face, the item at
        any one position of a shuffle, one drawn ball).
    width : int
        Values per outcome row.
    multiset : tuple of int or None
        Stacks: the label index of every item of the fresh stack.
    draw : callable
        ``draw(generator, n)``: n outcomes as uint8 label indices.
    sections : tuple of int or None
        Wheels: the label index of every (non-void) section, clockwise.
    laws : tuple of tuple of Fraction, or None
        Kinds whose values each have their own law (the ``reels`` kind): the
        law of value ``i`` of a row over every label index.
    columns : tuple of (str, str), or None
        The ``reels`` kind: ``(whose, what)`` each value of a row is, such as
        ``("reel 1", "stop")`` or ``("reel 1", "height")`` (None: every value
        a stop, reel 1 first).
    """

    kind: str
    labels: tuple[str, ...]
    probabilities: tuple[Fraction, ...]
    width: int
    multiset: tuple[int, ...] | None
    draw: Draw
    sections: tuple[int, ...] | None = None
    laws: tuple[tuple[Fraction, ...], ...] | None = None
    columns: tuple[tuple[str, str], ...] | None = None


def wheel(table, name: str) -> Drawing:
    """A wheel table (:class:`rngcore.devices.wheels.WheelTable`): one symbol per spin."""
    symbol_of = np.array([max(s, 0) for s in table.symbol_of_section], dtype=np.uint8)
    identity = all(s == i for i, s in enumerate(table.symbol_of_section))

    def draw(generator, n):
        sections = uniform8(generator, len(table.sections), n, void=table.void_section)
        return sections if identity else symbol_of[sections]

    # The wheel's physical order for the wheel-position tests; a void section is no outcome, so
    # its neighbours count as adjacent.
    order = tuple(s for s in table.symbol_of_section if s >= 0)
    return Drawing("categorical", table.symbols, table.probabilities, 1, None, draw, order)


def dice(faces: tuple[str, ...], name: str, count: int) -> Drawing:
    """``count`` fair dice with the given face labels: one row of ``count`` faces per roll."""
    sides = len(faces)

    def draw(generator, n):
        return uniform8(generator, sides, n * count).reshape(n, count)

    return Drawing("dice", tuple(faces), (Fraction(1, sides),) * sides, count, None, draw)


def reels(weights: tuple[int, ...], name: str, count: int) -> Drawing:
    """``count`` reels sharing one stop law: stop ``p`` (label ``p + 1``) covers ``weights[p]`` of the
    ``sum(weights)`` equally likely virtual stops; one row of ``count`` stops per play, reel 1 first."""
    total = sum(weights)
    if not 1 <= total <= 256:
        raise ValueError(f"{name}: 1 to 256 virtual stops fit the uint8 draws, got {total}")
    physical = np.repeat(np.arange(len(weights), dtype=np.uint8), weights)  # virtual stop -> physical stop

    def draw(generator, n):
        return physical[uniform8(generator, total, n * count)].reshape(n, count)

    return Drawing("dice", tuple(str(p) for p in range(1, len(weights) + 1)),
                   tuple(Fraction(w, total) for w in weights), count, None, draw)


def stack(labels: tuple[str, ...], multiset: tuple[int, ...], name: str) -> Drawing:
    """A stack of items (label index of each, in fresh order): one fresh shuffle per row."""
    fresh = np.array(multiset, dtype=np.uint16)

    def draw(generator, n):
        return shuffled_rows(generator, fresh, n).astype(np.uint8)

    counts = Counter(multiset)
    return Drawing("permutation", tuple(labels), tuple(Fraction(counts[i], len(multiset)) for i in range(len(labels))),
                   len(multiset), tuple(multiset), draw)


def balls(count: int, name: str, drawn: int) -> Drawing:
    """``drawn`` distinct balls of ``count`` (labels 1..count), in draw order.

    Each row is the first ``drawn`` items of a fresh uniform shuffle of the
    balls, so every ordered selection is equally likely.
    """
    fresh = np.arange(count, dtype=np.uint16)

    def draw(generator, n):
        return shuffled_rows(generator, fresh, n)[:, :drawn].astype(np.uint8)

    if count > 256:
        raise ValueError(f"{name}: at most 256 balls fit the uint8 label indices, got {count}")
    if not 1 <= drawn <= count:
        raise ValueError(f"{name}: cannot draw {drawn} distinct balls of {count}")
    return Drawing("k-of-n", tuple(str(i) for i in range(1, count + 1)), (Fraction(1, count),) * count, drawn,
                   None, draw)
