"""NIST SP 800-22 Rev. 1a, Appendix B: the published P-values for the binary expansions of π, e, √2 and √3.

Appendix B ("Empirical Results for Sample Data") tabulates, for the first
10^6 bits of each constant (the data files data.pi, data.e, data.sqrt2,
data.sqrt3 of the reference code; tests/nist_support.py generates them here
with integer arithmetic and pins their SHA-256), one P-value per test, with
these parameters: block frequency M = 128, non-overlapping template
B = 000000001 (m = 9), overlapping template m = 9 with the reference code's
(Rev. 1) π, universal L = 7 and Q = 1280, approximate entropy m = 10, serial
m = 16 (its first P-value), linear complexity M = 500 with the reference
code's π_0 = 0.01047, cumulative sums forward, random excursions at x = +1
and the variant at x = -1.  Each P-value below is the table's, to the six
digits it prints.

The table's column for e agrees with the e examples of §2.x.8 (asserted in
tests/test_stats_sp800_22.py); its cumulative sums entry prints 0.669887,
where the sum of normal differences gives 0.66988646 (checked there).  The
standard's table has a fifth column, for its SHA-1 based generator G-SHA1;
issue 15 does not ask for it and it is not reproduced here.
"""
from __future__ import annotations

import pytest

from nist_support import SHA256, digest, expansion_bits
from stats.nist_approximate_entropy import approximate_entropy_test
from stats.nist_block_frequency import block_frequency_test
from stats.nist_cusum import cumulative_sums_test
from stats.nist_excursions import random_excursions_test
from stats.nist_excursions_variant import random_excursions_variant_test
from stats.nist_frequency import monobit_test
from stats.nist_linear_complexity import linear_complexity_test
from stats.nist_longest_run import longest_run_test
from stats.nist_overlapping import overlapping_template_test
from stats.nist_rank import matrix_rank_test
from stats.nist_runs import sp800_runs_test
from stats.nist_serial import sp800_serial_test
from stats.nist_templates import nonoverlapping_template_test
from stats.nist_universal import universal_test
from stats.spectral import spectral_test

#: Each test as Appendix B runs it: bits -> its P-value.
APPENDIX_B_RUN = {
    "Frequency": lambda b: monobit_test(b).pvalue,
    "BlockFrequency": lambda b: block_frequency_test(b, 128, strict=False).pvalue,
    "CumulativeSums": lambda b: cumulative_sums_test(b).pvalue,
    "Runs": lambda b: sp800_runs_test(b).pvalue,
    "LongestRun": lambda b: longest_run_test(b).pvalue,
    "Rank": lambda b: matrix_rank_test(b).pvalue,
    "FFT": lambda b: spectral_test(b, variance="sp800-22").pvalue,
    "NonOverlappingTemplate": lambda b: nonoverlapping_template_test(b).by_label("000000001")[1],
    "OverlappingTemplate": lambda b: overlapping_template_test(b, probabilities="poisson").pvalue,
    "Universal": lambda b: universal_test(b).pvalue,
    "ApproximateEntropy": lambda b: approximate_entropy_test(b).pvalue,
    "RandomExcursions": lambda b: random_excursions_test(b).by_label("+1")[1],
    "RandomExcursionsVariant": lambda b: random_excursions_variant_test(b).by_label("-1")[1],
    "LinearComplexity": lambda b: linear_complexity_test(b, probabilities="sts").pvalue,
    "Serial": lambda b: sp800_serial_test(b).pvalue[0],
}

#: SP 800-22 Rev. 1a, Appendix B, the table of P-values (columns π, e, √2, √3).
APPENDIX_B = {
    "Frequency": (0.578211, 0.953749, 0.811881, 0.610051),
    "BlockFrequency": (0.380615, 0.211072, 0.833222, 0.473961),
    "CumulativeSums": (0.628308, 0.669887, 0.879009, 0.917121),
    "Runs": (0.419268, 0.561917, 0.313427, 0.261123),
    "LongestRun": (0.024390, 0.718945, 0.012117, 0.446726),
    "Rank": (0.083553, 0.306156, 0.823810, 0.314498),
    "FFT": (0.010186, 0.847187, 0.581909, 0.776046),
    "NonOverlappingTemplate": (0.165757, 0.078790, 0.569461, 0.532235),
    "OverlappingTemplate": (0.296897, 0.110434, 0.791982, 0.082716),
    "Universal": (0.669012, 0.282568, 0.130805, 0.165981),
    "ApproximateEntropy": (0.361595, 0.700073, 0.884740, 0.180481),
    "RandomExcursions": (0.844143, 0.786868, 0.216235, 0.783283),
    "RandomExcursionsVariant": (0.760966, 0.826009, 0.566118, 0.155066),
    "LinearComplexity": (0.255475, 0.826335, 0.317127, 0.346469),
    "Serial": (0.143005, 0.766182, 0.861925, 0.157500),
}
CONSTANTS = ("pi", "e", "sqrt2", "sqrt3")
#: The one entry whose printed digits the computation does not give (module doc).
PRINTED_ONLY = {("CumulativeSums", "e"): 0.669886}


def test_the_table_covers_the_fifteen_tests():
    assert set(APPENDIX_B) == set(APPENDIX_B_RUN) and len(APPENDIX_B) == 15
    assert all(len(row) == len(CONSTANTS) for row in APPENDIX_B.values())


@pytest.mark.parametrize("constant", CONSTANTS)
def test_appendix_b(constant):
    bits = expansion_bits(constant)
    assert bits.size == 1_000_000 and digest(bits) == SHA256[constant]
    column = CONSTANTS.index(constant)
    got = {name: round(float(run(bits)), 6) for name, run in APPENDIX_B_RUN.items()}
    want = {name: PRINTED_ONLY.get((name, constant), row[column]) for name, row in APPENDIX_B.items()}
    assert got == want


def test_the_expansions_start_as_the_constants_do():
    # π = 11.0010010000111111..., √2 = 1.0110101000001001..., √3 = 1.1011101101100111..., e = 10.1011011111100001...
    starts = {"pi": "110010010000111111", "sqrt2": "101101010000010011", "sqrt3": "110111011011001111",
              "e": "101011011111100001"}
    for name, start in starts.items():
        assert "".join(map(str, expansion_bits(name)[: len(start)])) == start


def test_newton_division_and_square_root_are_exact():
    import math
    import random

    from nist_support import floor_div, floor_sqrt_scaled

    rng = random.Random(15)
    for _ in range(300):
        a, b = rng.getrandbits(rng.randint(1, 4000)), rng.getrandbits(rng.randint(1, 2500)) + 1
        assert floor_div(a, b) == a // b
    for c in (2, 3, 10005):
        for bits in (0, 1, 47, 48, 49, 100, 3001):
            assert floor_sqrt_scaled(c, bits) == math.isqrt(c << (2 * bits))
