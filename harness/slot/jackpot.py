"""Multi-level progressives won by a symbol combination: counts of one jackpot scatter.

Rules (``docs/slot_model.md``, "Jackpot levels"): ``count_i`` or more of the
jackpot symbol anywhere in the paid spin's window win level ``i``, unless
they reach a higher level's count, so a play wins at most one level (free
spins win none).  Every level is a meter funded as the combination
progressive's is (:mod:`harness.slot.progressive`): each play adds
``contribution_i x total bet`` before its outcome is known; a hit pays the
meter, which goes back to ``reset_i``.

What is exact.  A level is hit exactly when the window's scatter cell
(:class:`~harness.slot.model.ScatterCode`) shows a count in the level's
range, so its probability ``p_i`` per play is a sum of the base game's
scatter-cell weights, and its hits are a Bernoulli process of rate
``p_i`` over plays: the meter at a hit has the geometric moments of
:func:`harness.slot.progressive.summarise`, and its RTP share is
``contribution_i + p_i reset_i / total bet``.  The meter paid depends only on
the plays before, so given the cell it is independent of the play's own
line wins and features: the analysis adds it, per cell, to the features
the paid spin starts (mean and second moment), which makes the variance and
the hit frequency exact too.
"""
from __future__ import annotations

from fractions import Fraction

from harness.slot import progressive as pj
from harness.slot.errors import ModelError
from harness.slot.model import SlotModel


def count_range(model: SlotModel, level) -> tuple[int, int]:
    """The counts of the jackpot symbol that win ``level``: its count up to the next level's, less one."""
    above = [other.count for other in model.jackpots if other.count > level.count]
    return level.count, (min(above) - 1 if above else model.max_scatter)


def level_cells(model: SlotModel) -> list[list[int]]:
    """Per level (in the model's order): the scatter cells of a window that win it."""
    levels = model.jackpots
    if not levels:
        return []
    code = model.scatter_code
    i = code.symbols.index(levels[0].symbol)
    reached = min(code.cells, model.scatter_awards.width)
    out = []
    for level in levels:
        lo, hi = count_range(model, level)
        out.append([k for k in range(reached) if lo <= code.count(k, i) <= hi])
    return out


def summaries(model: SlotModel, scatter_counts: list[int], cycle: int) -> tuple[pj.ProgressiveSummary, ...]:
    """Every level's meter figures, from the base game's stop combinations per scatter cell.

    Raises
    ------
    ModelError
        If a level's count of the jackpot symbol can never show in the paid spin's window.
    """
    out = []
    for n, (level, cells) in enumerate(zip(model.jackpots, level_cells(model)), start=1):
        weight = sum(scatter_counts[k] for k in cells)
        if not weight:
            raise ModelError(f"jackpot, level {n}", f"{level.count} x {model.symbol_names[level.symbol]} can never "
                             f"show in the base game's window (below any higher level's count), so {level.name} "
                             "can never be won", model.source)
        out.append(pj.summarise(level, Fraction(weight, cycle), model.total_bet))
    return tuple(out)


def by_cell(model: SlotModel, meters: tuple[pj.ProgressiveSummary, ...]) -> dict[int, tuple[Fraction, Fraction]]:
    """Per scatter cell that wins a level: ``(E[M], E[M^2])``, credits, of the meter it pays."""
    return {k: (m.mean_meter, m.meter_second_moment)
            for cells, m in zip(level_cells(model), meters) for k in cells}
