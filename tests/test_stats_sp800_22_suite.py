"""The SP 800-22 suite and its §4.2 assessment (proportion interval, uniformity of P-values)."""
from __future__ import annotations

import numpy as np
import pytest

from stats._validate import InsufficientDataError
from stats.nist_frequency import monobit_test
from stats.sp800_22_suite import assess_row, proportion_interval, run_suite, suite_tests, uniformity


def test_every_test_of_the_standard_is_declared():
    names = [e.name for e in suite_tests()]
    assert names == ["Frequency", "BlockFrequency", "CumulativeSums", "CumulativeSums", "Runs", "LongestRun", "Rank",
                     "FFT", "NonOverlappingTemplate", "OverlappingTemplate", "Universal", "ApproximateEntropy",
                     "RandomExcursions", "RandomExcursionsVariant", "Serial", "LinearComplexity"]
    assert len(set(names)) == 15


def test_proportion_interval_of_section_4_2_1():
    low, high = proportion_interval(1000)  # §4.2.1: 0.99 ± 0.0094392 for m = 1000
    half = (high - low) / 2
    assert (low + half, int(half * 1e7)) == (pytest.approx(0.99, abs=1e-15), 94392)  # printed truncated to 7 places


def test_uniformity_bins_and_pvalue_t():
    p = np.repeat(np.arange(10) / 10 + 0.05, 10)  # 10 in each bin
    assert uniformity(p) == ((10,) * 10, 1.0)
    skewed = np.concatenate([np.full(55, 0.01), np.full(45, 0.95)])
    bins, value = uniformity(skewed)
    chi2 = ((55 - 10) ** 2 + (45 - 10) ** 2 + 8 * 100) / 10
    from scipy.special import gammaincc
    assert bins == (55,) + (0,) * 8 + (45,) and value == pytest.approx(gammaincc(4.5, chi2 / 2), rel=1e-12)
    assert uniformity(np.full(54, 0.5))[1] is None  # below 55 sequences: not computed


def test_row_flags_a_low_proportion():
    row = assess_row("Frequency", "", [0.001] * 5 + [0.5] * 95)
    assert row.passed == 95 and not row.proportion_ok and not row.ok


def _bits(n, seed, p=0.5):
    return (np.random.default_rng(seed).random(n) < p).astype(np.uint8)


def test_suite_rows_are_the_tests_pvalues():
    bits = _bits(60 * 1000, 7)
    report = run_suite(bits, length=1000, tests=["Frequency", "CumulativeSums"])
    assert report.sequences == 60 and [r.label for r in report.rows] == ["", "forward", "backward"]
    expected = [monobit_test(bits[i * 1000:(i + 1) * 1000]).pvalue for i in range(60)]
    assert list(report.rows[0].pvalues) == expected and report.rows[0].uniformity is not None
    text = report.final_analysis_report()
    assert text.splitlines()[0].split()[-5:] == ["C10", "P-VALUE", "PROPORTION", "STATISTICAL", "TEST"]
    assert text.rstrip().endswith("verdict: " + report.verdict.upper())
    assert report.as_dict()["rows"][0]["tested"] == 60


def test_suite_fails_biased_bits():
    report = run_suite(_bits(60 * 1000, 8, p=0.6), length=1000, tests=["Frequency"])
    row = report.rows[0]
    assert row.passed == 0 and row.uniformity < 1e-9 and report.verdict == "fail"


def test_suite_counts_skipped_sequences():
    report = run_suite(_bits(3 * 1000, 9), length=1000, tests=["RandomExcursions"])
    assert report.rows[0].tested == 0 and report.rows[0].skipped == 3 and not report.rows[0].ok


def test_suite_refuses_too_few_bits():
    with pytest.raises(InsufficientDataError, match="SP 800-22 suite needs at least 2,000 bits"):
        run_suite(_bits(1500, 1), sequences=2, length=1000)


def test_the_report_is_the_same_for_any_number_of_workers():
    # 5 sequences: seed 4's walk returns to zero 468 times, so the excursion tests skip one and test four
    bits = np.concatenate([np.random.default_rng(s).integers(0, 2, 1_000_000).astype(np.uint8) for s in range(5)])

    def rows(report):
        return [(r.test, r.label, r.pvalues, r.skipped) for r in report.rows]

    # one P-value, two modes, 148 templates, a test that skips a sequence, two P-values
    tests = ("Frequency", "CumulativeSums", "NonOverlappingTemplate", "RandomExcursions", "Serial")
    one = rows(run_suite(bits, tests=tests))
    assert [r[3] for r in one if r[0] == "RandomExcursions"][0] == 1
    assert len(one) == 1 + 2 + 148 + 8 + 2 and all(len(r[2]) in (4, 5) for r in one)
    for workers in (2, 3):
        assert rows(run_suite(bits, tests=tests, workers=workers)) == one


def test_workers_must_be_a_positive_count():
    with pytest.raises(ValueError, match="workers"):
        run_suite(np.zeros(200, dtype=np.uint8), length=100, workers=0)


def test_a_worker_keeps_freed_memory_for_reuse():
    """The pool's workers raise glibc's mmap and trim thresholds (the tests' large temporaries are reused
    rather than page-faulted afresh for every sequence); the report above is the same either way."""
    import multiprocessing
    import platform

    from stats._sp800_22_pool import keep_freed_memory

    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        pytest.skip("the setting is glibc's")
    with multiprocessing.get_context("fork").Pool(1) as pool:  # a child: this process's allocator is untouched
        assert pool.apply(keep_freed_memory) is True


_KEPT_FLAG = "RNGCERT_TEST_KEPT_FREED_MEMORY"


def _report_kept(packed, count, length, argument):
    import os

    return [os.environ.get(_KEPT_FLAG)] * count


def test_the_suite_pool_starts_its_workers_keeping_freed_memory(monkeypatch):
    """Every worker the SP 800-22 pool starts calls keep_freed_memory (and still ignores SIGINT): a
    stand-in, inherited through the fork, marks each worker that ran it."""
    import os
    import signal

    from stats import _sp800_22_pool, _workers

    if not _workers.forks():
        pytest.skip("the stand-in reaches the workers through a fork")

    def mark():
        os.environ[_KEPT_FLAG] = f"{os.getpid()} {signal.getsignal(signal.SIGINT) is signal.SIG_IGN}"
        return True

    monkeypatch.delenv(_KEPT_FLAG, raising=False)
    monkeypatch.setattr(_sp800_22_pool, "keep_freed_memory", mark)
    marks = [mark for _, mark in _sp800_22_pool.map_sequences(np.zeros(8 * 100, dtype=np.uint8), 100,
                                                               _report_kept, None, workers=2)]
    assert len(marks) == 8 and all(m is not None and m.endswith(" True") for m in marks)
    assert str(os.getpid()) not in {m.split()[0] for m in marks}  # the workers', not this process's
