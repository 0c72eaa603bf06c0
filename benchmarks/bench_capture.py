"""Reading a capture: a 10^6-line CSV checked and read by ``stats.io``'s streaming reader.

Same cases as ``rngcert bench`` (``harness/benchcases/capture.py``), against
the plain Python way (split the whole text, ``int()`` every value) in the
same run; both answers are checked against the counts of the outcomes
written.  No target: the ratio is printed in the throughput-ratio summary
at the end.  One warm-up call (it writes the file's pages into the cache),
then 7 timed calls per case.  Run::

    pytest benchmarks/bench_capture.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.capture import CASES

ROUNDS = 7


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_capture(bench_case, case):
    bench_case(case, rounds=ROUNDS)
