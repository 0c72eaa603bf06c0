"""Reel heights drawn per spin (Megaways-style), analysed exactly window by window.

Rules (``docs/slot_model.md``, "Reel heights per spin"): on every spin each
reel ``r`` first draws its height ``h`` (1 to ``rows``) from its stated
weights, independently of the other reels and of its stop; stopped at
``p`` it then shows ``strip[p] .. strip[p + h - 1]``.  The game pays every
way: one shown row on each reel, so ``h_1 x ... x h_R`` ways on that spin,
paid by the ways rule (:mod:`harness.slot.ways_rule`: per symbol, the
matching cells counted over the rows each reel shows) in multiples of
``per_way``.  The stake is the
stated ``bet.total`` whatever the number of ways.

What is exact.  :func:`solve` never lists windows: each reel's distinct
columns at every height it can draw, with their exact integer weights
(height weight times stop weight), go to the programme over the reels of
:mod:`harness.slot.ways`, so a 6-reel game of heights 2 to 7 (117,649 ways)
on 100-stop reels is exact in seconds.  :func:`solve_by_windows` is the
older path, kept as the cross-check and the benchmark baseline: every
height combination and every distinct window is visited once and read by
the ways rule;
beyond :data:`MAX_HEIGHT_WINDOWS` windows it raises
:class:`~harness.slot.errors.BeyondExact`.
"""
from __future__ import annotations

import itertools
import math

from harness.slot.errors import BeyondExact
from harness.slot.height_reels import height_draws
from harness.slot.limits import MAX_HEIGHT_WINDOWS
from harness.slot.model import SlotModel
from harness.slot import ways
from harness.slot.window import WindowFigures, accumulate, column_groups
from harness.slot import ways_rule


def cycle(model: SlotModel) -> int:
    """Equally likely outcomes of one paid spin: height weights (if drawn) times stops, over the reels."""
    if model.heights is None:
        return math.prod(model.stop_totals())
    return math.prod(t * n for t, n in zip(height_draws(model), model.stop_totals()))


def _groups(model: SlotModel) -> list[dict[int, list[tuple[tuple[int, ...], int]]]]:
    """Per reel, per height it can draw: (column shown, stops showing it)."""
    if model.expanding:  # a column's scatters are counted before its wild expands: the stages keep both
        raise ValueError("reel heights with expanding wilds are analysed stage by stage (harness.slot.exact), "
                         "not window by window")
    return [{h: list(column_groups([strip], [model.base_weights[r]] if model.base_weights else None, h)[0].items())
             for h, w in model.heights[r] if w} for r, strip in enumerate(model.base_strips)]


def solve(model: SlotModel) -> WindowFigures:
    """The paid spin's figures by the programme over the reels (see the module docstring).

    Raises
    ------
    ModelError
        If the programme would follow more than
        :data:`~harness.slot.limits.MAX_WAYS_STATES` states at one reel.
    """
    columns = []
    for r, by_height in enumerate(_groups(model)):
        weight = dict(model.heights[r])
        reel: dict[tuple[int, ...], int] = {}
        for h, cols in by_height.items():
            for col, w in cols:
                reel[col] = reel.get(col, 0) + weight[h] * w
        columns.append(reel)
    windows = math.prod(len(c) for c in columns)  # every height combination's windows, summed
    return ways.solve(model, columns, windows)


def solve_by_windows(model: SlotModel) -> WindowFigures:
    """Every height combination and window of the paid spin, read one at a time.

    Raises
    ------
    BeyondExact
        If there are more than :data:`MAX_HEIGHT_WINDOWS` distinct windows (``--simulate N`` then
        reports a stated-precision simulation).
    """
    read = ways_rule.reader(model)
    groups = _groups(model)
    per_reel = [[(h, w) for h, w in model.heights[r] if w] for r in range(model.reels)]
    windows = math.prod(sum(len(g) for g in by_height.values()) for by_height in groups)
    if windows > MAX_HEIGHT_WINDOWS:
        raise BeyondExact("window.heights", f"the reel heights and strips show {windows:,} distinct windows, beyond "
                         f"the {MAX_HEIGHT_WINDOWS:,} the window-by-window reading takes (docs/slot_model.md, Reel "
                         "heights per spin)", model.source)

    def every():
        for combo in itertools.product(*per_reel):
            height_weight = math.prod(w for _, w in combo)
            for cols in itertools.product(*(groups[r][h] for r, (h, _) in enumerate(combo))):
                yield [c for c, _ in cols], height_weight * math.prod(w for _, w in cols)

    return accumulate(model, every(), cycle(model), read, windows)
