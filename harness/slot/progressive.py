"""The progressive jackpot's share of the return, and its meter.

Model (the standard long-run accounting of a stand-alone progressive; see
``docs/slot_model.md`` for the references):

* the meter starts at the reset value ``R0`` credits, funded by the house;
* every play adds ``c × B`` to the meter (``c`` the contribution rate, ``B``
  the total bet) before its outcome is known, so the winning play's own
  contribution is part of the jackpot it wins;
* a play hits with probability ``p`` (the progressive combination on at
  least one played line), independently of every other play; a hit pays the
  meter and resets it to ``R0``.

The number of plays ``G`` from one reset to the next hit, counting the
hitting play, is geometric: ``P(G = g) = (1 - p)^(g - 1) p``, so
``E[G] = 1/p`` and ``E[G^2] = (2 - p)/p^2``.  The meter paid at a hit is
``M = R0 + c B G``:

    E[M]   = R0 + c B / p
    E[M^2] = R0^2 + 2 R0 c B / p + c^2 B^2 (2 - p) / p^2

Per play the jackpot returns ``p E[M] = p R0 + c B``: its RTP share is

    c + p R0 / B

— the contribution rate plus the reset value's share.  The meter kept
exactly (fractions of a credit carried to the next cycle) does not change
this long-run figure.

Mystery progressives: every play hits level ``i`` with probability ``q_i``
(at most one level per play, ``sum q_i < 1``), independently of its reels,
so each level is a meter as above with ``p = q_i``, and the play's mystery
win ``Q`` (the meter of the level hit, or 0) has ``E[Q] = sum q_i E[M_i]``
and ``E[Q^2] = sum q_i E[M_i^2]`` (the levels are disjoint events); being
independent of the reels, it adds ``Var Q`` to the play's variance.  A
meter linked across machines (wide-area) keeps exactly these per-play
figures when every machine on it plays at the same bet and odds: the
plays between two hits are then geometric in the plays of the whole link.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot.model import MysteryLevel, Progressive


@dataclasses.dataclass(frozen=True)
class ProgressiveSummary:
    hit_probability: Fraction       # p, per play
    contribution: Fraction          # c
    reset: int                      # R0, credits
    mean_meter: Fraction            # E[M], credits
    meter_second_moment: Fraction   # E[M^2]
    rtp: Fraction                   # c + p R0 / B

    @property
    def reset_share(self) -> Fraction:
        return self.rtp - self.contribution


def summarise(progressive: Progressive | MysteryLevel, hit_probability: Fraction, total_bet: int) -> ProgressiveSummary:
    """Meter moments and RTP share for hit probability ``p > 0`` per play.

    The same accounting holds for a combination progressive and for each
    level of a mystery progressive (hit with its stated probability per
    play, independently of the reels and of every other play).
    """
    p = hit_probability
    if not 0 < p <= 1:
        raise ValueError(f"hit probability must be in (0, 1], got {p}")
    c, r0, b = progressive.contribution, progressive.reset, total_bet
    mean = r0 + c * b / p
    second = r0 * r0 + 2 * r0 * c * b / p + c * c * b * b * (2 - p) / (p * p)
    return ProgressiveSummary(
        hit_probability=p,
        contribution=c,
        reset=r0,
        mean_meter=mean,
        meter_second_moment=second,
        rtp=c + p * r0 / b,
    )


def mystery_moments(levels: tuple[ProgressiveSummary, ...]) -> tuple[Fraction, Fraction]:
    """``(E[Q], E[Q^2])``, credits, of the mystery win of one play (module docstring)."""
    mean = sum((m.hit_probability * m.mean_meter for m in levels), Fraction(0))
    second = sum((m.hit_probability * m.meter_second_moment for m in levels), Fraction(0))
    return mean, second
