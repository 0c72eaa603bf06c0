"""Rising-sequence test: is a shuffle still made of a few interleaved runs of the order it came from?

A riffle shuffle cuts the stack and interleaves the packets, so every packet
keeps its order: after k riffles the stack is the union of at most 2^k
*rising sequences* of the order before (Bayer and Diaconis [1]_).  A machine
shuffler that riffles too few times leaves fewer rising sequences than a
uniform shuffle, whose count has the Eulerian law.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np
from scipy import optimize as _opt
from scipy import stats as _sps

from stats import _detect
from stats._exact import power_of_pmf, two_sided_discrete
from stats._results import RisingSequenceResult
from stats._validate import check_choice
from stats.registry import BatteryTest
from stats.shuffle import RowsAccumulator

REFERENCES = ("fresh", "previous")
#: Above this many shuffles the convolved Eulerian law is replaced by the normal one
#: (the law is symmetric, so the error is O(1/n)).
EXACT_LIMIT = 20_000
#: p-values below this are rounding in the convolved law; a Chernoff bound is reported instead.
FLOOR = 1e-12


@lru_cache(maxsize=16)
def eulerian_pmf(size: int) -> np.ndarray:
    """P(D = j), j = 0..size-1: descents of a uniform permutation of ``size`` items,
    A(size, j)/size! with A(m, j) = (j + 1) A(m - 1, j) + (m - j) A(m - 1, j - 1)."""
    row = [1]
    for m in range(2, size + 1):
        row = [(j + 1) * (row[j] if j < len(row) else 0) + (m - j) * (row[j - 1] if j >= 1 else 0)
               for j in range(m)]
    total = factorial(size)
    return np.array([float(Fraction(a, total)) for a in row])


def compared_labels(multiset) -> tuple[int, ...]:
    """The labels whose first appearances are compared: those of the most common
    multiplicity (every label of a deck or shoe), in the order they first appear in the stack."""
    counts = Counter(int(v) for v in multiset)
    classes = Counter(counts.values())
    copies = max(classes, key=lambda c: (classes[c], c))
    return tuple(dict.fromkeys(v for v in (int(u) for u in multiset) if counts[v] == copies))


def chernoff_tail(size: int, shuffles: int, descents: int) -> float:
    """Chernoff bound on P(T <= t) (or P(T >= t) above the mean) for T the total descents of
    ``shuffles`` uniform permutations: inf over θ of E[exp(θ(T - t))]."""
    pmf = eulerian_pmf(size)
    j = np.arange(size)
    rate = descents / shuffles
    sign = -1.0 if rate < (size - 1) / 2 else 1.0

    def log_bound(theta):
        a = sign * theta * (j - rate)
        top = a.max()
        return shuffles * (top + np.log(pmf @ np.exp(a - top)))

    best = _opt.minimize_scalar(log_bound, bounds=(0.0, 50.0), method="bounded")
    return float(np.exp(min(0.0, best.fun)))


class RisingSequenceAccumulator(RowsAccumulator):
    """Streaming core of :func:`rising_sequence_test`; against the previous shuffle, its
    first appearances are carried."""

    name = "rising sequences"
    sums = ("counts",)

    def sync(self, head, start):
        # against the previous shuffle, a segment's first shuffle is compared with the one before it
        needed = 0 if self.reference == "fresh" else 1
        return needed if len(head) >= needed else None

    def __init__(self, multiset, *, reference="fresh"):
        super().__init__(multiset)
        check_choice("reference", reference, REFERENCES)
        self.reference = reference
        self.chosen = np.array(compared_labels(self.multiset), dtype=np.int64)
        self.size = self.chosen.size
        if self.size < 2:
            raise ValueError("rising sequences need at least 2 labels of the same multiplicity")
        # After a stable sort of a row by label, label l's first copy sits at offset start[l].
        self._start = np.concatenate([[0], np.cumsum(self.m)[:-1]])[self.chosen]
        self.counts = np.zeros(self.size, dtype=np.int64)  # shuffles with j descents
        self._last = None

    def _first_positions(self, rows):
        """first[s, i]: position of the first copy of label chosen[i] in shuffle s."""
        order = np.argsort(rows, axis=1, kind="stable")
        return order[:, self._start]

    def _update(self, rows):
        first = self._first_positions(rows)
        if self.reference == "fresh":
            # chosen is in the fresh stack's order of first appearances.
            seen = first
        else:
            previous = first[:-1] if self._last is None else np.concatenate([self._last, first[:-1]])
            ref = np.argsort(previous, axis=1)  # the previous shuffle's order of first appearances
            seen = np.take_along_axis(first if self._last is not None else first[1:], ref, axis=1)
            self._last = first[-1:].copy()
        if seen.shape[0]:
            descents = np.count_nonzero(seen[:, 1:] < seen[:, :-1], axis=1)
            self.counts += np.bincount(descents, minlength=self.size)

    def min_samples(self):
        return 1 if self.reference == "fresh" else 2

    def _result(self):
        shuffles = int(self.counts.sum())
        descents = int(np.arange(self.size) @ self.counts)
        L = self.size
        mean, var = shuffles * (L - 1) / 2, shuffles * (L + 1) / 12
        if shuffles <= EXACT_LIMIT:
            pmf, offset = power_of_pmf(eulerian_pmf(L), 0, shuffles)
            pvalue, method = two_sided_discrete(pmf, offset, descents), "exact"
        else:
            pvalue = float(min(1.0, 2 * _sps.norm.sf((abs(descents - mean) - 0.5) / np.sqrt(var))))
            method = "normal"
        if pvalue < FLOOR:
            # Below the convolution's rounding: the Chernoff bound, a true upper bound.
            pvalue = min(FLOOR, 2 * chernoff_tail(L, shuffles, descents))
        sd = float(np.sqrt(var))
        total = descents + shuffles  # rising sequences = descents + 1
        return RisingSequenceResult(float(total), pvalue, self.n, shuffles, L, self.reference,
                                    float(mean + shuffles), sd, (descents - mean) / sd, self.counts, method)


def rising_sequence_test(rows, multiset, *, reference: str = "fresh") -> RisingSequenceResult:
    """Rising-sequence test: does each shuffle keep runs of the order it was shuffled from?

    Null hypothesis: every row is a uniformly random arrangement of the
    multiset, independently of the other rows.

    Parameters
    ----------
    rows : array_like, shape (n, W)
        Label index of each item, one shuffle per row, in the order dealt.
    multiset : sequence of int
        Label index of every item of the fresh stack, in the fresh stack's order.
    reference : {"fresh", "previous"}, optional
        The order the shuffles are compared with: the fresh stack's (a
        shuffler fed new decks) or the previous shuffle's (a shuffler fed the
        discards; n - 1 comparisons).

    Returns
    -------
    RisingSequenceResult
        ``statistic`` = total rising sequences over the shuffles compared,
        with its exact two-sided p-value and the histogram of the counts.

    Notes
    -----
    Each shuffle is reduced to the order in which the compared labels first
    appear (every label of a deck or shoe; of a stack whose labels have unequal
    multiplicities, those of the most common multiplicity).  The number of
    rising sequences of that order relative to the reference, R = 1 +
    #{r : label ref[r + 1] first appears before label ref[r]}, is the
    Bayer–Diaconis count [1]_ of a deck.  Under the null hypothesis labels
    of equal multiplicity are exchangeable, so the order of first appearances
    is a uniform permutation of the L labels, independent from shuffle to
    shuffle; R - 1 then has the **Eulerian** law A(L, j)/L! (mean (L - 1)/2,
    variance (L + 1)/12), and against the previous shuffle the relative
    orders are again independent and uniform (the group is uniform).  The
    total over the shuffles has the Eulerian law convolved with itself
    (exact, up to 20,000 shuffles; beyond, the normal law: the Eulerian law
    is symmetric).  Valid from one shuffle.  An a-shuffle of a deck
    (Gilbert–Shannon–Reeds, log2 a riffles) has P(π) = C(a + W - R(π), W)/a^W [1]_,
    which decreases with R: fewer rising sequences, the test's one-sided
    direction; the test is two-sided so that too many (a stack dealt in
    reverse) are seen too.

    References
    ----------
    .. [1] D. Bayer and P. Diaconis, "Trailing the dovetail shuffle to its
       lair", Ann. Appl. Probab. 2 (1992) 294-313.
    """
    return RisingSequenceAccumulator(multiset, reference=reference).run(rows)


def _applies(reference):
    def arguments(ctx):
        return dict(multiset=ctx.kind.multiset, reference=reference) if ctx.kind.width >= 3 else None

    return arguments


BATTERY = [
    BatteryTest("rising-sequences", ("permutation",), "rows", RisingSequenceAccumulator, _applies("fresh"),
                _detect.normal("rising sequences per shuffle (fresh order)"), order=470,
                function=rising_sequence_test),
    BatteryTest("rising-from-previous", ("permutation",), "rows", RisingSequenceAccumulator,
                _applies("previous"), _detect.normal("rising sequences per shuffle (previous order)"),
                order=471),
]


__all__ = ["rising_sequence_test", "eulerian_pmf", "compared_labels", "RisingSequenceAccumulator", "REFERENCES"]
