"""After fork a production child never repeats its parent; a replay child
continues identically.  From 8 threads no two callers get the same bytes,
and in replay mode the threads' outputs tile the keystream exactly.  Every
engine with a production mode (ChaCha20 and the SP 800-90A DRBGs) is held
to each of these."""
import os
import threading
import time

import pytest

import rngcore
from rngcore.testing import test_lib
from rngcore import lib
from rngcore.engines import engines

from core_support import reference_keystream

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

PRODUCTION = sorted(name for name, engine in engines().items() if engine.has_production)
STREAM = 8


def _production(name: str):
    return rngcore.Generator(engines()[name]())


def _replay(name: str):
    """A replay generator on stream 8, and the reference for its first n bytes."""
    engine = engines()[name]
    seed = bytes(range(engine.seed_bytes))
    if name == "chacha20":
        return rngcore.Generator(seed, STREAM), lambda n: reference_keystream(seed, STREAM, n)
    # A DRBG's replay stream equals the SP 800-90A reference (tests/test_drbg.py); here a fresh
    # instance read in one call stands for it.
    return rngcore.Generator(engine(seed, STREAM)), lambda n: rngcore.Generator(engine(seed, STREAM)).random_bytes(n)


def _in_child(action, timeout=20.0) -> bytes:
    """Run action() in a forked child; return what it wrote (or b'ERR:...')."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        try:
            result = action()
        except BaseException as exc:  # report, never raise in the child
            result = f"ERR:{type(exc).__name__}: {exc}".encode()
        os.write(write_end, result)
        os._exit(0)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("forked child hung (deadlock?)")
        time.sleep(0.01)
    chunks = []
    while chunk := os.read(read_end, 1 << 16):
        chunks.append(chunk)
    os.close(read_end)
    return b"".join(chunks)


def _chunks16(data: bytes) -> set[bytes]:
    return {data[i:i + 16] for i in range(0, len(data) - 15, 16)}


@pytest.mark.parametrize("name", PRODUCTION)
def test_production_child_never_repeats_the_parent(name):
    generator = _production(name)
    generator.random_bytes(10)  # leave most of a batch buffered: the child must drop it
    child = _in_child(lambda: generator.random_bytes(8192) + generator.engine.seedings.to_bytes(1, "little"))
    child_output, child_seedings = child[:-1], child[-1]
    assert len(child_output) == 8192, child
    assert child_seedings == 2  # reseeded from the OS after the fork
    parent_output = generator.random_bytes(8192)
    assert generator.engine.seedings == 1
    assert not _chunks16(child_output) & _chunks16(parent_output)


@pytest.mark.parametrize("name", PRODUCTION)
def test_production_child_word_draws_differ_from_the_parent(name):
    # Scalar draws read words straight from the buffer (C inline fast path);
    # that path must notice the fork too.
    generator = _production(name)
    generator.integers(0, 37)  # a batch is now buffered

    def words():
        return b"".join(generator.integers(0, 2**32).to_bytes(4, "little") for _ in range(64))

    child = _in_child(words)
    assert len(child) == 256, child
    assert child != words()


@pytest.mark.parametrize("name", PRODUCTION)
def test_production_child_fails_closed_without_entropy(name):
    generator = _production(name)

    def draw():
        test_lib.rngtest_entropy_fail(1)
        return generator.random_bytes(16)

    assert _in_child(draw).startswith(b"ERR:EntropyError")
    assert len(generator.random_bytes(16)) == 16  # the parent is unaffected


@pytest.mark.parametrize("name", PRODUCTION)
def test_replay_generator_is_copied_as_is(name):
    generator, reference = _replay(name)
    generator.random_bytes(100)
    child_output = _in_child(lambda: generator.random_bytes(5000))
    assert child_output == generator.random_bytes(5000) == reference(5100)[100:]


@pytest.mark.parametrize("name", PRODUCTION)
def test_lock_held_at_fork_time_is_reset_in_the_child(name):
    generator = _production(name)
    with generator.lock:  # as if another thread were mid-draw when fork() ran
        child_output = _in_child(lambda: generator.random_bytes(32))
    assert len(child_output) == 32, child_output


def _hammer(generator, draws, sizes, results, start):
    start.wait()
    got = []
    for i in range(draws):
        n = sizes[i % len(sizes)]
        if i % 3 == 2:  # 4-byte raw words through the integer path
            got.append(generator.integers(0, 2**32, size=n // 4, dtype="uint32").tobytes())
        else:
            got.append(generator.random_bytes(n))
    results.append(got)


def _run_threads(generator, threads=8, draws=150, sizes=(16, 48, 4096, 32, 65536, 2032)):
    results, start = [], threading.Barrier(threads)
    workers = [threading.Thread(target=_hammer, args=(generator, draws, sizes, results, start))
               for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == threads
    return [out for got in results for out in got]


@pytest.mark.parametrize("name", PRODUCTION)
def test_eight_threads_never_receive_the_same_bytes_production(name):
    outputs = _run_threads(_production(name))
    chunks = [out[i:i + 16] for out in outputs for i in range(0, len(out), 16)]
    assert len(chunks) == len(set(chunks)) > 100_000


@pytest.mark.parametrize("name", PRODUCTION)
def test_eight_threads_tile_the_replay_keystream_exactly(name):
    generator, reference = _replay(name)
    outputs = _run_threads(generator)
    total = sum(map(len, outputs))
    assert generator.position == total
    keystream = reference(total)
    where = {keystream[i:i + 16]: i for i in range(0, total, 16)}
    assert len(where) == total // 16  # every 16-byte chunk of the prefix is distinct
    segments = sorted((where[out[:16]], out) for out in outputs)
    offset = 0
    for start, out in segments:  # each call got one contiguous piece, no gaps or overlaps
        assert start == offset and keystream[start:start + len(out)] == out
        offset += len(out)
    assert offset == total
