"""The core's fault seam (csrc/core/faults.h) driven by the test layer's plans.

The plans live in the test layer (rngcore._testing); the core only consults
the table, and every byte it delivers still comes from the OS.
"""
import pytest

import rngcore
from rngcore import ffi, lib
from rngcore.testing import entropy_failure, test_lib


@pytest.fixture(autouse=True)
def _no_plan_after():
    # One read first, so the SP 800-90B start-up test (its own OS reads, due
    # at the first read and after a health failure) is not in the counts.
    assert lib.rng_entropy_fill(ffi.new("uint8_t[32]"), 32) == lib.RNG_OK
    yield
    test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_PASS, 0, 0)


def test_short_reads_are_completed_from_the_os():
    test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_SHORT, 0, 5)
    buf = ffi.new("uint8_t[32]")
    assert lib.rng_entropy_fill(buf, 32) == lib.RNG_OK
    assert test_lib.rngtest_entropy_reads() == 7  # 5+5+5+5+5+5+2
    assert bytes(buf) != bytes(32)


def test_a_plan_resets_the_read_count():
    buf = ffi.new("uint8_t[16]")
    assert lib.rng_entropy_fill(buf, 16) == lib.RNG_OK
    test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_PASS, 0, 0)
    assert test_lib.rngtest_entropy_reads() == 0
    buf = ffi.new("uint8_t[16]")
    assert lib.rng_entropy_fill(buf, 16) == lib.RNG_OK and test_lib.rngtest_entropy_reads() == 1


def test_a_failure_after_some_reads_fails_closed():
    test_lib.rngtest_entropy_plan(test_lib.RNGTEST_READ_FAIL, 1, 0)
    assert len(rngcore.Generator().random_bytes(8)) == 8  # the first read passes
    with pytest.raises(rngcore.EntropyError):
        rngcore.Generator()


def test_entropy_failure_context_restores_the_os():
    with entropy_failure():
        with pytest.raises(rngcore.EntropyError):
            rngcore.Generator()
    assert len(rngcore.Generator().random_bytes(8)) == 8
