"""Partitions as Dask tasks: on an existing scheduler, or on a LocalCluster of worker processes.

The optional extra ``rngcert[dask]`` (``dask.distributed``) lets
:func:`harness.partitions.ordered` send each partition to a Dask cluster
instead of a local pool of processes: ``rngcert test ... --scheduler
tcp://HOST:PORT`` for a running cluster, ``--scheduler local`` for a
``LocalCluster`` of ``--workers N`` processes on this machine.  The tasks
are the same module-level functions the local pool runs, on the same jobs,
and their results are merged in partition order here, so the report is the
one of a local run.  Workers of a remote cluster need rngcert installed and,
for a capture file, the file at the same path.
"""
from __future__ import annotations

import collections
import contextlib

EXTRA = "pip install 'rngcert[dask]'"


def _distributed():
    try:
        import distributed
    except ModuleNotFoundError:
        raise ValueError(f"--scheduler runs partitions on Dask, which is not installed ({EXTRA})") from None
    return distributed


@contextlib.contextmanager
def client(scheduler: str, workers: int):
    """A ``distributed.Client`` of ``scheduler`` ("local": a LocalCluster of ``workers`` processes,
    one thread each); closed (and the local cluster stopped) on leaving."""
    if scheduler != "local" and not scheduler.startswith("tcp://"):
        raise ValueError(f"--scheduler must be tcp://HOST:PORT of a Dask scheduler or 'local', got {scheduler!r}")
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
            address = cluster
        else:
            address = scheduler
        try:
            connected = stack.enter_context(distributed.Client(address, timeout="20s"))
        except OSError as exc:
            raise ValueError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
        yield connected


def ordered(task, jobs, scheduler: str, workers: int):
    """Yield ``(job, task(job))`` for each job, in order, computed as Dask tasks (see the module
    docstring); at most two jobs per cluster worker are in flight."""
    with client(scheduler, workers) as connected:
        slots = 2 * max(1, len(connected.scheduler_info().get("workers", {})) or workers)
        pending = collections.deque()
        jobs = iter(jobs)
        try:
            while True:
                for job in jobs:
                    pending.append((job, connected.submit(task, job, pure=False)))
                    if len(pending) >= slots:
                        break
                if not pending:
                    return
                job, future = pending.popleft()
                yield job, future.result()
        finally:
            for _, future in pending:
                future.cancel()


__all__ = ["client", "ordered", "EXTRA"]
