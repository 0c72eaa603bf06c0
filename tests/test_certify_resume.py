"""`rngcert certify` stopped at a random point and resumed gives the report of an uninterrupted run."""
import json
import random

import jsonschema
import pytest
from click.testing import CliRunner

import harness.certify.sections as sections
from certify_support import draw_figures_as_svg, without_times
from harness.certify.bundle import schema
from harness.cli import main
from stats.battery import Battery

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
PLAN = f'''format = 1
title = "resume test"
selftest = false
[engine]
seed = "{SEED}"
stream = 5
[[devices]]
device = "roulette-single"
samples = 3000
tests = ["frequency", "serial-pairs", "gap"]
[[devices]]
device = "dice:2"
samples = 2500
tests = ["frequency", "independence"]
[[games]]
game = "sic-bo"
simulate = 3000
[[devices]]
device = "deck"
samples = 400
tests = ["position-card", "first-card"]
'''


# rows per battery chunk at 250 values per chunk: max(1, 250 // values per outcome)
ROWS_PER_CHUNK = {"device:roulette-single": 250, "device:dice:2": 125, "device:deck": 4}


@pytest.fixture(autouse=True)
def _svg_figures(monkeypatch):
    draw_figures_as_svg(monkeypatch)  # these tests check report.json; matplotlib's figures are tested elsewhere


def certify(*args):
    return CliRunner().invoke(main, ["certify", *map(str, args), "--quiet"])


def timeless(report: dict) -> dict:
    """The report without what may differ between runs: the invocations, durations and rates."""
    report = without_times(report)
    del report["provenance"]["runs"], report["provenance"]["command"]
    return report


@pytest.fixture
def small_chunks(monkeypatch):
    """Feed the battery 250 values at a time, so a run has many points to be stopped at."""
    monkeypatch.setattr(sections, "CHUNK_VALUES", 250)


def _count_updates(monkeypatch, stop_at=None):
    """Count Battery.update calls; raise KeyboardInterrupt (Ctrl-C, or SIGTERM via the CLI) at call ``stop_at``."""
    calls = {"n": 0}
    original = Battery.update

    def update(self, chunk):
        calls["n"] += 1
        if calls["n"] == stop_at:
            raise KeyboardInterrupt
        return original(self, chunk)

    monkeypatch.setattr(Battery, "update", update)
    return calls


@pytest.fixture(scope="module")
def _uninterrupted(tmp_path_factory):
    """The plan's uninterrupted run, certified once for the module (every test only reads it)."""
    folder = tmp_path_factory.mktemp("plan")
    plan = folder / "plan.toml"
    plan.write_text(PLAN)
    with pytest.MonkeyPatch.context() as monkeypatch:
        draw_figures_as_svg(monkeypatch)
        monkeypatch.setattr(sections, "CHUNK_VALUES", 250)
        calls = _count_updates(monkeypatch)
        result = certify(plan, "--out", folder / "whole")
    assert result.exit_code == 0, result.output
    return plan, (folder / "whole" / "report.json").read_text(), calls["n"]


@pytest.fixture
def reference(_uninterrupted, small_chunks):
    plan, whole, total = _uninterrupted
    return plan, json.loads(whole), total  # a fresh copy: no test can change another's reference


def _stop_points(total):
    rng = random.Random(16)  # a random point, the same on every run of the tests
    return [1, rng.randrange(2, total), total]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["first-chunk", "random-chunk", "last-chunk"])
def test_resumed_run_reproduces_the_uninterrupted_report(reference, tmp_path, monkeypatch, which):
    plan, whole, total = reference
    stop = _stop_points(total)[which]
    out = tmp_path / "stopped"
    _count_updates(monkeypatch, stop_at=stop)
    first = certify(plan, "--out", out)
    assert first.exit_code == 130, first.output
    assert "verdict: INCOMPLETE" in first.output and "--resume" in first.output
    partial = json.loads((out / "report.json").read_text())
    assert partial["verdict"] == "incomplete" and partial["interrupted"] and not partial["complete"]
    assert not list(jsonschema.Draft202012Validator(schema()).iter_errors(partial))
    waiting = [s for s in partial["sections"] if s["verdict"] == "incomplete"]
    assert waiting and waiting[0]["interrupted"]  # the stopped section says so; the later ones are pending
    assert all(s["reason"] == "not run yet" and s["result"] is None for s in waiting[1:])
    finished = [s["key"] for s in partial["sections"] if s["verdict"] == "pass"]

    monkeypatch.undo()
    draw_figures_as_svg(monkeypatch)  # (undo took the autouse fixture's patch too)
    monkeypatch.setattr(sections, "CHUNK_VALUES", 250)
    calls = _count_updates(monkeypatch)
    resumed = certify(plan, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    report = json.loads((out / "report.json").read_text())
    assert timeless(report) == timeless(whole)  # nothing lost, nothing counted twice
    assert len(report["provenance"]["runs"]) == 2 and report["provenance"]["runs"][0]["interrupted"]
    # the finished sections were not run again: only the others fed the battery, each from its start
    rest = [s for s in whole["sections"] if s["kind"] == "device" and s["key"] not in finished]
    assert calls["n"] == sum(-(-s["result"]["n"] // ROWS_PER_CHUNK[s["key"]]) for s in rest)


def test_a_long_section_resumes_from_its_saved_accumulators(reference, tmp_path, monkeypatch):
    plan, whole, total = reference
    monkeypatch.setattr(sections, "CHECKPOINT_VALUES", 500)  # the deck saves its state every 2 chunks of 4
    out = tmp_path / "stopped"
    before_deck = 3000 // 250 + 2500 // 125  # roulette's and the dice's chunks come first
    _count_updates(monkeypatch, stop_at=before_deck + 57)  # stop while the deck takes its 57th chunk
    assert certify(plan, "--out", out).exit_code == 130
    state = json.loads((out / "checkpoints" / "device_deck.state.json").read_text())
    assert state["rows"] == 56 * 4  # the last state saved: after chunk 56
    monkeypatch.undo()
    draw_figures_as_svg(monkeypatch)  # (undo took the autouse fixture's patch too)
    monkeypatch.setattr(sections, "CHUNK_VALUES", 250)
    calls = _count_updates(monkeypatch)
    assert certify(plan, "--out", out, "--resume").exit_code == 0
    assert calls["n"] == 100 - 56  # only the deck's outcomes after its saved state reach the tests
    assert timeless(json.loads((out / "report.json").read_text())) == timeless(whole)
    assert not list((out / "checkpoints").glob("*.state*"))  # a finished section keeps no partial state


def test_resume_refuses_another_plan_and_a_used_folder(reference, tmp_path):
    plan, _, _ = reference
    out = tmp_path / "out"
    assert certify(plan, "--out", out).exit_code == 0
    again = certify(plan, "--out", out)
    assert again.exit_code == 2 and "already holds a certification run: add --resume" in again.stderr
    other = tmp_path / "other.toml"
    other.write_text(plan.read_text().replace("samples = 3000", "samples = 3001"))
    refused = certify(other, "--out", out, "--resume")
    assert refused.exit_code == 2 and "holds a run of another plan" in refused.stderr
    nothing = certify(plan, "--out", tmp_path / "fresh", "--resume")
    assert nothing.exit_code == 2 and "holds no certification run to resume" in nothing.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    busy = certify(plan, "--out", tmp_path / "full")
    assert busy.exit_code == 2 and "is not empty" in busy.stderr
