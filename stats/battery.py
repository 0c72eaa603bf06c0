"""The certification battery: per device kind, the tests regulators name, with a
family-wise error rate of α.

Which tests run is read from :mod:`stats.registry` (each test module
declares its entries); what they read comes from the device's kind
(:mod:`stats.kinds`).

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

import copy
import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from stats import _state, registry
from stats._validate import InsufficientDataError
from stats._signals import deferred_signals
from stats.kinds import kind_of
from stats.pit import DEFAULT_JITTER_SEED
from stats.cells import TEXT_CELLS, CellTable, cell_table
from stats.power import DEFAULT_POWER, LOW_POWER_DELTA, Detectable
from stats.registry import PlanContext

PA_ALPHA = 0.05  # 58 Pa. Code § 810a.5(c): 95 % confidence
DEFAULT_ALPHA = 0.01  # 25 CFR 547.14(b)(2): 99 % confidence


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
        The test's remark, or why it was skipped.
    needed : int or None
        Skipped for want of data: the n (battery units) it needs.
    labels : tuple of str or None
        The device's labels, when the test's cells are the device's outcomes
        (they name the cells of :attr:`cells`).
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
    needed: int | None = None
    labels: tuple | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def cells(self) -> CellTable | None:
        """Observed against expected counts per cell, with residuals (tests ending in a chi-square)."""
        return None if self.result is None else cell_table(self.result, self.labels)

    def low_power(self, threshold: float = LOW_POWER_DELTA) -> bool | None:
        """The test ran but cannot see a deviation below ``threshold`` (None: it states no δ)."""
        d = self.detectable
        return None if d is None else d.low(threshold)

    @functools.cached_property
    def detectable(self) -> Detectable | None:
        if self.detect is None:
            return None
        try:
            return self.detect()
        except (ValueError, ZeroDivisionError, np.linalg.LinAlgError):
            return None

    def to_json(self) -> dict:
        """This line in the schema of ``rngcert test --json`` (see :meth:`BatteryResult.to_json`)."""
        d = self.detectable
        return {"name": self.name, "statistic": _num(self.statistic), "df": self.df, "pvalue": _num(self.pvalue),
                "holm_pvalue": _num(self.adjusted_pvalue), "verdict": self.verdict,
                "detectable": None if d is None else {"delta": _num(d.delta), "deviation": d.description,
                                                      "alpha": float(d.alpha), "power": float(d.power)},
                "note": self.note or None, "needed": self.needed, "low_power": self.low_power(),
                "cells": None if self.cells is None else self.cells.to_json()}


def _num(v):
    return None if v is None or not np.isfinite(v) else float(v)


@dataclass(frozen=True)
class BatteryResult:
    """Outcome of the battery on one device's data.

    Attributes
    ----------
    device : str
    n : int
        Outcomes (shuffles for permutation devices, rolls for dice) tested;
        every test's figures are those of exactly these n.
    alpha : float
        Family-wise level.
    verdict : {"pass", "fail", "incomplete"}
        Over the tests that ran; "incomplete" when the run was interrupted.
    tests : tuple of BatteryEntry
    interrupted : bool
        True when the run was stopped early; the results cover the first n.
    unit : str
        What n counts ("outcomes", "rolls", "shuffles", ...).
    kind : str
        The device's kind.
    """

    device: str
    n: int
    alpha: float
    verdict: str
    tests: tuple
    interrupted: bool = False
    unit: str = "outcomes"
    kind: str = ""

    @property
    def ran(self) -> tuple:
        return tuple(t for t in self.tests if t.verdict != "skipped")

    @property
    def skipped(self) -> tuple:
        return tuple(t for t in self.tests if t.verdict == "skipped")

    @property
    def complete(self) -> bool:
        """Every test valid at n ran on all n outcomes (not interrupted).

        Tests a sample is too small for are part of no run at that n: they
        are listed as skipped, with the n they need, in a complete report.
        """
        return not self.interrupted

    def low_power(self, threshold: float = LOW_POWER_DELTA) -> tuple:
        """The tests that ran with δ >= ``threshold`` at the report's power (see :data:`LOW_POWER_DELTA`)."""
        return tuple(t for t in self.ran if t.low_power(threshold))

    def power_warning(self, threshold: float = LOW_POWER_DELTA) -> str:
        """One line warning of the tests with low power ("" when there are none): their δ, and roughly
        the n at which δ would fall to ``threshold``."""
        weak = self.low_power(threshold)
        if not weak:
            return ""
        parts = []
        for t in weak:
            d = t.detectable
            wanted = d.samples_for(self.n, threshold)
            parts.append(f"{t.name} (δ = {d.delta:.3g}" + (f"; about {wanted:,} {self.unit} for δ = {threshold:g})"
                                                           if wanted else ")"))
        power = weak[0].detectable.power
        return (f"warning: low power: {len(weak)} of {len(self.ran)} tests would miss a deviation of δ = "
                f"{threshold:g} with probability above {1 - power:.2g}: " + ", ".join(parts))

    def cell_lines(self, count: int = TEXT_CELLS) -> list[str]:
        """Per-cell tables (observed, expected, residual) of the failed tests that have cells."""
        lines = []
        for t in self.ran:
            if t.verdict == "fail" and t.cells is not None:
                lines += [""] if lines else []
                lines.extend(t.cells.report(t.name, count))
        return lines

    def to_json(self) -> dict:
        """The report in the schema of the ``rngcert test --json`` output.

        ``verdict`` is over the tests that ran ("incomplete" when
        interrupted); ``complete`` is false exactly when it was; each test carries its df, Holm p, detectable effect δ and,
        when skipped, why (and the n it needs).
        """
        return {
            "device": self.device,
            "kind": self.kind,
            "n": int(self.n),
            "unit": self.unit,
            "alpha": float(self.alpha),
            "verdict": self.verdict,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "tests": [t.to_json() for t in self.tests],
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


# -- the plan --------------------------------------------------------------------------------

@dataclass
class _Planned:
    """One test of a run: its entry, which derived stream it reads, its accumulator."""

    name: str
    stream: str
    acc: object
    scale: int = 1  # derived-stream items per battery unit (dice: faces per roll)
    detect: Callable | None = None  # (result, alpha, power) -> Detectable | None
    required: bool = True
    labelled: bool = False


def plan_tests(spec, n: int, *, seed: int = DEFAULT_JITTER_SEED, tests=None) -> list:
    """The tests the battery runs on ``n`` outcomes of ``spec``'s device, in report order.

    Every registered entry (:mod:`stats.registry`) that applies to the
    device's kind and to ``n``; only those named in ``tests`` when given.
    """
    kind = kind_of(spec)
    ctx = PlanContext(kind, int(n), int(seed))
    chosen = registry.entries(kind)
    if not chosen:
        raise ValueError(f"the battery has no test for device kind {kind.kind!r}")
    if tests is not None:
        wanted = {registry.entry(name).name for name in tests}
        chosen = tuple(e for e in chosen if e.name in wanted)
        if not chosen:
            raise ValueError(f"none of {', '.join(sorted(wanted))} applies to {kind.name} ({kind.kind})")
    plan = []
    for entry in chosen:
        acc = entry.build(ctx)
        if acc is None:
            continue
        detect = None if entry.power is None else functools.partial(entry.power, ctx, acc)
        plan.append(_Planned(entry.name, entry.stream, acc, ctx.scale(entry.stream), detect,
                             entry.is_required(ctx), entry.labelled))
    return plan


class Battery:
    """The battery as a streaming object: feed chunks of outcomes, then :meth:`result`.

    Parameters
    ----------
    spec : DeviceKind or DeviceSpec-like
        A :mod:`stats.kinds` instance, or a device spec that names its kind
        (:func:`stats.kinds.kind_of`); the kind decides which registered
        tests run (:mod:`stats.registry`) and which streams they read.
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

    tests : sequence of str, optional
        Run only these battery tests (:func:`stats.registry.test_names`).
    locate : callable, optional
        ``locate(row) -> str`` names a 0-based outcome row as its source does
        (a capture file's line) in the notes of deterministic checks.

    Raises
    ------
    InsufficientDataError
        ``n`` is too small for every test (the message names the test that
        needs the least).  A required test that needs more than ``n`` is
        reported as skipped, with the n it needs.

    Notes
    -----
    :meth:`update` is atomic with respect to SIGINT and SIGTERM: a signal
    that arrives while the tests take in a chunk is delivered after the
    last of them has, so an interrupted run's figures are exactly those of
    a fresh run on the outcomes it names.
    """

    def __init__(self, spec, n: int, *, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER,
                 seed: int = DEFAULT_JITTER_SEED, tests=None, locate: Callable[[int], str] | None = None):
        alpha = float(alpha)
        if not 0 < alpha < 1:  # also refuses NaN
            raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
        self.spec, self.alpha, self.power = spec, alpha, float(power)
        self.kind = kind_of(spec)
        self.planned_n = int(n)
        self.unit = self.kind.unit
        self.locate = locate or (lambda row: f"{self.kind.unit_singular} {row}")
        plan = plan_tests(self.kind, self.planned_n, seed=seed, tests=tests)
        self._order = {test.name: i for i, test in enumerate(plan)}
        self.tests = []
        self.short = []  # (test, needed): required tests the planned n cannot run
        left_out = []  # optional tests short of n: not reported, as a complete run has no row for them
        for test in plan:
            needed = -(-int(test.acc.min_samples()) // test.scale)
            if needed <= self.planned_n:
                self.tests.append(test)
            elif test.required or tests is not None:  # a test asked for by name is reported either way
                self.short.append((test, needed))
            else:
                left_out.append((test, needed))
        if not self.tests:
            test, needed = min(self.short + left_out, key=lambda item: item[1])
            raise InsufficientDataError(f"{test.name} test on {self.kind.name}", needed, self.planned_n, self.unit,
                                        "no test of the battery can run")
        self.n = 0
        table = self.kind.stream_table()
        self._seed = int(seed)
        self._derivers = {name: table[name].make(self.kind, seed) for name in table}
        self._streams = list(dict.fromkeys(t.stream for t in self.tests))

    def min_samples(self) -> int:
        """Smallest n at which every required test runs."""
        return max([-(-int(t.acc.min_samples()) // t.scale) for t in self.tests]
                   + [needed for _, needed in self.short])

    def update(self, chunk) -> None:
        """Feed the next outcomes (1-D for wheels, rows for dice and permutations).

        Every derived stream is computed first; then all tests take the chunk
        and n grows, with SIGINT/SIGTERM held until they have (see Notes).
        """
        array = np.asarray(chunk)
        self.kind.check_rows(array)
        if len(array) == 0:
            return
        streams = self._derived(array)
        with deferred_signals():
            for test in self.tests:
                test.acc.update(streams[test.stream])
            self.n += len(array)

    def _derived(self, array) -> dict:
        """Every derived stream the tests read, for one chunk (each derived once)."""
        streams = {}

        def stream(name):
            if name not in streams:
                streams[name] = self._derive(name, array, stream)
            return streams[name]

        try:
            for name in self._streams:
                stream(name)
        finally:
            # stream() refers to itself (its derivers read other streams through it): a reference cycle
            # that, left to the cyclic collector, kept many chunks' streams alive (memory grew with n).
            del stream
        return streams

    def only(self, names) -> "Battery":
        """A fresh battery of this plan holding only the tests named (in this one's order).

        What a run's workers test (the tests that merge) without planning the
        battery a second time: each test keeps its planned entry with a copy of
        its fresh accumulator, and the derived streams are made anew.  Call it
        before any outcome is fed.
        """
        if self.n:
            raise ValueError("only() is for a fresh battery")
        names = set(names)
        other = copy.copy(self)
        other.tests = [dataclasses.replace(t, acc=copy.deepcopy(t.acc)) for t in self.tests if t.name in names]
        other.short = []
        table = self.kind.stream_table()
        other._derivers = {name: table[name].make(self.kind, self._seed) for name in table}
        other._streams = list(dict.fromkeys(t.stream for t in other.tests))
        return other

    def starting_at(self, row: int) -> "Battery":
        """Make this fresh battery that of the outcomes from row ``row`` on (a later segment of a run).

        Every test's accumulator is told where its segment starts and every
        stateful derived stream (the PIT jitter) stands where a single pass
        would; :meth:`merge` then joins the segments exactly.  Raises
        :class:`stats._accumulate.NotMergeable` when a planned test
        declares no exact merge.
        """
        if self.n:
            raise ValueError("starting_at() is for a fresh battery")
        for test in self.tests:
            test.acc.starting_at(int(row) * test.scale)
        for derive in self._derivers.values():
            if hasattr(derive, "seek"):
                derive.seek(int(row))
        return self

    def merge(self, other: "Battery") -> "Battery":
        """Take in ``other``, the battery of the outcomes that follow this one's (see :meth:`starting_at`)."""
        if [t.name for t in other.tests] != [t.name for t in self.tests]:
            raise ValueError("the batteries were planned for different tests")
        with deferred_signals():
            for mine, theirs in zip(self.tests, other.tests):
                mine.acc.merge(theirs.acc)
            self._derivers = other._derivers  # the derived streams stand where the later segment left them
            self.n += other.n
        return self

    def state(self) -> bytes:
        """A checkpoint of the run so far: the tests' accumulators and n, as JSON data
        (:mod:`stats._state`: exact numbers, no code).

        With :meth:`restore` a long run stopped after this checkpoint goes
        on from it instead of from its start.
        """
        return _state.dumps(self.n, [t.acc for t in self.tests])

    def restore(self, state: bytes, replayed: Iterable) -> None:
        """Go on from a checkpoint of :meth:`state`, on a battery planned alike (same device, n, tests).

        ``replayed`` must be the checkpoint's first n outcomes in the same
        chunks as they were first fed: the derived streams that keep state
        across chunks (the PIT jitter stream) are derived over them again, but
        no test takes them twice.
        """
        saved = json.loads(state.decode("utf-8")) if isinstance(state, bytes) and state[:1] == b"{" else None
        if saved is None or saved.get("format") != _state.FORMAT:
            raise ValueError("not a battery checkpoint of this version of rngcert (a pickle of an older one?): "
                             "run again into a new folder")
        if len(saved["accumulators"]) != len(self.tests):
            raise ValueError("the checkpoint is of another battery plan")
        seen = 0
        for chunk in replayed:
            array = np.asarray(chunk)
            self.kind.check_rows(array)
            if len(array):
                self._derived(array)
                seen += len(array)
        if seen != saved["n"]:
            raise ValueError(f"the checkpoint holds {saved['n']:,} {self.unit} but {seen:,} were replayed")
        self.n = _state.loads(state, [t.acc for t in self.tests])

    def _derive(self, name, array, stream):
        derive = self._derivers.get(name)
        if derive is None:
            raise ValueError(f"device kind {self.kind.kind!r} offers no stream {name!r}")
        return derive(array, stream)

    def _labels(self, test) -> tuple | None:
        """The device's labels, for a test whose entry says its cells are labels."""
        return tuple(self.kind.labels) if test.labelled else None

    def _note(self, result) -> str:
        row = getattr(result, "row", None)
        if row is not None and getattr(result, "problem", ""):
            return f"{self.locate(row)}: {result.problem}"
        return getattr(result, "detail", "")

    def result(self, *, interrupted: bool = False) -> BatteryResult:
        """Run every test on the data fed so far and apply Holm's rule over those that ran."""
        rows = []
        short = dict((t.name, needed) for t, needed in self.short)
        for test in self.tests + [t for t, _ in self.short]:
            if test.name in short:
                rows.append((test, None, short[test.name]))
                continue
            try:
                result = test.acc.result()
            except InsufficientDataError as exc:
                rows.append((test, None, -(-exc.needed // test.scale)))
                continue
            rows.append((test, result, None))
        rows.sort(key=lambda row: self._order[row[0].name])
        ran = [(t, r) for t, r, _ in rows if r is not None]
        adjusted = holm([r.pvalue for _, r in ran]) if ran else np.array([])
        m = max(len(ran), 1)
        entries = []
        adjusted_iter = iter(adjusted)
        for test, result, needed in rows:
            if result is None:
                note = f"needs at least {needed:,} {self.unit}, got {self.n:,}"
                entries.append(BatteryEntry(test.name, float("nan"), float("nan"), float("nan"), "skipped", None,
                                            None, note, needed=needed))
                continue
            adj = float(next(adjusted_iter))
            detect = None
            if test.detect is not None:
                detect = functools.partial(test.detect, result, self.alpha / m, self.power)
            entries.append(BatteryEntry(test.name, float(result.statistic), float(result.pvalue), adj,
                                        "fail" if adj <= self.alpha else "pass", getattr(result, "df", None),
                                        result, self._note(result), detect, labels=self._labels(test)))
        verdict = "incomplete" if interrupted else "fail" if any(e.verdict == "fail" for e in entries) else "pass"
        return BatteryResult(self.kind.name, self.n, self.alpha, verdict, tuple(entries), interrupted,
                             self.unit, self.kind.kind)


def run_battery(spec, data, *, alpha: float = DEFAULT_ALPHA, n: int | None = None, chunk: int = 1 << 20,
                power: float = DEFAULT_POWER, progress: Callable | None = None,
                seed: int = DEFAULT_JITTER_SEED, tests=None, locate: Callable[[int], str] | None = None
                ) -> BatteryResult:
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
    tests, locate : optional
        As for :class:`Battery`.

    Returns
    -------
    BatteryResult
        If the run is interrupted (KeyboardInterrupt), the result covers
        exactly the outcomes consumed so far, with ``interrupted=True`` and
        verdict "incomplete".
    """
    if isinstance(data, np.ndarray):
        n = len(data)
        chunks = (data[i: i + chunk] for i in range(0, n, chunk))
    else:
        if n is None:
            raise ValueError("n (total outcomes) is required when data is an iterable of chunks")
        chunks = iter(data)
    battery = Battery(spec, n, alpha=alpha, power=power, seed=seed, tests=tests, locate=locate)
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
