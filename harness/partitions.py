"""A capture tested on several processes, with the report of one pass: fixed partitions, exact merges.

The capture's rows are cut into partitions of :data:`PARTITION_ROWS` rows,
a size fixed in advance and never derived from the number of workers, so
every run cuts the file the same way.  Each partition is tested in a worker
process by the battery's tests that merge exactly (:meth:`stats.battery.
Battery.starting_at`); the partitions' accumulators are merged in file
order.  The tests that declare no merge yet read the file in one pass in
the main process, at the same time.  Every figure is therefore that of one
pass over the file, bit for bit, for any number of workers.

Ctrl-C or SIGTERM stops the run at the next partition boundary of the main
process's pass (workers ignore SIGINT; the main process asks them to stop):
the report covers exactly the whole partitions both sides finished.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import pickle
import signal

#: Rows per partition: large enough that a worker's set-up is noise, small enough to spread the work.
PARTITION_ROWS = 1 << 21


def partitions(n: int, size: int | None = None) -> list[tuple[int, int]]:
    """``[(start, end), ...]`` rows of each partition of ``n`` rows (of :data:`PARTITION_ROWS`), in order.

    The cut depends on ``n`` alone, never on how many workers there are.
    """
    size = PARTITION_ROWS if size is None else int(size)
    return [(start, min(n, start + size)) for start in range(0, n, size)]


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when a run stops


_WORKER_STATE: dict = {}  # per worker process: the capture and battery of the run, opened and planned once


def _test_partition(job) -> bytes:
    """Worker: the mergeable tests' accumulators over rows [start, end) of the capture (pickled)."""
    from harness.sources import device_to_test, rows_per_chunk
    from stats.battery import Battery
    from stats.io import open_capture

    path, device, fmt, n, alpha, tests, start, end = job
    key = (path, device, fmt, n, alpha, tuple(tests))
    if _WORKER_STATE.get("key") != key:  # planning a battery costs seconds: once per worker, not per partition
        spec = device_to_test(device)
        battery = Battery(spec, n, alpha=alpha, tests=tests)
        _WORKER_STATE.update(key=key, capture=open_capture(path, spec, format=fmt), battery=battery,
                             fresh=pickle.dumps([t.acc for t in battery.tests]))
    capture, battery = _WORKER_STATE["capture"], _WORKER_STATE["battery"]
    for test, acc in zip(battery.tests, pickle.loads(_WORKER_STATE["fresh"])):
        test.acc = acc
    battery.n = 0
    battery.starting_at(start)  # (0: the derived streams back at their start)
    step = rows_per_chunk(battery.kind)
    for a in range(start, end, step):
        battery.update(capture.rows(a, min(end, a + step)))
    return pickle.dumps([t.acc for t in battery.tests])


def run_partitioned(spec, device: str, capture, fmt: str, n: int, *, alpha: float, tests, workers: int,
                    progress=None):
    """The battery's report on the first ``n`` rows of ``capture``, tested on ``workers`` processes.

    Returns the :class:`stats.battery.BatteryResult` of one pass (``interrupted`` when stopped).
    """
    from harness.sources import rows_per_chunk
    from stats._signals import deferred_signals
    from stats.battery import Battery

    full = Battery(spec, n, alpha=alpha, tests=tests, locate=capture.locate)
    merging, serial = [], []
    for test in full.tests:
        (merging if getattr(test.acc, "mergeable", lambda: False)() else serial).append(test.name)
    parts = partitions(n)
    jobs = [(str(capture.path), device, fmt, n, alpha, merging, a, b) for a, b in parts]
    lone = Battery(spec, n, alpha=alpha, tests=serial) if serial else None
    step = rows_per_chunk(full.kind)
    context = multiprocessing.get_context("spawn")  # no fork of a process holding the generator's state
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                                  initializer=_quiet_worker)
    done_parts = 0
    interrupted = False
    try:
        futures = [pool.submit(_test_partition, job) for job in jobs] if merging else []
        try:
            for index, (a, b) in enumerate(parts):
                if lone is not None:
                    with deferred_signals():  # a partition of the main pass is taken in whole
                        for c in range(a, b, step):
                            lone.update(capture.rows(c, min(b, c + step)))
                        done_parts = index + 1  # (a signal held meanwhile acts on leaving the block)
                else:
                    futures[index].result()
                    done_parts = index + 1
                if progress is not None:
                    progress(b, n)
        except KeyboardInterrupt:
            interrupted = True
        accumulators = None
        for future in futures[:done_parts]:
            part = pickle.loads(future.result())
            if accumulators is None:
                accumulators = part
            else:
                for mine, theirs in zip(accumulators, part):
                    mine.merge(theirs)
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)
    covered = parts[done_parts - 1][1] if done_parts else 0
    by_name = {}
    if accumulators is not None:
        by_name.update(zip(merging, accumulators))
    if lone is not None:
        by_name.update((t.name, t.acc) for t in lone.tests)
    for test in full.tests:
        test.acc = by_name.get(test.name, test.acc)  # (none finished: the fresh accumulators, n = 0)
    full.n = covered
    return full.result(interrupted=interrupted)


__all__ = ["run_partitioned", "partitions", "PARTITION_ROWS"]
