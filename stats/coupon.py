"""Coupon collector's test: how many outcomes it takes to see every category."""
from __future__ import annotations

import numpy as np

from stats._exact import MAX_COUPON_STATES, coupon_length_distribution, coupon_states
from stats._results import ChiSquareResult
from stats.chisquare import CellLawAccumulator
from stats import _detect
from stats import _sp800_22_native as _native
from stats.registry import BatteryTest


def segment_lengths(values, k: int, *, limit: int | None = None) -> tuple[np.ndarray, int]:
    """Lengths of the whole segments of ``values`` from its start, and how many values they cover.

    A segment ends at the value that completes the set of the ``k`` categories
    seen since it started; the values after the last whole segment are an
    incomplete one.  One pass in C (``csrc/stats/coupon.h``), at most ``limit``
    segments.

    Parameters
    ----------
    values : numpy.ndarray of uint8 or uint16
        Category indices in ``0 .. k - 1``.
    k : int
        Number of categories.
    limit : int, optional
        Stop after this many segments (default: all).

    Returns
    -------
    lengths : numpy.ndarray of int64
        The segments' lengths, in order.
    consumed : int
        Values the segments cover: where the incomplete segment begins.
    """
    data = np.ascontiguousarray(values)
    if data.dtype not in (np.uint8, np.uint16):
        data = data.astype(np.uint16 if k > 256 else np.uint8)
    # Every segment holds at least k values: n // k bounds their number.
    room = data.size // k if limit is None else min(limit, data.size // k)
    lengths = np.zeros(room, dtype=np.int64)
    if room == 0:
        return lengths, 0
    ffi, lib = _native._lib()
    segments, consumed = ffi.new("size_t *"), ffi.new("size_t *")
    _native._check(lib.stat_coupon_segments(ffi.from_buffer(data), data.size, data.dtype.itemsize, k,
                                            ffi.from_buffer("int64_t[]", lengths), room, segments, consumed),
                   "coupon collector segments")
    return lengths[: segments[0]], int(consumed[0])


class CouponAccumulator(CellLawAccumulator):
    """Streaming core of :func:`coupon_collector_test`; the incomplete segment is carried."""

    name = "coupon collector test"
    item = "segments"

    def __init__(self, probabilities, *, min_expected=5.0):
        super().__init__(probabilities)
        states = coupon_states(self.exact)
        if states > MAX_COUPON_STATES:
            raise ValueError(f"coupon collector for these probabilities needs a Markov chain of {states:,} states "
                             f"(limit {MAX_COUPON_STATES:,})")
        # Segment lengths 0..cells-2 and ">= cells-1"; cut where the tail is negligible.
        length = 4 * self.k
        while True:
            cells = coupon_length_distribution(self.exact, length)
            if cells[-1] < 1e-10:
                break
            length *= 2
        self._set_cells(cells, min_expected)
        self.cells = cells.size
        self.mean_length = float((np.arange(self.cells) * cells).sum())
        self._pending = np.zeros(0, dtype=self._dtype)
        self._window = int(4 * self.mean_length) + self.k

    sums = ("counts",)

    def sync(self, head, start):
        """Values up to the first segment start that every state the boundary can leave leads to.

        The segment cut by the boundary has seen some proper subset S of the categories, so it ends
        at the last first-appearance in ``head`` of a category outside S: one past a first
        appearance is where each possible next segment starts.  Each candidate goes on segment by
        segment (the lowest moved on first) until all coincide; from that common start on, the
        segments are the same whatever came before (segments are read off the values alone).
        """
        values, first = np.unique(head, return_index=True)
        if values.size < self.k:
            return None
        starts = set((first + 1).tolist())
        while len(starts) > 1:
            lowest = min(starts)
            end = self._segment_end(head, lowest)
            if end is None:
                return None
            starts.discard(lowest)
            starts.add(end + 1)
        return starts.pop()

    sync.replays = False  # at that start a segment begins afresh

    def _segment_end(self, data, start):
        """Index of the value that completes the segment starting at ``start`` (None: not in ``data``)."""
        lengths, _ = segment_lengths(data[start:], self.k, limit=1)
        return start + int(lengths[0]) - 1 if lengths.size else None

    def _update(self, x):
        data = np.concatenate([self._pending, x]) if self._pending.size else x
        lengths, consumed = segment_lengths(data, self.k)
        self._pending = data[consumed:].copy()
        self._count(lengths)

    def min_samples(self):
        return int(np.ceil(self.min_items() * self.mean_length))


def scarce_category_cells(acc: CouponAccumulator, delta: float) -> np.ndarray:
    """Segment-length law when the least likely category j has probability (1 - δ) p_j
    (the others scaled up in proportion)."""
    p = acc.p.copy()
    j = int(np.argmin(p))
    p_j = p[j] * (1 - delta)
    p *= (1 - p_j) / (1 - p[j])
    p[j] = p_j
    return coupon_length_distribution(tuple(p), acc.cells - 1)


def detectable_scarcity(acc: CouponAccumulator, result: ChiSquareResult, alpha: float, power: float) -> float:
    """Smallest δ such that the coupon collector's test detects its least likely category at (1 - δ) p_j."""
    from stats.power import detectable_law_change

    return detectable_law_change(acc.cell_p, lambda d: scarce_category_cells(acc, d), result.n, alpha, result.df,
                                 min_expected=acc.min_expected, power=power, upper=0.999)


def coupon_collector_test(x, probabilities, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Coupon collector's test: lengths of segments that complete the set of categories.

    Null hypothesis: outcomes are independent with the device's distribution.

    Parameters
    ----------
    x : array_like of int
        Category indices.  The sequence is cut into consecutive segments, each
        ending as soon as every category has appeared in it.
    probabilities : int or sequence
        Distribution of one outcome.  Unequal probabilities are supported
        while the exact Markov chain (on how many categories of each group of
        equally likely ones have been seen) has at most 2^16 states.
    min_expected : float, optional
        Adjacent segment-length cells are pooled until each expects this many.

    Returns
    -------
    ChiSquareResult
        ``n`` = number of complete segments.

    Notes
    -----
    Segments are independent under the null hypothesis; the exact
    distribution of a segment's length comes from a Markov chain on the number
    of categories seen (equal probabilities; Knuth's formula
    d!/d^r S(r-1, d-1)), per group of equally likely categories (unequal) [1]_.  The last,
    incomplete segment is dropped.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 E, Addison-Wesley, 1997.
    """
    return CouponAccumulator(probabilities, min_expected=min_expected).run(x)


def _scarcity(ctx, acc):
    j, rarest = _detect.least_likely(ctx.labels, ctx.probabilities)
    return f"{ctx.word} {rarest} at (1 − δ)·{ctx.probabilities[j]}"


def _coupon_applies(ctx):
    p = ctx.probabilities
    return (p,) if len(set(p)) == 1 or len(p) <= 12 else None


BATTERY = [
    BatteryTest("coupon-collector", ("categorical",), "values", CouponAccumulator, _coupon_applies,
                _detect.solved(detectable_scarcity, _scarcity), order=160, function=coupon_collector_test),
]


__all__ = ["coupon_collector_test", "CouponAccumulator", "segment_lengths", "scarce_category_cells", "detectable_scarcity"]
