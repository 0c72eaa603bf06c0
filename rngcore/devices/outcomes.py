"""Single outcomes with their meaning: a wheel spin (section + label), dice, tile stacks.

The registry (:func:`rngcore.devices.device_spec`) gives label indices in bulk
for statistics; games use these when they need the section of the wheel, the
faces as numbers, or the tile set dealt in stacks.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rngcore.controls import each_round
from rngcore.devices import tiles
from rngcore.devices._native import shuffled_rows, uniform8
from rngcore.devices.dice import FACES
from rngcore.devices.wheels import WHEELS, WheelTable


@dataclass(frozen=True)
class Spin:
    """One spin: the clockwise section index and the label printed on it."""

    section: int
    label: str


def _wheel(wheel: WheelTable | str) -> WheelTable:
    if isinstance(wheel, WheelTable):
        return wheel
    try:
        return WHEELS[wheel]
    except KeyError:
        raise ValueError(f"unknown wheel {wheel!r}; valid: {', '.join(WHEELS)}") from None


def spin_sections(generator, wheel: WheelTable | str, n: int) -> np.ndarray:
    """Section indices of ``n`` valid spins (void sections re-spun), uint8, shape (n,)."""
    table = _wheel(wheel)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    return uniform8(generator, len(table.sections), n, void=table.void_section)


def spin(generator, wheel: WheelTable | str) -> Spin:
    """One valid spin of ``wheel`` (a table or a name such as ``"big-six"``)."""
    table = _wheel(wheel)
    section = int(each_round(generator, 1, lambda k: spin_sections(generator, table, k))[0])
    return Spin(section, table.sections[section])


def roll(generator, dice: int = 2, n: int = 1) -> np.ndarray:
    """``n`` rolls of ``dice`` dice: faces as numbers (1..6, :data:`rngcore.devices.dice.FACES`), uint8, shape (n, dice)."""
    if dice < 1:
        raise ValueError(f"dice must be >= 1, got {dice}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    def draw(k):
        return (uniform8(generator, len(FACES), k * dice) + int(FACES[0])).reshape(k, dice)
    return each_round(generator, n, draw)


def tile_stacks(generator, n: int = 1) -> np.ndarray:
    """``n`` washes of the 32-tile pai gow set dealt in stacks of four.

    Returns tile label indices (into ``tiles.TILE_LABELS``), uint8, shape
    (n, 8, 4): eight stacks of four, in dealing order (000 第9 5-1; the
    e-table deals directly, 13-2).
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    def draw(k):
        washed = shuffled_rows(generator, np.array(tiles.TILE_SET, dtype=np.uint16), k)
        return washed.astype(np.uint8).reshape(k, len(tiles.TILE_SET) // tiles.TILES_PER_STACK,
                                               tiles.TILES_PER_STACK)
    return each_round(generator, n, draw)
