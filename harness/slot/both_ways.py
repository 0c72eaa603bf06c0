"""Both-ways pays, analysed exactly by enumerating every distinct window.

Rules (``docs/slot_model.md``, "Both-ways pays"): every payline is
paid twice, read from the left as usual and read from the right: the
right-to-left reading is the line rule applied to the line's symbols in
reverse order (runs from the last reel, wilds substituting as declared, the
single highest combination, ties as for lines, wild multipliers of the
combination's own symbols).  The line is paid the sum of the two, except
that a left-to-right combination covering every reel is paid once: its
right-to-left reading is then not paid (it would pay the same cells again).
Scatter pays are unchanged.

What is exact.  A ways game (and one with reel heights per spin) is paid
by the ways rule (:mod:`harness.slot.ways_rule`: the same rule read from
the last reel leftwards, a symbol whose left-to-right combination covers
every reel paid once) and summed over the reels by the programme of
:mod:`harness.slot.ways`, never window by window.

Paylines: both readings of a line end at the last reel, so no payline is
decided early and the joint programme's configurations would not merge;
instead every distinct window is visited once, each reel's stops grouped by
the column they show (at most :data:`MAX_BOTH_WAYS_READS` payline readings).

Either way every figure (the RTP by class, the variance, the hit
frequency, each class's probability of being paid at least once on some
line or way in some direction) is a sum of exact integer weights.
"""
from __future__ import annotations

import itertools
import math
from harness.slot import ways
from harness.slot.errors import BeyondExact
from harness.slot.limits import MAX_BOTH_WAYS_READS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, WindowFigures, accumulate, column_groups


def line_pay(reader: LineReader, symbols: tuple[int, ...], reels: int) -> list[tuple[int, int]]:
    """The (pay, class) of each reading of one line that pays: left to right, then right to left."""
    pay, cls = reader.read(symbols)
    out = [(pay, cls)] if pay else []
    if not pay or reader.classes[cls].count < reels:  # a full-width combination is paid once
        back, back_cls = reader.read(symbols[::-1])
        if back:
            out.append((back, back_cls))
    return out


def solve(model: SlotModel) -> WindowFigures:
    """The paid spin paid both ways (see the module docstring): a ways game by the programme
    over the reels, a payline game window by window.

    Raises
    ------
    BeyondExact
        If a payline game's windows times its paylines read exceed :data:`MAX_BOTH_WAYS_READS`,
        or a ways game's programme its state limit.
    """
    if model.ways:
        columns = column_groups(model.base_strips, model.base_weights, model.rows)
        return ways.solve(model, columns, math.prod(len(c) for c in columns))
    reader = LineReader(model)
    groups = [list(g.items()) for g in column_groups(model.base_strips, model.base_weights, model.rows)]
    windows = math.prod(len(g) for g in groups)
    reads = 2 * windows * len(model.paylines)
    if reads > MAX_BOTH_WAYS_READS:
        raise BeyondExact("bet.both_ways", f"both-ways pays are analysed by reading every distinct window: "
                         f"{windows:,} windows x {len(model.paylines):,} {model.line_word}s x 2 directions = "
                         f"{reads:,} readings, beyond the {MAX_BOTH_WAYS_READS:,} this tool does "
                         "(docs/slot_model.md, Both-ways pays)", model.source)
    every = (([c for c, _ in cols], math.prod(w for _, w in cols)) for cols in itertools.product(*groups))
    return accumulate(model, every, math.prod(model.stop_totals()), window_readings(model, reader), windows)


def window_readings(model: SlotModel, reader: LineReader):
    """``read(window)``: the (pay, class) of every paying reading of the window's lines, both ways
    (the exact analysis and the simulation pay a window with it)."""
    def read(window) -> list[tuple[int, int]]:
        return [hit for path in model.paylines
                for hit in line_pay(reader, tuple(window[r][row] for r, row in enumerate(path)), model.reels)]

    return read
