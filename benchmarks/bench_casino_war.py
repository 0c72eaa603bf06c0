"""Casino War throughput: rounds dealt down 8-deck shoes through the C table.

Same cases as ``rngcert bench --group casino-war-8deck``
(``harness/benchcases/casino_war.py``), with the same-run numpy PCG64
baseline; each asserts its tally.  The issue's target (>= 20 M rounds/s on
one core) is read from the report, never asserted.  Run::

    pytest benchmarks/bench_casino_war.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.casino_war import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_casino_war(bench_case, case):
    bench_case(case)
