"""The reels kind: the stops of N slot reels per play, each reel with its own stop law.

A play is one row of N stops (reel 1 first), each a label index ``0 .. L_r - 1``
of a physical stop of reel ``r`` (labels ``1 .. max L_r``), drawn with the
reel's own law: ``weight / total weight`` of its stops (1 / L_r unweighted).
Unlike dice, reels need not share a law, so the battery tests each reel
against its own (:mod:`stats.reelstops`), the reels of one play against each
other, and each reel's stop against its stop in the play before.

A row may hold other values of a reel with their own laws, such as the
height a reel drew on a game with reel heights per spin (``columns`` says
what each value is: ``("reel 1", "height")``, label index ``h - 1`` for
height ``h``); every test then treats them as it treats the stops.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from stats.kinds._base import DeviceKind


def average_law(laws) -> tuple[Fraction, ...]:
    """The law of the stop of a reel picked at random: the average of the reels' ``laws`` (each over
    the same labels), the kind's one-value ``probabilities``."""
    return tuple(sum(law[i] for law in laws) / len(laws) for i in range(len(laws[0])))


class Reels(DeviceKind):
    """N reel stops per play, reel r with its own exact law ``laws[r]`` (label indices 0 .. L_r - 1).

    ``probabilities`` (the kind's one-value law) is the average of the reels'
    laws: the law of the stop of a reel picked at random.
    """

    kind = "reels"
    unit = "plays"
    default_samples = 200_000
    row_shaped = True
    value_word = "stop"
    summary = "the stops of N slot reels per play, each reel with its own stop law (weights allowed)"

    def __init__(self, labels, probabilities=None, *, width: int = 1, name: str | None = None, multiset=None,
                 laws=None, columns=None):
        labels = tuple(str(label) for label in labels)
        if laws is None:
            laws = (probabilities,) * int(width)
        laws = tuple(tuple(Fraction(p) for p in law) for law in laws)
        where = name or self.kind
        if len(laws) != int(width) or not laws:
            raise ValueError(f"{where}: {len(laws)} reel laws for {width} reels")
        for r, law in enumerate(laws, start=1):
            if len(law) != len(labels) or sum(law) != 1 or min(law) < 0:
                raise ValueError(f"{where}: reel {r}'s law is not a distribution over the {len(labels)} stop labels")
        self.laws = laws
        self.columns = tuple(columns) if columns is not None else tuple((f"reel {r}", "stop")
                                                                        for r in range(1, len(laws) + 1))
        # a stop past the reel's last stop of positive probability does not exist on that reel
        self.stops = tuple(max(i for i, p in enumerate(law) if p) + 1 for law in laws)
        super().__init__(labels, average_law(laws), width=width, name=name)

    @classmethod
    def from_spec(cls, spec):
        return cls(spec.labels, spec.probabilities, width=spec.width, name=spec.name,
                   laws=getattr(spec, "laws", None), columns=getattr(spec, "columns", None))

    def reel_laws(self) -> tuple[tuple[Fraction, ...], ...]:
        """Each reel's law over its own stops ``0 .. L_r - 1``."""
        return tuple(law[:k] for law, k in zip(self.laws, self.stops))

    def describe_row_error(self, row: np.ndarray) -> str | None:
        for r, (stop, k) in enumerate(zip(np.asarray(row).tolist(), self.stops)):
            if not 0 <= stop < k or not self.laws[r][stop]:
                whose, what = self.columns[r]
                return f"{whose} shows {what} {self.labels[stop] if 0 <= stop < len(self.labels) else stop}, " \
                       f"which it does not have ({k} {what}s)"
        return None


KINDS = [Reels]
