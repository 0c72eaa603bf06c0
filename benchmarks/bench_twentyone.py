"""Twenty-one: blackjack rounds dealt down 8-deck shoes through the C round engine, and the
exact analyses.

Same cases as ``rngcert bench --group twentyone-8deck`` and ``--group twentyone-exact``
(``harness/benchcases/twentyone.py``), with their same-run baselines (numpy PCG64 rounds; the
dealer's laws in Python fractions); each asserts its result.  The issue's targets (>= 5 M
rounds/s on one core; the 8-deck basic-strategy EV <= 2 s, the composition table <= 30 s)
are read from the report, never asserted.  The exact cases take seconds to minutes a call,
so each is one warm-up call and one timed call.  Run::

    pytest benchmarks/bench_twentyone.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.twentyone import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_twentyone(bench_case, case):
    bench_case(case, rounds=1 if case.group == "twentyone-exact" else None)
