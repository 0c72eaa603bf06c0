"""The source of bits: the ChaCha20 engine, its seeding, state and streams.

:class:`ChaChaEngine` owns the C engine (``rng_chacha`` in
``csrc/core/chacha20.h``), its ``rng_source`` and the lock that serialises every
use of them.  Drawing (bytes, integers, floats) lives in
:mod:`rngcore.generator`; the only thing it uses from here is the source and
the lock.

Modes
-----
replay (``seed`` given)
    The output is exactly the ChaCha20 keystream for key = seed, 64-bit block
    counter from 0 in state words 12-13 and the 64-bit ``stream`` id in words
    14-15 (docs/audit_contract.md).  Anyone can reproduce it with any
    ChaCha20 implementation.
production (no seed)
    Key from the OS (getrandom); fast key erasure after every refill;
    reseeded from the OS after ``reseed_interval`` bytes and in a forked
    child.  If the OS cannot supply entropy an :class:`~rngcore.errors.EntropyError`
    is raised; there is no fallback.

Fork and threads
----------------
After ``os.fork()`` a production engine in the child reseeds from the OS
before its next output, so the child never repeats the parent's stream.  A
replay engine is copied as-is: parent and child continue the same keystream
from the same position (that is what replay means).  Every C call on an
engine happens under its ``lock`` (a ``threading.Lock``), so no two callers
ever receive the same bytes; cffi releases the GIL during the call, so large
requests do not block other Python threads.  In a forked child the locks are
re-initialised (a lock held by a parent thread at fork time would otherwise
never be released).
"""
from __future__ import annotations

import contextlib
import operator
import os
import threading
import weakref

from rngcore._native import ffi, lib
from rngcore.errors import raise_for_status

__all__ = ["ChaChaEngine", "DEFAULT_RESEED_INTERVAL", "count_arg", "locked_call", "parse_seed"]

DEFAULT_RESEED_INTERVAL = lib.RNG_CHACHA_DEFAULT_RESEED_INTERVAL  # 1 GiB
_U64 = 1 << 64

_live_engines: "weakref.WeakSet[ChaChaEngine]" = weakref.WeakSet()


def _reinit_locks_in_child() -> None:
    for engine in list(_live_engines):
        engine._reinit_lock_after_fork()


os.register_at_fork(after_in_child=_reinit_locks_in_child)


def parse_seed(seed) -> bytes:
    """A replay seed as 32 bytes.

    Parameters
    ----------
    seed : bytes-like or str
        32 bytes, or 64 hexadecimal digits.

    Raises
    ------
    ValueError
        If the seed is not 32 bytes / 64 hex digits.
    TypeError
        If the seed is neither a string nor bytes-like.
    """
    if isinstance(seed, str):
        text = seed.strip()
        if len(text) != 64:
            raise ValueError(f"seed must be 64 hex digits (32 bytes), got {len(text)} characters")
        try:
            return bytes.fromhex(text)
        except ValueError:
            raise ValueError(f"seed must be 64 hex digits (32 bytes), got non-hex text {seed!r}") from None
    if isinstance(seed, int):
        raise TypeError("seed must be 32 bytes or 64 hex digits, not an int (an int seed is too easy to get wrong)")
    try:
        raw = bytes(memoryview(seed))
    except TypeError:
        raise TypeError(f"seed must be 32 bytes or 64 hex digits, got {type(seed).__name__}") from None
    if len(raw) != 32:
        raise ValueError(f"seed must be 32 bytes (64 hex digits), got {len(raw)} bytes")
    return raw


def count_arg(value, what: str, name: str = "n") -> int:
    """``value`` as an int >= 0; TypeError / ValueError naming ``what`` and ``name``."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: {name} must be an integer, got {type(value).__name__}") from None
    if value < 0:
        raise ValueError(f"{what}: {name} must be >= 0, got {value}")
    return value


def locked_call(generator, function, *args, what: str) -> int:
    """Run C drawing code on a generator's bits, locked and checked.

    Calls ``function(source, *args)`` with the generator's :attr:`lock` held
    for the whole call (no other caller can take keystream in between), then
    checks the returned status with :func:`rngcore.errors.raise_for_status`.
    Every module that hands ``Generator.source`` to C (devices, games, slot)
    goes through here.

    Parameters
    ----------
    generator : rngcore.Generator, ChaChaEngine or rngcore.testing.TestEngine
        Anything with ``source`` and ``lock``.  A test engine (``source``
        and no ``lock``) is called without a lock: it is never shared.  A
        bare ``rng_source *`` is refused, so a caller cannot skip the lock
        by passing ``generator.source`` by mistake.
    function : cffi function
        Takes the ``rng_source *`` first; returns an ``RNG_*`` status.
    *args
        The remaining arguments of ``function``.
    what : str
        What was being drawn, for the exception message.

    Returns
    -------
    int
        The status (``RNG_OK``, or a non-negative value the function returns).

    Raises
    ------
    TypeError
        If ``generator`` offers no ``rng_source *``.
    rngcore.errors.RNGError, ValueError, MemoryError
        For a negative status (see :func:`~rngcore.errors.raise_for_status`).
    """
    source = getattr(generator, "source", None)
    if not isinstance(source, ffi.CData):
        raise TypeError(
            f"expected an rngcore.Generator (not a bare rng_source *), got {type(generator).__name__}"
        )
    with getattr(generator, "lock", None) or contextlib.nullcontext():
        status = function(source, *args)
    raise_for_status(status, what)
    return status


def _check_u64(name: str, value) -> int:
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None
    if not 0 <= value < _U64:
        raise ValueError(f"{name} must be in [0, 2**64), got {value}")
    return value


class ChaChaEngine:
    """The ChaCha20 bit source (see the module docstring for the modes).

    Parameters
    ----------
    seed : bytes-like or str, optional
        Replay mode: the 32-byte ChaCha20 key (or 64 hex digits).  Omit for
        production mode.
    stream : int, optional
        Replay mode: the 64-bit stream id (state words 14-15); default 0.
    reseed_interval : int, optional
        Production mode: bytes of output between OS reseeds (default 1 GiB).
    """

    def __init__(self, seed=None, stream=None, *, reseed_interval=None):
        self._state = ffi.new("rng_chacha *")
        self._source = ffi.new("rng_source *")
        self._lock = threading.Lock()
        if seed is None:
            if stream not in (None, 0):
                raise ValueError("stream applies to replay mode only; pass seed= as well")
            interval = DEFAULT_RESEED_INTERVAL if reseed_interval is None else _check_u64(
                "reseed_interval", reseed_interval)
            if interval == 0:
                raise ValueError("reseed_interval must be >= 1 byte, got 0")
            self._seed = None
            self._stream = None
            status = lib.rng_chacha_init_production(self._state, interval)
        else:
            if reseed_interval is not None:
                raise ValueError("reseed_interval applies to production mode only (no seed)")
            self._seed = parse_seed(seed)
            self._stream = _check_u64("stream", 0 if stream is None else stream)
            status = lib.rng_chacha_init_replay(self._state, self._seed, self._stream)
        lib.rng_chacha_source(self._state, self._source)
        weakref.finalize(self, lib.rng_chacha_wipe, self._state)
        raise_for_status(status, "Generator")
        _live_engines.add(self)

    # -- what the drawing side uses ------------------------------------------

    @property
    def source(self):
        """The ``rng_source *`` that C drawing code reads bits through.

        Valid while this engine is alive.  Hold :attr:`lock` for the whole
        C call, then check the returned status (or ``source.status``) with
        :func:`rngcore.errors.raise_for_status`.
        """
        return self._source

    @property
    def lock(self) -> threading.Lock:
        """The lock every use of :attr:`source` must hold."""
        return self._lock

    # -- readouts -------------------------------------------------------------

    @property
    def mode(self) -> str:
        """``"replay"`` or ``"production"``."""
        return "production" if self._seed is None else "replay"

    @property
    def seed(self) -> bytes | None:
        """Replay mode: the 32-byte key; production: None (the key never leaves C)."""
        return self._seed

    @property
    def stream(self) -> int | None:
        """Replay mode: the 64-bit stream id; production: None."""
        return self._stream

    @property
    def position(self) -> int | None:
        """Replay mode: bytes of keystream consumed so far; production: None."""
        if self._seed is None:
            return None
        with self._lock:
            return int(lib.rng_chacha_position(self._state))

    @property
    def status(self) -> int:
        """0 (``RNG_OK``) or the latched negative ``RNG_E_*`` status."""
        return int(self._state.status)

    @property
    def seedings(self) -> int:
        """Production mode: how many times the key was drawn from the OS."""
        return int(self._state.seedings)

    @property
    def reseed_interval(self) -> int | None:
        """Production mode: bytes of output between OS reseeds."""
        return int(self._state.reseed_interval) if self._seed is None else None

    # -- state changes ----------------------------------------------------------

    def fill_pointer(self, pointer, nbytes: int, what: str = "fill") -> None:
        """Write the next ``nbytes`` of output to a cffi pointer (lock held inside)."""
        with self._lock:
            status = lib.rng_chacha_fill(self._state, pointer, nbytes)
        raise_for_status(status, what)

    def seek(self, position: int) -> None:
        """Replay mode: continue from byte ``position`` of the keystream."""
        if self._seed is None:
            raise ValueError("seek applies to replay mode only (production output cannot be replayed)")
        position = _check_u64("position", position)
        with self._lock:
            status = lib.rng_chacha_seek(self._state, position)
        raise_for_status(status, "seek")

    def spawn(self, n: int) -> list["ChaChaEngine"]:
        """``n`` independent child engines.

        Replay mode: the children's seeds are the next ``32 * n`` bytes of
        this engine's keystream, child ``i`` taking bytes ``[32 i, 32 i + 32)``,
        each with stream 0.  This advances this engine by ``32 * n`` bytes;
        it is reproducible by anyone holding the parent's seed, stream and
        position.  Production mode: each child has a fresh OS key.
        """
        n = count_arg(n, "spawn(n)")
        if self._seed is None:
            return [ChaChaEngine(reseed_interval=int(self._state.reseed_interval)) for _ in range(n)]
        keys = bytearray(32 * n)
        if n:
            self.fill_pointer(ffi.from_buffer(keys), len(keys), "spawn")
        return [ChaChaEngine(bytes(keys[32 * i:32 * i + 32]), 0) for i in range(n)]

    def _reinit_lock_after_fork(self) -> None:
        reinit = getattr(self._lock, "_at_fork_reinit", None)
        if reinit is not None:
            reinit()  # keep the lock object: others (numpy interop) hold it
        else:  # pragma: no cover - CPython has had _at_fork_reinit since 3.9
            self._lock = threading.Lock()

    def __repr__(self) -> str:
        if self._seed is None:
            return f"ChaChaEngine(mode='production', reseed_interval={int(self._state.reseed_interval)})"
        # Read without the lock: repr must work inside `with engine.lock:`.
        position = int(lib.rng_chacha_position(self._state))
        return f"ChaChaEngine(mode='replay', stream={self._stream}, position={position})"
