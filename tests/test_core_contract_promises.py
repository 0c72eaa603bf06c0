"""Promises of docs/audit_contract.md that no other module tests: the
libsodium mapping, disjoint streams, wiping at garbage collection, the GIL
released during C calls, and the wiping of the block functions' key copies."""
import ctypes
import ctypes.util
import gc
import pathlib
import re
import threading
import time

import pytest

import rngcore
from rngcore import ffi

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = bytes(range(32))


def _libsodium():
    name = ctypes.util.find_library("sodium")
    if name is None:
        pytest.skip("libsodium is not installed (the mapping is checked where it is)")
    sodium = ctypes.CDLL(name)
    assert sodium.sodium_init() >= 0
    return sodium


@pytest.mark.parametrize("stream, block", [(0, 0), (1, 5), (2**64 - 1, 2**32 + 3)])
def test_libsodium_nonce_is_the_stream_and_ic_the_block(stream, block):
    sodium = _libsodium()
    n = 200
    out = ctypes.create_string_buffer(n)
    nonce = stream.to_bytes(8, "little")
    status = sodium.crypto_stream_chacha20_xor_ic(out, bytes(n), ctypes.c_ulonglong(n), nonce,
                                                  ctypes.c_uint64(block), SEED)
    assert status == 0
    g = rngcore.Generator(SEED, stream)
    g.seek(64 * block)
    assert g.random_bytes(n) == out.raw


def test_streams_of_one_seed_never_share_a_block():
    blocks = set()
    streams = list(range(16)) + [2**32, 2**63, 2**64 - 1]
    for stream in streams:
        data = rngcore.Generator(SEED, stream).random_bytes(16 * 1024)
        blocks.update(data[i:i + 64] for i in range(0, len(data), 64))
    assert len(blocks) == len(streams) * 256


def test_key_and_buffer_are_wiped_when_the_generator_is_collected():
    g = rngcore.Generator()
    g.random_bytes(10)
    state = g.engine._state  # keeps the C memory alive past the generator
    assert bytes(ffi.buffer(state.key)) != bytes(32)
    del g
    gc.collect()
    assert bytes(ffi.buffer(state.key)) == bytes(32)
    assert bytes(ffi.buffer(state.buf)) == bytes(len(state.buf))


def test_a_large_request_does_not_hold_the_gil():
    # While one thread is inside a long C call, another keeps running Python.
    # Were the GIL held, the main loop would stall for the whole call.
    g = rngcore.Generator()
    size = 128 << 20
    took = []

    def worker():
        start = time.perf_counter()
        g.random_bytes(size)
        took.append(time.perf_counter() - start)

    thread = threading.Thread(target=worker)
    last, longest = time.perf_counter(), 0.0
    thread.start()
    while thread.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    thread.join()
    assert longest < 0.5 * took[0], (longest, took[0])


def _body(path: str, function: str) -> str:
    text = (ROOT / path).read_text()
    start = re.search(rf"^\w[^\n]*\b{function}\(.*?\n\{{", text, re.M | re.S)
    assert start, f"{function} not found in {path}"
    end = text.index("\n}\n", start.end())
    return text[start.end():end]


@pytest.mark.parametrize("path, function, copies", [
    ("csrc/core/chacha20.c", "rng_chacha20_blocks_portable", ["in", "x"]),
    ("csrc/core/chacha20.c", "blocks_in_groups", ["group"]),
    ("csrc/core/chacha20.c", "production_batch", ["head"]),
    ("csrc/core/chacha20.c", "reseed", ["fresh"]),
    ("csrc/core/chacha20_avx2.c", "rng_chacha20_avx2_groups", ["words", "&st"]),
    ("csrc/core/chacha20_avx512.c", "rng_chacha20_avx512_groups", ["w"]),
    # The SP 800-90A engines: SHA-256, HMAC, HMAC_DRBG; AES, CTR_DRBG; OS seeding.
    ("csrc/core/hmac_drbg.c", "compress_portable_words", ["w"]),
    ("csrc/core/hmac_drbg.c", "compress_portable", ["m"]),
    ("csrc/core/hmac_drbg.c", "rng_sha256", ["&c"]),
    ("csrc/core/hmac_drbg.c", "hmac_set_key", ["pad"]),
    ("csrc/core/hmac_drbg.c", "hmac3", ["&ctx", "inner"]),
    ("csrc/core/hmac_drbg.c", "hmac_chain_portable", ["m", "h"]),
    ("csrc/core/hmac_drbg.c", "rng_hmac_sha256", ["&hk"]),
    ("csrc/core/hmac_drbg.c", "drbg_update", ["&hk", "&ctx", "inner", "v_round"]),
    ("csrc/core/hmac_drbg.c", "rng_hmac_drbg_generate", ["&hk"]),
    ("csrc/core/ctr_drbg.c", "encrypt_blocks_aesni", ["rk"]),
    ("csrc/core/ctr_drbg.c", "ctr_aesni", ["rk"]),
    ("csrc/core/ctr_drbg.c", "ctr_vaes", ["rk"]),
    ("csrc/core/ctr_drbg.c", "aes_encrypt_blocks", ["s"]),
    ("csrc/core/ctr_drbg.c", "ctr_blocks", ["s"]),
    ("csrc/core/ctr_drbg.c", "rng_aes_ctr", ["&k"]),
    ("csrc/core/ctr_drbg.c", "drbg_update", ["temp"]),
    ("csrc/core/ctr_drbg.c", "block_cipher_df", ["&state", "temp", "&key"]),
    ("csrc/core/drbg.c", "reseed_from_os", ["fresh"]),
    # The continuous test's fingerprints are of output about to be handed out; wiped all the same.
    ("csrc/core/hmac_drbg.c", "rng_sha256_32x4", ["m", "h"]),
    ("csrc/core/hmac_drbg.c", "sha256_32x4_shani", ["m"]),
    ("csrc/core/continuous.c", "fingerprints", ["digest"]),
    ("csrc/core/continuous.c", "rng_continuous_check", ["f"]),
])
def test_block_functions_wipe_their_key_copies(path, function, copies):
    # The stack is out of reach of a runtime test; the source is not: every
    # key-derived local array is wiped with rng_memzero before returning.
    body = _body(path, function)
    for copy in copies:
        assert re.search(rf"rng_memzero\({re.escape(copy)}\b", body), f"{function} does not wipe {copy}"
