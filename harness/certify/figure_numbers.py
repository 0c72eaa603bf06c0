"""The numbers the report's figures plot, computed once for every renderer (:mod:`harness.certify.figures`)."""
from __future__ import annotations

import math


def binomial_sd(expected: list[float]) -> list[float]:
    """Standard deviation of each cell's count, sqrt(E (1 - E/N)), N the sum of the expected counts."""
    total = sum(expected) or 1.0
    return [math.sqrt(max(e * (1 - e / total), 0.0)) for e in expected]


def histogram_counts(values: list[float], bins: int) -> list[int]:
    """Counts of ``values`` in [0, 1] in ``bins`` equal bins (1 in the last)."""
    counts = [0] * bins
    for v in values:
        counts[min(int(v * bins), bins - 1)] += 1
    return counts


def convergence_points(at: list[int], value: list[float | None], low: list[float | None],
                       high: list[float | None]) -> list[tuple[int, float, float | None, float | None]]:
    """The points of a convergence plot: ``(rounds, estimate, low, high)`` for each point with an
    estimate after at least one round."""
    return [(n, v, lo, hi) for n, v, lo, hi in zip(at, value, low, high) if v is not None and n > 0]


__all__ = ["binomial_sd", "histogram_counts", "convergence_points"]
