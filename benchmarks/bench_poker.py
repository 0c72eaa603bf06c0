"""Poker: seven-card hands ranked per second, random and exhaustive, and the
exact analyses from nothing cached.

Same cases as ``rngcert bench --group poker-7card --group poker-exact``
(``harness/benchcases/poker.py``, ``poker_exact.py``), with the same-run
baselines; each asserts its result.  The issue's targets (>= 100 M random
hands/s/core; all 133,784,560 hands <= 2 s; exact Three Card Poker <= 5 s,
Let It Ride and Mississippi Stud <= 60 s) are read from the report, never
asserted.  Run::

    pytest benchmarks/bench_poker.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases import poker, poker_exact

CASES = poker.CASES + poker_exact.CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_poker(bench_case, case):
    bench_case(case)
