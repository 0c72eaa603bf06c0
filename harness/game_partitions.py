"""A simulation in partitions on several processes (a table game's, a slot's): the same result for any
number of workers.

``rngcert game G --simulate N --workers W`` cuts the N rounds into
partitions of :data:`PARTITION_ROUNDS` rounds (the last shorter), a cut fixed
by N alone.  Partition ``i`` is one whole call of the game's simulator (a
fresh table: a new shoe, a new shooter) on its own generator, child ``i``
of ``generator.spawn(P)`` (the audit contract: in replay mode child ``i``'s
seed is bytes ``[32 i, 32 i + 32)`` of the generator's next ``32 P`` bytes,
stream 0).  The partitions' tallies (integer counts per bet and per outcome
class) are merged by :meth:`harness.segments.GameSegments.merge` in the
fixed tree of :mod:`harness.reduction` (by the workers), and the outcome check is made once on the merged counts.  So the result
is bit-identical for W = 1, 2, ... (it differs from the run without
``--workers``, which plays all N rounds on one stream).

``rngcert slot MODEL --simulate N --workers W`` (``--scheduler``,
``--checkpoint``) does the same with the slot simulator
(:func:`harness.slot.simulate.simulate`, one whole call per partition) and
:class:`harness.segments.SlotSegments`' merge of its totals.

Workers are forked (:mod:`stats._workers`), inheriting the children; where
the platform cannot fork, the partitions are played in this process, one
after another, with the same result.  On a Dask cluster (``scheduler``,
:mod:`harness.cluster`) each task rebuilds its child from the generator's
engine, seed, stream and position (replay mode), the same child; in
production mode each partition draws on a fresh production generator there.  Ctrl-C stops at the boundary of a block of partitions (:func:`harness.reduction.blocks`):
the rounds of the whole partitions merged so far are reported, INCOMPLETE.
"""
from __future__ import annotations

import dataclasses

from harness.partitions import partitions

#: Rounds per partition: a simulator call's set-up (up to about a second) is noise against it.
PARTITION_ROUNDS = 1 << 22

_PREPARED: dict = {}  # the run's adapter (what is played) and child generators; forked workers inherit them


def _play(index: int):
    """Partition ``index`` of the prepared run (see :func:`_partition`)."""
    adapter, (a, b), child = _PREPARED["adapter"], _PREPARED["parts"][index], _PREPARED["children"][index]
    return _partition(lambda: adapter.play(b - a, child, None))


def _leaf(job):
    """Worker (or this process): partitions ``first`` to ``end - 1`` of the prepared run (one, or a
    block: :func:`harness.reduction.blocks`) as one tree value (:func:`_value`); ``job`` = (first,
    end, keep).  A block's partitions are played one after another and merged here in the run's
    tree; a partition interrupted ends the block."""
    from harness.reduction import merge_in_tree

    first, end, keep = job
    played = []
    for index in range(first, end):
        played.append(_play(index))
        if played[-1].interrupted:
            break
    adapter = _PREPARED["adapter"]
    return _value(merge_in_tree(played, type(adapter).merge), adapter, keep, first)


def _value(sim, adapter, keep: bool, index: int):
    """A partition's tree value (:func:`harness.reduction.value`) of its counts alone (:func:`_counts_only`),
    its note (the checkpoint's JSON when ``keep`` and it ran to its end, else None; whether it was
    interrupted; partition 0's exact class probabilities and labels, else None)."""
    import json

    from harness.reduction import value

    counted, exact = _counts_only(sim)
    text = json.dumps(adapter.dump(sim)) if keep and not sim.interrupted else None
    return value(counted, (text, sim.interrupted, exact if index == 0 else None))


def _partition(play):
    """``play()``'s simulation as a partition's tally: a table game's leaves its chi-square to the
    merged counts (:func:`harness.games.simulate.fits_deferred`)."""
    from harness.games.simulate import fits_deferred

    with fits_deferred():
        return play()


def _counts_only(sim):
    """(``sim`` without its exact class probabilities and labels, those two) for a table game's
    simulation; (``sim``, None) for a slot's, whose totals are integers already.

    The probabilities are the same in every partition of a run and most of what a pickled
    simulation weighs (7,200 Fractions for baccarat: 23 ms to unpickle and pickle again at each
    merge, against 2 ms to merge the counts), so no value in the tree carries them: partition 0's
    note brings them once to the calling process, which puts them back on the merged root
    (:func:`_with_exact`)."""
    fit = getattr(sim, "outcome_fit", None)
    if fit is None:
        return sim, None
    counts, *exact = fit.inputs
    return dataclasses.replace(sim, outcome_fit=dataclasses.replace(fit, inputs=(counts, None, None))), tuple(exact)


def _with_exact(sim, exact):
    """``sim`` (counts only: :func:`_counts_only`) with the exact class probabilities and labels ``exact``."""
    if exact is None:
        return sim
    fit = sim.outcome_fit
    return dataclasses.replace(sim, outcome_fit=dataclasses.replace(fit, inputs=(fit.inputs[0], *exact)))


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


def _adapter(what):
    """The adapter ``what`` names, on any machine: ``("game", name, variant, strategy, options)`` or
    ``("slot", model)``."""
    from harness.segments import GameSegments, SlotSegments

    if what[0] == "slot":
        return SlotSegments(what[1])
    from harness.games.registry import GAMES

    _, name, variant, strategy, options = what
    return GameSegments(GAMES[name], variant, strategy, **options)


def _play_remote(job):
    """Dask task: one partition, its generator rebuilt from the recipe (the same child as here), as
    a tree value; ``job`` = (what, recipe, count, index, rounds, keep), ``what`` for :func:`_adapter`."""
    what, recipe, count, index, rounds, keep = job
    adapter = _adapter(what)
    return _value(_partition(lambda: adapter.play(rounds, _child(recipe, count, index), None)), adapter, keep, index)


def simulate(game, rounds: int, generator, variant=None, *, strategy=None, workers: int = 1, progress=None,
             partition_rounds: int | None = None, scheduler: str | None = None, checkpoint=None, alongside=None,
             **options):
    """``rounds`` rounds of ``game`` in partitions (of ``partition_rounds``, default
    :data:`PARTITION_ROUNDS`) on ``workers`` processes, merged in the fixed tree.

    ``checkpoint``: a directory keeping each finished partition's tallies
    (:mod:`harness.partition_store`); those found there are merged, not played again.
    ``alongside``: a callable run by this process while the workers play (the report's exact
    analysis, say), or after the partitions when there is no local pool; its exception is raised.

    Returns
    -------
    harness.games.simulate.Simulation
        As :meth:`harness.games.base.Game.simulate` returns, with ``replay`` the generator's
        provenance before the spawn plus ``partitions`` and ``partition_rounds``.
    """
    from harness.segments import GameSegments

    size = PARTITION_ROUNDS if partition_rounds is None else int(partition_rounds)
    replay = _before(generator, None)
    identity = {"game": game.name, "variant": variant, "strategy": strategy, "options": options}
    total, interrupted, count = _run(GameSegments(game, variant, strategy, **options), rounds, generator, size,
                                     workers=workers, progress=progress, scheduler=scheduler,
                                     remote=("game", game.name, variant, strategy, options),
                                     checkpoint=checkpoint, identity=identity, alongside=alongside)
    return _named(GameSegments.finish(total, rounds), replay, count, size, interrupted)


def simulate_slot(model, spins: int, generator, *, workers: int = 1, progress=None, partition_spins: int | None = None,
                  scheduler: str | None = None, checkpoint=None):
    """``spins`` spins of the slot ``model`` in partitions (of ``partition_spins``, default
    :data:`PARTITION_ROUNDS`) on ``workers`` processes (or the Dask cluster ``scheduler``), merged in
    the fixed tree: the same totals for any ``workers``, anywhere.  ``checkpoint``: as
    :func:`simulate`'s.  Returns the :class:`harness.slot.simulate.SimulationResult` of the
    partitions merged."""
    from harness.partition_store import run_key
    from harness.segments import SlotSegments

    size = PARTITION_ROUNDS if partition_spins is None else int(partition_spins)
    adapter = SlotSegments(model)
    before = _before(generator, adapter)  # (the report names the generator the children were spawned from)
    identity = {"slot": run_key(dataclasses.asdict(model))}
    total, interrupted, count = _run(adapter, spins, generator, size, workers=workers, progress=progress,
                                     scheduler=scheduler, remote=("slot", model), checkpoint=checkpoint,
                                     identity=identity)
    return _named(total, before, count, size, interrupted)


def spawns(generator) -> bool:
    """Whether ``generator``'s engine has children (:meth:`rngcore.Generator.spawn`; an SP 800-90A
    DRBG has none).  Asked for none, an engine that has them draws nothing."""
    try:
        generator.spawn(0)
    except ValueError:
        return False
    return True


def _before(generator, adapter):
    """What a partitioned result names as its generator, taken before the spawn: a table game's
    provenance (its ``replay``), a slot's description."""
    if hasattr(adapter, "model"):
        from harness.slot.simulate import describe

        return describe(generator)
    from harness.games.base import _replay

    return _replay(generator)


def _named(result, before, count: int, size: int, interrupted: bool, cut: str = "partitions of"):
    """``result`` of ``count`` partitions of at most ``size`` rounds, naming the generator they were
    spawned from (``before``: :func:`_before`) and whether a stop cut the run short."""
    if hasattr(result, "replay"):  # a table game's Simulation
        replay = None if before is None else {**before, "partitions": count, "partition_rounds": size}
        return dataclasses.replace(result, interrupted=interrupted, replay=replay)
    return dataclasses.replace(result, interrupted=interrupted,
                               generator=f"{before}, spawn({count}): {cut} {size:,} spins")


def play_traced(adapter, rounds: int, generator, *, remote, workers: int = 1, scheduler: str | None = None,
                progress=None, checkpoint=None, identity=None, partition_rounds: int | None = None):
    """A certification's simulation: ``rounds`` through ``adapter`` in partitions, with its convergence trace.

    The partitions are the segments of the convergence schedule
    (:func:`harness.segments.boundaries`) cut into pieces of at most
    ``partition_rounds`` (default :data:`PARTITION_ROUNDS`;
    :func:`harness.partitions.refine`), partition i played on child i of
    ``generator.spawn(P)`` on ``workers`` processes (or the Dask cluster
    ``scheduler``) and merged in the fixed tree, as :func:`simulate` plays
    them.  This process takes the partitions in order and keeps their running
    total (they are whole simulator calls, a few per second per worker), whose
    :meth:`point` at each segment's end is the trace.  So the result and the
    trace are the same for any ``workers``, anywhere; ``checkpoint`` keeps the
    finished partitions (:mod:`harness.partition_store`), so a stopped run goes
    on from them with the same result and trace.

    Returns
    -------
    (result, trace, partitions)
        The adapter's finished result (``interrupted`` when stopped: the
        partitions taken are counted), the trace (one point per segment's end
        reached), and P.
    """
    import pickle

    from harness import segments
    from harness.partitions import refine

    size = PARTITION_ROUNDS if partition_rounds is None else int(partition_rounds)
    ends = segments.boundaries(rounds)
    parts = refine(list(zip([0, *ends[:-1]], ends)), size)
    merge, marks = type(adapter).merge, set(ends)
    running, trace = [], []

    def taken(index, value):
        part = pickle.loads(value[0])
        running[:] = [part if not running else merge(running[0], part)]
        if parts[index][1] in marks:
            trace.append(adapter.point(running[0]))

    before = _before(generator, adapter)
    total, interrupted, count = _run(adapter, rounds, generator, size, workers=workers, progress=progress,
                                     scheduler=scheduler, remote=remote, checkpoint=checkpoint,
                                     identity={**(identity or {}), "cut": "segments"}, parts=parts, on_value=taken)
    result = _named(adapter.finish(total, rounds), before, count, size, interrupted,
                    cut="the convergence segments in partitions of at most")
    return result, trace, count


def _run(adapter, rounds: int, generator, size: int, *, workers: int, progress, scheduler=None, remote=None,
         checkpoint=None, identity=None, parts=None, on_value=None, alongside=None):
    """Play ``rounds`` through ``adapter`` (:class:`harness.segments.GameSegments` or ``SlotSegments``)
    in partitions of ``size`` (or the ranges ``parts``), partition i on child i of
    ``generator.spawn(P)``, merged in :mod:`harness.reduction`'s fixed tree (by the workers, when
    there are some).

    Returns (merged result, interrupted, P).  ``remote`` names the adapter for a Dask task
    (:func:`_adapter`; with ``scheduler``); ``checkpoint``/``identity``: see :func:`simulate`.
    ``on_value(index, value)`` is called with each whole partition's tree value, in order;
    ``alongside()`` runs in this process while a local pool's workers play (:class:`_Meanwhile`).
    """
    import json

    from harness import reduction
    from harness.partitions import executor
    from stats import _workers

    parts = partitions(rounds, size) if parts is None else parts
    store, saved = None, {}
    if checkpoint is not None:
        from harness.partition_store import PartitionStore
        from harness.partitions import generator_key

        store = PartitionStore(checkpoint, {**identity, "rounds": rounds, "partition_rounds": size,
                                            "generator": generator_key(generator)}, len(parts))
        saved = store.finished()
    keep = store is not None
    if scheduler is not None:
        recipe = _recipe(generator)
        generator.spawn(len(parts))  # (the generator ends where it does in a local run)
    else:
        _PREPARED.update(adapter=adapter, parts=parts, children=generator.spawn(len(parts)))

    exact = {}  # "inputs": the exact class probabilities and labels, from partition 0's note or a template
    # Blocks of partitions on a local pool (one task each, merged in its worker) when nothing is
    # taken partition by partition (a checkpoint, a convergence trace); Dask plays them one by one.
    grouped = scheduler is None and store is None and on_value is None
    blocked = {a: (b, level) for a, b, level in reduction.blocks(len(parts), workers)} if grouped else {}
    covered = {i for a, (b, _) in blocked.items() for i in range(a + 1, b)}
    ends = {a: b for a, (b, _) in blocked.items()}

    def leaves():
        like = None  # a simulation of this run: the exact figures a saved partition's tallies go with
        for index, (a, b) in enumerate(parts):
            if index in saved:
                like = like or _template(adapter, generator)
                counted, exact["inputs"] = _counts_only(adapter.load(json.loads(saved[index]), like))
                yield None, reduction.value(counted)
            elif scheduler is not None:
                yield _play_remote, (remote, recipe, len(parts), index, b - a, keep)
            elif index in blocked:
                end, level = blocked[index]
                yield _leaf, (index, end, keep), level
            elif index not in covered:
                yield _leaf, (index, index + 1, keep)

    meanwhile = _Meanwhile([alongside, getattr(adapter, "prepare_finish", None)])

    def take(index, handle):
        if isinstance(ex, reduction.Processes):
            meanwhile.start()  # (the workers are forked by now: a fork never meets the thread)
        meanwhile.raise_failure()  # (bad input found by ``alongside``: stop now, not after the run)
        if index not in saved and (store is not None or on_value is not None or not ex.chains or index == 0):
            text, stopped, carried = ex.result(handle)[1]  # (a cluster's partitions are never interrupted)
            if carried is not None:
                exact["inputs"] = carried
            if text is not None:
                store.save(index, text)
            if stopped:
                raise KeyboardInterrupt  # this partition's rounds are the run's last
        if on_value is not None:
            on_value(index, ex.result(handle))
        if progress is not None:
            progress(parts[ends.get(index, index + 1) - 1][1], rounds)

    try:
        with executor(workers, scheduler, local=workers > 1 and _workers.forks()) as ex:
            values, _, interrupted = reduction.reduce(ex, leaves(), len(parts), type(adapter).merge, take)
    finally:
        _PREPARED.clear()
        meanwhile.join()  # (done before any later pool forks: a fork never meets it mid-import)
    meanwhile.run()  # what did not run alongside a local pool runs now
    total = reduction.unpack(values, type(adapter).merge)
    if total is None:
        raise KeyboardInterrupt
    return _with_exact(total, exact.get("inputs")), interrupted, len(parts)


class _Meanwhile:
    """Work of the calling process done while a local pool's workers play: it mostly waits for them,
    and this work, done before or after the partitions, would be a serial part of every run (a
    game's exact analysis for the report, seconds for baccarat; loading scipy for the outcome
    chi-square, about a second: ``prepare_finish``).  One thread, started once the workers are
    forked and joined before the run returns; without a local pool the work runs after the
    partitions, in this thread.  The first exception is kept and raised by :meth:`raise_failure`."""

    def __init__(self, tasks):
        self.tasks = [task for task in tasks if task is not None]
        self.thread = self.failure = None
        self.done = not self.tasks

    def _work(self) -> None:
        try:
            for task in self.tasks:
                task()
        except BaseException as exc:  # (re-raised in the calling thread)
            self.failure = exc
        self.done = True

    def start(self) -> None:
        import threading

        if self.thread is None and not self.done:
            self.thread = threading.Thread(target=self._work, name="rngcert-meanwhile", daemon=True)
            self.thread.start()

    def raise_failure(self) -> None:
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join()

    def run(self) -> None:
        """The work, here, unless it ran alongside the workers; its failure raised."""
        if self.thread is None and not self.done:
            self._work()
        self.raise_failure()


def _template(adapter, generator):
    """A one-round simulation of the run on a generator of its own, rebuilt from ``generator``'s
    recipe (which so does not move): its counts are not used, only its exact figures, class
    probabilities and labels, the same in every partition."""
    return _partition(lambda: adapter.play(1, _child(_recipe(generator), 1, 0), None))


__all__ = ["simulate", "simulate_slot", "play_traced", "spawns", "PARTITION_ROUNDS"]
