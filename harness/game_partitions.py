"""A table game's simulation in partitions on several processes: the same result for any number of workers.

``rngcert game G --simulate N --workers W`` cuts the N rounds into
partitions of :data:`PARTITION_ROUNDS` rounds (the last shorter), a cut fixed
by N alone.  Partition ``i`` is one whole call of the game's simulator (a
fresh table: a new shoe, a new shooter) on its own generator, child ``i``
of ``generator.spawn(P)`` (the audit contract: in replay mode child ``i``'s
seed is bytes ``[32 i, 32 i + 32)`` of the generator's next ``32 P`` bytes,
stream 0).  The partitions' tallies (integer counts per bet and per outcome
class) are merged in order by :meth:`harness.segments.GameSegments.merge`,
and the outcome check is made once on the merged counts.  So the result
is bit-identical for W = 1, 2, ... (it differs from the run without
``--workers``, which plays all N rounds on one stream).

Workers are forked (:mod:`stats._workers`), inheriting the children; where
the platform cannot fork, the partitions are played in this process, one
after another, with the same result.  Ctrl-C stops at a partition boundary:
the rounds of the whole partitions merged so far are reported, INCOMPLETE.
"""
from __future__ import annotations

import dataclasses

from harness.partitions import ordered, partitions

#: Rounds per partition: a simulator call's set-up (up to about a second) is noise against it.
PARTITION_ROUNDS = 1 << 22

_PREPARED: dict = {}  # the run's game, settings and child generators; forked workers inherit them


def _play(index: int):
    """Worker (or this process): partition ``index`` of the prepared run."""
    game, (a, b), child, settings = (_PREPARED["game"], _PREPARED["parts"][index], _PREPARED["children"][index],
                                     _PREPARED["settings"])
    variant, strategy, options = settings
    return game.simulate(b - a, child, variant, strategy=strategy, **options)


def simulate(game, rounds: int, generator, variant=None, *, strategy=None, workers: int = 1, progress=None,
             partition_rounds: int | None = None, **options):
    """``rounds`` rounds of ``game`` in partitions (of ``partition_rounds``, default
    :data:`PARTITION_ROUNDS`) on ``workers`` processes, merged in order.

    Returns
    -------
    harness.games.simulate.Simulation
        As :meth:`harness.games.base.Game.simulate` returns, with ``replay`` the generator's
        provenance before the spawn plus ``partitions`` and ``partition_rounds``.
    """
    from harness.games.base import _replay
    from harness.segments import GameSegments
    from stats import _workers

    size = PARTITION_ROUNDS if partition_rounds is None else int(partition_rounds)
    parts = partitions(rounds, size)
    replay = _replay(generator)
    children = generator.spawn(len(parts))
    _PREPARED.update(game=game, parts=parts, children=children, settings=(variant, strategy, options))
    indices = range(len(parts))
    if workers > 1 and _workers.forks():
        results = ordered(_play, indices, workers)
    else:
        results = ((i, _play(i)) for i in indices)
    total, interrupted = None, False
    try:
        for index, part in results:
            total = part if total is None else GameSegments.merge(total, part)
            if part.interrupted:
                interrupted = True
                break
            if progress is not None:
                progress(parts[index][1], rounds)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()
        _PREPARED.clear()
    if total is None:
        raise KeyboardInterrupt
    replay = None if replay is None else {**replay, "partitions": len(parts), "partition_rounds": size}
    return dataclasses.replace(GameSegments.finish(total, rounds), interrupted=interrupted, replay=replay)


__all__ = ["simulate", "PARTITION_ROUNDS"]
