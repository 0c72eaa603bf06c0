"""Capture-reading benchmarks (pytest-benchmark), reusing harness/benchcases/capture.py CASES.

Run: pytest benchmarks/bench_capture.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.capture import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_capture_case(benchmark, case):
    benchmark.group = case.group
    fn = case.setup()
    result = benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)
    if case.check is not None:
        case.check(result)
