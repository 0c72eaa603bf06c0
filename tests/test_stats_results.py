"""stats results unpack as ``stat, p = result``, like scipy's, and stay frozen records."""
import dataclasses

import numpy as np
import pytest

import stats
from tests.stats_support import numpy_rng


@pytest.mark.parametrize("make", [
    lambda x: stats.frequency_test(x, 37),
    lambda x: stats.runs_median_test(x, 37),
    lambda x: stats.serial_correlation_test(x),
    lambda x: stats.collision_test(x, 37, t=2, balls=600),
    lambda x: stats.ks_uniform_test(numpy_rng(1).random(200)),
    lambda x: stats.composition_check(np.array([[0, 1, 2]]), (0, 1, 2)),
])
def test_results_unpack_like_scipy(make):
    x = numpy_rng(2).integers(0, 37, 5000)
    result = make(x)
    stat, p = result
    assert (stat, p) == (result.statistic, result.pvalue) and len(result) == 2 and result[1] == p
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.pvalue = 0.5
