"""The SP 800-22 bench cases check themselves: the C kernels against their numpy baselines."""
import numpy as np

from harness.benchcases import discover_cases
from harness.benchcases.sp800_22 import CASES, COUNTS_GROUP, LC_GROUP, numpy_kernels, numpy_linear_complexities
from stats import _sp800_22_native


def test_cases_are_discovered():
    assert set(CASES) <= set(discover_cases())


def test_numpy_baseline_is_berlekamp_massey():
    block = np.array([[1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1], [0] * 13], dtype=np.uint8)
    assert numpy_linear_complexities(block).tolist() == [4, 0]  # SP 800-22 §2.10.4


def test_kernel_cases_agree_with_their_baselines():
    for group in (LC_GROUP, COUNTS_GROUP):
        ours = next(c for c in CASES if c.group == group and not c.baseline)
        ours.check(ours.setup()())


def test_numpy_kernels_are_put_back():
    before = _sp800_22_native.pattern_counts
    with numpy_kernels():
        assert _sp800_22_native.pattern_counts is not before
    assert _sp800_22_native.pattern_counts is before
