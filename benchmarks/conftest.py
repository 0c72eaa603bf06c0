"""pytest-benchmark glue for ``benchmarks/`` (outside the default test run).

* Collects ``bench_*.py`` when the directory is run (``pytest benchmarks``).
* ``bench_case`` fixture: times one :class:`~harness.benchcases.BenchCase`
  with pytest-benchmark (group = the case's group), asserts its result with
  the case's own ``check``, and records its median.  ``bench_case(case,
  rounds=7)`` is for cases of a second or more, which pytest-benchmark's
  own calibration would time only a few times: one untimed warm-up call
  (first-call costs: lazy imports, caches, page faults of a fresh capture),
  then exactly ``rounds`` timed calls.
* At the end, prints each rngcert case's throughput ratio to every baseline
  of its group measured in this run, with the targets, as ``rngcert bench``
  does.
"""
from __future__ import annotations

import pytest

from harness.benchcases import SkipCase
from harness.benchcases._base import CaseResult, ratios

_RESULTS: list[CaseResult] = []


def pytest_collect_file(file_path, parent):
    # Files named on the command line are collected by pytest itself.
    if file_path.suffix == ".py" and file_path.name.startswith("bench_") and not parent.session.isinitpath(file_path):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


@pytest.fixture
def bench_case(benchmark):
    """``bench_case(case, rounds=None)``: benchmark one BenchCase and check its result
    (``rounds``: one warm-up call, then that many timed calls)."""

    def run(case, rounds: int | None = None):
        try:
            fn = case.setup()
        except SkipCase as exc:
            pytest.skip(str(exc))
        benchmark.group = case.group
        benchmark.extra_info.update(units=case.units, unit=case.unit, baseline=case.baseline,
                                    target=case.target)
        if rounds is None:
            result = benchmark(fn)
        else:
            result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
        if case.check is not None:
            case.check(result)
        if benchmark.stats is not None:  # None under --benchmark-disable
            _RESULTS.append(CaseResult.of(case, seconds_per_call=(benchmark.stats.stats.median,),
                                          calls_per_repeat=1))
        return result

    return run


def pytest_terminal_summary(terminalreporter):
    if not _RESULTS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("throughput ratios (medians of this run)")
    for r in _RESULTS:
        write(f"{r.group:<22} {r.describe()}")
    for q in ratios(_RESULTS):
        if q.ratio is not None or q.required is not None:
            write(f"{q.group:<22} {q.describe()}")
