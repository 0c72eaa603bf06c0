"""`rngcert certify PLAN --workers N`: device sections' batteries in the partitions of `rngcert test --workers`
give the report of the serial run; the finished partitions are kept, so a stopped run resumes from them."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

import harness.partitions
from certify_support import draw_figures_as_svg, without_times
from harness.cli import main

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
PLAN = f'''format = 1
title = "partitions test"
selftest = false
[engine]
seed = "{SEED}"
stream = 7
[[devices]]
device = "roulette-single"
samples = 30000
tests = ["frequency", "serial-pairs", "gap", "runs-up", "coupon-collector"]
[[devices]]
device = "roulette-single"
input = "spins.npy"
format = "indices"
tests = ["frequency", "serial-pairs", "poker"]
stream = 3
'''


@pytest.fixture(autouse=True)
def _small_partitions(monkeypatch):
    draw_figures_as_svg(monkeypatch)
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 10_007)  # 3 partitions a section


@pytest.fixture
def plan(tmp_path):
    np.save(tmp_path / "spins.npy", np.random.default_rng(3).integers(0, 37, 25_000).astype(np.uint8))
    path = tmp_path / "plan.toml"
    path.write_text(PLAN)
    return path


def _sections(out):
    report = json.loads((out / "report.json").read_text())
    return [without_times(s) for s in report["sections"]]


def _certify(plan, out, *extra):
    return CliRunner().invoke(main, ["certify", str(plan), "--out", str(out), "--quiet", *extra])


def _stop_the_first_run_after_two_partitions(monkeypatch) -> list:
    """``run_drawn`` whose first call (the first run's first section) stops after its second partition;
    the list of each call's ``workers``."""
    real = harness.partitions.run_drawn
    calls = []

    def stopping(*args, **kwargs):
        calls.append(kwargs["workers"])
        if len(calls) == 1:
            progress = kwargs["progress"]

            def stop(done, total):
                progress(done, total)
                if done >= 20_014:
                    raise KeyboardInterrupt
            kwargs = {**kwargs, "progress": stop}
        return real(*args, **kwargs)

    monkeypatch.setattr(harness.partitions, "run_drawn", stopping)
    return calls


def test_a_partitioned_run_stopped_and_resumed_gives_the_serial_report(plan, tmp_path, monkeypatch):
    """Stopped after two partitions of the first section, resumed (those two kept, not tested again):
    both sections' reports are the serial run's (the second one run in partitions from its start)."""
    _stop_the_first_run_after_two_partitions(monkeypatch)
    out = tmp_path / "run"
    first = _certify(plan, out, "--workers", "2")
    assert first.exit_code == 130, first.output
    parts = out / "checkpoints"
    kept = {p: p.stat().st_mtime_ns for p in parts.glob("*.parts/part-*.json")}
    assert len(kept) == 2
    again = _certify(plan, out, "--resume", "--workers", "2")
    assert again.exit_code in (0, 1), again.output
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # not tested again
    whole = _certify(plan, tmp_path / "whole")
    resumed = _sections(out)
    assert resumed == _sections(tmp_path / "whole") and whole.exit_code == again.exit_code
    assert [s["result"]["n"] for s in resumed] == [30000, 25000] and not any(s["interrupted"] for s in resumed)
    assert len(list(parts.glob("*.parts/part-*.json"))) == 6  # 3 partitions a section


def test_a_serial_resume_goes_on_from_the_partitions_a_stopped_run_kept(plan, tmp_path, monkeypatch):
    """Stopped with --workers 2 after two partitions, resumed WITHOUT --workers: the kept partitions are
    merged, not tested again (the resumed section goes on in partitions, here), and the report is the
    serial run's."""
    calls = _stop_the_first_run_after_two_partitions(monkeypatch)
    out = tmp_path / "run"
    assert _certify(plan, out, "--workers", "2").exit_code == 130
    kept = {p: p.stat().st_mtime_ns for p in (out / "checkpoints").glob("*.parts/part-*.json")}
    assert len(kept) == 2
    again = _certify(plan, out, "--resume")
    assert again.exit_code in (0, 1), again.output
    assert calls == [2, 1]  # the resumed section ran in partitions, on one process
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    whole = _certify(plan, tmp_path / "whole")
    assert _sections(out) == _sections(tmp_path / "whole") and whole.exit_code == again.exit_code


SIM_PLAN = f'''format = 1
title = "simulations in partitions"
selftest = false
[engine]
seed = "{SEED}"
stream = 11
[[games]]
game = "roulette-single"
simulate = 9000
[[slots]]
model = "{{model}}"
simulate = 6000
'''


@pytest.fixture
def sim_plan(tmp_path, monkeypatch):
    import harness.game_partitions
    from harness import segments
    from harness.resources import shipped

    monkeypatch.setattr(harness.game_partitions, "PARTITION_ROUNDS", 1500)
    monkeypatch.setattr(segments, "MIN_SEGMENT", 1000)
    path = tmp_path / "sim.toml"
    path.write_text(SIM_PLAN.format(model=shipped("examples/slot_weighted.toml")))
    return path


def test_game_and_slot_simulations_are_the_same_on_any_number_of_workers(sim_plan, tmp_path):
    """A plan's game and slot simulations play in partitions (the convergence segments cut at 1,500
    rounds), partition i on child i of the section's generator: the sections' figures, convergence
    traces included, are the same without --workers and on 2 or 3 workers; the game's counts are those
    of the partitions played one by one on the spawned children."""
    from harness import segments
    from harness.certify.plan import load_plan
    from harness.certify.sections import generator_for
    from harness.games.registry import GAMES
    from harness.partitions import refine

    runs = {}
    for workers in (None, 2, 3):
        out = tmp_path / f"w{workers}"
        result = _certify(sim_plan, out, *([] if workers is None else ["--workers", str(workers)]))
        assert result.exit_code in (0, 1), result.output
        runs[workers] = _sections(out)
    assert runs[None] == runs[2] == runs[3]
    game, slot = runs[None]
    ends = segments.boundaries(9000)
    parts = refine(list(zip([0, *ends[:-1]], ends)), 1500)
    assert len(parts) > len(ends) > 1
    assert [p["rounds"] for p in game["result"]["simulation"]["convergence"]["points"]] == ends
    assert game["result"]["simulation"]["replay"]["partitions"] == len(parts)
    assert slot["result"]["simulation"]["plays"] == 6000 and "spawn(" in slot["result"]["simulation"]["generator"]
    loaded = load_plan(sim_plan)
    children = generator_for(loaded, loaded.sections[0]).spawn(len(parts))
    played = [GAMES["roulette-single"].simulate(b - a, child) for (a, b), child in zip(parts, children)]
    for k, bet in enumerate(game["result"]["simulation"]["bets"]):
        assert bet["counts"] == {label: sum(p.bets[k].counts.get(label, 0) for p in played) for label in bet["counts"]}
    assert game["result"]["simulation"]["bets"][0]["decisions"] == 9000


_KILLED_CERTIFY = """
import sys, time
from click.testing import CliRunner
import harness.game_partitions
from harness import segments
from harness.cli import main
harness.game_partitions.PARTITION_ROUNDS = 1500
segments.MIN_SEGMENT = 1000
play = segments.GameSegments.play
segments.GameSegments.play = lambda self, n, gen, progress: (time.sleep(0.4), play(self, n, gen, progress))[1]
CliRunner().invoke(main, ["certify", sys.argv[1], "--out", sys.argv[2], "--quiet", "--workers", "2"])
"""


def test_a_killed_partitioned_certification_resumes_serially_with_the_same_report(sim_plan, tmp_path):
    """`certify --workers 2` killed with SIGKILL once it kept partitions of its game section, then
    `certify --resume` without --workers: the partitions kept are merged, not played again, and the
    report is that of an uninterrupted serial run."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "killed"
    child = subprocess.Popen([sys.executable, "-c", _KILLED_CERTIFY, str(sim_plan), str(out)],
                             env={**os.environ, "PYTHONSAFEPATH": "1"})
    try:
        deadline = time.monotonic() + 120
        while (len(list(out.glob("checkpoints/game*.parts/part-*.json"))) < 3 and child.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.05)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    kept = {p: p.stat().st_mtime_ns for p in out.glob("checkpoints/game*.parts/part-*.json")}
    assert 3 <= len(kept) < 10 and not (out / "report.json").exists()
    again = _certify(sim_plan, out, "--resume")
    assert again.exit_code in (0, 1), again.output
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # merged, not played again
    _certify(sim_plan, tmp_path / "whole")
    assert _sections(out) == _sections(tmp_path / "whole")
