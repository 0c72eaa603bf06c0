"""Known answers: the ten RFC 8439 vectors on every keystream path, the
power-on self-test (and that a failing one refuses output), the stability pin."""
import hashlib
import os
import subprocess
import sys

import pytest

import rngcore
from rngcore.testing import test_lib
from rngcore import ffi, lib

from harness.selftest import load_vectors
from core_support import VECTOR_FILE, keystream_path, keystream_paths, reference_keystream

VECTORS = load_vectors(VECTOR_FILE)
BLOCK_FUNCTIONS = {
    "portable": lib.rng_chacha20_blocks_portable,
    "avx2": lib.rng_chacha20_blocks_avx2,
    "avx512": lib.rng_chacha20_blocks_avx512,
    "dispatch": lib.rng_chacha20_blocks,
}
# The block functions this CPU can run (every vector path also answers
# RNG_E_ARGUMENT where it cannot: test_vector_paths_are_reported_and_selectable).
RUNNABLE = [p for p in BLOCK_FUNCTIONS if p == "dispatch" or p in keystream_paths()]


def test_vector_file_has_all_ten_cases():
    assert [v.count for v in VECTORS] == list(range(10))


def test_loader_raises_when_file_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match="vectors missing"):
        load_vectors(tmp_path / "absent.txt")


def _key_words(key: bytes):
    return ffi.new("uint32_t[8]", [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)])


def _keystream(function, key, counter, stream, nbytes):
    nblocks = -(-nbytes // 64)
    out = ffi.new("uint8_t[]", 64 * nblocks)
    function(_key_words(key), counter, stream, out, nblocks)
    return bytes(ffi.buffer(out))[:nbytes]


def _xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


@pytest.mark.parametrize("path", RUNNABLE)
def test_rfc8439_vectors_on_every_path(path):
    ran = 0
    for v in VECTORS:
        # RFC layout (32-bit counter, 96-bit nonce) mapped onto ours: the
        # state words are the same, engine_counter = counter | nonce_word0 << 32.
        ks = _keystream(BLOCK_FUNCTIONS[path], v.key, v.engine_counter, v.engine_stream, len(v.plaintext))
        assert _xor(v.plaintext, ks) == v.ciphertext, f"COUNT {v.count} on {path}"
        ran += 1
    assert ran == 10


@pytest.mark.parametrize("path", keystream_paths())
def test_rfc8439_vectors_through_the_replay_generator(path):
    ran = 0
    with keystream_path(path):
        for v in VECTORS:
            if v.engine_counter >> 32:
                continue  # nonce word 0 is not zero: not on a stream from counter 0
            generator = rngcore.Generator(v.key, v.engine_stream)
            generator.seek(64 * v.engine_counter)
            assert _xor(v.plaintext, generator.random_bytes(len(v.plaintext))) == v.ciphertext
            ran += 1
    assert ran == 9  # COUNT 0 has nonce word 0 = 9


@pytest.mark.parametrize("path, has, impl", [
    ("avx2", lib.rng_cpu_has_avx2, lib.RNG_CHACHA_IMPL_AVX2),
    ("avx512", lib.rng_cpu_has_avx512, lib.RNG_CHACHA_IMPL_AVX512),
])
def test_vector_paths_are_reported_and_selectable(path, has, impl):
    if not has():
        assert lib.rng_chacha_set_impl(impl) == lib.RNG_E_ARGUMENT
        assert BLOCK_FUNCTIONS[path](_key_words(bytes(32)), 0, 0, ffi.new("uint8_t[64]"), 1) == lib.RNG_E_ARGUMENT
        return
    with keystream_path(path):
        assert ffi.string(lib.rng_chacha20_impl_name()) == path.encode()
        assert lib.rng_chacha_uses_avx2() == 1
    with keystream_path("portable"):
        assert ffi.string(lib.rng_chacha20_impl_name()) == b"portable"
        assert lib.rng_chacha_uses_avx2() == 0
    assert lib.rng_chacha_set_impl(7) == lib.RNG_E_ARGUMENT


@pytest.mark.parametrize("counter", [0, 5, 2**32 - 13, 2**40 + 3])
def test_paths_agree_with_openssl_across_word_carries(counter):
    # 37 blocks: 4 whole AVX2 groups (2 AVX-512 groups) plus a tail, crossing 2^32 for one case.
    key = bytes(range(100, 132))
    expected = reference_keystream(key, 0xDEADBEEF, 64 * 37, counter)
    for path in keystream_paths():
        assert _keystream(BLOCK_FUNCTIONS[path], key, counter, 0xDEADBEEF, 64 * 37) == expected, path


@pytest.mark.parametrize("path", keystream_paths())
def test_dispatch_gives_the_keystream_for_every_block_count(path):
    # The dispatcher splits a request into groups (AVX2: 8 blocks, AVX-512:
    # 16) and a tail (of 2+ or 4+ blocks from one more group, cut short).
    key = bytes(range(7, 39))
    expected = reference_keystream(key, 3, 64 * 40, 2**32 - 20)
    with keystream_path(path):
        for nblocks in range(1, 41):
            got = _keystream(lib.rng_chacha20_blocks, key, 2**32 - 20, 3, 64 * nblocks)
            assert got == expected[:64 * nblocks], (path, nblocks)


def test_counter_wraps_modulo_2_64_on_every_path():
    # Blocks 2^64 - 2, 2^64 - 1, 0, 1: the counter wraps without touching the stream.
    key = bytes(range(32))
    wrapped = _keystream(lib.rng_chacha20_blocks_portable, key, 2**64 - 2, 9, 256)
    assert wrapped[128:] == reference_keystream(key, 9, 128, 0)
    assert wrapped[:128] == reference_keystream(key, 9, 128, 2**64 - 2)[:128]
    for path in keystream_paths()[1:]:
        assert _keystream(BLOCK_FUNCTIONS[path], key, 2**64 - 2, 9, 256) == wrapped, path
        # and across a whole group: 2^64 - 5 .. 2^64 + 11 in one 16-block group
        many = _keystream(BLOCK_FUNCTIONS[path], key, 2**64 - 5, 9, 64 * 16)
        assert many == reference_keystream(key, 9, 64 * 5, 2**64 - 5) + reference_keystream(key, 9, 64 * 11, 0), path


def test_embedded_selftest_table_equals_vector_file():
    assert lib.rng_chacha_kat_count() == len(VECTORS) == 10
    for i, v in enumerate(VECTORS):
        field = lambda f: ffi.string(lib.rng_chacha_kat_field(i, f)).decode()  # noqa: E731
        assert field(lib.RNG_KAT_KEY) == v.key.hex()
        assert field(lib.RNG_KAT_NONCE) == v.nonce.hex()
        assert field(lib.RNG_KAT_PLAINTEXT) == v.plaintext.hex()
        assert field(lib.RNG_KAT_CIPHERTEXT) == v.ciphertext.hex()
        assert lib.rng_chacha_kat_counter(i) == v.counter
    assert lib.rng_chacha_kat_field(10, lib.RNG_KAT_KEY) == ffi.NULL


def test_power_on_selftest_passes():
    assert lib.rng_chacha_selftest() == lib.RNG_OK
    assert lib.rng_chacha_selftest_run() == lib.RNG_OK
    assert lib.rng_chacha_selftest_passed() == 1


def test_failed_selftest_refuses_all_output():
    survivor = rngcore.Generator(bytes(32))
    production = rngcore.Generator()
    test_lib.rngtest_selftest_fail(1)
    try:
        assert lib.rng_chacha_selftest_run() == lib.RNG_E_SELFTEST
        with pytest.raises(rngcore.SelfTestError, match="self-test"):
            rngcore.Generator(bytes(32))
        with pytest.raises(rngcore.SelfTestError):
            rngcore.Generator()
        # Generators made before the failure refuse too, on every draw path.
        with pytest.raises(rngcore.SelfTestError):
            survivor.random_bytes(10)
        with pytest.raises(rngcore.SelfTestError):
            production.integers(0, 37)
    finally:
        test_lib.rngtest_selftest_fail(0)
        assert lib.rng_chacha_selftest_run() == lib.RNG_OK
    # The refusal is latched: a generator that saw the failure stays failed.
    with pytest.raises(rngcore.SelfTestError):
        survivor.random_bytes(10)
    assert len(rngcore.Generator(bytes(32)).random_bytes(10)) == 10


# Stability pin: SHA-256 of the first MiB of the replay stream for seed
# 00 01 .. 1f, stream 0x0123456789abcdef.  Obtained independently of rngcore:
#   Cipher(algorithms.ChaCha20(bytes(range(32)), (0).to_bytes(8, "little")
#          + (0x0123456789ABCDEF).to_bytes(8, "little")), None)
#       .encryptor().update(bytes(1 << 20))   -> hashlib.sha256(...).hexdigest()
# with cryptography 48 (OpenSSL).  (harness/selftest.py pins the same value.)
PIN_SHA256 = "da4b17cf7b5f8d93b95e4443a2ddd033ad21775d498bfd89e9abeb51532faa73"


@pytest.mark.parametrize("path", keystream_paths())
def test_stability_pin(path):
    with keystream_path(path):
        output = rngcore.Generator(bytes(range(32)), 0x0123456789ABCDEF).random_bytes(1 << 20)
    assert hashlib.sha256(output).hexdigest() == PIN_SHA256


def test_environment_variable_forces_the_portable_path():
    script = ("import hashlib, rngcore; from rngcore import ffi, lib; "
              "print(ffi.string(lib.rng_chacha20_impl_name()).decode(), hashlib.sha256("
              "rngcore.Generator(bytes(range(32)), 0x0123456789ABCDEF).random_bytes(1 << 20)).hexdigest())")
    # Unforced, the fastest path this CPU has (AVX-512, then AVX2).
    for value, expected in [("1", "portable"), ("0", keystream_paths()[-1])]:
        env = {**os.environ, "RNGCERT_FORCE_PORTABLE": value}
        result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert result.stdout.split() == [expected, PIN_SHA256]
