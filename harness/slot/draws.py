"""What a slot play's draws are and what each one picks: the one home every player reads.

A play's outcomes are bounded integers: a reel stop, a bonus pick, a
hold-and-spin landing, a refill.  The feature rules
(:func:`harness.slot.bonus.play`, :func:`harness.slot.hold_spin.play`, the
window player's cascades) take a *draw source* and ask it for them, so the
same rule plays a round (:mod:`harness.slot.spin`: drawn from the system's
RNG and journaled, or re-derived from the journal) and a simulation
(:mod:`harness.slot.simulate`, :mod:`harness.slot.window_player`).

A draw source has two methods: ``one(bound)``, an integer on ``[0, bound)``,
and ``many(bound, k)``, ``k`` of them in order.  The sources:

* :class:`NumpyDraws`: ``rng.integers(0, bound[, size])``, the Python
  simulation players' draws (numpy's ``Generator`` or ``rngcore.Generator``);
* :class:`GeneratorDraws`: the unbiased bounded draw of the C kernel
  (``kern_slot_stops``: ``rng_bounded32``, in order) on an ``rngcore``
  generator, every value kept (a round journals them);
* :class:`RecordedDraws`: the values a journal kept, checked against the
  bound each is asked for (a replay or a recovery re-derives the play).

A weighted entry is the one a draw below the total weight falls in, the
entries taken in order (:func:`falls_in`, :func:`falls_in_many`): no modulo
and no float picks an outcome.
"""
from __future__ import annotations

import numpy as np


def falls_in(weights, r: int) -> int:
    """The index of the entry draw ``r`` (below ``sum(weights)``) falls in, entries in order."""
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("a draw past the total weight")


def falls_in_many(weights, draws) -> np.ndarray:
    """:func:`falls_in` of every draw of ``draws`` (an array), vectorised; a draw at or past the
    total weight gives ``len(weights)``."""
    return np.searchsorted(np.cumsum(weights), draws, side="right")


def bounded(generator, bounds, what: str) -> tuple[int, ...]:
    """One unbiased draw on [0, b) per bound (``kern_slot_stops``: ``rng_bounded32``, in order)."""
    from harness.kernels import ffi, lib
    from rngcore.engine import locked_call

    bounds = np.asarray(bounds, dtype=np.uint32)
    out = np.empty(len(bounds), dtype=np.uint32)
    locked_call(generator, lib.kern_slot_stops, len(bounds), ffi.from_buffer("uint32_t[]", bounds), 1,
                ffi.from_buffer("uint32_t[]", out), what=what)
    return tuple(int(s) for s in out)


class NumpyDraws:
    """Draws from ``rng.integers`` (the Python simulation players)."""

    def __init__(self, rng):
        self.rng = rng

    def one(self, bound: int) -> int:
        return int(self.rng.integers(0, bound))

    def many(self, bound: int, k: int):
        return self.rng.integers(0, bound, size=k)


class GeneratorDraws:
    """Draws of an ``rngcore`` generator by :func:`bounded`, each kept in :attr:`made` (a round's record)."""

    def __init__(self, generator, what: str):
        self.generator, self.what = generator, what
        self.made: list[int] = []

    def one(self, bound: int) -> int:
        return self.many(bound, 1)[0]

    def many(self, bound: int, k: int) -> tuple[int, ...]:
        got = bounded(self.generator, [bound] * k, f"drawing {self.what}") if k else ()
        self.made.extend(got)
        return got


class RecordedDraws:
    """The draws a record kept, handed out in order; ValueError naming ``what`` when one is missing or
    not below the bound the rule asks it for."""

    def __init__(self, values, what: str):
        if not isinstance(values, (list, tuple)):
            raise ValueError(f"{values!r} is not {what}'s draws (a list of whole numbers)")
        self.values, self.what, self.used = values, what, 0

    def one(self, bound: int) -> int:
        value = self.values[self.used] if self.used < len(self.values) else None
        if type(value) is not int or not 0 <= value < bound:
            raise ValueError(f"{self.what} owes a draw below {bound}; its record has {value!r}")
        self.used += 1
        return value

    def many(self, bound: int, k: int) -> tuple[int, ...]:
        return tuple(self.one(bound) for _ in range(k))

    def check_used(self) -> None:
        """ValueError if the record holds more draws than the play made."""
        if self.used != len(self.values):
            raise ValueError(f"{self.what} made {self.used} draw(s) but {len(self.values)} are recorded")


__all__ = ["GeneratorDraws", "NumpyDraws", "RecordedDraws", "bounded", "falls_in", "falls_in_many"]
