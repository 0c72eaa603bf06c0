"""Calibration: on our own generator every test's p-values are uniform, and the whole battery
fails a good device about α of the time (Holm), not m·α."""
import numpy as np
import pytest
import scipy.stats as ss
from rngcore.devices import device_spec

from stats import ks_uniform_test, run_battery
from stats._results import CheckResult
from tests.stats_support import draw

# n chosen so that every test runs and no statistic is too coarse (lattice) for a KS check.
CALIBRATION = [("roulette-single", 40_000), ("big-six", 40_000), ("dice:3", 20_000), ("deck", 3_000),
               ("tiles", 3_000), ("shoe:8", 1_000)]


def _study(device, n, runs, alpha=0.01, first_seed=10_000):
    pvalues, fails = {}, 0
    for i in range(runs):
        spec, data = draw(device, n, seed=first_seed + i)
        result = run_battery(spec, data, alpha=alpha)
        fails += result.verdict == "fail"
        for t in result.tests:
            if not isinstance(t.result, CheckResult):
                pvalues.setdefault(t.name, []).append(t.pvalue)
    return pvalues, fails


@pytest.mark.parametrize("device,n", [("roulette-single", 20_000), ("dice:2", 10_000), ("tiles", 1_000)])
def test_pvalues_not_grossly_miscalibrated(device, n):
    """Fast version: 25 runs; a broken null distribution shows up even here."""
    pvalues, _ = _study(device, n, 25)
    for name, p in pvalues.items():
        assert ks_uniform_test(p).pvalue > 1e-9, name
        assert min(p) > 1e-9, name


@pytest.mark.slow
@pytest.mark.parametrize("device,n", CALIBRATION)
def test_pvalues_uniform_over_1000_runs(device, n):
    pvalues, fails = _study(device, n, 1000, alpha=0.05)
    report = {name: ks_uniform_test(p).pvalue for name, p in pvalues.items()}
    print(device, n, "battery fails at alpha=0.05:", fails, "/1000;", {k: round(v, 4) for k, v in report.items()})
    for name, p in report.items():
        assert p > 0.001, (name, p)
    # Family-wise false alarms within the 99.9 % binomial band of alpha (Holm: at most alpha).
    low, high = ss.binom.ppf([0.0005, 0.9995], 1000, 0.05)
    assert fails <= high, fails
    assert fails >= ss.binom.ppf(0.0005, 1000, 0.05 * 0.6), fails  # not absurdly conservative
