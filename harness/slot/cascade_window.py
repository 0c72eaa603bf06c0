"""What a cascade window pays and which cells its wins remove (docs/slot_model.md, "Cascades").

The one rule the cascade chain (:mod:`harness.slot.cascade_walk`) and the
simulation (:mod:`harness.slot.window_player`) both follow: every paying
line's (or way's) winning run is removed, a cell on several winning lines
once.
"""
from __future__ import annotations

from harness.slot.model import SlotModel
from harness.slot.ways_rule import WaysRule
from harness.slot.window import LineReader


class CascadeWindow:
    """What a window pays and which cells it removes (cached per window)."""

    def __init__(self, model: SlotModel):
        self.model = model
        self.lines = LineReader(model)
        self.ways = WaysRule.of(model, with_progressive=False) if model.ways else None
        self._seen: dict[tuple, tuple[int, dict[int, int], frozenset]] = {}

    def evaluate(self, window: tuple) -> tuple[int, dict[int, int], frozenset]:
        """(total pay in line bets, pay per class, cells (reel, row) removed)."""
        got = self._seen.get(window)
        if got is not None:
            return got
        total, per_class, cells = 0, {}, set()
        if self.ways is not None:  # the ways rule (heights too): each paid symbol's matching cells on its paid reels
            for pay, cls in self.ways.read(window):
                total += pay
                per_class[cls] = per_class.get(cls, 0) + pay
            cells = self.ways.winning_cells(window)
        for path, pay, cls in ([] if self.ways is not None else self.lines.hits(window, self.model.paylines)):
            total += pay
            per_class[cls] = per_class.get(cls, 0) + pay
            cells.update((r, path[r]) for r in range(self.lines.classes[cls].count))
        got = self._seen[window] = (total, per_class, frozenset(cells))
        return got


def window_evaluator(model: SlotModel):
    """``evaluate(window)``: (total pay in line bets, pay per class, cells (reel, row) removed) of a
    window (columns top row first), the rule the chain and the simulation both follow."""
    return CascadeWindow(model).evaluate


def column_key(model: SlotModel, cells) -> tuple[int, ...]:
    """A column as the chain keeps it: sorted in a ways game (order changes nothing), as shown otherwise."""
    return tuple(sorted(cells)) if model.ways else tuple(cells)
