"""Which of a model's meters one play hits: the combination progressive, the jackpot levels, the mystery levels.

A meter is state outside one play (its value grows by every play's
contribution and goes back to its reset after a hit), so a play itself only
says which meters it hits; what a hit pays is the meter's value then, kept
by whoever plays the plays in order (a round journal,
:mod:`harness.rounds.meters`).  The rules are the model's
(``docs/slot_model.md``, "Progressive", "Mystery and multi-level
progressives", "Jackpot levels"), read here by the functions the exact
analysis reads them with:

* the combination progressive: ``count x symbol`` on at least one played
  line of the paid spin, run from reel 1 (the payline automaton's
  progressive flag, :func:`harness.slot.lines.build_line_automaton`; on a
  way, :meth:`harness.slot.ways_rule.WaysRule.progressive_shown`);
* a scatter jackpot level: the paid spin's scatter cell is one of the
  level's (:func:`harness.slot.jackpot.level_cells`); a line level: the
  highest line level whose run some payline of the paid spin shows
  (:func:`harness.slot.jackpot.flag_model`); at most one level of each kind;
* a mystery level: one draw below the levels' probabilities' common
  denominator, falling in level ``i``'s range (its numerator over that
  denominator) or past them all (no level): at most one level per play,
  whatever the reels show.  This is the play's last draw.

Free spins hit no meter.  A meter is named by its kind and name:
``progressive``, ``jackpot MINOR``, ``mystery GRAND``.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

from harness.slot.draws import falls_in
from harness.slot.errors import ModelError
from harness.slot.jackpot import flag_model, level_cells, line_levels
from harness.slot.model import SlotModel

MAX_DENOMINATOR = 2**32 - 1  # the bounded draw's largest bound (rng_bounded32)


@dataclasses.dataclass(frozen=True)
class Meter:
    """One meter of a model: its name, the share of every stake added to it, its value after a hit (credits)."""

    name: str
    contribution: Fraction
    reset: int


def model_meters(model: SlotModel) -> tuple[Meter, ...]:
    """The model's meters, in the order a round journals them: the progressive, the jackpot levels, the
    mystery levels (each in the model's order)."""
    out = [] if model.progressive is None else [Meter("progressive", model.progressive.contribution,
                                                      model.progressive.reset)]
    out += [Meter(f"jackpot {lv.name}", lv.contribution, lv.reset) for lv in model.jackpots]
    out += [Meter(f"mystery {lv.name}", lv.contribution, lv.reset) for lv in model.mystery]
    return tuple(out)


class MeterHits:
    """The hit rules of one model's meters, built once (see the module doc)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.meters = model_meters(model)
        self.progressive = None if model.progressive is None else _run_reader(model)
        self.cells = {f"jackpot {lv.name}": frozenset(cells) for lv, cells in zip(model.jackpots, level_cells(model))
                      if lv.on == "scatter"}
        # the line levels, highest count first: the first whose run a payline shows is the one won
        self.lines = [(f"jackpot {model.jackpots[i].name}", _run_reader(flag_model(model, i)))
                      for i in reversed(line_levels(model))]
        self.den, self.weights = 0, ()
        if model.mystery:
            self.den = math.lcm(*(m.probability.denominator for m in model.mystery))
            if self.den > MAX_DENOMINATOR:
                raise ModelError("mystery", f"the levels' probabilities have the common denominator {self.den:,}, "
                                 f"above the one draw of a play's mystery outcome (at most {MAX_DENOMINATOR:,})",
                                 model.source)
            self.weights = tuple(int(m.probability * self.den) for m in model.mystery)

    def hits(self, columns, cell: int, draws) -> tuple[str, ...]:
        """The meters the paid spin showing ``columns`` (symbol indices, top row first) with scatter cell
        ``cell`` hits, the mystery draw taken from ``draws`` (a draw source: one draw, if the model has
        mystery levels)."""
        out = []
        if self.progressive is not None and self.progressive(columns):
            out.append("progressive")
        out += [name for name, cells in self.cells.items() if cell in cells]
        out += next(([name] for name, shown in self.lines if shown(columns)), [])
        if self.den:
            level = falls_in(self.weights + (self.den - sum(self.weights),), draws.one(self.den))
            if level < len(self.weights):
                out.append(self.meters[len(self.meters) - len(self.weights) + level].name)
        return tuple(out)


def _run_reader(model: SlotModel):
    """``shown(columns)``: whether the paid spin shows ``model``'s combination progressive's run."""
    if model.ways or model.heights is not None:
        from harness.slot.ways_rule import WaysRule

        return WaysRule.of(model, with_progressive=True).progressive_shown
    from harness.slot.lines import build_line_automaton

    automaton, paylines = build_line_automaton(model, with_progressive=True), model.paylines
    seen: dict[tuple[int, ...], bool] = {}

    def shown(columns) -> bool:
        for path in paylines:
            symbols = tuple(columns[r][row] for r, row in enumerate(path))
            got = seen.get(symbols)
            if got is None:
                got = seen[symbols] = automaton.evaluate(symbols)[2]
            if got:
                return True
        return False

    return shown


__all__ = ["MAX_DENOMINATOR", "Meter", "MeterHits", "model_meters"]
