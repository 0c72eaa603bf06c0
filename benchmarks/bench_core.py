"""Core throughput: bulk bytes, integers(0, 37), scalar draws, floats.

Same cases as ``rngcert bench`` (``harness/benchcases/core.py``), each with
its same-run baselines (OpenSSL ChaCha20 via ``cryptography``, ``os.urandom``,
numpy PCG64, ``secrets``, ``random.SystemRandom``) and each asserting its
result is correct.  Run::

    pytest benchmarks/bench_core.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.core import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_core(bench_case, case):
    bench_case(case)
