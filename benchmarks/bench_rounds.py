"""E-table rounds through the state machine, unjournaled and journaled, beside the raw kernel.

Same cases as ``rngcert bench --group rounds-roulette`` and
``--group rounds-roulette-journaled`` (``harness/benchcases/rounds.py``); each
asserts that every round finished with its stakes conserved.  The issue's
targets (200,000 rounds/s unjournaled, 20,000 journaled) are read from the
report, never asserted.  Run::

    pytest benchmarks/bench_rounds.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.rounds import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_rounds(bench_case, case):
    bench_case(case)
