"""Large ways games: the exact analysis of the 6-reel, heights 2..7 (117,649 ways), 100-stop
example, and the ways programme against the window-by-window reading on a game small enough for
both, measured in the same run.

Same cases as ``rngcert bench`` (``harness/benchcases/slot_ways.py``); each asserts its result (the
pinned exact RTP; both paths' figures equal).  Run::

    pytest benchmarks/bench_slot_ways.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.slot_ways import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_slot_ways(bench_case, case):
    bench_case(case)
