"""SP 800-90A engines: CTR_DRBG and HMAC_DRBG bulk output, bounded integers
and 8-deck shuffles on each, with same-run baselines (OpenSSL AES-256-CTR
and HMAC-SHA256 via ``cryptography`` / ``hmac``, ChaCha20).  Same cases as
``rngcert bench`` (``harness/benchcases/drbg.py``), each asserting its
result.  Run::

    pytest benchmarks/bench_drbg.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.drbg import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_drbg(bench_case, case):
    bench_case(case)
