"""Stats benchmarks: chi-square and serial tests over wheel outcomes, the battery, the spectral test.

Same cases as ``rngcert bench`` (``harness/benchcases/stats.py``, which
describes the groups), each checked against scipy or a reference, with the
ratios to their same-run baselines printed in the throughput-ratio summary
at the end.  The ``stats-chisq-serial-1e8`` group is the issue's target
(chi-square + serial over 10^8 wheel outcomes in <= 5 s on one core: the
time per call of its ``rngcert-stream`` case; ``>= 3x numpy-unique`` is the
ratio target).  One warm-up call, then 7 timed calls per case.
``test_memory_for_1e9_outcomes`` streams 10^9 outcomes through three of the
tests in a subprocess and checks its peak memory (< 1 GiB); it times nothing,
so ``--benchmark-only`` skips it.  Run::

    pytest benchmarks/bench_stats.py --benchmark-only -p no:cacheprovider
    pytest benchmarks/bench_stats.py -k memory -s -p no:cacheprovider
"""
import subprocess
import sys
import textwrap

import pytest

from harness.benchcases.stats import CASES

ROUNDS = 7


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_stats(bench_case, case):
    bench_case(case, rounds=ROUNDS)


def test_memory_for_1e9_outcomes():
    """Frequency + overlapping pair + triple tests over 10^9 roulette outcomes drawn and tested
    chunk by chunk: peak resident memory must stay under 1 GB."""
    code = textwrap.dedent("""
        import resource, time
        import rngcore
        from rngcore.devices import device_spec
        from stats.streaming import FrequencyAccumulator, SerialAccumulator
        spec = device_spec("roulette-single")
        g = rngcore.Generator("5eed" * 16)
        accs = [FrequencyAccumulator(37), SerialAccumulator(37, t=2, overlapping=True),
                SerialAccumulator(37, t=3, overlapping=True)]
        start = time.perf_counter()
        total = 0
        while total < 10**9:
            part = spec.draw(g, 1 << 22)[: 10**9 - total]
            for a in accs:
                a.update(part)
            total += part.size
        results = [a.result() for a in accs]
        assert all(r.n == 10**9 for r in results)
        print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
              [round(r.pvalue, 4) for r in results])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    seconds, peak_kib = float(out[0]), int(out[1])
    print(f"10^9 outcomes: {seconds:.1f} s (draw + 3 tests), peak RSS {peak_kib / 1024:.0f} MiB")
    assert peak_kib < 1024 * 1024
