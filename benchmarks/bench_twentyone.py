"""Twenty-one throughput: blackjack rounds dealt down 8-deck shoes through the C round engine.

Same cases as ``rngcert bench --group twentyone-8deck``
(``harness/benchcases/twentyone.py``), with the same-run numpy PCG64 baseline; each
asserts its tally.  The issue's target (>= 5 M rounds/s on one core, basic strategy,
splits and doubles on) is read from the report, never asserted.  Run::

    pytest benchmarks/bench_twentyone.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.twentyone import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_twentyone(bench_case, case):
    bench_case(case)
