"""Stats benchmarks (pytest-benchmark), reusing harness/benchcases/stats.py CASES.

Run: pytest benchmarks/bench_stats.py --benchmark-only -p no:cacheprovider

The 10^8 group is the issue's target (chi-square + serial over 10^8 wheel
outcomes in <= 5 s on one core); ``test_memory_for_1e9_outcomes`` streams
10^9 outcomes through the same tests in a subprocess and checks its peak
memory (< 1 GB).
"""
import subprocess
import sys
import textwrap

import pytest

from harness.benchcases.stats import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.label)
def test_stats_case(benchmark, case):
    benchmark.group = case.group
    fn = case.setup()
    result = benchmark.pedantic(fn, rounds=3 if case.units >= 10**8 else 5, iterations=1, warmup_rounds=0)
    if case.check is not None:
        case.check(result)


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
