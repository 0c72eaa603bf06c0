"""The drawing side: :class:`Generator` turns engine bits into outcomes.

Every draw is one C call on the engine's ``rng_source`` under the engine's
lock (never one call per value).  What each draw consumes from the keystream
is part of the audit contract (docs/audit_contract.md):

* ``random_bytes(n)`` / ``fill(buf)``: the next ``n`` bytes.
* ``integers(low, high)``: per value, Lemire's method on 4-byte little-endian
  words when ``high - low <= 2**32``, 8-byte words otherwise; a word is
  rejected with probability ``(2**32 mod n) / 2**32`` (resp. ``2**64``), under
  ``n / 2**32``; ``high - low == 1`` consumes nothing.  Arrays in C order.
* ``random()``: per value one 8-byte little-endian word ``x``, value
  ``(x >> 11) * 2**-53``.
"""
from __future__ import annotations

import ctypes
import operator

import numpy as np

from rngcore._native import ffi, lib
from rngcore.engine import BitSource, Provenance, count_arg
from rngcore.engines.chacha20 import ChaChaEngine
from rngcore.errors import raise_for_status

__all__ = ["Generator"]

_INT64 = np.int64
_TWO32 = 1 << 32
_I64_MIN = -(1 << 63)
_I64_END = 1 << 63
_INTEGER_DTYPES = tuple(np.dtype(t) for t in (
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64))
_DTYPE_NAMES = ", ".join(d.name for d in _INTEGER_DTYPES)

# Bound once: attribute lookups on `lib` cost as much as the scalar draw.
_draw_bounded32 = lib.rng_draw_bounded32
_draw_integers = lib.rng_draw_integers
_draw_double = lib.rng_draw_double
_draw_doubles = lib.rng_draw_doubles
_from_buffer = ffi.from_buffer

# random_bytes fills a fresh, not yet shared bytes object in place, as C
# extensions do (PyBytes_FromStringAndSize(NULL, n), then write), instead of
# filling a bytearray and copying it: the copy and second allocation cost
# more than generating the keystream.  Below this size the copy is cheaper
# than the ctypes call.
_IN_PLACE_MIN = 4096
try:
    _new_bytes = ctypes.pythonapi.PyBytes_FromStringAndSize
    _new_bytes.restype = ctypes.py_object
    _new_bytes.argtypes = (ctypes.c_void_p, ctypes.c_ssize_t)
except AttributeError:  # pragma: no cover - not CPython
    _new_bytes = None


def _shape(size, what: str) -> tuple[int, ...]:
    """``size`` (int or tuple of ints, each >= 0) as a shape tuple."""
    dims = (size,) if not isinstance(size, (tuple, list)) else tuple(size)
    shape = []
    for dim in dims:
        try:
            dim = operator.index(dim)
        except TypeError:
            raise TypeError(f"{what}: size must be an int or a tuple of ints, got {size!r}") from None
        if dim < 0:
            raise ValueError(f"{what}: size must be >= 0, got {size!r}")
        shape.append(dim)
    return tuple(shape)


def _int_arg(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"integers: {name} must be an integer, got a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"integers: {name} must be an integer, got {type(value).__name__} {value!r}") from None


def _integer_dtype(dtype) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"integers: dtype must be one of {_DTYPE_NAMES}, got {dtype!r}") from None
    if dt not in _INTEGER_DTYPES or not dt.isnative:
        raise ValueError(f"integers: dtype must be one of {_DTYPE_NAMES} (native byte order), got {dt}")
    return dt


class Generator:
    """Draws outcomes from a bit source (numpy's ``Generator(BitGenerator)``).

    ``Generator(bits)`` draws from any :class:`rngcore.engine.BitSource`
    (an engine of :mod:`rngcore.engines`, or a test source);
    ``Generator(seed, stream)`` and ``Generator()`` are shorthand for the
    default engine, ChaCha20, in replay and production mode.

    Parameters
    ----------
    seed : BitSource, bytes-like or str, optional
        A bit source to draw from; or, for ChaCha20 replay mode, the 32-byte
        key (or 64 hex digits).  The output is then exactly the ChaCha20
        keystream for that key and ``stream`` (docs/audit_contract.md).
        Omit for ChaCha20 production mode: key from the operating system,
        fast key erasure, OS reseeding.
    stream : int, optional
        Replay mode: 64-bit stream id (state words 14-15), default 0.  Streams
        of one seed never overlap; give each parallel worker its own.
    reseed_interval : int, optional
        Production mode: bytes of output between OS reseeds (default 1 GiB).

    Raises
    ------
    ValueError, TypeError
        For a malformed seed, stream or interval, or ``stream`` /
        ``reseed_interval`` given with a bit source.
    rngcore.errors.EntropyError
        Production mode, if the OS cannot supply entropy (no fallback).
    rngcore.errors.SelfTestError
        If the power-on self-test (RFC 8439 vectors) failed.

    Notes
    -----
    Thread-safe: every draw holds :attr:`lock`; no two callers receive the
    same bytes.  After ``os.fork()`` a production generator reseeds in the
    child; a replay generator is copied as-is and continues identically in
    both processes.
    """

    def __init__(self, seed=None, stream=None, *, reseed_interval=None):
        if isinstance(seed, BitSource):
            if stream is not None or reseed_interval is not None:
                raise TypeError("Generator(bit_source) takes no stream or reseed_interval: "
                                "the bit source was seeded when it was made")
            bits = seed
        else:
            bits = ChaChaEngine(seed, stream, reseed_interval=reseed_interval)
        # The hot paths read these two directly: one attribute load each.
        self._bits = bits
        self._source = bits.source
        self._lock = bits.lock

    # -- the bit source -------------------------------------------------------

    @property
    def bit_source(self) -> BitSource:
        """The bit source (seeding, state, streams); numpy's ``bit_generator``."""
        return self._bits

    @property
    def engine(self) -> BitSource:
        """The bit source (the same object as :attr:`bit_source`)."""
        return self._bits

    @property
    def source(self):
        """The ``rng_source *`` through which C drawing code reads bits.

        Valid while this generator is alive.  Hold :attr:`lock` for the whole
        C call and check its status with :func:`rngcore.errors.raise_for_status`.
        """
        return self._source

    @property
    def lock(self):
        """The lock held around every use of the engine."""
        return self._lock

    @property
    def mode(self) -> str:
        """``"replay"`` or ``"production"``."""
        return self._bits.mode

    @property
    def seed(self) -> bytes | None:
        """Replay mode: the seed (ChaCha20: the 32-byte key); production: None."""
        return self._bits.seed

    @property
    def stream(self) -> int | None:
        """Replay mode: the stream id; production: None."""
        return self._bits.stream

    @property
    def position(self) -> int | None:
        """Replay mode: bytes of keystream consumed so far; production: None.

        ``Generator(seed, stream).seek(p)`` resumes exactly here, so a game
        round can be recalled from (seed, stream, position).
        """
        return self._bits.position

    def seek(self, position: int) -> None:
        """Replay mode: continue from byte ``position`` of the keystream."""
        self._bits.seek(position)

    def provenance(self, *, show_seed: bool | None = None) -> Provenance:
        """Engine, mode, seed fingerprint, stream and position, for reports
        (:meth:`rngcore.engine.BitSource.provenance`; the seed itself only
        with ``show_seed=True`` or when the bit source was made so)."""
        return self._bits.provenance(show_seed=show_seed)

    def spawn(self, n: int) -> list["Generator"]:
        """``n`` independent child generators.

        Replay mode: child ``i``'s seed is bytes ``[32 i, 32 i + 32)`` of the
        next ``32 n`` keystream bytes of this generator (which advances by
        ``32 n``), stream 0 -- reproducible from the parent's seed, stream and
        position.  Production mode: fresh OS keys.
        """
        return [Generator(child) for child in self._bits.spawn(n)]

    # -- draws ------------------------------------------------------------------

    def random_bytes(self, n: int) -> bytes:
        """The next ``n`` bytes of output."""
        n = count_arg(n, "random_bytes")
        if n >= _IN_PLACE_MIN and _new_bytes is not None:
            out = _new_bytes(None, n)  # uninitialised, referenced only here
            self._bits.fill_pointer(_from_buffer(out), n, "random_bytes")
            return out
        buf = bytearray(n)
        self._bits.fill_pointer(_from_buffer(buf), n, "random_bytes")
        return bytes(buf)

    def fill(self, buffer) -> None:
        """Fill a writable, C-contiguous buffer (bytearray, numpy array, ...)
        in place with the next ``len(memoryview(buffer).cast('B'))`` bytes."""
        try:
            view = memoryview(buffer)
        except TypeError:
            raise TypeError(f"fill: expected a writable buffer (bytearray, numpy array), "
                            f"got {type(buffer).__name__}") from None
        if view.readonly:
            raise TypeError(f"fill: the {type(buffer).__name__} buffer is read-only; pass a writable one")
        if not view.c_contiguous:
            raise ValueError("fill: the buffer is not C-contiguous; fill a contiguous copy instead")
        nbytes = view.nbytes
        if nbytes:
            self._bits.fill_pointer(_from_buffer(view, require_writable=True), nbytes, "fill")

    def integers(self, low, high=None, size=None, dtype=np.int64):
        """Uniform integers on the half-open interval ``[low, high)``.

        Parameters
        ----------
        low, high : int
            Bounds; ``integers(h)`` means ``[0, h)``.  Need ``low < high`` and
            both ``low`` and ``high - 1`` representable in ``dtype``.
        size : int or tuple of ints, optional
            Output shape; None (default) returns one Python ``int``.
        dtype : integer dtype
            int8 .. int64, uint8 .. uint64 (default int64).

        Returns
        -------
        int or numpy.ndarray

        Notes
        -----
        Unbiased (Lemire's nearly divisionless method, csrc/core/bounded.h; proved
        exhaustively at 8 and 16 bits by the same code).  With ``n = high -
        low``, each value reads 4-byte words when ``n <= 2**32`` (8-byte words
        otherwise) and rejects a word with probability ``(2**32 mod n) / 2**32
        < n / 2**32``; for ``n = 37`` that is ``7 / 2**32``.
        """
        if size is None and dtype is _INT64 and type(low) is int and type(high) is int:
            span = high - low
            if 0 < span <= _TWO32 and low >= _I64_MIN and high <= _I64_END:
                with self._lock:
                    value = _draw_bounded32(self._source, span - 1)
                if value < 0:
                    raise_for_status(value, "integers")
                return low + value
        return self._integers(low, high, size, dtype)

    def _integers(self, low, high, size, dtype):
        if high is None:
            low, high = 0, low
        low = _int_arg(low, "low")
        high = _int_arg(high, "high")
        dt = _integer_dtype(dtype)
        if low >= high:
            raise ValueError(f"integers: need low < high (the interval [low, high) is empty), "
                             f"got low={low}, high={high}")
        info = np.iinfo(dt)
        if low < info.min or high - 1 > info.max:
            raise ValueError(f"integers: [{low}, {high}) does not fit dtype {dt}, "
                             f"whose values are [{info.min}, {info.max}]")
        shape = () if size is None else _shape(size, "integers")
        out = np.empty(shape, dt)
        if out.size:
            with self._lock:
                status = _draw_integers(self._source, _from_buffer(out), out.size, dt.itemsize,
                                        low % (1 << 64), high - low - 1)
            raise_for_status(status, "integers")
        return int(out[()]) if size is None else out

    def random(self, size=None):
        """Floats uniform on ``[0, 1)``: ``(x >> 11) * 2**-53`` for each 8-byte
        word ``x``, so every multiple of ``2**-53`` is equally likely.

        Returns a Python float when ``size`` is None, else a float64 array.
        """
        if size is None:
            with self._lock:
                value = _draw_double(self._source)
            if value < 0:
                raise_for_status(self._source.status, "random")
            return value
        out = np.empty(_shape(size, "random"), np.float64)
        if out.size:
            with self._lock:
                status = _draw_doubles(self._source, _from_buffer("double[]", out), out.size)
            raise_for_status(status, "random")
        return out

    def __repr__(self) -> str:
        # Never shows the seed (a replay seed is secret until the audit), and
        # never takes the lock (repr must work inside `with generator.lock:`).
        bits = self._bits
        if bits.mode == "production":
            return "Generator(mode='production')" if type(bits) is ChaChaEngine else f"Generator({bits!r})"
        return f"Generator(mode='replay', stream={bits.stream}, position={bits._position_unlocked()})"
