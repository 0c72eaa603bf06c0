"""Categorical kinds: a wheel (one symbol per spin) and dice (N independent faces per roll).

Any number of faces: the law is the kind's ``probabilities``, so a d6, a d20
or a 37-pocket wheel are the same kind with different tables.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from stats.kinds._base import DeviceKind, Reused, Stream, one, seekable, stateless


def _values(kind, rows, get):
    return rows.ravel() if kind.row_shaped else rows


def _uniform(kind, seed):
    from stats.pit import RandomizedPIT

    pit = RandomizedPIT(kind.probabilities, seed)
    out = Reused()

    def derive(rows, get):
        values = get("values")
        return pit(values, out=out(len(values)))

    return seekable(derive, lambda row: pit.seek(row * kind.width))


def _bits(kind, seed):
    from stats.outcome_bits import OutcomeBits

    bits = OutcomeBits(kind.probabilities, seed=seed)
    # The PIT digits (one jitter draw shared with the "uniform" tests), or the raw bits.
    return seekable(lambda rows, get: bits(get("values"), None if bits._direct else get("uniform")),
                    lambda row: bits.seek(row * kind.width))


def _bits_per_value(kind) -> int:
    from stats.outcome_bits import bits_per_outcome

    return bits_per_outcome(len(kind.probabilities))


class Categorical(DeviceKind):
    """One symbol per outcome with a fixed exact law (wheels: roulette, Big Six, Money Wheel).

    Streams: ``values`` (label indices), ``uniform`` (their randomized PIT,
    :mod:`stats.pit`), ``bits`` (PIT digits, :class:`stats.outcome_bits.OutcomeBits`).
    """

    kind = "categorical"
    unit = "outcomes"
    default_samples = 1_000_000
    row_shaped = False
    summary = "one symbol per outcome, any number of faces with exact probabilities"
    streams = (
        Stream("values", lambda kind: kind.width, stateless(_values)),
        Stream("uniform", lambda kind: kind.width, _uniform),
        Stream("bits", lambda kind: kind.width * _bits_per_value(kind), _bits),
    )
    #: A wheel's physical order: the label index of every section, clockwise (None: not a wheel,
    #: or the order is not known).  The wheel-position tests (:mod:`stats.sectors`) read it.
    sections: tuple | None = None

    def __init__(self, labels, probabilities, *, width: int = 1, name: str | None = None, multiset=None,
                 sections=None):
        super().__init__(labels, probabilities, width=width, name=name, multiset=multiset)
        if sections is not None:
            self.sections = self._check_sections(sections)

    @classmethod
    def from_spec(cls, spec):
        kind = super().from_spec(spec)
        sections = getattr(spec, "sections", None)
        if sections is not None:
            kind.sections = kind._check_sections(sections)
        return kind

    def _check_sections(self, sections) -> tuple:
        """``sections`` as label indices whose shares are the kind's law; ValueError otherwise."""
        sections = tuple(int(s) for s in sections)
        counts = [sections.count(i) for i in range(len(self.labels))]
        if any(s < 0 or s >= len(self.labels) for s in sections) or any(
                Fraction(c, len(sections)) != p for c, p in zip(counts, self.probabilities)):
            raise ValueError(f"{self.name}: the sections' labels ({len(sections)} sections) do not give "
                             f"the law of its labels")
        return sections


def _combos(kind, rows, get):
    return rows.astype(np.int64) @ kind.place_values


def _totals(kind, rows, get):
    return rows.astype(np.int64).sum(axis=1)


class Dice(Categorical):
    """N independent dice per roll, each with the same faces and law (any number of faces).

    Streams, besides the categorical ones over every face: ``rows`` (one roll),
    ``combos`` (the roll as one ordered combination, base-K digits),
    ``totals`` (the sum of the face indices).
    """

    kind = "dice"
    unit = "rolls"
    default_samples = 300_000
    row_shaped = True
    value_word = "face"
    summary = "N independent dice per roll, any number of faces"
    streams = (
        Stream("combos", one, stateless(_combos)),
        Stream("totals", one, stateless(_totals)),
    )

    def __init__(self, labels, probabilities, *, width: int = 1, name: str | None = None, multiset=None):
        super().__init__(labels, probabilities, width=width, name=name)
        faces = len(self.labels)
        self.place_values = faces ** np.arange(self.width - 1, -1, -1, dtype=np.int64)

    @property
    def faces(self) -> int:
        return len(self.labels)

    def totals_law(self) -> tuple:
        """Exact law of the sum of the N face indices."""
        dist = {0: Fraction(1)}
        for _ in range(self.width):
            new: dict = {}
            for s, p in dist.items():
                for face, q in enumerate(self.probabilities):
                    new[s + face] = new.get(s + face, Fraction(0)) + p * q
            dist = new
        return tuple(dist[s] for s in sorted(dist))


KINDS = [Categorical, Dice]
