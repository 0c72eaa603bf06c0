"""``rngcert stream`` and ``rngcert selftest`` through CliRunner (and a real
pipe for the closed-pipe behaviour)."""
import dataclasses
import json
import os
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import rngcore
from rngcore.testing import test_lib
from harness import selftest
from harness.cli import main
from harness.commands.core import CHUNK
from rngcore.engines import _chacha20_kat  # the ChaCha20 engine's known answers, patched below

SEED_HEX = bytes(range(0x40, 0x60)).hex()  # a non-trivial seed: trivial ones warn on stderr
RUN_CLI = [sys.executable, "-c", "from harness.cli import main; main()"]


def _openssl_keystream(seed: bytes, stream: int, nbytes: int) -> bytes:
    nonce = (0).to_bytes(8, "little") + stream.to_bytes(8, "little")
    return Cipher(algorithms.ChaCha20(seed, nonce), mode=None).encryptor().update(bytes(nbytes))


def _invoke(*args):
    return CliRunner().invoke(main, list(args))


# --- stream --------------------------------------------------------------------

@pytest.mark.parametrize("nbytes", [0, 1, 1000, CHUNK, CHUNK + 13])
def test_stream_replay_is_the_chacha20_keystream(nbytes):
    result = _invoke("stream", "--seed", SEED_HEX, "--stream", "77", "--bytes", str(nbytes))
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == _openssl_keystream(bytes.fromhex(SEED_HEX), 77, nbytes)


def test_stream_default_stream_id_is_zero():
    result = _invoke("stream", "--seed", SEED_HEX, "--bytes", "256")
    assert result.stdout_bytes == rngcore.Generator(SEED_HEX, 0).random_bytes(256)


def test_stream_production_mode_differs_between_runs():
    a = _invoke("stream", "--bytes", "4096")
    b = _invoke("stream", "--bytes", "4096")
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert len(a.stdout_bytes) == len(b.stdout_bytes) == 4096
    assert a.stdout_bytes != b.stdout_bytes


def test_stream_fails_closed_when_the_os_refuses_entropy():
    test_lib.rngtest_entropy_fail(1)
    try:
        result = _invoke("stream", "--bytes", "100")
    finally:
        test_lib.rngtest_entropy_fail(0)
    assert result.exit_code == 1
    assert "could not supply entropy" in result.output and "Traceback" not in result.output
    assert result.stdout_bytes == b""


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seed", "00" * 31, "--bytes", "1"], "64 hex digits"),
        (["--seed", "00" * 32 + "0", "--bytes", "1"], "64 hex digits"),
        (["--seed", "zz" * 32, "--bytes", "1"], "64 hex digits"),
        (["--seed", SEED_HEX, "--bytes", "-1"], "must be >= 0"),
        (["--seed", SEED_HEX, "--bytes", "ten"], "'ten' is not a valid integer"),
        (["--seed", SEED_HEX, "--bytes", "5", "--forever"], "not both"),
        (["--seed", SEED_HEX], "--bytes N"),
        (["--stream", "3", "--bytes", "5"], "needs --seed"),
        (["--seed", SEED_HEX, "--stream", "-1", "--bytes", "5"], "--stream"),
        (["--seed", SEED_HEX, "--stream", str(2**64), "--bytes", "5"], "--stream"),
    ],
)
def test_stream_bad_input_is_one_clear_error_and_exit_2(args, message):
    result = _invoke("stream", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and result.stdout_bytes == b""
    assert isinstance(result.exception, SystemExit)
    [error_line] = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert message in error_line


@pytest.mark.parametrize("seed_args", [["--seed", SEED_HEX], []], ids=["replay", "production"])
def test_stream_forever_into_a_closed_pipe_exits_0_quietly(seed_args):
    proc = subprocess.Popen(RUN_CLI + ["stream", *seed_args, "--forever"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = proc.stdout.read(100)
    proc.stdout.close()  # what `| head -c 100` does
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
    assert len(head) == 100
    if seed_args:
        assert head == _openssl_keystream(bytes.fromhex(SEED_HEX), 0, 100)


def test_stream_through_a_shell_pipe_to_head():
    command = " ".join(RUN_CLI[:1] + ["-c", "'from harness.cli import main; main()'"])
    out = subprocess.run(
        f"{command} stream --seed {SEED_HEX} --bytes 10000000 | head -c 100; echo \" rc=${{PIPESTATUS[0]}}\"",
        shell=True, executable="/bin/bash", capture_output=True, timeout=60,
    )
    assert out.stdout.endswith(b" rc=0\n") and out.stderr == b""
    assert out.stdout[:100] == _openssl_keystream(bytes.fromhex(SEED_HEX), 0, 100)


def test_stream_refuses_a_terminal():
    leader, follower = os.openpty()
    try:
        proc = subprocess.run(RUN_CLI + ["stream", "--bytes", "10"], stdout=follower,
                              stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 2
    assert b"terminal" in proc.stderr and b"Traceback" not in proc.stderr


# --- selftest ----------------------------------------------------------------------

def test_packaged_vectors_are_the_rfc_vectors_checked_independently():
    vectors = selftest.load_vectors()
    assert len(vectors) == 10 and [v.count for v in vectors] == list(range(10))
    for v in vectors:
        iv = v.counter.to_bytes(4, "little") + v.nonce  # OpenSSL: 32-bit counter || 96-bit nonce
        encrypted = Cipher(algorithms.ChaCha20(v.key, iv), mode=None).encryptor().update(v.plaintext)
        assert encrypted == v.ciphertext, v.source


def test_packaged_vectors_are_the_test_vectors_byte_for_byte():
    from importlib import resources

    packaged = (resources.files("rngcore") / "data" / selftest.VECTORS_FILE).read_bytes()
    tests_copy = pathlib.Path(__file__).parent / "vectors" / selftest.VECTORS_FILE
    assert packaged == tests_copy.read_bytes()


def test_packaged_vectors_keep_their_provenance_header():
    from importlib import resources

    text = (resources.files("rngcore") / "data" / selftest.VECTORS_FILE).read_text()
    assert text.startswith("# ChaCha20 (RFC 8439")
    assert "Extracted from the text of RFC 8439" in text


def test_stability_pin_is_openssls_keystream():
    digest = __import__("hashlib").sha256(
        _openssl_keystream(selftest.PIN_SEED, selftest.PIN_STREAM, selftest.PIN_BYTES)).hexdigest()
    assert digest == selftest.PIN_SHA256


def test_parse_vectors_names_the_broken_record():
    good = "COUNT = 0\nKEY = " + "00" * 32 + "\nNONCE = " + "00" * 12 + "\nCOUNTER = 0\nPLAINTEXT = 00\nCIPHERTEXT = 76\n"
    assert len(selftest.parse_vectors(good, "x.txt")) == 1
    with pytest.raises(ValueError, match=r"x.txt: record 2 lacks CIPHERTEXT"):
        selftest.parse_vectors(good + "\n" + good.replace("CIPHERTEXT = 76\n", ""), "x.txt")
    with pytest.raises(ValueError, match=r"x.txt: record 1 \(COUNT = 0\)"):
        selftest.parse_vectors(good.replace("PLAINTEXT = 00", "PLAINTEXT = 0g"), "x.txt")
    with pytest.raises(ValueError, match="bad field lengths"):
        selftest.parse_vectors(good.replace("KEY = 00", "KEY = "), "x.txt")


def test_every_code_path_is_checked():
    names = {c.name for c in selftest.check_vectors(selftest.load_vectors())}
    expected = {f"rfc8439-{path}" for path in selftest.code_paths()} | {"rfc8439-replay-generator"}
    assert names == expected and {"rfc8439-dispatch", "rfc8439-portable"} <= names
    assert ("rfc8439-avx2" in names) == bool(rngcore.lib.rng_cpu_has_avx2())
    assert ("rfc8439-avx512" in names) == bool(rngcore.lib.rng_cpu_has_avx512())


def test_selftest_with_the_portable_path_forced():
    env = dict(os.environ, RNGCERT_FORCE_PORTABLE="1")
    proc = subprocess.run(RUN_CLI + ["selftest", "--json"], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["verdict"] == "pass" and report["build"]["keystream_path"] == "portable"


def test_stability_pin_names_a_path_that_drifts(monkeypatch):
    def zeros(key, counter, stream, out, nblocks):
        return None  # leaves the output all zero: a broken path

    paths = dict(_chacha20_kat.code_paths(), broken=zeros)
    monkeypatch.setattr(_chacha20_kat, "code_paths", lambda: paths)
    check = _chacha20_kat.check_stability_pin()
    assert not check.passed
    assert "broken gives " + __import__("hashlib").sha256(bytes(selftest.PIN_BYTES)).hexdigest() in check.detail
    assert "generator gives" not in check.detail


def test_selftest_reports_a_failed_power_on_test():
    test_lib.rngtest_selftest_fail(1)
    try:
        result = _invoke("selftest")
    finally:
        test_lib.rngtest_selftest_fail(0)
        assert rngcore.lib.rng_chacha_selftest_run() == rngcore.lib.RNG_OK
    assert result.exit_code == 1
    assert "FAIL  power-on-selftest" in result.output and "refuses output" in result.output
    # with the self-test failed, no generator produced the pinned stream
    assert "FAIL  stability-pin" in result.output and "SelfTestError" in result.output
    assert rngcore.Generator(bytes(32)).random_bytes(4)  # usable again once it passes


def test_repeated_block_detection():
    import numpy as np

    chunk = bytearray(np.random.default_rng(1).bytes(64 * 16))
    assert selftest.repeated_block(None, bytes(chunk)) is None
    chunk[64 * 5:64 * 6] = chunk[64 * 4:64 * 5]
    assert selftest.repeated_block(None, bytes(chunk)) == 5
    fresh = np.random.default_rng(2).bytes(64 * 4)
    assert selftest.repeated_block(fresh[:64], fresh) == 0  # repeat across a chunk boundary
    assert selftest.repeated_block(fresh[64:128], fresh) is None


class _StuckGenerator:
    """Repeats one 64-byte block: what a stuck engine looks like."""

    def fill(self, buf):
        buf[:] = (bytes(range(64)) * (len(buf) // 64 + 1))[:len(buf)]


def test_continuous_check_fails_a_stuck_generator():
    check = selftest.check_continuous(1, generator=_StuckGenerator())
    assert not check.passed and "byte offset 64" in check.detail


def test_a_64_byte_repeat_is_caught_in_c_and_by_the_selftest():
    """A repeated 64-byte unit (a ChaCha20 keystream block whose counter is stuck: 32-byte blocks
    A B A B, no block equal to its neighbour) is stopped in service by the C test, which compares
    each 32-byte block with the two before it, and is also found by the self-test's own check
    (harness.selftest.check_continuous), which reads what the public API hands out."""
    from rngcore.testing import output_tamper

    with output_tamper("repeat-inside", block=64) as tampered:
        with pytest.raises(rngcore.ContinuousTestError):
            rngcore.Generator().random_bytes(1 << 12)
        assert tampered() >= 1
    with output_tamper("repeat-inside", block=64):
        check = selftest.check_continuous(1, generator=rngcore.Generator())
    assert not check.passed


def test_the_continuous_line_says_both_comparisons():
    """The line names what is compared: the engine's 32-byte blocks with the two before each, and the
    self-test's 64-byte blocks with the one before (it once named only the 64-byte comparison)."""
    detail = selftest.check_continuous(1).detail
    assert "no 32-byte block equal to either of the two before it (the engine's test)" in detail
    assert "no 64-byte block equal to the one before it" in detail


def test_selftest_passes_and_names_the_build():
    result = _invoke("selftest")
    assert result.exit_code == 0, result.output
    assert rngcore.BUILD_INFO.sha256 in result.output and rngcore.__version__ in result.output
    assert "FAIL" not in result.output and result.output.rstrip().endswith("verdict: PASS (every check passes)")


def test_selftest_json():
    result = _invoke("selftest", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "pass" and report["complete"] is True and report["interrupted"] is False
    assert report["build"]["core_sha256"] == rngcore.BUILD_INFO.sha256
    names = [c["name"] for c in report["checks"]]
    assert "rfc8439-dispatch" in names and "stability-pin" in names and "continuous" in names
    assert all(c["verdict"] == "pass" for c in report["checks"])


def test_selftest_fails_with_exit_1_on_a_wrong_vector(monkeypatch):
    vectors = selftest.load_vectors()
    broken = dataclasses.replace(vectors[3], ciphertext=bytes([vectors[3].ciphertext[0] ^ 1]) + vectors[3].ciphertext[1:])
    monkeypatch.setattr(_chacha20_kat, "load_vectors", lambda: vectors[:3] + [broken] + vectors[4:])
    result = _invoke("selftest")
    assert result.exit_code == 1
    assert "FAIL  rfc8439-dispatch" in result.output and "failing COUNT [3]" in result.output
    assert "FAIL  rfc8439-portable" in result.output
    assert "embedded vectors differ from the RFC file: COUNT 3 ciphertext" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("verdict: FAIL")


def test_selftest_fails_with_exit_1_on_a_changed_stream(monkeypatch):
    monkeypatch.setattr(_chacha20_kat, "PIN_SHA256", "0" * 64)
    result = _invoke("selftest", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["verdict"] == "fail"
    assert [c["name"] for c in report["checks"] if c["verdict"] == "fail"] == ["stability-pin"]


def test_selftest_reports_a_missing_vector_file(monkeypatch):
    def missing():
        raise FileNotFoundError("RFC 8439 vectors missing from the package: nowhere")

    monkeypatch.setattr(_chacha20_kat, "load_vectors", missing)
    result = _invoke("selftest")
    assert result.exit_code == 1 and "vectors missing" in result.output and "Traceback" not in result.output
