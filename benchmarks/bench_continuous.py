"""The continuous output test's cost: bounded draws on each engine with the
test on (production) and off (replay), the same cases as ``rngcert bench``
(``harness/benchcases/continuous.py``), each asserting its result.  Run::

    pytest benchmarks/bench_continuous.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.continuous import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_continuous(bench_case, case):
    bench_case(case)
