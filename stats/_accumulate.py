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


class Accumulator:
    """Streaming core of one test.

    Subclasses set ``name`` and ``unit``, implement ``_update(array)``,
    ``_result()`` and ``min_samples()``.

    Attributes
    ----------
    n : int
        Outcomes (or rows) consumed so far.
    """

    name = "test"
    unit = "outcomes"
    #: what ``update`` takes: "categorical" (indices), "uniform" (floats in [0, 1)) or "rows"
    takes = "categorical"

    def __init__(self):
        self.n = 0

    def update(self, chunk) -> None:
        """Consume the next chunk of the stream (a 1-D array, or 2-D rows)."""
        array = self._check(chunk)
        if len(array):
            self._update(array)
            self.n += len(array)

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
