"""The battery's partitions as Dask tasks (the `dask` extra): a LocalCluster of 2 worker processes gives the
report of one process; without the extra, --scheduler says what to install."""
import os
import pathlib
import re
import sys

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


def _test_command_extras() -> list[str]:
    """The extras README's test command installs (CI runs that command verbatim)."""
    readme = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text()
    command = next(line for line in readme.splitlines() if ".venv-test/bin/pip install" in line)
    return re.search(r"'\.\[([^\]]*)\]'", command).group(1).split(",")


def test_ci_runs_the_cluster_tests_when_the_test_command_installs_the_extra():
    assert "test" in _test_command_extras()
    if os.environ.get("CI") == "true" and "dask" in _test_command_extras():
        assert distributed is not None, "README's test command installs rngcert[dask]: the cluster tests must run"


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 worker processes, shared by the tests here, reached at its tcp:// address."""
    if distributed is None:
        pytest.skip("the dask extra (distributed) is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


def test_a_local_cluster_of_two_workers_gives_the_one_process_report(cluster, monkeypatch):
    """The partitions and a tree of merge tasks on the cluster: only the root comes back."""
    from harness import reduction

    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 8_009)  # 5 partitions (cut in this process)
    nodes, unpack = [], reduction.unpack
    monkeypatch.setattr(reduction, "unpack", lambda values, merge: nodes.append(len(values)) or unpack(values, merge))
    spec = device_spec("roulette-single")
    tests = ["frequency", "serial-pairs", "gap", "runs-up", "coupon-collector"]
    result = run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=6), N, alpha=0.01, tests=tests,
                       workers=2, scheduler=cluster)
    one = Battery(spec, N, tests=tests)
    one.update(spec.draw(rngcore.Generator(SEED, stream=6), N))
    assert result.to_json() == one.result().to_json() and result.n == N and not result.interrupted
    assert nodes == [1]


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


def test_a_slot_simulation_on_the_cluster_equals_the_local_partitions(cluster):
    """`rngcert slot MODEL --simulate N --scheduler ADDRESS`: the model travels with each task."""
    import dataclasses

    from harness import game_partitions
    from harness.slot.model import load_model

    model = load_model(pathlib.Path(__file__).resolve().parents[1] / "examples" / "slot_compliant.toml")
    run = lambda **where: game_partitions.simulate_slot(model, 2500, rngcore.Generator(SEED, stream=3),
                                                       partition_spins=1000, **where)
    remote, local = run(scheduler=cluster), run(workers=1)
    drop = ("seconds",)
    assert ({k: v for k, v in dataclasses.asdict(remote).items() if k not in drop}
            == {k: v for k, v in dataclasses.asdict(local).items() if k not in drop}) and remote.plays == 2500
