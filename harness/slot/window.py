"""Whole windows read one at a time, for the features whose state is the window itself.

The joint programme (:mod:`harness.slot.joint`) never builds a window; the
cascade and sticky-wild chains do, since what they do next depends on
which cells won.  Both read a window's paylines through the one payline
automaton (:mod:`harness.slot.lines`), so they apply the same line rule as
everything else, and both start from the reels' stops grouped by what the
column shows.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

from harness.slot.lines import build_line_automaton, line_classes
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


def scatter_cell(code, window) -> int:
    """The scatter cell (:class:`~harness.slot.model.ScatterCode`) a window (columns of symbols) shows."""
    return sum(col.count(x) * place for x, place in zip(code.symbols, code.place) for col in window)


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

    def hits(self, window, paylines) -> list[tuple[tuple[int, ...], int, int]]:
        """``(path, pay, class)`` of every payline of ``window`` (columns, top row first) that pays."""
        out = []
        for path in paylines:
            pay, cls = self.read(tuple(window[r][row] for r, row in enumerate(path)))
            if pay:
                out.append((path, pay, cls))
        return out


def paying_buckets(awards, cell: int) -> list[tuple[int, int]]:
    """``(b, pay)`` per scatter count range ``awards.buckets[b]`` that ``cell`` shows and that pays
    (multiples of the total bet)."""
    code = awards.code
    out = []
    for b, (i, lo, hi) in enumerate(awards.buckets):
        pay = awards.awards(i, lo)[0]
        if pay and lo <= code.count(cell, i) <= hi:
            out.append((b, pay))
    return out


@dataclasses.dataclass(frozen=True)
class WindowFigures:
    """Sums over the cycle of one paid spin read window by window (credits).

    ``line_paid[c]`` / ``line_credits[c]``: combinations where line class ``c``
    is paid at least once, and what it pays in all; ``bucket_paid[b]``: where
    scatter count range ``b`` (``model.scatter_awards.buckets``) shows and pays.
    """

    cycle: int
    line_credits_total: int
    scatter_credits_total: int
    win_sum: int
    win_sq: int
    no_win: int
    line_paid: tuple[int, ...]
    line_credits: tuple[int, ...]
    bucket_paid: tuple[int, ...]
    windows: int


def accumulate(model: SlotModel, windows, cycle: int, read: Callable[[list], list[tuple[int, int]]],
               count: int) -> WindowFigures:
    """Every ``(window, weight)`` of ``windows`` (columns top row first; weights summing to ``cycle``),
    paid its line readings ``read(window)`` (``(pay, class)`` pairs, pays in line bets) and its scatter pays."""
    awards = model.scatter_awards
    code = awards.code
    n_classes = len(line_classes(model))
    line_paid, line_credits = [0] * n_classes, [0] * n_classes
    bucket_paid = [0] * len(awards.buckets)
    bpl, tb = model.bet_per_line, model.total_bet
    lines_total = scatter_total = s1 = s2 = no_win = counted = 0
    for window, weight in windows:
        counted += weight
        paid: set[int] = set()
        line_win = 0
        for pay, cls in read(window):
            line_win += pay * bpl
            line_credits[cls] += weight * pay * bpl
            paid.add(cls)
        for c in paid:
            line_paid[c] += weight
        cell = scatter_cell(code, window)
        scatter = awards.pay[cell] * tb
        for b, _ in paying_buckets(awards, cell):
            bucket_paid[b] += weight
        win = line_win + scatter
        lines_total += weight * line_win
        scatter_total += weight * scatter
        s1 += weight * win
        s2 += weight * win * win
        if not win:
            no_win += weight
    if counted != cycle:
        raise AssertionError(f"the windows weigh {counted}, the cycle is {cycle}")
    return WindowFigures(cycle=cycle, line_credits_total=lines_total, scatter_credits_total=scatter_total,
                         win_sum=s1, win_sq=s2, no_win=no_win, line_paid=tuple(line_paid),
                         line_credits=tuple(line_credits), bucket_paid=tuple(bucket_paid), windows=count)
