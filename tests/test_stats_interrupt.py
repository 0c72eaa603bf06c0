"""Interrupted runs report the truth: exactly the outcomes they name, marked INCOMPLETE.

Once, Ctrl-C between two tests' updates left some tests one chunk ahead of n
(a report of n = 5,242,880 whose frequency X² was that of 6,291,456).
"""
import json
import os
import signal

import pytest
from click.testing import CliRunner

from harness.cli import main
from stats.battery import Battery, run_battery
from tests.stats_support import draw, interrupt_rngcert_test, seed_hex

CHUNK = 20_000


def _signal_inside_an_update(battery, sig, after_chunks):
    """Send ``sig`` to ourselves while the third test takes in chunk ``after_chunks`` + 1."""
    test = battery.tests[2]
    real = test.acc.update
    calls = []

    def update(chunk):
        calls.append(1)
        if len(calls) == after_chunks + 1:
            os.kill(os.getpid(), sig)
        real(chunk)

    test.acc.update = update


def _figures(result):
    return [(t.name, repr(t.statistic), repr(t.pvalue), t.verdict) for t in result.tests]


@pytest.mark.parametrize("sig", [signal.SIGINT])
def test_signal_during_an_update_leaves_every_test_at_n(sig):
    spec, data = draw("roulette-single", 5 * CHUNK, seed=21)
    battery = Battery(spec, len(data))
    _signal_inside_an_update(battery, sig, after_chunks=2)
    fed = 0
    with pytest.raises(KeyboardInterrupt):
        for start in range(0, len(data), CHUNK):
            battery.update(data[start:start + CHUNK])
            fed += 1
    assert battery.n == 3 * CHUNK  # the chunk in progress was taken in by every test, then the signal acted
    assert all(t.acc.n == battery.n * t.scale for t in battery.tests if hasattr(t.acc, "n"))
    partial = battery.result(interrupted=True)
    fresh = Battery(spec, len(data))
    fresh.update(data[:3 * CHUNK])
    assert _figures(partial) == _figures(fresh.result(interrupted=True))
    assert partial.verdict == "incomplete" and partial.interrupted and not partial.complete


def test_interrupted_run_battery_matches_a_fresh_run_of_its_n():
    spec, data = draw("roulette-single", 6 * CHUNK, seed=22)
    battery_holder = {}
    real_init = Battery.__init__

    def chunks():
        for i, start in enumerate(range(0, len(data), CHUNK)):
            if i == 1:
                _signal_inside_an_update(battery_holder["b"], signal.SIGINT, after_chunks=3)
            yield data[start:start + CHUNK]

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        battery_holder["b"] = self

    Battery.__init__ = init
    try:
        result = run_battery(spec, chunks(), n=len(data))
    finally:
        Battery.__init__ = real_init
    assert result.interrupted and result.n == 5 * CHUNK  # patched before chunk 2: signal in chunk 5
    again = Battery(spec, len(data))
    again.update(data[:5 * CHUNK])
    assert _figures(result) == _figures(again.result(interrupted=True))
    assert result.to_json()["verdict"] == "incomplete" and result.to_json()["complete"] is False


def test_sigterm_is_handled_like_ctrl_c_by_rngcert_test(monkeypatch):
    interrupt_rngcert_test(monkeypatch, 2, lambda: os.kill(os.getpid(), signal.SIGTERM))
    before = signal.getsignal(signal.SIGTERM)
    r = CliRunner().invoke(main, ["test", "roulette-single", "--samples", "4000000", "--seed", seed_hex(5),
                                  "--json"])
    assert r.exit_code == 130, r.output
    report = json.loads(r.stdout)
    assert report["verdict"] == "incomplete" and report["interrupted"] is True and report["complete"] is False
    assert report["n"] == 2 * (1 << 20)
    assert "INCOMPLETE" in r.stderr
    assert signal.getsignal(signal.SIGTERM) == before  # the command's handler is gone again


def test_sigterm_during_start_up_exits_130(monkeypatch, tmp_path):
    """SIGTERM while a capture is still being read: exit 130 like Ctrl-C, not a silent kill or a traceback."""
    import stats.io

    real = stats.io.open_capture

    def slow_open(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)

    monkeypatch.setattr(stats.io, "open_capture", slow_open)
    path = tmp_path / "spins.bin"
    path.write_bytes(bytes(range(37)) * 1000)
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path)])
    assert r.exit_code == 130 and "Traceback" not in r.output


# --- while a capture file is being read ------------------------------------------------------

def _spins_file(tmp_path, n=100_000, name="spins.csv"):
    import numpy as np

    from tests.stats_support import device_spec

    labels = np.array(device_spec("roulette-single").labels)
    path = tmp_path / name
    spins = np.random.default_rng(n).integers(0, 37, n)
    path.write_text("# format: labels\n" + "\n".join(labels[spins]) + "\n")
    return path


def _signal_in_scan(monkeypatch, sig, *, checking: bool, call: int, batch: int = 0):
    """Send ``sig`` while the text reader scans: in its checking pass, or in its ``call``-th read of a chunk."""
    import stats.io

    real = stats.io.scan
    calls = []

    def scan(*args, **kwargs):
        if bool(kwargs.get("python_first")) == checking:
            calls.append(1)
        for i, item in enumerate(real(*args, **kwargs)):
            if bool(kwargs.get("python_first")) == checking and len(calls) == call and i == batch:
                os.kill(os.getpid(), sig)
            yield item

    monkeypatch.setattr(stats.io, "scan", scan)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_while_a_capture_is_checked_gives_a_true_partial_report(monkeypatch, tmp_path, sig):
    """Once one line ('interrupted; verdict: INCOMPLETE'); now the report, saying how far the reading got."""
    path = _spins_file(tmp_path)
    _signal_in_scan(monkeypatch, sig, checking=True, call=1, batch=1)
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--json"])
    assert r.exit_code == 130, r.output
    report = json.loads(r.stdout)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    assert report["n"] == 0 and report["tests"] == []
    read = report["source"]["read"]
    assert read["of"] == path.stat().st_size and 0 < read["bytes"] <= read["of"] and read["checked"] == 1 << 16
    assert "interrupted while reading spins.csv" in report["source"]["description"]
    _signal_in_scan(monkeypatch, sig, checking=True, call=1, batch=1)
    text = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path)])
    assert text.exit_code == 130 and text.stdout.rstrip().endswith("verdict: INCOMPLETE (interrupted before any "
                                                                   "test ran)")
    assert "65,536 outcomes checked, none tested yet" in text.stdout and "INCOMPLETE" in text.stderr


def test_interrupt_while_a_capture_streams_reports_exactly_what_was_tested(monkeypatch, tmp_path):
    """Ctrl-C while the third chunk of a text capture is read: the report is that of the first two chunks."""
    import harness.sources
    from stats.io import open_capture
    from tests.stats_support import device_spec

    path = _spins_file(tmp_path)
    monkeypatch.setattr(harness.sources, "rows_per_chunk", lambda kind, values=0: 20_000)
    _signal_in_scan(monkeypatch, signal.SIGINT, checking=False, call=3)
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--json"])
    assert r.exit_code == 130, r.output
    report = json.loads(r.stdout)
    assert report["n"] == 40_000 and report["verdict"] == "incomplete" and report["interrupted"] is True
    monkeypatch.undo()
    spec = device_spec("roulette-single")
    fresh = Battery(spec, 100_000)
    fresh.update(open_capture(path, spec).array()[:40_000])
    expected = fresh.result(interrupted=True).to_json()["tests"]
    assert [(t["name"], t["statistic"], t["pvalue"]) for t in report["tests"]] == \
        [(t["name"], t["statistic"], t["pvalue"]) for t in expected]


@pytest.mark.parametrize("name", ["spins.npy", "spins.bin", "spins.csv"])
def test_every_capture_format_shows_progress_while_it_is_read(monkeypatch, tmp_path, name):
    import numpy as np

    path = tmp_path / name
    spins = np.random.default_rng(3).integers(0, 37, 20_000).astype(np.uint8)
    if name.endswith(".npy"):
        np.save(path, spins)
    elif name.endswith(".bin"):
        path.write_bytes(spins.tobytes())
    else:
        path.write_text("# format: indices\n" + "\n".join(map(str, spins)) + "\n")
    monkeypatch.setattr("harness.progress.DELAY_SECONDS", 0.0)
    monkeypatch.setattr("harness.progress._is_terminal", lambda file: True)
    args = ["test", "roulette-single", "--input", str(path), "--format", "indices", "--test", "frequency"]
    shown = CliRunner().invoke(main, args)
    assert shown.exit_code == 0, shown.output
    assert f"testing roulette-single (reading {name}) (outcomes)" in shown.stderr
    quiet = CliRunner().invoke(main, args + ["--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
