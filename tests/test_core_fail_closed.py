"""Failing closed, on every path: OS entropy faults (injected with
``rngcore.testing.entropy_fault``) never hang and never yield output; a
failed self-test stops every generator at once; a failed ``fill`` leaves
nothing of the request in the caller's buffer."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rngcore
from rngcore import ffi, lib
from rngcore.devices import device_spec, fresh_shoes
from rngcore.numpy_interop import ChaChaBitGenerator
from rngcore.testing import entropy_fault, failed_selftest

KEY_BYTES = 32  # one OS seeding reads 32 bytes
MAX_EMPTY = lib.RNG_ENTROPY_MAX_EMPTY
MAX_INTERRUPTS = lib.RNG_ENTROPY_MAX_INTERRUPTS


@pytest.fixture(autouse=True)
def _startup_test_done():
    """The read counts below are an engine's own: the SP 800-90B start-up
    test (its own OS reads, due at a process's first read and after a health
    failure) has run before each test."""
    assert lib.rng_entropy_fill(ffi.new("uint8_t[32]"), 32) == lib.RNG_OK


def _construct_under(kind, **plan) -> tuple[object, int]:
    """Generator() under an entropy fault: the generator or the error, and
    the OS reads it attempted."""
    with entropy_fault(kind, **plan) as reads:
        try:
            return rngcore.Generator(), reads()
        except rngcore.EntropyError as error:
            return error, reads()


# -- entropy: bounded retries ---------------------------------------------------

_HANG_SCRIPT = """
import rngcore
from rngcore.testing import entropy_fault
with entropy_fault({kind!r}):
    try:
        rngcore.Generator()
    except rngcore.EntropyError:
        print("EntropyError")
"""


@pytest.mark.parametrize("kind", ["empty", "eintr", "fail"])
def test_an_os_that_never_delivers_fails_closed_without_hanging(kind):
    # In a child process with a timeout: before the retries were bounded a
    # getrandom returning 0 made Generator() spin forever.
    proc = subprocess.run([sys.executable, "-c", _HANG_SCRIPT.format(kind=kind)],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "EntropyError"


@pytest.mark.parametrize("kind, calls", [("empty", 1 + MAX_EMPTY), ("eintr", 1 + MAX_INTERRUPTS), ("fail", 1)])
def test_retries_are_bounded(kind, calls):
    result, made = _construct_under(kind)
    assert isinstance(result, rngcore.EntropyError), result
    assert made == calls


@pytest.mark.parametrize("kind, tolerated", [("empty", MAX_EMPTY), ("eintr", MAX_INTERRUPTS)])
def test_a_passing_fault_is_retried_and_one_more_is_not(kind, tolerated):
    result, made = _construct_under(kind, count=tolerated)
    assert isinstance(result, rngcore.Generator) and made == tolerated + 1
    assert len(result.random_bytes(64)) == 64
    result, made = _construct_under(kind, count=tolerated + 1)
    assert isinstance(result, rngcore.EntropyError) and made == tolerated + 1


def test_short_reads_are_continued():
    result, made = _construct_under("short")
    assert isinstance(result, rngcore.Generator)
    assert made == KEY_BYTES  # one real byte per call
    assert result.random_bytes(64) != rngcore.Generator().random_bytes(64)


def test_failure_after_n_calls_hits_the_reseed():
    with entropy_fault("fail", after=1):
        generator = rngcore.Generator(reseed_interval=100)  # call 1: fine
        generator.random_bytes(100)
        with pytest.raises(rngcore.EntropyError):
            generator.random_bytes(100)  # the reseed is call 2
        with pytest.raises(rngcore.EntropyError):
            rngcore.Generator()
    with pytest.raises(rngcore.EntropyError):
        generator.random_bytes(1)  # latched
    assert len(rngcore.Generator().random_bytes(8)) == 8


def test_unknown_fault_is_refused():
    with pytest.raises(ValueError, match="fail, empty, short, eintr"):
        with entropy_fault("slow"):
            pass


# -- a failed self-test stops every path at once ----------------------------------

def _draws(g):
    """Every kind of draw a caller has, each as a thunk."""
    return {
        "random_bytes": lambda: g.random_bytes(1),
        "fill": lambda: g.fill(bytearray(4)),
        "integers": lambda: g.integers(0, 37),
        "integers-64": lambda: g.integers(0, 2**40),
        "integers-array": lambda: g.integers(0, 37, size=3),
        "random": lambda: g.random(),
        "random-array": lambda: g.random(size=3),
        "shoe": lambda: fresh_shoes(g, 1, 1),
        "shuffle": lambda: g.shuffle(np.arange(10)),
        "permutation": lambda: g.permutation(10),
        "choice": lambda: g.choice(37),
        "uniform": lambda: g.uniform(),
        "device": lambda: device_spec("roulette-single").draw(g, 1),
        "numpy": lambda: ChaChaBitGenerator(g),
        "spawn": lambda: g.spawn(1),
    }


@pytest.mark.parametrize("kind", sorted(_draws(None)))
@pytest.mark.parametrize("mode", ["replay", "production"])
def test_a_failed_selftest_refuses_the_next_draw_of_every_generator(mode, kind):
    g = rngcore.Generator(bytes(32), 5) if mode == "replay" else rngcore.Generator()
    g.integers(0, 37)  # the buffer holds ~8 KB of unread output now
    with failed_selftest():
        with pytest.raises(rngcore.SelfTestError):
            _draws(g)[kind]()
        # Refused by every other path too; latched, with key and buffer wiped.
        for other, draw in _draws(g).items():
            with pytest.raises(rngcore.SelfTestError):
                draw()
        assert g.engine._state.status == lib.RNG_E_SELFTEST
        assert bytes(ffi.buffer(g.engine._state.buf)) == bytes(lib.RNG_CHACHA_BUF_BYTES)
        assert bytes(ffi.buffer(g.engine._state.key)) == bytes(32)
    # An engine alive at the failure stays failed after a passing re-run.
    with pytest.raises(rngcore.SelfTestError):
        g.random_bytes(1)
    assert len(rngcore.Generator().random_bytes(8)) == 8


def test_an_idle_generator_alive_at_a_failure_stays_failed():
    g = rngcore.Generator(bytes(32))
    g.random_bytes(1)
    with failed_selftest():
        pass  # g draws nothing while the self-test is failed
    with pytest.raises(rngcore.SelfTestError):
        g.integers(0, 37)


def test_scalar_draws_stop_at_once_not_after_the_buffer():
    # Before the fix the inline word readers served the ~500 buffered words.
    g = rngcore.Generator()
    g.integers(0, 37)
    with failed_selftest():
        served = 0
        for _ in range(600):
            try:
                g.integers(0, 37)
            except rngcore.SelfTestError:
                break
            served += 1
    assert served == 0


_NUMPY_SELFTEST_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import rngcore
    from rngcore import lib
    from rngcore.numpy_interop import ChaChaBitGenerator
    from rngcore.testing import test_lib
    rng = np.random.Generator(ChaChaBitGenerator(rngcore.Generator()))
    rng.integers(0, 37)
    test_lib.rngtest_selftest_fail(1)
    assert lib.rng_chacha_selftest_run() == lib.RNG_E_SELFTEST
    values = rng.{draw}
    sys.stdout.write("numpy returned " + repr(values))
""")


@pytest.mark.parametrize("draw", ["integers(0, 37)", "random()", "standard_normal(3)"])
def test_a_failed_selftest_stops_a_numpy_generator_at_its_next_draw(draw):
    # numpy cannot be told of a failure, so the process ends (abort) before
    # numpy returns a single value.
    proc = subprocess.run([sys.executable, "-c", _NUMPY_SELFTEST_SCRIPT.format(draw=draw)],
                          capture_output=True, timeout=120)
    assert proc.returncode != 0
    assert b"numpy returned" not in proc.stdout


# -- fill leaves nothing of a failed request ---------------------------------------

@pytest.mark.parametrize("size", [100, 3000, 8192, 200_000])
def test_a_failed_fill_leaves_the_buffer_zero(size):
    g = rngcore.Generator(reseed_interval=64)
    g.random_bytes(1)
    buf = bytearray(b"\xaa" * size)
    with entropy_fault("fail"):
        with pytest.raises(rngcore.EntropyError):
            g.fill(buf)  # the reseed due after 64 bytes fails part-way
    assert buf == bytes(size)


def test_a_fill_refused_at_once_leaves_the_buffer_zero():
    g = rngcore.Generator()
    with failed_selftest():
        array = np.full(1000, 7, np.uint32)
        with pytest.raises(rngcore.SelfTestError):
            g.fill(array)
    assert not array.any()
