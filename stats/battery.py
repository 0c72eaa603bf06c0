"""The certification battery: per device kind, the tests regulators name, with a
family-wise error rate of α.

Regulations list the tests a laboratory may use: 25 CFR 547.14(b)(2) (99 %
confidence: chi-square, runs, serial correlation, equi-distribution, gap,
poker, coupon collector's, permutation, spectral, subsequences) and
58 Pa. Code § 810a.5(c) (95 %: chi-square, equi-distribution, gap, overlaps,
poker, coupon collector's, permutation, Kolmogorov–Smirnov, adjacency
criterion, order statistic, runs, interplay correlation, serial correlation,
subsequences, Poisson).  Running 20 tests at α each would fail a good
device about 20α of the time; Holm's step-down rule [1]_ keeps the chance
that *any* test fails a good device at most α, whatever the dependence
between the tests.

References
----------
.. [1] S. Holm, "A simple sequentially rejective multiple test procedure",
   Scand. J. Statist. 6 (1979) 65-70.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

import numpy as np

from stats._validate import InsufficientDataError, as_float
from stats.kinds import kind_of
from stats.chisquare import FrequencyAccumulator
from stats import shuffle
from stats.correlation import SerialCorrelationAccumulator
from stats.coupon import CouponAccumulator, detectable_scarcity
from stats.gap import GapAccumulator, detectable_clustering
from stats.interplay import InterplayAccumulator, detectable_copy
from stats.order import MaximumAccumulator, OrderPatternAccumulator
from stats.pit import DEFAULT_JITTER_SEED
from stats.poisson import PoissonAccumulator, detectable_drift
from stats.poker import PokerAccumulator
from stats.power import (
    DEFAULT_POWER,
    Detectable,
    detectable_cell_shift,
    detectable_correlation,
    detectable_mean_shift,
    detectable_repeat,
    detectable_shift,
    noncentrality_for_power,
)
from stats.runs import MedianRunsAccumulator, RunsAccumulator, run_moments
from stats.second_level import SubsequenceAccumulator
from stats.serial import IndependenceAccumulator, SerialAccumulator
from stats.spacings import BirthdaySpacingsAccumulator, CollisionAccumulator
from stats.spectral import SpectralAccumulator, bits_per_outcome, detectable_peak_share

PA_ALPHA = 0.05  # 58 Pa. Code § 810a.5(c): 95 % confidence
DEFAULT_ALPHA = 0.01  # 25 CFR 547.14(b)(2): 99 % confidence


@dataclass
class _Planned:
    """One test of the battery: its name, which derived stream it reads, its core."""

    name: str
    stream: str
    acc: object
    scale: int = 1  # derived-stream items per battery unit (dice: faces per roll)
    detect: Callable | None = None  # (result, alpha) -> Detectable | None
    required: bool = True


@dataclass(frozen=True)
class BatteryEntry:
    """One line of the battery report.

    Attributes
    ----------
    name : str
    statistic, pvalue : float
        As returned by the test (NaN when skipped).
    adjusted_pvalue : float
        Holm-adjusted p-value; the test fails when it is <= α.
    verdict : {"pass", "fail", "skipped"}
    df : int or None
    detectable : Detectable or None
        Smallest deviation this test detects with probability ``power`` at
        the Holm/Bonferroni level α/m it must beat to fail the battery
        (computed when first read: some figures solve an exact law).
    result : object
        The test's own result record (None when skipped).
    note : str
    """

    name: str
    statistic: float
    pvalue: float
    adjusted_pvalue: float
    verdict: str
    df: int | None
    result: object = field(repr=False)
    note: str = ""
    detect: Callable[[], Detectable | None] | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def detectable(self) -> Detectable | None:
        if self.detect is None:
            return None
        try:
            return self.detect()
        except (ValueError, ZeroDivisionError, np.linalg.LinAlgError):
            return None


@dataclass(frozen=True)
class BatteryResult:
    """Outcome of the battery on one device's data.

    Attributes
    ----------
    device : str
    n : int
        Outcomes (shuffles for permutation devices, rolls for dice) tested.
    alpha : float
        Family-wise level.
    verdict : {"pass", "fail"}
    tests : tuple of BatteryEntry
    interrupted : bool
        True when the run was stopped early; the results cover the first n.
    """

    device: str
    n: int
    alpha: float
    verdict: str
    tests: tuple
    interrupted: bool = False

    def to_json(self) -> dict:
        """The report in the schema of the ``rngcert test --json`` output."""
        def num(v):
            return None if v is None or not np.isfinite(v) else float(v)

        return {
            "device": self.device,
            "n": int(self.n),
            "alpha": float(self.alpha),
            "verdict": self.verdict,
            "tests": [{"name": t.name, "statistic": num(t.statistic), "pvalue": num(t.pvalue),
                       "verdict": t.verdict} for t in self.tests],
        }


def holm(pvalues: Iterable[float]) -> np.ndarray:
    """Holm step-down adjusted p-values: reject H_i at family-wise level α iff adjusted_i <= α.

    adjusted_(i) = max_(j <= i) min(1, (m - j + 1) p_(j)) over p sorted ascending.
    """
    p = np.asarray(list(pvalues), dtype=np.float64)
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


# -- deviation descriptions ------------------------------------------------------------------

def _least_likely(spec_labels, probabilities):
    p = as_float(probabilities)
    j = int(np.argmin(p))
    return j, spec_labels[j]


def _detect_frequency(labels, probabilities, what):
    j, label = _least_likely(labels, probabilities)
    p = probabilities[j]

    def detect(result, alpha, power):
        delta = detectable_shift(probabilities, result.n, alpha, power=power, category=j, df=result.df)
        return Detectable(delta, f"{what} {label} at (1 + δ)·{p}", alpha, power)

    return detect


def _detect_repeat(probabilities):
    def detect(result, alpha, power):
        delta = detectable_repeat(probabilities, result.n, alpha, df=result.df, power=power)
        return Detectable(delta, "repeats the previous outcome with probability δ", alpha, power)

    return detect


def _detect_cells(what):
    def detect(result, alpha, power):
        q = result.expected / result.expected.sum()
        delta = detectable_cell_shift(q, result.n, alpha, result.df, power=power)
        return Detectable(delta, f"{what} at (1 + δ)×expected", alpha, power)

    return detect


def _detect_runs(kind):
    def detect(result, alpha, power):
        # Conservative: only the shifted class's own variance is used (a shift of one
        # class alone, with the others fixed, would be far easier to see).
        mean, cov = run_moments(kind, result.n, result.df)
        c = int(np.argmax(mean))
        lam = noncentrality_for_power(result.df, alpha, power)
        delta = float(np.sqrt(lam * cov[c, c]) / mean[c])
        return Detectable(delta, f"runs of length {c + 1} at (1 + δ)×expected", alpha, power)

    return detect


def _detect_normal(what):
    def detect(result, alpha, power):
        if not np.isfinite(result.sd):
            return None
        return Detectable(detectable_mean_shift(result.expected, result.sd, alpha, power=power),
                          f"{what} at (1 ± δ)×expected", alpha, power)

    return detect


def _detect_position(multiset):
    def detect(result, alpha, power):
        n = result.n
        W, L = result.observed.shape
        q = float(result.expected.max()) / n
        lam = noncentrality_for_power(result.df, alpha, power)
        factor = q * (1 - 1 / W) * (1 - 1 / L) * (W - 1) / W
        return Detectable(float(np.sqrt(lam / (n * factor))), "one card at one position at (1 + δ)×expected",
                          alpha, power)

    return detect


def _detect_adjacency(multiset):
    def detect(result, alpha, power):
        (a, b), mu, S, c, df = shuffle._adjacency_model(shuffle.multiset_counts(multiset))
        i = int(np.argmax(mu))
        s2 = float(S[i] @ S[i])
        precision = S[i, i] - (c + 1) / (c * c) * (s2 - S[i, i])
        lam = noncentrality_for_power(result.df, alpha, power)
        return Detectable(float(np.sqrt(lam / (result.n * mu[i] * precision))),
                          "one ordered pair of labels adjacent (1 + δ)× as often as expected", alpha, power)

    return detect


def _detect_solved(acc, solve, description):
    """Power figure from a solver ``solve(acc, result, alpha, power)`` of an exactly stated alternative."""
    def detect(result, alpha, power):
        return Detectable(solve(acc, result, alpha, power), description, alpha, power)

    return detect


def _detect_peaks(result, alpha, power):
    return Detectable(detectable_peak_share(result, alpha, power),
                      "share of Fourier peaks at or above T at 5 % + δ", alpha, power)


def _detect_correlation(result, alpha, power):
    return Detectable(detectable_correlation(result.n, alpha, result.df, power=power),
                      "serial correlation |ρ| = δ at one lag", alpha, power)


def _detect_count(what):
    def detect(result, alpha, power):
        from stats.power import normal_shift
        mean = result.expected
        return Detectable(normal_shift(alpha, power) * np.sqrt(mean) / mean, f"{what} at (1 ± δ)×expected",
                          alpha, power)

    return detect


# -- plans ------------------------------------------------------------------------------------

def _sequence_tests(probabilities, labels, n_items, seed, *, stream="values", uniform="uniform",
                    bits_stream="bits", scale=1, what="outcome", prefix=""):
    """Tests on an i.i.d. categorical sequence (wheel spins, die faces)."""
    k = len(probabilities)
    uniform_dist = len(set(probabilities)) == 1
    out = []

    def add(name, acc, detect, required=True, s=stream):
        out.append(_Planned(prefix + name, s, acc, scale, detect, required))

    add("frequency", FrequencyAccumulator(probabilities), _detect_frequency(labels, probabilities, what))
    add("serial-pairs", SerialAccumulator(probabilities, t=2, overlapping=True), _detect_repeat(probabilities))
    if k**3 <= 2**20:
        add("serial-triples", SerialAccumulator(probabilities, t=3, overlapping=True), None, required=False)
    add("independence", IndependenceAccumulator(probabilities), _detect_repeat(probabilities))
    gap = GapAccumulator(probabilities)
    members = [labels[c] for c in gap.categories]
    shown = ", ".join(members) if len(members) <= 4 else f"{members[0]} … {members[-1]} ({len(members)} labels)"
    add("gap", gap, _detect_solved(gap, detectable_clustering,
                                   f"{what}s in {{{shown}}} (P = {sum(gap.exact[c] for c in gap.categories)}) "
                                   "cluster: P(in | previous in) = P + δ(1 − P)"))
    add("poker", PokerAccumulator(probabilities, t=5), _detect_cells("one partition class"))
    j, rarest = _least_likely(labels, probabilities)
    if uniform_dist or k <= 12:
        coupon = CouponAccumulator(probabilities)
        add("coupon-collector", coupon, _detect_solved(coupon, detectable_scarcity,
                                                       f"{what} {rarest} at (1 − δ)·{probabilities[j]}"))
    poisson = PoissonAccumulator(probabilities)
    add("poisson", poisson, _detect_solved(poisson, detectable_drift,
                                           f"rate of {what} {rarest} drifts between blocks of {poisson.block}: "
                                           f"(1 ± δ)·{probabilities[j]}"))
    add("permutation", OrderPatternAccumulator(t=4), _detect_cells("one order of 4"), s=uniform)
    add("runs-up", RunsAccumulator("up", classes=6), _detect_runs("up"), s=uniform)
    add("runs-up-down", RunsAccumulator("updown", classes=5), _detect_runs("updown"), s=uniform)
    add("runs-median", MedianRunsAccumulator(probabilities), _detect_normal("the number of runs"))
    add("serial-correlation", SerialCorrelationAccumulator(lags=5), _detect_correlation)
    add("maximum-of-5", MaximumAccumulator(probabilities, t=5), _detect_cells("one maximum"))
    if uniform_dist:
        add("birthday-spacings", BirthdaySpacingsAccumulator(probabilities), _detect_count("repeated spacings"),
            required=False)
        add("collisions", CollisionAccumulator(probabilities), _detect_count("collisions"), required=False)
    p_min = float(min(probabilities))
    block_min = int(np.ceil(5 / p_min))
    blocks = int(min(100, max(1, n_items // block_min)))
    block = max(block_min, n_items // max(blocks, 1))
    add("ks-subsequences", SubsequenceAccumulator(probabilities, block=block, method="ks"), None)
    add("ad-subsequences", SubsequenceAccumulator(probabilities, block=block, method="ad"), None)
    out.append(_spectral(probabilities, n_items, scale, prefix + "spectral", bits_stream))
    return out


#: Bits per DFT in the battery: 2^15 keeps the count N1 fine-grained (sd ≈ 20), 2^16 at most
#: bounds the work per transform; longer streams are cut into blocks whose counts add up.
SPECTRAL_BLOCKS = (1 << 15, 1 << 16)


def _spectral(probabilities, n_items, scale, name, stream):
    """The spectral test on the PIT bits of an outcome stream (optional: needs one block of 2^15 bits)."""
    bits = bits_per_outcome(len(probabilities))
    block = SPECTRAL_BLOCKS[1] if n_items * bits >= SPECTRAL_BLOCKS[1] else SPECTRAL_BLOCKS[0]
    return _Planned(name, stream, SpectralAccumulator(block=block), scale * bits, _detect_peaks, required=False)


def plan_tests(spec, n: int, *, seed: int = DEFAULT_JITTER_SEED) -> list:
    """The tests the battery runs on ``n`` outcomes of ``spec``'s device (see module doc)."""
    kind = kind_of(spec)
    probabilities = tuple(kind.probabilities)
    labels = tuple(kind.labels)
    if kind.is_a("dice"):
        count = int(kind.width)
        plan = _sequence_tests(probabilities, labels, n * count, seed, scale=count, what="face")
        if count >= 2:
            cells = kind.faces**count
            if cells <= 1296:
                combos = (Fraction(1, cells),) * cells
                plan.append(_Planned("combination", "combos", FrequencyAccumulator(combos), 1,
                                     _detect_cells("one ordered combination")))
            interplay = InterplayAccumulator([probabilities] * count)
            plan.append(_Planned("interplay", "rows", interplay, 1,
                                 _detect_solved(interplay, detectable_copy,
                                                "one die shows another's face with probability δ")))
            totals = kind.totals_law()
            plan.append(_Planned("totals-independence", "totals", IndependenceAccumulator(totals), 1,
                                 _detect_repeat(totals), required=False))
        return plan
    if kind.is_a("categorical"):
        return _sequence_tests(probabilities, labels, n, seed, what="outcome")
    if not kind.is_a("permutation"):
        raise ValueError(f"the battery has no plan for device kind {kind.kind!r}")
    multiset = tuple(kind.multiset)
    width = len(multiset)
    first = probabilities
    plan = [
        _Planned("composition", "rows", shuffle.CompositionAccumulator(multiset)),
        _Planned("position-card", "rows", shuffle.PositionAccumulator(multiset), 1, _detect_position(multiset)),
        _Planned("adjacency", "rows", shuffle.AdjacencyAccumulator(multiset), 1, _detect_adjacency(multiset))
        if width >= 4 else None,
        _Planned("first-card", "rows", shuffle.CardPositionAccumulator(multiset, position=0), 1,
                 _detect_frequency(labels, first, "first card")),
        _Planned("cut-card", "rows", shuffle.CardPositionAccumulator(multiset, position=width // 2), 1,
                 _detect_frequency(labels, first, "card after a half cut")),
        _Planned("relative-order", "rows", shuffle.RelativeOrderAccumulator(multiset, t=min(5, len(labels))), 1,
                 _detect_cells("one order of first appearances")),
        _Planned("carry-over", "rows", shuffle.CarryoverAccumulator(multiset), 1,
                 _detect_normal("matches with the previous shuffle")),
        _Planned("first-card-serial-correlation", "first", SerialCorrelationAccumulator(lags=5), 1,
                 _detect_correlation),
        _Planned("first-card-independence", "first", IndependenceAccumulator(first), 1, _detect_repeat(first),
                 required=False),
        _spectral(first, n, 1, "first-card-spectral", "first-bits"),
    ]
    if width <= shuffle.MAX_EXHAUSTIVE_WIDTH:
        plan.append(_Planned("permutation-frequencies", "rows", shuffle.ArrangementAccumulator(multiset), 1,
                             _detect_cells("one arrangement")))
    return [p for p in plan if p is not None]


class Battery:
    """The battery as a streaming object: feed chunks of outcomes, then :meth:`result`.

    Parameters
    ----------
    spec : DeviceSpec-like
        Needs ``name``, ``kind``, ``labels``, ``probabilities``, ``width``,
        ``multiset`` (see ``rngcore.devices``).
    n : int
        Outcomes that will be fed (rows for dice and permutation devices); it
        fixes which optional tests run and the block size of the subsequence
        tests.
    alpha : float, optional
        Family-wise significance level (default 0.01; Pennsylvania uses 0.05).
    power : float, optional
        Power at which detectable deviations are reported (default 0.99).
    seed : int, optional
        Seed of the PIT jitter stream (:mod:`stats.pit`).

    Raises
    ------
    InsufficientDataError
        ``n`` is too small for a required test (the message names the test
        and the number of outcomes it needs).
    """

    def __init__(self, spec, n: int, *, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER,
                 seed: int = DEFAULT_JITTER_SEED):
        if not 0 < float(alpha) < 1:
            raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
        self.spec, self.alpha, self.power = spec, float(alpha), float(power)
        self.kind = kind_of(spec)
        self.planned_n = int(n)
        unit = self.kind.unit
        self.unit = unit
        plan = plan_tests(self.kind, self.planned_n, seed=seed)
        self.tests = []
        short = []
        for test in plan:
            needed = -(-int(test.acc.min_samples()) // test.scale)
            if needed > self.planned_n:
                if test.required:
                    short.append((needed, test.name))
                continue
            self.tests.append(test)
        if short:
            needed, name = max(short)
            others = ", ".join(f"{t} {k:,}" for k, t in sorted(short, reverse=True)[1:])
            why = f"also short: {others}" if others else ""
            raise InsufficientDataError(f"{name} test on {self.kind.name}", needed, self.planned_n, unit, why)
        self.n = 0
        table = self.kind.stream_table()
        self._derivers = {name: table[name].make(self.kind, seed) for name in table}

    def min_samples(self) -> int:
        """Smallest n accepted for this device (the largest requirement of a required test)."""
        return max(-(-int(t.acc.min_samples()) // t.scale) for t in self.tests)

    def update(self, chunk) -> None:
        """Feed the next outcomes (1-D for wheels, rows for dice and permutations)."""
        array = np.asarray(chunk)
        self.kind.check_rows(array)
        if len(array) == 0:
            return
        streams = {}

        def stream(name):
            if name not in streams:
                streams[name] = self._derive(name, array, stream)
            return streams[name]

        for test in self.tests:
            test.acc.update(stream(test.stream))
        self.n += len(array)

    def _derive(self, name, array, stream):
        derive = self._derivers.get(name)
        if derive is None:
            raise ValueError(f"device kind {self.kind.kind!r} offers no stream {name!r}")
        return derive(array, stream)

    def result(self, *, interrupted: bool = False) -> BatteryResult:
        """Run every test on the data fed so far and apply Holm's rule."""
        rows = []
        for test in self.tests:
            try:
                result = test.acc.result()
            except InsufficientDataError as exc:
                if not interrupted:
                    raise
                rows.append((test, None, str(exc)))
                continue
            rows.append((test, result, ""))
        ran = [(t, r) for t, r, _ in rows if r is not None]
        adjusted = holm([r.pvalue for _, r in ran]) if ran else np.array([])
        m = max(len(ran), 1)
        entries = []
        adjusted_iter = iter(adjusted)
        for test, result, note in rows:
            if result is None:
                entries.append(BatteryEntry(test.name, float("nan"), float("nan"), float("nan"), "skipped", None,
                                            None, note))
                continue
            adj = float(next(adjusted_iter))
            detect = None
            if test.detect is not None:
                detect = functools.partial(test.detect, result, self.alpha / m, self.power)
            entries.append(BatteryEntry(test.name, float(result.statistic), float(result.pvalue), adj,
                                        "fail" if adj <= self.alpha else "pass", getattr(result, "df", None),
                                        result, getattr(result, "detail", ""), detect))
        verdict = "fail" if any(e.verdict == "fail" for e in entries) else "pass"
        return BatteryResult(self.kind.name, self.n, self.alpha, verdict, tuple(entries), interrupted)


def run_battery(spec, data, *, alpha: float = DEFAULT_ALPHA, n: int | None = None, chunk: int = 1 << 20,
                power: float = DEFAULT_POWER, progress: Callable | None = None,
                seed: int = DEFAULT_JITTER_SEED) -> BatteryResult:
    """Run the battery for ``spec`` on an array or an iterable of chunks.

    Parameters
    ----------
    spec : DeviceSpec-like
    data : numpy.ndarray or iterable of arrays
        All outcomes, or chunks of them (then ``n`` must be given).
    alpha : float, optional
        Family-wise level (default 0.01).
    n : int, optional
        Total outcomes when ``data`` is an iterable.
    chunk : int, optional
        Chunk length used to split an array (bounded memory per step).
    power : float, optional
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk.
    seed : int, optional
        PIT jitter seed.

    Returns
    -------
    BatteryResult
        If the run is interrupted (KeyboardInterrupt), the result covers the
        outcomes consumed so far and has ``interrupted=True``.
    """
    if isinstance(data, np.ndarray):
        n = len(data)
        chunks = (data[i: i + chunk] for i in range(0, n, chunk))
    else:
        if n is None:
            raise ValueError("n (total outcomes) is required when data is an iterable of chunks")
        chunks = iter(data)
    battery = Battery(spec, n, alpha=alpha, power=power, seed=seed)
    try:
        for part in chunks:
            battery.update(part)
            if progress is not None:
                progress(battery.n, n)
    except KeyboardInterrupt:
        return battery.result(interrupted=True)
    return battery.result()


__all__ = ["Battery", "BatteryResult", "BatteryEntry", "run_battery", "plan_tests", "holm",
           "DEFAULT_ALPHA", "PA_ALPHA"]
