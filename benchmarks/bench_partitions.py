"""Two workers against one process: the battery and a baccarat simulation in partitions.

Same cases as ``rngcert bench`` (``harness/benchcases/partitions.py``):
``battery-workers-64M`` (the battery's costliest wheel tests on a
2^26-outcome capture, 32 partitions) and ``baccarat-workers-64M`` (2^26
rounds, 16 partitions), each on two workers against the same work in one
process, each case checking its figures equal to the other's.  Issue 18's
target is a ratio (two workers >= 1.8x one process), printed in the
throughput-ratio summary at the end, never asserted.  A run takes seconds,
so each case gets one warm-up call and 7 timed calls.  pytest-benchmark runs
the cases one after the other (``rngcert bench`` interleaves them), so on a
machine with other jobs the ratio wobbles more here.  Run::

    pytest benchmarks/bench_partitions.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.partitions import CASES

ROUNDS = 7


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_partitions(bench_case, case):
    bench_case(case, rounds=ROUNDS)
