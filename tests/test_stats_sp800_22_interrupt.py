"""An interrupted SP 800-22 suite reports the truth: every test run that finished, which did not,
INCOMPLETE, exit 130 (Ctrl-C and SIGTERM, injected and as real signals); progress on a terminal only."""
from __future__ import annotations

import json
import os
import signal

import numpy as np
import pytest
from click.testing import CliRunner

import stats.sp800_22_suite as suite
from harness.cli import main
from harness.progress import Progress
from tests.signal_support import signal_when_entered

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
LENGTH = 20_000
M = 3
TESTS = ("Frequency", "CumulativeSums", "Runs", "Rank")  # 5 declared entries: CumulativeSums twice


def _bits():
    import rngcore

    data = rngcore.Generator(SEED).random_bytes(M * LENGTH // 8)
    return np.unpackbits(np.frombuffer(data, dtype=np.uint8))


def _rows(report):
    return [(r.test, r.label, r.pvalues, r.skipped) for r in report.rows]


def _stop_at(runs):
    def progress(done, total):
        assert total == 5 * M
        if done == runs:
            raise KeyboardInterrupt
    return progress


def test_an_interrupted_suite_covers_exactly_the_runs_that_finished():
    bits = _bits()
    # test-major order: Frequency x3, CumulativeSums forward x3, backward x3, Runs x3, Rank x3; stop after 8
    report = suite.run_suite(bits, length=LENGTH, tests=TESTS, progress=_stop_at(8))
    assert report.interrupted and report.verdict == "incomplete"
    assert report.coverage == (("Frequency", 3), ("CumulativeSums", 2), ("Runs", 0), ("Rank", 0))
    assert report.not_run == ("Runs", "Rank") and report.partial == (("CumulativeSums", 2),)
    fresh = suite.run_suite(bits, length=LENGTH, tests=("Frequency", "CumulativeSums"))
    forward, backward = (r for r in fresh.rows if r.test == "CumulativeSums")
    expected = [row for row in _rows(fresh) if row[0] == "Frequency"]
    expected += [(forward.test, forward.label, forward.pvalues, 0), (backward.test, backward.label,
                                                                     backward.pvalues[:2], 0)]
    assert _rows(report) == expected  # the same P-values as a run that was not interrupted
    out = report.as_dict()
    assert (out["verdict"], out["complete"], out["interrupted"]) == ("incomplete", False, True)
    assert out["sequences_run"] == {"Frequency": 3, "CumulativeSums": 2, "Runs": 0, "Rank": 0}
    assert out["not_run"] == ["Runs", "Rank"]
    text = report.final_analysis_report()
    assert text.startswith("INTERRUPTED") and "finished on some sequences: CumulativeSums (2 of 3)" in text
    assert "not run: Runs, Rank" in text and text.rstrip().endswith("verdict: INCOMPLETE")


def test_a_complete_report_does_not_change_and_runs_may_finish_in_any_order(monkeypatch):
    """The collector orders what comes back (as from a pool of workers), so the report is the same."""
    bits = _bits()
    calls = []
    report = suite.run_suite(bits, length=LENGTH, tests=TESTS, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(d, 5 * M) for d in range(1, 5 * M + 1)]
    assert not report.interrupted and report.coverage == tuple((name, M) for name in TESTS)
    assert set(report.as_dict()) == {"suite", "sequences", "bits", "alpha", "verdict", "complete", "interrupted",
                                     "rows"}
    real = suite._runs
    monkeypatch.setattr(suite, "_runs", lambda *args: reversed(list(real(*args))))
    assert suite.run_suite(bits, length=LENGTH, tests=TESTS) == report
    monkeypatch.undo()
    assert suite.run_suite(bits, length=LENGTH, tests=TESTS, workers=2) == report  # a pool's order, for real


def _interrupt_after(monkeypatch, runs, action=None):
    real = Progress.__call__

    def stop(self, done, total=None):
        real(self, done, total)
        if done == runs:
            (action or _raise)()

    monkeypatch.setattr(Progress, "__call__", stop)


def _raise():
    raise KeyboardInterrupt


# One process: its runs go test by test, which the partial coverage below counts on.
ARGS = ("sp800-22", "--seed", SEED, "--sequences", str(M), "--bits", str(LENGTH), "--workers", "1",
        *sum((("--test", t) for t in TESTS), ()))


#: The same run spelled as the issue spells it (rngcert test bytes --suite sp800-22 ...).
TEST_BYTES_ARGS = ("test", "bytes", "--suite", *ARGS)


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
@pytest.mark.parametrize("args", [ARGS, TEST_BYTES_ARGS], ids=["sp800-22", "test-bytes"])
def test_the_command_reports_a_partial_suite_in_json_and_exits_130(monkeypatch, how, args):
    action = None if how == "ctrl-c" else (lambda: os.kill(os.getpid(), signal.SIGTERM))
    _interrupt_after(monkeypatch, 8, action)
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 130, result.output
    report = json.loads(result.stdout)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    assert list(report)[:3] == ["verdict", "complete", "interrupted"]
    assert report["sequences_run"] == {"Frequency": 3, "CumulativeSums": 2, "Runs": 0, "Rank": 0}
    assert [r["tested"] for r in report["rows"]] == [3, 3, 2]
    assert "interrupted after 8 of 15 test runs; partial report above (INCOMPLETE)" in result.stderr


def test_the_command_reports_a_partial_suite_in_text(monkeypatch):
    _interrupt_after(monkeypatch, 8)
    result = CliRunner().invoke(main, list(ARGS))
    assert result.exit_code == 130, result.output
    lines = result.stdout.rstrip().splitlines()
    assert lines[1].startswith("INTERRUPTED") and "not run: Runs, Rank" in lines
    assert lines[-1] == "verdict: INCOMPLETE (interrupted after 8 of 15 test runs; 2 of 4 tests not run)"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_real_signal_stops_the_suite_at_once_with_a_partial_report(signum):
    """A signal to a running `rngcert sp800-22` (once its first run is done): it stops
    within the run in progress, with the partial report and exit 130."""
    code, out, err = signal_when_entered("stats.sp800_22_suite:_run_one", [
        "sp800-22", "--seed", SEED, "--sequences", "300", "--bits", str(LENGTH), "--workers", "1", "--json"],
        signum, call=2)
    assert code == 130, err
    assert "Traceback" not in err and "partial report above (INCOMPLETE)" in err
    report = json.loads(out)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    assert report["sequences_run"]["LinearComplexity"] < 300 and report["not_run"]


def test_a_signal_stops_a_pool_of_workers_with_a_partial_report():
    """SIGINT to `rngcert sp800-22 --workers 2` once two tasks of sequences have come back: the
    pool stops, the report covers the sequences that came back, exit 130."""
    code, out, err = signal_when_entered("stats._sp800_22_pool:_finished", [
        "sp800-22", "--seed", SEED, "--sequences", "300", "--bits", str(LENGTH), "--workers", "2", "--json"],
        signal.SIGINT, call=2)
    assert code == 130, err
    assert "Traceback" not in err and "partial report above (INCOMPLETE)" in err
    report = json.loads(out)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    assert 0 < report["sequences_run"]["Frequency"] < 300


def test_progress_only_on_a_terminal_and_quiet_silences_it(monkeypatch):
    monkeypatch.setattr("harness.progress.DELAY_SECONDS", 0.0)
    monkeypatch.setattr("harness.progress._is_terminal", lambda file: True)
    shown = CliRunner().invoke(main, list(ARGS))
    assert shown.exit_code in (0, 1) and "SP 800-22 (test runs)" in shown.stderr
    quiet = CliRunner().invoke(main, [*ARGS, "--quiet"])
    assert quiet.exit_code == shown.exit_code and quiet.stderr == "" and quiet.stdout == shown.stdout
    monkeypatch.undo()
    logged = CliRunner().invoke(main, list(ARGS))  # stderr is not a terminal: nothing written
    assert logged.stderr == "" and logged.stdout == shown.stdout
