"""Wheel-position tests: a bias that follows the wheel's physical order, not its labels.

A tilted or worn wheel favours a *sector* — neighbouring pockets in the
clockwise order — or varies smoothly with the position on the wheel.  The
frequency test spreads such a bias over k - 1 degrees of freedom; these tests
look for it where it is.  They need the kind's ``sections`` (the label of
every section, clockwise), which wheel devices declare.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import special as _special
from scipy import stats as _sps

from stats._accumulate import CategoricalAccumulator, no_carry
from stats._results import ChiSquareResult, SectorResult
from stats._validate import check_int
from stats.power import Detectable, noncentrality_for_power, normal_shift
from stats.registry import BatteryTest

#: Gaussian draws of the scan's null law (a fixed, published stream: reproducible p-values).
NULL_DRAWS = 20_000
NULL_SEED = 0x5EC7025
#: Below this the simulated law has fewer than 100 exceedances; Bonferroni over the arcs takes over.
SWITCH = 0.005
#: Every arc (and the normal law of its score) wants this many outcomes expected in the rarest section.
MIN_PER_SECTION = 50
HARMONICS = 2


def check_sections(sections, k: int) -> tuple[int, ...]:
    """``sections`` as a tuple of label indices in [0, k), each label present; ValueError otherwise."""
    sections = tuple(int(s) for s in sections)
    if len(sections) < 3:
        raise ValueError(f"a wheel needs at least 3 sections, got {len(sections)}")
    missing = sorted(set(range(k)) - set(sections))
    if missing or min(sections) < 0 or max(sections) >= k:
        raise ValueError(f"sections must hold every label index 0..{k - 1}; missing {missing}")
    return sections


def _weights(sections, k):
    """w[s, A] = share of label s's sections that arc A covers, over the arcs A (start, length),
    length 1..N/2 (the complement's score is minus this one's); and the arcs' (start, length)."""
    N = len(sections)
    copies = np.bincount(sections, minlength=k).astype(np.float64)
    arcs = [(i, length) for length in range(1, N // 2 + 1) for i in range(N if 2 * length < N else N // 2)]
    w = np.zeros((k, len(arcs)))
    for col, (i, length) in enumerate(arcs):
        for j in range(i, i + length):
            w[sections[j % N], col] += 1.0
    return w / copies[:, None], np.array(arcs)


@lru_cache(maxsize=16)
def _scan_model(sections: tuple, probabilities: tuple):
    """(w, arcs, sd, maxima): arc weights, per-outcome sd of each arc's score, and the sorted
    null maxima of |z| over the arcs (Gaussian limit of the counts, NULL_DRAWS draws)."""
    k = len(probabilities)
    p = np.array([float(v) for v in probabilities])
    w, arcs = _weights(sections, k)
    share = arcs[:, 1] / len(sections)
    var = p @ (w * w) - share * share
    keep = var > 1e-12  # an arc that covers every label in proportion says nothing
    w, arcs, share, sd = w[:, keep], arcs[keep], share[keep], np.sqrt(var[keep])
    rng = np.random.Generator(np.random.PCG64(NULL_SEED))
    maxima = np.empty(NULL_DRAWS)
    root = np.sqrt(p)
    for lo in range(0, NULL_DRAWS, 2_000):
        g = rng.standard_normal((min(2_000, NULL_DRAWS - lo), k)) * root
        x = g - np.outer(g.sum(axis=1), p)  # N(0, diag p - p pᵀ): one outcome's centred count
        maxima[lo: lo + g.shape[0]] = np.abs(x @ w / sd).max(axis=1)
    maxima.sort()
    return w, arcs, share, sd, maxima


@lru_cache(maxsize=16)
def _tree(sections: tuple, probabilities: tuple):
    """Correlations of the arc scores along a maximum spanning tree of the arcs (candidate
    edges: an arc and the next start of its length, the next length from its start, and the
    next length from the previous start), the tree that makes the Hunter–Worsley bound tightest
    among those edges."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import minimum_spanning_tree

    w, arcs, share, sd, _ = _scan_model(sections, probabilities)
    N = len(sections)
    p = np.array([float(v) for v in probabilities])
    index = {(int(i), int(length)): col for col, (i, length) in enumerate(arcs)}
    pairs = []
    for (i, length), col in index.items():
        for other in (((i + 1) % N, length), (i, length + 1), ((i - 1) % N, length + 1)):
            if other in index:
                pairs.append((col, index[other]))
    a, b = np.array(pairs).T
    rho = (np.einsum("s,se,se->e", p, w[:, a], w[:, b]) - share[a] * share[b]) / (sd[a] * sd[b])
    # Maximum spanning tree on ρ = minimum on 2 - ρ (weights must stay positive).
    tree = minimum_spanning_tree(coo_matrix((2.0 - rho, (a, b)), shape=(len(arcs),) * 2)).tocoo()
    return 2.0 - tree.data


def union_bound(z: float, sections: tuple, probabilities: tuple) -> float:
    """Hunter–Worsley bound on P(max_A |Z_A| >= z) for the Gaussian arc scores: Σ P(|Z_A| >= z)
    minus Σ over a spanning tree of P(|Z_A| >= z, |Z_B| >= z) >= 2 P(Z_A >= z, Z_B >= z)
    (positive correlation ρ; Owen's T gives it: Φ(-z) - 2 T(z, √((1 - ρ)/(1 + ρ))))."""
    rho = _tree(sections, probabilities)
    arcs = len(_scan_model(sections, probabilities)[1])
    tail = float(_sps.norm.sf(z))
    r = np.clip(rho[rho > 0], 0.0, 1.0 - 1e-15)
    both = np.clip(tail - 2 * _special.owens_t(z, np.sqrt((1 - r) / (1 + r))), 0.0, tail)
    return float(min(1.0, max(2 * tail, 2 * arcs * tail - 2 * both.sum())))


class SectorAccumulator(CategoricalAccumulator):
    """Streaming core of :func:`sector_test`: the label counts."""

    sums = ("counts",)
    sync = no_carry

    name = "wheel sectors"

    def __init__(self, probabilities, sections):
        super().__init__(probabilities)
        self.sections = check_sections(sections, self.k)
        self.counts = np.zeros(self.k, dtype=np.int64)

    def _update(self, x):
        self.counts += np.bincount(x, minlength=self.k)

    def min_samples(self):
        section = 1.0 / len(self.sections)
        return int(np.ceil(MIN_PER_SECTION / section))

    def _result(self):
        w, arcs, share, sd, maxima = _scan_model(self.sections, self.exact)
        n = self.n
        z = (self.counts @ w - n * share) / (np.sqrt(n) * sd)
        best = int(np.argmax(np.abs(z)))
        statistic = float(abs(z[best]))
        exceed = maxima.size - np.searchsorted(maxima, statistic, side="left")
        pvalue = float((1 + exceed) / (1 + maxima.size))
        method = "simulated"
        if pvalue < SWITCH:
            pvalue = min(SWITCH, union_bound(statistic, self.sections, self.exact))
            method = "hunter-worsley"
        start, length = (int(v) for v in arcs[best])
        if z[best] < 0:  # the complement is the favoured sector
            start, length = (start + length) % len(self.sections), len(self.sections) - length
        return SectorResult(statistic, pvalue, n, start, length, int(z.size), method)


def sector_test(x, probabilities, sections) -> SectorResult:
    """Wheel-sector scan: is some arc of neighbouring sections favoured?

    Null hypothesis: the outcomes are independent, each with the device's
    distribution — every section of the wheel equally likely.

    Parameters
    ----------
    x : array_like of int
        Label indices in [0, k).
    probabilities : int or sequence
        Exact law of one outcome (the share of each label's sections).
    sections : sequence of int
        Label index of every section of the wheel, clockwise.

    Returns
    -------
    SectorResult
        ``statistic`` = the largest |z| over the arcs, the favoured arc
        (first section clockwise, length), and the p-value of the maximum.

    Notes
    -----
    Alternative: the sections of an arc A are (1 + δ) times as likely as the
    others (a tilted or worn wheel).  Its score at δ = 0 is
    U_A = Σ_s n_s w_s(A) − n |A|/N, with w_s(A) the share of label s's
    sections inside A; for a roulette wheel (one section per label) it is the
    arc's count minus its expectation, Binomial(n, |A|/N) exactly.  Under the
    null hypothesis U_A has variance n (Σ_s p_s w_s(A)² − (|A|/N)²), and
    z_A = U_A/sd is asymptotically standard normal.  The scan statistic is
    max |z_A| over every arc of 1..N/2 sections (the score of an arc's
    complement is minus its own).  Its null law is that of the maximum of the
    Gaussian vector of the z_A, whose covariance follows from the multinomial
    one: simulated once per wheel from a fixed stream (20,000 draws).  Below
    p = 0.005 the simulated law is too thin and the Hunter–Worsley bound [1]_
    (Bonferroni's sum over the M arcs minus the joint tails of neighbouring
    arcs along a spanning tree, from the bivariate normal law), capped at
    0.005, is used: a true upper bound, so the test stays valid in the tail,
    and nearly the exact tail for a scan, whose neighbouring arcs move together.  Valid when the rarest section expects
    at least 50 outcomes.

    References
    ----------
    .. [1] D. Hunter, "An upper bound for the probability of a union",
       J. Appl. Probab. 13 (1976) 597-603; K. J. Worsley, "An improved
       Bonferroni inequality and applications", Biometrika 69 (1982) 297-302.
    """
    return SectorAccumulator(probabilities, sections).run(x)


def _harmonic_scores(sections, k, harmonics):
    """v[s, (h, cos/sin)]: mean of cos(2πhj/N), sin(2πhj/N) over the sections j of label s."""
    N = len(sections)
    angle = 2 * np.pi * np.arange(N) / N
    cols = []
    for h in range(1, harmonics + 1):
        cols += [np.cos(h * angle), np.sin(h * angle)]
    table = np.stack(cols, axis=1)
    copies = np.bincount(sections, minlength=k).astype(np.float64)
    v = np.zeros((k, table.shape[1]))
    np.add.at(v, np.array(sections), table)
    return v / copies[:, None]


class HarmonicAccumulator(SectorAccumulator):
    """Streaming core of :func:`harmonic_test`: the label counts."""

    name = "wheel harmonics"

    def __init__(self, probabilities, sections, *, harmonics=HARMONICS):
        super().__init__(probabilities, sections)
        self.harmonics = check_int("harmonics", harmonics, 1, (len(self.sections) - 1) // 2)

    def _result(self):
        v = _harmonic_scores(self.sections, self.k, self.harmonics)
        mean = self.p @ v
        cov = (v * self.p[:, None]).T @ v - np.outer(mean, mean)
        values, vectors = np.linalg.eigh(cov)
        keep = values > 1e-10 * values.max()
        n = self.n
        u = (self.counts @ v - n * mean) / np.sqrt(n)
        proj = vectors[:, keep].T @ u
        statistic = float(np.sum(proj * proj / values[keep]))
        df = int(keep.sum())
        return ChiSquareResult(statistic, float(_sps.chi2.sf(statistic, df)), df, n,
                               self.counts.astype(np.float64), n * self.p, "harmonic-score", 0)


def harmonic_test(x, probabilities, sections, *, harmonics: int = HARMONICS) -> ChiSquareResult:
    """Harmonic test of the wheel position: does the outcome's probability vary smoothly round the wheel?

    Null hypothesis: every section equally likely (as :func:`sector_test`).

    Parameters
    ----------
    x, probabilities, sections
        As :func:`sector_test`.
    harmonics : int, optional
        Harmonics 1..H of the position on the wheel (default 2: a tilt, and
        an oval or warped wheel).

    Returns
    -------
    ChiSquareResult
        The score statistic and its chi-square p-value, df = the rank of the
        scores' covariance (2H for a roulette wheel).

    Notes
    -----
    Alternative: section j at (1 + δ cos(2πh j/N − φ)) times its probability
    for some h ≤ H and phase φ.  The score of each cosine and sine term is
    Σ_s n_s v_s − n Σ_s p_s v_s with v_s the mean of the term over label s's
    sections; the quadratic form of the 2H scores in their exact multinomial
    covariance (a pseudo-inverse where labels make it singular) is
    asymptotically chi-square with df = its rank.  For a roulette wheel the
    covariance is n/2 times the identity: Rayleigh's test of circular
    uniformity on each harmonic.
    """
    return HarmonicAccumulator(probabilities, sections, harmonics=harmonics).run(x)


def _sector_power(ctx, acc, result, alpha, power):
    """An arc of one quarter of the wheel at (1 + δ) times its share."""
    w, arcs, share, sd, maxima = _scan_model(acc.sections, acc.exact)
    N = len(acc.sections)
    col = int(np.flatnonzero(arcs[:, 1] == max(1, N // 4))[0])
    a = share[col]
    # The arc's score gains n δ a (1 - a)/(1 + δ a) against sd √n σ_A; solved at the Bonferroni level.
    # The arc's mean score per outcome gains δ σ_A²/(1 + δ a) (σ_A² its null variance); the arc
    # must beat the Bonferroni level over the arcs.
    t = (_sps.norm.isf(alpha / (2 * w.shape[1])) + _sps.norm.isf(1 - power)) * sd[col] / np.sqrt(result.n)
    gap = sd[col] ** 2 - t * a
    delta = t / gap if gap > 0 else float("inf")
    return Detectable(float(delta), f"an arc of {N // 4} neighbouring sections at (1 + δ)× its share", alpha,
                      power)


def _harmonic_power(ctx, acc, result, alpha, power):
    """A tilt: section j at 1 + δ cos(2πj/N), λ = n δ² Var_p(cos) projected (roulette: n δ²/2)."""
    lam = noncentrality_for_power(result.df, alpha, power)
    v = _harmonic_scores(acc.sections, acc.k, 1)[:, 0]
    spread = float(acc.p @ (v * v) - (acc.p @ v) ** 2)
    return Detectable(float(np.sqrt(lam / (result.n * spread))) if spread > 0 else float("inf"),
                      "a tilt: each section at (1 + δ cos θ) of its share, θ its angle", alpha, power)


def _wheel(ctx):
    sections = getattr(ctx.kind, "sections", None)
    return None if sections is None else dict(probabilities=ctx.probabilities, sections=sections)


BATTERY = [
    BatteryTest("wheel-sectors", ("categorical",), "values", SectorAccumulator, _wheel, _sector_power,
                order=150, function=sector_test),
    BatteryTest("wheel-harmonics", ("categorical",), "values", HarmonicAccumulator, _wheel, _harmonic_power,
                order=151, function=harmonic_test),
]


__all__ = ["sector_test", "harmonic_test", "SectorAccumulator", "HarmonicAccumulator", "check_sections"]
