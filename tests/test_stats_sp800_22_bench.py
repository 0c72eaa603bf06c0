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


def test_every_kernel_gives_the_numpy_versions_p_values_to_the_last_bit():
    # a walk that returns to zero 2,482 times, so the excursion tests apply, and a planted template
    from harness.benchcases.sp800_22 import NUMPY_KERNELS
    from stats.nist_defects import BIT_DEFECTS
    from stats.sp800_22_suite import run_suite

    assert set(NUMPY_KERNELS) <= set(_sp800_22_native.__all__)
    bits = np.concatenate([np.random.default_rng(0).integers(0, 2, 1_000_000).astype(np.uint8),
                           BIT_DEFECTS["planted-template"].draw(1_000_000, 4)])
    tests = ("Rank", "NonOverlappingTemplate", "CumulativeSums", "RandomExcursions", "RandomExcursionsVariant",
             "Universal")

    def rows(report):
        return [(r.test, r.label, r.pvalues, r.skipped) for r in report.rows]

    ours = run_suite(bits, tests=tests)
    with numpy_kernels():
        theirs = run_suite(bits, tests=tests)
    assert rows(ours) == rows(theirs)
    assert {r.test for r in ours.rows} == set(tests)
    assert [r.tested for r in ours.rows if r.test == "RandomExcursions"][0] >= 1
