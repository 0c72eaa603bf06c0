"""The battery's partitions as Dask tasks (the `dask` extra): a LocalCluster of 2 worker processes gives the
report of one process; without the extra, --scheduler says what to install."""
import json
import os
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import harness.partitions
import rngcore
from harness.cli import main
from harness.partitions import run_drawn
from stats.battery import Battery
from tests.stats_support import device_spec

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
N = 40_000

try:
    import distributed  # noqa: F401
except ModuleNotFoundError:
    distributed = None


def test_the_test_command_installs_the_dask_extra():
    # README's test command installs `[dask]`, so CI must not skip the cluster test below.
    if os.environ.get("CI") == "true":
        assert distributed is not None, "CI runs the README's test command, which installs rngcert[dask]"


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes, shared by the tests here, reached at its tcp:// address."""
    if distributed is None:
        pytest.skip("the dask extra (distributed) is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_local_cluster_of_two_workers_gives_the_one_process_report(cluster, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 10_007)  # 4 partitions (cut in this process)
    spec = device_spec("roulette-single")
    tests = ["frequency", "serial-pairs", "gap", "runs-up", "coupon-collector"]
    result = run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=6), N, alpha=0.01, tests=tests,
                       workers=2, scheduler=cluster)
    one = Battery(spec, N, tests=tests)
    one.update(spec.draw(rngcore.Generator(SEED, stream=6), N))
    assert result.to_json() == one.result().to_json() and result.n == N and not result.interrupted


def test_a_game_simulation_on_the_cluster_equals_the_local_partitions(cluster):
    from certify_support import without_times
    from harness import game_partitions
    from harness.games.registry import GAMES

    game = GAMES["baccarat"]
    run = lambda **where: without_times(game_partitions.simulate(
        game, 2500, rngcore.Generator(SEED, stream=3), partition_rounds=1000, **where).as_dict())
    remote, local = run(scheduler=cluster), run(workers=1)
    assert remote == local and remote["rounds"] == 2500 and remote["replay"]["partitions"] == 3


def test_a_bad_scheduler_address_is_one_line():
    r = CliRunner().invoke(main, ["test", "roulette-single", "--samples", "20000", "--scheduler", "udp://x:1"])
    assert r.exit_code == 2 and "--scheduler" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output


def test_without_the_extra_the_scheduler_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    r = CliRunner().invoke(main, ["test", "roulette-single", "--samples", "20000", "--scheduler", "local"])
    assert r.exit_code == 2 and "rngcert[dask]" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.output
