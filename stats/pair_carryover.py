"""Adjacent-pair carry-over test: do the neighbours of one shuffle stay neighbours in the next?

A shoe shuffled from the previous shoe's order by too little mixing (a
continuous shuffler fed the discards, a machine doing a few riffles) keeps
runs of that order: card b that came right after card a comes right after it
again far more often than in a fresh shuffle.  A riffle keeps each packet's
order, so after k riffles (a = 2^k packets) about (W - 1)/a of the W - 1
adjacent pairs survive in order.  The positional carry-over test
(``carry-over``: same label at the same position) and the adjacency table
(which pairs are adjacent, whatever the previous shuffle) do not look at this.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

import numpy as np
from scipy import optimize as _opt
from scipy import stats as _sps

from stats import _detect
from stats._accumulate import last
from stats._exact import power_of_pmf
from stats._results import NormalResult
from stats.registry import BatteryTest
from stats.shuffle import RowsAccumulator

#: Above this many comparisons the exact law of a deck's total is replaced by the normal one.
EXACT_LIMIT = 20_000
#: Upper-tail p-values below this are rounding in the convolved law: a Chernoff bound is reported instead.
FLOOR = 1e-12
#: Comparisons the normal approximation needs for a stack with repeated labels (a shoe).
MIN_COMPARISONS = 30


@lru_cache(maxsize=8)
def succession_pmf(size: int) -> np.ndarray:
    """P(S = k), k = 0..size-1: successions (item i directly followed by item i + 1) of a uniform
    permutation of ``size`` distinct items, C(size - 1, k) a(size - k) / size!, with a(n) the
    permutations of n items without one: a(1) = a(2) = 1, a(n) = (n - 1) a(n - 1) + (n - 2) a(n - 2) [1]_."""
    free = [0, 1, 1]
    for n in range(3, size + 1):
        free.append((n - 1) * free[n - 1] + (n - 2) * free[n - 2])
    total = factorial(size)
    return np.array([float(Fraction(comb(size - 1, k) * free[size - k], total)) for k in range(size)])


@lru_cache(maxsize=8)
def pair_moments(counts: tuple) -> tuple[np.ndarray, float]:
    """(μ, v) for a uniform arrangement of the multiset with ``counts`` copies of each label.

    μ[a, b] = E[A[a, b]], A[a, b] the number of positions i with labels (a, b) at (i, i + 1), and
    v = E[⟨B, A - μ⟩²] for B an independent copy of A: ‖Σ‖²_F + μᵀ Σ μ, Σ the covariance of A.
    E[A_ab A_cd] sums over the pairs of positions (i, j): equal, overlapping in one item, disjoint;
    their label probabilities are falling-factorial products of the counts.
    """
    m = np.array(counts, dtype=np.float64)
    L, N = m.size, float(m.sum())
    N2, N3, N4 = N * (N - 1), N * (N - 1) * (N - 2), N * (N - 1) * (N - 2) * (N - 3)
    eye = np.eye(L)
    mu = (N - 1) * (m[:, None] * (m[None, :] - eye)) / N2
    b, c, d = (np.arange(L).reshape(shape) for shape in ((L, 1, 1), (1, L, 1), (1, 1, L)))
    bc, bd, cd = (b == c), (b == d), (c == d)
    fro = quad = 0.0
    # Labels with equal counts are exchangeable, so each contributes alike: one of each class is summed.
    classes = {}
    for a, count in enumerate(counts):
        classes.setdefault(count, [a, 0])[1] += 1
    for a, weight in classes.values():
        ab, ac, ad = (b == a), (c == a), (d == a)
        mb, mc, md = m[b], m[c], m[d]
        disjoint = m[a] * (mb - ab) * (mc - ac - bc) * (md - ad - bd - cd) / N4
        follows = bc * m[a] * (mb - ab) * (md - ad - bd) / N3  # (a, b) then (b, d): positions i, i + 1
        precedes = ad * mc * (m[a] - ac) * (mb - bc - ab) / N3  # (c, a) then (a, b): positions i - 1, i
        same = ac * bd * (m[a] * (mb - ab) / N2)
        second = (N - 1) * same + (N - 2) * (follows + precedes) + (N - 2) * (N - 3) * disjoint
        sigma = second - mu[a][:, None, None] * mu[None, :, :]  # Cov(A[a, b], A[c, d]) over (b, c, d)
        fro += weight * float((sigma * sigma).sum())
        quad += weight * float(mu[a] @ (sigma * mu[None, :, :]).sum(axis=(1, 2)))
    return mu, fro + quad


def chernoff_upper(pmf: np.ndarray, times: int, total: int) -> float:
    """Chernoff bound on P(T >= total), T the sum of ``times`` i.i.d. copies of a law on 0, 1, ...:
    inf over θ >= 0 of E[exp(θ(T - total))]."""
    k = np.arange(pmf.size)
    keep = pmf > 0
    rate = total / times

    def log_bound(theta):
        a = theta * (k[keep] - rate)
        top = a.max()
        return times * (top + np.log(pmf[keep] @ np.exp(a - top)))

    best = _opt.minimize_scalar(log_bound, bounds=(0.0, 50.0), method="bounded")
    return float(np.exp(min(0.0, best.fun)))


class PairCarryoverAccumulator(RowsAccumulator):
    """Streaming core of :func:`pair_carryover_test`; the previous shuffle's pairs are carried."""

    name = "pair carry-over"

    def __init__(self, multiset):
        super().__init__(multiset)
        if self.width < 3:
            raise ValueError("adjacent-pair carry-over needs at least 3 items per shuffle")
        self.distinct = bool((self.m == 1).all())
        self.mu, self.v = pair_moments(tuple(int(c) for c in self.m))
        # μ[a, b] = m_a (m_b - [a = b]) / N: its numerators are integers, so Σ⟨A, μ⟩ is kept exactly
        # (a sum that does not depend on how the stream was chunked or cut into segments).
        self._mu_numerators = (self.m[:, None] * (self.m[None, :] - np.eye(self.labels, dtype=np.int64))).ravel()
        self.kept = 0  # Σ_s ⟨A_(s-1), A_s⟩: pairs of shuffle s that were pairs of shuffle s - 1
        self._expected_numerator = 0  # N Σ_s ⟨A_(s-1), μ⟩
        self.comparisons = 0
        self._last = None

    def _update(self, rows):
        data = np.concatenate([self._last, rows]) if self._last is not None else rows
        self._last = rows[-1:].copy()
        if data.shape[0] < 2:
            return
        L2 = self.labels * self.labels
        pairs = data[:, :-1] * self.labels + data[:, 1:]  # ordered label pair at (i, i + 1)
        shuffles = pairs.shape[0]
        tables = np.bincount((pairs + (np.arange(shuffles) * L2)[:, None]).ravel(),
                             minlength=shuffles * L2).reshape(shuffles, L2)
        self.kept += int(np.take_along_axis(tables[:-1], pairs[1:], axis=1).sum())
        self._expected_numerator += int(self._mu_numerators[pairs[:-1]].sum())
        self.comparisons += shuffles - 1

    sums = ("kept", "_expected_numerator", "comparisons")
    sync = last(lambda acc: 1)  # a segment's first shuffle is compared with the one before it

    @property
    def expected(self) -> float:
        """Σ_s ⟨A_(s-1), μ⟩, the conditional mean of the pairs kept."""
        return self._expected_numerator / self.width

    def min_samples(self):
        return 2 if self.distinct else MIN_COMPARISONS + 1

    def _result(self):
        k = self.comparisons
        sd = float(np.sqrt(k * self.v))
        z = (self.kept - self.expected) / sd
        if self.distinct and k <= EXACT_LIMIT:
            pmf, offset = power_of_pmf(succession_pmf(self.width), 0, k)
            i = self.kept - offset
            pvalue = 1.0 if i <= 0 else 0.0 if i >= pmf.size else float(pmf[i:].sum())
            if pvalue < FLOOR:
                pvalue = min(FLOOR, chernoff_upper(succession_pmf(self.width), k, self.kept))
        else:
            pvalue = float(_sps.norm.sf((self.kept - self.expected - 0.5) / sd))
        return NormalResult(float(z), float(min(1.0, pvalue)), self.n, float(self.kept), float(self.expected), sd)


def pair_carryover_test(rows, multiset) -> NormalResult:
    """Adjacent-pair carry-over test: are the neighbours of each shuffle neighbours again in the next?

    Null hypothesis: the shuffles are independent, each a uniformly random
    arrangement of the multiset.

    Parameters
    ----------
    rows : array_like, shape (n, W)
        The shuffles in the order they were dealt, each row the label index of every item.
    multiset : sequence of int
        The label index of every item of the stack.

    Returns
    -------
    NormalResult
        ``observed`` = K, the adjacent pairs kept over the n - 1 comparisons;
        ``expected`` = its conditional mean; ``statistic`` = z; ``pvalue``
        one-sided, P(K >= k): too many pairs kept is the fault.

    Notes
    -----
    Let A_s[a, b] count the positions i of shuffle s with label a at i and b
    at i + 1.  K_s = ⟨A_(s-1), A_s⟩ counts the pairs (i, j) where shuffle s - 1
    has labels (a, b) at (i, i + 1) and shuffle s has them at (j, j + 1); for
    a deck of distinct cards it is the number of cards directly followed by
    the card that followed them before.  Under the null hypothesis
    E[K_s | shuffles before s] = ⟨A_(s-1), μ⟩ with μ = E[A] = (W - 1) m_a
    (m_b - [a = b])/(W (W - 1)), so D_s = K_s - ⟨A_(s-1), μ⟩ are martingale
    differences, uncorrelated, each of variance v = ‖Σ‖²_F + μᵀΣμ (Σ the
    exact covariance of A, from the multiset: pairs of positions that
    coincide, overlap in one item, or are disjoint).  Σ D_s / √((n - 1) v) is
    asymptotically standard normal (martingale central limit theorem);
    valid from 31 shuffles.  For distinct cards the K_s are independent with
    the exact law of the successions of a uniform permutation [1]_, and the
    p-value is exact (the law convolved n - 1 times, up to 20,000
    comparisons; a Chernoff bound below 10⁻¹²); valid from 2 shuffles.

    References
    ----------
    .. [1] D. P. Roselle, "Permutations by number of rises and successions",
       Proc. Amer. Math. Soc. 19 (1968) 8-16.
    """
    return PairCarryoverAccumulator(multiset).run(rows)


def _applies(ctx):
    return (ctx.kind.multiset,) if ctx.kind.width >= 3 else None


BATTERY = [
    BatteryTest("pair-carry-over", ("permutation",), "rows", PairCarryoverAccumulator, _applies,
                _detect.normal("adjacent pairs kept from the previous shuffle"), order=465,
                function=pair_carryover_test),
]


__all__ = ["pair_carryover_test", "PairCarryoverAccumulator", "succession_pmf", "pair_moments", "chernoff_upper"]
