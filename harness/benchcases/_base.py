"""Bench cases and the timing runner behind ``rngcert bench``.

A :class:`BenchCase` names one thing to time (``setup`` returns the
zero-argument function to call) and how much work one call does.  Cases of
one ``group`` do the same work, so their throughputs compare; the cases with
``baseline=True`` are the yardsticks (OpenSSL, ``os.urandom``, numpy, ...).

Each area contributes cases by defining ``CASES`` in
``harness/benchcases/<area>.py``; :func:`harness.benchcases.discover_cases`
collects them.  The runner interleaves the repeats of every case of a group
(case A, case B, ..., case A, case B, ...) so that a noisy neighbour on a
shared machine slows all of them alike and the ratios stay meaningful.
"""
from __future__ import annotations

import dataclasses
import math
import pathlib
import re
import statistics
import time
from typing import Callable, Iterable, Sequence

from harness import resources


class SkipCase(Exception):
    """Raised by a case's ``setup`` (or its first call or ``check``) when it
    cannot run here (e.g. an optional baseline library is not installed).
    The message is shown in the report."""


def shipped_or_skip(relative: str) -> pathlib.Path:
    """The shipped file ``relative`` (e.g. ``"examples/slot_megaways.toml"``) a case needs.

    Call it from a case's ``setup`` (not at import), so a missing file skips
    only the cases that need it.

    Returns
    -------
    pathlib.Path
        The installed copy, else the source checkout's (:func:`harness.resources.shipped`).

    Raises
    ------
    SkipCase
        When neither exists: an installed wheel may come without ``examples/``.
    """
    path = resources.shipped(relative)  # looked up per call: the tests hide the file through it
    if path is None:
        raise SkipCase(f"{relative} is not installed with this rngcert")
    return path


#: Our own packages: a missing module of these is a broken install, never a reason to skip.
_OUR_PACKAGES = frozenset({"rngcore", "harness", "stats"})


def _missing_optional(exc: ModuleNotFoundError) -> SkipCase | None:
    """The skip for a case that needs a package a plain install lacks (``cryptography``
    for the OpenSSL baselines and references), or None for one of ours."""
    top = (exc.name or "").partition(".")[0]
    if not top or top in _OUR_PACKAGES:
        return None
    return SkipCase(f"needs the `{top}` package, which is not installed (it comes with the `test` extra)")


@dataclasses.dataclass(frozen=True)
class BenchCase:
    """One timed operation.

    Parameters
    ----------
    group : str
        What is being compared, e.g. ``"bytes-1MiB"``; every case in a group
        does the same work per call.
    name : str
        Who does it, e.g. ``"rngcert"`` or ``"openssl-chacha20"``; unique
        within the group.
    setup : callable
        ``setup()`` returns the zero-argument function to time.  It may raise
        :class:`SkipCase` to skip the case with a note.
    units : int
        Units of work done by one call of the timed function.
    unit : str
        Name of the unit: ``"B"``, ``"values"``, ``"shuffles"``, ...
    baseline : bool
        True for a comparison baseline (not our code).
    target : str or None
        Speed target shown in the report, as clauses
        ``">= <ratio>x <baseline name>"`` separated by ``;`` or ``,``,
        e.g. ``">= 0.9x openssl-chacha20; >= 10x os-urandom"``.
    check : callable or None
        ``check(result)`` raises ``AssertionError`` if the value returned by
        the timed function is wrong; the runner calls it once per case, and
        the pytest-benchmark files call it on the benchmarked result.
    """

    group: str
    name: str
    setup: Callable[[], Callable[[], object]]
    units: int
    unit: str
    baseline: bool = False
    target: str | None = None
    check: Callable[[object], None] | None = None

    def __post_init__(self) -> None:
        if self.units <= 0:
            raise ValueError(f"BenchCase {self.group}/{self.name}: units must be > 0, got {self.units}")
        parse_target(self.target)  # malformed targets fail at import, not mid-run

    @property
    def label(self) -> str:
        """``group/name``: how reports and test ids name this case."""
        return f"{self.group}/{self.name}"


@dataclasses.dataclass(frozen=True)
class TargetClause:
    """One clause of a target: ``ratio`` times the throughput of ``baseline``."""

    ratio: float
    baseline: str


_CLAUSE = re.compile(r"^\s*>=\s*([0-9]*\.?[0-9]+)\s*x\s+(\S+)\s*$")


def parse_target(target: str | None) -> tuple[TargetClause, ...]:
    """Parse a target string into clauses; ValueError naming a bad clause."""
    if target is None:
        return ()
    clauses = []
    for text in re.split(r"[;,]", target):
        match = _CLAUSE.match(text)
        if not match:
            raise ValueError(
                f"bad bench target clause {text.strip()!r} in {target!r}; "
                "expected '>= <ratio>x <baseline name>'"
            )
        clauses.append(TargetClause(float(match.group(1)), match.group(2)))
    return tuple(clauses)


@dataclasses.dataclass(frozen=True)
class Timing:
    """Settings of the runner: ``repeats`` timed repeats per case, each at
    least ``min_seconds`` long (several calls are averaged within one).
    With ``first_call_only`` each case runs exactly once: the checked first
    call is its only sample."""

    repeats: int
    min_seconds: float
    first_call_only: bool = False

    @classmethod
    def default(cls) -> "Timing":
        return cls(repeats=7, min_seconds=0.2)

    @classmethod
    def quick(cls) -> "Timing":
        """CI speed: fewer, shorter repeats; figures are rougher."""
        return cls(repeats=3, min_seconds=0.03)

    @classmethod
    def smoke(cls) -> "Timing":
        """Each case once, checked, with one rough timing: proves every case
        runs on this installation (CI), at the cost of one call per case."""
        return cls(repeats=1, min_seconds=0.0, first_call_only=True)


class CheckFailed(AssertionError):
    """A case's result failed its own check: the run stops, naming the case."""


@dataclasses.dataclass(frozen=True)
class CaseResult:
    """The measurement of one case (``skipped`` set when it did not run)."""

    group: str
    name: str
    unit: str
    units: int
    baseline: bool
    target: str | None
    seconds_per_call: tuple[float, ...] = ()
    calls_per_repeat: int = 0
    skipped: str | None = None

    @classmethod
    def of(cls, case: BenchCase, **outcome) -> "CaseResult":
        """The result of ``case``: its identity fields plus ``outcome``
        (``seconds_per_call`` and ``calls_per_repeat``, or ``skipped``)."""
        return cls(group=case.group, name=case.name, unit=case.unit, units=case.units,
                   baseline=case.baseline, target=case.target, **outcome)

    @property
    def median(self) -> float:
        """Median seconds per call over the repeats."""
        return statistics.median(self.seconds_per_call)

    @property
    def throughput(self) -> float:
        """Units per second at the median."""
        return self.units / self.median

    def describe(self) -> str:
        """One report line: time per call and throughput, or why it was skipped."""
        role = "baseline" if self.baseline else "rngcert "
        if self.skipped is not None:
            return f"{self.name:<24} {role}  skipped: {self.skipped}"
        return f"{self.name:<24} {role}  {_human_time(self.median)}/call  {_human_rate(self.throughput, self.unit)}"

    def as_dict(self) -> dict:
        out = {
            "group": self.group,
            "name": self.name,
            "baseline": self.baseline,
            "unit": self.unit,
            "units_per_call": self.units,
            "target": self.target,
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
            return out
        out.update(
            median_seconds_per_call=self.median,
            throughput_per_second=self.throughput,
            calls_per_repeat=self.calls_per_repeat,
            seconds_per_call=list(self.seconds_per_call),
        )
        return out


@dataclasses.dataclass(frozen=True)
class Ratio:
    """Throughput of ``case`` over that of ``baseline``, both of one run;
    ``required`` is the target's ratio when a target names this baseline."""

    group: str
    case: str
    baseline: str
    ratio: float | None
    required: float | None = None

    @property
    def met(self) -> bool | None:
        if self.required is None or self.ratio is None:
            return None
        return self.ratio >= self.required

    def describe(self) -> str:
        """``"case / baseline: 1.23x  (target >= 0.9x: met)"``."""
        value = "not measured" if self.ratio is None else f"{self.ratio:.2f}x"
        text = f"{self.case} / {self.baseline}: {value}"
        if self.required is not None:
            verdict = "not measured" if self.met is None else ("met" if self.met else "MISSED")
            text += f"  (target >= {self.required:g}x: {verdict})"
        return text

    def as_dict(self) -> dict:
        return {
            "group": self.group,
            "case": self.case,
            "baseline": self.baseline,
            "ratio": self.ratio,
            "required": self.required,
            "met": self.met,
        }


def _human_rate(throughput: float, unit: str) -> str:
    if unit == "B":
        return f"{throughput / 2**20:10.1f} MiB/s"
    # an exact analysis covers a cycle of up to ~1e18 combinations a call, hence the large prefixes
    for scale, prefix in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if throughput >= scale:
            return f"{throughput / scale:10.2f} {prefix}{unit}/s"
    return f"{throughput:10.2f} {unit}/s"


def _human_time(seconds: float) -> str:
    for scale, suffix in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if seconds >= scale:
            return f"{seconds / scale:8.2f} {suffix}"
    return f"{seconds / 1e-9:8.2f} ns"


def _time_calls(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def _prepare(case: BenchCase) -> tuple[Callable[[], object], float]:
    """Set ``case`` up, call it once and check the answer: the timed function and
    that call's seconds.  Raises :class:`SkipCase` when the case (or its check)
    needs what this install lacks; a wrong answer still stops the run."""
    try:
        fn = case.setup()
        first = time.perf_counter()
        value = fn()
        once = max(time.perf_counter() - first, 1e-9)
        if case.check is not None:
            try:
                case.check(value)
            except AssertionError as exc:
                raise CheckFailed(f"{case.group}/{case.name} returned a wrong result: {exc}") from exc
    except ModuleNotFoundError as exc:
        skip = _missing_optional(exc)
        if skip is None:
            raise
        raise skip from None
    return fn, once


def run_group(
    cases: Sequence[BenchCase],
    timing: Timing,
    progress: Callable[[int, int], None] | None = None,
) -> list[CaseResult]:
    """Time the cases of one group, interleaving their repeats.

    Each case is set up, run once and checked (``check``), then calibrated so
    one repeat lasts at least ``timing.min_seconds``.  A case that cannot run
    here (:class:`SkipCase`, or an optional package missing from a plain
    install, even one only its check needs) is reported as skipped with why.  ``progress(done, total)``
    is called after each repeat.
    """
    ready = []
    results: dict[int, CaseResult] = {}
    for index, case in enumerate(cases):
        try:
            fn, once = _prepare(case)
        except SkipCase as exc:
            results[index] = CaseResult.of(case, skipped=str(exc))
            continue
        if timing.first_call_only:
            results[index] = CaseResult.of(case, seconds_per_call=(once,), calls_per_repeat=1)
            continue
        calls = max(1, math.ceil(timing.min_seconds / once))
        ready.append((index, case, fn, calls, []))
    for repeat in range(timing.repeats if ready else 0):
        for index, case, fn, calls, samples in ready:
            samples.append(_time_calls(fn, calls))
        if progress is not None:
            progress(repeat + 1, timing.repeats)
    for index, case, fn, calls, samples in ready:
        results[index] = CaseResult.of(case, seconds_per_call=tuple(samples), calls_per_repeat=calls)
    return [results[i] for i in range(len(cases))]


def ratios(results: Iterable[CaseResult]) -> list[Ratio]:
    """Each non-baseline case against each baseline of its group.

    A target clause naming a baseline gives the required ratio; a clause
    naming a baseline that was skipped is reported with ``ratio=None``.
    """
    results = list(results)
    out = []
    for case in results:
        if case.baseline:
            continue
        required = {c.baseline: c.ratio for c in parse_target(case.target)}
        for base in results:
            if not base.baseline or base.group != case.group:
                continue
            value = None
            if case.skipped is None and base.skipped is None:
                value = case.throughput / base.throughput
            out.append(Ratio(case.group, case.name, base.name, value, required.pop(base.name, None)))
        for name, need in required.items():  # target names a baseline missing from the group
            out.append(Ratio(case.group, case.name, name, None, need))
    return out


def group_cases(cases: Iterable[BenchCase]) -> dict[str, list[BenchCase]]:
    """Cases by group, groups in first-seen order; duplicate names raise."""
    groups: dict[str, list[BenchCase]] = {}
    for case in cases:
        members = groups.setdefault(case.group, [])
        if any(c.name == case.name for c in members):
            raise ValueError(f"duplicate bench case {case.group}/{case.name}")
        members.append(case)
    return groups
