"""Power functions of the battery's entries: the smallest deviation each test detects.

Each factory returns ``power(ctx, acc, result, alpha, power) -> Detectable``
(see :class:`stats.registry.BatteryTest`); the description says which
deviation the figure δ refers to.
"""
from __future__ import annotations

import numpy as np

from stats._validate import as_float
from stats.power import (
    Detectable,
    detectable_cell_shift,
    detectable_correlation,
    detectable_mean_shift,
    detectable_repeat,
    detectable_shift,
    normal_shift,
)


def least_likely(labels, probabilities):
    """(index, label) of the least likely category."""
    j = int(np.argmin(as_float(probabilities)))
    return j, labels[j]


def frequency(what=None):
    """One category (the least likely) at (1 + δ) times its probability; ``what`` defaults to the kind's word."""
    def power_of(ctx, acc, result, alpha, power):
        j, label = least_likely(ctx.labels, ctx.probabilities)
        delta = detectable_shift(ctx.probabilities, result.n, alpha, power=power, category=j, df=result.df)
        return Detectable(delta, f"{what or ctx.word} {label} at (1 + δ)·{ctx.probabilities[j]}", alpha, power)

    return power_of


def repeat(law=lambda ctx: ctx.probabilities):
    """The next outcome repeats the previous one with probability δ."""
    def power_of(ctx, acc, result, alpha, power):
        delta = detectable_repeat(law(ctx), result.n, alpha, df=result.df, power=power)
        return Detectable(delta, "repeats the previous outcome with probability δ", alpha, power)

    return power_of


def cells(what):
    """Any one cell of the test's table at (1 + δ) times its expectation."""
    def power_of(ctx, acc, result, alpha, power):
        q = result.expected / result.expected.sum()
        delta = detectable_cell_shift(q, result.n, alpha, result.df, power=power)
        return Detectable(delta, f"{what} at (1 + δ)×expected", alpha, power)

    return power_of


def normal(what):
    """A normal statistic's mean at (1 ± δ) times its expectation."""
    def power_of(ctx, acc, result, alpha, power):
        if not np.isfinite(result.sd):
            return None
        return Detectable(detectable_mean_shift(result.expected, result.sd, alpha, power=power),
                          f"{what} at (1 ± δ)×expected", alpha, power)

    return power_of


def solved(solve, description):
    """A figure from ``solve(acc, result, alpha, power)`` of an exactly stated alternative;
    ``description(ctx, acc)`` words it."""
    def power_of(ctx, acc, result, alpha, power):
        return Detectable(solve(acc, result, alpha, power), description(ctx, acc), alpha, power)

    return power_of


def correlation(ctx, acc, result, alpha, power):
    """Serial correlation |ρ| = δ at one lag."""
    return Detectable(detectable_correlation(result.n, alpha, result.df, power=power),
                      "serial correlation |ρ| = δ at one lag", alpha, power)


def count(what):
    """A Poisson count at (1 ± δ) times its mean."""
    def power_of(ctx, acc, result, alpha, power):
        mean = result.expected
        return Detectable(normal_shift(alpha, power) * np.sqrt(mean) / mean, f"{what} at (1 ± δ)×expected",
                          alpha, power)

    return power_of

