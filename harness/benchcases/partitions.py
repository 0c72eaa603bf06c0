"""Worker bench cases (issue 18): a long run in partitions on two workers, against one process.

``battery-workers-64M``: the battery's wheel tests that cost the most per
outcome (frequency, serial pairs and triples, gap, poker, runs up, coupon
collector) on a 2^26-outcome ``.npy`` capture of roulette spins (32
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
