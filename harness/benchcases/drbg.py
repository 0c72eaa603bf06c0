"""SP 800-90A engine bench cases (issue 14 targets), each against baselines
measured in the same run: OpenSSL's AES-256-CTR keystream (``cryptography``)
for CTR_DRBG; a loop of OpenSSL HMAC-SHA256 calls producing HMAC_DRBG's
bytes (``hmac.digest``, the Python reference of
:mod:`harness.benchcases._drbg_reference`) for HMAC_DRBG; and the same
draws on ChaCha20 for bounded integers and 8-deck shuffles.  Replay cases
check their first MiB against the SHA-256 of the reference stream, pinned
here so that the check needs no optional package (the CTR_DRBG reference
runs AES through ``cryptography``); the tests recompute each pin from the
reference."""
from __future__ import annotations

import hashlib
import hmac

import numpy as np

from harness.benchcases._base import BenchCase, SkipCase
from harness.benchcases._drbg_reference import REQUEST_BYTES, HmacDrbgReference
from rngcore.engines._drbg_kat import PIN_BYTES, PIN_SEED, PIN_SHA256

MIB = PIN_BYTES
SEED = PIN_SEED
INTEGERS = 10**6
SHUFFLES = 200
CARDS = 416  # an 8-deck shoe

# SHA-256 of reference_stream(engine, SEED, b"", MIB), the Python SP 800-90A
# reference's first MiB for each engine: the engines' stability pins.
REPLAY_SHA256 = PIN_SHA256


def _engine(name: str, replay: bool):
    import rngcore
    from rngcore.engines import engine_class

    cls = engine_class(name)
    return rngcore.Generator(cls(SEED) if replay else cls())


def _setup_bytes(engine: str, replay: bool):
    def setup():
        if replay:
            return lambda: _engine(engine, True).random_bytes(MIB)
        g = _engine(engine, False)
        buf = bytearray(MIB)
        return lambda: (g.fill(buf), buf)[1]
    return setup


def _replay_check(engine: str):
    def check(result) -> None:
        digest = hashlib.sha256(bytes(result)).hexdigest()
        assert digest == REPLAY_SHA256[engine], f"{engine} replay differs from the SP 800-90A reference"
    return check


def _bytes_check(result) -> None:
    assert len(result) == MIB and np.unique(np.frombuffer(bytes(result), np.uint8)).size == 256


def _setup_openssl_aes_ctr():
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError:
        raise SkipCase("the `cryptography` package is not installed (OpenSSL baseline)") from None
    encryptor = Cipher(algorithms.AES(SEED[:32]), modes.CTR(SEED[32:])).encryptor()
    zeros = bytes(MIB)
    return lambda: encryptor.update(zeros)


def _setup_openssl_hmac_loop():
    # The work of HMAC_DRBG's generate loop: V = HMAC(K, V), 32 bytes a call.
    drbg = HmacDrbgReference(SEED[:32], SEED[32:])
    key, v0 = drbg.key, drbg.v

    def run():
        out, v = bytearray(), v0
        for _ in range(MIB // 32):
            v = hmac.digest(key, v, "sha256")
            out += v
        return out
    return run


def _setup_python_hmac_drbg():
    def run():
        drbg = HmacDrbgReference(SEED[:32], SEED[32:])
        return b"".join(drbg.generate(REQUEST_BYTES) for _ in range(MIB // REQUEST_BYTES))
    return run


def _setup_integers(engine: str):
    def setup():
        g = _engine(engine, False)
        return lambda: g.integers(0, 37, INTEGERS)
    return setup


def _integers_check(result) -> None:
    counts = np.bincount(np.asarray(result), minlength=37)
    assert counts.size == 37 and counts.min() > 0.8 * INTEGERS / 37


def _setup_shuffles(engine: str):
    def setup():
        g = _engine(engine, False)
        return lambda: [g.permutation(CARDS) for _ in range(SHUFFLES)]
    return setup


def _shuffles_check(result) -> None:
    assert len(result) == SHUFFLES and all(np.array_equal(np.sort(p), np.arange(CARDS)) for p in result)


CTR, CTR_NODF, HMAC = "ctr-drbg-aes256", "ctr-drbg-aes256-nodf", "hmac-drbg-sha256"

CASES = [
    BenchCase("ctr-drbg-1MiB", "rngcert-ctr-drbg", _setup_bytes(CTR, False), MIB, "B",
              target=">= 0.5x openssl-aes256-ctr", check=_bytes_check),
    BenchCase("ctr-drbg-1MiB", "rngcert-ctr-drbg-replay", _setup_bytes(CTR, True), MIB, "B",
              target=">= 0.5x openssl-aes256-ctr", check=_replay_check(CTR)),
    BenchCase("ctr-drbg-1MiB", "rngcert-ctr-drbg-nodf", _setup_bytes(CTR_NODF, False), MIB, "B",
              target=">= 0.5x openssl-aes256-ctr", check=_bytes_check),
    BenchCase("ctr-drbg-1MiB", "openssl-aes256-ctr", _setup_openssl_aes_ctr, MIB, "B", baseline=True,
              check=_bytes_check),
    BenchCase("hmac-drbg-1MiB", "rngcert-hmac-drbg", _setup_bytes(HMAC, False), MIB, "B",
              target=">= 0.8x openssl-hmac-loop", check=_bytes_check),
    BenchCase("hmac-drbg-1MiB", "rngcert-hmac-drbg-replay", _setup_bytes(HMAC, True), MIB, "B",
              target=">= 0.8x openssl-hmac-loop", check=_replay_check(HMAC)),
    BenchCase("hmac-drbg-1MiB", "openssl-hmac-loop", _setup_openssl_hmac_loop, MIB, "B", baseline=True,
              check=_bytes_check),
    BenchCase("hmac-drbg-1MiB", "python-hmac-drbg", _setup_python_hmac_drbg, MIB, "B", baseline=True,
              check=_replay_check(HMAC)),
]
for _name, _engine_name in (("ctr-drbg", CTR), ("hmac-drbg", HMAC), ("chacha20", "chacha20")):
    _base = _engine_name == "chacha20"
    _target = None if _base else ">= 0.67x rngcert-chacha20"  # within 1.5x of ChaCha20
    CASES += [
        BenchCase("drbg-integers-37", f"rngcert-{_name}", _setup_integers(_engine_name), INTEGERS, "values",
                  baseline=_base, target=_target, check=_integers_check),
        BenchCase("drbg-shuffle-8deck", f"rngcert-{_name}", _setup_shuffles(_engine_name), SHUFFLES, "shuffles",
                  baseline=_base, target=_target, check=_shuffles_check),
    ]
