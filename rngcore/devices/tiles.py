"""The pai gow tile set: 21 designs, 32 tiles (000 別表第1 第9 1-1, 1-2).

Source: ``/work/shared/seeds/000_d4cd2a3cb5c95429.txt`` L3041-3065 (digest
``rules/pai_gow.md`` §1).  000 1-1: designs (1)-(11) two tiles each, designs
(12)-(21) one tile each, 32 tiles in all.  The seed lost the pictures; only the
colour text survives, so each design is labelled by its row number in the 1-2
table: ``"T1"`` .. ``"T21"``.  ``pips`` is the standard Chinese-domino identity
of each row (an *interpretation*, consistent with every pip count the text does
state and with the house-way arithmetic in 000 第9 8; rows (14)/(15) are
"2-6 or 3-5", the source cannot tell which is which); ``text`` is what 000
actually says.  Games take point values from ``pips``; the device itself only
needs the copy counts.

Tile code: the fresh set is 32 tiles in row order (T1, T1, T2, T2, ..., T11,
T11, T12, ..., T21); a tile's code is its label index (0..20), since two copies
of a design are physically indistinguishable.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from rngcore.devices import specs
from rngcore.devices.registry import Device

CITATION = "000 別表第1 第9 1-1, 1-2 (seed L3041-3065)"


@dataclass(frozen=True)
class TileDesign:
    """One row of the 000 第9 1-2 tile table."""

    row: int      # 1..21, the table row
    copies: int   # tiles of this design in the set (000 1-1)
    text: str     # the source's description (translated)
    pips: str     # interpretation: standard identity "a-b"


TILE_DESIGNS: tuple[TileDesign, ...] = (
    TileDesign(1, 2, "3 white upper-left and lower-right, 3 red lower-left and upper-right", "6-6"),
    TileDesign(2, 2, "pips red", "1-1"),
    TileDesign(3, 2, "pips red", "4-4"),
    TileDesign(4, 2, "left 1 red, right 3 white", "1-3"),
    TileDesign(5, 2, "pips white", "5-5"),
    TileDesign(6, 2, "pips white", "3-3"),
    TileDesign(7, 2, "pips white", "2-2"),
    TileDesign(8, 2, "pips white", "5-6"),
    TileDesign(9, 2, "left 4 red, right 6 white", "4-6"),
    TileDesign(10, 2, "left 1 red, right 6 white", "1-6"),
    TileDesign(11, 2, "left 1 red, right 5 white", "1-5"),
    TileDesign(12, 1, "left 4 red, right 5 white", "4-5"),
    TileDesign(13, 1, "pips white", "3-6"),
    TileDesign(14, 1, "pips white", "2-6 or 3-5"),
    TileDesign(15, 1, "pips white", "3-5 or 2-6"),
    TileDesign(16, 1, "left 3 white, right 4 red", "3-4"),
    TileDesign(17, 1, "pips white", "2-5"),
    TileDesign(18, 1, "pips red", "1-4"),
    TileDesign(19, 1, "pips white", "2-3"),
    TileDesign(20, 1, "left 1 red, right 2 white", "1-2"),
    TileDesign(21, 1, "left 2 white, right 4 red", "2-4"),
)

TILE_LABELS: tuple[str, ...] = tuple(f"T{d.row}" for d in TILE_DESIGNS)

# Label index of every physical tile of the fresh set, in row order.
TILE_SET: tuple[int, ...] = tuple(i for i, d in enumerate(TILE_DESIGNS) for _ in range(d.copies))

TILES_PER_STACK = 4  # 000 第9 5-1: four tiles to each position

DEVICES = (
    Device("tiles", "the 32-tile pai gow set, one washed set per outcome", CITATION,
           functools.partial(specs.stack, TILE_LABELS, TILE_SET), labels="T1..T21 (rows of 000 第9 1-2)"),
)
