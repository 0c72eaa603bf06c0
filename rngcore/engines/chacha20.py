"""The ChaCha20 engine: seeding, state and streams (``csrc/core/chacha20.h``).

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
engine happens under its ``lock``; cffi releases the GIL during the call,
so large requests do not block other Python threads.
"""
from __future__ import annotations

import weakref

from rngcore._native import ffi, lib
from rngcore.engine import Check, check_u64, count_arg, parse_seed, warn_if_trivial
from rngcore.engines._c_engine import CEngine
from rngcore.errors import raise_for_status

__all__ = ["ChaChaEngine", "DEFAULT_RESEED_INTERVAL", "ENGINES", "active_path"]

DEFAULT_RESEED_INTERVAL = lib.RNG_CHACHA_DEFAULT_RESEED_INTERVAL  # 1 GiB


def active_path() -> str:
    """The keystream path the engine dispatches to: ``"portable"``, ``"avx2"`` or ``"avx512"``."""
    return ffi.string(lib.rng_chacha20_impl_name()).decode()


class ChaChaEngine(CEngine):
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

    _c_fill = lib.rng_chacha_fill
    _c_position = lib.rng_chacha_position
    name = "chacha20"
    summary = "ChaCha20 (20 rounds), key = seed, 64-bit counter and 64-bit stream id (RFC 8439 block function)"
    seed_help = "64 hex digits: the 32-byte ChaCha20 key"
    seed_bytes = 32
    has_streams = True

    def __init__(self, seed=None, stream=None, *, reseed_interval=None):
        self._state = ffi.new("rng_chacha *")
        self._source = ffi.new("rng_source *")
        self._init_lock()
        if seed is None:
            if stream not in (None, 0):
                raise ValueError("stream applies to replay mode only; pass seed= as well")
            interval = DEFAULT_RESEED_INTERVAL if reseed_interval is None else check_u64(
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
            self._stream = check_u64("stream", 0 if stream is None else stream)
            warn_if_trivial(self._seed)
            status = lib.rng_chacha_init_replay(self._state, self._seed, self._stream)
        lib.rng_chacha_source(self._state, self._source)
        weakref.finalize(self, lib.rng_chacha_wipe, self._state)
        raise_for_status(status, "Generator")

    @classmethod
    def known_answers(cls) -> list[Check]:
        """RFC 8439 vectors on every keystream path, the power-on self-test
        and the stability pin (:mod:`rngcore.engines._chacha20_kat`)."""
        from rngcore.engines import _chacha20_kat

        return _chacha20_kat.known_answers()

    # -- readouts -----------------------------------------------------------------

    def epoch(self) -> tuple[int, int] | None:
        """Production mode: (OS seedings so far, bytes handed out since the last one); replay: None.

        Read from the state without a C change: the C engine counts the bytes
        it generated for output since the last seeding (``since_reseed``) and
        drops unread output only at a seeding, so the bytes handed out since
        then are ``since_reseed`` less what is still unread in the buffer.
        """
        if self._seed is not None:
            return None
        with self._lock:
            state = self._state
            return int(state.seedings), int(state.since_reseed) - (len(state.buf) - int(state.pos))

    @property
    def reseed_interval(self) -> int | None:
        """Production mode: bytes of output between OS reseeds."""
        return int(self._state.reseed_interval) if self._seed is None else None

    # -- state changes --------------------------------------------------------------

    def seek(self, position: int) -> None:
        """Replay mode: continue from byte ``position`` of the keystream."""
        if self._seed is None:
            raise ValueError("seek applies to replay mode only (production output cannot be replayed)")
        position = check_u64("position", position)
        with self._lock:
            status = lib.rng_chacha_seek(self._state, position)
        raise_for_status(status, "seek")

    def reseed(self, additional_input=b"") -> None:
        """Production mode: key ^= 32 fresh OS bytes now; buffered output is
        dropped, so nothing generated before the reseed is handed out after
        it (a per-game reseed).  ChaCha20 takes no additional input."""
        if self._seed is not None:
            raise ValueError("reseed applies to production mode only (replay has no entropy to reseed with)")
        if additional_input:
            raise ValueError("the chacha20 engine takes no additional input (SP 800-90A engines do)")
        with self._lock:
            status = lib.rng_chacha_reseed(self._state)
        raise_for_status(status, "reseed")

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

    def __repr__(self) -> str:
        if self._seed is None:
            return f"ChaChaEngine(mode='production', reseed_interval={int(self._state.reseed_interval)})"
        # Read without the lock: repr must work inside `with engine.lock:`.
        return f"ChaChaEngine(mode='replay', stream={self._stream}, position={self._position_unlocked()})"


ENGINES = [ChaChaEngine]
