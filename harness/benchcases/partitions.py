"""Worker bench cases (issue 18): a long run in partitions on two workers, against one process.

``battery-workers-64M``: seven of the battery's wheel tests (frequency,
serial pairs and triples, gap, poker, runs up, coupon collector) on a
2^26-outcome ``.npy`` capture of roulette spins (32
partitions of the default 2^21 rows), tested by ``rngcert test --workers
2``'s code (:func:`harness.partitions.run_partitioned`) against the same
battery in this process alone; each case's report is checked equal to the
other case's.  The timed call ends with the battery's result (its
p-values); the report's power figures and cell tables (about 0.4 s, whatever
n) are made once after the merge, in either case, and left out.

``baccarat-workers-64M``: ``rngcert game baccarat --simulate --workers``'s
code (:func:`harness.game_partitions.simulate`) on 2^26 rounds in 16
partitions of the default 2^22, on two workers against the same partitions
played in this process; each case's tallies are checked equal to the other's.

Many partitions, not two: what does not split (planning, starting the
pool, the p-values, the outcome chi-square, the last merges) is then a few
per cent of the run, as in the 10^9-outcome runs the target is about, and
the two workers get equal shares.  (With eight battery partitions, once the
coupon collector's test cut its segments in C, a partition took 0.18 s of
CPU and the fixed part alone held two workers under 1.65x.)  Issue 18's target for both is >= 1.8x on 2 workers: it needs two
idle cores, and a machine whose cores are busy shows less.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from harness.benchcases._base import BenchCase
from harness.game_partitions import PARTITION_ROUNDS as GAME_PARTITION
from harness.partitions import PARTITION_ROWS as PARTITION

OUTCOMES = 1 << 26
DEVICE = "roulette-single"
TESTS = ("frequency", "serial-pairs", "serial-triples", "gap", "poker", "runs-up", "coupon-collector")
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # varied bytes: no trivial-seed warning


@lru_cache(maxsize=1)
def _capture():
    import rngcore
    from rngcore.devices import device_spec
    from stats.io import open_capture

    spec = device_spec(DEVICE)
    folder = Path(tempfile.mkdtemp(prefix="rngcert-bench-workers-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "spins.npy"
    np.save(path, np.asarray(spec.draw(rngcore.Generator(SEED, stream=18), OUTCOMES), dtype=np.uint8))
    return spec, open_capture(path, spec, format="indices")


def _workers(workers):
    def setup():
        from harness.partitions import run_partitioned
        from stats.battery import run_battery

        spec, capture = _capture()
        if workers == 1:
            return lambda: run_battery(spec, capture.chunks(1 << 20), n=OUTCOMES, tests=list(TESTS))
        return lambda: run_partitioned(spec, DEVICE, capture, "indices", OUTCOMES, alpha=0.01, tests=list(TESTS),
                                       workers=workers)

    return setup


@lru_cache(maxsize=None)
def _report(workers: int) -> dict:
    return _workers(workers)()().to_json()


def _same_report_as(other: int):
    """Check: a report equals the one of the other case (``other`` workers), computed once: the
    two-worker case is checked against the one-process report and the baseline against the two workers'."""
    def check(result) -> None:
        assert result.to_json() == _report(other), "the partitioned report differs from the one-process report"
    return check


ROUNDS = 1 << 26


def _baccarat(workers):
    def setup():
        import rngcore
        from harness.game_partitions import simulate
        from harness.games.registry import GAMES

        game = GAMES["baccarat"]

        def run():
            sim = simulate(game, ROUNDS, rngcore.Generator(SEED, stream=18), workers=workers)
            return [dict(b.counts) for b in sim.bets], sim.rounds
        return run

    return setup


@lru_cache(maxsize=None)
def _tallies(workers: int):
    return _baccarat(workers)()()


def _same_tallies_as(other: int):
    """Check: tallies equal those of the other case (``other`` workers), as :func:`_same_report_as`."""
    def check(tallies) -> None:
        assert tallies == _tallies(other), "the tallies of two workers differ from the partitions played in one process"
    return check


GROUP = "battery-workers-64M"
GAME_GROUP = "baccarat-workers-64M"
CASES = [
    BenchCase(GROUP, "two-workers", _workers(2), OUTCOMES, "outcomes", target=">= 1.8x one-process",
              check=_same_report_as(1)),
    BenchCase(GROUP, "one-process", _workers(1), OUTCOMES, "outcomes", baseline=True, check=_same_report_as(2)),
    BenchCase(GAME_GROUP, "two-workers", _baccarat(2), ROUNDS, "rounds", target=">= 1.8x one-process",
              check=_same_tallies_as(1)),
    BenchCase(GAME_GROUP, "one-process", _baccarat(1), ROUNDS, "rounds", baseline=True, check=_same_tallies_as(2)),
]


# -- the costs behind the projection (harness/projection.py) -----------------------------------------
#
# One partition as a worker computes it, one merge as a worker makes it, one partition's value moved
# from one process to another as the local pool moves it (a large one as a file in shared memory, a
# small one through a pipe), what the calling process does to pass a value on, and its own work,
# each measured in this process: the projection of a 64-core node and of a 10-node cluster is made
# from their medians (:func:`projections`).  The battery's are those of the whole battery (every
# test the device's kind runs at 2^26 outcomes), not only the seven tests timed on two workers.

#: The tests of the battery the projection is made for: all of them.
PROJECTED_TESTS = None

@lru_cache(maxsize=1)
def _battery_plan():
    """The plan of ``battery-workers-64M``'s run, prepared here as :func:`harness.partitions.run_partitioned`
    prepares it before its pool starts: (plan, where, report battery)."""
    from harness import partitions as hp
    from stats.battery import Battery

    spec, capture = _capture()
    full = Battery(spec, OUTCOMES, alpha=0.01, tests=PROJECTED_TESTS)
    merging = tuple(t.name for t in full.tests if t.acc.mergeable())
    return (DEVICE, OUTCOMES, 0.01, merging), (str(capture.path), DEVICE, "indices"), full.only(merging)


def _battery_leaf(index: int):
    """The tree value of partition ``index`` of the bench capture, computed as a worker computes it."""
    from harness import partitions as hp

    plan, where, planned = _battery_plan()
    if hp._PREPARED.get("plan") != plan:  # (a partitioned run clears it when it ends)
        hp._battery(plan, planned)
        hp._PREPARED.update(capture_key=where, capture=_capture()[1])
    a, b = hp.partitions(OUTCOMES)[index]
    return hp._test_partition((plan, a, b, where, False))


@lru_cache(maxsize=None)
def _battery_value(index: int):
    return _battery_leaf(index)


def _frequencies(value) -> np.ndarray:
    import pickle

    return pickle.loads(value[0])[0].counts  # (the frequency test comes first in the battery's order)


def _check_frequencies(first: int, last: int):
    """Check: a tree value's frequency counts are those of partitions ``first``..``last`` of the capture."""
    def check(value) -> None:
        from harness.partitions import partitions

        parts = partitions(OUTCOMES)
        rows = _capture()[1].rows(parts[first][0], parts[last][1])
        assert np.array_equal(_frequencies(value), np.bincount(rows, minlength=37)), "wrong frequency counts"
    return check


def _battery_merge():
    from harness.partitions import merge_accumulators
    from harness.reduction import merged

    first, later = _battery_value(0), _battery_value(1)
    return lambda: merged(merge_accumulators, first, later)


def _battery_report():
    """The calling process's own work: planning the report's battery and making the report."""
    import pickle

    from harness.partitions import merge_accumulators
    from harness.reduction import merged
    from stats.battery import Battery

    spec, _ = _capture()
    merged_value = merged(merge_accumulators, _battery_value(0), _battery_value(1))

    def run():
        full = Battery(spec, OUTCOMES, alpha=0.01, tests=PROJECTED_TESTS)
        for test, acc in zip(full.tests, pickle.loads(merged_value[0])):
            test.acc = acc
        full.n = 2 * PARTITION
        return full.result()
    return run


def _check_report(result) -> None:
    assert result.n == 2 * PARTITION and len(result.tests) == len(_battery_plan()[2].tests)


def _move(value_of, relay_only: bool = False):
    """Set-up: pass one tree value (``value_of()``) from a thread to this one as the local pool passes
    it between processes (:func:`harness.reduction._spilling`: a large one written to a file in
    shared memory, its name sent through a pipe, the file read; a small one pickled through the
    pipe).  ``relay_only``: only what the calling process does with it (receive what the pipe brings
    and send it on, without reading a spilled file)."""
    def setup():
        import os
        import pickle
        import queue
        import shutil
        import tempfile
        import threading
        from multiprocessing import Pipe

        from harness import reduction

        value = value_of()
        folder = tempfile.mkdtemp(prefix="rngcert-bench-values-", dir=reduction._shared_memory())
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        reader, writer = Pipe(duplex=False)
        asks: queue.SimpleQueue = queue.SimpleQueue()

        def send():
            while asks.get():
                sent = reduction._spilling(folder, lambda: value, ())
                writer.send_bytes(pickle.dumps(sent, pickle.HIGHEST_PROTOCOL))

        threading.Thread(target=send, name="rngcert-bench-pipe", daemon=True).start()

        def run():
            asks.put(True)
            got = pickle.loads(reader.recv_bytes())
            spilled = got if isinstance(got, reduction.Spilled) else None
            if relay_only:
                pickle.dumps(got, pickle.HIGHEST_PROTOCOL)  # (sent on to a merge)
            else:
                got = reduction._read(got)
            if spilled is not None:
                os.unlink(spilled.path)  # (as the run releases a value once merged)
            return got
        return run
    return setup


def _same_value(value_of):
    def check(moved) -> None:
        from harness import reduction

        if isinstance(moved, reduction.Spilled):
            assert moved.note == value_of()[1], "the name passed on lost the value's note"
        else:
            assert tuple(moved) == tuple(value_of()), "the value read differs from the one written"
    return check


@lru_cache(maxsize=None)
def _baccarat_value(index: int):
    return _baccarat_leaf(index)()


def _baccarat_leaf(index: int):
    """Partition ``index`` of ``baccarat-workers-64M``'s run (2^22 rounds) as a worker plays it."""
    import rngcore
    from harness import game_partitions as gp
    from harness.games.registry import GAMES
    from harness.segments import GameSegments

    adapter = GameSegments(GAMES["baccarat"])
    count = -(-ROUNDS // gp.PARTITION_ROUNDS)

    def run():
        child = rngcore.Generator(SEED, stream=18).spawn(count)[index]
        return gp._value(gp._partition(lambda: adapter.play(gp.PARTITION_ROUNDS, child, None)), adapter, False, index)
    return run


def _check_rounds(rounds: int):
    def check(value) -> None:
        import pickle

        sim = pickle.loads(value[0])
        assert sim.rounds == rounds and all(sum(b.counts.values()) > 0 for b in sim.bets)
    return check


def _baccarat_merge():
    from harness.reduction import merged
    from harness.segments import GameSegments

    first, later = _baccarat_value(0), _baccarat_value(1)
    return lambda: merged(GameSegments.merge, first, later)


def _baccarat_finish():
    """The calling process's own work after the merges: the chi-square of the merged counts."""
    import pickle

    from harness import game_partitions as gp
    from harness.reduction import merged
    from harness.segments import GameSegments

    root = merged(GameSegments.merge, _baccarat_value(0), _baccarat_value(1))
    sim = gp._with_exact(pickle.loads(root[0]), _baccarat_value(0)[1][2])
    GameSegments.prepare_finish()
    return lambda: GameSegments.finish(sim, 2 * GAME_PARTITION)


def _check_finish(sim) -> None:
    assert sim.rounds == 2 * GAME_PARTITION and sim.outcome_fit.pvalue is not None


#: The projection's groups: (partition, merge, move, calling process) of each workload.
COST_GROUPS = {
    "battery": ("battery-partition-2M", "battery-merge-2M", "battery-move-value", "battery-relay-value",
                "battery-plan-and-report"),
    "baccarat": ("baccarat-partition-4M", "baccarat-merge-4M", "baccarat-move-value", "baccarat-relay-value",
                 "baccarat-chi-square"),
}
CASES += [
    BenchCase("battery-partition-2M", "one-partition", lambda: (lambda: _battery_leaf(1)), PARTITION, "outcomes",
              check=_check_frequencies(1, 1)),
    BenchCase("battery-merge-2M", "merge", _battery_merge, 1, "merges", check=_check_frequencies(0, 1)),
    BenchCase("battery-move-value", "local-pool", _move(lambda: _battery_value(1)), 1, "values",
              check=_same_value(lambda: _battery_value(1))),
    BenchCase("battery-relay-value", "calling-process", _move(lambda: _battery_value(1), relay_only=True), 1,
              "values", check=_same_value(lambda: _battery_value(1))),
    BenchCase("battery-plan-and-report", "calling-process", _battery_report, 1, "runs", check=_check_report),
    BenchCase("baccarat-partition-4M", "one-partition", lambda: _baccarat_leaf(1), GAME_PARTITION, "rounds",
              check=_check_rounds(GAME_PARTITION)),
    BenchCase("baccarat-merge-4M", "merge", _baccarat_merge, 1, "merges", check=_check_rounds(2 * GAME_PARTITION)),
    BenchCase("baccarat-move-value", "local-pool", _move(lambda: _baccarat_value(1)), 1, "values",
              check=_same_value(lambda: _baccarat_value(1))),
    BenchCase("baccarat-relay-value", "calling-process", _move(lambda: _baccarat_value(1), relay_only=True), 1,
              "values", check=_same_value(lambda: _baccarat_value(1))),
    BenchCase("baccarat-chi-square", "calling-process", _baccarat_finish, 1, "runs", check=_check_finish),
]

#: What the projection is made for: the issue's run sizes.
PROJECTED = {"battery": ("battery (all its tests), roulette", 10**9, "outcomes"),
             "baccarat": ("game baccarat --simulate", 10**10, "rounds")}


def projections(results) -> list[dict]:
    """Projections (:func:`harness.projection.report`) of each workload whose four cost groups ran in
    ``results`` (CaseResults of this run), from their medians."""
    from harness.projection import Costs, report

    by_group = {r.group: r for r in results if r.skipped is None}
    out = []
    for workload, groups in COST_GROUPS.items():
        if not all(g in by_group for g in groups):
            continue
        partition, merge, move, relay, serial = (by_group[g] for g in groups)
        value = _battery_value(1) if workload == "battery" else _baccarat_value(1)
        costs = Costs(units=partition.units, partition=partition.median, merge=merge.median,
                      value_bytes=len(value[0]), move=move.median, relay=relay.median, serial=serial.median)
        out.append(report(*PROJECTED[workload], costs))
    return out
