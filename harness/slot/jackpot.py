"""Multi-level progressives won by a symbol combination: counts of a jackpot scatter, or a run on a payline.

Rules (``docs/slot_model.md``, "Jackpot levels"): a *scatter level* is won by
``count_i`` or more of the jackpot scatter anywhere in the paid spin's
window, unless they reach a higher scatter level's count; a *line level* by
a run of ``count_i`` or more of the jackpot line symbol from reel 1 on a
played payline (substituting wilds too if ``wilds``), unless some payline
reaches a higher line level's count.  A play wins one level of each kind at
most, both if it shows both (free spins win none).  Every level is a meter
funded as the combination progressive's is (:mod:`harness.slot.progressive`):
each play adds ``contribution_i x total bet`` before its outcome is known; a
hit pays the meter, which goes back to ``reset_i``.

What is exact.  A scatter level is hit exactly when the window's scatter
cell (:class:`~harness.slot.model.ScatterCode`) shows a count in the level's
range, so its probability per play is a sum of the base game's scatter-cell
weights.  A line level's event "a run of ``count_i`` or more on some
payline" is the combination progressive's flag of the joint programme
(:mod:`harness.slot.joint`) for that combination, so one joint programme per
line level gives, per scatter cell, the stop combinations showing it and the
sums of their wins and squared wins; the events are nested (a longer run
contains the shorter), so the combinations whose *highest* line level is
``i`` are the differences of two.  Each meter's hits are a Bernoulli process
of rate ``p_i`` over plays, so the meter at a hit has the geometric moments
of :func:`harness.slot.progressive.summarise` and its RTP share is
``contribution_i + p_i reset_i / total bet``; the meter paid depends only on
the plays before, so given the cell (and the line level) it is independent
of the play's own wins and features, which keeps the variance and the hit
frequency exact.  The meters of a scatter level and a line level hit in the
same play are *not* independent of each other (both count back over the
same earlier plays), so that product is :func:`pair_moment`'s exactly.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot import progressive as pj
from harness.slot.errors import ModelError
from harness.slot.model import Progressive, SlotModel


def count_range(model: SlotModel, level) -> tuple[int, int]:
    """The counts that win ``level``: its count up to the next level's of its kind, less one."""
    above = [other.count for other in model.jackpots if other.on == level.on and other.count > level.count]
    top = model.max_scatter if level.on == "scatter" else model.reels
    return level.count, (min(above) - 1 if above else top)


def line_levels(model: SlotModel) -> list[int]:
    """Indices (in the model's order) of the levels won on a payline, by count, lowest first."""
    return sorted((i for i, lv in enumerate(model.jackpots) if lv.on == "line"),
                  key=lambda i: model.jackpots[i].count)


def flag_model(model: SlotModel, level: int | None = None) -> SlotModel:
    """``model`` with its combination progressive set to line level ``level``'s run (default: the lowest
    line level's), for the joint programme's flag; ``model`` itself without line levels."""
    order = line_levels(model)
    if not order:
        return model
    lv = model.jackpots[order[0] if level is None else level]
    return dataclasses.replace(model, progressive=Progressive(symbol=model.symbol_names[lv.symbol], count=lv.count,
                                                              wilds=lv.wilds, contribution=Fraction(0), reset=0))


def level_cells(model: SlotModel) -> list[list[int]]:
    """Per level (in the model's order): the scatter cells of a window that win it (none for a line level)."""
    levels = model.jackpots
    scatter = [lv for lv in levels if lv.on == "scatter"]
    if not scatter:
        return [[] for _ in levels]
    code = model.scatter_code
    i = code.symbols.index(scatter[0].symbol)
    reached = min(code.cells, model.scatter_awards.width)
    out = []
    for level in levels:
        if level.on != "scatter":
            out.append([])
            continue
        lo, hi = count_range(model, level)
        out.append([k for k in range(reached) if lo <= code.count(k, i) <= hi])
    return out


def groups(model: SlotModel, stages) -> dict[int, list[tuple[int, int, int]]]:
    """Per level (its index in the model): per scatter cell, ``(combinations, sum of win, sum of win^2)``
    of the paid spins that win it.  ``stages``: the base stage (its joint programme run), flagged with the
    lowest line level's run if there are line levels, then one per higher line level by count (see the
    module docstring).  The analysis pays each level's meter on these spins (its own hook, beside the
    features the scatter cell starts)."""
    width = model.scatter_awards.width
    base = stages[0]
    out = {}
    for i, cells in enumerate(level_cells(model)):
        if model.jackpots[i].on == "scatter":
            mine = set(cells)
            out[i] = [tuple(a + b for a, b in zip(base.cell_sums(model, k, 0), base.cell_sums(model, k, 1)))
                      if k in mine else (0, 0, 0) for k in range(width)]
    sums = [[stage.cell_sums(model, k, 1) for k in range(width)] for stage in stages]
    for j, level in enumerate(line_levels(model)):
        above = sums[j + 1] if j + 1 < len(sums) else [(0, 0, 0)] * width
        out[level] = [tuple(a - b for a, b in zip(mine, theirs)) for mine, theirs in zip(sums[j], above)]
    return out


def summaries(model: SlotModel, won: dict[int, list[tuple[int, int, int]]],
              cycle: int) -> tuple[pj.ProgressiveSummary, ...]:
    """Every level's meter figures, from the paid spins that win it (:func:`groups`).

    Raises
    ------
    ModelError
        If a level can never be won in the paid spin.
    """
    out = []
    for n, level in enumerate(model.jackpots, start=1):
        weight = sum(g[0] for g in won[n - 1])
        if not weight:
            where = ("show in the base game's window (below any higher level's count)" if level.on == "scatter"
                     else "show on a payline of the base game (below any higher line level's count)")
            raise ModelError(f"jackpot, level {n}", f"{level.count} x {model.symbol_names[level.symbol]} can never "
                             f"{where}, so {level.name} can never be won", model.source)
        out.append(pj.summarise(level, Fraction(weight, cycle), model.total_bet))
    return tuple(out)


def pair_moment(scatter: pj.ProgressiveSummary, line: pj.ProgressiveSummary, both: Fraction, bet: int) -> Fraction:
    """``E[M_s M_l]`` of a scatter level's and a line level's meters at a play that hits both.

    Each meter is ``reset + contribution x bet x G`` with ``G = 1 + A``, ``A`` the earlier plays back to
    that level's previous hit.  Going back one play at a time, a play hits neither level with probability
    ``r = 1 - p_s - p_l + both``, so ``P(A >= a, B >= b) = r^min(a, b) q^|a - b|`` (``q`` the other
    level's miss probability) and ``E[AB] = r / (1 - r) (1 + E[A] + E[B])``, ``E[A] = q_s / p_s``.
    """
    ps, pl = scatter.hit_probability, line.hit_probability
    r = 1 - ps - pl + both
    ea, eb = (1 - ps) / ps, (1 - pl) / pl
    e_gg = 1 + ea + eb + r / (1 - r) * (1 + ea + eb)
    cs, cl = scatter.contribution * bet, line.contribution * bet
    return (scatter.reset * line.reset + scatter.reset * cl * (1 + eb) + line.reset * cs * (1 + ea)
            + cs * cl * e_gg)


def pair_terms(model: SlotModel, meters: tuple[pj.ProgressiveSummary, ...],
               won: dict[int, list[tuple[int, int, int]]], cycle: int) -> Fraction:
    """``2 E[M_s M_l]`` summed over the plays that win a scatter level ``s`` and a line level ``l``
    together (per play; :func:`pair_moment`): the meters' cross term in ``E[X^2]``."""
    out = Fraction(0)
    kinds = {i: lv.on for i, lv in enumerate(model.jackpots)}
    for s, cells in enumerate(level_cells(model)):
        for l, spins in won.items():
            if kinds[s] == "scatter" and kinds[l] == "line":
                both = Fraction(sum(spins[k][0] for k in cells), cycle)
                if both:
                    out += 2 * both * pair_moment(meters[s], meters[l], both, model.total_bet)
    return out
