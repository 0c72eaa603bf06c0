"""Production mode: OS key, fast key erasure (checked byte-exactly against a
model of the design on OpenSSL's keystream), OS reseeding, failing closed
when the OS has no entropy."""
import numpy as np
import pytest

import rngcore
from rngcore import ffi, lib

from core_support import reference_keystream

BUF = 2048          # RNG_CHACHA_BUF_BYTES
BULK_BLOCKS = 1024  # blocks per key in a bulk request


def _key(generator) -> bytes:
    # White-box: the engine's current key (tests only; the key never leaves C otherwise).
    return b"".join(int(w).to_bytes(4, "little") for w in generator.engine._state.key)


class ProductionModel:
    """The production design written from docs/audit_contract.md: one key per
    batch of blocks from counter 0 (stream 0); the batch's first 32 bytes are
    the next key and are never output."""

    def __init__(self, key: bytes):
        self.key = key
        self.buffered = b""

    def _batch(self, nblocks: int) -> bytes:
        ks = reference_keystream(self.key, 0, 64 * nblocks)
        self.key = ks[:32]
        return ks[32:]

    def read(self, n: int) -> bytes:
        out = self.buffered[:n]
        self.buffered = self.buffered[len(out):]
        n -= len(out)
        while n >= BUF:  # bulk: straight to the caller, up to 1024 blocks per key
            nblocks = min((n + 32) // 64, BULK_BLOCKS)
            chunk = self._batch(nblocks)
            out += chunk
            n -= len(chunk)
        while n > 0:
            if not self.buffered:
                self.buffered = self._batch(BUF // 64)
            take = self.buffered[:n]
            self.buffered = self.buffered[len(take):]
            out += take
            n -= len(take)
        return out


def test_production_output_is_fast_key_erasure_exactly():
    generator = rngcore.Generator()
    model = ProductionModel(_key(generator))
    for n in [1, 100, 1915, 1, 3000, 2048, 200_000, 7, 70_000, 4096, 33]:
        old_key = model.key
        assert generator.random_bytes(n) == model.read(n)
        assert _key(generator) == model.key
        if model.key != old_key:
            # The key that made the output is gone from the state, and the
            # new key (first 32 bytes of that keystream) was never output.
            assert old_key not in bytes(ffi.buffer(generator.engine._state))
    assert generator.engine.seedings == 1


def test_integer_and_float_draws_read_the_same_production_stream():
    generator = rngcore.Generator()
    model = ProductionModel(_key(generator))
    words = np.frombuffer(model.read(400), "<u4")
    assert generator.integers(0, 2**32, size=100).tolist() == words.tolist()


def test_two_production_generators_differ():
    a, b = rngcore.Generator(), rngcore.Generator()
    assert a.random_bytes(64) != b.random_bytes(64)
    assert a.mode == "production" and a.seed is None and a.stream is None and a.position is None


def test_reseeds_from_the_os_after_the_interval():
    generator = rngcore.Generator(reseed_interval=10_000)
    assert generator.engine.reseed_interval == 10_000
    model = ProductionModel(_key(generator))
    # Reseeding happens at the first refill after >= 10000 bytes of output.
    # Up to there the output follows the model; afterwards it cannot.
    # One bulk batch of 158 blocks gives exactly 10080 bytes: the interval is spent.
    assert generator.random_bytes(10_080) == model.read(10_080)
    assert generator.engine.seedings == 1
    expected_without_reseed = model.read(2016)
    assert generator.random_bytes(2016) != expected_without_reseed
    assert generator.engine.seedings == 2
    # A 1 MiB bulk request reseeds between 64 KiB batches as needed.
    generator.random_bytes(1 << 20)
    assert generator.engine.seedings >= 2 + (1 << 20) // 70_000


def test_entropy_failure_refuses_to_construct():
    lib.rng_test_entropy_fail(1)
    try:
        buf = ffi.new("uint8_t[32]")
        assert lib.rng_entropy_fill(buf, 32) == lib.RNG_E_ENTROPY
        with pytest.raises(rngcore.EntropyError, match="could not supply entropy"):
            rngcore.Generator()
        # Replay mode needs no OS entropy and is unaffected.
        assert len(rngcore.Generator(bytes(32)).random_bytes(8)) == 8
    finally:
        lib.rng_test_entropy_fail(0)
    assert lib.rng_entropy_fill(buf, 32) == lib.RNG_OK


def test_entropy_failure_at_reseed_fails_closed_and_stays_failed():
    generator = rngcore.Generator(reseed_interval=1)
    generator.random_bytes(10)  # first batch: no reseed due yet
    lib.rng_test_entropy_fail(1)
    try:
        generator.random_bytes(2006)  # the rest of the buffered batch is fine
        with pytest.raises(rngcore.EntropyError):
            generator.random_bytes(1)  # the next refill must reseed, and cannot
        with pytest.raises(rngcore.EntropyError):
            generator.integers(0, 37, size=5)
    finally:
        lib.rng_test_entropy_fail(0)
    # Latched: the OS recovering does not revive it, and its key is wiped.
    for draw in (lambda: generator.random_bytes(1), lambda: generator.integers(0, 37),
                 lambda: generator.random(), lambda: generator.fill(bytearray(8))):
        with pytest.raises(rngcore.EntropyError):
            draw()
    assert _key(generator) == bytes(32)
    assert generator.source.status == lib.RNG_E_ENTROPY


def test_production_spawn_gives_fresh_keys():
    parent = rngcore.Generator(reseed_interval=123_456)
    children = parent.spawn(3)
    keys = {_key(c) for c in children} | {_key(parent)}
    assert len(keys) == 4
    assert all(c.mode == "production" and c.engine.reseed_interval == 123_456 for c in children)
