"""`rngcert test`: verdicts, JSON schema, exit codes for every kind of bad input."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from stats.defects import modulo_roulette
from tests.stats_support import interrupt_rngcert_test, seed_hex

SEED = seed_hex(42)


def _run(*args):
    return CliRunner().invoke(main, ["test", *args])


def test_good_device_passes_with_text_report():
    r = _run("roulette-single", "--samples", "20000", "--seed", SEED)
    assert r.exit_code == 0, r.output
    assert "verdict: PASS" in r.output
    line = next(l for l in r.output.splitlines() if l.startswith("frequency"))
    assert "PASS" in line and "at (1 + δ)·1/37" in line


def test_json_schema_exactly():
    r = _run("deck", "--samples", "1000", "--seed", SEED, "--json", "--alpha", "0.05")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert set(report) == {"device", "kind", "n", "unit", "alpha", "verdict", "complete", "interrupted", "tests",
                           "source", "provenance", "build"}
    assert report["provenance"]["stream"] == 0 and SEED not in r.stdout  # the seed by fingerprint only
    assert report["device"] == "deck" and report["n"] == 1000 and report["alpha"] == 0.05
    assert report["verdict"] == "pass" and report["complete"] is True and report["interrupted"] is False
    assert report["kind"] == "permutation" and report["unit"] == "shuffles"
    assert {t["name"] for t in report["tests"]} >= {"position-card", "adjacency", "first-card", "carry-over"}
    for t in report["tests"]:
        assert set(t) == {"name", "statistic", "df", "pvalue", "holm_pvalue", "verdict", "detectable", "note",
                          "needed", "low_power", "cells"}
        assert t["verdict"] in ("pass", "fail")
        assert 0 <= t["pvalue"] <= t["holm_pvalue"] <= 1
    adjacency = next(t for t in report["tests"] if t["name"] == "adjacency")
    assert adjacency["df"] > 0 and adjacency["detectable"]["delta"] > 0
    assert adjacency["detectable"]["alpha"] == pytest.approx(0.05 / len(report["tests"]))
    assert "adjacent" in adjacency["detectable"]["deviation"]


def test_reproducible_with_seed():
    a = _run("dice:2", "--samples", "5000", "--seed", SEED, "--json").stdout
    b = _run("dice:2", "--samples", "5000", "--seed", SEED, "--json").stdout
    assert a == b


def test_defective_capture_fails_with_exit_1(tmp_path):
    path = tmp_path / "modulo.bin"
    path.write_bytes(modulo_roulette(200_000, seed=3).tobytes())
    r = _run("roulette-single", "--input", str(path), "--json")
    assert r.exit_code == 1, r.output
    report = json.loads(r.stdout)
    assert report["verdict"] == "fail"
    freq = next(t for t in report["tests"] if t["name"] == "frequency")
    assert freq["verdict"] == "fail" and freq["pvalue"] < 1e-9


def test_csv_capture_of_labels(tmp_path):
    rng = np.random.default_rng(5)
    from rngcore.devices import device_spec

    spec = device_spec("roulette-double")
    path = tmp_path / "spins.csv"
    path.write_text("\n".join(spec.labels[i] for i in rng.integers(0, 38, 20_000)) + "\n")
    r = _run("roulette-double", "--input", str(path))
    assert r.exit_code == 0, r.output
    assert "read from" in r.output and "labels" in r.output


@pytest.mark.parametrize("args,message", [
    (["roulette-triple"], "valid names: roulette-single"),
    (["roulette-single", "--samples", "1", "--seed", SEED], "needs at least 2 outcomes, got 1 (no test"),
    (["roulette-single", "--alpha", "nan"], "'nan' is not strictly between 0 and 1"),
    (["roulette-single", "--alpha", "inf"], "not strictly between 0 and 1"),
    (["roulette-single", "--samples", str(10**26)], "--samples"),
    (["dice:64", "--samples", str(2**53)], "more than the 2^53 values"),
    (["roulette-single", "--test", "no-such-test"], "'no-such-test' is not one of 'frequency'"),
    (["deck", "--test", "frequency"], "none of frequency applies to deck"),
    (["k-of-n:3:20"], "k-of-n:3:20 is a device kind, not one of our devices"),
    (["k-of-n:3:2"], "need 1 <= K <= N"),
    (["roulette-single", "--seed", "abc"], "64 hex digits"),
    (["roulette-single", "--alpha", "1.5"], "alpha"),
])
def test_bad_invocations_exit_2(args, message):
    r = _run(*args)
    assert r.exit_code == 2
    assert message in r.output


def test_bad_files_exit_2_with_location(tmp_path):
    bad = tmp_path / "spins.csv"
    bad.write_text("0\n32\n15\n00\n")
    r = _run("roulette-single", "--input", str(bad))
    assert r.exit_code == 2 and "line 4" in r.output and "'00'" in r.output
    out = tmp_path / "out.bin"
    out.write_bytes(bytes(range(37)) * 300 + bytes([37]))
    r = _run("roulette-single", "--input", str(out))
    assert r.exit_code == 2 and "outcome 11100 (byte offset 11100): value 37 is outside" in r.output
    few = tmp_path / "few.bin"
    few.write_bytes(bytes([0]))
    r = _run("roulette-single", "--input", str(few))
    assert r.exit_code == 2 and "too few samples" in r.output and "got 1" in r.output
    r = _run("roulette-single", "--input", str(few), "--seed", SEED)
    assert r.exit_code == 2 and "--seed applies only" in r.output
    # An engine named beside a capture would be ignored: refused, as the seed is.
    r = _run("roulette-single", "--input", str(few), "--engine", "hmac-drbg-sha256")
    assert r.exit_code == 2 and "--engine applies only when drawing from our own device" in r.output


def test_interrupt_reports_partial_results(monkeypatch):
    def ctrl_c():
        raise KeyboardInterrupt

    interrupt_rngcert_test(monkeypatch, 2, ctrl_c)
    r = _run("roulette-single", "--samples", "3000000", "--seed", SEED)
    assert r.exit_code == 130
    assert "INTERRUPTED: results cover the first 2,097,152 outcomes" in r.output
    assert "verdict: INCOMPLETE (interrupted after 2,097,152 outcomes" in r.output
    assert "verdict: PASS" not in r.output


def test_raw_byte_capture_of_rngcert_stream(tmp_path):
    """`rngcert stream` output tested as the "bytes" device: passes, and its bits get the spectral test;
    a stream with sticky bits fails."""
    from stats.defects import sticky_bits

    stream = CliRunner().invoke(main, ["stream", "--seed", SEED, "--bytes", "340000"])
    assert stream.exit_code == 0
    good = tmp_path / "stream.bin"
    good.write_bytes(stream.stdout_bytes)
    r = _run("bytes", "--input", str(good), "--json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["n"] == 340_000 and "spectral" in {t["name"] for t in report["tests"]}
    bad = tmp_path / "sticky.bin"
    bad.write_bytes(sticky_bits(340_000, seed=6).tobytes())
    r = _run("bytes", "--input", str(bad), "--json")
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report["verdict"] == "fail"
    assert next(t for t in report["tests"] if t["name"] == "spectral")["verdict"] == "fail"


def test_small_shoe_capture_runs_the_valid_tests(tmp_path):
    """200 shoes once exited 2 (some shuffle tests need 260-600); now those are skipped with their need."""
    import rngcore
    from rngcore.devices import device_spec

    spec = device_spec("shoe:8")
    rows = spec.draw(rngcore.Generator(bytes(range(1, 33))), 200)
    path = tmp_path / "shoes.csv"
    path.write_text("\n".join(",".join(spec.labels[i] for i in r) for r in rows) + "\n")
    r = _run("shoe:8", "--input", str(path))
    assert r.exit_code == 0, r.output
    line = next(l for l in r.output.splitlines() if l.startswith("relative-order"))
    assert "SKIPPED" in line and "needs at least 600 shuffles, got 200" in line
    # composition, adjacency, carry-over, first-card serial correlation, both rising-sequence tests
    # and the shuffle-to-shuffle pair carry-over run.
    assert "verdict: PASS (no test rejected at family-wise alpha = 0.01; over the 7 tests that ran, " \
           "4 skipped for want of data)" in r.output
    assert all("PASS" in l for l in r.output.splitlines() if l.startswith("rising-"))
    report = json.loads(_run("shoe:8", "--input", str(path), "--json").stdout)
    assert report["complete"] is True and report["verdict"] == "pass"
    skipped = {t["name"]: t["needed"] for t in report["tests"] if t["verdict"] == "skipped"}
    assert skipped == {"position-card": 260, "cut-card": 260, "relative-order": 600} | skipped
