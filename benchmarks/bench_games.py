"""Table-game throughput: baccarat rounds from 8-deck shoes, roulette spins,
sic bo and craps rolls, tallied through the virtual devices.

Same cases as ``rngcert bench`` (``harness/benchcases/games.py``): each with
its same-run numpy PCG64 baseline, each asserting its tally is right (round
count, no impossible class, frequencies within 7 sd of the exact values).
The issue's targets are absolute (baccarat >= 20 M rounds/s, wheels and dice
>= 50 M rounds/s); they are read from the report, never asserted.  Run::

    pytest benchmarks/bench_games.py --benchmark-only -p no:cacheprovider
"""
import pytest

from harness.benchcases.games import CASES


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.label)
def test_games(bench_case, case):
    bench_case(case)
