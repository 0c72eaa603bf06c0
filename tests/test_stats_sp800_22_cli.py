"""``rngcert sp800-22``: captures (binary either bit order, ASCII, stdin), our engine, bad input."""
from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from harness.cli import main
from stats.nist_frequency import monobit_test

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def _run(*args, stdin=None):
    return CliRunner().invoke(main, ["sp800-22", *args], input=stdin)


def test_binary_capture_msb_and_lsb(tmp_path):
    data = bytes([0x0F]) * 50 + bytes([0x01]) * 50  # MSB first: 0000 1111 ..., 0000 0001 ...
    path = tmp_path / "cap.bin"
    path.write_bytes(data)
    msb = json.loads(_run("--input", str(path), "--bits", "800", "--test", "Frequency", "--json").output)
    lsb = json.loads(_run("--input", str(path), "--bits", "800", "--bit-order", "lsb", "--test", "Frequency",
                          "--json").output)
    assert msb["rows"][0]["tested"] == 1 and lsb["rows"][0]["tested"] == 1
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    assert monobit_test(bits).pvalue == monobit_test(bits[::-1]).pvalue  # same counts either order
    assert msb["source"]["description"].startswith("800 bits read from")


def test_ascii_capture_and_stdin(tmp_path):
    text = ("01" * 500 + "\n") * 2
    result = _run("--input", "-", "--format", "ascii", "--bits", "1000", "--test", "Runs", stdin=text)
    assert result.exit_code == 1 and "0/2*" in result.output and result.output.rstrip().endswith("verdict: FAIL")
    bad = tmp_path / "bad.txt"
    bad.write_text("0102")
    result = _run("--input", str(bad), "--format", "ascii", "--bits", "100")
    assert result.exit_code == 2 and "holds only 0 and 1" in result.output


def test_engine_draw_is_replayable():
    args = ("--seed", SEED, "--bits", "1000", "--sequences", "60", "--test", "Frequency", "--json")
    first, second = _run(*args), _run(*args)
    assert first.exit_code in (0, 1) and first.output == second.output
    report = json.loads(first.output)
    assert report["sequences"] == 60 and report["rows"][0]["uniformity"] is not None
    assert report["verdict"] in ("pass", "fail") and report["provenance"]["engine"] == "chacha20"


def test_bad_invocations_exit_2(tmp_path):
    assert _run("--test", "Nope", "--bits", "100").exit_code == 2
    small = tmp_path / "small.bin"
    small.write_bytes(b"\x00" * 10)
    result = _run("--input", str(small), "--sequences", "2", "--bits", "1000")
    assert result.exit_code == 2 and "too few bits" in result.output


def test_workers_give_the_same_report_and_refuse_zero():
    args = ("--seed", SEED, "--sequences", "3", "--bits", "100000", "--test", "Frequency", "--test", "Rank",
            "--test", "Serial", "--json")
    one, two = _run(*args, "--workers", "1"), _run(*args, "--workers", "2")
    assert one.exit_code == two.exit_code in (0, 1)
    assert json.loads(one.output)["rows"] == json.loads(two.output)["rows"]
    bad = _run(*args, "--workers", "0")
    assert bad.exit_code == 2 and "--workers" in bad.output
