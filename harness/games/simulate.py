"""Simulation reports: each bet's simulated return with an interval, and the
chi-square of observed outcome classes against the exact probabilities.

The games' simulators (:meth:`harness.games.base.Game.simulate`) count outcome
classes in C; this module turns counts into the report.  The return of a
sample is computed exactly (a Fraction of integer counts); only the interval
and the test statistic are floating point, as statistics.

The 99.9 % interval is the normal interval mean +- z s / sqrt(n) with
z = 3.2905 (two-sided 0.1 %) and s the sample standard deviation of the net
result per decision.  The goodness-of-fit test is the statistics battery's
chi-square (``stats.chisquare``): cells that expect fewer than 5 items are
pooled by expected count only.  An observation in a class of exact
probability 0 is reported as an impossible outcome and fails the check.
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from harness import verdict
from harness.games.core import BetResult
from harness.intervals import Z_999
ALPHA = 1e-3

#: Set by :func:`fits_deferred`: simulations then carry their counts and leave the chi-square out
#: (a context variable: another thread's simulation is not affected).
_DEFERRED = contextvars.ContextVar("fits_deferred", default=False)


@contextlib.contextmanager
def fits_deferred():
    """Within it, :func:`goodness_of_fit` keeps only what was tested (``inputs``) and computes no
    statistic: a partition of a longer run, whose counts are merged and tested once
    (:meth:`harness.segments.GameSegments.finish`), so the chi-square is not paid per partition."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


@dataclasses.dataclass(frozen=True)
class FitResult:
    """Chi-square of observed class counts against exact probabilities."""

    statistic: float | None
    pvalue: float | None
    df: int | None
    cells: int
    pooled: int
    impossible: int = 0
    note: str = ""
    # The cells tested, observed against expected (a stats.cells.CellTable; JSON key "cell_table",
    # since "cells" has long counted the classes).
    table: Any = dataclasses.field(default=None, compare=False)
    # What was tested: (counts per class, exact probabilities, labels or None), so that the fits of
    # two runs of one game can be combined (harness.segments).
    inputs: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """No impossible outcome, and p >= ALPHA (or too little data to test)."""
        return self.impossible == 0 and (self.pvalue is None or self.pvalue >= ALPHA)

    def as_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("table", "inputs")}
        out["cell_table"] = None if self.table is None else self.table.to_json()
        return out

    def cell_lines(self, name: str) -> list[str]:
        """The text table of the cells farthest from expectation (as ``rngcert test`` prints it)."""
        return [] if self.table is None else self.table.report(name)


def goodness_of_fit(observed: Sequence[int], probabilities: Sequence[Fraction],
                    labels: Sequence[str] | None = None) -> FitResult:
    """Chi-square of ``observed`` counts against exact ``probabilities``.

    Classes of probability 0 are left out of the test; any count in one is
    reported in ``impossible``.  With too few items for two valid pooled
    cells the statistic is None and the note says why.  The result carries
    the cells tested, observed against expected with Pearson's residuals
    (:func:`stats.cells.cell_table`), named by ``labels`` (one per class)
    when no cell was pooled.
    """
    observed = np.asarray(observed, dtype=np.int64)
    probs = list(probabilities)
    if observed.size != len(probs):
        raise ValueError(f"{observed.size} observed classes but {len(probs)} probabilities")
    inputs = (tuple(int(c) for c in observed), tuple(probs), None if labels is None else tuple(labels))
    possible = [i for i, p in enumerate(probs) if p > 0]
    impossible = int(sum(int(observed[i]) for i, p in enumerate(probs) if p == 0))
    if _DEFERRED.get():
        return FitResult(None, None, None, len(possible), 0, impossible, "deferred: tested after the merge",
                         inputs=inputs)
    if len(possible) < 2:
        return FitResult(None, None, None, len(possible), 0, impossible, "a single possible class: nothing to test",
                         inputs=inputs)
    from stats import chisquare  # the battery's goodness-of-fit test (imported late: scipy is slow to load)
    from stats.cells import cell_table

    try:
        result = chisquare(observed[possible], [probs[i] for i in possible])
    except ValueError as exc:  # too few items (stats' InsufficientDataError is a ValueError)
        return FitResult(None, None, None, len(possible), 0, impossible, str(exc), inputs=inputs)
    names = None if labels is None else [str(labels[i]) for i in possible]
    return FitResult(float(result.statistic), float(result.pvalue), int(result.df), len(possible),
                     int(result.pooled), impossible, table=cell_table(result, names),
                     inputs=inputs)


@dataclasses.dataclass(frozen=True)
class BetSimulation:
    """One bet's simulated decisions against its exact result."""

    exact: BetResult
    counts: Mapping[str, int]

    @property
    def name(self) -> str:
        return self.exact.name

    @property
    def decisions(self) -> int:
        return int(sum(self.counts.values()))

    def net(self, label: str) -> Fraction:
        """The net per unit staked of a counted outcome class."""
        return self.exact.outcome(label).net

    @property
    def mean_return(self) -> Fraction | None:
        """Sample return per unit staked (exact over the sample)."""
        n = self.decisions
        if n == 0:
            return None
        return 1 + sum((Fraction(c) * self.net(label) for label, c in self.counts.items()),
                       Fraction(0)) / n

    @property
    def interval(self) -> tuple[float, float] | None:
        """99.9 % interval for the return per unit staked."""
        n = self.decisions
        mean = self.mean_return
        if n < 2 or mean is None:
            return None
        m = float(mean - 1)
        ss = sum(c * (float(self.net(label)) - m) ** 2 for label, c in self.counts.items())
        half = Z_999 * math.sqrt(ss / (n - 1) / n)
        return (float(mean) - half, float(mean) + half)

    @property
    def inside(self) -> bool | None:
        """Whether the exact RTP lies in the 99.9 % interval."""
        interval = self.interval
        if interval is None:
            return None
        return interval[0] <= float(self.exact.rtp) <= interval[1]

    @property
    def fit(self) -> FitResult:
        labels = [o.label for o in self.exact.outcomes]
        unknown = set(self.counts) - set(labels)
        observed = [self.counts.get(label, 0) for label in labels] + [sum(self.counts[u] for u in unknown)]
        probabilities = [o.probability for o in self.exact.outcomes] + [Fraction(0)]
        return goodness_of_fit(observed, probabilities, labels + ["(other)"])

    def as_dict(self) -> dict:
        mean = self.mean_return
        fit = self.fit
        return {
            "name": self.name,
            "decisions": self.decisions,
            "counts": dict(self.counts),
            "simulated_rtp_float": None if mean is None else float(mean),
            "interval_999": None if self.interval is None else list(self.interval),
            "exact_rtp": f"{self.exact.rtp.numerator}/{self.exact.rtp.denominator}",
            "exact_rtp_float": float(self.exact.rtp),
            "exact_inside_interval": self.inside,
            "chisquare": fit.as_dict(),
        }


@dataclasses.dataclass(frozen=True)
class Simulation:
    """A simulation run: device-level fit plus per-bet returns.

    ``outcome_fit`` tests the device's outcome classes (wheel sections,
    ordered dice, or baccarat round classes) against their exact
    probabilities; it decides ``verdict``.  The per-bet fits and intervals are
    functions of the same outcomes and are reported for each bet.
    """

    game: str
    variant: str
    device: str
    rounds: int
    requested: int
    seconds: float
    outcome_fit: FitResult
    bets: tuple[BetSimulation, ...]
    procedure: str = ""
    interrupted: bool = False
    replay: dict | None = None
    note: str = ""

    @property
    def tested(self) -> bool:
        """The outcome check was made: enough rounds for the chi-square, or an impossible outcome seen."""
        return self.outcome_fit.statistic is not None or self.outcome_fit.impossible > 0

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"fail"``, or ``"incomplete"`` (interrupted, or too few rounds to test)."""
        if self.interrupted:
            return verdict.INCOMPLETE
        if not self.outcome_fit.ok:
            return verdict.FAIL
        return verdict.PASS if self.tested else verdict.INCOMPLETE

    @property
    def ok(self) -> bool:
        return self.verdict == verdict.PASS

    def as_dict(self) -> dict:
        return {
            "rounds": self.rounds,
            "requested_rounds": self.requested,
            "interrupted": self.interrupted,
            "device": self.device,
            "procedure": self.procedure,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds / self.seconds if self.seconds > 0 else None,
            "replay": self.replay,
            "outcome_chisquare": self.outcome_fit.as_dict(),
            "alpha": ALPHA,
            "verdict": self.verdict,
            "note": self.note,
            "bets": [b.as_dict() for b in self.bets],
        }


def class_counts(index_counts: np.ndarray, class_of: Sequence[int], labels: Sequence[str]) -> dict[str, int]:
    """Sum per-outcome counts into a bet's classes (exact integers)."""
    class_of = np.asarray(class_of)
    out = {}
    for i, label in enumerate(labels):
        total = int(index_counts[class_of == i].sum(dtype=np.uint64))
        if total:
            out[label] = total
    return out
