"""k of n without replacement: k distinct numbered balls drawn from n per row (blowers, keno, bingo)."""
from __future__ import annotations

import functools
from fractions import Fraction
from math import comb

import numpy as np

from stats.kinds._base import DeviceKind, Stream, one, stateless

#: Most balls a k-of-n device may hold (labels are 1..n; indices fit uint16).
MAX_BALLS = 1000


def _combination_index(kind, rows, get):
    """Each draw's set of balls as its rank among the C(n, k) sets (combinatorial number system).

    A row that repeats a ball is no set; it is left out here (the distinct-balls check fails it).
    """
    ordered = np.sort(rows.astype(np.int64), axis=1)
    ordered = ordered[np.all(ordered[:, 1:] != ordered[:, :-1], axis=1)]
    rank = np.zeros(len(ordered), dtype=np.int64)
    for j in range(kind.width):
        rank += kind.binomials[ordered[:, j], j + 1]
    return rank


class KOfN(DeviceKind):
    """k distinct balls of n per row, in draw order; labels ``"1"``..``"n"``.

    ``probabilities`` is the law of one drawn ball (1/n each).  Streams:
    ``rows`` (one draw), ``first`` (its first ball: an i.i.d. uniform
    sequence), ``balls`` (every ball drawn), ``sets`` (the draw as a set:
    its rank among the C(n, k) sets).
    """

    kind = "k-of-n"
    unit = "draws"
    value_word = "ball"
    default_samples = 100_000
    syntax = "k-of-n:K:N"
    summary = "K distinct balls of N per draw (labels 1..N), e.g. k-of-n:3:20"
    streams = (
        Stream("first", one, stateless(lambda kind, rows, get: rows[:, 0])),
        Stream("balls", lambda kind: kind.width, stateless(lambda kind, rows, get: rows.ravel())),
        Stream("sets", one, stateless(_combination_index)),
    )

    def __init__(self, labels=None, probabilities=None, *, width: int = 1, name: str | None = None,
                 multiset=None, balls: int | None = None):
        n = len(labels) if labels is not None else int(balls)
        if not 1 <= int(width) <= n <= MAX_BALLS:
            raise ValueError(f"{name or self.kind}: need 1 <= K <= N <= {MAX_BALLS}, got K = {width}, N = {n}")
        labels = tuple(labels) if labels is not None else tuple(str(i) for i in range(1, n + 1))
        super().__init__(labels, (Fraction(1, n),) * n, width=width, name=name or f"k-of-n:{width}:{n}")
        self.balls = n
        self.sets = comb(n, self.width)

    @functools.cached_property
    def binomials(self) -> np.ndarray:
        """binomials[i, j] = C(i, j): a sorted set's rank is sum_j C(ball_j, j + 1) (< C(n, k))."""
        if self.sets >= 2**62:
            raise ValueError(f"{self.name}: {self.sets} sets do not fit one 64-bit rank")
        return np.array([[comb(i, j) for j in range(self.width + 1)] for i in range(self.balls)], dtype=np.int64)

    @classmethod
    def parse(cls, name: str):
        if not name.startswith("k-of-n:"):
            return None
        parts = name.split(":")[1:]
        if len(parts) != 2 or not all(p.isdigit() and len(p) <= 4 for p in parts):
            raise ValueError(f"device {name!r}: write k-of-n:K:N with whole numbers, e.g. k-of-n:3:20")
        k, n = (int(p) for p in parts)
        return cls(balls=n, width=k, name=f"k-of-n:{k}:{n}")

    def describe_row_error(self, row: np.ndarray) -> str | None:
        values, counts = np.unique(np.asarray(row), return_counts=True)
        repeated = [self.labels[v] for v, c in zip(values, counts) if c > 1]
        return f"ball {', '.join(repeated)} drawn twice in one draw" if repeated else None


KINDS = [KOfN]
