"""Whole windows read one at a time, for the features whose state is the window itself.

The joint programme (:mod:`harness.slot.joint`) never builds a window; the
cascade and sticky-wild chains do, since what they do next depends on
which cells won.  Both read a window's paylines through the one payline
automaton (:mod:`harness.slot.lines`), so they apply the same line rule as
everything else, and both start from the reels' stops grouped by what the
column shows.
"""
from __future__ import annotations

from typing import Callable, Iterable

from harness.slot.lines import build_line_automaton
from harness.slot.model import SlotModel


def column_groups(strips, weights, rows: int,
                  key: Callable[[Iterable[int]], tuple[int, ...]] = tuple) -> list[dict[tuple[int, ...], int]]:
    """Per reel: what a column shows (``key`` of its cells, top row first) -> its stops (or virtual stops)."""
    out = []
    for r, strip in enumerate(strips):
        cols: dict[tuple[int, ...], int] = {}
        n = len(strip)
        for p in range(n):
            col = key(strip[(p + h) % n] for h in range(rows))
            cols[col] = cols.get(col, 0) + (weights[r][p] if weights else 1)
        out.append({c: w for c, w in cols.items() if w})
    return out


class LineReader:
    """The payline automaton of ``model`` (no progressive), read for one line's symbols at a time, cached."""

    def __init__(self, model: SlotModel):
        self.automaton = build_line_automaton(model, with_progressive=False)
        self.classes = self.automaton.classes
        self._seen: dict[tuple[int, ...], tuple[int, int]] = {}

    def read(self, symbols: tuple[int, ...]) -> tuple[int, int]:
        """(pay in line bets, wild multipliers included; class index or -1) of one line."""
        got = self._seen.get(symbols)
        if got is None:
            pay, cls, _ = self.automaton.evaluate(symbols)
            got = self._seen[symbols] = (pay, cls)
        return got
