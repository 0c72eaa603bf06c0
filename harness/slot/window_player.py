"""Plays of the games read window by window, in Python: both-ways pays, reel heights, cascades.

The C kernel pays a spin through prefix tables of the payline automaton
read left to right; a both-ways game also reads every line from the right,
and a cascade play goes on from the cells a window's wins remove, so
neither fits those tables.  A one-way game with reel heights per spin is
the kernel's (its virtual stops: :func:`harness.slot.height_reels.reelset`)
unless its reels are too tall for it
(:data:`~harness.slot.limits.MAX_KERNEL_HEIGHT_STOPS`); then it is played here.  This player draws with bounded
integers and pays each window with the very functions the exact analysis
pays it with (:func:`harness.slot.reading.line_reading`, which a round's play
reads too, and :func:`harness.slot.cascade.window_evaluator`), so the rule
lives in one place; ``tests/test_slot_simulate_features.py`` replays fixed draws against
a straightforward evaluation written there, and checks the simulated
figures against the exact ones.

Draws, for each chunk of plays and each reel in order (reel 1 first): with
reel heights, every play's height, a bounded integer below the reel's total
height weight falling in a height's range; then every play's (virtual)
stop, a bounded integer below the reel's stop count.  Then every play's
mystery draw (:mod:`harness.slot.mystery_draw`: a cascade model's mystery
levels).  Then, play by play, a cascade's refills: after each paying
window, reel by reel, one stop of the reel's refill strip per removed cell,
the first drawn on top.  ``rng.integers`` (numpy's ``Generator`` or
``rngcore.Generator``) draws them; no modulo or float picks an outcome.
These features stand alone in a model (no free spins or progressives
beside them; cascades may have mystery levels), so a play is one spin and,
for cascades, its refills.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from harness.slot.chunks import play_chunks
from harness.slot.draws import NumpyDraws, falls_in_many
from harness.slot.errors import ModelError
from harness.slot.height_reels import height_draws
from harness.slot.limits import MAX_FREE_SPINS
from harness.slot.model import SlotModel
from harness.slot.mystery_draw import MysteryDraw
from harness.slot.reelset import base_reelset, expand_column
from harness.slot.reading import line_reading

CHUNK = 1 << 14  # plays drawn at once: Ctrl-C and progress between chunks


class WindowGame:
    """One model's window, paid; windows already seen are remembered (a game shows few distinct ones)."""

    def __init__(self, model: SlotModel):
        from harness.slot import cascade

        self.model = model
        self.reels = base_reelset(model, expanded=False)  # the cells shown: expanding wilds expand in play()
        if model.cascade is not None:  # a play is a chain of windows: see cascade()
            self.evaluate = cascade.window_evaluator(model)
        else:
            self.read = line_reading(model)
        code = model.scatter_code
        self._scatter = list(zip(code.symbols, code.place))
        self._seen: dict[tuple, tuple[int, int]] = {}

    def play(self, window) -> tuple[int, int]:
        """(line credits, scatter credits) of a window (columns of the cells shown, top row first, before any
        expanding wild expands); not a cascade model's."""
        key = tuple(tuple(col) for col in window)
        got = self._seen.get(key)
        if got is None:
            m = self.model
            shown = tuple(expand_column(c, m.expanding) for c in key)
            lines = sum(pay for pay, _ in self.read(shown)) * m.bet_per_line
            cell = sum(col.count(x) * place for x, place in self._scatter for col in key)  # before wilds expand
            got = (lines, int(m.scatter_awards.pay[cell]) * m.total_bet)
            if len(self._seen) < 1 << 20:
                self._seen[key] = got
        return got

    def cascade(self, window, draws) -> tuple[int, int]:
        """(credits, refills) of a cascade play from its paid spin's ``window`` (the ladder included),
        the refills drawn from the draw source ``draws`` (:mod:`harness.slot.draws`; a round's play
        plays its cascades here too)."""
        return self.sequence(window, draws)[:2]

    def sequence(self, window, draws) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
        """(credits, refills, last window) of the cascade sequence from ``window`` (a paid spin's or a free
        spin's; the ladder from its first rung): :meth:`cascade`, and the window it ends on, whose
        scatters a round's play counts (docs/slot_model.md, "Cascades with scatters and free spins")."""
        m = self.model
        rules, credits, k = m.cascade, 0, 0
        window = tuple(tuple(col) for col in window)
        while True:
            pay, _, cells = self.evaluate(window)
            if not pay:
                return credits, k, window
            credits += pay * m.bet_per_line * rules.ladder[rules.rung(k)]
            k += 1
            if k > MAX_FREE_SPINS:
                raise ModelError("cascade.refill", f"simulation stopped: one play cascaded more than "
                                 f"{MAX_FREE_SPINS:,} times (runaway guard)", m.source)
            columns = []
            for r, col in enumerate(window):
                removed = {row for reel, row in cells if reel == r}
                strip = rules.refill[r]
                new = [strip[int(i)] for i in draws.many(len(strip), len(removed))] if removed else []
                columns.append(tuple(new + [x for row, x in enumerate(col) if row not in removed]))
            window = tuple(columns)

    def windows(self, m: int, rng) -> list[list[tuple[int, ...]]]:
        """The windows of ``m`` plays (see the module docstring for the order of the draws)."""
        model = self.model
        columns = []
        totals = height_draws(model) if model.heights is not None else None
        for r, length in enumerate(self.reels.lengths):
            if totals is not None:
                heights, weights = zip(*model.heights[r])
                shown = np.asarray(heights)[falls_in_many(weights, rng.integers(0, totals[r], size=m))]
            else:
                shown = np.full(m, model.rows)
            stops = rng.integers(0, length, size=m)
            table = self.reels.windows[r]
            columns.append([tuple(table[s, :h].tolist()) for s, h in zip(stops.tolist(), shown.tolist())])
        return [list(cols) for cols in zip(*columns)]


def simulate_windows(model: SlotModel, n: int, rng, result, *,
                     progress: Callable[[int, int], None] | None = None, chunk: int = CHUNK):
    """Play ``n`` plays of a both-ways, reel-heights or cascade model (see the module docstring).

    ``result`` is the empty :class:`harness.slot.simulate.SimulationResult` the plays are counted
    into (handed in by :func:`harness.slot.simulate.simulate`, so this module does not import it
    back). Ctrl-C stops at the next chunk: the result then covers the plays completed, ``interrupted``.
    """
    game, refills = WindowGame(model), NumpyDraws(rng)
    mystery = MysteryDraw(model) if model.mystery else None

    def play(m: int) -> tuple[dict, int]:
        hits = lines = scatters = sq = top = won_total = 0
        windows = game.windows(m, rng)
        hit, won = ([False] * m, [0] * m) if mystery is None else (x.tolist() for x in mystery.spin(m, rng))
        for window, level_hit, level_won in zip(windows, hit, won):
            if model.cascade is not None:
                line_win, scatter_win = game.cascade(window, refills)[0], 0
            else:
                line_win, scatter_win = game.play(window)
            win = line_win + scatter_win + level_won
            hits += win > 0 or level_hit
            lines += line_win
            scatters += scatter_win
            won_total += level_won
            sq += win * win
            top = max(top, win)
        return {"hits": hits, "line_win": lines, "scatter_win": scatters, "mystery_win": won_total, "win_sq": sq}, top

    return play_chunks(result, n, chunk, play, progress)
