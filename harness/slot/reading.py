"""How a window's lines or ways are read, by the rule of the model's bet: the one choice every window reader makes.

Paylines are read left to right through the payline automaton
(:class:`~harness.slot.window.LineReader`), both ways by
:func:`harness.slot.both_ways.window_readings`, and ways (with or without
reel heights, both ways or not) by the ways rule
(:func:`harness.slot.ways_rule.reader`).  The exact analysis reads windows
with these; a round's play (:mod:`harness.slot.spin`) and the window player
(:mod:`harness.slot.window_player`) read them through :func:`line_reading`.
"""
from __future__ import annotations

from typing import Callable

from harness.slot import both_ways, ways_rule
from harness.slot.model import SlotModel
from harness.slot.window import LineReader


def line_reading(model: SlotModel, reader: LineReader | None = None) -> Callable[[tuple], list[tuple[int, int]]]:
    """``read(window)``: the (pay in line bets, class) of every paying reading of a window (columns of
    symbols, top row first), by the rule of the model's bet: its paylines left to right, both ways
    (:func:`harness.slot.both_ways.window_readings`), or its ways, with or without reel heights
    (:func:`harness.slot.ways_rule.reader`).  The exact analysis reads windows with these; a
    round's play (:mod:`harness.slot.spin`) and the window player read them through here."""
    if model.heights is not None or model.ways:  # ways (both ways too): the ways rule
        return ways_rule.reader(model)
    reader = reader or LineReader(model)
    if model.both_ways:
        return both_ways.window_readings(model, reader)

    def read(window) -> list[tuple[int, int]]:
        return [(pay, cls) for _, pay, cls in reader.hits(window, model.paylines)]

    return read


__all__ = ["line_reading"]
