"""Calibration: on our own generator every test's p-values are uniform, and the whole battery
fails a good device about α of the time (Holm), not m·α."""
import numpy as np
import pytest
import scipy.stats as ss

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
    # Family-wise false alarms within the 99.9 % binomial band of alpha.
    low, high = ss.binom.ppf([0.0005, 0.9995], 1000, 0.05)
    assert low <= fails <= high, (fails, low, high)



def _spacing_counts(runs, first_seed):
    """Per-block statistics: repeated spacings R of single birthday blocks, collisions C of
    single collision blocks (each run: 20 birthday blocks and 1 collision block)."""
    from stats import collision_test
    from stats.spacings import BirthdaySpacingsAccumulator

    block = BirthdaySpacingsAccumulator(37).block_outcomes
    r_counts, c_counts = [], []
    for i in range(runs):
        _, x = draw("roulette-single", 20 * block + 65_536, seed=first_seed + i)
        for b in range(20):
            acc = BirthdaySpacingsAccumulator(37)
            acc.update(x[b * block: (b + 1) * block])
            r_counts.append(acc.total)
        c_counts.append(int(collision_test(x[20 * block:], 37).statistic))
    return np.array(r_counts), np.array(c_counts)


def _law_pvalues(r_counts, c_counts):
    """Goodness of fit of the per-block statistics to the laws the tests use."""
    from stats import chisquare
    from stats._exact import collision_distribution
    from stats.spacings import BirthdaySpacingsAccumulator

    lam = BirthdaySpacingsAccumulator(37).lam
    cells = 8
    poisson = ss.poisson.pmf(np.arange(cells - 1), lam)
    p_r = np.append(poisson, 1 - poisson.sum())
    r_p = chisquare(np.bincount(np.minimum(r_counts, cells - 1), minlength=cells), p_r / p_r.sum(),
                    pool="adjacent").pvalue
    pmf, offset = collision_distribution(37**4, 2**14)
    hist = np.zeros(pmf.size)
    np.add.at(hist, np.clip(c_counts - offset, 0, pmf.size - 1), 1)
    c_p = chisquare(hist, pmf / pmf.sum(), pool="adjacent").pvalue
    return r_p, c_p


def test_spacing_laws_not_grossly_wrong():
    for p in _law_pvalues(*_spacing_counts(20, 50_000)):
        assert p > 1e-9


@pytest.mark.slow
def test_spacing_laws_hold_over_1000_runs():
    """Birthday spacings: 20,000 single blocks against Poisson(m³/4d); collisions: 1,000 single
    blocks against Knuth's exact law.  (Testing the laws rather than KS on p-values: these
    statistics are discrete and their p-values lumpy.)"""
    r_p, c_p = _law_pvalues(*_spacing_counts(1000, 60_000))
    print("birthday spacings law p =", r_p, "; collision law p =", c_p)
    assert r_p > 0.001 and c_p > 0.001
