"""Slot throughput: exact analysis of a 5 x 100-stop, 50-line game with wild,
scatter, free spins and progressive (target <= 1 s), and simulated spins of
its 20-line variant through the C kernel (target >= 10 million spins/s on one
core) against the same game played by vectorised numpy with PCG64 stops,
measured in the same run; and the 243-ways game of issue 19 (100-stop reels,
two scatters, a x2 multiplier wild, free spins with retriggers): its exact
analysis (target <= 1 s) and its simulation (target >= 10 million spins/s/core),
each against its numpy baseline, the simulation also against the kernel's
reader that counts every cell of the window; and the exact analysis of the 15-position
hold-and-spin example (target <= 10 s) against the numpy player simulating it.

Same cases as ``rngcert bench`` (``harness/benchcases/slot.py``); each asserts
its result (the pinned exact RTP; the exact RTP and hit frequency inside the
simulation's 99.9% intervals).  The targets are absolute: read them from the
report, they are never asserted.  Run::

    pytest benchmarks/bench_slot.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.slot import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_slot(bench_case, case):
    bench_case(case)
