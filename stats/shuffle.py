"""Shuffle tests: is every order of the shoe, deck or tile set equally likely?

Input is one row per shuffle (``rows[s, i]`` = label index of the item at
position ``i`` of shuffle ``s``) and the ``multiset`` of the fresh stack (the
label index of every physical item; duplicates for multi-deck shoes).  Under
the null hypothesis each row is a uniformly random arrangement of the
multiset, independently of the other rows.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from math import factorial

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, last, no_carry
from stats._results import CheckResult, ChiSquareResult, NormalResult
from stats._validate import check_int
from stats.chisquare import _chisquare_cells
from stats.order import order_pattern_index
from stats import _detect
from stats.registry import BatteryTest

MAX_EXHAUSTIVE_WIDTH = 7


def multiset_counts(multiset) -> tuple[int, ...]:
    """Copies of each label 0..L-1 in the multiset (ValueError if a label is missing)."""
    items = [int(v) for v in multiset]
    if len(items) < 2:
        raise ValueError(f"a shuffle needs at least 2 items, got {len(items)}")
    counts = Counter(items)
    labels = max(counts) + 1
    if min(counts) < 0 or len(counts) != labels:
        missing = sorted(set(range(labels)) - set(counts))
        raise ValueError(f"multiset labels must be 0..L-1 with none missing; missing {missing}")
    return tuple(counts[i] for i in range(labels))


class RowsAccumulator(Accumulator):
    """Accumulator over shuffles (2-D rows of label indices)."""

    takes = "rows"
    unit = "shuffles"

    def __init__(self, multiset):
        super().__init__()
        self.multiset = tuple(int(v) for v in multiset)
        self.m = np.array(multiset_counts(self.multiset), dtype=np.int64)
        self.width = len(self.multiset)
        self.labels = self.m.size

    def _check(self, chunk):
        rows = np.asarray(chunk)
        if rows.ndim != 2 or rows.shape[1] != self.width:
            raise ValueError(f"expected rows of {self.width} items (one shuffle per row), got shape {rows.shape}")
        if rows.size and (rows.min() < 0 or rows.max() >= self.labels):
            bad = np.argwhere((rows < 0) | (rows >= self.labels))[0]
            raise ValueError(f"shuffle {bad[0]}, position {bad[1]}: label index {int(rows[tuple(bad)])} "
                             f"is outside [0, {self.labels - 1}]")
        return rows.astype(np.int64, copy=False)


class CompositionAccumulator(RowsAccumulator):
    """Streaming core of :func:`composition_check`; ``labels`` name the items in its message."""

    name = "composition"
    sums = ("bad",)
    earliest = ("first_row", "first_bad")
    sync = no_carry

    def __init__(self, multiset, *, labels=None):
        super().__init__(multiset)
        self.names = None if labels is None else tuple(labels)
        self.bad = 0
        self.first_row = None
        self.first_bad = ""

    def _update(self, rows):
        n = rows.shape[0]
        index = (np.arange(n)[:, None] * self.labels + rows).ravel()
        counts = np.bincount(index, minlength=n * self.labels).reshape(n, self.labels)
        wrong = np.flatnonzero(np.any(counts != self.m, axis=1))
        if wrong.size and self.first_row is None:
            s = int(wrong[0])
            diff = np.flatnonzero(counts[s] != self.m)
            name = (lambda d: self.names[d]) if self.names else (lambda d: f"label {d}")
            detail = ", ".join(f"{name(d)} appears {int(counts[s, d])} times" for d in diff[:6])
            each = " or ".join(str(v) for v in sorted({int(self.m[d]) for d in diff}))
            self.first_row = self.position(s)
            self.first_bad = f"{detail}{' ...' if diff.size > 6 else ''} (a fresh stack has {each} of each)"
        self.bad += int(wrong.size)

    def _result(self):
        where = "" if self.first_row is None else f"shuffle {self.first_row}: "
        return CheckResult(float(self.bad), 0.0 if self.bad else 1.0, self.n, where + self.first_bad,
                           row=self.first_row, problem=self.first_bad)


def composition_check(rows, multiset) -> CheckResult:
    """Deterministic check that every shuffle holds exactly the items of the stack.

    Null hypothesis (checked exactly, no sampling error): each row is an
    arrangement of ``multiset`` — no card missing, none duplicated.

    Parameters
    ----------
    rows : array_like, shape (n, W)
        Label index of each item, one shuffle per row.
    multiset : sequence of int
        Label index of every physical item of the fresh stack.

    Returns
    -------
    CheckResult
        ``statistic`` = number of rows with the wrong composition; ``pvalue``
        1.0 if none, else 0.0; ``detail`` describes the first bad row.
    """
    return CompositionAccumulator(multiset).run(rows)


class PositionAccumulator(RowsAccumulator):
    """Streaming core of :func:`position_test`: the W × L table of (position, label)."""

    sums = ("counts",)
    sync = no_carry

    name = "position × card"

    def __init__(self, multiset, *, min_expected=5.0):
        super().__init__(multiset)
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.width * self.labels, dtype=np.int64)
        self._offsets = np.arange(self.width) * self.labels

    def _update(self, rows):
        self.counts += np.bincount((rows + self._offsets).ravel(), minlength=self.counts.size)

    def min_samples(self):
        return int(np.ceil(self.min_expected * self.width / self.m.min()))

    def _result(self):
        n, W, L = self.n, self.width, self.labels
        observed = self.counts.reshape(W, L).astype(np.float64)
        expected = np.broadcast_to(n * self.m / W, (W, L))
        pearson = float(((observed - expected) ** 2 / expected).sum())
        statistic = pearson * (W - 1) / W
        df = (W - 1) * (L - 1)
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, n, observed, expected,
                               "scaled-pearson", 0)


def position_test(rows, multiset, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Position × card test: each label equally likely (by multiplicity) at each position.

    Null hypothesis: every row is a uniformly random arrangement of the
    multiset, so label ``l`` sits at any given position with probability
    m_l / W, where m_l is its number of copies.

    Parameters
    ----------
    rows : array_like, shape (n, W)
    multiset : sequence of int
    min_expected : float, optional
        Validity rule: n m_min / W >= min_expected.

    Returns
    -------
    ChiSquareResult
        ``statistic`` = X² (W - 1) / W, df = (W - 1)(L - 1), ``observed`` the
        W × L table.

    Notes
    -----
    Within one shuffle the table has fixed margins (one item per position,
    m_l items of label l), exactly like a contingency table under the
    multiple hypergeometric law, whose cell covariance is
    W/(W - 1) times the projection onto the interaction space [1]_.  Summed
    over n independent shuffles, Pearson's X² is therefore asymptotically
    W/(W - 1) times a chi-square with (W - 1)(L - 1) df; the statistic
    removes that factor.  (Applying the plain chi-square with W(L - 1) df, as
    is often done, is wrong twice over.)

    References
    ----------
    .. [1] A. Agresti, *Categorical Data Analysis*, 3rd ed., §3.5 (exact
       conditional distribution of tables with fixed margins), Wiley, 2013.
    """
    return PositionAccumulator(multiset, min_expected=min_expected).run(rows)


class CardPositionAccumulator(RowsAccumulator):
    """Streaming core of :func:`card_position_test`."""

    sums = ("counts",)
    sync = no_carry

    def __init__(self, multiset, *, position=0, min_expected=5.0):
        super().__init__(multiset)
        self.position = check_int("position", position, -self.width, self.width - 1) % self.width
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.labels, dtype=np.int64)
        self.name = "first card" if self.position == 0 else f"card at position {self.position}"

    def _update(self, rows):
        self.counts += np.bincount(rows[:, self.position], minlength=self.labels)

    def min_samples(self):
        return int(np.ceil(self.min_expected * self.width / self.m.min()))

    def _result(self):
        return _chisquare_cells(self.counts, self.m / self.width, min_expected=self.min_expected, pool="error",
                                test=self.name, unit="shuffles")


def card_position_test(rows, multiset, *, position: int = 0, min_expected: float = 5.0) -> ChiSquareResult:
    """Frequency of the label at one position (e.g. the first card after the cut).

    Null hypothesis: the item at ``position`` is label l with probability m_l / W.

    Parameters
    ----------
    rows : array_like, shape (n, W)
    multiset : sequence of int
    position : int, optional
        0 = first card dealt; ``c`` = first card after a cut of ``c`` cards.
    min_expected : float, optional

    Returns
    -------
    ChiSquareResult
        df = L - 1; ``n`` = shuffles.

    Notes
    -----
    One item per shuffle, independent across shuffles: a plain chi-square.
    A single position is far more sensitive to a bias there than the
    position × card table, whose degrees of freedom dilute it.
    """
    return CardPositionAccumulator(multiset, position=position, min_expected=min_expected).run(rows)


@lru_cache(maxsize=8)
def _adjacency_model(multiset_count: tuple):
    """Mean per shuffle and standardized covariance of circular adjacency counts.

    Returns (cells, mu, S, c, df) with cells the (a, b) label pairs that can
    be adjacent, mu their expected count per shuffle, S = D^-1/2 Σ D^-1/2 the
    standardized covariance, c = W/(W-2) its second eigenvalue, df its rank.
    """
    m = np.array(multiset_count, dtype=np.float64)
    L, W = m.size, float(m.sum())
    a_all, b_all = np.divmod(np.arange(L * L), L)
    possible = (a_all != b_all) | (m[a_all] >= 2)
    a, b = a_all[possible], b_all[possible]
    f2 = lambda x, y: m[x] * (m[y] - (x == y)) / (W * (W - 1))
    mu = W * f2(a, b)
    C = a.size
    S = np.empty((C, C))
    d1, d2, d3 = W * (W - 1), W * (W - 1) * (W - 2), W * (W - 1) * (W - 2) * (W - 3)
    for lo in range(0, C, 256):
        x, y = a[lo: lo + 256, None], b[lo: lo + 256, None]
        z, w = a[None, :], b[None, :]
        exy = x == y
        e = W * f2(x, y) * ((x == z) & (y == w))
        # Slot j = i + 1 shares the middle item: requires z == y.
        e = e + W * (z == y) * m[x] * (m[y] - exy) * (m[w] - (x == w) - (y == w)) / d2
        # Slot j = i - 1: requires w == x.
        e = e + W * (w == x) * m[z] * (m[x] - (z == x)) * (m[y] - (z == y) - exy) / d2
        if W >= 4:
            far = m[x] * (m[y] - exy) * (m[z] - (x == z) - (y == z)) * (m[w] - (x == w) - (y == w) - (z == w)) / d3
            e = e + W * (W - 3) * far
        cov = e - mu[lo: lo + 256, None] * mu[None, :]
        S[lo: lo + 256] = cov / np.sqrt(mu[lo: lo + 256, None] * mu[None, :])
    c = W / (W - 2)
    # Eigenvalues of S are 0, 1 and c (checked below); Σ⁺ = S - (c+1)/c² (S² - S).
    rng = np.random.default_rng(0)
    v = rng.standard_normal(C)
    s1 = S @ v
    s2 = S @ s1
    s3 = S @ s2
    residual = np.linalg.norm(s3 - (1 + c) * s2 + c * s1) / max(np.linalg.norm(v), 1e-300)
    if residual > 1e-8:
        raise ValueError(f"adjacency covariance does not have eigenvalues {{0, 1, {c:.6g}}} "
                         f"(residual {residual:.3g}); cannot build the test for this multiset")
    tr1 = float(np.trace(S))
    tr2 = float(np.sum(S * S))
    dc = (tr2 - tr1) / (c * c - c)
    d1 = tr1 - c * dc
    df = int(round(d1 + dc))
    if abs(d1 + dc - df) > 1e-6:
        raise ValueError(f"adjacency covariance rank is not an integer ({d1 + dc!r})")
    return (a, b), mu, S, c, df


class AdjacencyAccumulator(RowsAccumulator):
    """Streaming core of :func:`adjacency_test`: the L × L table of circular neighbours."""

    sums = ("counts",)
    sync = no_carry

    name = "adjacency"

    def __init__(self, multiset, *, min_expected=5.0):
        super().__init__(multiset)
        if self.width < 4:
            raise ValueError(f"adjacency test needs at least 4 items per shuffle, got {self.width}")
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.labels * self.labels, dtype=np.int64)

    def _update(self, rows):
        nxt = np.roll(rows, -1, axis=1)
        self.counts += np.bincount((rows * self.labels + nxt).ravel(), minlength=self.counts.size)

    def min_samples(self):
        W = float(self.width)
        m = self.m.astype(float)
        mu_min = min(W * m.min() * (np.sort(m)[1] if m.size > 1 else m.min()) / (W * (W - 1)),
                     float(np.min(np.where(m >= 2, W * m * (m - 1) / (W * (W - 1)), np.inf))))
        return int(np.ceil(self.min_expected / mu_min))

    def _result(self):
        (a, b), mu, S, c, df = _adjacency_model(tuple(int(v) for v in self.m))
        n = self.n
        observed = self.counts.astype(np.float64)
        possible = np.zeros(self.counts.size, dtype=bool)
        possible[a * self.labels + b] = True
        expected = np.zeros(self.counts.size)
        expected[a * self.labels + b] = n * mu
        shape = (self.labels, self.labels)
        if observed[~possible].sum() > 0:
            # A label next to itself that has only one copy: impossible for any shuffle of the stack.
            return ChiSquareResult(float("inf"), 0.0, df, n, observed.reshape(shape), expected.reshape(shape),
                                   "quadratic-form", 0)
        y = (observed[possible] - n * mu) / np.sqrt(n * mu)
        sy = S @ y
        quad = float(y @ sy)
        statistic = quad - (c + 1) / (c * c) * (float(sy @ sy) - quad)
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, n, observed.reshape(shape),
                               expected.reshape(shape), "quadratic-form", 0)


def adjacency_test(rows, multiset, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Adjacency test: which labels end up next to each other.

    Null hypothesis: every row is a uniformly random arrangement of the
    multiset; then the ordered pair of labels at neighbouring positions
    (i, i+1), counted circularly (the last item's neighbour is the first,
    which makes the count invariant under cutting), has expectation
    W m_a (m_b - [a = b]) / (W (W - 1)) per shuffle.

    Parameters
    ----------
    rows : array_like, shape (n, W)
    multiset : sequence of int
    min_expected : float, optional
        Validity rule: every possible pair expects at least this many.

    Returns
    -------
    ChiSquareResult
        ``statistic`` = the quadratic form Yᵀ Σ⁺ Y of the standardized counts
        with the exact covariance Σ of one shuffle; ``df`` = rank of Σ.

    Notes
    -----
    The W adjacent pairs of one shuffle are dependent (they share items and
    are drawn without replacement), so Pearson's X² on the table is not
    chi-square.  The exact covariance of the table for one shuffle is
    computed from the multiset (pairs of slots that coincide, overlap in one
    item, or are disjoint); its standardized form has eigenvalues 0, 1 and
    W/(W - 2) (verified numerically each time it is built), which gives its
    pseudo-inverse in closed form, and the quadratic form is asymptotically
    chi-square with rank(Σ) df over n independent shuffles [1]_.
    Adjacent labels identical in a single-copy deck are impossible and give
    p = 0 outright.

    References
    ----------
    .. [1] C. R. Rao, *Linear Statistical Inference and Its Applications*,
       2nd ed., §3b.4 (quadratic forms in a singular normal vector), Wiley, 1973.
    """
    return AdjacencyAccumulator(multiset, min_expected=min_expected).run(rows)


def _match_moments(m: np.ndarray) -> tuple[float, float]:
    """Mean and variance of the number of positions where two independent
    uniform arrangements of the multiset show the same label."""
    W = float(m.sum())
    s2, s3 = float((m**2).sum()), float((m**3).sum())
    mean = s2 / W
    second = s2 / W + (s2 * s2 - 2 * s3 + s2) / (W * (W - 1))
    return mean, second - mean * mean


class CarryoverAccumulator(RowsAccumulator):
    """Streaming core of :func:`carryover_test`; the previous shuffle is carried."""

    sums = ("matches", "pairs")
    sync = last(lambda acc: 1)

    name = "carry-over"

    def __init__(self, multiset):
        super().__init__(multiset)
        self.matches = 0
        self.pairs = 0
        self._last = None

    def _update(self, rows):
        data = np.concatenate([self._last, rows]) if self._last is not None else rows
        if data.shape[0] >= 2:
            self.matches += int(np.count_nonzero(data[1:] == data[:-1]))
            self.pairs += data.shape[0] - 1
        self._last = rows[-1:].copy()

    def min_samples(self):
        return 31

    def _result(self):
        mean, var = _match_moments(self.m)
        expected = mean * self.pairs
        sd = float(np.sqrt(var * self.pairs))
        z = (self.matches - expected) / sd
        return NormalResult(float(z), float(2 * _sps.norm.sf(abs(z))), self.n, float(self.matches),
                            float(expected), sd)


def carryover_test(rows, multiset) -> NormalResult:
    """Carry-over test: does a shuffle resemble the one before it?

    Null hypothesis: consecutive shuffles are independent uniform
    arrangements, so the number M of positions where shuffle s+1 shows the
    same label as shuffle s has mean S2/W and variance
    S2/W + (S2² - 2 S3 + S2)/(W (W - 1)) - (S2/W)², with S_j = Σ_l m_l^j.

    Parameters
    ----------
    rows : array_like, shape (n, W)
        Shuffles in the order they were dealt.
    multiset : sequence of int

    Returns
    -------
    NormalResult
        z for the total matches over the n - 1 consecutive pairs (two-sided:
        too many matches = carry-over, too few = an algorithm that avoids
        fixed points, such as Sattolo's).

    Notes
    -----
    The moments are exact; the M of different pairs are uncorrelated (the
    conditional mean of M given either shuffle is constant) and 1-dependent,
    so the sum is asymptotically normal.  Valid for n >= 31.
    """
    return CarryoverAccumulator(multiset).run(rows)


def _arrangements(multiset: tuple) -> dict:
    return {perm: i for i, perm in enumerate(sorted(set(permutations(multiset))))}


class ArrangementAccumulator(RowsAccumulator):
    """Streaming core of :func:`permutation_frequency_test` (W <= 7)."""

    name = "permutation frequencies"
    sums = ("counts", "invalid")
    sync = no_carry

    def __init__(self, multiset, *, min_expected=5.0):
        super().__init__(multiset)
        if self.width > MAX_EXHAUSTIVE_WIDTH:
            raise ValueError(f"exhaustive permutation frequencies need at most {MAX_EXHAUSTIVE_WIDTH} items, "
                             f"got {self.width}; use relative_order_test for larger stacks")
        self.min_expected = float(min_expected)
        index = _arrangements(tuple(sorted(self.multiset)))
        self.cells = len(index)
        # Code each row in base L; map codes of valid arrangements to cells.
        self._powers = self.labels ** np.arange(self.width - 1, -1, -1, dtype=np.int64)
        codes = np.array([int(np.dot(p, self._powers)) for p in index], dtype=np.int64)
        self._lookup = np.full(self.labels**self.width, -1, dtype=np.int64)
        self._lookup[codes] = np.array(list(index.values()))
        self.counts = np.zeros(self.cells, dtype=np.int64)
        self.invalid = 0

    def _update(self, rows):
        cell = self._lookup[rows @ self._powers]
        self.invalid += int(np.count_nonzero(cell < 0))
        self.counts += np.bincount(cell[cell >= 0], minlength=self.cells)

    def min_samples(self):
        return int(np.ceil(self.min_expected * self.cells))

    def _result(self):
        if self.invalid:
            return ChiSquareResult(float("inf"), 0.0, self.cells - 1, self.n, self.counts,
                                   np.full(self.cells, self.n / self.cells), "pearson", 0)
        return _chisquare_cells(self.counts, np.full(self.cells, 1.0 / self.cells), min_expected=self.min_expected,
                                pool="error", test=self.name, unit="shuffles")


def permutation_frequency_test(rows, multiset, *, min_expected: float = 5.0) -> ChiSquareResult:
    """Exhaustive permutation frequencies of a small stack (at most 7 items).

    Null hypothesis: each of the W! / Π m_l! distinct arrangements of the
    multiset is equally likely.

    Parameters
    ----------
    rows : array_like, shape (n, W), W <= 7
    multiset : sequence of int
    min_expected : float, optional
        Validity rule: n >= min_expected × (number of arrangements).

    Returns
    -------
    ChiSquareResult
        df = arrangements - 1.  A row that is not an arrangement of the
        multiset gives p = 0.

    Notes
    -----
    The direct check of a shuffling algorithm on every possible outcome: the
    naive "swap with any position" shuffle of 3 cards has 27 equally likely
    paths onto 6 orders, so some orders get 5/27 and others 4/27 and this
    test rejects it with a few thousand shuffles.
    """
    return ArrangementAccumulator(multiset, min_expected=min_expected).run(rows)


class RelativeOrderAccumulator(RowsAccumulator):
    """Streaming core of :func:`relative_order_test`."""

    sums = ("counts",)
    sync = no_carry

    name = "relative order"

    def __init__(self, multiset, *, labels=None, t=5, min_expected=5.0):
        super().__init__(multiset)
        if labels is None:
            multiplicity = Counter(self.m.tolist()).most_common(1)[0][0]
            candidates = [l for l in range(self.labels) if self.m[l] == multiplicity]
            t = check_int("t", t, 2, 8)
            if len(candidates) < t:
                raise ValueError(f"only {len(candidates)} labels share a multiplicity; choose t <= {len(candidates)}")
            labels = candidates[:: max(1, len(candidates) // t)][:t]
        labels = tuple(int(v) for v in labels)
        if len(set(self.m[list(labels)].tolist())) != 1:
            raise ValueError(f"labels {labels} must have equal numbers of copies for their order to be uniform")
        self.chosen = labels
        self.t = len(labels)
        self.cells = factorial(self.t)
        self.min_expected = float(min_expected)
        self.counts = np.zeros(self.cells, dtype=np.int64)

    def _update(self, rows):
        first = np.stack([np.argmax(rows == label, axis=1) for label in self.chosen], axis=1)
        self.counts += np.bincount(order_pattern_index(first), minlength=self.cells)

    def min_samples(self):
        return int(np.ceil(self.min_expected * self.cells))

    def _result(self):
        return _chisquare_cells(self.counts, np.full(self.cells, 1.0 / self.cells), min_expected=self.min_expected,
                                pool="error", test=self.name, unit="shuffles")


def relative_order_test(rows, multiset, *, labels=None, t: int = 5, min_expected: float = 5.0) -> ChiSquareResult:
    """Permutation test for large stacks: the order in which chosen labels first appear.

    Null hypothesis: every row is a uniformly random arrangement, so for t
    labels with the same number of copies, each of the t! orders of their
    first appearances is equally likely (by symmetry).

    Parameters
    ----------
    rows : array_like, shape (n, W)
    multiset : sequence of int
    labels : sequence of int, optional
        The labels to follow (equal multiplicities).  Default: t labels spread
        over the stack's label order.
    t : int, optional
        Number of labels when ``labels`` is not given.
    min_expected : float, optional

    Returns
    -------
    ChiSquareResult
        df = t! - 1; ``n`` = shuffles.

    Notes
    -----
    For a single deck (every label once) this is the permutation test on the
    positions of t fixed cards; it applies unchanged to multi-deck shoes.
    """
    return RelativeOrderAccumulator(multiset, labels=labels, t=t, min_expected=min_expected).run(rows)


def _position_power(ctx, acc, result, alpha, power):
    from stats.power import Detectable, noncentrality_for_power

    n = result.n
    W, L = result.observed.shape
    q = float(result.expected.max()) / n
    lam = noncentrality_for_power(result.df, alpha, power)
    factor = q * (1 - 1 / W) * (1 - 1 / L) * (W - 1) / W
    return Detectable(float(np.sqrt(lam / (n * factor))), "one card at one position at (1 + δ)×expected",
                      alpha, power)


def _adjacency_power(ctx, acc, result, alpha, power):
    from stats.power import Detectable, noncentrality_for_power

    (a, b), mu, S, c, df = _adjacency_model(multiset_counts(ctx.kind.multiset))
    i = int(np.argmax(mu))
    s2 = float(S[i] @ S[i])
    precision = S[i, i] - (c + 1) / (c * c) * (s2 - S[i, i])
    lam = noncentrality_for_power(result.df, alpha, power)
    return Detectable(float(np.sqrt(lam / (result.n * mu[i] * precision))),
                      "one ordered pair of labels adjacent (1 + δ)× as often as expected", alpha, power)


def _multiset(ctx):
    return (ctx.kind.multiset,)


BATTERY = [
    BatteryTest("composition", ("permutation",), "rows", CompositionAccumulator,
                lambda ctx: dict(multiset=ctx.kind.multiset, labels=ctx.labels), order=400,
                function=composition_check),
    BatteryTest("position-card", ("permutation",), "rows", PositionAccumulator, _multiset, _position_power,
                order=410, function=position_test, labelled=True),
    BatteryTest("adjacency", ("permutation",), "rows", AdjacencyAccumulator,
                lambda ctx: _multiset(ctx) if ctx.kind.width >= 4 else None, _adjacency_power, order=420,
                function=adjacency_test, labelled=True),
    BatteryTest("first-card", ("permutation",), "rows", CardPositionAccumulator, _multiset,
                _detect.frequency("first card"), order=430, function=card_position_test,
                labelled=True),
    BatteryTest("cut-card", ("permutation",), "rows", CardPositionAccumulator,
                lambda ctx: dict(multiset=ctx.kind.multiset, position=ctx.kind.width // 2),
                _detect.frequency("card after a half cut"), order=440, labelled=True),
    BatteryTest("relative-order", ("permutation",), "rows", RelativeOrderAccumulator,
                lambda ctx: dict(multiset=ctx.kind.multiset, t=min(5, len(ctx.labels))),
                _detect.cells("one order of first appearances"), order=450, function=relative_order_test),
    BatteryTest("carry-over", ("permutation",), "rows", CarryoverAccumulator, _multiset,
                _detect.normal("matches with the previous shuffle"), order=460, function=carryover_test),
    BatteryTest("permutation-frequencies", ("permutation",), "rows", ArrangementAccumulator,
                lambda ctx: _multiset(ctx) if ctx.kind.width <= MAX_EXHAUSTIVE_WIDTH else None,
                _detect.cells("one arrangement"), order=500, function=permutation_frequency_test),
]


__all__ = [
    "composition_check", "position_test", "card_position_test", "adjacency_test", "carryover_test",
    "permutation_frequency_test", "relative_order_test", "multiset_counts", "MAX_EXHAUSTIVE_WIDTH",
    "CompositionAccumulator", "PositionAccumulator", "CardPositionAccumulator", "AdjacencyAccumulator",
    "CarryoverAccumulator", "ArrangementAccumulator", "RelativeOrderAccumulator",
]
