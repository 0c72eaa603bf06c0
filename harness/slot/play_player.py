"""``--simulate`` of the models only a round's play plays: hold and spin, bonuses, the cap, sticky sessions
the kernel does not follow.

The C kernel plays lines, ways, scatters, free spins and the jackpot levels
won by a scatter count; the window player (:mod:`harness.slot.window_player`)
the games read window by window.  A model with a hold-and-spin feature, a
wheel or pick bonus, an award cap, several sticky wilds or sticky wilds with
retriggers, or free spins in a game paid both ways, is played here instead, one play at a time, by
:class:`harness.slot.spin.Player`: the very play a round journals, drawn
with the same bounded draws from the generator (see :mod:`harness.slot.spin`
for their order).  It is slow beside the kernel (thousands of plays a
second, not millions), and exact: every figure is whole credits.

Models with a meter (the combination progressive, mystery and jackpot
levels) are not played here: a play names the meters it hits, but their
values are state a round journal keeps (:mod:`harness.rounds.meters`), not
a simulation (which player plays what: :mod:`harness.slot.simulate_features`).
"""
from __future__ import annotations

from typing import Callable

from harness.slot.chunks import play_chunks
from harness.slot.model import SlotModel

CHUNK = 1 << 12  # plays between progress reports (and Ctrl-C's granularity)


def simulate_plays(model: SlotModel, n: int, generator, result, *,
                   progress: Callable[[int, int], None] | None = None, chunk: int = CHUNK):
    """Play ``n`` plays of ``model`` from ``generator`` (an ``rngcore`` generator) into ``result``, the
    empty :class:`harness.slot.simulate.SimulationResult` :func:`~harness.slot.simulate.simulate`
    hands in.  Ctrl-C stops at the next chunk: the result then covers the chunks completed,
    ``interrupted``."""
    from harness.slot.spin import Player

    player = Player(model)

    def play(m: int) -> tuple[dict, int]:
        sums = dict.fromkeys(("hits", "line_win", "scatter_win", "feature_win", "features", "free_spins",
                              "cap_cut", "win_sq"), 0)
        top = 0
        for _ in range(m):
            p = player.spin(generator)
            win, freed = p.award, len(p.spins) - 1
            started = (freed > 0) + bool(p.hold) + bool(p.bonus)  # the features the play started
            sums["hits"] += bool(win or started)
            sums["line_win"] += p.line_win
            sums["scatter_win"] += p.scatter_win
            sums["feature_win"] += p.feature_win
            sums["features"] += started
            sums["free_spins"] += freed
            sums["cap_cut"] += p.capped
            sums["win_sq"] += win * win
            top = max(top, win)
        return sums, top

    return play_chunks(result, n, chunk, play, progress)


__all__ = ["simulate_plays"]
