"""`rngcert test --workers N` on a capture: fixed partitions merged exactly, the report of one pass for any N."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

import harness.partitions
from harness.cli import main
from harness.partitions import partitions, run_partitioned
from stats.battery import Battery
from stats.io import open_capture
from tests.stats_support import device_spec

N = 60_000


def _capture(tmp_path):
    path = tmp_path / "spins.npy"
    np.save(path, np.random.default_rng(7).integers(0, 37, N).astype(np.uint8))
    return path


def test_partitions_are_fixed_by_n_alone():
    assert partitions(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert partitions(N) == [(0, N)] and partitions(0) == []


def test_two_workers_give_the_one_process_report(tmp_path, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 16_384)  # 4 partitions (set in the parent)
    path = _capture(tmp_path)
    args = ["test", "roulette-single", "--input", str(path), "--format", "indices", "--json"]
    one = CliRunner().invoke(main, args)
    two = CliRunner().invoke(main, args + ["--workers", "2"])
    assert one.exit_code == two.exit_code and one.exit_code in (0, 1), two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b and a["n"] == N and len(a["tests"]) > 15


def test_an_interrupted_parallel_run_reports_its_whole_partitions(tmp_path, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 20_000)
    path = _capture(tmp_path)
    spec = device_spec("roulette-single")
    capture = open_capture(path, spec, format="indices")

    def progress(done, total):
        if done >= 40_000:
            raise KeyboardInterrupt

    result = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=None, workers=2,
                             progress=progress)
    assert result.interrupted and result.n == 40_000
    fresh = Battery(spec, N)
    fresh.update(capture.rows(0, 40_000))
    assert result.to_json() == fresh.result(interrupted=True).to_json()


def test_workers_need_a_capture():
    r = CliRunner().invoke(main, ["test", "roulette-single", "--workers", "2"])
    assert r.exit_code == 2 and "--workers" in r.stderr and len(r.stderr.strip().splitlines()) == 1
