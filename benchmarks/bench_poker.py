"""Poker evaluator: seven-card hands ranked per second, random and exhaustive.

Same cases as ``rngcert bench --group poker-7card``
(``harness/benchcases/poker.py``), with the same-run numpy baseline; each
asserts its result.  The issue's targets (>= 100 M random hands/s/core; all
133,784,560 hands <= 2 s) are read from the report, never asserted.  Run::

    pytest benchmarks/bench_poker.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.poker import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_poker(bench_case, case):
    bench_case(case)
