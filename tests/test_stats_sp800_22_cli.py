"""``rngcert sp800-22`` and its other spelling ``rngcert test bytes --suite sp800-22``: captures (binary either
bit order, ASCII, stdin), our engine, bad input."""
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
    assert result.exit_code == 2 and "holds only 0, 1 and white space" in result.output


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


def _test_bytes(*args, stdin=None):
    return CliRunner().invoke(main, ["test", "bytes", "--suite", "sp800-22", *args], input=stdin)


def test_test_bytes_suite_sp800_22_is_the_same_run(tmp_path):
    """The issue's spelling gives the very report of ``rngcert sp800-22``: a capture either bit order, ASCII
    0/1 text (also on stdin) and our engine's bits."""
    import rngcore

    data = rngcore.Generator(SEED).random_bytes(3 * 2000 // 8)
    binary = tmp_path / "cap.bin"
    binary.write_bytes(data)
    ascii_ = tmp_path / "cap.txt"
    ascii_.write_text("\n".join("".join(map(str, row)) for row in
                                np.unpackbits(np.frombuffer(data, dtype=np.uint8)).reshape(-1, 100)))
    tests = ("--test", "Frequency", "--test", "Runs", "--test", "CumulativeSums", "--bits", "2000", "--json")
    cases = [("--input", str(binary)), ("--input", str(binary), "--bit-order", "lsb"),
             ("--input", str(ascii_), "--format", "ascii"), ("--seed", SEED, "--sequences", "3")]
    for case in cases:
        one, other = _run(*case, *tests), _test_bytes(*case, *tests)
        assert one.exit_code == other.exit_code in (0, 1), (case, other.output)
        assert json.loads(one.output) == json.loads(other.output), case
    msb, lsb, text, drawn = (json.loads(_test_bytes(*case, *tests).output) for case in cases)
    assert msb["rows"] == text["rows"] == drawn["rows"] != lsb["rows"]  # the same bits, MSB first
    assert msb["sequences"] == 3 and msb["source"]["description"] == f"6,000 bits read from {binary} " \
                                                                     "(binary, msb first)"
    piped = _test_bytes("--input", "-", "--format", "ascii", *tests, stdin=ascii_.read_text())
    assert json.loads(piped.output)["rows"] == msb["rows"]
    assert json.loads(piped.output)["source"]["input"] == "stdin"


def test_test_bytes_suite_sp800_22_refuses_bad_input_with_one_located_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0101\n01x1\n")
    npy = tmp_path / "bits.npy"
    np.save(npy, np.zeros(800, dtype=np.uint8))
    short = tmp_path / "short.bin"
    short.write_bytes(b"\x00" * 10)
    cases = [
        (("--input", str(bad), "--format", "ascii", "--bits", "100"),
         f"{bad}: byte offset 7 (line 2, column 3) is 'x'; --format ascii holds only 0, 1 and white space"),
        (("--input", "-", "--format", "ascii", "--bits", "100"), "stdin: byte offset 7 (line 2, column 3)"),
        (("--input", str(npy), "--bits", "100"), f"{npy}: a .npy file"),
        (("--input", str(short), "--bits", "1000"), f"{short}: too few bits: SP 800-22 suite needs at least 1,000"),
        (("--samples", "5"), "--samples is the battery's"),
        (("--scheduler", "local"), "--scheduler is the battery's"),
        (("--format", "labels"), "--format labels is the battery's"),
        (("--test", "frequency"), "unknown SP 800-22 test 'frequency'"),
        (("--input", str(short), "--seed", SEED), "--seed applies only when drawing"),
        (("--input", str(short), "--engine", "hmac-drbg-sha256"), "--engine applies only when drawing"),
        (("--input", str(short), "--engine", "chacha20", "--seed", SEED), "--engine/--seed apply only when"),
    ]
    for args, message in cases:
        result = CliRunner().invoke(main, ["test", "bytes", "--suite", "sp800-22", *args], input=bad.read_text())
        assert result.exit_code == 2 and message in result.output, (args, result.output)
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1, result.output
    wrong = CliRunner().invoke(main, ["test", "roulette-single", "--suite", "sp800-22"])
    assert wrong.exit_code == 2 and "DEVICE must be bytes, not 'roulette-single'" in wrong.output
    for args, message in [(("--bits", "1000"), "--bits applies only with --suite sp800-22"),
                          (("--sequences", "2"), "--sequences applies only with --suite sp800-22"),
                          (("--bit-order", "lsb"), "--bit-order applies only with --suite sp800-22"),
                          (("--format", "ascii"), "--format ascii applies only with --suite sp800-22"),
                          (("--test", "Frequency"), "--test Frequency is an SP 800-22 test: add --suite sp800-22")]:
        result = CliRunner().invoke(main, ["test", "bytes", "--seed", SEED, *args])
        assert result.exit_code == 2 and message in result.output, (args, result.output)


def test_test_bytes_suite_sp800_22_workers_default_as_sp800_22(monkeypatch):
    """--workers left unset means one per usable CPU for the suite (not the battery's 1); given, it is kept."""
    import harness.commands.sp800_22 as command
    import stats.sp800_22_suite as suite

    seen = []
    real = suite.run_suite
    monkeypatch.setattr(command, "default_workers", lambda: 7)
    monkeypatch.setattr(suite, "run_suite", lambda *a, workers, **k: seen.append(workers) or real(*a, **k))
    args = ("--seed", SEED, "--bits", "1000", "--test", "Frequency", "--json")
    assert _test_bytes(*args).exit_code in (0, 1) and _test_bytes(*args, "--workers", "1").exit_code in (0, 1)
    assert seen == [7, 1]


def test_the_command_keeps_freed_memory_in_its_own_process(monkeypatch):
    """With --workers 1 the command's own process runs every test: it keeps freed memory for reuse, as the
    pool's workers do (the DFT's temporaries are not page-faulted afresh per sequence)."""
    import stats._sp800_22_pool as pool

    calls = []
    monkeypatch.setattr(pool, "keep_freed_memory", lambda: calls.append(True) or True)
    result = _test_bytes("--seed", SEED, "--bits", "1000", "--test", "Frequency", "--workers", "1")
    assert result.exit_code in (0, 1) and calls == [True]


def test_an_ascii_capture_is_read_in_chunks_with_lines_counted_across_them(tmp_path, monkeypatch):
    """A large ASCII capture is never held whole: chunk by chunk, a bad byte past the first chunk is still named
    by its offset, line and column in the file, and the bits are those of one read."""
    import harness.commands.sp800_22 as command

    rows = ["0110100110" * 10] * 30  # 30 lines of 100 bits
    good = tmp_path / "good.txt"
    good.write_text("\n".join(rows) + "\n")
    whole = command.read_bits(str(good), "ascii", "msb", None)
    monkeypatch.setattr(command, "ASCII_CHUNK", 7)
    assert np.array_equal(command.read_bits(str(good), "ascii", "msb", None), whole) and whole.size == 3000
    assert np.array_equal(command.read_bits(str(good), "ascii", "msb", 1234), whole[:1234])
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(rows[:12]) + "\n0101 01\t1z0\n")
    at = 12 * 101 + 9
    result = _run("--input", str(bad), "--format", "ascii", "--bits", "100")
    assert result.exit_code == 2 and f"byte offset {at:,} (line 13, column 10) is 'z'" in result.output
