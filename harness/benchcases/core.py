"""Core bench cases: bulk bytes, bounded integers, floats (issue 2 targets).

Every rngcert case has a same-run baseline of the same work: OpenSSL's
ChaCha20 through ``cryptography`` (keystream = encrypting zeros),
``os.urandom``, numpy ``Generator(PCG64)``, ``secrets`` and
``random.SystemRandom``.  ``cryptography`` is a test/bench-only dependency:
without it the OpenSSL baseline is skipped with a note.
"""
from __future__ import annotations

import hashlib
import os
import random
import secrets

import numpy as np

from harness.benchcases._base import BenchCase, SkipCase
from harness.selftest import PIN_SEED, PIN_SHA256, PIN_STREAM

MIB = 1 << 20
INTEGERS_SIZE = 10**7
FLOATS_SIZE = 10**6
SCALAR_CALLS = 1000
ROULETTE = 37


def _replay_generator():
    import rngcore

    return rngcore.Generator(PIN_SEED, PIN_STREAM)


def _production_generator():
    import rngcore

    return rngcore.Generator()


def _openssl_keystream_encryptor(seed: bytes = PIN_SEED, stream: int = PIN_STREAM):
    """OpenSSL ChaCha20 whose keystream is rngcert's replay stream.

    OpenSSL's 16-byte IV is state words 12-15: the block counter then the
    nonce, so IV = counter 0 (8 bytes) || stream id (8 bytes), little-endian.
    """
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    except ImportError:
        raise SkipCase("the `cryptography` package is not installed (OpenSSL baseline)") from None
    nonce = (0).to_bytes(8, "little") + stream.to_bytes(8, "little")
    return Cipher(algorithms.ChaCha20(seed, nonce), mode=None).encryptor()


def _bytes_check(result) -> None:
    assert len(result) == MIB, f"expected {MIB} bytes, got {len(result)}"
    # 1 MiB of uniform bytes holds all 256 values (P(miss) < 256 * e^-4096).
    assert np.unique(np.frombuffer(bytes(result), np.uint8)).size == 256


def _replay_bytes_check(result) -> None:
    """The replay case returns the pinned first MiB of the selftest stream."""
    digest = hashlib.sha256(bytes(result)).hexdigest()
    assert digest == PIN_SHA256, f"first MiB of the replay stream has SHA-256 {digest}, pinned {PIN_SHA256}"


# --- bulk bytes ------------------------------------------------------------

def _setup_rngcert_bytes():
    g = _production_generator()
    return lambda: g.random_bytes(MIB)


def _setup_rngcert_replay_bytes():
    # A fresh replay generator per call (a few microseconds against ~1 ms of
    # work), so every call returns the pinned first MiB and can be checked.
    return lambda: _replay_generator().random_bytes(MIB)


def _setup_rngcert_fill():
    g = _production_generator()
    buf = bytearray(MIB)

    def fill():
        g.fill(buf)
        return buf

    return fill


def _setup_openssl_bytes():
    encryptor = _openssl_keystream_encryptor()
    zeros = bytes(MIB)
    return lambda: encryptor.update(zeros)


def _setup_openssl_fill():
    encryptor = _openssl_keystream_encryptor()
    zeros = bytes(MIB)
    buf = bytearray(MIB)

    def fill():
        encryptor.update_into(zeros, buf)
        return buf

    return fill


def _setup_urandom():
    return lambda: os.urandom(MIB)


def _setup_pcg64_bytes():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.bytes(MIB)


def _setup_token_bytes():
    return lambda: secrets.token_bytes(MIB)


# --- the keystream of each code path (no engine, no buffer, no continuous test) ---

def _setup_keystream_path(path: str):
    def setup():
        from rngcore import ffi, lib
        from rngcore.testing import available_keystream_paths

        if path not in available_keystream_paths():
            raise SkipCase(f"this CPU or build has no {path} keystream path")
        function = getattr(lib, f"rng_chacha20_blocks_{path}")
        key = ffi.new("uint32_t[8]", [int.from_bytes(PIN_SEED[4 * i:4 * i + 4], "little") for i in range(8)])
        out = bytearray(MIB)
        target = ffi.from_buffer(out)

        def run():
            function(key, 0, PIN_STREAM, target, MIB // 64)
            return out

        return run

    return setup


KEYSTREAM_PATHS = ("portable", "avx2", "avx512")


# --- bounded integers --------------------------------------------------------

def _integers_check(result) -> None:
    assert result.shape == (INTEGERS_SIZE,) and result.dtype == np.int64, (result.shape, result.dtype)
    counts = np.bincount(result, minlength=ROULETTE)
    assert counts.size == ROULETTE and result.min() >= 0, "values outside [0, 37)"
    # Each count is Binomial(10^7, 1/37): sd ~ 513, so 7 sd (p < 1e-11) is a
    # bound no correct generator ever crosses, and any real bias would.
    expected = INTEGERS_SIZE / ROULETTE
    assert np.abs(counts - expected).max() < 7 * np.sqrt(expected), counts


def _setup_rngcert_integers():
    g = _production_generator()
    return lambda: g.integers(0, ROULETTE, size=INTEGERS_SIZE)


def _setup_pcg64_integers():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.integers(0, ROULETTE, size=INTEGERS_SIZE)


def _scalar_check(result) -> None:
    assert len(result) == SCALAR_CALLS
    assert all(type(v) is int or isinstance(v, np.integer) for v in result)
    assert min(result) >= 0 and max(result) < ROULETTE, (min(result), max(result))


def _setup_rngcert_scalar():
    integers = _production_generator().integers
    return lambda: [integers(0, ROULETTE) for _ in range(SCALAR_CALLS)]


def _setup_randbelow():
    randbelow = secrets.randbelow
    return lambda: [randbelow(ROULETTE) for _ in range(SCALAR_CALLS)]


def _setup_systemrandom():
    randrange = random.SystemRandom().randrange
    return lambda: [randrange(ROULETTE) for _ in range(SCALAR_CALLS)]


def _setup_pcg64_scalar():
    integers = np.random.Generator(np.random.PCG64()).integers
    return lambda: [integers(0, ROULETTE) for _ in range(SCALAR_CALLS)]


# --- floats ------------------------------------------------------------------

def _floats_check(result) -> None:
    assert result.shape == (FLOATS_SIZE,) and result.dtype == np.float64
    assert result.min() >= 0.0 and result.max() < 1.0
    # Mean of 10^6 U[0,1): sd = 1/sqrt(12e6) ~ 2.9e-4; 7 sd is p < 1e-11.
    assert abs(result.mean() - 0.5) < 7 * (12 * FLOATS_SIZE) ** -0.5


def _setup_rngcert_random():
    g = _production_generator()
    return lambda: g.random(FLOATS_SIZE)


def _setup_pcg64_random():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.random(FLOATS_SIZE)


# --- numpy's distributions on our bits (numpy interop; no target) -------------

def _normals_check(result) -> None:
    assert result.shape == (FLOATS_SIZE,) and result.dtype == np.float64
    # mean of 10^6 N(0, 1): sd 1e-3, 7 sd is p < 1e-11; sd estimate within 1%
    assert abs(result.mean()) < 7e-3 and abs(result.std() - 1.0) < 0.01


def _setup_rngcert_numpy_normal():
    from rngcore.numpy_interop import numpy_generator

    rng = numpy_generator()
    return lambda: rng.standard_normal(FLOATS_SIZE)


def _setup_pcg64_normal():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.standard_normal(FLOATS_SIZE)


BYTES_TARGET = ">= 0.9x openssl-chacha20; >= 10x os-urandom"

CASES = [
    BenchCase("bytes-1MiB", "rngcert", _setup_rngcert_bytes, MIB, "B",
              target=BYTES_TARGET, check=_bytes_check),
    BenchCase("bytes-1MiB", "rngcert-replay", _setup_rngcert_replay_bytes, MIB, "B",
              target=BYTES_TARGET, check=_replay_bytes_check),
    BenchCase("bytes-1MiB", "openssl-chacha20", _setup_openssl_bytes, MIB, "B",
              baseline=True, check=_bytes_check),
    BenchCase("bytes-1MiB", "os-urandom", _setup_urandom, MIB, "B", baseline=True, check=_bytes_check),
    BenchCase("bytes-1MiB", "secrets-token-bytes", _setup_token_bytes, MIB, "B",
              baseline=True, check=_bytes_check),
    BenchCase("bytes-1MiB", "numpy-pcg64", _setup_pcg64_bytes, MIB, "B", baseline=True, check=_bytes_check),
    BenchCase("fill-1MiB", "rngcert", _setup_rngcert_fill, MIB, "B",
              target=">= 0.9x openssl-chacha20", check=_bytes_check),
    BenchCase("fill-1MiB", "openssl-chacha20", _setup_openssl_fill, MIB, "B",
              baseline=True, check=_bytes_check),
    # The block function of each code path alone, from counter 0 every call (the pinned first MiB),
    # against OpenSSL's keystream into a reused buffer: which path reaches OpenSSL's speed here.
    *[BenchCase("keystream-1MiB", f"rngcert-{path}", _setup_keystream_path(path), MIB, "B",
                check=_replay_bytes_check) for path in KEYSTREAM_PATHS],
    BenchCase("keystream-1MiB", "openssl-chacha20", _setup_openssl_fill, MIB, "B",
              baseline=True, check=_bytes_check),
    BenchCase("integers-37", "rngcert", _setup_rngcert_integers, INTEGERS_SIZE, "values",
              target=">= 1.0x numpy-pcg64", check=_integers_check),
    BenchCase("integers-37", "numpy-pcg64", _setup_pcg64_integers, INTEGERS_SIZE, "values",
              baseline=True, check=_integers_check),
    BenchCase("integers-37-scalar", "rngcert", _setup_rngcert_scalar, SCALAR_CALLS, "values",
              target=">= 2x secrets-randbelow", check=_scalar_check),
    BenchCase("integers-37-scalar", "secrets-randbelow", _setup_randbelow, SCALAR_CALLS, "values",
              baseline=True, check=_scalar_check),
    BenchCase("integers-37-scalar", "systemrandom-randrange", _setup_systemrandom, SCALAR_CALLS,
              "values", baseline=True, check=_scalar_check),
    BenchCase("integers-37-scalar", "numpy-pcg64", _setup_pcg64_scalar, SCALAR_CALLS, "values",
              baseline=True, check=_scalar_check),
    BenchCase("random-1e6", "rngcert", _setup_rngcert_random, FLOATS_SIZE, "values",
              check=_floats_check),
    BenchCase("random-1e6", "numpy-pcg64", _setup_pcg64_random, FLOATS_SIZE, "values",
              baseline=True, check=_floats_check),
    BenchCase("numpy-normal-1e6", "rngcert-numpy", _setup_rngcert_numpy_normal, FLOATS_SIZE, "values",
              check=_normals_check),
    BenchCase("numpy-normal-1e6", "numpy-pcg64", _setup_pcg64_normal, FLOATS_SIZE, "values",
              baseline=True, check=_normals_check),
]
