"""SP 800-22: the C counting kernels and the whole suite against numpy, and the suite on all CPUs.

Same cases as ``rngcert bench`` (``harness/benchcases/sp800_22.py``, which
describes the groups): each rngcert case against a same-run baseline doing
the same work (the numpy kernels the package used before C, or the suite in
one process), every answer checked against the baseline's.  The ratio
targets (>= 5x for the two kernels, >= 1.5x for the suite and for all CPUs
against one process) are printed in the throughput-ratio summary at the
end, never asserted.  One warm-up call, then 7 timed calls per case.  Run::

    pytest benchmarks/bench_sp800_22.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.sp800_22 import CASES

ROUNDS = 7


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_sp800_22(bench_case, case):
    bench_case(case, rounds=ROUNDS)
