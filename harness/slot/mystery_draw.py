"""Mystery progressive levels drawn in a simulation: the one rule the numpy and window players share.

Each play draws one bounded integer below the levels' probabilities' common
denominator ``D`` (``rng.integers(0, D, size)``, after the play's reel
stops); level ``i`` is hit when it falls in the ``i``-th range of
``p_i x D`` values, the ranges taken in the model's order (disjoint: at most
one level a play, as the exact analysis has it; docs/slot_model.md,
"Mystery and multi-level progressives").  A hit pays the level's reset; the
meter's increments count as its contribution on every bet, as for the
combination progressive (:mod:`harness.slot.simulate`).
"""
from __future__ import annotations

import math

import numpy as np

from harness.slot.draws import falls_in_many
from harness.slot.errors import ModelError
from harness.slot.model import SlotModel


class MysteryDraw:
    """The mystery levels of one model, ready to be drawn for many plays at once."""

    def __init__(self, model: SlotModel):
        self.den = math.lcm(*(m.probability.denominator for m in model.mystery))
        if self.den >= 2**63:
            raise ModelError("mystery", f"the mystery probabilities' common denominator {self.den:,} is beyond "
                             "the simulation's 64-bit draws (2**63 - 1); the figures are exact without it",
                             model.source)
        self.weights = [m.probability.numerator * (self.den // m.probability.denominator) for m in model.mystery]
        self.resets = np.array([m.reset for m in model.mystery] + [0], dtype=np.int64)

    def spin(self, m: int, rng) -> tuple[np.ndarray, np.ndarray]:
        """For each of ``m`` plays: whether a level is hit, and the reset it pays (credits)."""
        level = falls_in_many(self.weights, rng.integers(0, self.den, size=m))
        return level < len(self.weights), self.resets[level]


__all__ = ["MysteryDraw"]
