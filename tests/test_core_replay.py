"""Replay mode is exactly the ChaCha20 keystream (checked against OpenSSL),
on both keystream paths, whatever the mix of read sizes; and its seeding,
streams, positions and spawn are reproducible and validated."""
import pathlib

import numpy as np
import pytest

import rngcore
from rngcore import ffi, lib

from core_support import keystream_path, keystream_paths, reference_keystream

SEEDS = [bytes(32), bytes(range(32)), bytes.fromhex("9f" * 16 + "03" * 16)]
STREAMS = [0, 1, 0x0123456789ABCDEF, 2**64 - 1]


@pytest.mark.parametrize("path", keystream_paths())
@pytest.mark.parametrize("seed", SEEDS, ids=["zero", "counting", "mixed"])
@pytest.mark.parametrize("stream", STREAMS)
def test_replay_equals_openssl_keystream(path, seed, stream):
    with keystream_path(path):
        output = rngcore.Generator(seed, stream).random_bytes(5000)
    assert output == reference_keystream(seed, stream, 5000)


# Sizes chosen to straddle the 8192-byte buffer, 64-byte blocks and the
# 512-byte AVX2 groups, mixing buffered and direct-to-output reads.
READS = [1, 3, 60, 4, 2040, 7, 9, 1, 64, 511, 513, 4096, 2047, 2049, 8191, 8193, 100_000, 5, 33]


@pytest.mark.parametrize("path", keystream_paths())
def test_mixed_size_reads_concatenate_to_the_keystream(path):
    seed = bytes(range(32))
    with keystream_path(path):
        generator = rngcore.Generator(seed, 77)
        parts = [generator.random_bytes(n) for n in READS]
    total = sum(READS)
    assert b"".join(parts) == reference_keystream(seed, 77, total)
    assert generator.position == total


@pytest.mark.parametrize("path", keystream_paths())
def test_words_and_bytes_read_one_byte_stream(path):
    # integers/random read 4- and 8-byte little-endian words from the same
    # stream as random_bytes, also when a word straddles a buffer refill.
    seed = bytes(range(32))
    ks = reference_keystream(seed, 5, 8192)
    with keystream_path(path):
        generator = rngcore.Generator(seed, 5)
        generator.random_bytes(2046)  # 2 bytes left in the buffer
        word = generator.integers(0, 2**32)  # max = 2^32 - 1: one raw 4-byte word
        assert word == int.from_bytes(ks[2046:2050], "little")
        generator.seek(2045)
        x = generator.random()
        assert x == (int.from_bytes(ks[2045:2053], "little") >> 11) * 2.0**-53
        assert generator.position == 2053


@pytest.mark.parametrize("path", keystream_paths())
@pytest.mark.parametrize("start, count", [(0, 1), (3, 59), (2043, 2), (100, 512), (5, 1000)])
def test_bulk_words_are_the_next64_words(path, start, count):
    # rng_source.words64 (a shuffle's bulk read) = `count` next64 words: the
    # next 8 * count keystream bytes read little-endian, from any position.
    seed = bytes(range(32))
    ks = reference_keystream(seed, 6, start + 8 * count)
    with keystream_path(path):
        generator = rngcore.Generator(seed, 6)
        generator.seek(start)
        out = ffi.new("uint64_t[]", count)
        source = generator.source
        assert source.words64(source.state, out, count) == lib.RNG_OK
        assert list(out) == [int.from_bytes(ks[start + 8 * i:start + 8 * i + 8], "little") for i in range(count)]
        assert generator.position == start + 8 * count


def test_fill_numpy_and_bytearray_are_the_keystream_zero_copy():
    seed = bytes(range(32))
    generator = rngcore.Generator(seed, 3)
    array = np.zeros((10, 7), np.uint32)  # 280 bytes
    generator.fill(array)
    buf = bytearray(1000)
    generator.fill(buf)
    view = memoryview(bytearray(50))[10:30]
    generator.fill(view)
    ks = reference_keystream(seed, 3, 1300)
    assert array.tobytes() == ks[:280]
    assert bytes(buf) == ks[280:1280]
    assert view.tobytes() == ks[1280:1300]


@pytest.mark.parametrize("position", [0, 1, 63, 64, 2047, 2048, 2049, 10**6 + 17])
def test_seek_resumes_at_any_position(position):
    seed = bytes(range(32))
    generator = rngcore.Generator(seed, 11)
    generator.random_bytes(123)
    generator.seek(position)
    assert generator.position == position
    assert generator.random_bytes(300) == reference_keystream(seed, 11, position + 300)[position:]


def test_hex_and_bytes_seeds_agree_and_are_read_back():
    seed = bytes(range(32))
    a = rngcore.Generator(seed.hex().upper(), 9)
    b = rngcore.Generator(bytearray(seed), 9)
    assert a.seed == b.seed == seed and a.stream == b.stream == 9 and a.mode == "replay"
    assert a.random_bytes(100) == b.random_bytes(100)


def test_replay_spawn_children_are_derived_from_the_keystream():
    seed = bytes(range(32))
    parent = rngcore.Generator(seed, 4)
    parent.random_bytes(10)
    children = parent.spawn(3)
    ks = reference_keystream(seed, 4, 10 + 96 + 16)
    # Child i's seed = parent keystream bytes [32 i, 32 i + 32) after its
    # position; stream 0; the parent advances by 32 n.
    for i, child in enumerate(children):
        assert child.seed == ks[10 + 32 * i:42 + 32 * i]
        assert child.stream == 0
        assert child.random_bytes(64) == reference_keystream(child.seed, 0, 64)
    assert parent.position == 106
    assert parent.random_bytes(16) == ks[106:122]
    # Reproducible, and all distinct.
    again = rngcore.Generator(seed, 4)
    again.seek(10)
    assert [c.seed for c in again.spawn(3)] == [c.seed for c in children]
    assert len({c.seed for c in children}) == 3
    assert parent.spawn(0) == []


@pytest.mark.parametrize("bad, error, message", [
    ("00" * 31, ValueError, "64 hex digits"),
    ("zz" * 32, ValueError, "non-hex"),
    (bytes(31), ValueError, "32 bytes"),
    (bytes(33), ValueError, "32 bytes"),
    (12345, TypeError, "not an int"),
    (3.5, TypeError, "float"),
])
def test_bad_seed_is_named(bad, error, message):
    with pytest.raises(error, match=message):
        rngcore.Generator(bad)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"seed": bytes(32), "stream": -1}, ValueError, r"stream must be in \[0, 2\*\*64\)"),
    ({"seed": bytes(32), "stream": 2**64}, ValueError, "stream must be"),
    ({"seed": bytes(32), "stream": "7"}, TypeError, "stream must be an integer"),
    ({"stream": 5}, ValueError, "replay mode only"),
    ({"seed": bytes(32), "reseed_interval": 10}, ValueError, "production mode only"),
    ({"reseed_interval": 0}, ValueError, "reseed_interval must be >= 1"),
])
def test_bad_engine_arguments_are_named(kwargs, error, message):
    with pytest.raises(error, match=message):
        rngcore.Generator(**kwargs)


def test_bad_draw_arguments_are_named():
    generator = rngcore.Generator(bytes(32))
    with pytest.raises(ValueError, match="n must be >= 0"):
        generator.random_bytes(-1)
    with pytest.raises(TypeError, match="n must be an integer"):
        generator.random_bytes(2.0)
    with pytest.raises(ValueError, match="position must be"):
        generator.seek(-5)
    with pytest.raises(ValueError, match="spawn"):
        generator.spawn(-1)
    with pytest.raises(ValueError, match="replay mode only"):
        rngcore.Generator().seek(0)
    assert generator.position == 0  # nothing was consumed by the failures


def test_audit_contract_worked_example():
    # The numbers in docs/audit_contract.md section 1, recomputed here.
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "audit_contract.md").read_text()
    seed = bytes(range(32))
    block0 = reference_keystream(seed, 1, 64).hex()
    assert block0[:64] in doc and block0[64:] in doc
    g = rngcore.Generator(seed, 1)
    assert [g.integers(0, 37) for _ in range(3)] == [0, 19, 33]
    assert repr(g.random()) == "0.13036766319458637" and g.position == 20
    children = g.spawn(2)
    assert g.position == 84
    for child in children:
        assert child.seed.hex() in doc
    rejected = rngcore.Generator(seed, 1)
    assert rejected.integers(0, 3_000_000_000, size=4).tolist() == [34498962, 2685851567, 2630075286, 391102988]
    assert rejected.position == 20
    assert "[34498962, 2685851567, 2630075286, 391102988]" in doc and "0.13036766319458637" in doc


def test_repr_shows_no_seed_and_works_under_the_lock():
    generator = rngcore.Generator(bytes(range(32)), 3)
    generator.random_bytes(5)
    with generator.lock:
        text = repr(generator)
    assert text == "Generator(mode='replay', stream=3, position=5)"
    assert bytes(range(32)).hex() not in text + repr(generator.engine)
    assert repr(rngcore.Generator()) == "Generator(mode='production')"
