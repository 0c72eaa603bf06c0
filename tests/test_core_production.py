"""Production mode: OS key, fast key erasure (checked byte-exactly against a
model of the design on OpenSSL's keystream), OS reseeding, failing closed
when the OS has no entropy."""
import numpy as np
import pytest

import rngcore
from rngcore.testing import test_lib
from rngcore import ffi, lib
from rngcore.devices import fresh_shoes

from core_support import keystream_path, keystream_paths, reference_keystream

BUF = lib.RNG_CHACHA_BUF_BYTES  # buffered batches: 128 blocks
BULK_BLOCKS = 1024  # blocks per key in a bulk request
GRANULARITY = 64    # one ChaCha20 block: a key outputs at most reseed_interval + 63 bytes


def _key(generator) -> bytes:
    # White-box: the engine's current key (tests only; the key never leaves C otherwise).
    return b"".join(int(w).to_bytes(4, "little") for w in generator.engine._state.key)


class ReseedDue(Exception):
    """The model cannot go on: the next batch starts with fresh OS bytes."""


class ProductionModel:
    """The production design written from docs/audit_contract.md: one key per
    batch of blocks from counter 0 (stream 0); the batch's first 32 bytes are
    the next key and are never output; a batch never passes the reseed
    interval by a whole block."""

    def __init__(self, key: bytes, interval: int = lib.RNG_CHACHA_DEFAULT_RESEED_INTERVAL):
        self.key = key
        self.buffered = b""
        self.interval = interval
        self.since_reseed = 0

    def _blocks(self, cap: int) -> int:
        if self.since_reseed >= self.interval:
            raise ReseedDue
        left = self.interval - self.since_reseed
        return min(cap, -(-(left + 32) // 64))  # smallest n with 64 n - 32 >= left

    def _batch(self, nblocks: int) -> bytes:
        ks = reference_keystream(self.key, 0, 64 * max(nblocks, 8))
        self.key = ks[:32]
        self.since_reseed += 64 * nblocks - 32
        return ks[32:64 * nblocks]

    def read(self, n: int) -> bytes:
        out = self.buffered[:n]
        self.buffered = self.buffered[len(out):]
        n -= len(out)
        while n >= BUF:  # bulk: straight to the caller, up to 1024 blocks per key
            chunk = self._batch(self._blocks(min((n + 32) // 64, BULK_BLOCKS)))
            out += chunk
            n -= len(chunk)
        while n > 0:
            if not self.buffered:
                self.buffered = self._batch(self._blocks(BUF // 64))
            take = self.buffered[:n]
            self.buffered = self.buffered[len(take):]
            out += take
            n -= len(take)
        return out


@pytest.mark.parametrize("path", keystream_paths())
def test_production_output_is_fast_key_erasure_exactly(path):
    with keystream_path(path):
        _check_against_the_model(rngcore.Generator())


def _check_against_the_model(generator):
    model = ProductionModel(_key(generator))
    for n in [1, 100, 1915, 1, 3000, 2048, 200_000, 7, 70_000, 4096, 33, 8159, 8160, 8192, 1, 8191]:
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
    model = ProductionModel(_key(generator), interval=10_000)
    no_reseed = ProductionModel(_key(generator))
    # Up to the interval the output follows the model: a bulk batch of 156
    # blocks (9952 bytes), then a 2-block buffered batch (96 bytes) that
    # reaches the interval; 48 of its bytes are read here, 48 later.
    assert generator.random_bytes(10_000) == model.read(10_000) == no_reseed.read(10_000)
    assert generator.random_bytes(48) == model.read(48) == no_reseed.read(48)
    assert generator.engine.seedings == 1
    with pytest.raises(ReseedDue):
        model.read(1)
    # The next byte comes from a key with fresh OS bytes in it.
    assert generator.random_bytes(2016) != no_reseed.read(2016)
    assert generator.engine.seedings == 2


@pytest.mark.parametrize("interval", [1, 31, 32, 33, 95, 96, 97, 100, 2015, 2016, 2017, 5000])
def test_one_key_outputs_the_interval_rounded_up_to_a_block(interval):
    # Byte by byte, the OS seeding count goes up exactly at the first byte of
    # the second key: at least `interval` and at most interval + 63 bytes
    # came from the first one.
    generator = rngcore.Generator(reseed_interval=interval)
    for index in range(interval + GRANULARITY):
        generator.random_bytes(1)
        if generator.engine.seedings == 2:
            break
    assert generator.engine.seedings == 2, "no reseed within interval + 63 bytes"
    assert interval <= index <= interval + GRANULARITY - 1


REQUESTS = [
    (10_000, [100_000]),
    (10_000, [1, 5000, 70_000, 3, 2048, 2047, 33_333]),
    (65_536, [1 << 20]),
    (100_000, [4096] * 100),
    (3000, [2016, 2016, 2016, 2016, 1, 1, 1, 9000]),
    (1 << 20, [1 << 22, 17]),
]


@pytest.mark.parametrize("interval,sizes", REQUESTS)
def test_seedings_match_the_bytes_output(interval, sizes):
    # Every key but the last generates at least `interval` and at most
    # interval + 63 bytes; generated = read + what is left unread in the
    # buffer (< BUF - 32).  Hence, for n bytes read:
    #     ceil(n / (interval + 63)) <= seedings <= (n + 2014) // interval + 1
    generator = rngcore.Generator(reseed_interval=interval)
    n = 0
    for size in sizes:
        assert len(generator.random_bytes(size)) == size
        n += size
        low = -(-n // (interval + GRANULARITY - 1))
        high = (n + BUF - 32 - 2) // interval + 1
        assert low <= generator.engine.seedings <= high, (n, generator.engine.seedings)
    assert generator.engine.seedings >= 2


def test_entropy_failure_refuses_to_construct():
    test_lib.rngtest_entropy_fail(1)
    try:
        buf = ffi.new("uint8_t[32]")
        assert lib.rng_entropy_fill(buf, 32) == lib.RNG_E_ENTROPY
        with pytest.raises(rngcore.EntropyError, match="could not supply entropy"):
            rngcore.Generator()
        # Replay mode needs no OS entropy and is unaffected.
        assert len(rngcore.Generator(bytes(32)).random_bytes(8)) == 8
    finally:
        test_lib.rngtest_entropy_fail(0)
    assert lib.rng_entropy_fill(buf, 32) == lib.RNG_OK


def test_entropy_failure_at_reseed_fails_closed_and_stays_failed():
    generator = rngcore.Generator(reseed_interval=1)
    generator.random_bytes(10)  # first batch (one block: 32 bytes): no reseed due yet
    test_lib.rngtest_entropy_fail(1)
    try:
        generator.random_bytes(22)  # the rest of the buffered batch is fine
        with pytest.raises(rngcore.EntropyError):
            generator.random_bytes(1)  # the next refill must reseed, and cannot
        with pytest.raises(rngcore.EntropyError):
            generator.integers(0, 37, size=5)
    finally:
        test_lib.rngtest_entropy_fail(0)
    # Latched: the OS recovering does not revive it, and its key is wiped.
    for draw in (lambda: generator.random_bytes(1), lambda: generator.integers(0, 37),
                 lambda: generator.random(), lambda: generator.fill(bytearray(8))):
        with pytest.raises(rngcore.EntropyError):
            draw()
    assert _key(generator) == bytes(32)
    assert generator.source.status == lib.RNG_E_ENTROPY
    # The bulk word read (shuffles) reports the failure and gives only all-one words.
    out = ffi.new("uint64_t[]", 70)
    source = generator.source
    assert source.words64(source.state, out, 70) == lib.RNG_E_ENTROPY
    assert set(out) == {2**64 - 1}
    with pytest.raises(rngcore.EntropyError):
        fresh_shoes(generator, 40, 8)  # the group kernel's path


def test_production_spawn_gives_fresh_keys():
    parent = rngcore.Generator(reseed_interval=123_456)
    children = parent.spawn(3)
    keys = {_key(c) for c in children} | {_key(parent)}
    assert len(keys) == 4
    assert all(c.mode == "production" and c.engine.reseed_interval == 123_456 for c in children)
