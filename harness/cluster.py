"""Partitions as Dask tasks: on an existing scheduler, or on a LocalCluster of worker processes.

The optional extra ``rngcert[dask]`` (``dask.distributed``) lets a
partitioned run (:func:`harness.reduction.reduce`) send its partitions and
their merges to a Dask cluster instead of a local pool of processes:
``rngcert test ... --scheduler tcp://HOST:PORT`` for a running cluster,
``--scheduler local`` for a ``LocalCluster`` of ``--workers N`` processes on
this machine.  The tasks are the module-level functions the local pool
runs, on the same jobs, merged in the same fixed tree, so the report is the
one of a local run.  Workers of a remote cluster need rngcert installed and,
for a capture file, the file at the same path.
"""
from __future__ import annotations

import contextlib
import weakref

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


class Cluster:
    """Tasks on the Dask cluster ``scheduler`` (see :func:`client`), an executor of
    :func:`harness.reduction.reduce`: a merge is submitted with its halves' futures (``chains``), so
    the partitions' results go from worker to worker and only the root comes back here; at most two
    partitions per cluster worker are in flight."""

    chains = True

    def __init__(self, scheduler: str, workers: int):
        self.scheduler, self.workers = scheduler, int(workers)

    def __enter__(self):
        self._stack = contextlib.ExitStack()
        self.client = self._stack.enter_context(client(self.scheduler, self.workers))
        self.slots = 2 * max(1, len(self.client.scheduler_info().get("workers", {})) or self.workers)
        self._submitted = weakref.WeakSet()  # (held weakly: a result the run has let go of is freed)
        return self

    def __exit__(self, *exc):
        self.abandon()
        return self._stack.__exit__(*exc)

    def submit(self, task, *args):
        future = self.client.submit(task, *args, pure=False)
        self._submitted.add(future)
        return future

    def put(self, value):
        return self.client.scatter([value], hash=False)[0]

    @staticmethod
    def done(handle) -> bool:
        return handle.done()

    @staticmethod
    def wait(handles) -> None:
        if handles:
            _distributed().wait(handles, return_when="FIRST_COMPLETED")

    @staticmethod
    def result(handle):
        return handle.result()

    @staticmethod
    def raise_failure(handle) -> None:
        if handle.status == "error":
            handle.result()

    def abandon(self) -> None:
        """Cancel every task of the run not yet finished."""
        for future in list(self._submitted):
            if not future.done():
                future.cancel()


__all__ = ["client", "Cluster", "EXTRA"]
