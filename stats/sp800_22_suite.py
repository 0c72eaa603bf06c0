"""The NIST SP 800-22 Rev. 1a suite over m sequences, and its §4.2 assessment.

Every SP 800-22 module of :mod:`stats` declares its entry as
``SP800_22 = [SuiteTest(...)]`` (:class:`stats._sp800_22.SuiteTest`); the
suite discovers them, cuts the bits into m sequences of n bits, runs each
test on each sequence, and assesses every P-value row (a test, or one
template / state / P-value of it) as §4.2 does:

* **proportion** (§4.2.1): the share of sequences with P >= α must lie in
  p̂ ± 3 sqrt(p̂ (1 - p̂) / m), p̂ = 1 - α;
* **uniformity** (§4.2.2): the P-values in 10 bins C1..C10 give
  χ² = Σ (F_i - m/10)² / (m/10) and P-value_T = igamc(9/2, χ²/2); uniform
  when P-value_T >= 0.0001.  It needs at least 55 sequences (NIST's
  reference code leaves it out below that, and so does this).

A test whose validity conditions fail on a sequence (the random excursion
tests on a walk with too few cycles) does not test that sequence: m for its
rows is the number of sequences it tested, as §4.2 prescribes.

The work is one *run* per test and sequence.  An interrupted suite
(Ctrl-C, or SIGTERM raised as KeyboardInterrupt) returns what finished:
every row over the runs that completed, each test's count of sequences
run, ``interrupted=True`` and the verdict "incomplete".

Sequences are independent, so ``workers > 1`` spreads them over a pool of
processes (:mod:`stats._sp800_22_pool`); each run's P-values come from the
same code on the same bits, and the report takes the runs in (test,
sequence) order whatever order they finished in, so it is identical, to the
last bit, for any number of workers.

References
----------
.. [1] A. Rukhin et al., NIST SP 800-22 Rev. 1a (2010), §4.2 and Appendix B.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from stats import _sp800_22_pool
from stats._sp800_22 import SuiteTest, igamc, sequence_bits
from stats._table import declaring_modules
from stats._validate import InsufficientDataError, check_int
from stats.spectral import spectral_test

DEFAULT_BITS = 1_000_000
ALPHA = 0.01
UNIFORMITY_LEVEL = 0.0001
MIN_UNIFORMITY_SEQUENCES = 55

#: The DFT test (§2.6) lives in stats.spectral; the suite runs it with the standard's variance.
FFT = SuiteTest("FFT", spectral_test, lambda n: {"variance": "sp800-22"}, order=7)


def suite_tests() -> tuple:
    """Every declared SP 800-22 entry, in NIST's report order."""
    import stats

    found = [FFT] + [e for module in declaring_modules(stats) for e in getattr(module, "SP800_22", ())]
    return tuple(sorted(found, key=lambda e: e.order))


def selected_tests(tests=None) -> tuple:
    """The entries of :func:`suite_tests` whose report name is in ``tests`` (all of them for None)."""
    return tuple(e for e in suite_tests() if tests is None or e.name in set(tests))


@dataclass(frozen=True)
class SuiteRow:
    """The §4.2 assessment of one P-value row over the sequences.

    Attributes
    ----------
    test, label : str
        The test's report name and which of its P-values ("" for a single one).
    pvalues : tuple of float
        One per sequence the test applied to.
    skipped : int
        Sequences it did not apply to (validity conditions not met).
    bins : tuple of int
        C1..C10.
    uniformity : float or None
        P-value_T; None below 55 sequences.
    passed : int
        Sequences with P >= α.
    interval : tuple of float
        The proportion's confidence interval (low, high).
    """

    test: str
    label: str
    pvalues: tuple
    skipped: int
    bins: tuple
    uniformity: float | None
    passed: int
    interval: tuple

    @property
    def tested(self) -> int:
        return len(self.pvalues)

    @property
    def proportion_ok(self) -> bool:
        return self.tested > 0 and self.interval[0] <= self.passed / self.tested <= self.interval[1]

    @property
    def uniformity_ok(self) -> bool:
        return self.uniformity is None or self.uniformity >= UNIFORMITY_LEVEL

    @property
    def ok(self) -> bool:
        return self.proportion_ok and self.uniformity_ok


def proportion_interval(m: int, alpha: float = ALPHA) -> tuple[float, float]:
    """p̂ ± 3 sqrt(p̂ (1 - p̂)/m), p̂ = 1 - α (§4.2.1)."""
    p = 1 - alpha
    half = 3 * math.sqrt(p * alpha / m)
    return p - half, p + half


def uniformity(pvalues) -> tuple[tuple, float | None]:
    """C1..C10 and P-value_T of §4.2.2 (None below 55 P-values)."""
    p = np.asarray(pvalues, dtype=float)
    bins = np.bincount(np.minimum((p * 10).astype(int), 9), minlength=10) if p.size else np.zeros(10, int)
    if p.size < MIN_UNIFORMITY_SEQUENCES:
        return tuple(int(b) for b in bins), None
    expected = p.size / 10
    chi2 = float(np.sum((bins - expected) ** 2) / expected)
    return tuple(int(b) for b in bins), igamc(4.5, chi2 / 2)


def assess_row(test: str, label: str, pvalues, skipped: int = 0, alpha: float = ALPHA) -> SuiteRow:
    """The §4.2 assessment of one row of P-values."""
    pvalues = tuple(float(v) for v in pvalues)
    bins, value_t = uniformity(pvalues)
    passed = sum(1 for v in pvalues if v >= alpha)
    interval = proportion_interval(len(pvalues), alpha) if pvalues else (math.nan, math.nan)
    return SuiteRow(test, label, pvalues, skipped, bins, value_t, passed, interval)


@dataclass(frozen=True)
class SuiteReport:
    """The suite's result: one :class:`SuiteRow` per P-value row, and what was tested.

    Attributes
    ----------
    rows : tuple of SuiteRow
    sequences, bits : int
        m and n as asked for.
    alpha : float
    interrupted : bool
        The run was stopped before every test had run on every sequence; the
        rows then cover the runs that finished.
    coverage : tuple of (str, int)
        Each test's name and the number of sequences it ran on (all of its
        runs finished), in report order; m for every test of a complete run.
    """

    rows: tuple
    sequences: int
    bits: int
    alpha: float
    interrupted: bool = False
    coverage: tuple = ()

    @property
    def passed(self) -> bool:
        """Every row assessed so far is within §4.2's limits."""
        return all(r.ok for r in self.rows)

    @property
    def verdict(self) -> str:
        if self.interrupted:
            return "incomplete"
        return "pass" if self.passed else "fail"

    @property
    def not_run(self) -> tuple:
        """Tests that ran on no sequence (only an interrupted run has any)."""
        return tuple(name for name, done in self.coverage if done == 0)

    @property
    def partial(self) -> tuple:
        """``(test, sequences run)`` of the tests that ran on some sequences but not all."""
        return tuple((name, done) for name, done in self.coverage if 0 < done < self.sequences)

    def as_dict(self) -> dict:
        out = {"suite": "sp800-22", "sequences": self.sequences, "bits": self.bits, "alpha": self.alpha,
               "verdict": self.verdict, "complete": not self.interrupted, "interrupted": self.interrupted,
               "rows": [{"test": r.test, "label": r.label, "bins": list(r.bins), "uniformity": r.uniformity,
                         "passed": r.passed, "tested": r.tested, "skipped": r.skipped,
                         "interval": list(r.interval), "proportion_ok": r.proportion_ok,
                         "uniformity_ok": r.uniformity_ok} for r in self.rows]}
        if self.interrupted:
            out["sequences_run"] = dict(self.coverage)
            out["not_run"] = list(self.not_run)
        return out

    def final_analysis_report(self) -> str:
        """The layout of NIST's ``finalAnalysisReport.txt``: C1..C10, P-VALUE, PROPORTION, STATISTICAL TEST."""
        return self.table() + f"verdict: {self.verdict.upper()}\n"

    def table(self) -> str:
        """:meth:`final_analysis_report` without its verdict line (a caller gives its own)."""
        head = "".join(f"{f'C{i}':>4}" for i in range(1, 11))
        lines = [f"{head}  P-VALUE  PROPORTION  STATISTICAL TEST", "-" * 78]
        if self.interrupted:
            lines.insert(0, "INTERRUPTED: the rows cover only the test runs that finished (see below)")
        for r in self.rows:
            value = f"{r.uniformity:.6f}" if r.uniformity is not None else "    ----"
            mark = " " if r.uniformity_ok else "*"
            prop = f"{r.passed}/{r.tested}" + (" " if r.proportion_ok else "*")
            name = r.test + (f" {r.label}" if r.label else "")
            lines.append("".join(f"{b:>4}" for b in r.bins) + f"  {value}{mark} {prop:>10}   {name}")
        lines.append("-" * 78)
        lines.append(f"{self.sequences} sequences of {self.bits:,} bits; a * marks a proportion outside "
                     f"p̂ ± 3 sqrt(p̂(1 - p̂)/m), p̂ = {1 - self.alpha:g}, or P-value_T < {UNIFORMITY_LEVEL:g}")
        if self.interrupted:
            done = [name for name, count in self.coverage if count == self.sequences]
            lines.append("finished on every sequence: " + (", ".join(done) or "none"))
            if self.partial:
                lines.append("finished on some sequences: " + ", ".join(
                    f"{name} ({count} of {self.sequences})" for name, count in self.partial))
            lines.append("not run: " + (", ".join(self.not_run) or "none"))
        return "\n".join(lines) + "\n"


def run_suite(bits, *, sequences: int | None = None, length: int = DEFAULT_BITS, alpha: float = ALPHA,
              tests=None, progress=None, workers: int = 1) -> SuiteReport:
    """Run the SP 800-22 suite on ``sequences`` sequences of ``length`` bits and assess it (§4.2).

    Parameters
    ----------
    bits : array_like of {0, 1}, str of "0"/"1", or bytes
        The bits, read in order; trailing bits that do not fill a sequence are not tested.
    sequences : int, optional
        m (default: as many whole sequences as the bits hold).
    length : int, optional
        n, bits per sequence (default 10^6).
    alpha : float, optional
        Significance level of each test (default 0.01).
    tests : iterable of str, optional
        Report names of the tests to run (default all of :func:`suite_tests`).
    progress : callable, optional
        Called as ``progress(done, total)`` after each run of one test on one
        sequence (``total`` runs in all).
    workers : int, optional
        Processes to spread the sequences over (default 1: this process).
        The report is the same for any number.

    Returns
    -------
    SuiteReport
        If the run is interrupted (KeyboardInterrupt), the report covers
        exactly the runs that finished, with ``interrupted=True`` and verdict
        "incomplete".

    Raises
    ------
    InsufficientDataError
        Fewer bits than the m sequences need.
    """
    x = sequence_bits(bits)
    length = check_int("length", length, 1)
    available = x.size // length
    m = available if sequences is None else check_int("sequences", sequences, 1)
    if m == 0 or m > available:
        raise InsufficientDataError("SP 800-22 suite", max(m, 1) * length, x.size, "bits",
                                    f"{max(m, 1)} sequence(s) of {length:,} bits")
    workers = check_int("workers", workers, 1)
    tests = None if tests is None else tuple(tests)
    entries = selected_tests(tests)
    runs = [(t, i) for t in range(len(entries)) for i in range(m)]
    finished = {}  # (entry index, sequence index) -> that run's (label, P) pairs, None if not applicable
    try:
        for run, pairs in _runs(entries, x, length, m, tests, workers):
            finished[run] = pairs
            if progress is not None:
                progress(len(finished), len(runs))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: report the runs that finished
        return _assess(entries, finished, m, length, alpha, interrupted=True)
    return _assess(entries, finished, m, length, alpha)


def _runs(entries, x, length, m, tests, workers):
    """Yield ``((entry, sequence), pairs)`` for each run as it finishes.

    This is the one place the runs are executed; the caller only collects
    what comes back, so runs may finish in any order.  In this process they
    go test by test; on a pool of workers (:mod:`stats._sp800_22_pool`,
    whose workers ignore SIGINT and which is ended when the caller is
    interrupted) every test of a sequence runs in one worker, and the
    sequences come back in order.
    """
    if workers == 1 or m == 1:
        for t in range(len(entries)):
            for i in range(m):
                yield (t, i), _run_one(entries[t], x[i * length: (i + 1) * length], length)
        return
    for i, outcomes in _sp800_22_pool.map_sequences(x[: m * length], length, _sequence_task, tests, workers):
        for t, pairs in enumerate(outcomes):
            yield (t, i), pairs


def _sequence_task(packed: bytes, count: int, length: int, tests) -> list:
    """A worker's task: every selected test on each of ``count`` packed sequences (as in this process)."""
    bits = _sp800_22_pool.unpack(packed, count, length)
    entries = selected_tests(tests)
    return [sequence_outcomes(entries, bits[i * length: (i + 1) * length], length) for i in range(count)]


def _run_one(entry, sequence, length):
    """One test on one sequence: its ``(label, P)`` pairs, or None when its validity conditions fail."""
    try:
        result = entry.function(sequence, **entry.arguments(length))
    except InsufficientDataError:
        return None
    labels = getattr(result, "labels", ("",))
    mode = getattr(result, "details", {}).get("mode", "")
    return tuple((label or mode, float(p)) for label, p in zip(labels, np.atleast_1d(result.pvalue)))


def sequence_outcomes(entries, sequence, length: int) -> list:
    """Every entry's run on one sequence (what a worker of the pool computes), in the order of ``entries``."""
    return [_run_one(e, sequence, length) for e in entries]


def _assess(entries, finished: dict, m: int, length: int, alpha: float, interrupted: bool = False) -> SuiteReport:
    """The §4.2 report over the finished runs, taken in (test, sequence) order whatever order they came in."""
    rows = {}
    skipped = {}
    for t, i in sorted(finished):
        e, pairs = entries[t], finished[t, i]
        if pairs is None:
            skipped[e.name, e.order] = skipped.get((e.name, e.order), 0) + 1
            continue
        for label, p in pairs:
            rows.setdefault((e.order, e.name, label), []).append(p)
    assessed = [assess_row(name, label, pvalues, skipped.get((name, order), 0), alpha)
                for (order, name, label), pvalues in rows.items()]
    for (name, order), count in skipped.items():
        if not any(r.test == name for r in assessed):
            assessed.append(assess_row(name, "", (), count, alpha))
    coverage = {}  # a test declared twice (CumulativeSums, both modes) ran on a sequence when both did
    for t, e in enumerate(entries):
        done = sum(1 for i in range(m) if (t, i) in finished)
        coverage[e.name] = min(coverage.get(e.name, m), done)
    return SuiteReport(tuple(assessed), m, length, alpha, interrupted, tuple(coverage.items()))


__all__ = ["run_suite", "suite_tests", "selected_tests", "sequence_outcomes", "assess_row", "proportion_interval", "uniformity", "SuiteReport", "SuiteRow"]
