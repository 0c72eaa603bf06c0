"""Both-ways pays, analysed exactly by enumerating every distinct window.

Rules (``docs/slot_model.md``, "Both-ways pays"): every payline (or way) is
paid twice, read from the left as usual and read from the right: the
right-to-left reading is the line rule applied to the line's symbols in
reverse order (runs from the last reel, wilds substituting as declared, the
single highest combination, ties as for lines, wild multipliers of the
combination's own symbols).  The line is paid the sum of the two, except
that a left-to-right combination covering every reel is paid once: its
right-to-left reading is then not paid (it would pay the same cells again).
Scatter pays are unchanged.

What is exact.  A ways game (and one with reel heights per spin) is summed
over the reels by the programme of :mod:`harness.slot.ways`, never window
by window: :func:`way_reader` reads a way left to right while carrying, for
its right-to-left reading, what the symbols read so far will do to it.  The
right-to-left reading of ``x1 .. xR`` is the payline automaton run on
``xR .. x1``; after ``k`` symbols the prefix ``x1 .. xk`` is the *end* of
that reading, so what it contributes is a function from the automaton's
states after ``R - k`` symbols to the final result.  Those functions
(interned; their number is what the prefixes can do, not the prefixes),
paired with the left-to-right state, make a layered automaton whose done
states hold both readings with the full-width rule applied; pairs of a
decided left-to-right state and a constant function are decided early.

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
from harness.slot.errors import ModelError
from harness.slot.limits import MAX_BOTH_WAYS_READS, MAX_WAYS_STATES
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


def way_reader(model: SlotModel) -> ways.WayReader:
    """A way read both ways, left to right (see the module docstring).

    Raises
    ------
    ModelError
        If the automaton would have more than :data:`MAX_WAYS_STATES` states at one reel.
    """
    a = LineReader(model).automaton
    delta, done = a.delta.tolist(), a.done.tolist()
    pay, kind = a.pay.tolist(), a.cls.tolist()
    full = [c.count == model.reels for c in a.classes]
    reels, nsym = model.reels, len(delta[0])
    level = [[0]]  # the automaton's states after j symbols
    for _ in range(reels):
        level.append(sorted({delta[s][x] for s in level[-1] for x in range(nsym)}))
    where = [{s: i for i, s in enumerate(states)} for states in level]

    def readings(lr: int, rl: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        out = [(pay[lr], kind[lr])] if pay[lr] else []
        if rl[0] and not (pay[lr] and full[kind[lr]]):  # a full-width combination is paid once
            out.append(rl)
        return tuple(out)

    # g: per state after reels - k symbols of the right-to-left reading, its final (pay, class)
    start_g = tuple((pay[s], kind[s]) for s in level[reels])
    moved: dict[tuple, tuple] = {}

    def move(k: int, g: tuple, x: int) -> tuple:  # after reading x as symbol k + 1
        key = (k, g, x)
        got = moved.get(key)
        if got is None:
            after = where[reels - k]
            got = moved[key] = tuple(g[after[delta[s][x]]] for s in level[reels - k - 1])
        return got

    ids: dict = {}
    table: list[list[int]] = []
    is_done: list[bool] = []
    held: list[tuple] = []

    def intern(key, final: tuple | None) -> int:
        if key not in ids:
            ids[key] = len(table)
            table.append([])
            is_done.append(final is not None)
            held.append(final or ())
        return ids[key]

    layer = {(0, start_g): intern((0, 0, start_g), None)}
    for k in range(reels):
        nxt: dict = {}
        for (lr, g), sid in layer.items():
            row = []
            for x in range(nsym):
                lr2, g2 = delta[lr][x], move(k, g, x)
                if k + 1 == reels or (done[lr2] and len(set(g2)) == 1):  # both readings decided
                    final = readings(lr2, g2[0])
                    row.append(intern(("done", final), final))
                else:
                    if (lr2, g2) not in nxt:
                        nxt[(lr2, g2)] = intern((k + 1, lr2, g2), None)
                    row.append(nxt[(lr2, g2)])
            table[sid] = row
        if len(nxt) > MAX_WAYS_STATES:
            raise ModelError("bet.both_ways", f"read both ways, a way has more than {MAX_WAYS_STATES:,} states "
                             f"after {k + 1} reels (docs/slot_model.md, Both-ways pays)", model.source)
        layer = nxt
    for sid, d in enumerate(is_done):
        if d:
            table[sid] = [sid] * nsym
    return ways.WayReader(delta=table, done=is_done, readings=held, classes=len(a.classes))


def solve(model: SlotModel) -> WindowFigures:
    """The paid spin paid both ways (see the module docstring): a ways game by the programme
    over the reels, a payline game window by window.

    Raises
    ------
    ModelError
        If a payline game's windows times its paylines read exceed :data:`MAX_BOTH_WAYS_READS`,
        or a ways game's programme its state limit.
    """
    if model.ways:
        columns = column_groups(model.base_strips, model.base_weights, model.rows)
        return ways.solve(model, way_reader(model), columns, math.prod(len(c) for c in columns))
    reader = LineReader(model)
    groups = [list(g.items()) for g in column_groups(model.base_strips, model.base_weights, model.rows)]
    windows = math.prod(len(g) for g in groups)
    reads = 2 * windows * len(model.paylines)
    if reads > MAX_BOTH_WAYS_READS:
        raise ModelError("bet.both_ways", f"both-ways pays are analysed by reading every distinct window: "
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
