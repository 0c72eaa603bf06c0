"""Interplay correlation test: are outcomes drawn at the same time independent of each other?

58 Pa. Code § 810a.5(c)(12) lists an "interplay correlation test" without
defining it.  The closest statutory wording found is W. Va. Code
§ 29-22B-909(3): "each symbol or number is independently chosen without
regard to another symbol or number within a single game play", next to a
separate serial-correlation test for outcomes "in a previous game".  The
reading implemented here: outcomes produced *together* — the dice of one
roll, the reels of one spin, two players' or two devices' outcomes of the
same round served by one RNG — must be independent of each other.  For every
pair of columns (one column per die, reel, player or device; one row per
round) the k × k contingency table is tested for independence with
Pearson's X², and the statistics of all pairs are added.

Where it applies: any outcome source with several simultaneous outcomes
per round (``dice:N`` with N >= 2 in the battery; two capture files of
devices fed by one RNG, aligned by round, through :func:`interplay_test`).
A single wheel or die gives one outcome per round: the test does not apply;
dependence *between* its rounds is what the serial, independence and
serial-correlation tests check.
"""
from __future__ import annotations

import math
from itertools import combinations

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, no_carry
from stats._results import ChiSquareResult
from stats._validate import InsufficientDataError, as_float, category_array, exact_probabilities
from stats.chisquare import pool_cells
from stats.serial import contingency_statistic
from stats import _detect
from stats.registry import BatteryTest


def margin_groups(probabilities: np.ndarray, rounds: int, min_expected: float) -> np.ndarray:
    """Pool a column's rare categories (by their exact probabilities only) so that every pooled
    row/column expects at least sqrt(min_expected · rounds) rounds — then every cell of a pair
    table expects at least min_expected."""
    return pool_cells(rounds * probabilities, min_expected=math.sqrt(min_expected * rounds), rule="smallest")


class InterplayAccumulator(Accumulator):
    """Streaming core of :func:`interplay_test`: one k_a × k_b table per pair of columns.

    Parameters
    ----------
    columns : sequence of distributions
        The exact distribution of each column's outcome (int k or sequence);
        its length is the number of simultaneous outcomes per round.
    min_expected : float, optional
    """

    name = "interplay correlation test"
    takes = "rows"
    unit = "rounds"
    sums = ("tables",)
    sync = no_carry  # each round's table cells are its own

    def __init__(self, columns, *, min_expected=5.0):
        super().__init__()
        self.exact = [exact_probabilities(c) for c in columns]
        if len(self.exact) < 2:
            raise ValueError(f"interplay needs at least 2 simultaneous outcomes per round, got {len(self.exact)}")
        self.p = [as_float(c) for c in self.exact]
        self.k = [len(c) for c in self.exact]
        self.min_expected = float(min_expected)
        self.pairs = list(combinations(range(len(self.k)), 2))
        self.tables = {pair: np.zeros(self.k[pair[0]] * self.k[pair[1]], dtype=np.int64) for pair in self.pairs}

    def _check(self, chunk):
        rows = np.asarray(chunk)
        if rows.ndim != 2 or rows.shape[1] != len(self.k):
            raise ValueError(f"expected rows of {len(self.k)} simultaneous outcomes, got shape {rows.shape}")
        for c, k in enumerate(self.k):
            category_array(rows[:, c], k, f"column {c}")
        return rows.astype(np.int64, copy=False)

    def _update(self, rows):
        for (a, b), table in self.tables.items():
            table += np.bincount(rows[:, a] * self.k[b] + rows[:, b], minlength=table.size)

    def _pooled_ok(self, rounds) -> bool:
        return all(margin_groups(p, rounds, self.min_expected).max() >= 1 for p in self.p)

    def min_samples(self):
        lo, hi = 1, 2
        while not self._pooled_ok(hi):
            lo, hi = hi, hi * 2
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self._pooled_ok(mid) else (mid + 1, hi)
        return hi

    def _result(self):
        n = self.n
        groups = [margin_groups(p, n, self.min_expected) for p in self.p]
        statistic, df, observed, expected = 0.0, 0, [], []
        for (a, b), table in self.tables.items():
            full = table.reshape(self.k[a], self.k[b])
            # Merge pooled categories: rows by a's groups, columns by b's groups.
            merged = np.zeros((groups[a].max() + 1, groups[b].max() + 1))
            np.add.at(merged, (groups[a][:, None], groups[b][None, :]), full)
            x2, pair_df, obs, exp = contingency_statistic(merged)
            statistic, df = statistic + x2, df + pair_df
            observed.append(obs.ravel())
            expected.append(exp.ravel())
        if df < 1:
            raise InsufficientDataError(self.name, self.min_samples(), n, self.unit, "no pair of columns varies")
        pooled = sum(k - (g.max() + 1) for k, g in zip(self.k, groups))
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, n, np.concatenate(observed),
                               np.concatenate(expected), "contingency", int(pooled))


def interplay_test(a, b=None, probabilities=None, probabilities_b=None, *, min_expected: float = 5.0) \
        -> ChiSquareResult:
    """Interplay correlation: independence of outcomes produced in the same round.

    Null hypothesis: in each round the simultaneous outcomes are independent
    of each other (the rounds themselves independent and identically
    distributed); the margins need not be the nominal ones.

    Parameters
    ----------
    a : array_like of int, shape (n,) or (n, w)
        Outcomes of stream A per round, or ``w`` simultaneous outcomes per
        round (one column each: dice of a roll, reels of a spin).
    b : array_like of int, shape (n,), optional
        Outcomes of stream B in the same rounds (when ``a`` is 1-D).
    probabilities : int or sequence
        Exact distribution of A's outcome (of every column when ``a`` is 2-D).
    probabilities_b : int or sequence, optional
        Exact distribution of B's outcome (default: ``probabilities``).
    min_expected : float, optional
        Rare categories of each stream are pooled, using their exact
        probabilities only, until every pair-table cell expects at least
        this many rounds.

    Returns
    -------
    ChiSquareResult
        ``statistic`` = Σ over pairs of columns of the contingency X²,
        ``df`` = Σ (r - 1)(c - 1), ``n`` = rounds; ``observed``/``expected``
        the pair tables' cells, flattened.

    Notes
    -----
    Each pair's X² is Pearson's test of independence with margins estimated
    from the data (Pearson 1904; df (r - 1)(c - 1)), equal to
    ``scipy.stats.chi2_contingency(table, correction=False)``.  Under mutual
    independence the interaction parts of different pairs are uncorrelated
    (E[(1{X=a}-p_a)(1{Y=b}-p_b)(1{X=a'}-p_a')(1{Z=c}-p_c)] = 0), hence
    asymptotically independent, so the sum is chi-square with the summed df.

    References
    ----------
    .. [1] 58 Pa. Code § 810a.5(c)(12); W. Va. Code § 29-22B-909(3).
    .. [2] A. Agresti, *Categorical Data Analysis*, 3rd ed., §3.2, Wiley, 2013.
    """
    if probabilities is None:
        raise ValueError("probabilities (the exact distribution of each stream's outcome) is required")
    rows = np.asarray(a)
    if rows.ndim == 1:
        if b is None:
            raise ValueError("give a second stream b, or a 2-D array a with one column per simultaneous outcome")
        other = np.asarray(b)
        if other.shape != rows.shape:
            raise ValueError(f"streams a and b must be aligned by round: lengths {rows.size} and {other.size}")
        rows = np.column_stack([rows, other])
        columns = [probabilities, probabilities if probabilities_b is None else probabilities_b]
    elif b is not None:
        raise ValueError("with a 2-D array a (one column per simultaneous outcome) b must not be given")
    else:
        columns = [probabilities] * (rows.shape[1] if rows.ndim == 2 else 0)
    return InterplayAccumulator(columns, min_expected=min_expected).run(rows)


def detectable_copy(acc: InterplayAccumulator, result: ChiSquareResult, alpha: float, power: float) -> float:
    """Smallest probability δ with which one column copying another (else drawing afresh) is detected.

    The copied pair's table moves by Δ_ab = δ p_a([a = b] - p_b) (margins
    unchanged), so λ = N δ² Σ_a (1 - p_a) = N δ² (k - 1) for equal
    distributions, as for a repeat in :func:`stats.power.detectable_repeat`;
    the other pairs are unaffected, but df is that of the whole sum.
    """
    from stats.power import detectable_repeat

    return detectable_repeat(acc.exact[0], result.n, alpha, df=result.df, power=power)


def _copy(ctx, acc):
    return "one die shows another's face with probability δ"


BATTERY = [
    BatteryTest("interplay", ("dice",), "rows", InterplayAccumulator,
                lambda ctx: ([ctx.probabilities] * ctx.kind.width,) if ctx.kind.width >= 2 else None,
                _detect.solved(detectable_copy, _copy), order=310, function=interplay_test),
]


__all__ = ["interplay_test", "InterplayAccumulator", "margin_groups", "detectable_copy"]
