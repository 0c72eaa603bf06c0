"""Projected throughput of a partitioned run on machines we do not have, from measured costs.

A run of n units (outcomes, rounds) is cut into P = ceil(n / s) partitions
of s units (:mod:`harness.partitions`) and merged in a fixed binary tree of
P - 1 merges (:mod:`harness.reduction`).  Measured on this machine
(``rngcert bench``, :mod:`harness.benchcases.partitions`):

* ``partition``: seconds one worker takes to compute one partition;
* ``merge``: seconds of one merge task (unpickling two values, merging them, pickling the result);
* ``value_bytes``: bytes of one partition's value, and ``move``, seconds to move one such value
  from one local process to another as the local pool moves it (a file in shared memory for a
  large value, :class:`harness.reduction.Spilled`; a pipe for a small one);
* ``relay``: seconds of the calling process per value it passes on (the file's name, or the
  small value itself);
* ``serial``: seconds of the calling process that no worker shares (planning, the report).

The workers take the partitions in B tasks, blocks of consecutive partitions
(:func:`harness.reduction.blocks`: B = P when there are under four partitions per worker), a
block computed in one task with no merge inside it.  On one node of W
workers (the local pool), every value passes through the calling process:
it receives each task's and each merge's result and sends each merge its
two halves, about 4 B relays, one after another, while the workers
compute.  So a run takes

    T = serial + max(work / W, relay) + depth * (merge + 3 moves)

with ``work`` = P partition + B move + (B - 1)(merge + 3 moves) the
workers' share, ``relay`` = (4 B - 3) relays the calling process's, and
``depth`` = ceil(log2 P) the merges still to do after the last partition
(the tree's height; the last blocks are single partitions).

On a Dask cluster of N such nodes, values go from worker to worker: the
calling process relays nothing, but about one value per task crosses
the network (``link_bytes_per_second`` per node, assumed), and the scheduler
spends ``task_seconds`` on each of the 2 B - 1 tasks (assumed: Dask's
documentation puts it near a millisecond; it is not measured here; B the
blocks of N W workers):

    T = serial + max(work / (N W), (2 B - 1) task_seconds, B value_bytes / (N link)) + depth * (merge + 3 moves)

Nothing here is a promise: each bound is the slowest of what was measured,
and a busy machine measures slower costs than an idle one.
"""
from __future__ import annotations

import dataclasses

#: Assumed where nothing here can measure it: a 10 Gb/s link per node, and Dask's time per task.
LINK_BYTES_PER_SECOND = 10e9 / 8
TASK_SECONDS = 1e-3


@dataclasses.dataclass(frozen=True)
class Costs:
    """Measured costs of one workload's partitions (see the module docstring)."""

    units: int  # per partition
    partition: float
    merge: float
    value_bytes: int
    move: float
    relay: float
    serial: float = 0


@dataclasses.dataclass(frozen=True)
class Projection:
    """A projected run: ``seconds`` for ``units`` units on ``workers`` workers, and what bounds it."""

    units: int
    workers: int
    seconds: float
    bound: str  # "workers", "relay" (the calling process), "scheduler" or "network"

    @property
    def throughput(self) -> float:
        return self.units / self.seconds


def depth(partitions: int) -> int:
    """Levels of merges above the leaves: ceil(log2 P), 0 for one partition.

    >>> [depth(p) for p in (1, 2, 3, 4, 5, 16, 17)]
    [0, 1, 2, 2, 3, 4, 5]
    """
    return (int(partitions) - 1).bit_length()


def count(units: int, costs: Costs) -> int:
    """Partitions of a run of ``units`` units: ceil(units / costs.units)."""
    return -(-int(units) // costs.units)


def tasks(partitions: int, workers: int) -> int:
    """Tasks of a run of ``partitions`` on ``workers`` workers: its blocks (:func:`harness.reduction.blocks`).

    >>> [tasks(p, w) for p, w in ((8, 4), (32, 2), (477, 64), (477, 640))]
    [8, 13, 366, 477]
    """
    from harness.reduction import blocks

    return len(blocks(int(partitions), int(workers)))


def _work(p: int, b: int, costs: Costs):
    return p * costs.partition + b * costs.move + (b - 1) * (costs.merge + 3 * costs.move)


def _tail(p: int, costs: Costs):
    return depth(p) * (costs.merge + 3 * costs.move)


def node(units: int, workers: int, costs: Costs) -> Projection:
    """``units`` units on one node of ``workers`` local workers (module docstring's first T)."""
    p = count(units, costs)
    b = tasks(p, workers)
    bounds = {"workers": _work(p, b, costs) / workers, "relay": (4 * b - 3) * costs.relay}
    bound = max(bounds, key=bounds.get)
    return Projection(units, workers, costs.serial + bounds[bound] + _tail(p, costs), bound)


def cluster(units: int, nodes: int, workers: int, costs: Costs, *, link_bytes_per_second=LINK_BYTES_PER_SECOND,
            task_seconds=TASK_SECONDS) -> Projection:
    """``units`` units on a Dask cluster of ``nodes`` nodes of ``workers`` workers (the second T)."""
    p = count(units, costs)
    b = tasks(p, nodes * workers)
    bounds = {"workers": _work(p, b, costs) / (nodes * workers), "scheduler": (2 * b - 1) * task_seconds,
              "network": b * costs.value_bytes / (nodes * link_bytes_per_second)}
    bound = max(bounds, key=bounds.get)
    return Projection(units, nodes * workers, costs.serial + bounds[bound] + _tail(p, costs), bound)


__all__ = ["Costs", "Projection", "node", "cluster", "depth", "count", "tasks", "LINK_BYTES_PER_SECOND", "TASK_SECONDS"]


#: Where a workload is projected: (label, nodes or None for one node's local pool, workers per node).
MACHINES = (("64-core node, local pool", None, 64), ("10 nodes x 64 cores, Dask", 10, 64))


def report(workload: str, units: int, unit: str, costs: Costs) -> dict:
    """The JSON-able projection of ``units`` units of ``workload`` on each of :data:`MACHINES`."""
    runs = []
    for label, nodes, workers in MACHINES:
        run = node(units, workers, costs) if nodes is None else cluster(units, nodes, workers, costs)
        runs.append({"machine": label, "workers": run.workers, "seconds": float(run.seconds),
                     "throughput_per_second": float(run.throughput), "bound": run.bound})
    return {"workload": workload, "units": units, "unit": unit, "partitions": count(units, costs),
            "measured": {"units_per_partition": costs.units, "partition_seconds": costs.partition,
                         "merge_seconds": costs.merge, "value_bytes": costs.value_bytes,
                         "move_seconds": costs.move, "relay_seconds": costs.relay,
                         "serial_seconds": costs.serial},
            "assumed": {"link_bytes_per_second": LINK_BYTES_PER_SECOND, "task_seconds": TASK_SECONDS},
            "runs": runs}


def describe(entry: dict) -> list[str]:
    """Text lines of a :func:`report` entry."""
    m = entry["measured"]
    lines = [f"{entry['workload']}: {entry['units']:.3g} {entry['unit']} in {entry['partitions']:,} partitions; "
             f"measured: a partition of {m['units_per_partition']:,} {entry['unit']} {m['partition_seconds']:.3f} s, "
             f"a merge {m['merge_seconds'] * 1e3:.1f} ms, its value {m['value_bytes'] / 1e3:,.0f} kB moved in "
             f"{m['move_seconds'] * 1e3:.2f} ms and relayed in {m['relay_seconds'] * 1e3:.3f} ms, the calling "
             f"process {m['serial_seconds'] * 1e3:.0f} ms"]
    for run in entry["runs"]:
        lines.append(f"  {run['machine']:<28} {run['seconds']:8.2f} s  {run['throughput_per_second'] / 1e6:10.1f} "
                     f"M{entry['unit']}/s  (bound: {run['bound']})")
    assumed = entry["assumed"]
    lines.append(f"  (assumed for Dask: {assumed['link_bytes_per_second'] * 8 / 1e9:g} Gb/s links, "
                 f"{assumed['task_seconds'] * 1e3:g} ms of scheduler time per task)")
    return lines


__all__ += ["report", "describe", "MACHINES"]
