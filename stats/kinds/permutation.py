"""Permutation of a multiset: one freshly shuffled stack per row (shoes, a deck, the tile set)."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np

from stats.kinds._base import DeviceKind, Stream, one, seekable, stateless


def _first_bits(kind, seed):
    from stats.outcome_bits import OutcomeBits

    # Its own jitter stream: the first cards are a separate outcome sequence.
    bits = OutcomeBits(kind.probabilities, seed=seed + 1)
    return seekable(lambda rows, get: bits(get("first")), bits.seek)


def _first_bits_per_row(kind) -> int:
    from stats.outcome_bits import bits_per_outcome

    return bits_per_outcome(len(kind.probabilities))


class Permutation(DeviceKind):
    """A shuffle of a fixed multiset of labelled items, one stack per row.

    ``multiset`` holds the label index of every item of the fresh stack;
    ``probabilities`` is the law of the item at any one position.  Streams:
    ``rows`` (one shuffle), ``first`` (its first item), ``first-bits`` (PIT
    digits of the first items, on their own jitter stream).
    """

    kind = "permutation"
    unit = "shuffles"
    value_word = "card"
    default_samples = 10_000
    summary = "a shuffle of a multiset of labelled items (shoe, deck, tiles)"
    streams = (
        Stream("first", one, stateless(lambda kind, rows, get: rows[:, 0])),
        Stream("first-bits", _first_bits_per_row, _first_bits),
    )

    def __init__(self, labels, probabilities=None, *, width: int | None = None, name: str | None = None,
                 multiset=None):
        if multiset is None:
            raise ValueError(f"{name or self.kind}: a permutation kind needs its multiset")
        counts = Counter(int(i) for i in multiset)
        law = tuple(Fraction(counts[i], len(multiset)) for i in range(len(labels)))
        super().__init__(labels, law, width=len(multiset), name=name, multiset=multiset)

    def describe_row_error(self, row: np.ndarray) -> str | None:
        """Which labels appear too often and too rarely in a row that is not a shuffle of the multiset."""
        want = np.bincount(np.asarray(self.multiset), minlength=len(self.labels))
        got = np.bincount(np.asarray(row, dtype=np.int64), minlength=len(self.labels))
        if np.array_equal(want, got):
            return None
        parts = [f"{self.labels[i]} appears {got[i]} times" for i in np.flatnonzero(got != want)]
        expected = sorted({int(want[i]) for i in np.flatnonzero(got != want)})
        each = " or ".join(str(e) for e in expected)
        return f"{', '.join(parts[:6])}{' ...' if len(parts) > 6 else ''} (a fresh stack has {each} of each)"


KINDS = [Permutation]
