"""A simulation in partitions on several processes (a table game's, a slot's): the same result for any
number of workers.

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

``rngcert slot MODEL --simulate N --workers W`` does the same with the slot
simulator (:func:`harness.slot.simulate.simulate`, one whole call per
partition) and :class:`harness.segments.SlotSegments`' merge of its totals.

Workers are forked (:mod:`stats._workers`), inheriting the children; where
the platform cannot fork, the partitions are played in this process, one
after another, with the same result.  On a Dask cluster (``scheduler``,
:mod:`harness.cluster`) each task rebuilds its child from the generator's
engine, seed, stream and position (replay mode), the same child; in
production mode each partition draws on a fresh production generator there.  Ctrl-C stops at a partition boundary:
the rounds of the whole partitions merged so far are reported, INCOMPLETE.
"""
from __future__ import annotations

import dataclasses

from harness.partitions import ordered, partitions

#: Rounds per partition: a simulator call's set-up (up to about a second) is noise against it.
PARTITION_ROUNDS = 1 << 22

_PREPARED: dict = {}  # the run's adapter (what is played) and child generators; forked workers inherit them


def _play(index: int):
    """Worker (or this process): partition ``index`` of the prepared run (see :func:`_partition`)."""
    adapter, (a, b), child = _PREPARED["adapter"], _PREPARED["parts"][index], _PREPARED["children"][index]
    return _partition(lambda: adapter.play(b - a, child, None), index)


def _partition(play, index: int):
    """``play()``'s simulation as a partition's tally.  A table game's leaves its chi-square to the
    merged counts (:func:`harness.games.simulate.fits_deferred`), and, after partition 0, goes
    without the exact class probabilities and labels, the same in every partition of a run and most
    of what a pickled simulation weighs (thousands of Fractions: 23 ms to unpickle per baccarat
    partition, against 2 ms to merge), so the process merging them is not the one that bounds a
    run's speed.  A slot's totals are integers already."""
    from harness.games.simulate import fits_deferred

    with fits_deferred():
        sim = play()
    if index and getattr(sim, "outcome_fit", None) is not None:
        counts = sim.outcome_fit.inputs[0]
        sim = dataclasses.replace(sim, outcome_fit=dataclasses.replace(sim.outcome_fit, inputs=(counts, None, None)))
    return sim


def _recipe(generator):
    """How another machine rebuilds ``generator``: (engine, seed, stream, position) in replay mode,
    (engine,) in production mode (each partition then draws on a fresh production generator)."""
    provenance = generator.provenance(show_seed=True)
    if provenance.seed is None:
        return (provenance.engine,)
    return provenance.engine, provenance.seed, provenance.stream, provenance.position


def _child(recipe, count: int, index: int):
    """Child ``index`` of ``spawn(count)`` of the generator ``recipe`` describes (see :func:`_recipe`)."""
    import rngcore
    from rngcore.engines import create

    if len(recipe) == 1:
        return rngcore.Generator(create(recipe[0]))
    engine, seed, stream, position = recipe
    parent = rngcore.Generator(create(engine, seed, stream))
    if position:
        parent.seek(position)
    return parent.spawn(count)[index]


def _play_remote(job):
    """Dask task: one partition of a table game, its generator rebuilt from the recipe (the same child
    as here)."""
    from harness.games.registry import GAMES

    name, (variant, strategy, options), recipe, count, index, rounds = job
    return _partition(lambda: GAMES[name].simulate(rounds, _child(recipe, count, index), variant,
                                                   strategy=strategy, **options), index)


def simulate(game, rounds: int, generator, variant=None, *, strategy=None, workers: int = 1, progress=None,
             partition_rounds: int | None = None, scheduler: str | None = None, checkpoint=None, **options):
    """``rounds`` rounds of ``game`` in partitions (of ``partition_rounds``, default
    :data:`PARTITION_ROUNDS`) on ``workers`` processes, merged in order.

    ``checkpoint``: a directory keeping each finished partition's tallies
    (:mod:`harness.partition_store`); those found there are merged, not played again.

    Returns
    -------
    harness.games.simulate.Simulation
        As :meth:`harness.games.base.Game.simulate` returns, with ``replay`` the generator's
        provenance before the spawn plus ``partitions`` and ``partition_rounds``.
    """
    from harness.games.base import _replay
    from harness.segments import GameSegments

    size = PARTITION_ROUNDS if partition_rounds is None else int(partition_rounds)
    replay = _replay(generator)
    identity = {"game": game.name, "variant": variant, "strategy": strategy, "options": options}

    def remote(recipe, count, todo, parts):
        return ((game.name, (variant, strategy, options), recipe, count, i, parts[i][1] - parts[i][0]) for i in todo)

    total, interrupted, count = _run(GameSegments(game, variant, strategy, **options), rounds, generator, size,
                                     workers=workers, progress=progress, scheduler=scheduler, remote=remote,
                                     checkpoint=checkpoint, identity=identity)
    replay = None if replay is None else {**replay, "partitions": count, "partition_rounds": size}
    return dataclasses.replace(GameSegments.finish(total, rounds), interrupted=interrupted, replay=replay)


def simulate_slot(model, spins: int, generator, *, workers: int = 1, progress=None, partition_spins: int | None = None):
    """``spins`` spins of the slot ``model`` in partitions (of ``partition_spins``, default
    :data:`PARTITION_ROUNDS`) on ``workers`` processes, merged in order: the same totals for any
    ``workers``.  Returns the :class:`harness.slot.simulate.SimulationResult` of the partitions merged."""
    from harness.segments import SlotSegments
    from harness.slot.simulate import describe

    size = PARTITION_ROUNDS if partition_spins is None else int(partition_spins)
    before = describe(generator)  # (the report names the generator the children were spawned from)
    total, interrupted, count = _run(SlotSegments(model), spins, generator, size, workers=workers, progress=progress)
    total.interrupted = interrupted
    total.generator = f"{before}, spawn({count}): partitions of {size:,} spins"
    return total


def _run(adapter, rounds: int, generator, size: int, *, workers: int, progress, scheduler=None, remote=None,
         checkpoint=None, identity=None):
    """Play ``rounds`` through ``adapter`` (:class:`harness.segments.GameSegments` or ``SlotSegments``)
    in partitions of ``size``, partition i on child i of ``generator.spawn(P)``, and merge them in order.

    Returns (merged result, interrupted, P).  ``remote(recipe, P, todo, parts)`` makes the Dask jobs
    of :func:`_play_remote` (``scheduler``); ``checkpoint``/``identity``: see :func:`simulate`.
    """
    from stats import _workers

    parts = partitions(rounds, size)
    store, saved = None, {}
    if checkpoint is not None:
        from harness.partition_store import PartitionStore
        from harness.partitions import generator_key

        store = PartitionStore(checkpoint, {**identity, "rounds": rounds, "partition_rounds": size,
                                            "generator": generator_key(generator)}, len(parts))
        saved = store.finished()
    todo = [i for i in range(len(parts)) if i not in saved]
    if scheduler is not None:
        from harness import cluster

        recipe = _recipe(generator)
        generator.spawn(len(parts))  # (the generator ends where it does in a local run)
        results = cluster.ordered(_play_remote, remote(recipe, len(parts), todo, parts), scheduler, workers)
    else:
        _PREPARED.update(adapter=adapter, parts=parts, children=generator.spawn(len(parts)))
        if workers > 1 and _workers.forks():
            results = ordered(_play, todo, workers)
        else:
            results = ((i, _play(i)) for i in todo)
    total, interrupted = None, False
    try:
        for index, part in _with_saved(results, len(parts), saved, store, adapter, generator):
            total = part if total is None else adapter.merge(total, part)
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
    return total, interrupted, len(parts)


def _with_saved(results, count: int, saved: dict, store, adapter, generator):
    """``(index, simulation)`` of every partition in order: a saved one's rebuilt from its tallies,
    a played one's from ``results`` (then saved in ``store``, unless interrupted)."""
    import json

    results = iter(results)
    like = None  # a simulation of this run: the exact figures a saved partition's tallies go with
    for index in range(count):
        if index in saved:
            if like is None:
                like = _template(adapter, generator)
            yield index, adapter.load(json.loads(saved[index]), like)
            continue
        _, part = next(results)
        if like is None and index == 0:
            like = part
        if store is not None and not part.interrupted:
            store.save(index, json.dumps(adapter.dump(part)))
        yield index, part


def _template(adapter, generator):
    """A one-round simulation of the run on a generator of its own, rebuilt from ``generator``'s
    recipe (which so does not move): its counts are not used, only its exact figures, class
    probabilities and labels, the same in every partition."""
    return _partition(lambda: adapter.play(1, _child(_recipe(generator), 1, 0), None), 0)


__all__ = ["simulate", "simulate_slot", "PARTITION_ROUNDS"]
