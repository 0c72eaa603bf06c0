"""The continuous test on every engine's production output (``csrc/core/continuous.h``): no output
block equal to the one before it or the one before that.  A stuck engine, made by the fault seam's
output tamper, is closed for good on the buffered and the bulk path, inside a batch and across
batches (at distance 1 and 2, so a 64-byte unit repeated over a batch border too); good output
passes; the state never keeps an output block; replay output is not touched."""
import hashlib
import random

import pytest

import rngcore
from rngcore.engines import engines
from rngcore.engines._drbg_kat import code_path, code_paths
from rngcore.errors import ContinuousTestError
from rngcore.testing import keystream_impl, output_tamper

from core_support import keystream_paths

PRODUCTION = sorted(name for name, engine in engines().items() if engine.has_production)
BLOCK = rngcore.lib.RNG_CONTINUOUS_BLOCK


def test_every_production_engine_checks_32_byte_blocks():
    assert BLOCK == 32 and set(PRODUCTION) == {"chacha20", "ctr-drbg-aes256", "ctr-drbg-aes256-nodf",
                                               "hmac-drbg-sha256"}
    for name in PRODUCTION:
        assert engines()[name]()._state.continuous.block == BLOCK


# Across a batch border: the first block against the last (distance 1) and the one before it
# (distance 2), the second against the last (distance 2), and both (a repeated 64-byte unit, in
# which no block equals its neighbour).
KINDS = ["repeat-inside", "repeat-across", "repeat-across-2", "second-across", "unit-across"]


@pytest.mark.parametrize("name", PRODUCTION)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("path", ["buffered", "bulk"])
def test_a_repeated_block_closes_the_engine_for_good(name, kind, path):
    engine = engines()[name]()
    g = rngcore.Generator(engine)
    g.random_bytes(100_000)  # some batches pass first: "across" compares with a real previous batch
    out = bytearray(1 << 20)
    with output_tamper(kind, block=BLOCK) as tampered:
        with pytest.raises(ContinuousTestError, match="repeated one of the two before it"):
            for _ in range(4):
                if path == "bulk":
                    g.fill(out)
                else:
                    g.integers(0, 37, size=10_000)
        assert tampered() == 1
    assert engine.status == rngcore.lib.RNG_E_CONTINUOUS
    assert path == "buffered" or not any(out)  # a failed fill leaves nothing of the request
    for _ in range(2):  # the engine stays closed, though its output would be fine again
        with pytest.raises(ContinuousTestError):
            g.random_bytes(1)
        with pytest.raises(ContinuousTestError):
            g.integers(0, 37, size=3)
    assert len(rngcore.Generator(engines()[name]()).random_bytes(64)) == 64  # a new instance works


@pytest.mark.parametrize("name", PRODUCTION)
def test_good_output_passes_and_every_block_is_checked(name):
    engine = engines()[name]()
    g = rngcore.Generator(engine)
    g.random_bytes(4 << 20)
    g.integers(0, 52, size=200_000)
    checked = engine._state.continuous.blocks * BLOCK
    handed_out = engine.provenance().position
    buffered = len(engine._state.buf)
    assert handed_out <= checked <= handed_out + buffered  # every byte handed out, plus what is still buffered
    assert engine.status == 0


@pytest.mark.parametrize("name", PRODUCTION)
def test_the_state_keeps_a_fingerprint_never_the_block(name):
    """Across batches only the SHA-256 fingerprints of the last two blocks stay in the state
    (outbuf.h's rule: a captured state reveals nothing that was output)."""
    engine = engines()[name]()
    b = BLOCK
    whole = 64 * 1024 - 32 if name == "chacha20" else 1 << 16  # whole batches (one bulk ChaCha20 key), none buffered
    out = rngcore.Generator(engine).random_bytes(whole)
    state = bytes(rngcore.ffi.buffer(engine._state))
    kept = {bytes(engine._state.continuous.last), bytes(engine._state.continuous.before)}
    assert len(kept) == 2 and kept <= {hashlib.sha256(out[i:i + b]).digest()[:16] for i in range(0, len(out), b)}
    for i in range(0, len(out) - 8, 8):
        assert out[i:i + 8] not in state, i


@pytest.mark.parametrize("name", sorted(engines()))
def test_replay_output_is_not_checked_or_changed(name):
    """The tamper only ever runs inside the production check, so a replay stream under it is the
    stream without it (the stability pins hold the streams themselves)."""
    engine = engines()[name]
    if engine.name == "test":
        pytest.skip("no replay seed")
    seed = bytes(range(engine.seed_bytes)).hex()
    plain = rngcore.Generator(engine(seed)).random_bytes(50_000)
    with output_tamper("repeat-inside", block=BLOCK) as tampered:
        assert rngcore.Generator(engine(seed)).random_bytes(50_000) == plain
    assert tampered() == 0


@pytest.mark.parametrize("path", code_paths("sha"))
@pytest.mark.parametrize("name", ["chacha20", "hmac-drbg-sha256"])
def test_fingerprints_are_sha256_on_every_sha_path(name, path):
    """The four fingerprints of a batch (its first two blocks, checked against the last batch's last
    two, and its last two, kept) are hashed together in one interleaved pass: on each SHA-256 path
    the kept ones are SHA-256's and a repeat across batches is still caught at the very next block."""
    with code_path("sha", path):
        engine = engines()[name]()
        g = rngcore.Generator(engine)
        whole = 64 * 1024 - 32 if name == "chacha20" else 1 << 16
        for _ in range(3):
            out = g.random_bytes(whole)  # whole batches, none buffered: the last block is the kept one
            assert bytes(engine._state.continuous.last) == hashlib.sha256(out[-BLOCK:]).digest()[:16]
            assert bytes(engine._state.continuous.before) == hashlib.sha256(out[-2 * BLOCK:-BLOCK]).digest()[:16]
        with output_tamper("unit-across", block=BLOCK) as tampered:
            g.random_bytes(whole)  # the tamper sees one batch first
            with pytest.raises(ContinuousTestError, match="repeated one of the two before it"):
                g.random_bytes(whole)
            assert tampered() == 1


# --- the check itself, on batches of the tests' own making, against a straightforward reference ---


def _first_repeat(batches) -> int | None:
    """Reference: the first batch holding a block equal to one of the two before it in the stream."""
    stream: list[bytes] = []
    for k, batch in enumerate(batches):
        for i in range(0, len(batch), BLOCK):
            block = bytes(batch[i:i + BLOCK])
            if block in stream[-2:]:
                return k
            stream.append(block)
    return None


def _first_refused(batches) -> int | None:
    """The C check, called once per batch as an engine calls it."""
    state = rngcore.ffi.new("rng_continuous *")
    rngcore.lib.rng_continuous_init(state)
    for k, batch in enumerate(batches):
        buf = rngcore.ffi.from_buffer(bytearray(batch))
        status = rngcore.lib.rng_continuous_check(state, buf, len(batch))
        if status != rngcore.lib.RNG_OK:
            assert status == rngcore.lib.RNG_E_CONTINUOUS
            return k
    return None


def _streams(count: int):
    """Random streams of batches of 1 to 130 blocks, most with one planted repeat (distance 1 or
    2, anywhere: inside a batch or across a border, one-block batches included) and some with a
    near repeat (one 64-bit word differs: the word scan hits, the blocks do not repeat)."""
    rng = random.Random(20261201)  # fixed: the cases are the same every run
    for _ in range(count):
        sizes = [rng.choice([1, 1, 2, 3, 4, 5, 63, 64, 127, 128, 130]) for _ in range(rng.randint(1, 5))]
        blocks = [rng.randbytes(BLOCK) for _ in range(sum(sizes))]
        if len(blocks) >= 3:
            j = rng.randrange(2, len(blocks))
            source = bytearray(blocks[j - rng.choice([1, 2])])
            if rng.random() < 0.25:  # a near repeat: one word differs
                w = rng.randrange(BLOCK // 8)
                source[8 * w] ^= 1 << rng.randrange(8)
            blocks[j] = bytes(source)
        batches, at = [], 0
        for size in sizes:
            batches.append(b"".join(blocks[at:at + size]))
            at += size
        yield batches


@pytest.mark.parametrize("sha", code_paths("sha"))
@pytest.mark.parametrize("scan", keystream_paths())
def test_the_check_refuses_exactly_the_streams_the_reference_does(scan, sha):
    """Each scan path (AVX2 where ChaCha20 runs on it, else portable) and each SHA-256 path of the
    fingerprints refuses at exactly the batch where the reference first finds a block equal to
    one of the two before it; a near repeat (one word differs) passes."""
    outcomes = set()
    with keystream_impl(scan), code_path("sha", sha):
        for batches in _streams(400):
            expected = _first_repeat(batches)
            assert _first_refused(batches) == expected, [len(b) // BLOCK for b in batches]
            outcomes.add(expected is None)
    assert outcomes == {True, False}
