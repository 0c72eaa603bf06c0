"""The SP 800-22 bench cases check themselves: the bit-sliced kernel against the per-block recursion."""
import numpy as np

from harness.benchcases import discover_cases
from harness.benchcases.sp800_22 import CASES, _one_block


def test_cases_are_discovered():
    assert set(CASES) <= set(discover_cases())


def test_per_block_baseline_is_berlekamp_massey():
    assert _one_block(np.array([1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1], dtype=np.uint8)) == 4  # SP 800-22 §2.10.4
    assert _one_block(np.zeros(20, dtype=np.uint8)) == 0


def test_linear_complexity_case_agrees_with_its_baseline():
    sliced = next(c for c in CASES if c.name == "rngcert-bit-sliced")
    sliced.check(sliced.setup()())
