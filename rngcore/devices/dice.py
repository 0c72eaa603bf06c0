"""Dice: the die's faces, declared once, and the ``dice:N`` device.

Six-sided dice with faces 1..6 (000 別表第1 第5 for craps' two, 第6 for sic
bo's three, 第9 5-1 for the three that pick pai gow's dealing start).  Every
user of a die -- the device's draw, :func:`rngcore.devices.roll`, the games'
outcome spaces -- reads :data:`FACES`; none counts to six itself.
"""
from __future__ import annotations

import functools

from rngcore.devices import specs
from rngcore.devices.registry import Device

FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
CITATION = "six-sided dice: 000 別表第1 第5 (craps, 2), 第6 (sic bo, 3), 第9 5-1 (pai gow, 3)"

# More dice than any game throws at once; the bound keeps one outcome row small.
MAX_DICE = 64

DEVICES = (
    Device("dice", "N fair dice rolled together, one row of N faces per roll", CITATION,
           functools.partial(specs.dice, FACES), labels="die faces " + "..".join((FACES[0], FACES[-1])),
           parameter="dice", low=1, high=MAX_DICE),
)
