"""Devices throughput: 8-deck shoe shuffles, wheel spins and dice in bulk.

Same cases as ``rngcert bench`` (``harness/benchcases/devices.py``), each with
its same-run baselines (numpy PCG64 ``shuffle`` / ``integers``,
``random.SystemRandom().shuffle``) and each asserting its result is correct.
Run::

    pytest benchmarks/bench_devices.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.devices import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_devices(bench_case, case):
    bench_case(case)
