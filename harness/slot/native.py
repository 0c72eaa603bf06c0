"""Hand a slot game's tables to the C kernels in ``csrc/kernels/slot.c``.

The cffi structs only point at memory; every numpy array they point into is
kept alive by the :class:`_Keep` that owns the struct.  Importing this module
raises ImportError when the kernels' extension cannot be loaded (for example a
stale build), and the exact analysis then falls back to Python.  This module
only marshals: the joint programme's result type is built by
:mod:`harness.slot.joint`, a simulation's by :mod:`harness.slot.simulate`,
and a C status becomes an exception through :mod:`rngcore.errors`.
"""
from __future__ import annotations

import weakref

import numpy as np

from harness.kernels import ffi, lib  # ImportError propagates: callers fall back
from rngcore.errors import raise_for_status

from harness.slot.jackpot import level_cells
from harness.slot.lines import LineAutomaton, build_line_automaton
from harness.slot.model import SlotModel
from harness.slot import height_reels
from harness.slot.reelset import EMPTY, ReelSet, base_reelset, feature_reelset
from harness.slot.sticky import sticky_symbol
from harness.slot.ways_rule import WaysRule


class _Keep:
    """A cffi struct plus the arrays it points into."""

    def __init__(self, ctype: str):
        self.ptr = ffi.new(ctype)
        self._arrays: list[np.ndarray] = []

    def array(self, values, dtype, ctype: str):
        arr = np.ascontiguousarray(values, dtype=dtype)
        if arr.size == 0:
            arr = np.zeros(1, dtype=dtype)
        self._arrays.append(arr)
        return ffi.cast(ctype, arr.ctypes.data)

    def adopt(self, other: "_Keep") -> None:
        self._arrays.append(other)  # type: ignore[arg-type]


def fill_reelset(keep: _Keep, target, reels: ReelSet, height_draws=None) -> None:
    """``kern_slot_reelset``; ``height_draws``: per reel the bound of its height draw (reel heights per spin,
    :func:`harness.slot.height_reels.height_draws`; ``reels`` then :func:`harness.slot.height_reels.reelset`)."""
    if height_draws is not None:
        target.height_draws = keep.array(height_draws, np.uint32, "uint32_t *")
    lengths = np.array(reels.lengths, dtype=np.uint32)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.uint32)
    target.reels = reels.reels
    target.rows = reels.rows
    target.strip_len = keep.array(lengths, np.uint32, "uint32_t *")
    target.stop_off = keep.array(offsets, np.uint32, "uint32_t *")
    target.window = keep.array(np.concatenate(reels.windows).ravel(), np.uint8, "uint8_t *")
    target.scat = keep.array(np.concatenate(reels.scatters), np.uint16, "uint16_t *")


def fill_lines(keep: _Keep, target, automaton: LineAutomaton, paylines) -> None:
    target.n_lines = len(paylines)
    target.n_symbols = automaton.delta.shape[1]
    target.n_states = automaton.n_states
    target.line_rows = keep.array(np.array(paylines, dtype=np.uint8).ravel(), np.uint8, "uint8_t *")
    target.delta = keep.array(automaton.delta.ravel(), np.int32, "int32_t *")
    target.done = keep.array(automaton.done, np.uint8, "uint8_t *")
    target.pay = keep.array(automaton.pay, np.int64, "int64_t *")
    target.cls = keep.array(automaton.cls, np.int16, "int16_t *")
    target.prog = keep.array(automaton.prog, np.uint8, "uint8_t *")


def fill_ways(keep: _Keep, target, rule: WaysRule, n_symbols: int) -> None:
    """``kern_slot_ways`` (``csrc/kernels/slot.h``): the ways rule as per-symbol cell weights, the count
    paid for each run length and the pay of each count (:mod:`harness.slot.ways_rule`)."""
    reels = rule.reels
    weight = np.zeros((len(rule.symbols), n_symbols), dtype=np.uint32)
    wild = np.zeros_like(weight)
    paid = np.zeros((len(rule.symbols), reels + 1), dtype=np.uint8)
    pay = np.zeros((len(rule.symbols), reels + 1), dtype=np.int64)
    for k, s in enumerate(rule.symbols):
        for x in range(n_symbols):
            if s.matches(x):  # a cell's count: its multiplier when they multiply (ways_rule.factor)
                weight[k, x] = 1 if rule.adding else rule.multiplier[x]
                wild[k, x] = weight[k, x] if x != s.symbol else 0
        paid[k] = [s.paid(n) for n in range(reels + 1)]
        pay[k] = [s.pays.get(n, 0) for n in range(reels + 1)]
    target.n_cand = len(rule.symbols)
    target.n_symbols = n_symbols
    target.additive = int(rule.adding)
    target.weight = keep.array(weight.ravel(), np.uint32, "uint32_t *")
    target.wild = keep.array(wild.ravel(), np.uint32, "uint32_t *")
    bonus = np.zeros(n_symbols, dtype=np.uint32)  # n_symbols entries, as the kernel reads (EMPTY's too)
    bonus[:len(rule.multiplier)] = [m if m > 1 else 0 for m in rule.multiplier]
    target.bonus = keep.array(bonus, np.uint32, "uint32_t *")
    target.paid = keep.array(paid.ravel(), np.uint8, "uint8_t *")
    target.pay = keep.array(pay.ravel(), np.int64, "int64_t *")
    match = np.zeros(n_symbols, dtype=np.uint8)
    if rule.progressive is not None:  # the cells that continue its run
        symbol, wilds, count = rule.progressive
        match[[symbol, *wilds]] = 1
        target.prog_count = count
    target.prog_match = keep.array(match, np.uint8, "uint8_t *")


def joint_figures_c(reels: ReelSet, automaton: LineAutomaton, paylines, groups, suffixes) -> dict:
    """The fields of :class:`harness.slot.joint.JointMoments` through ``kern_slot_joint``.

    ``groups`` and ``suffixes`` are the programme's tables
    (:func:`harness.slot.joint.group_tables`, :class:`harness.slot.joint.LineSuffixes`).
    """
    keep = _Keep("kern_slot_reelset *")
    fill_reelset(keep, keep.ptr, reels)
    lines = _Keep("kern_slot_lines *")
    fill_lines(lines, lines.ptr, automaton, paylines)
    grp = _groups(reels, groups)
    suf = _suffixes(reels, suffixes)
    nclass = len(automaton.classes)
    width = reels.max_scatter + 1
    arrays = {
        "count": np.zeros(2 * width, np.uint64),
        "line_sum": np.zeros(2 * width, np.uint64),
        "line_sq_lo": np.zeros(2 * width, np.uint64),
        "line_sq_hi": np.zeros(2 * width, np.uint64),
        "no_line_win": np.zeros(width, np.uint64),
        "class_scatter": np.zeros(max(nclass, 1) * width, np.uint64),
    }
    out = ffi.new("kern_slot_moments *")
    for name, arr in arrays.items():
        setattr(out, name, ffi.cast("uint64_t *", arr.ctypes.data))
    raise_for_status(lib.kern_slot_joint(keep.ptr, lines.ptr, grp.ptr, suf.ptr, nclass, out), "exact joint figures")
    pairs = lambda a: [[int(a[2 * k]), int(a[2 * k + 1])] for k in range(width)]  # noqa: E731
    lo, hi = arrays["line_sq_lo"].tolist(), arrays["line_sq_hi"].tolist()
    sq = [int(h) << 64 | int(l) for l, h in zip(lo, hi)]
    return {
        "count": pairs(arrays["count"]),
        "line_sum": pairs(arrays["line_sum"]),
        "line_sq": [[sq[2 * k], sq[2 * k + 1]] for k in range(width)],
        "no_line_win": [int(x) for x in arrays["no_line_win"]],
        "class_scatter": arrays["class_scatter"][: nclass * width].reshape(nclass, width).tolist(),
    }


def _groups(reels: ReelSet, groups) -> _Keep:
    """``kern_slot_groups``: every reel's stop groups per row mask, flattened, and the
    scatter counts of each suffix of reels."""
    n_masks = 1 << reels.rows
    offsets, rep, scat, count = [0], [], [], []
    for r in range(reels.reels):
        for mask in range(n_masks):
            for g_rep, g_scat, g_count in groups[r][mask]:
                rep.append(g_rep)
                scat.append(g_scat)
                count.append(g_count)
            offsets.append(len(rep))
    kmax = reels.max_scatter
    suffix = np.zeros((reels.reels + 1, kmax + 1), dtype=np.uint64)
    for r, row in enumerate(reels.suffix_scatter_counts):
        suffix[r, : len(row)] = row
    grp = _Keep("kern_slot_groups *")
    g = grp.ptr
    g.n_masks = n_masks
    g.group_off = grp.array(offsets, np.uint32, "uint32_t *")
    g.rep = grp.array(rep, np.uint32, "uint32_t *")
    g.scat = grp.array(scat, np.uint16, "uint16_t *")
    g.count = grp.array(count, np.uint64, "uint64_t *")
    g.suffix = grp.array(suffix.ravel(), np.uint64, "uint64_t *")
    g.max_scatter = kmax
    return grp


def _suffixes(reels: ReelSet, suffixes) -> _Keep:
    """``kern_slot_suffixes``: the paylines' row suffixes and the start configuration."""
    suf = _Keep("kern_slot_suffixes *")
    s = suf.ptr
    off = np.cumsum([0] + [len(row) for row in suffixes.row] + [0])[: reels.reels + 1]
    s.off = suf.array(off, np.uint32, "uint32_t *")
    s.row = suf.array([x for row in suffixes.row for x in row], np.uint8, "uint8_t *")
    s.next = suf.array([x for row in suffixes.next for x in row], np.uint32, "uint32_t *")
    start: dict[int, int] = {}
    for sid in suffixes.ids[0]:
        start[sid] = start.get(sid, 0) + 1
    s.n_start = len(start)
    s.start_sid = suf.array(list(start), np.uint32, "uint32_t *")
    s.start_mult = suf.array(list(start.values()), np.uint32, "uint32_t *")
    return suf


# ``SimGame(reader=...)``: how a ways game is read (``csrc/kernels/slot.h``; same totals).
READERS = {"fastest": lib.KERN_SLOT_READER_FASTEST, "cells": lib.KERN_SLOT_READER_CELLS}


class SimGame(_Keep):
    """``kern_slot_game`` for a model, with every table it points into and the readers'
    tables the kernel builds from them once (``kern_slot_prepare``, released with the game)."""

    def __init__(self, model: SlotModel, max_free_spins: int, *, reader: str = "fastest"):
        super().__init__("kern_slot_game *")
        g = self.ptr
        g.reader = READERS[reader]
        fsp = model.free_spins
        if model.heights is None:
            def stage(feature: bool) -> ReelSet:
                return feature_reelset(model) if feature else base_reelset(model)
            draws, n_symbols = None, len(model.symbols)
        else:  # every spin draws each reel's height then its stop: a virtual stop of height_reels.reelset
            def stage(feature: bool) -> ReelSet:
                return height_reels.reelset(model, feature=feature)
            draws, n_symbols = height_reels.height_draws(model), EMPTY + 1  # EMPTY cells match no symbol
        # Without free spins the feature strips are the base strips, never read: built once, not twice.
        base = stage(False)
        stages = (base, stage(True) if fsp else base)
        fill_reelset(self, g.base, stages[0], draws)
        fill_reelset(self, g.feature, stages[1], draws)
        if model.ways:  # paid by the ways rule, not through the payline automaton
            g.ways = 1
            fill_ways(self, g.base_ways, WaysRule.of(model, with_progressive=True), n_symbols)
            fill_ways(self, g.feature_ways, WaysRule.of(model, with_progressive=False), n_symbols)
        else:
            fill_lines(self, g.base_lines, build_line_automaton(model, with_progressive=True), model.paylines)
            fill_lines(self, g.feature_lines, build_line_automaton(model, with_progressive=False), model.paylines)
        awards = model.scatter_awards
        g.max_scatter = awards.width - 1
        g.scatter_pay = self.array(awards.pay, np.int64, "int64_t *")
        g.trigger_spins = self.array(awards.trigger, np.uint32, "uint32_t *")
        g.retrigger_spins = self.array(awards.retrigger, np.uint32, "uint32_t *")
        g.bet_per_line = model.bet_per_line
        g.total_bet = model.total_bet
        g.multiplier = fsp.multiplier if fsp else 1
        g.progressive_reset = model.progressive.reset if model.progressive else 0
        wild = sticky_symbol(model)
        if wild is not None:  # sticky free spins: their windows are counted cell by cell
            code = model.scatter_code
            cells = np.zeros(len(model.symbols), dtype=np.uint16)
            for x, place in zip(code.symbols, code.place):
                cells[x] = place
            g.sticky = wild + 1
            g.symbol_cell = self.array(cells, np.uint16, "uint16_t *")
        if model.jackpots:  # the reset of the level each window cell wins, -1 for none
            resets = np.full(awards.width, -1, dtype=np.int64)
            for level, cells in zip(model.jackpots, level_cells(model)):
                resets[cells] = level.reset
            g.jackpot_reset = self.array(resets, np.int64, "int64_t *")
        g.max_free_spins = max_free_spins
        lengths = set(model.stop_totals() + (model.stop_totals(feature=True) if fsp else ()))
        if len(lengths) == 1 and draws is None:
            # Every stop has the same bound: pre-draw in bulk (same values as one call per stop).
            self.draws = ffi.new("kern_slot_draws *")
            self.draws.bound = lengths.pop()
            g.draws = self.draws
        raise_for_status(lib.kern_slot_prepare(g), "slot simulation tables")
        weakref.finalize(self, lib.kern_slot_release, g)  # g stays alive with the finalizer
