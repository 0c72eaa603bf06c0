"""``--simulate`` of the models only a round's play plays: hold and spin, bonuses, the cap, sticky sessions
the kernel does not follow, cascades with scatters and free spins, free spins paid both ways (with or without
reel heights), payline jackpot levels.

The C kernel plays lines, ways, scatters, free spins, the combination
progressive and the jackpot levels won by a scatter count; the window
player (:mod:`harness.slot.window_player`) the games read window by window.
The models neither plays (:mod:`harness.slot.simulate_features` says which)
are played here, one play at a time, by :class:`harness.slot.spin.Player`:
the very play a round journals, drawn with the same bounded draws from the
generator (see :mod:`harness.slot.spin` for their order).  It is slow
beside the kernel (thousands of plays a second, not millions), and exact:
every figure is whole credits.

A play names the meters it hits (:mod:`harness.slot.meters`: the
combination progressive, jackpot and mystery levels); their values are
state a round journal keeps (:mod:`harness.rounds.meters`), so a simulated
play counts a meter as it is funded, as the other players do: the meter's
reset at each hit here, its contribution on every bet in the result's
``contribution`` (:mod:`harness.slot.simulate`).
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
    resets = {meter.name: meter.reset for meter in player.meters.meters}

    def play(m: int) -> tuple[dict, int]:
        sums = dict.fromkeys(("hits", "line_win", "scatter_win", "feature_win", "features", "free_spins",
                              "cap_cut", "win_sq", "progressive_hits", "jackpot_hits", "jackpot_win",
                              "mystery_win"), 0)
        top = 0
        for _ in range(m):
            p = player.spin(generator)
            freed = len(p.spins) - 1
            started = (freed > 0) + bool(p.hold) + bool(p.bonus)  # the features the play started
            jackpots = [resets[name] for name in p.meters if name.startswith("jackpot ")]
            mystery = sum(resets[name] for name in p.meters if name.startswith("mystery "))
            progressive = "progressive" in p.meters
            win = p.award + sum(jackpots) + mystery + (resets["progressive"] if progressive else 0)
            sums["hits"] += bool(win or started or p.meters)
            sums["progressive_hits"] += progressive
            sums["jackpot_hits"] += bool(jackpots)
            sums["jackpot_win"] += sum(jackpots)
            sums["mystery_win"] += mystery
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
