"""The battery on several processes, with the report of one pass: fixed partitions, exact merges.

The outcomes (a capture's rows, or rows drawn from our device) are cut into
partitions of :data:`PARTITION_ROWS` rows, a size fixed in advance and never
derived from the number of workers, so every run cuts them the same way.
Each partition is tested in a worker process by the battery's tests that
merge exactly (:meth:`stats.battery.Battery.starting_at`); the partitions'
accumulators are merged by the workers in a tree whose shape is fixed by the
number of partitions (:mod:`harness.reduction`).  A test that declares no
merge reads the outcomes in one pass in the main process, at the same time.
Every figure is therefore that of one pass, bit for bit, for any number of
workers.

Outcomes drawn from our device are drawn in the main process, in the
chunks a one-process run draws (:func:`harness.sources.drawn`), and sent to
the workers: drawing is a small part of the battery's cost, and so the
report is also that of ``rngcert test`` without ``--workers``, the same seed
giving the same figures.  A capture is read by each worker from its own
range of rows.

Workers are forked where the platform can (:mod:`stats._workers`): the
battery planned, and the capture opened and indexed, once in this process
before the pool starts are theirs at once (no import of scipy, no planning,
no second checking pass over a text capture per worker).  Spawned workers
plan and open once each.

Ctrl-C or SIGTERM stops the run at the next boundary of a block of
partitions (:func:`harness.reduction.blocks`; workers ignore SIGINT, the main
process asks them to stop): the report covers exactly the whole partitions
merged so far.
"""
from __future__ import annotations

import pickle

#: Rows per partition: large enough that a worker's set-up is noise, small enough to spread the work.
PARTITION_ROWS = 1 << 21


def partitions(n: int, size: int | None = None) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` rows of each partition of ``n`` rows (of :data:`PARTITION_ROWS`), in order.

    The cut depends on ``n`` alone, never on how many workers there are.  This module is the one
    home of how a run is cut: equal partitions here, and the quadratic schedule of a simulation's
    segments (:func:`schedule`, which :func:`harness.segments.boundaries` reads).
    """
    size = PARTITION_ROWS if size is None else int(size)
    return _ranges([min(n, start + size) for start in range(0, n, size)])


def schedule(total: int, points: int, minimum: int) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` of the segments of a run of ``total`` rounds: ends at
    ``total (j / points)^2``, j = 1..points (dense early, where a running return still moves),
    a segment shorter than ``minimum`` dropped (the last one absorbs a short one before it).

    >>> schedule(20_000, 16, 2000)[:2]
    [(0, 2813), (2813, 5000)]
    """
    out: list[int] = []
    for j in range(1, points + 1):
        b = total if j == points else -(-total * j * j // (points * points))
        if b - (out[-1] if out else 0) >= minimum or j == points:
            out.append(b)
    if len(out) > 1 and out[-1] - out[-2] < minimum:
        del out[-2]  # the last segment absorbs a short one before it
    return _ranges(out)


def refine(ranges: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """Each of ``ranges`` cut into pieces of ``size`` from its start (its last piece shorter): a
    certification's simulation plays its segments (:func:`schedule`) in partitions of at most
    ``size`` rounds, so its convergence trace keeps the segments' ends.

    >>> refine([(0, 5), (5, 12)], 3)
    [(0, 3), (3, 5), (5, 8), (8, 11), (11, 12)]
    """
    return [(a, min(b, a + size)) for start, b in ranges for a in range(start, b, int(size))]


def _ranges(ends: list[int]) -> list[tuple[int, int]]:
    """Consecutive ``(start, end)`` from 0 through each of ``ends``."""
    return list(zip([0, *ends[:-1]], ends))


#: Per process: the battery of the run (and the capture it reads), prepared once; a forked worker
#: inherits the main process's.
_PREPARED: dict = {}


#: Partitions of drawn rows a run may hold in flight (drawn, not yet taken) whatever its blocks, when
#: its workers need fewer: what drawn outcomes weigh in this process (:func:`drawn_in_flight`).
DRAWN_IN_FLIGHT = 16


def drawn_in_flight(workers: int) -> int:
    """The most partitions of drawn rows in flight on ``workers`` workers: :data:`DRAWN_IN_FLIGHT`, or
    two per worker when that is more (each worker has one under way and one queued).  Blocks are cut
    to fit (at most this / (2 ``workers``) partitions each), so the bound is this many partitions,
    plus the block being drawn, whatever the blocks."""
    return max(DRAWN_IN_FLIGHT, 2 * int(workers))


def _battery(plan, planned=None):
    """The fresh battery of ``plan`` = (device, n, alpha, tests): planned once per process (or
    ``planned``, that battery already planned here: :meth:`stats.battery.Battery.only`)."""
    from harness.sources import device_to_test
    from stats.battery import Battery

    if _PREPARED.get("plan") != plan:
        device, n, alpha, tests = plan
        battery = planned or Battery(device_to_test(device), n, alpha=alpha, tests=list(tests))
        _PREPARED.clear()
        _PREPARED.update(plan=plan, battery=battery, fresh=pickle.dumps([t.acc for t in battery.tests]))
    battery = _PREPARED["battery"]
    for test, acc in zip(battery.tests, pickle.loads(_PREPARED["fresh"])):
        test.acc = acc
    battery.n = 0
    return battery


def _capture(path: str, device: str, fmt: str):
    """The capture at ``path``, opened (and, for text, checked) once per process."""
    from harness.sources import device_to_test
    from stats.io import open_capture

    key = (path, device, fmt)
    if _PREPARED.get("capture_key") != key:
        _PREPARED.update(capture_key=key, capture=open_capture(path, device_to_test(device), format=fmt))
    return _PREPARED["capture"]


def _test_partition(job):
    """Worker: the mergeable tests' accumulators over one partition, as a tree value
    (:func:`harness.reduction.value`; its note the checkpoint's JSON when ``keep``).

    ``job`` = (plan, start, end, source, keep): ``source`` is the rows themselves, or
    ``(path, device, format)`` of the capture to read them from.  A block of partitions
    (:func:`harness.reduction.blocks`) is one partition here: its rows in one pass.
    """
    from harness.reduction import value
    from harness.sources import rows_per_chunk
    from stats import _state

    plan, start, end, source, keep = job
    battery = _battery(plan)
    battery.starting_at(start)  # (0: the derived streams back at their start)
    if isinstance(source, tuple):
        capture = _capture(*source)
        step = rows_per_chunk(battery.kind)
        for a in range(start, end, step):
            battery.update(capture.rows(a, min(end, a + step)))
    else:
        battery.update(source)
    accumulators = [t.acc for t in battery.tests]
    return value(accumulators, _state.dumps(end - start, accumulators).decode() if keep else None)


def merge_accumulators(first: list, later: list) -> list:
    """The accumulators of one partition followed by the next's (each list in the battery's order)."""
    for mine, theirs in zip(first, later, strict=True):
        mine.merge(theirs)
    return first


def executor(workers: int, scheduler: str | None = None, *, local: bool = True):
    """Where a run's partitions and merges are computed (:mod:`harness.reduction`): the Dask cluster
    ``scheduler``, else ``workers`` local processes, or this process when ``local`` is False."""
    from harness import reduction

    if scheduler is not None:
        from harness.cluster import Cluster

        return Cluster(scheduler, workers)
    return reduction.Processes(workers) if local else reduction.Inline()


def _run(spec, device, n, *, alpha, tests, workers, progress, sources, rows_of=None, locate=None, prepare=None,
         scheduler=None, checkpoint=None, identity=None, power=None, drawing=False):
    """The battery's report on ``n`` rows cut into :func:`partitions`, tested on ``workers`` processes.

    ``sources(parts)`` yields, for each partition in order, what a worker reads it from: its rows,
    or where to read them (then the main process's pass reads them with ``rows_of(a, b)``).
    ``prepare()`` (before the pool starts) readies this process's state for forked workers.
    ``scheduler``: run the partitions as Dask tasks there (:mod:`harness.cluster`).
    ``checkpoint``: a directory keeping each finished partition (:mod:`harness.partition_store`), the
    run named by ``identity``; the partitions found there are merged, not tested again.  ``power``:
    the report's (:class:`stats.battery.Battery`'s; it changes no accumulator).  ``drawing``: the
    sources are rows drawn here, held in this process until taken: at most :func:`drawn_in_flight`
    partitions of them are in flight.
    The partitions' accumulators are merged in :mod:`harness.reduction`'s fixed tree, by the workers.
    """
    from harness import reduction
    from harness.sources import rows_per_chunk
    from stats import _state
    from stats._signals import deferred_signals
    from stats.battery import Battery

    from stats.power import DEFAULT_POWER

    full = Battery(spec, n, alpha=alpha, power=DEFAULT_POWER if power is None else power, tests=tests, locate=locate)
    merging = tuple(t.name for t in full.tests if t.acc.mergeable())
    serial = [t.name for t in full.tests if t.name not in merging]
    plan = (device, n, alpha, merging)
    parts = partitions(n)
    lone = Battery(spec, n, alpha=alpha, tests=serial) if serial else None
    step = rows_per_chunk(full.kind)
    if merging:
        _battery(plan, full.only(merging))  # planned here once (the report's plan): forked workers start with it
        if prepare is not None:
            prepare()
    store, saved = None, {}
    if checkpoint is not None:
        from harness.partition_store import PartitionStore

        if serial:
            raise ValueError(f"--checkpoint keeps partitions of tests that merge; {', '.join(serial)} declares no merge")
        store = PartitionStore(checkpoint, {**identity, "battery": plan, "partition_rows": PARTITION_ROWS},
                               len(parts))
        saved = store.finished()
    sources_of = {}  # partition -> what it was read from, until taken (for the tests that do not merge)
    # A block of partitions is tested in one pass (the same accumulators as its partitions merged:
    # every merge is exact); a checkpoint keeps partitions one by one.
    grouped = merging and store is None
    cut, ends = [], {}  # the blocks, cut once the executor knows its workers (below)

    def leaves():
        # (a saved partition's rows are still drawn: the stream goes on alike)
        read = enumerate(sources(parts))
        for first, end, level in cut:
            index, source = next(read)
            if isinstance(source, tuple):  # (where to read the rows: the same for each partition)
                block = [(index, source), *(next(read) for _ in range(first + 1, end))]
            else:  # drawn rows, gathered into one array as they are drawn (no second copy of the block)
                source = _gather(source, (rows for _, rows in (next(read) for _ in range(first + 1, end))),
                                 parts[end - 1][1] - parts[first][0])
                base = parts[first][0]
                block = [(i, source[a - base: b - base]) for i, (a, b) in enumerate(parts[first:end], first)]
            if lone is not None:
                sources_of.update(block)
            if not merging:
                yield None, reduction.value([])
            elif index in saved:
                fresh = pickle.loads(_PREPARED["fresh"])
                _state.loads(saved[index].encode(), fresh)
                yield None, reduction.value(fresh)
            else:
                yield _test_partition, (plan, parts[first][0], parts[end - 1][1], source, store is not None), level

    def take(first, handle):
        with deferred_signals():  # a block is taken in whole, on both sides, or not at all
            for index in range(first, ends[first]):
                a, b = parts[index]
                if lone is not None:
                    source = sources_of.pop(index)
                    if isinstance(source, tuple):
                        for c in range(a, b, step):
                            lone.update(rows_of(c, min(b, c + step)))
                    else:
                        lone.update(source)
                if store is not None and index not in saved:
                    store.save(index, ex.result(handle)[1])
        if progress is not None:
            progress(parts[ends[first] - 1][1], n)

    try:
        with executor(workers, scheduler if merging else None, local=bool(merging)) as ex:
            # Blocks for the workers the run has: a Dask cluster's own count, not --workers.
            width = max(1, ex.slots // 2)
            limit = drawn_in_flight(width) if drawing else None
            largest = max(1, min(reduction.MAX_BLOCK, limit // (2 * width))) if drawing else reduction.MAX_BLOCK
            cut = (reduction.blocks(len(parts), width, largest) if grouped
                   else [(i, i + 1, 0) for i in range(len(parts))])
            ends = {first: end for first, end, _ in cut}  # first partition of a block -> the block's end
            values, done, interrupted = reduction.reduce(ex, leaves(), len(parts), merge_accumulators, take, limit)
    finally:
        _PREPARED.clear()
    accumulators = reduction.unpack(values, merge_accumulators)
    by_name = dict(zip(merging, accumulators)) if accumulators else {}
    if lone is not None:
        by_name.update((t.name, t.acc) for t in lone.tests)
    for test in full.tests:
        test.acc = by_name.get(test.name, test.acc)  # (none finished: the fresh accumulators, n = 0)
    full.n = parts[done - 1][1] if done else 0
    return full.result(interrupted=interrupted)


def run_partitioned(spec, device: str, capture, fmt: str, n: int, *, alpha: float, tests, workers: int,
                    progress=None, scheduler=None, checkpoint=None, power=None):
    """The battery's report on the first ``n`` rows of ``capture``, tested on ``workers`` processes.

    Returns the :class:`stats.battery.BatteryResult` of one pass (``interrupted`` when stopped).
    """
    where = (str(capture.path), device, fmt)

    def prepare():
        _PREPARED.update(capture_key=where, capture=capture)  # opened and checked once, here

    def sources(parts):
        for _ in parts:
            yield where

    stat = capture.path.stat()
    identity = {"capture": str(capture.path.resolve()), "bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns,
                "format": fmt}
    return _run(spec, device, n, alpha=alpha, tests=tests, workers=workers, progress=progress, sources=sources,
                rows_of=capture.rows, locate=capture.locate, prepare=prepare, scheduler=scheduler,
                checkpoint=checkpoint, identity=identity, power=power)


def run_drawn(spec, device: str, generator, n: int, *, alpha: float, tests, workers: int, progress=None,
              scheduler=None, checkpoint=None, power=None):
    """The battery's report on ``n`` rows drawn from our device ``spec`` through ``generator``, tested
    on ``workers`` processes: the figures of the one-process run on the same generator."""
    from harness.sources import drawn, rows_per_chunk
    from stats.kinds import kind_of

    def sources(parts):
        chunks = drawn(spec, generator, n, rows_per_chunk(kind_of(spec)))  # the one-process run's chunks
        held, have = [], 0
        for a, b in parts:
            while have < b - a:
                chunk = next(chunks)
                held.append(chunk)
                have += len(chunk)
            rows = _concatenate(held)
            yield rows[: b - a]
            held, have = ([rows[b - a:]], have - (b - a)) if have > b - a else ([], 0)

    return _run(spec, device, n, alpha=alpha, tests=tests, workers=workers, progress=progress, sources=sources,
                scheduler=scheduler, checkpoint=checkpoint, identity={"generator": generator_key(generator)},
                power=power, drawing=True)


def generator_key(generator) -> str:
    """SHA-256 naming where ``generator`` stands (engine, seed, stream, position): a checkpoint
    says which stream its partitions drew from without holding the seed."""
    from harness.partition_store import run_key

    provenance = generator.provenance(show_seed=True)
    return run_key({"engine": provenance.engine, "seed": provenance.seed, "stream": provenance.stream,
                    "position": provenance.position})


def _gather(first, rest, total: int):
    """The rows ``first`` then each of ``rest`` (consumed one by one), ``total`` rows in all, in one array:
    ``first`` itself when there are no others."""
    import numpy as np

    out = None
    at = len(first)
    for rows in rest:
        if out is None:
            out = np.empty((total, *first.shape[1:]), dtype=first.dtype)
            out[:at] = first
        out[at: at + len(rows)] = rows
        at += len(rows)
    return first if out is None else out


def _concatenate(chunks):
    import numpy as np

    return chunks[0] if len(chunks) == 1 else np.concatenate(chunks)


__all__ = ["run_partitioned", "run_drawn", "executor", "merge_accumulators", "partitions", "schedule", "refine",
           "PARTITION_ROWS"]
