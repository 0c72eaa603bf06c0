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
  ``(x >> 11) * 2**-53``; ``uniform(low, high)`` scales it.
* ``integers(..., endpoint=True)``: as ``integers(low, high + 1)``.
* ``permutation(n)`` / ``shuffle(x)``: the devices' Fisher-Yates shuffle
  (batched bounded indices); ``choice`` is bounded integers (with
  replacement) or the head of a permutation (without).
"""
from __future__ import annotations

import ctypes
import math
import operator
from collections.abc import MutableSequence

import numpy as np

from rngcore._native import ffi, lib
from rngcore.controls import check_policy
from rngcore.engine import BitSource, Provenance, count_arg, locked_call
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
_shuffle32 = lib.rng_shuffle32
_SHUFFLE_MAX = (1 << 32) - 1  # rng_shuffle32's 32-bit items

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


def _finite(value, name: str) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"uniform: {name} must be a real number, got {type(value).__name__} {value!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"uniform: {name} must be finite, got {value!r}")
    return value


def _axis(axis, ndim: int, what: str) -> int:
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"{what}: axis must be an int, got {axis!r}") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what}: axis {axis} is out of range for an array of {ndim} dimension(s)")
    return axis % ndim


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
    reseed_before : {"never", "shuffle", "round"}, optional
        Production mode: reseed from the OS before every shoe shuffle or
        every round of the round-level device API
        (:mod:`rngcore.controls`); default ``"never"``.

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
    numpy's drawing API, where it can be unbiased and replay-documented:
    :meth:`integers` (with ``endpoint``), :meth:`random`, :meth:`uniform`,
    :meth:`shuffle`, :meth:`permutation`, :meth:`choice` (without ``p=``
    weights) and :meth:`random_bytes`, each with its consumption recipe in
    its docstring and docs/audit_contract.md.  For numpy's other
    distributions (normal, weighted choice, ...) on these same bits use
    ``rngcore.numpy_generator()``.

    Thread-safe: every draw holds :attr:`lock`; no two callers receive the
    same bytes.  After ``os.fork()`` a production generator reseeds in the
    child; a replay generator is copied as-is and continues identically in
    both processes.
    """

    def __init__(self, seed=None, stream=None, *, reseed_interval=None, reseed_before=None):
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
        self.reseed_before = check_policy(reseed_before, bits)
        """The per-game reseed policy (:data:`rngcore.controls.RESEED_POLICIES`)."""

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

    def reseed(self, additional_input=b"") -> None:
        """Production mode: fresh OS entropy into the engine now, buffered
        output dropped, so nothing generated before is handed out after (a
        per-game reseed; SP 800-90A Reseed with ``additional_input`` for the
        DRBGs).  ValueError in replay mode."""
        self._bits.reseed(additional_input)

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

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Uniform integers on ``[low, high)``, or ``[low, high]`` with ``endpoint=True``.

        Parameters
        ----------
        low, high : int
            Bounds; ``integers(h)`` means ``[0, h)`` (``[0, h]`` with
            ``endpoint``).  The interval must not be empty and its ends must
            be representable in ``dtype``.
        size : int or tuple of ints, optional
            Output shape; None (default) returns one Python ``int``.
        dtype : integer dtype
            int8 .. int64, uint8 .. uint64 (default int64).
        endpoint : bool
            Include ``high`` (numpy's convention); ``integers(low, high,
            endpoint=True)`` draws exactly as ``integers(low, high + 1)``, and
            reaches the top of the dtype (``integers(0, 2**64 - 1,
            dtype=np.uint64, endpoint=True)``).

        Returns
        -------
        int or numpy.ndarray

        Notes
        -----
        Unbiased (Lemire's nearly divisionless method, csrc/core/bounded.h; proved
        exhaustively at 8 and 16 bits by the same code).  With ``n`` values in
        the interval, each value reads 4-byte words when ``n <= 2**32`` (8-byte
        words otherwise) and rejects a word with probability ``(2**32 mod n) /
        2**32 < n / 2**32``; for ``n = 37`` that is ``7 / 2**32``.  ``n == 1``
        consumes nothing.  Arrays are drawn in C order.
        """
        if size is None and dtype is _INT64 and endpoint is False and type(low) is int and type(high) is int:
            span = high - low
            if 0 < span <= _TWO32 and low >= _I64_MIN and high <= _I64_END:
                with self._lock:
                    value = _draw_bounded32(self._source, span - 1)
                if value < 0:
                    raise_for_status(value, "integers")
                return low + value
        return self._integers(low, high, size, dtype, bool(endpoint))

    def _integers(self, low, high, size, dtype, endpoint=False):
        if high is None:
            low, high = 0, low
        low = _int_arg(low, "low")
        high = _int_arg(high, "high")
        dt = _integer_dtype(dtype)
        top = high if endpoint else high - 1  # the largest value drawn
        interval = f"[{low}, {high}]" if endpoint else f"[{low}, {high})"
        if low > top:
            need = "low <= high with endpoint=True" if endpoint else "low < high"
            raise ValueError(f"integers: need {need} (the interval {interval} is empty), "
                             f"got low={low}, high={high}")
        info = np.iinfo(dt)
        if low < info.min or top > info.max:
            raise ValueError(f"integers: {interval} does not fit dtype {dt}, "
                             f"whose values are [{info.min}, {info.max}]")
        shape = () if size is None else _shape(size, "integers")
        out = np.empty(shape, dt)
        if out.size:
            with self._lock:
                status = _draw_integers(self._source, _from_buffer(out), out.size, dt.itemsize,
                                        low % (1 << 64), top - low)
            raise_for_status(status, "integers")
        return int(out[()]) if size is None else out

    def uniform(self, low=0.0, high=1.0, size=None):
        """Floats uniform on ``[low, high)``, for continuous quantities only.

        Each value reads one 8-byte word ``x`` and is ``low + (high - low) *
        u`` with ``u = (x >> 11) * 2**-53`` (exactly :meth:`random`, then
        IEEE double arithmetic, as numpy's ``uniform``; rounding can give
        ``high`` itself when ``high - low`` is large against ``low``).
        Never use it to pick a discrete outcome: that is
        :meth:`integers` / :meth:`choice` (no float scaling picks outcomes).

        Returns a Python float when ``size`` is None, else a float64 array.
        """
        low, high = _finite(low, "low"), _finite(high, "high")
        span = high - low
        if not np.isfinite(span):
            raise ValueError(f"uniform: high - low overflows a float64 (low={low!r}, high={high!r})")
        if size is None:
            return low + span * self.random()
        return low + span * self.random(size)

    # -- permutations (Fisher-Yates from the end, csrc/core/shuffle.h) ---------

    def _shuffled_indices(self, n: int, what: str) -> np.ndarray:
        """``0 .. n-1`` shuffled by the devices' shuffle (``rng_shuffle32``:
        the plan, words and swaps of ``rng_shuffle16``, on 32-bit items)."""
        if n > _SHUFFLE_MAX:
            raise ValueError(f"{what}: at most {_SHUFFLE_MAX:,} items, got {n:,}")
        indices = np.arange(n, dtype=np.uint32)
        if n > 1:
            locked_call(self, _shuffle32, _from_buffer("uint32_t[]", indices), n, 64, what=what)
        return indices

    def shuffle(self, x, axis=0) -> None:
        """Shuffle ``x`` in place: a numpy array along ``axis``, or a mutable sequence.

        Fisher-Yates from the end with batched bounded indices, the devices'
        shuffle (docs/devices.md): position ``i = n-1, ..., 1`` swaps with an
        index uniform on ``[0, i]``, the bounds ``n, n-1, ..., 2`` taken
        greedily into batches whose product stays <= 2**56, each batch one
        8-byte word (a word is rejected, and the next one read, with
        probability < 2**-8).  ``x`` ends up as ``x[perm]`` where ``perm`` is
        that shuffle applied to ``0 .. n-1``; at most ``2**32 - 1`` items.
        """
        if isinstance(x, np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle: a 0-d array has nothing to shuffle")
            axis = _axis(axis, x.ndim, "shuffle")
            x[...] = np.take(x, self._shuffled_indices(x.shape[axis], "shuffle"), axis=axis)
            return
        if not isinstance(x, MutableSequence):
            raise TypeError(f"shuffle: expected a numpy array or a mutable sequence (list), got {type(x).__name__}")
        if axis != 0:
            raise ValueError("shuffle: a sequence has only axis 0")
        items = list(x)
        for position, index in enumerate(self._shuffled_indices(len(items), "shuffle").tolist()):
            x[position] = items[index]

    def permutation(self, x, axis=0):
        """A shuffled copy: ``permutation(n)`` is ``0 .. n-1`` shuffled (int64),
        ``permutation(array)`` a copy shuffled along ``axis``.  Consumes
        exactly what :meth:`shuffle` of the same number of items does."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            n = count_arg(x, "permutation", "x")
            return self._shuffled_indices(n, "permutation").astype(np.int64)
        array = np.asarray(x)
        if array.ndim == 0:
            raise TypeError(f"permutation: expected an int or an array, got {type(x).__name__} {x!r}")
        axis = _axis(axis, array.ndim, "permutation")
        return np.take(array, self._shuffled_indices(array.shape[axis], "permutation"), axis=axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0):
        """A random sample of ``a`` (an int ``n`` meaning ``0 .. n-1``, or an array along ``axis``).

        Recipes (docs/audit_contract.md):

        * ``replace=True``: the indices are ``integers(0, n, size=size)``.
        * ``replace=False``: the indices are the first ``k`` (``k`` = the
          number of values asked for, ``k <= n``) of ``permutation(n)``, in
          that order: a whole shuffle of ``n`` items, so
          every ordered sample of ``k`` distinct items is equally likely.

        ``p`` (float weights) is refused: weighted outcomes are integer
        tables drawn exactly (:mod:`rngcore.devices`); numpy's weighted
        ``choice`` on these bits is ``rngcore.numpy_generator().choice``.
        """
        if p is not None:
            raise ValueError("choice: p= (float weights) is not offered: weighted outcomes are exact integer "
                             "tables (rngcore.devices); numpy's is rngcore.numpy_generator().choice")
        if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
            n, population = count_arg(a, "choice", "a"), None
        else:
            population = np.asarray(a)
            if population.ndim == 0:
                raise ValueError("choice: a must be an int or an array of at least one dimension")
            axis = _axis(axis, population.ndim, "choice")
            n = population.shape[axis]
        shape = () if size is None else _shape(size, "choice")
        k = int(np.prod(shape, dtype=np.int64))
        if k and n == 0:
            raise ValueError("choice: cannot take a sample from an empty population")
        if replace:
            indices = self.integers(0, n, size=size) if k else np.zeros(shape, np.int64)
        else:
            if k > n:
                raise ValueError(f"choice: cannot take {k:,} distinct items from {n:,} (replace=False)")
            indices = self._shuffled_indices(n, "choice")[:k].astype(np.int64).reshape(shape)
            if size is None:
                indices = int(indices)
        if population is None:
            return indices
        return np.take(population, indices, axis=axis)

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
