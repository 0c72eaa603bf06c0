"""Slot plays as rounds through the state machine, unjournaled and journaled, beside the C kernel.

Same cases as ``rngcert bench --group rounds-slot`` (``harness/benchcases/rounds_slot.py``);
each asserts that every round finished with its stakes conserved.  Run::

    pytest benchmarks/bench_rounds_slot.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.rounds_slot import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_rounds_slot(bench_case, case):
    bench_case(case)
