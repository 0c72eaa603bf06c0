"""The test layer (``rngcore._testing``, ``csrc/testing/``): test sources and faults.

Never imported by production code.

Drawing code in C takes an ``rng_source *``; a :class:`TestEngine` is a
source whose every output is known, so the code's results can be counted
over *all* possible inputs instead of sampled.  One engine, two layouts:

* byte stream (the core's bias proof): ``next32`` / ``next64`` / ``fill`` read
  one byte stream, 4 / 8 bytes little-endian or n bytes;

  - ``TestEngine.enumerate(w)``: the little-endian encodings of the w-bit
    words ``0, 1, ..., 2**w - 1`` (w = 8, 16, 24, 32), each exactly once;
  - ``TestEngine.from_bytes(data)``: any byte string, replayed once;

* left-aligned words (the devices' and games' proofs):
  ``TestEngine.from_words(words, bits)`` replays ``bits``-bit words, each
  ``next64`` returning the next one shifted to the top of a 64-bit word
  (``y << (64 - bits)``), the reduced-width input of ``csrc/core/shuffle.h``;
  ``fill`` fails with ``RNG_E_ARGUMENT`` (those proofs read words only).

Reading past the end latches ``RNG_E_EXHAUSTED``; the missing bytes / words
read as all ones (which every bounded routine accepts at once, so no
rejection loop can spin).  A test engine is a
:class:`~rngcore.engine.BitSource` like any engine (``Generator(engine)``
draws from it), but is not in the engine registry: it replays given data
and has no seed.

:func:`bounded_histogram` runs the shipped bounded-integer routines
(``csrc/core/bounded.h``, the one definition generating widths 8/16/32/64)
on a source until it is exhausted and counts each value.

Fault injection (``csrc/testing/fault_plans.h``): importing this module
installs the test layer's fault table in the core (``csrc/core/faults.h``,
which passes every read through until a plan is set); :data:`test_lib`
sets plans, e.g. ``test_lib.rngtest_entropy_fail(1)`` or
``test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_ZERO, 0, 0)``, and
:func:`entropy_fault` (any read fault), :func:`entropy_failure` (every read
fails), :func:`entropy_tamper` (stuck, repeating or biased OS bytes, for
the SP 800-90B health tests), :func:`output_tamper` (an engine repeating an
output block, for the continuous test) and :func:`selftest_failure` hold one for a block;
:func:`failed_selftest` holds a self-test run that has failed.
"""
from __future__ import annotations

import contextlib
import operator

import numpy as np

from rngcore._native import ffi, lib, load_layer
from rngcore.engine import BitSource
from rngcore.errors import raise_for_status

__all__ = ["KEYSTREAM_PATHS", "TestEngine", "available_keystream_paths", "bounded_histogram", "entropy_failure", "entropy_fault", "entropy_tamper", "failed_selftest",
           "keystream_impl", "output_tamper", "selftest_failure", "test_ffi", "test_lib", "TEST_BUILD_INFO"]

test_ffi, test_lib, TEST_BUILD_INFO = load_layer("testing")
lib.rng_faults_install(test_lib.rngtest_faults())


class TestEngine(BitSource):
    """A finite, fully known ``rng_source`` (use the class methods)."""

    __test__ = False  # not a pytest test class
    name = "test"
    summary = "finite known data (exhaustive proofs); not a registered engine"
    has_production = False

    def __init__(self, _token=None):
        if _token is not _PRIVATE:
            raise TypeError("use TestEngine.enumerate(width), TestEngine.from_bytes(data) "
                            "or TestEngine.from_words(words, bits)")
        self._state = test_ffi.new("rngtest_engine *")
        self._source = ffi.new("rng_source *")
        self._data = None  # the replayed buffer, kept alive with the engine
        self._init_lock()

    def _attach(self, status: int) -> "TestEngine":
        raise_for_status(status, "TestEngine")
        test_lib.rngtest_engine_source(self._state, self._source)
        return self

    @classmethod
    def enumerate(cls, width: int) -> "TestEngine":
        """Every ``width``-bit word once, in increasing order (width 8, 16, 24 or 32)."""
        engine = cls(_PRIVATE)
        if width not in (8, 16, 24, 32):
            raise ValueError(f"width must be one of 8, 16, 24, 32, got {width!r}")
        return engine._attach(test_lib.rngtest_engine_init_enumerate(engine._state, width))

    @classmethod
    def from_bytes(cls, data) -> "TestEngine":
        """Replay ``data`` (bytes-like) once, as a byte stream."""
        engine = cls(_PRIVATE)
        engine._data = ffi.from_buffer(bytes(data))
        return engine._attach(test_lib.rngtest_engine_init(engine._state, engine._data, len(engine._data)))

    @classmethod
    def from_words(cls, words, bits: int) -> "TestEngine":
        """Replay ``bits``-bit ``words`` once, one left-aligned word per ``next64``
        (``bits`` in 1..64, every word in ``[0, 2**bits)``)."""
        engine = cls(_PRIVATE)
        if not 1 <= bits <= 64:
            raise ValueError(f"bits must be in 1..64, got {bits!r}")
        words = list(words)
        if any(not 0 <= w < 1 << bits for w in words):
            raise ValueError(f"every word must be in [0, 2**{bits}), got {words}")
        engine._data = ffi.new("uint64_t[]", words or 1)
        return engine._attach(test_lib.rngtest_engine_init_words(engine._state, engine._data, len(words), bits))

    @property
    def mode(self) -> str:
        """``"test"``: neither replay nor production."""
        return "test"

    def _position_unlocked(self) -> int:
        return self.consumed

    @property
    def consumed(self) -> int:
        """Units read so far: bytes (byte stream) or words (left-aligned)."""
        return int(self._state.offset)

    @property
    def length(self) -> int:
        """Units in the stream: bytes (byte stream) or words (left-aligned)."""
        return int(self._state.length)

    @property
    def exhausted(self) -> bool:
        """True once a read went past the end."""
        return self._state.status == lib.RNG_E_EXHAUSTED


_PRIVATE = object()


def bounded_histogram(source, width: int, n: int, *, batch: bool = False,
                      batch_size: int = 1) -> tuple[np.ndarray, int]:
    """Count the outputs of the ``width``-bit bounded routine for ``[0, n)``.

    Runs ``rng_bounded_max<width>`` (or its batch form, ``batch_size`` values
    per call) on ``source`` until the source fails, counting every value
    produced before the failure.

    Returns
    -------
    counts : numpy.ndarray of uint64, shape (n,)
    produced : int
    """
    n = operator.index(n)
    if width not in (8, 16, 32, 64):
        raise ValueError(f"width must be one of 8, 16, 32, 64, got {width!r}")
    if not 2 <= n <= 1 << width:
        raise ValueError(f"n must be in [2, 2**{width}], got {n}")
    counts = np.zeros(n, np.uint64)
    produced = ffi.new("uint64_t *")
    status = test_lib.rngtest_bounded_histogram(source, width, n - 1, int(batch), batch_size,
                                             ffi.from_buffer("uint64_t[]", counts), produced)
    raise_for_status(status, "bounded_histogram")
    return counts, int(produced[0])


# The ChaCha20 keystream paths by name (rng_chacha20_impl_name).
KEYSTREAM_PATHS = {
    "portable": lib.RNG_CHACHA_IMPL_PORTABLE,
    "avx2": lib.RNG_CHACHA_IMPL_AVX2,
    "avx512": lib.RNG_CHACHA_IMPL_AVX512,
}


def available_keystream_paths() -> list[str]:
    """The keystream paths this CPU and build can run, portable first."""
    have = {"portable": True, "avx2": lib.rng_cpu_has_avx2(), "avx512": lib.rng_cpu_has_avx512()}
    return [name for name in KEYSTREAM_PATHS if have[name]]


@contextlib.contextmanager
def keystream_impl(name: str):
    """Dispatch the ChaCha20 keystream to one path ("portable", "avx2" or
    "avx512") inside the ``with`` block (process-wide; for tests and benchmarks)."""
    impl = KEYSTREAM_PATHS.get(name)
    if impl is None:
        raise ValueError(f"keystream path must be one of {', '.join(map(repr, KEYSTREAM_PATHS))}, got {name!r}")
    previous = lib.rng_chacha_get_impl()
    if lib.rng_chacha_set_impl(impl) != lib.RNG_OK:
        raise ValueError(f"keystream path {name!r} is not available on this CPU/build")
    try:
        yield
    finally:
        lib.rng_chacha_set_impl(previous)


_READ_FAULTS = {
    "fail": test_lib.RNGTEST_READ_FAIL,
    "empty": test_lib.RNGTEST_READ_ZERO,
    "short": test_lib.RNGTEST_READ_SHORT,
    "eintr": test_lib.RNGTEST_READ_EINTR,
}


@contextlib.contextmanager
def entropy_fault(kind: str, *, after: int = 0, count: int = 0, limit: int = 1):
    """OS entropy reads misbehave inside the block (process-wide), pass after.

    Parameters
    ----------
    kind : {"fail", "empty", "short", "eintr"}
        What a faulted read reports: an error (EIO), 0 bytes, a short read of
        at most ``limit`` real OS bytes, or an interruption by a signal
        (EINTR).  No fault supplies bytes of its own, so none can weaken a key.
    after : int
        Reads that pass first ("failure after N reads").
    count : int
        Faulted reads after those, then reads pass again; 0 (default): all.
    limit : int
        The size of a ``"short"`` read.

    Yields
    ------
    callable
        Returns the OS reads attempted since the block began.
    """
    mode = _READ_FAULTS.get(kind)
    if mode is None:
        raise ValueError(f"entropy fault must be one of {', '.join(_READ_FAULTS)}, got {kind!r}")
    for name, value in (("after", after), ("count", count), ("limit", limit)):
        if operator.index(value) < 0:
            raise ValueError(f"{name} must be >= 0, got {value!r}")
    test_lib.rngtest_entropy_plan(mode, after, limit)
    test_lib.rngtest_entropy_plan_count(count)
    try:
        yield test_lib.rngtest_entropy_reads
    finally:
        test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_PASS, 0, 0)


_TAMPERS = {
    "stuck": test_lib.RNGTEST_TAMPER_STUCK,
    "repeat": test_lib.RNGTEST_TAMPER_REPEAT,
    "biased": test_lib.RNGTEST_TAMPER_BIASED,
}


@contextlib.contextmanager
def entropy_tamper(kind: str, *, value: int = 0, run: int = 4, after: int = 0):
    """The bytes the OS delivers are rewritten inside the block (process-wide):
    a broken noise source, for the SP 800-90B health tests (``csrc/core/health.h``).

    Parameters
    ----------
    kind : {"stuck", "repeat", "biased"}
        Every byte is ``value``; each delivered byte is repeated to ``run``
        bytes; or two of every three bytes are ``value`` and the third never
        is (one value in two thirds of the samples, never three in a row).
    value, run : int
        The stuck / biased byte, and the length of a repeat.
    after : int
        Delivered bytes that pass unchanged first (counted across reads).

    Yields
    ------
    callable
        Returns the bytes rewritten since the block began.
    """
    mode = _mode("entropy tamper", _TAMPERS, kind)
    if not 0 <= operator.index(value) <= 255 or operator.index(run) < 1 or operator.index(after) < 0:
        raise ValueError(f"need 0 <= value <= 255, run >= 1 and after >= 0, got {value}, {run}, {after}")
    with _held(lambda: test_lib.rngtest_entropy_tamper(mode, value, run, after),
               lambda: test_lib.rngtest_entropy_tamper(test_lib.RNGTEST_TAMPER_NONE, 0, 1, 0)):
        yield test_lib.rngtest_entropy_tampered


def _mode(what: str, modes: dict, kind: str) -> int:
    """The C plan mode of ``kind``; ValueError naming the valid ones."""
    if kind not in modes:
        raise ValueError(f"{what} must be one of {', '.join(modes)}, got {kind!r}")
    return modes[kind]


@contextlib.contextmanager
def _held(start, stop):
    """A fault plan set by ``start()`` for the block, ended by ``stop()`` however it exits."""
    start()
    try:
        yield
    finally:
        stop()


_OUTPUT_TAMPERS = {
    "repeat-inside": test_lib.RNGTEST_OUTPUT_REPEAT_INSIDE,
    "repeat-across": test_lib.RNGTEST_OUTPUT_REPEAT_ACROSS,
    "repeat-across-2": test_lib.RNGTEST_OUTPUT_ACROSS_2,
    "second-across": test_lib.RNGTEST_OUTPUT_SECOND_ACROSS,
    "unit-across": test_lib.RNGTEST_OUTPUT_UNIT_ACROSS,
}


@contextlib.contextmanager
def output_tamper(kind: str, *, block: int, after: int = 0):
    """Batches of production output are rewritten inside the block (process-wide),
    just before the continuous test sees them (``csrc/core/continuous.h``): a stuck engine.

    Parameters
    ----------
    kind : {"repeat-inside", "repeat-across", "repeat-across-2", "second-across", "unit-across"}
        A batch's second block becomes a copy of its first; its first block
        a copy of the previous batch's last, or of the one before that; its
        second block a copy of the previous batch's last; or its first two
        blocks copies of the previous batch's last two (a repeated 64-byte
        unit across the border, in which no block equals its neighbour).
    block : int
        The continuous test's block in bytes (``lib.RNG_CONTINUOUS_BLOCK``, 32,
        for every engine; a smaller one repeats inside a block).
    after : int
        Batches that pass unchanged first.

    Yields
    ------
    callable
        Returns the batches rewritten since the block began.
    """
    mode = _mode("output tamper", _OUTPUT_TAMPERS, kind)
    if not 1 <= operator.index(block) <= 64 or operator.index(after) < 0:
        raise ValueError(f"need 1 <= block <= 64 and after >= 0, got {block}, {after}")
    with _held(lambda: test_lib.rngtest_output_tamper(mode, block, after),
               lambda: test_lib.rngtest_output_tamper(test_lib.RNGTEST_OUTPUT_NONE, 32, 0)):
        yield test_lib.rngtest_output_tampered


def entropy_failure():
    """Every OS entropy read fails inside the block (and passes again after)."""
    return entropy_fault("fail")


@contextlib.contextmanager
def selftest_failure():
    """Every self-test run inside the block sees a corrupted keystream bit."""
    test_lib.rngtest_selftest_fail(1)
    try:
        yield
    finally:
        test_lib.rngtest_selftest_fail(0)


@contextlib.contextmanager
def failed_selftest():
    """Inside the block the power-on self-test has run and failed (on a
    corrupted keystream bit); on exit it runs again and must pass.

    Generators alive when it failed stay failed (docs/audit_contract.md).
    """
    runs = (lib.rng_chacha_selftest_run, lib.rng_drbg_selftest_run)  # every engine's self-test in C
    with selftest_failure():
        if any(run() != lib.RNG_E_SELFTEST for run in runs):
            raise AssertionError("the injected fault did not fail the self-test")
        try:
            yield
        finally:
            test_lib.rngtest_selftest_fail(0)
            if any(run() != lib.RNG_OK for run in runs):
                raise AssertionError("the self-test fails with no fault injected")
