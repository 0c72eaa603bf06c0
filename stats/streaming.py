"""Streaming cores: every test as an accumulator that takes chunks.

Use these to test streams larger than memory (10^9 outcomes and more): the
memory used is that of the test's tables, never of the stream.  Each
accumulator has ``update(chunk)``, ``result()`` and ``min_samples()``; the
public test functions are one-chunk uses of the same classes, so streamed
and in-memory results are identical.

>>> import numpy as np
>>> from stats.streaming import FrequencyAccumulator
>>> acc = FrequencyAccumulator(37)
>>> for chunk in np.array_split(np.arange(37 * 100) % 37, 10):
...     acc.update(chunk)
>>> acc.result().statistic
0.0
"""
from stats.battery import Battery
from stats.chisquare import FrequencyAccumulator
from stats.correlation import SerialCorrelationAccumulator
from stats.coupon import CouponAccumulator
from stats.gap import GapAccumulator
from stats.interplay import InterplayAccumulator
from stats.order import MaximumAccumulator, OrderPatternAccumulator
from stats.pit import RandomizedPIT
from stats.poisson import PoissonAccumulator
from stats.poker import PokerAccumulator
from stats.runs import MedianRunsAccumulator, RunsAccumulator
from stats.second_level import SubsequenceAccumulator
from stats.serial import IndependenceAccumulator, SerialAccumulator
from stats.shuffle import (
    AdjacencyAccumulator,
    ArrangementAccumulator,
    CardPositionAccumulator,
    CarryoverAccumulator,
    CompositionAccumulator,
    PositionAccumulator,
    RelativeOrderAccumulator,
)
from stats.spacings import BirthdaySpacingsAccumulator, CollisionAccumulator
from stats.spectral import OutcomeBits, SpectralAccumulator

#: The name the issue uses for the frequency accumulator.
ChiSquareAccumulator = FrequencyAccumulator


def accumulators() -> dict:
    """Every registered battery entry's accumulator class, by class name (:mod:`stats.registry`)."""
    from stats.registry import entries

    return {e.accumulator.__name__: e.accumulator for e in entries() if isinstance(e.accumulator, type)}


def __getattr__(name: str):
    # A test registered after this list was written is still reachable as stats.streaming.<Its>Accumulator.
    if not name.startswith("_"):
        found = accumulators().get(name)
        if found is not None:
            return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Battery", "FrequencyAccumulator", "ChiSquareAccumulator", "SerialAccumulator", "IndependenceAccumulator",
    "GapAccumulator", "PokerAccumulator", "CouponAccumulator", "OrderPatternAccumulator", "MaximumAccumulator",
    "RunsAccumulator", "MedianRunsAccumulator", "SerialCorrelationAccumulator", "BirthdaySpacingsAccumulator",
    "CollisionAccumulator", "SubsequenceAccumulator", "RandomizedPIT", "CompositionAccumulator",
    "PositionAccumulator", "CardPositionAccumulator", "AdjacencyAccumulator", "CarryoverAccumulator",
    "ArrangementAccumulator", "RelativeOrderAccumulator", "PoissonAccumulator", "SpectralAccumulator",
    "OutcomeBits", "InterplayAccumulator", "accumulators",
]
