"""`--checkpoint DIR`: each finished partition kept, so a killed run restarts where it stopped and ends with
the uninterrupted run's result (the battery on a capture, a game's simulation)."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

import harness.partitions
import rngcore
from certify_support import without_times
from harness import game_partitions
from harness.cli import main
from harness.games.registry import GAMES
from harness.partition_store import PartitionStore
from harness.partitions import run_partitioned
from stats.io import open_capture
from tests.stats_support import device_spec

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
N = 60_000


def _figures(sim):
    report = without_times(sim.as_dict())
    report.pop("replay")
    return report


def test_a_battery_run_stopped_and_run_again_gives_the_uninterrupted_report(tmp_path, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 20_000)  # 3 partitions
    path = tmp_path / "spins.npy"
    np.save(path, np.random.default_rng(7).integers(0, 37, N).astype(np.uint8))
    spec = device_spec("roulette-single")
    capture = open_capture(path, spec, format="indices")
    folder = tmp_path / "parts"

    def stop_after_two(done, total):
        if done >= 40_000:
            raise KeyboardInterrupt

    first = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=None, workers=2,
                            progress=stop_after_two, checkpoint=folder)
    assert first.interrupted and sorted(p.name for p in folder.glob("part-*")) == ["part-000000.json",
                                                                                    "part-000001.json"]
    kept = {p.name: p.stat().st_mtime_ns for p in folder.glob("part-*")}
    again = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=None, workers=2,
                            checkpoint=folder)
    assert {p: (folder / p).stat().st_mtime_ns for p in kept} == kept  # kept partitions not tested again
    assert (folder / "part-000002.json").exists()
    whole = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=None, workers=2)
    assert not again.interrupted and again.to_json() == whole.to_json() and again.n == N


_KILLED_RUN = """
import sys, time
import rngcore
from harness import game_partitions
from harness.games.registry import GAMES
game_partitions.PARTITION_ROUNDS = 2000
game_partitions.simulate(GAMES["baccarat"], 40_000, rngcore.Generator(sys.argv[1], stream=3), workers=1,
                         checkpoint=sys.argv[2], progress=lambda done, total: time.sleep(0.3))
"""


def _killed(script: str, folder, *args) -> int:
    """Run ``script`` (SEED, folder, *args) in a child process, SIGKILL it once it has kept 3 of its 20
    partitions; the number it kept (checked: killed mid-run, between or during partitions)."""
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    child = subprocess.Popen([sys.executable, "-c", script, SEED, str(folder), *args], env=env)
    try:
        deadline = time.monotonic() + 120
        while len(list(folder.glob("part-*.json"))) < 3 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    kept = len(list(folder.glob("part-*.json")))
    assert 3 <= kept < 20, kept
    return kept


def test_a_simulation_killed_mid_run_restarts_where_it_stopped(tmp_path, monkeypatch):
    folder = tmp_path / "parts"
    kept = _killed(_KILLED_RUN, folder)
    monkeypatch.setattr(game_partitions, "PARTITION_ROUNDS", 2000)
    played = []
    real = game_partitions._play
    monkeypatch.setattr(game_partitions, "_play", lambda index: played.append(index) or real(index))
    game = GAMES["baccarat"]
    resumed = game_partitions.simulate(game, 40_000, rngcore.Generator(SEED, stream=3), workers=1, checkpoint=folder)
    assert len(played) == 20 - kept and min(played) >= kept - 1  # only what the killed run had not kept
    monkeypatch.setattr(game_partitions, "_play", real)
    whole = game_partitions.simulate(game, 40_000, rngcore.Generator(SEED, stream=3), workers=2)
    assert _figures(resumed) == _figures(whole) and resumed.rounds == 40_000


def test_a_folder_of_another_run_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(game_partitions, "PARTITION_ROUNDS", 700)
    args = ["game", "roulette-single", "--simulate", "2000", "--seed", SEED, "--checkpoint", str(tmp_path), "--json"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and without_times(json.loads(again.stdout)) == without_times(json.loads(first.stdout))
    other = CliRunner().invoke(main, args[:3] + ["3000"] + args[4:])
    assert other.exit_code == 2 and "another run" in other.stderr and len(other.stderr.strip().splitlines()) == 1
    alone = CliRunner().invoke(main, ["game", "baccarat", "--checkpoint", str(tmp_path)])
    assert alone.exit_code == 2 and "--simulate" in alone.stderr


def test_a_damaged_partition_file_is_computed_again(tmp_path):
    store = PartitionStore(tmp_path, {"run": 1}, 3)
    store.save(0, '{"a": 1}')
    store.save(1, '{"b": 2}')
    (tmp_path / "part-000001.json").write_text((tmp_path / "part-000001.json").read_text().replace("2", "3"))
    assert store.finished() == {0: '{"a": 1}'}
    with pytest.raises(ValueError, match="another run"):
        PartitionStore(tmp_path, {"run": 2}, 3)


def test_outcomes_drawn_from_our_device_resume_to_the_uninterrupted_report(tmp_path, monkeypatch):
    from harness.partitions import run_drawn

    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 20_000)
    spec = device_spec("roulette-single")
    folder = tmp_path / "parts"

    def stop_after_one(done, total):
        if done >= 20_000:
            raise KeyboardInterrupt

    def run(**kw):
        return run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=9), N, alpha=0.01, tests=None,
                         workers=2, **kw)

    first = run(progress=stop_after_one, checkpoint=folder)
    assert first.interrupted and len(list(folder.glob("part-*.json"))) == 1
    again, whole = run(checkpoint=folder), run()
    assert not again.interrupted and again.to_json() == whole.to_json()
    with pytest.raises(ValueError, match="another run"):  # another seed's stream: not these partitions
        run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=10), N, alpha=0.01, tests=None,
                  workers=2, checkpoint=folder)
    cli = CliRunner().invoke(main, ["test", "roulette-single", "--samples", str(N), "--seed", SEED,
                                    "--checkpoint", str(folder)])
    assert cli.exit_code == 2 and "another run" in cli.stderr and len(cli.stderr.strip().splitlines()) == 1


_KILLED_SLOT = """
import sys, time
import rngcore
from harness import game_partitions
from harness.slot.model import load_model
game_partitions.PARTITION_ROUNDS = 3000
game_partitions.simulate_slot(load_model(sys.argv[3]), 60_000, rngcore.Generator(sys.argv[1], stream=5),
                              checkpoint=sys.argv[2], progress=lambda done, total: time.sleep(0.3))
"""
MODEL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "slot_weighted.toml")


def test_a_slot_simulation_killed_mid_run_restarts_where_it_stopped(tmp_path, monkeypatch):
    """`rngcert slot MODEL --simulate N --checkpoint DIR`, killed with SIGKILL and run again: the totals of
    the uninterrupted run, only the partitions the killed run had not kept played again."""
    import dataclasses

    from harness.slot.model import load_model

    folder = tmp_path / "parts"
    kept = _killed(_KILLED_SLOT, folder, MODEL)
    monkeypatch.setattr(game_partitions, "PARTITION_ROUNDS", 3000)
    played = []
    real = game_partitions._play
    monkeypatch.setattr(game_partitions, "_play", lambda index: played.append(index) or real(index))
    model = load_model(MODEL)
    resumed = game_partitions.simulate_slot(model, 60_000, rngcore.Generator(SEED, stream=5), checkpoint=folder)
    assert len(played) == 20 - kept and min(played) >= kept - 1
    monkeypatch.setattr(game_partitions, "_play", real)
    whole = game_partitions.simulate_slot(model, 60_000, rngcore.Generator(SEED, stream=5), workers=2)

    def totals(result):
        return {k: v for k, v in dataclasses.asdict(result).items() if k != "seconds"}

    assert totals(resumed) == totals(whole) and resumed.plays == 60_000 and not resumed.interrupted


def test_the_slot_command_keeps_its_partitions(tmp_path):
    args = ["slot", MODEL, "--simulate", "5000", "--seed", SEED, "--checkpoint", str(tmp_path), "--json"]
    first, again = CliRunner().invoke(main, args), CliRunner().invoke(main, args)
    assert first.exit_code == again.exit_code == 0, first.output
    assert without_times(json.loads(again.stdout)) == without_times(json.loads(first.stdout))
    assert (tmp_path / "part-000000.json").exists() and json.loads(first.stdout)["simulation"]["plays"] == 5000
    alone = CliRunner().invoke(main, ["slot", MODEL, "--checkpoint", str(tmp_path)])
    assert alone.exit_code == 2 and "--simulate" in alone.stderr
