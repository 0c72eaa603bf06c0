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

What is exact.  Both readings of a line end at the last reel, so no payline
is decided early and the joint programme's configurations would not merge;
instead every distinct window is visited once, each reel's stops grouped by
the column they show (at most :data:`MAX_BOTH_WAYS_READS` payline readings).
Every figure (the RTP by class, the variance, the hit frequency, each
class's probability of being paid at least once on some line in some
direction) is then a sum of exact integer weights.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from harness.slot.errors import ModelError
from harness.slot.limits import MAX_BOTH_WAYS_READS
from harness.slot.model import SlotModel
from harness.slot.window import LineReader, column_groups


@dataclasses.dataclass(frozen=True)
class WindowFigures:
    """Sums over the cycle of one paid spin (credits; see the module docstring).

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
    """Every distinct window of the paid spin, paid both ways (see the module docstring).

    Raises
    ------
    ModelError
        If the windows times the paylines read exceed :data:`MAX_BOTH_WAYS_READS`.
    """
    reader = LineReader(model)
    groups = [list(g.items()) for g in column_groups(model.base_strips, model.base_weights, model.rows)]
    windows = math.prod(len(g) for g in groups)
    reads = 2 * windows * len(model.paylines)
    if reads > MAX_BOTH_WAYS_READS:
        raise ModelError("bet.both_ways", f"both-ways pays are analysed by reading every distinct window: "
                         f"{windows:,} windows x {len(model.paylines):,} {model.line_word}s x 2 directions = "
                         f"{reads:,} readings, beyond the {MAX_BOTH_WAYS_READS:,} this tool does "
                         "(docs/slot_model.md, Both-ways pays)", model.source)
    awards = model.scatter_awards
    code = awards.code
    n_classes = len(reader.classes)
    line_paid, line_credits = [0] * n_classes, [0] * n_classes
    bucket_paid = [0] * len(awards.buckets)
    bpl, tb = model.bet_per_line, model.total_bet
    lines_total = scatter_total = s1 = s2 = no_win = 0
    for columns in itertools.product(*groups):
        weight = math.prod(w for _, w in columns)
        window = [c for c, _ in columns]
        paid: set[int] = set()
        line_win = 0
        for path in model.paylines:
            for pay, cls in line_pay(reader, tuple(window[r][row] for r, row in enumerate(path)), model.reels):
                line_win += pay * bpl
                line_credits[cls] += weight * pay * bpl
                paid.add(cls)
        for c in paid:
            line_paid[c] += weight
        cell = sum(col.count(x) * place for x, place in zip(code.symbols, code.place) for col in window)
        scatter = awards.pay[cell] * tb
        for b, (i, lo, hi) in enumerate(awards.buckets):
            if awards.awards(i, lo)[0] and lo <= code.count(cell, i) <= hi:
                bucket_paid[b] += weight
        win = line_win + scatter
        lines_total += weight * line_win
        scatter_total += weight * scatter
        s1 += weight * win
        s2 += weight * win * win
        if not win:
            no_win += weight
    return WindowFigures(cycle=math.prod(model.stop_totals()), line_credits_total=lines_total,
                         scatter_credits_total=scatter_total, win_sum=s1, win_sq=s2, no_win=no_win,
                         line_paid=tuple(line_paid), line_credits=tuple(line_credits),
                         bucket_paid=tuple(bucket_paid), windows=windows)

