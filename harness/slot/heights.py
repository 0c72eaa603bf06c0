"""Reel heights drawn per spin (Megaways-style), analysed exactly window by window.

Rules (``docs/slot_model.md``, "Reel heights per spin"): on every spin each
reel ``r`` first draws its height ``h`` (1 to ``rows``) from its stated
weights, independently of the other reels and of its stop; stopped at
``p`` it then shows ``strip[p] .. strip[p + h - 1]``.  The game pays every
way: one shown row on each reel, so ``h_1 x ... x h_R`` ways on that spin,
each paid as a payline is (runs from the left, the single highest
combination of the way) in multiples of ``per_way``.  The stake is the
stated ``bet.total`` whatever the number of ways.

What is exact.  Every height combination and every distinct window it can
show (each reel's stops grouped by the column they show at that height) is
visited once, with its exact integer weight (height weights times stop
weights).  A window's ways are not listed one by one: reading the columns
left to right, the number of ways in each state of the payline automaton
(:mod:`harness.slot.lines`) is carried, so a window costs ``reels x states``
steps however many ways it has.  Every figure is then a sum of exact
integer weights; a model with more than :data:`MAX_HEIGHT_WINDOWS` windows is
refused (exit 2), never sampled.
"""
from __future__ import annotations

import itertools
import math

from harness.slot.errors import ModelError
from harness.slot.limits import MAX_HEIGHT_WINDOWS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, WindowFigures, accumulate, column_groups


def ways_reading(reader: LineReader, window) -> list[tuple[int, int]]:
    """(pay x the ways paying it, class) per paying end state of the window's ways, read column by column."""
    a = reader.automaton
    counts = {0: 1}
    for col in window:
        nxt: dict[int, int] = {}
        for state, n in counts.items():
            if a.done[state]:  # decided: it absorbs every row of the reels left
                nxt[state] = nxt.get(state, 0) + n * len(col)
                continue
            for x in col:
                t = int(a.delta[state, x])
                nxt[t] = nxt.get(t, 0) + n
        counts = nxt
    return [(int(a.pay[s]) * n, int(a.cls[s])) for s, n in counts.items() if a.pay[s]]


def cycle(model: SlotModel) -> int:
    """Equally likely outcomes of one paid spin: height weights (if drawn) times stops, over the reels."""
    if model.heights is None:
        return math.prod(model.stop_totals())
    return math.prod(sum(w for _, w in hs) * n for hs, n in zip(model.heights, model.stop_totals()))


def solve(model: SlotModel) -> WindowFigures:
    """Every height combination and window of the paid spin (see the module docstring).

    Raises
    ------
    ModelError
        If there are more than :data:`MAX_HEIGHT_WINDOWS` distinct windows.
    """
    reader = LineReader(model)
    groups = [{h: list(column_groups([strip], [model.base_weights[r]] if model.base_weights else None, h)[0].items())
               for h, w in model.heights[r] if w} for r, strip in enumerate(model.base_strips)]
    per_reel = [[(h, w) for h, w in model.heights[r] if w] for r in range(model.reels)]
    windows = sum(math.prod(len(groups[r][h]) for r, (h, _) in enumerate(combo))
                  for combo in itertools.product(*per_reel))
    if windows > MAX_HEIGHT_WINDOWS:
        raise ModelError("window.heights", f"the reel heights and strips show {windows:,} distinct windows, beyond "
                         f"the {MAX_HEIGHT_WINDOWS:,} the exact analysis reads (docs/slot_model.md, Reel heights "
                         "per spin)", model.source)

    def every():
        for combo in itertools.product(*per_reel):
            height_weight = math.prod(w for _, w in combo)
            for cols in itertools.product(*(groups[r][h] for r, (h, _) in enumerate(combo))):
                yield [c for c, _ in cols], height_weight * math.prod(w for _, w in cols)

    return accumulate(model, every(), cycle(model), lambda window: ways_reading(reader, window), windows)
