"""The bit-source side: what every engine is, and what it reports.

numpy keeps its ``BitGenerator`` (seeding, state, streams) apart from its
``Generator`` (what is drawn).  rngcore does the same: an engine is a
:class:`BitSource`, and :class:`rngcore.Generator` draws from any of them
through the one C seam, ``rng_source`` (``csrc/core/rng_source.h``).  The drawing
side uses only :attr:`BitSource.source`, :attr:`BitSource.lock` and
:meth:`BitSource.fill_pointer`; it never reads an engine's state.

An engine subclass declares, as class attributes, its registry ``name``,
a one-line ``summary``, its replay seed format (``seed_help``, parsed by
:meth:`BitSource.parse_seed`) and whether it has stream ids; its
constructor takes ``(seed=None, stream=None)`` (no seed: production mode,
seeded from the OS); :meth:`BitSource.known_answers` returns the checks
``rngcert selftest`` runs.  :mod:`rngcore.engines` discovers and registers
them.

Provenance and the seed policy
------------------------------
Every report names its generator with :meth:`BitSource.provenance`: the
engine, the mode, the stream, the position, and a *fingerprint* of a replay
seed (the first 16 hex digits of its SHA-256), never the seed itself unless
the caller asks (``show_seed=True``; ``--show-seed`` on the command line).
A replay seed is the key of every outcome it produced: until the audit it
is as secret as a production key, and a report is often shared before then.
The fingerprint lets anyone holding the seed confirm it is the one used.

A replay seed with fewer than :data:`MIN_DISTINCT_SEED_BYTES` distinct byte
values (all zero, ``0101...``) is accepted, since tests and worked examples
use such seeds, but it warns once per process (:class:`TrivialSeedWarning`):
nobody should mistake it for a key.
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import hashlib
import operator
import os
import threading
import warnings
import weakref
from typing import ClassVar

from rngcore._native import ffi
from rngcore.errors import raise_for_status

__all__ = [
    "BitSource", "Check", "MIN_DISTINCT_SEED_BYTES", "Provenance", "TrivialSeedWarning",
    "count_arg", "locked_call", "parse_hex_seed", "parse_seed", "seed_fingerprint", "warn_if_trivial",
]

_U64 = 1 << 64

MIN_DISTINCT_SEED_BYTES = 4
"""A replay seed with fewer distinct byte values than this is trivial (warns)."""


class TrivialSeedWarning(UserWarning):
    """A replay seed with almost no variety (all zero, or 2-3 byte values)."""


_warned_trivial = False
_known_answer_seeds = contextvars.ContextVar("known_answer_seeds", default=False)


@contextlib.contextmanager
def known_answer_seeds():
    """Inside this block trivial seeds do not warn: published test vectors
    (RFC 8439's all-zero keys) are trivial on purpose."""
    token = _known_answer_seeds.set(True)
    try:
        yield
    finally:
        _known_answer_seeds.reset(token)


def warn_if_trivial(seed: bytes) -> None:
    """Warn once per process if ``seed`` has fewer than
    :data:`MIN_DISTINCT_SEED_BYTES` distinct byte values (see the module
    docstring); such a seed stays usable."""
    global _warned_trivial
    if _warned_trivial or _known_answer_seeds.get() or len(set(seed)) >= MIN_DISTINCT_SEED_BYTES:
        return
    _warned_trivial = True
    warnings.warn(TrivialSeedWarning(
        f"the replay seed with fingerprint {seed_fingerprint(seed)} has only {len(set(seed))} distinct "
        f"byte value(s): fine for tests and examples, never a key for real outcomes"), stacklevel=3)


def seed_fingerprint(seed: bytes) -> str:
    """The first 16 hex digits of SHA-256(seed): names a seed without revealing it."""
    return hashlib.sha256(bytes(seed)).hexdigest()[:16]


def parse_hex_seed(seed, nbytes: int) -> bytes:
    """A replay seed of ``nbytes`` bytes, given as bytes-like or ``2 * nbytes`` hex digits.

    Raises
    ------
    ValueError
        If the seed has the wrong length or is not hex.
    TypeError
        If the seed is neither a string nor bytes-like (an int is refused:
        too easy to get wrong).
    """
    digits = 2 * nbytes
    if isinstance(seed, str):
        text = seed.strip()
        if len(text) != digits:
            raise ValueError(f"seed must be {digits} hex digits ({nbytes} bytes), got {len(text)} characters")
        try:
            return bytes.fromhex(text)
        except ValueError:
            raise ValueError(f"seed must be {digits} hex digits ({nbytes} bytes), "
                             f"got non-hex text {seed[:80]!r}") from None
    if isinstance(seed, int):
        raise TypeError(f"seed must be {nbytes} bytes or {digits} hex digits, not an int "
                        "(an int seed is too easy to get wrong)")
    try:
        raw = bytes(memoryview(seed))
    except TypeError:
        raise TypeError(f"seed must be {nbytes} bytes or {digits} hex digits, got {type(seed).__name__}") from None
    if len(raw) != nbytes:
        raise ValueError(f"seed must be {nbytes} bytes ({digits} hex digits), got {len(raw)} bytes")
    return raw


def parse_seed(seed) -> bytes:
    """A ChaCha20 replay seed as 32 bytes (32 bytes, or 64 hex digits)."""
    return parse_hex_seed(seed, 32)


def count_arg(value, what: str, name: str = "n") -> int:
    """``value`` as an int >= 0; TypeError / ValueError naming ``what`` and ``name``."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: {name} must be an integer, got {type(value).__name__}") from None
    if value < 0:
        raise ValueError(f"{what}: {name} must be >= 0, got {value}")
    return value


def check_u64(name: str, value) -> int:
    """``value`` as an int in ``[0, 2**64)``; TypeError / ValueError naming it."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None
    if not 0 <= value < _U64:
        raise ValueError(f"{name} must be in [0, 2**64), got {value}")
    return value


def locked_call(generator, function, *args, what: str) -> int:
    """Run C drawing code on a generator's bits, locked and checked.

    Calls ``function(source, *args)`` with the generator's :attr:`lock` held
    for the whole call (no other caller can take output in between), then
    checks the returned status with :func:`rngcore.errors.raise_for_status`.
    Every module that hands ``Generator.source`` to C (devices, games, slot)
    goes through here.

    Parameters
    ----------
    generator : rngcore.Generator or BitSource
        Anything with ``source`` and ``lock``.  Something with a ``source``
        and no ``lock`` is called without one.  A bare ``rng_source *`` is
        refused, so a caller cannot skip the lock by passing
        ``generator.source`` by mistake.
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


@dataclasses.dataclass(frozen=True)
class Check:
    """Outcome of one self-test check (a known-answer test, a pin, ...)."""

    name: str
    passed: bool
    detail: str

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Provenance:
    """Which bits a report's outcomes came from (see the module docstring).

    Attributes
    ----------
    engine : str
        The registry name (``"chacha20"``).
    mode : str
        ``"replay"`` or ``"production"``.
    seed_fingerprint : str or None
        Replay: the first 16 hex digits of SHA-256(seed); production: None.
    stream : int or None
        Replay: the stream id; production: None.
    position : int
        Bytes of output consumed so far, in either mode (replay: the
        ``seek`` position).
    seed : str or None
        The replay seed in hex, only when asked for (``show_seed=True``).
    """

    engine: str
    mode: str
    seed_fingerprint: str | None
    stream: int | None
    position: int
    seed: str | None = None

    def as_dict(self) -> dict:
        """JSON form; ``seed`` appears only when it was asked for."""
        data = dataclasses.asdict(self)
        if data["seed"] is None:
            del data["seed"]
        return data

    def describe(self) -> str:
        """One line for a text report."""
        if self.mode == "production":
            return f"{self.engine} production mode (OS entropy), position {self.position:,}"
        if self.seed_fingerprint is None:  # a test source: no seed to name
            return f"{self.engine} {self.mode}, position {self.position:,}"
        seed = f"seed {self.seed}" if self.seed is not None else f"seed fingerprint {self.seed_fingerprint}"
        stream = "" if self.stream is None else f", stream {self.stream}"
        return f"{self.engine} replay, {seed}{stream}, position {self.position:,}"


_live_sources: "weakref.WeakSet[BitSource]" = weakref.WeakSet()


def _reinit_locks_in_child() -> None:
    for bits in list(_live_sources):
        bits._reinit_lock_after_fork()


os.register_at_fork(after_in_child=_reinit_locks_in_child)


class BitSource:
    """Base class of every engine (numpy's ``BitGenerator``).

    Subclasses set the class attributes below, build their C engine and
    ``rng_source`` in ``__init__(seed=None, stream=None)`` (calling
    :meth:`_init_lock`), and implement :meth:`_position_unlocked`; the other
    methods have working defaults.

    Fork and threads: every use of :attr:`source` holds :attr:`lock`, so no
    two callers ever receive the same bytes.  In a forked child the locks
    are re-initialised (a lock held by a parent thread at fork time would
    otherwise never be released); what the engine's state does after a
    fork is the engine's to state.
    """

    name: ClassVar[str] = ""
    """Registry name, e.g. ``"chacha20"`` (``--engine`` choice)."""
    summary: ClassVar[str] = ""
    """One line for ``--help``, ``rngcert selftest`` and the docs."""
    seed_help: ClassVar[str] = ""
    """The replay seed format, e.g. ``"64 hex digits: the 32-byte key"``."""
    seed_bytes: ClassVar[int] = 32
    """Length of a replay seed (the default :meth:`parse_seed`)."""
    has_streams: ClassVar[bool] = True
    """Whether replay mode takes a stream id."""
    has_production: ClassVar[bool] = True
    """Whether ``Engine()`` (no seed) makes an OS-seeded production source."""

    _source = None
    _lock: threading.Lock | None = None
    _seed: bytes | None = None
    _stream: int | None = None

    def _init_lock(self) -> None:
        """Give this source its lock (re-initialised in a forked child)."""
        self._lock = threading.Lock()
        _live_sources.add(self)

    def _reinit_lock_after_fork(self) -> None:
        reinit = getattr(self._lock, "_at_fork_reinit", None)
        if reinit is not None:
            reinit()  # keep the lock object: others (numpy interop) hold it
        else:  # pragma: no cover - CPython has had _at_fork_reinit since 3.9
            self._lock = threading.Lock()

    # -- declared by the engine -------------------------------------------------

    @classmethod
    def parse_seed(cls, seed) -> bytes:
        """A replay seed in this engine's format (ValueError / TypeError if not)."""
        return parse_hex_seed(seed, cls.seed_bytes)

    @classmethod
    def known_answers(cls) -> list[Check]:
        """The engine's known-answer tests, run by ``rngcert selftest``."""
        return []

    # -- what the drawing side uses ---------------------------------------------

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

    def fill_pointer(self, pointer, nbytes: int, what: str = "fill") -> None:
        """Write the next ``nbytes`` of output to a cffi pointer (lock held inside)."""
        source = self._source
        with self._lock:
            status = source.fill(source.state, pointer, nbytes)
        raise_for_status(status, what)

    # -- readouts -----------------------------------------------------------------

    @property
    def mode(self) -> str:
        """``"replay"`` or ``"production"``."""
        return "production" if self._seed is None else "replay"

    @property
    def seed(self) -> bytes | None:
        """Replay mode: the seed; production: None (the key never leaves C)."""
        return self._seed

    @property
    def stream(self) -> int | None:
        """Replay mode: the stream id (None if the engine has none); production: None."""
        return self._stream

    @property
    def position(self) -> int | None:
        """Replay mode: bytes of output consumed so far (where :meth:`seek`
        resumes); production: None (see :meth:`provenance` for its count)."""
        if self._seed is None:
            return None
        with self._lock:
            return self._position_unlocked()

    def _position_unlocked(self) -> int:
        """Bytes of output consumed so far, in either mode, read without the lock."""
        raise NotImplementedError

    show_seed = False
    """Whether :meth:`provenance` includes the replay seed itself by default.
    Whoever builds the source decides (the CLI sets it for ``--show-seed``),
    so every report made from it follows one policy."""

    def provenance(self, *, show_seed: bool | None = None) -> Provenance:
        """What a report says about these bits (see the module docstring).

        Parameters
        ----------
        show_seed : bool, optional
            Include the replay seed itself; default :attr:`show_seed`
            (False: the seed's fingerprint only).
        """
        if show_seed is None:
            show_seed = self.show_seed
        with self._lock:
            position = self._position_unlocked()
        seed = self._seed
        return Provenance(
            engine=self.name,
            mode=self.mode,
            seed_fingerprint=None if seed is None else seed_fingerprint(seed),
            stream=self._stream if seed is not None else None,
            position=position,
            seed=seed.hex() if show_seed and seed is not None else None,
        )

    def epoch(self) -> tuple[int, int] | None:
        """Production mode: (key epoch, position in it) of the next output byte, or None.

        The epoch is the number of OS seedings so far (1 after the first;
        every reseed, by interval, fork or :meth:`reseed`-style call, starts
        the next), and the position is the bytes handed out under that
        epoch's keys.  The keys themselves are erased, so a production
        outcome cannot be re-derived; (epoch, position range) with the
        journaled result is what its recall shows.  None in replay mode
        (the :meth:`provenance` position says everything there) and for an
        engine that does not count its epochs (ChaCha20 and the SP 800-90A
        DRBGs do).
        """
        return None

    # -- state changes --------------------------------------------------------------

    def seek(self, position: int) -> None:
        """Replay mode: continue from byte ``position`` of the output."""
        raise ValueError(f"the {self.name or type(self).__name__} engine cannot seek")

    def spawn(self, n: int) -> list["BitSource"]:
        """``n`` independent child engines."""
        raise ValueError(f"the {self.name or type(self).__name__} engine cannot spawn children")

    def reseed(self, additional_input=b"") -> None:
        """Production mode: fresh OS entropy into the state now, buffered
        output dropped (a per-game reseed; :mod:`rngcore.controls`)."""
        raise ValueError(f"the {self.name or type(self).__name__} engine cannot reseed")
