"""Worker benchmarks (pytest-benchmark), reusing harness/benchcases/partitions.py CASES.

Run: pytest benchmarks/bench_partitions.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.partitions import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_partitions_case(benchmark, case):
    benchmark.group = case.group
    fn = case.setup()
    result = benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)
    if case.check is not None:
        case.check(result)
