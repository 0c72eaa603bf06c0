"""Reel heights drawn per spin as virtual stops: one per pair of draws a spin makes on a reel.

A spin of a game with reel heights per spin (``docs/slot_model.md``, "Reel
heights per spin") draws on each reel its height, a bounded integer below
the reel's total height weight, then its stop.  :func:`reelset` lists the
pairs as one reel of virtual stops, each showing the column that pair
shows; the exact analysis builds the stages of a game with free spins from
it (:mod:`harness.slot.exact`), and the C kernel plays it
(:mod:`harness.slot.native`: ``kern_slot_reelset.height_draws``), drawing
the two in turn, so its spins are a round's play's draw for draw
(:mod:`harness.slot.spin`).
"""
from __future__ import annotations

import numpy as np

from harness.slot.model import SlotModel
from harness.slot.reelset import EMPTY, ReelSet, expand


def reelset(model: SlotModel, *, feature: bool = False) -> ReelSet:
    """One stage's reels (base game, or the free spins' strips) as a :class:`~harness.slot.reelset.ReelSet`
    of virtual stops, one per pair of draws a spin makes on the reel: virtual stop ``j x W + s`` is the
    reel at the height height draw ``j`` falls in (:func:`~harness.slot.draws.falls_in`, below the total
    height weight) stopped at virtual stop ``s`` (below the reel's total stop weight ``W``), its column
    padded below with :data:`~harness.slot.reelset.EMPTY` to ``rows`` (cells it does not show, which match
    nothing).  So each height and stop shows ``weight(h) x stop weight`` times, and the C kernel plays a
    spin's two draws per reel (:func:`height_draws`) as one of these stops.  The stages of a game with
    free spins are built from it (:func:`harness.slot.ways.build_stage` reads a column without its
    padding); its cycle is :func:`harness.slot.heights.cycle`'s, and its scatter cells count only the rows shown.
    An expanding wild covers the rows its column shows (:func:`~harness.slot.reelset.expand`), the scatters
    counted before it expands.
    """
    strips = model.feature_strips if feature else model.base_strips
    weights = model.feature_weights if feature else model.base_weights
    code = model.scatter_code
    windows, scatters = [], []
    for r, strip in enumerate(strips):
        s = np.asarray(strip, dtype=np.uint8)
        stops = np.asarray(weights[r], dtype=np.int64) if weights else np.ones(len(s), dtype=np.int64)
        blocks = []
        for h, hw in model.heights[r]:  # height draws in order: hw of them fall in height h
            shown = np.repeat(s[(np.arange(len(s))[:, None] + np.arange(h)[None, :]) % len(s)], stops, axis=0)
            blocks.append(np.tile(np.pad(shown, ((0, 0), (0, model.rows - h)), constant_values=EMPTY), (hw, 1)))
        w = np.concatenate(blocks)
        cell = np.zeros(len(w), dtype=np.uint16)
        for symbol, place in zip(code.symbols, code.place):  # counted before the wilds expand
            cell += (w == symbol).sum(axis=1).astype(np.uint16) * place
        windows.append(np.ascontiguousarray(expand(w, model.expanding)))
        scatters.append(cell)
    return ReelSet(rows=model.rows, windows=tuple(windows), scatters=tuple(scatters),
                   column_max=code.column_max(model.rows))


def height_draws(model: SlotModel) -> tuple[int, ...]:
    """Per reel, the bound of its height draw: its total height weight (:func:`reelset`'s ``j``)."""
    return tuple(sum(w for _, w in hs) for hs in model.heights)


__all__ = ["height_draws", "reelset"]
