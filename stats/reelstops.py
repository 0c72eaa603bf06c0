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

A row may hold other values of a reel than its stop (the height it drew,
:mod:`stats.kinds.reels`); each test treats every value of a row alike, and
a value's law may give some labels probability 0 (a height below the
lowest the reel can draw): those are left out of its cells, and a row that
shows one stops the run naming the play.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, last, no_carry
from stats._results import ChiSquareResult
from stats._validate import InsufficientDataError, as_float, category_array, exact_probabilities
from stats import _detect
from stats.chisquare import _chisquare_cells
from stats.interplay import InterplayAccumulator, margin_groups
from stats.pooling import min_items
from stats.power import detectable_repeat, detectable_shift
from stats.registry import BatteryTest
from stats.serial import contingency_statistic


class _Values:
    """What every reels test reads from a row: each value a label index, kept only where its law is
    positive and renumbered over those (``exact[r]``, ``support[r]``: the label index of each)."""

    def _values(self, laws, labels, columns, select=None) -> None:
        """``laws`` / ``columns``: every value of a row; ``select``: the indices of those read (all)."""
        self.labels = labels
        columns = columns or tuple((f"reel {r}", "stop") for r in range(1, len(laws) + 1))
        self.width = len(laws)
        self.select = tuple(range(len(laws))) if select is None else tuple(select)
        laws = [laws[i] for i in self.select]
        self.columns = tuple(columns[i] for i in self.select)
        self.support = [tuple(i for i, p in enumerate(law) if p) for law in laws]
        self.exact = [exact_probabilities([law[i] for i in s]) for law, s in zip(laws, self.support)]
        self.full = [len(law) for law in laws]
        self._renumber = None
        if any(len(s) != n for s, n in zip(self.support, self.full)):
            self._renumber = [np.full(n, -1, dtype=np.int64) for n in self.full]
            for table, s in zip(self._renumber, self.support):
                table[list(s)] = np.arange(len(s))

    def _rows(self, chunk) -> np.ndarray:
        """The chunk's rows renumbered, or ValueError naming the play and the value it cannot show."""
        rows = np.asarray(chunk)
        if rows.ndim != 2 or rows.shape[1] != self.width:
            raise ValueError(f"expected rows of {self.width} reel stops, got shape {rows.shape}")
        if len(self.select) != self.width:
            rows = rows[:, self.select]
        out = []
        for r, k in enumerate(self.full):
            column = category_array(rows[:, r], 256 if self.labels is None else len(self.labels), "a stop")
            bad = np.flatnonzero(column >= k)
            whose, what = self.columns[r]
            if bad.size:  # a stop of another, longer reel
                i = int(bad[0])
                shown = column[i] if self.labels is None else f"{self.labels[column[i]]!r}"
                raise ValueError(f"play {self.position(i) + 1:,}: {whose} shows {what} {shown}, "
                                 + (f"but it has only {k} {what}s" if what == "stop" else "which it cannot have"))
            if self._renumber is not None:
                column = self._renumber[r][column]
                bad = np.flatnonzero(column < 0)
                if bad.size:
                    i = int(bad[0])
                    shown = rows[i, r] if self.labels is None else f"{self.labels[rows[i, r]]!r}"
                    raise ValueError(f"play {self.position(i) + 1:,}: {whose} shows {what} {shown}, which it "
                                     f"cannot have (probability 0)")
            out.append(column)
        return np.column_stack(out).astype(np.int64, copy=False) if self._renumber is not None \
            else rows.astype(np.int64, copy=False)


class _ReelRows(_Values, Accumulator):
    """Rows of one stop per reel, reel r's stop a label index below its number of stops."""

    takes = "rows"
    unit = "plays"

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None, columns=None, select=None):
        super().__init__()
        self._values(laws, labels, columns, select)
        self.p = [as_float(law) for law in self.exact]
        self.k = [len(law) for law in self.exact]
        self.offsets = np.concatenate([[0], np.cumsum(self.k)[:-1]]).astype(np.int64)
        self.min_expected = float(min_expected)

    def _check(self, chunk):
        return self._rows(chunk)


class ReelInterplayAccumulator(_Values, InterplayAccumulator):
    """The interplay test (:class:`stats.interplay.InterplayAccumulator`) on a row's values renumbered
    over each one's possible labels."""

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None, columns=None, select=None):
        self._values(laws, labels, columns, select)
        super().__init__(self.exact, min_expected=min_expected)

    def _check(self, chunk):
        return self._rows(chunk)


class ReelFrequencyAccumulator(_ReelRows):
    """Each reel's stop counts; X² of each against its law, summed over the reels."""

    name = "reel frequency test"
    sums = ("counts",)
    sync = no_carry  # a play's stops are its own

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None, columns=None, select=None):
        super().__init__(laws, min_expected=min_expected, labels=labels, columns=columns, select=select)
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


class ReelHeightsAccumulator(ReelFrequencyAccumulator):
    """Each reel's height counts; X² of each against its height weights, summed over the reels."""

    name = "reel heights test"


class ReelStopGivenHeightAccumulator(_ReelRows):
    """Per reel and height, the reel's stop counts in the plays it showed that height; X² of each
    against the stop law, summed (see the module docstring)."""

    name = "reel stop given height test"
    sums = ("counts",)
    sync = no_carry

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None, columns=None, select=None):
        super().__init__(laws, min_expected=min_expected, labels=labels, columns=columns, select=select)
        half = len(self.k) // 2  # the stops of reels 1..R, then their heights
        self.reels = half
        self.cells = [(r, h) for r in range(half) for h in range(self.k[half + r])]
        self.cell_offsets = np.cumsum([0] + [self.k[r] for r, _ in self.cells[:-1]]).astype(np.int64)
        self.first_cell = np.cumsum([0] + [self.k[half + r] for r in range(half - 1)]).astype(np.int64)
        self.counts = np.zeros(int(sum(self.k[r] for r, _ in self.cells)), dtype=np.int64)
        # a (reel, height) group is tested once it holds enough plays to pool its stops
        self.needed = [min_items(self.p[r], min_expected=self.min_expected) for r in range(half)]

    def _update(self, rows):
        half = self.reels
        cell = self.first_cell + rows[:, half:]  # (reel, height) group of each reel's stop
        self.counts += np.bincount((self.cell_offsets[cell] + rows[:, :half]).ravel(), minlength=self.counts.size)

    def min_samples(self):
        half = self.reels
        return max(math.ceil(self.needed[r] / float(min(self.p[half + r]))) for r in range(half))

    def _result(self):
        # which groups are tested depends on the heights only, so given them the sum is chi-square
        parts = []
        for (r, _), o in zip(self.cells, self.cell_offsets):
            group = self.counts[o:o + self.k[r]]
            if group.sum() >= self.needed[r]:
                parts.append(_chisquare_cells(group, self.p[r], min_expected=self.min_expected, test=self.name,
                                              unit=self.unit))
        if not parts:
            raise InsufficientDataError(self.name, self.min_samples(), self.n, self.unit,
                                        "no reel showed one height often enough")
        statistic, df = sum(x.statistic for x in parts), sum(x.df for x in parts)
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, self.n,
                               np.concatenate([x.observed for x in parts]),
                               np.concatenate([x.expected for x in parts]), "pearson",
                               sum(x.pooled for x in parts))


class ReelSerialAccumulator(_ReelRows):
    """Per reel the table of (stop in play i, stop in play i + 1); contingency X² summed over the reels."""

    name = "reel serial independence test"
    sums = ("tables",)
    sync = last(lambda acc: 1)  # a play pairs with the one before it

    def __init__(self, laws, *, min_expected: float = 5.0, labels=None, columns=None, select=None):
        super().__init__(laws, min_expected=min_expected, labels=labels, columns=columns, select=select)
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


def _laws(ctx, what: str | None = None):
    """The accumulators' arguments: every value of a row, or those of one kind (``"stop"``, ``"height"``)."""
    columns = ctx.kind.columns
    select = [i for i, (_, w) in enumerate(columns) if what is None or w == what]
    return dict(laws=ctx.kind.reel_laws(), labels=ctx.labels, columns=columns, select=select) if select else None


def _heights(ctx):
    return _laws(ctx, "height")


def _stops_and_heights(ctx):
    return _laws(ctx) if any(w == "height" for _, w in ctx.kind.columns) else None


def _interplay_columns(ctx):
    return _laws(ctx) if len(ctx.kind.reel_laws()) >= 2 else None


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
    whose, what = acc.columns[reel]
    return f"{whose}'s {what} {ctx.labels[acc.support[reel][stop]]} at (1 + δ)·{acc.exact[reel][stop]}"


def _rarest_group(acc) -> tuple[int, int]:
    """(reel, height) of the least likely height of any reel: its stops are the fewest to test."""
    half = acc.reels
    r = min(range(half), key=lambda r: float(acc.p[half + r].min()))
    return r, int(np.argmin(acc.p[half + r]))


def _biased_given(acc, result, alpha, power) -> float:
    r, h = _rarest_group(acc)  # the reel's stop s at (1 + δ) p_s in its plays of that height
    plays = max(int(result.n * float(acc.p[acc.reels + r][h])), 1)
    return detectable_shift(acc.exact[r], plays, alpha, power=power, category=int(np.argmin(acc.p[r])), df=result.df)


def _biased_given_words(ctx, acc) -> str:
    r, h = _rarest_group(acc)
    whose, _ = acc.columns[r]
    height = ctx.labels[acc.support[acc.reels + r][h]]
    stop = int(np.argmin(acc.p[r]))
    label = ctx.labels[acc.support[r][stop]]
    return f"{whose}'s stop {label} at (1 + δ)·{acc.exact[r][stop]} when it is {height} high"


def _repeat(acc, result, alpha, power) -> float:
    return detectable_repeat(_fewest_stops(acc), result.n, alpha, df=result.df, power=power)


BATTERY = [
    BatteryTest("reel-frequency", ("reels",), "rows", ReelFrequencyAccumulator, lambda ctx: _laws(ctx, "stop"),
                _detect.solved(_biased_stop, _biased_stop_words), order=325),
    BatteryTest("reel-interplay", ("reels",), "rows", ReelInterplayAccumulator, _interplay_columns,
                _detect.solved(_repeat, lambda ctx, acc: "one reel shows another's stop (the same label) "
                                                         "with probability δ"),
                order=327),
    BatteryTest("reel-heights", ("reels",), "rows", ReelHeightsAccumulator, _heights,
                _detect.solved(_biased_stop, _biased_stop_words), order=328),
    BatteryTest("reel-stop-given-height", ("reels",), "rows", ReelStopGivenHeightAccumulator, _stops_and_heights,
                _detect.solved(_biased_given, _biased_given_words), order=329),
    BatteryTest("reel-serial", ("reels",), "rows", ReelSerialAccumulator, _laws,
                _detect.solved(_repeat, lambda ctx, acc: "a reel shows its stop of the play before again "
                                                         "with probability δ"),
                order=326),
]

__all__ = ["ReelFrequencyAccumulator", "ReelInterplayAccumulator", "ReelSerialAccumulator"]
