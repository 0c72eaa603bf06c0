"""The chunked run of the Python simulation players (:mod:`harness.slot.window_player`,
:mod:`harness.slot.play_player`): Ctrl-C and progress between chunks, each chunk's totals added whole."""
from __future__ import annotations

import time
from typing import Callable


def play_chunks(result, n: int, chunk: int, play: Callable[[int], tuple[dict, int]],
                progress: Callable[[int, int], None] | None = None):
    """Play ``n`` plays into ``result`` (a :class:`harness.slot.simulate.SimulationResult`), ``chunk`` at
    a time: ``play(m)`` plays ``m`` and returns (its sums by result field, its largest win).

    Ctrl-C stops at the next chunk: a chunk is added whole, so the result then covers the chunks
    completed, ``interrupted``.
    """
    started = time.perf_counter()
    try:
        while result.plays < n:
            m = min(chunk, n - result.plays)
            sums, top = play(m)
            result.plays += m
            for field, value in sums.items():
                setattr(result, field, getattr(result, field) + value)
            result.max_win = max(result.max_win, top)
            if progress is not None:
                progress(result.plays, n)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    return result


__all__ = ["play_chunks"]
