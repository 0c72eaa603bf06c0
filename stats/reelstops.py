"""Battery of the ``reels`` kind: captured slot reel stops against each reel's own stop law.

Three questions a lab asks of a machine's reel stops (``rngcert test
slot:MODEL.toml --input FILE``), one test each:

* ``reel-frequency`` -- is each reel's stop distributed by its own law
  (``weight / total`` of its stops)?  Pearson's X² of each reel's stop
  counts against its law (rare stops pooled, :func:`stats.chisquare.pool_cells`),
  the statistics of the reels added: the reels are independent under the
  null, so the sum is chi-square with the summed df.
* ``reel-interplay`` -- are the reels of one play independent of each other?
  The interplay test (:mod:`stats.interplay`) with each reel's own law.
* ``reel-serial`` -- is each reel's stop independent of its stop in the play
  before?  Per reel the contingency X² of (stop in play i, stop in play
  i + 1) (Anderson and Goodman's test of order 0 against order 1, as
  :func:`stats.serial.independence_test`), rare stops pooled by their exact
  probabilities, the reels' statistics added.

A dice-style battery over all values at once would blur one biased reel
into the others and mix pairs within a play with pairs across plays; these
keep the reels apart.
"""
from __future__ import annotations

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, last, no_carry
from stats._results import ChiSquareResult
from stats._validate import InsufficientDataError, as_float, category_array, exact_probabilities
from stats import _detect
from stats.chisquare import _chisquare_cells
from stats.interplay import InterplayAccumulator, margin_groups
from stats.power import detectable_repeat, detectable_shift
from stats.registry import BatteryTest
from stats.serial import contingency_statistic


class _ReelRows(Accumulator):
    """Rows of one stop per reel, reel r's stop a label index below its number of stops."""

    takes = "rows"
    unit = "plays"

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None):
        super().__init__()
        self.labels = labels
        self.exact = [exact_probabilities(law) for law in laws]
        self.p = [as_float(law) for law in self.exact]
        self.k = [len(law) for law in self.exact]
        self.offsets = np.concatenate([[0], np.cumsum(self.k)[:-1]]).astype(np.int64)
        self.min_expected = float(min_expected)

    def _check(self, chunk):
        rows = np.asarray(chunk)
        if rows.ndim != 2 or rows.shape[1] != len(self.k):
            raise ValueError(f"expected rows of {len(self.k)} reel stops, got shape {rows.shape}")
        for r, k in enumerate(self.k):
            column = category_array(rows[:, r], 256 if self.labels is None else len(self.labels), "a stop")
            bad = np.flatnonzero(column >= k)
            if bad.size:  # a stop of another, longer reel
                i = int(bad[0])
                shown = column[i] if self.labels is None else f"{self.labels[column[i]]!r}"
                raise ValueError(f"play {self.position(i) + 1:,}: reel {r + 1} shows stop {shown}, but it has "
                                 f"only {k} stops")
        return rows.astype(np.int64, copy=False)


class ReelFrequencyAccumulator(_ReelRows):
    """Each reel's stop counts; X² of each against its law, summed over the reels."""

    name = "reel frequency test"
    sums = ("counts",)
    sync = no_carry  # a play's stops are its own

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None):
        super().__init__(laws, min_expected=min_expected, labels=labels)
        self.counts = np.zeros(int(sum(self.k)), dtype=np.int64)

    def _update(self, rows):
        self.counts += np.bincount((rows + self.offsets).ravel(), minlength=self.counts.size)

    def min_samples(self):
        return 2

    def _result(self):
        parts = [_chisquare_cells(self.counts[o:o + k], p, min_expected=self.min_expected, test=self.name,
                                  unit=self.unit)
                 for o, k, p in zip(self.offsets, self.k, self.p)]
        statistic, df = sum(r.statistic for r in parts), sum(r.df for r in parts)
        if df < 1:
            raise InsufficientDataError(self.name, self.min_samples(), self.n, self.unit, "no reel's stops vary")
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, self.n,
                               np.concatenate([r.observed for r in parts]),
                               np.concatenate([r.expected for r in parts]), "pearson",
                               sum(r.pooled for r in parts))


class ReelSerialAccumulator(_ReelRows):
    """Per reel the table of (stop in play i, stop in play i + 1); contingency X² summed over the reels."""

    name = "reel serial independence test"
    sums = ("tables",)
    sync = last(lambda acc: 1)  # a play pairs with the one before it

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None):
        super().__init__(laws, min_expected=min_expected, labels=labels)
        self.tables = np.zeros(int(sum(k * k for k in self.k)), dtype=np.int64)
        self.table_offsets = np.concatenate([[0], np.cumsum([k * k for k in self.k])[:-1]]).astype(np.int64)
        self._last = None

    def _update(self, rows):
        data = np.concatenate([self._last[None, :], rows]) if self._last is not None else rows
        if len(data) >= 2:
            cells = data[:-1] * np.array(self.k) + data[1:] + self.table_offsets
            self.tables += np.bincount(cells.ravel(), minlength=self.tables.size)
        self._last = rows[-1].copy()

    # The pooling rule of the interplay test, per reel: enough pairs for every reel to keep 2 groups.
    _pooled_ok = InterplayAccumulator._pooled_ok

    def min_samples(self):
        return InterplayAccumulator.min_samples(self) + 1  # plays: one more than the pairs

    def _result(self):
        pairs = max(self.n - 1, 0)
        statistic, df, observed, expected, pooled = 0.0, 0, [], [], 0
        for o, k, p in zip(self.table_offsets, self.k, self.p):
            groups = margin_groups(p, max(pairs, 1), self.min_expected)
            merged = np.zeros((groups.max() + 1, groups.max() + 1))
            np.add.at(merged, (groups[:, None], groups[None, :]), self.tables[o:o + k * k].reshape(k, k))
            x2, reel_df, obs, exp = contingency_statistic(merged)
            statistic, df = statistic + x2, df + reel_df
            observed.append(obs.ravel())
            expected.append(exp.ravel())
            pooled += k - (groups.max() + 1)
        if df < 1:
            raise InsufficientDataError(self.name, self.min_samples(), self.n, self.unit, "no reel's stops vary")
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, pairs, np.concatenate(observed),
                               np.concatenate(expected), "contingency", int(pooled))


def _laws(ctx):
    return dict(laws=ctx.kind.reel_laws(), labels=ctx.labels)


def _interplay_columns(ctx):
    laws = ctx.kind.reel_laws()
    return (list(laws),) if len(laws) >= 2 else None


def _fewest_stops(acc) -> tuple:
    """The law of the reel with the fewest stops (a repeat or a copy is hardest to see there)."""
    return min(acc.exact, key=len)


def _least_likely_stop(acc) -> tuple[int, int]:
    """(reel, stop) of the least likely stop of any reel: the hardest single-stop bias to see."""
    reel = min(range(len(acc.p)), key=lambda r: float(acc.p[r].min()))
    return reel, int(np.argmin(acc.p[reel]))


def _biased_stop(acc, result, alpha, power) -> float:
    reel, stop = _least_likely_stop(acc)  # that stop at (1 + δ) p
    return detectable_shift(acc.exact[reel], result.n, alpha, power=power, category=stop, df=result.df)


def _biased_stop_words(ctx, acc) -> str:
    reel, stop = _least_likely_stop(acc)
    return f"reel {reel + 1}'s stop {ctx.labels[stop]} at (1 + δ)·{acc.exact[reel][stop]}"


def _repeat(acc, result, alpha, power) -> float:
    return detectable_repeat(_fewest_stops(acc), result.n, alpha, df=result.df, power=power)


BATTERY = [
    BatteryTest("reel-frequency", ("reels",), "rows", ReelFrequencyAccumulator, _laws,
                _detect.solved(_biased_stop, _biased_stop_words), order=325),
    BatteryTest("reel-interplay", ("reels",), "rows", InterplayAccumulator, _interplay_columns,
                _detect.solved(_repeat, lambda ctx, acc: "one reel shows another's stop (the same label) "
                                                         "with probability δ"),
                order=327),
    BatteryTest("reel-serial", ("reels",), "rows", ReelSerialAccumulator, _laws,
                _detect.solved(_repeat, lambda ctx, acc: "a reel shows its stop of the play before again "
                                                         "with probability δ"),
                order=326),
]

__all__ = ["ReelFrequencyAccumulator", "ReelSerialAccumulator"]
