"""numpy's Generator runs on our bits: capsule, lock, and the audit contract."""
import ctypes
import pickle
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import rngcore
from rngcore.testing import test_lib
from rngcore.numpy_interop import ChaChaBitGenerator, numpy_generator

SEEDS = [bytes(32), bytes(range(32)), bytes.fromhex("c0ffee" * 10 + "0102")]
STREAMS = [0, 1, 0xFEDCBA9876543210]


def _openssl_keystream(seed: bytes, stream: int, nbytes: int) -> bytes:
    """Independent ChaCha20 keystream: OpenSSL IV = counter 0 (8 B) || stream (8 B)."""
    nonce = (0).to_bytes(8, "little") + stream.to_bytes(8, "little")
    return Cipher(algorithms.ChaCha20(seed, nonce), mode=None).encryptor().update(bytes(nbytes))


def test_capsule_is_a_valid_bitgenerator_capsule():
    bg = ChaChaBitGenerator(rngcore.Generator(bytes(32)))
    is_valid = ctypes.pythonapi.PyCapsule_IsValid
    is_valid.restype = ctypes.c_int
    is_valid.argtypes = (ctypes.py_object, ctypes.c_char_p)
    assert is_valid(bg.capsule, b"BitGenerator") == 1
    assert is_valid(bg.capsule, b"SomethingElse") == 0
    assert hasattr(bg.lock, "acquire") and hasattr(bg.lock, "release")


def test_numpy_generator_accepts_it():
    rng = np.random.Generator(ChaChaBitGenerator(rngcore.Generator(bytes(32))))
    assert str(rng) == "Generator(ChaChaBitGenerator)"
    assert isinstance(rng.bit_generator, ChaChaBitGenerator)


@pytest.mark.parametrize("seed", SEEDS, ids=["zero-key", "counting-key", "coffee-key"])
@pytest.mark.parametrize("stream", STREAMS)
def test_next_uint64_is_the_keystream_read_little_endian(seed, stream):
    raw = ChaChaBitGenerator(rngcore.Generator(seed, stream)).random_raw(40)
    expected = np.frombuffer(_openssl_keystream(seed, stream, 8 * 40), "<u8")
    np.testing.assert_array_equal(raw, expected)


def test_next_uint32_and_next_double_follow_the_contract():
    seed, stream = SEEDS[2], STREAMS[2]
    bg = ChaChaBitGenerator(rngcore.Generator(seed, stream))
    words32 = [bg._bitgen.next_uint32(bg._bitgen.state) for _ in range(6)]
    doubles = [bg._bitgen.next_double(bg._bitgen.state) for _ in range(5)]
    keystream = _openssl_keystream(seed, stream, 24 + 40)
    assert words32 == list(np.frombuffer(keystream[:24], "<u4"))
    # next_double = top 53 bits of the next 64-bit word, scaled by 2^-53
    assert doubles == [int(w >> np.uint64(11)) * 2.0**-53 for w in np.frombuffer(keystream[24:], "<u8")]


def test_numpy_random_uses_next_double_on_the_keystream():
    seed, stream = SEEDS[1], 3
    values = numpy_generator(seed, stream).random(1000)
    words = np.frombuffer(_openssl_keystream(seed, stream, 8 * 1000), "<u8")
    np.testing.assert_array_equal(values, (words >> np.uint64(11)) * 2.0**-53)


def test_numpy_draws_share_the_keystream_with_the_generator():
    """numpy and rngcore methods consume one stream, in call order."""
    seed = SEEDS[1]
    g = rngcore.Generator(seed, 9)
    bg = ChaChaBitGenerator(g)
    first = g.random_bytes(16)
    word = bg.random_raw()
    last = g.random_bytes(8)
    assert first + word.to_bytes(8, "little") + last == _openssl_keystream(seed, 9, 32)


def test_integers_shuffle_normal_are_in_range_and_replayable():
    def draws(rng):
        ints = rng.integers(0, 37, size=100_000)
        deck = np.arange(52)
        rng.shuffle(deck)
        normals = rng.normal(10.0, 2.0, size=100_000)
        return ints, deck, normals

    a = draws(numpy_generator(SEEDS[2], 5))
    b = draws(numpy_generator(SEEDS[2], 5))
    c = draws(numpy_generator(SEEDS[2], 6))
    ints, deck, normals = a
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], c[0]) and not np.array_equal(a[2], c[2])
    assert ints.min() == 0 and ints.max() == 36  # every pocket appears in 10^5 spins
    assert sorted(deck) == list(range(52)) and not np.array_equal(deck, np.arange(52))
    # mean of 10^5 N(10, 2): sd 2/sqrt(1e5) ~ 0.0063; 7 sd is p < 1e-11
    assert abs(normals.mean() - 10.0) < 7 * 2.0 / np.sqrt(normals.size)
    assert abs(normals.std() - 2.0) < 0.05


def test_numpy_integers_are_uniform_far_tail():
    counts = np.bincount(numpy_generator(SEEDS[0], 1).integers(0, 37, size=370_000), minlength=37)
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 120  # df 36: P(chi2 > 120) ~ 1e-10


def test_production_mode_is_not_replayable():
    a = numpy_generator().integers(0, 2**63, size=4)
    b = numpy_generator().integers(0, 2**63, size=4)
    assert not np.array_equal(a, b)


def test_capsule_referents_outlive_the_callers_references():
    """numpy copies the bitgen_t; the engine it points at must stay alive
    (and unwiped) as long as numpy's Generator does."""
    import gc

    rng = np.random.Generator(ChaChaBitGenerator(rngcore.Generator(SEEDS[1], 11)))
    gc.collect()
    rngcore.Generator(bytes(32)).random_bytes(1 << 16)  # churn the allocator
    np.testing.assert_array_equal(rng.bit_generator.random_raw(8),
                                  np.frombuffer(_openssl_keystream(SEEDS[1], 11, 64), "<u8"))
    values = rng.random(8)
    words = np.frombuffer(_openssl_keystream(SEEDS[1], 11, 128)[64:], "<u8")
    np.testing.assert_array_equal(values, (words >> np.uint64(11)) * 2.0**-53)


def test_lock_is_the_generators_own_lock():
    g = rngcore.Generator(bytes(32))
    assert ChaChaBitGenerator(g).lock is g.lock


def test_threads_never_receive_the_same_words():
    rng = numpy_generator(SEEDS[1], 2)
    out = [None] * 8

    def work(i):
        out[i] = np.concatenate([rng.integers(0, 2**64, size=500, dtype=np.uint64) for _ in range(20)])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    words = np.concatenate(out)
    assert words.size == 80_000 and np.unique(words).size == words.size
    # with the lock held per call, the union is exactly the first 80,000 words
    expected = np.frombuffer(_openssl_keystream(SEEDS[1], 2, 8 * 80_000), "<u8")
    np.testing.assert_array_equal(np.sort(words), np.sort(expected))


def test_bad_arguments():
    with pytest.raises(TypeError, match="rngcore.Generator"):
        ChaChaBitGenerator(np.random.PCG64())
    with pytest.raises(ValueError, match="size must be >= 0"):
        ChaChaBitGenerator(rngcore.Generator(bytes(32))).random_raw(-1)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(numpy_generator(bytes(32)))


def test_numpy_spawn_follows_rngcore_spawn():
    rng = np.random.Generator(ChaChaBitGenerator(rngcore.Generator(SEEDS[1], 4)))
    children = rng.spawn(3)
    expected = rngcore.Generator(SEEDS[1], 4).spawn(3)
    for child, reference in zip(children, expected):
        assert isinstance(child, np.random.Generator)
        np.testing.assert_array_equal(child.bit_generator.random_raw(4),
                                      np.frombuffer(reference.random_bytes(32), "<u8"))
    assert len({tuple(c.bit_generator.random_raw(2)) for c in children}) == 3


def test_a_failed_generator_is_refused(monkeypatch):
    g = rngcore.Generator(reseed_interval=4096)
    test_lib.rngtest_entropy_fail(1)
    try:
        with pytest.raises(rngcore.EntropyError):
            g.random_bytes(8192)  # crosses the reseed point; the OS "refuses"
    finally:
        test_lib.rngtest_entropy_fail(0)
    with pytest.raises(rngcore.EntropyError, match="ChaChaBitGenerator"):
        ChaChaBitGenerator(g)


_ABORT_SCRIPT = """
import numpy as np, rngcore, sys
from rngcore.numpy_interop import ChaChaBitGenerator
from rngcore.testing import test_lib
rng = np.random.Generator(ChaChaBitGenerator(rngcore.Generator(reseed_interval=4096)))
rng.bytes(1000)
test_lib.rngtest_entropy_fail(1)
values = rng.{draw}
sys.stdout.write("numpy returned " + repr(values))
"""


@pytest.mark.parametrize("draw", ["normal(size=10_000)", "integers(0, 37, size=10_000)", "random(10_000)"])
def test_entropy_failure_during_a_numpy_draw_aborts(draw):
    """numpy cannot be told of a failure: the process must die, not hang or
    hand out the failed source's words."""
    proc = subprocess.run([sys.executable, "-c", _ABORT_SCRIPT.format(draw=draw)],
                          capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGABRT, (proc.returncode, proc.stdout, proc.stderr)
    assert b"numpy returned" not in proc.stdout
