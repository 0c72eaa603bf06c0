"""The continuous test on every engine's production output (``csrc/core/continuous.h``): no two
consecutive output blocks equal.  A stuck engine, made by the fault seam's output tamper, is closed
for good on the buffered and the bulk path, inside a batch and across batches; good output passes;
the state never keeps an output block; replay output is not touched."""
import hashlib

import pytest

import rngcore
from rngcore.engines import engines
from rngcore.engines._drbg_kat import code_path, code_paths
from rngcore.errors import ContinuousTestError
from rngcore.testing import output_tamper

PRODUCTION = sorted(name for name, engine in engines().items() if engine.has_production)
BLOCK = rngcore.lib.RNG_CONTINUOUS_BLOCK


def test_every_production_engine_checks_32_byte_blocks():
    assert BLOCK == 32 and set(PRODUCTION) == {"chacha20", "ctr-drbg-aes256", "ctr-drbg-aes256-nodf",
                                               "hmac-drbg-sha256"}
    for name in PRODUCTION:
        assert engines()[name]()._state.continuous.block == BLOCK


@pytest.mark.parametrize("name", PRODUCTION)
@pytest.mark.parametrize("kind", ["repeat-inside", "repeat-across"])
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
    assert handed_out <= checked <= handed_out + 4096  # every byte handed out, plus what is still buffered
    assert engine.status == 0


@pytest.mark.parametrize("name", PRODUCTION)
def test_the_state_keeps_a_fingerprint_never_the_block(name):
    """Across batches only the SHA-256 fingerprint of the last block stays in the state (outbuf.h's
    rule: a captured state reveals nothing that was output)."""
    engine = engines()[name]()
    b = BLOCK
    whole = 64 * 1024 - 32 if name == "chacha20" else 1 << 16  # whole batches (one bulk ChaCha20 key), none buffered
    out = rngcore.Generator(engine).random_bytes(whole)
    state = bytes(rngcore.ffi.buffer(engine._state))
    fingerprint = bytes(engine._state.continuous.last)
    assert fingerprint in {hashlib.sha256(out[i:i + b]).digest()[:16] for i in range(0, len(out), b)}
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
    """Both fingerprints of a batch (its first block, checked against the last batch's, and its last,
    kept) are hashed together in one interleaved pass: on each SHA-256 path the kept one is SHA-256's
    and a repeat across batches is still caught at the very next block."""
    with code_path("sha", path):
        engine = engines()[name]()
        g = rngcore.Generator(engine)
        whole = 64 * 1024 - 32 if name == "chacha20" else 1 << 16
        for _ in range(3):
            out = g.random_bytes(whole)  # whole batches, none buffered: the last block is the kept one
            assert bytes(engine._state.continuous.last) == hashlib.sha256(out[-BLOCK:]).digest()[:16]
        with output_tamper("repeat-across", block=BLOCK) as tampered:
            g.random_bytes(whole)  # the tamper sees one batch first
            with pytest.raises(ContinuousTestError, match="repeated one of the two before it"):
                g.random_bytes(whole)
            assert tampered() == 1
