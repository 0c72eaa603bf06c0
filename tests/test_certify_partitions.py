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


def test_a_partitioned_run_stopped_and_resumed_gives_the_serial_report(plan, tmp_path, monkeypatch):
    """Stopped after two partitions of the first section, resumed (those two kept, not tested again):
    both sections' reports are the serial run's (the second one run in partitions from its start)."""
    real = harness.partitions.run_drawn
    calls = []

    def stopping(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:  # the first run: stop after its second partition
            progress = kwargs["progress"]

            def stop(done, total):
                progress(done, total)
                if done >= 20_014:
                    raise KeyboardInterrupt
            kwargs = {**kwargs, "progress": stop}
        return real(*args, **kwargs)

    monkeypatch.setattr(harness.partitions, "run_drawn", stopping)
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
