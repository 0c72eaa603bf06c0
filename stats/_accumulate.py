"""Base class of the streaming cores: feed chunks, then ask for the result.

Every test in :mod:`stats` is computed by an accumulator: ``update(chunk)``
any number of times (state carried across chunk boundaries, memory bounded
by the test's tables, never by the stream length), then ``result()``.  The
public test functions are one-chunk uses of these cores, so the streamed and
in-memory answers are the same by construction.
"""
from __future__ import annotations

import numpy as np

from stats._validate import InsufficientDataError, as_float, category_array, exact_probabilities


#: Values of a later segment's start first shown to :meth:`Accumulator.sync` (then 16 times more, and
#: so on): a sync may scan all it is shown (a gap test's first hit is a few values in, its chunk 10^6).
_FIRST_WINDOW = 256


class NotMergeable(ValueError):
    """An accumulator whose test declares no exact merge (:meth:`Accumulator.merge`)."""


class Accumulator:
    """Streaming core of one test.

    Subclasses set ``name`` and ``unit``, implement ``_update(array)``,
    ``_result()`` and ``min_samples()``.

    Attributes
    ----------
    n : int
        Outcomes (or rows) consumed so far.

    Notes
    -----
    **Merging.**  A stream cut into segments can be tested segment by
    segment, anywhere, and the accumulators merged in order into exactly
    the accumulator of one pass (``a.merge(b)``; then ``a`` covers both).
    The first segment's accumulator is an ordinary one; every later one is
    told where its segment starts (:meth:`starting_at`).  What a test
    declares is all the protocol needs:

    * :attr:`sums`, the state fields that add (integer count tables,
      integer totals, lists in order, dicts of tables key by key); ``n``
      always adds.  Every other field but those in :attr:`firsts` (which
      stay the first segment's) and :attr:`earliest` is the state the
      stream leaves behind, taken from the later segment.
    * :attr:`earliest`, the fields that name where something was first
      found (a check's first bad row and its description): the earlier
      segment's, unless it found nothing (its first such field is None).
      A core records a stream position with :meth:`position`, which counts
      from the stream's start in any segment.
    * :meth:`sync`, how many values at the start of a later segment
      depend on what came before it (the ``t - 1`` values that finish
      overlapping t-tuples, the values up to a gap test's first hit, the
      rest of a group cut by the boundary).  Those values are kept aside
      (the segment's *head*); from the next one on, the state depends on
      the segment alone, so it is computed by feeding the head to a fresh
      accumulator and forgetting its sums.  The merge feeds the head to the
      earlier accumulator, which finishes what the boundary cut, then adds
      the sums and takes the later state.  Nothing is approximated.

    A test that declares no :meth:`sync` is not mergeable: :meth:`merge`
    raises :class:`NotMergeable`.
    """

    name = "test"
    unit = "outcomes"
    #: what ``update`` takes: "categorical" (indices), "uniform" (floats in [0, 1)) or "rows"
    takes = "categorical"
    #: state fields that add when two segments merge (``n`` always does); see Notes
    sums: tuple = ()
    #: state fields the merged accumulator keeps from the earlier segment
    firsts: tuple = ()
    #: fields of a first finding, kept from the earlier segment unless its first one is None; see Notes
    earliest: tuple = ()

    def __init__(self):
        self.n = 0

    def update(self, chunk) -> None:
        """Consume the next chunk of the stream (a 1-D array, or 2-D rows)."""
        array = self._check(chunk)
        if len(array) and getattr(self, "_segment_pending", None) is not None:
            array = self._settle(array)
        if len(array):
            self._update(array)
            self.n += len(array)

    # -- merging (see Notes) -------------------------------------------------
    def sync(self, head: np.ndarray, start: int) -> int | None:
        """Values of a segment starting at ``start`` (stream items) that depend on what came before.

        ``head`` is the segment's first values (as many as have come);
        return how many of them are the head, or None when more are needed.
        """
        raise NotMergeable(f"{self.name}: no exact merge is declared for {type(self).__name__}")

    def position(self, offset: int = 0) -> int:
        """Stream index of value ``offset`` of the chunk being consumed (counted from the stream's
        start, also in a later segment)."""
        head = getattr(self, "_segment_head", None)
        return getattr(self, "_segment_start", 0) + (0 if head is None else len(head)) + self.n + int(offset)

    def starting_at(self, start: int) -> "Accumulator":
        """Make this fresh accumulator that of a segment starting at item ``start`` of the stream."""
        if self.n:
            raise ValueError("starting_at() is for a fresh accumulator")
        self._mergeable()
        self._segment_start, self._segment_pending, self._segment_head = int(start), ([] if start else None), None
        return self

    def _replays_head(self) -> bool:
        """Whether the state after a head is the one the head leaves (not, for aligned groups: a fresh one)."""
        return getattr(type(self).sync, "replays", True)

    @classmethod
    def mergeable(cls) -> bool:
        """Whether this test declares an exact merge (see Notes)."""
        return cls.sync is not Accumulator.sync

    def _mergeable(self) -> None:
        if not self.mergeable():
            raise NotMergeable(f"{self.name}: no exact merge is declared for {type(self).__name__}")

    def _settle(self, array: np.ndarray) -> np.ndarray:
        """Hold values back until the head is known; set the state it leaves; return the values after it."""
        pending = np.concatenate(self._segment_pending + [array]) if self._segment_pending else array
        window = _FIRST_WINDOW
        while True:  # the head is short, the chunk long: shown a growing prefix, sync stops scanning early
            cut = self.sync(pending[:window], self._segment_start)
            if cut is not None or window >= len(pending):
                break
            window *= 16
        if cut is None:
            self._segment_pending = [pending.copy() if pending is array else pending]  # (a stream may reuse its array)
            return array[:0]
        self._segment_pending, self._segment_head = None, pending[:cut].copy()
        if cut and self._replays_head():
            self._update(self._segment_head)  # the state the head leaves, whatever came before it ...
            for field in self.sums:
                setattr(self, field, _zero(getattr(self, field)))  # ... but not its sums: the merge adds those
        return pending[cut:]

    def merge(self, other: "Accumulator") -> "Accumulator":
        """Take in ``other``, the accumulator of the segment that follows this one's; returns self."""
        if type(other) is not type(self):
            raise ValueError(f"cannot merge a {type(other).__name__} into a {type(self).__name__}")
        self._mergeable()
        pending = getattr(other, "_segment_pending", None)
        if pending is not None:  # the whole segment is head
            for part in pending:
                self.update(part)
            return self
        head = getattr(other, "_segment_head", None)
        if head is not None and len(head):
            self.update(head)
        if getattr(self, "_segment_pending", None) is not None:
            raise ValueError("the earlier segment is too short to merge with a segment after it")
        found = bool(self.earliest) and getattr(self, self.earliest[0]) is not None
        for field, value in vars(other).items():
            if field in ("n", "_segment_start", "_segment_pending", "_segment_head") or field in self.firsts \
                    or (found and field in self.earliest):
                continue
            setattr(self, field, _add(getattr(self, field), value) if field in self.sums else value)
        self.n += other.n
        return self

    def min_samples(self) -> int:
        """Smallest stream length for which :meth:`result` is valid."""
        return 1

    def run(self, data):
        """Test ``data`` in one piece (what every public test function does)."""
        self.update(data)
        return self.result()

    def result(self):
        """The test result for everything consumed so far.

        Raises
        ------
        InsufficientDataError
            Fewer than :meth:`min_samples` outcomes were consumed.
        """
        needed = self.min_samples()
        if self.n < needed:
            raise InsufficientDataError(self.name, needed, self.n, self.unit)
        return self._result()

    # -- to override -------------------------------------------------------
    def _check(self, chunk) -> np.ndarray:
        return np.asarray(chunk)

    def _update(self, array: np.ndarray) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _result(self):  # pragma: no cover - abstract
        raise NotImplementedError


def _zero(value):
    if isinstance(value, dict):
        return {key: _zero(v) for key, v in value.items()}
    if isinstance(value, np.ndarray):
        return np.zeros_like(value)
    return [] if isinstance(value, list) else type(value)(0)


def _add(a, b):
    if isinstance(a, dict):
        if a.keys() != b.keys():
            raise ValueError("segments of one stream keep tables of different keys")
        return {key: _add(a[key], b[key]) for key in a}
    if isinstance(a, np.ndarray):
        if a.dtype.kind not in "iub":
            raise NotMergeable(f"a {a.dtype} sum does not add exactly")
        return a + b
    if isinstance(a, float) or isinstance(b, float):
        raise NotMergeable("a float sum does not add exactly")
    return a + b


def no_carry(acc, head, start) -> int:
    """:meth:`Accumulator.sync` of a test of single values or rows: nothing crosses a boundary."""
    return 0


def last(count_of):
    """:meth:`Accumulator.sync` of a test reading the ``count_of(acc)`` values before each one."""
    def sync(acc, head, start):
        needed = int(count_of(acc))
        return needed if len(head) >= needed else None
    return sync


def aligned(size_of):
    """:meth:`Accumulator.sync` of a test of consecutive groups of ``size_of(acc)`` values from the start."""
    def sync(acc, head, start):
        needed = -int(start) % int(size_of(acc))
        return needed if len(head) >= needed else None
    sync.replays = False  # after the rest of a cut group, the next group starts afresh
    return sync


class CategoricalAccumulator(Accumulator):
    """Accumulator over a stream of category indices with a known distribution."""

    takes = "categorical"

    def __init__(self, probabilities):
        super().__init__()
        self.exact = exact_probabilities(probabilities)
        self.p = as_float(self.exact)
        self.k = len(self.exact)
        # Narrow dtype for table indices: bincount speed depends on it.
        self._dtype = np.uint8 if self.k <= 256 else np.uint16 if self.k <= 65536 else np.int64

    def _check(self, chunk) -> np.ndarray:
        array = category_array(chunk, self.k)
        if array.dtype != self._dtype and array.size:
            array = array.astype(self._dtype)
        return array


class UniformAccumulator(Accumulator):
    """Accumulator over a stream of continuous values (ties have probability 0)."""

    takes = "uniform"

    def _check(self, chunk) -> np.ndarray:
        array = np.asarray(chunk, dtype=np.float64)
        if array.ndim != 1:
            raise ValueError(f"expected a 1-D array of values, got shape {array.shape}")
        return array


class GroupCarry:
    """Cuts a stream into consecutive, non-overlapping groups of ``t`` values.

    The incomplete group at the end of a chunk is carried to the next chunk,
    so the groups do not depend on how the stream was split.
    """

    def __init__(self, t: int, dtype):
        self.t = int(t)
        self._carry = np.zeros(0, dtype=dtype)

    def take(self, x: np.ndarray) -> np.ndarray:
        """The complete groups of the stream so far, shape (groups, t)."""
        data = np.concatenate([self._carry, x]) if self._carry.size else x
        groups = data.size // self.t
        self._carry = data[groups * self.t:].copy()
        return data[: groups * self.t].reshape(groups, self.t)


def tuple_index(x: np.ndarray, k: int, t: int, count: int, step: int) -> np.ndarray:
    """Index ``x[s]*k^(t-1) + ... + x[s+t-1]`` of the t-tuples starting at
    ``s = 0, step, 2*step, ...`` (``count`` tuples), in the narrowest dtype."""
    cells = k**t
    dtype = np.uint16 if cells <= 65536 else np.uint32 if cells < 2**32 else np.uint64
    index = np.zeros(count, dtype=dtype)
    for j in range(t):
        part = x[j: j + step * (count - 1) + 1: step]
        index *= dtype(k)
        index += part.astype(dtype, copy=False)
    return index
