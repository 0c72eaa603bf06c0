"""Pai Gow exact enumeration: every deal of 4 + 4 tiles (736,281,000) in C.

Same cases as ``rngcert bench --group pai-gow-deals``
(``harness/benchcases/pai_gow.py``), with the same-run numpy baseline; each
asserts its counts.  The issue's target (the whole enumeration <= 60 s) is
read from the report, never asserted.  Run::

    pytest benchmarks/bench_pai_gow.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.pai_gow import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_pai_gow(bench_case, case):
    bench_case(case)
