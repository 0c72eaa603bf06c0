"""NIST SP 800-22 Rev. 1a tests: the standard's worked examples as known answers, and
straightforward references for every vectorised kernel.

Known answers are the standard's printed digits: the small examples of §2.x.4
and the examples of §2.x.8 (the 100-bit ε of §2.1.8, the first 10^6 bits of
e), and Appendix B's P-values for e.  Where a printed value does not follow
from the standard's own input and formulas, the test pins both the printed
value (with the assumption that reproduces it) and the computed one.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from nist_support import E_SHA256, digest, e_bits
from stats._sp800_22 import chi_square, igamc, sequence_bits
from stats._validate import InsufficientDataError
from stats.nist_approximate_entropy import approximate_entropy_test
from stats.nist_block_frequency import block_frequency_test
from stats.nist_cusum import cumulative_sums_test
from stats.nist_excursions import random_excursions_test
from stats.nist_excursions_variant import random_excursions_variant_test
from stats.nist_frequency import monobit_test
from stats.nist_linear_complexity import linear_complexities, linear_complexity_test
from stats.nist_longest_run import exact_probabilities, longest_run_test, longest_runs
from stats.nist_overlapping import PRINTED, exact_probabilities as overlap_exact, overlapping_template_test
from stats.nist_rank import matrix_rank_test
from stats.nist_runs import sp800_runs_test
from stats.nist_serial import sp800_serial_test
from stats.nist_templates import aperiodic_templates, nonoverlapping_template_test, template_counts
from stats.nist_universal import universal_test

#: §2.1.8 (and §2.2.8, §2.3.8, §2.12.8, §2.13.8): the first 100 bits of the expansion of π.
PI_100 = ("11001001000011111101101010100010001000010110100011"
          "00001000110100110001001100011001100010100010111000")
#: §2.4.4 / §2.4.8.
LONGEST_128 = ("11001100000101010110110001001100111000000000001001001101010100010001001111010110100000001101011111"
               "001100111001101101100010110010")


def r6(x):
    return round(float(x), 6)


@pytest.fixture(scope="module")
def e():
    bits = e_bits()
    assert bits.size == 1_000_000 and digest(bits) == E_SHA256
    return bits


# --- §2.x.4 / §2.x.8 on short sequences ------------------------------------------------------------

def test_frequency_examples():
    small = monobit_test("1011010101", strict=False)  # §2.1.4
    assert (r6(small.statistic), r6(small.pvalue)) == (0.632456, 0.527089)
    result = monobit_test(PI_100)  # §2.1.8
    assert (result.details["S_n"], result.statistic, r6(result.pvalue)) == (-16, 1.6, 0.109599)


def test_block_frequency_examples():
    assert (round(block_frequency_test("0110011010", 3, strict=False).statistic, 6),
            r6(block_frequency_test("0110011010", 3, strict=False).pvalue)) == (1.0, 0.801252)  # §2.2.4
    result = block_frequency_test(PI_100, 10, strict=False)  # §2.2.8 (M = 10 is below §2.2.7's M >= 20)
    assert (r6(result.statistic), r6(result.pvalue)) == (7.2, 0.706438)
    with pytest.raises(InsufficientDataError, match="M >= 20"):
        block_frequency_test(PI_100, 10)


def test_runs_examples():
    small = sp800_runs_test("1001101011", strict=False)  # §2.3.4
    assert (small.statistic, r6(small.details["pi"]), r6(small.pvalue)) == (7, 0.6, 0.147232)
    result = sp800_runs_test(PI_100)  # §2.3.8
    assert (result.statistic, result.details["pi"], r6(result.pvalue)) == (52, 0.42, 0.500798)


def test_runs_prerequisite_gives_zero():
    result = sp800_runs_test("1" * 90 + "0" * 10)
    assert not result.details["prerequisite"] and result.pvalue == 0.0


def test_longest_run_example_prints_two_different_pis():
    # §2.4.8 prints χ² = 4.882605 (from the 4-decimal π of §3.4) and P = 0.180609 (from the exact π).
    printed = longest_run_test(LONGEST_128, probabilities="sp800-22")
    assert printed.details["nu"] == (4, 9, 3, 0) and r6(printed.statistic) == 4.882605
    default = longest_run_test(LONGEST_128)
    assert r6(default.pvalue) == 0.180609
    assert r6(printed.pvalue) == 0.180598  # what the printed χ² gives


def test_longest_run_exact_probabilities_are_the_reference_codes():
    # NIST's reference code: 0.1174035788, 0.242955959, 0.249363483, 0.17517706, 0.102701071, 0.112398847.
    assert [round(p, 9) for p in exact_probabilities(128)] == [0.117403579, 0.242955959, 0.249363483,
                                                               0.17517706, 0.102701071, 0.112398847]
    assert exact_probabilities(8) == (0.21484375, 0.3671875, 0.23046875, 0.1875)


def test_rank_example_uses_the_32_by_32_probabilities():
    result = matrix_rank_test("01011001001010101101", 3, 3, strict=False)  # §2.5.4
    assert (result.details["F_M"], result.details["F_M-1"], result.details["rest"]) == (1, 1, 0)
    # the printed χ² = 0.596953, P = 0.741948 use the rounded 32 x 32 probabilities of §2.5.4, not 3 x 3's
    chi2 = chi_square((1, 1, 0), (0.2888, 0.5776, 0.1336), 2)
    assert (r6(chi2), r6(math.exp(-chi2 / 2))) == (0.596953, 0.741948)
    assert r6(result.statistic) == 0.394558  # the exact 3 x 3 law


def test_nonoverlapping_example():
    result = nonoverlapping_template_test("10100100101110010110", "001", blocks=2, strict=False)  # §2.7.4
    assert result.details["W"]["001"] == (2, 1) and result.details["mu"] == 1 and result.details["sigma2"] == 0.46875
    assert (r6(result.statistic[0]), r6(result.pvalue[0])) == (2.133333, 0.344154)


def test_aperiodic_templates_are_generated():
    assert len(aperiodic_templates(9)) == 148  # §2.7.2
    assert aperiodic_templates(2) == ("01", "10") and len(aperiodic_templates(10)) == 284
    assert aperiodic_templates(9)[0] == "000000001" and aperiodic_templates(9)[-1] == "111111110"


def test_overlapping_small_example_prints_wrong_counts_and_drops_a_half():
    # §2.8.4: ε of 50 bits, B = 11 (m = 2), M = 10, N = 5, K = 5, λ = 2.25, η = 1.125
    result = overlapping_template_test("10111011110010110100011100101110111110000101101001", 2, block=10, k=5,
                                       probabilities="poisson", strict=False)
    pi = (0.324652, 0.182617, 0.142670, 0.106645, 0.077147, 0.166269)  # as printed
    assert tuple(round(p, 6) for p in result.details["pi"][:5]) == pi[:5]
    # the blocks hold 5, 1, 3, 4 and 1 overlapping 11s: ν = (0, 2, 0, 1, 1, 1); the standard prints
    # ν = (0, 1, 1, 1, 1, 1), and its χ² = 3.167729 follows from those counts and the printed π ...
    assert result.details["nu"] == (0, 2, 0, 1, 1, 1)
    printed = chi_square((0, 1, 1, 1, 1, 1), pi, 5)
    assert r6(printed) == 3.167729
    # ... and its P = 0.274932 is igamc(K/2, χ²), without the halving of χ² its own step 6 writes
    assert r6(igamc(2.5, printed)) == 0.274932 and r6(igamc(2.5, printed / 2)) == 0.674145
    assert (r6(result.statistic), r6(result.pvalue)) == (5.051441, 0.409635)  # from the sequence's counts


def test_universal_example_uses_the_variance_without_c():
    result = universal_test("01011010011101010111", 2, 4, strict=False)  # §2.9.4
    assert r6(result.statistic) == r6(1.1949875) and result.details["K"] == 6
    # the printed P = 0.767189 is erfc(|f_n - E| / sqrt(2 variance)): σ without c and without 1/K
    assert r6(math.erfc(abs(result.statistic - 1.5374383) / math.sqrt(2 * 1.338))) == 0.767189


def test_linear_complexity_small_example():
    assert linear_complexities(sequence_bits("1101011110001")[None, :])[0] == 4  # §2.10.4


def test_serial_example_ten_bits():
    result = sp800_serial_test("0011011101", 3, strict=False)  # §2.11.4: no "at least 40 outcomes" refusal
    assert [round(p, 1) for p in result.details["psi2"]] == [2.8, 1.2, 0.4]
    assert [r6(s) for s in result.statistic] == [1.6, 0.8]
    assert [r6(p) for p in result.pvalue] == [0.808792, 0.670320]
    with pytest.raises(InsufficientDataError, match="floor"):
        sp800_serial_test("0011011101", 3)


def test_approximate_entropy_examples():
    small = approximate_entropy_test("0100110101", 3, strict=False)  # §2.12.4
    assert r6(small.pvalue) == 0.261961
    result = approximate_entropy_test(PI_100, 2, strict=False)  # §2.12.8
    assert (r6(result.details["ApEn"]), r6(result.statistic), r6(result.pvalue)) == (0.665393, 5.550792, 0.235301)


def test_cusum_examples():
    small = cumulative_sums_test("1011010111", strict=False)  # §2.13.4: z = 4, printed P = 0.4116588
    assert small.statistic == 4 and round(small.pvalue, 6) == 0.411659  # computed 0.4116586 (7th digit differs)
    forward, backward = cumulative_sums_test(PI_100), cumulative_sums_test(PI_100, "backward")  # §2.13.8
    assert (forward.statistic, r6(forward.pvalue)) == (16, 0.219194)
    assert (backward.statistic, r6(backward.pvalue)) == (19, 0.114866)


def test_random_excursions_small_example():
    result = random_excursions_test("0110110101", strict=False)  # §2.14.4: J = 3, x = +1
    assert result.details["J"] == 3 and result.details["nu"]["+1"] == (1, 1, 0, 1, 0, 0)
    # printed χ² = 4.333033, P = 0.502529 use π_5 = 0.0312 of §3.14's rounded table; exact π_5 = 1/32
    chi2 = chi_square((1, 1, 0, 1, 0, 0), (0.5, 0.25, 0.125, 0.0625, 0.0312, 0.0312), 3)
    assert (r6(chi2), r6(igamc(2.5, chi2 / 2))) == (4.333033, 0.502529)
    assert result.by_label("+1")[0] == pytest.approx(13 / 3)


def test_random_excursions_variant_small_example():
    result = random_excursions_variant_test("0110110101", strict=False)  # §2.15.4
    assert result.details["J"] == 3 and result.by_label("+1")[0] == 4 and r6(result.by_label("+1")[1]) == 0.683091


# --- the first 10^6 bits of e: §2.x.8 and Appendix B ---------------------------------------------

def test_e_examples_and_appendix_b(e):
    assert r6(monobit_test(e).pvalue) == 0.953749
    assert r6(block_frequency_test(e, 128, strict=False).pvalue) == 0.211072  # Appendix B runs M = 128, N = 7812
    assert r6(sp800_runs_test(e).pvalue) == 0.561917
    assert r6(longest_run_test(e).pvalue) == 0.718945
    assert r6(matrix_rank_test(e).pvalue) == 0.306156
    rank = matrix_rank_test(e[:100_000])  # §2.5.8
    assert (rank.details["F_M"], rank.details["F_M-1"], rank.details["rest"]) == (23, 60, 14)
    assert (round(rank.statistic, 7), r6(rank.pvalue)) == (1.2619656, 0.532069)
    assert r6(nonoverlapping_template_test(e).by_label("000000001")[1]) == 0.078790
    assert r6(universal_test(e).pvalue) == 0.282568  # §2.9.8: L = 7, Q = 1280
    serial = sp800_serial_test(e, 2)  # §2.11.8
    assert [r6(s) for s in serial.statistic] == [0.339764, 0.336400]
    assert [r6(p) for p in serial.pvalue] == [0.843764, 0.561915]
    assert r6(sp800_serial_test(e).pvalue[0]) == 0.766182
    assert r6(approximate_entropy_test(e).pvalue) == 0.700073
    # Appendix B prints 0.669887; the sum of normal differences here gives 0.66988646
    assert round(cumulative_sums_test(e).pvalue, 5) == 0.66989


def test_e_overlapping_example_uses_the_uncorrected_pi(e):
    standard = overlapping_template_test(e, probabilities="poisson")  # §2.8.8 with Rev. 1's π
    assert standard.details["nu"] == (329, 164, 150, 111, 78, 136)
    assert (r6(standard.statistic), r6(standard.pvalue)) == (8.965859, 0.110434)
    corrected = overlapping_template_test(e)  # Rev. 1a's corrected π (Hamano-Kaneko)
    assert (r6(corrected.statistic), r6(corrected.pvalue)) == (7.949747, 0.159027)


def test_overlapping_printed_pi_is_the_exact_law():
    assert np.allclose(overlap_exact(9, 1032, 5), PRINTED, atol=1e-6)


def test_e_linear_complexity(e):
    result = linear_complexity_test(e, 1000, probabilities="sts")  # §2.10.8
    assert result.details["nu"] == (11, 31, 116, 501, 258, 57, 26)
    assert (r6(result.statistic), r6(result.pvalue)) == (2.700348, 0.845406)
    assert r6(linear_complexity_test(e, probabilities="sts").pvalue) == 0.826335  # Appendix B, M = 500
    assert r6(linear_complexity_test(e, 1000).statistic) == 2.706147  # with π_0 = 0.010417 as printed


def test_e_random_excursions(e):
    result = random_excursions_test(e)  # §2.14.8
    assert result.details["J"] == 1490
    printed = {"-4": (3.835698, 0.573306), "-3": (7.318707, 0.197996), "-2": (7.861927, 0.164011),
               "-1": (15.692617, 0.007779)}
    for label, (chi2, p) in printed.items():
        assert (r6(result.by_label(label)[0]), r6(result.by_label(label)[1])) == (chi2, p)
    assert r6(result.by_label("+1")[1]) == 0.786868  # Appendix B


def test_e_random_excursions_variant(e):
    result = random_excursions_variant_test(e)  # §2.15.8: every state
    assert result.details["J"] == 1490
    printed = [(1450, 0.858946), (1435, 0.794755), (1380, 0.576249), (1366, 0.493417), (1412, 0.633873),
               (1475, 0.917283), (1480, 0.934708), (1468, 0.816012), (1502, 0.826009), (1409, 0.137861),
               (1369, 0.200642), (1396, 0.441254), (1479, 0.939291), (1599, 0.505683), (1628, 0.445935),
               (1619, 0.512207), (1620, 0.538635), (1610, 0.593930)]
    assert [(int(s), r6(p)) for s, p in zip(result.statistic, result.pvalue)] == printed


# --- refusals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: monobit_test("1011010101"),
    lambda: random_excursions_test("0110110101"),
    lambda: linear_complexity_test(np.zeros(1000, dtype=np.uint8), 500),
    lambda: matrix_rank_test(np.zeros(1000, dtype=np.uint8)),
    lambda: universal_test(np.zeros(1000, dtype=np.uint8)),
])
def test_too_short_is_refused(call):
    with pytest.raises(InsufficientDataError, match="needs at least"):
        call()


def test_bad_bits_are_refused():
    with pytest.raises(ValueError, match="only the characters"):
        monobit_test("0120")
    with pytest.raises(ValueError, match="0 or 1"):
        monobit_test(np.array([0, 2] * 60))
    assert monobit_test(b"\xff\x00" * 8, strict=False).details["S_n"] == 0  # bytes: 8 bits each


# --- straightforward references for the vectorised kernels -----------------------------------------

def _rng_bits(n, seed):
    return np.random.default_rng(seed).integers(0, 2, n).astype(np.uint8)


def test_longest_runs_match_plain_scan():
    blocks = _rng_bits(50 * 64, 3).reshape(50, 64)
    blocks[0], blocks[1], blocks[2, -5:], blocks[3, :7], blocks[4] = 1, 0, 1, 1, np.arange(64) % 2  # edges
    expected = [max(len(run) for run in "".join(map(str, row)).split("0")) for row in blocks]
    assert longest_runs(blocks).tolist() == expected
    assert longest_runs(np.array([[1], [0]], dtype=np.uint8)).tolist() == [1, 0]


def _skip_scan(bits, template):
    text, count, i = "".join(map(str, bits)), 0, 0
    while i <= len(text) - len(template):
        if text[i: i + len(template)] == template:
            count, i = count + 1, i + len(template)
        else:
            i += 1
    return count


def test_template_counts_match_the_skip_scan():
    bits = _rng_bits(4 * 2000, 4)
    templates = aperiodic_templates(4) + ("0000", "0101", "1111")  # periodic ones take the skip rule
    counts = template_counts(bits, templates, 4, 4)
    for t, row in zip(templates, counts):
        assert row.tolist() == [_skip_scan(bits[j * 2000:(j + 1) * 2000], t) for j in range(4)]


def test_overlapping_counts_match_plain_scan():
    bits = _rng_bits(50 * 40, 5)
    bits[:12] = 1
    result = overlapping_template_test(bits, 3, block=40, k=5, strict=False)
    per_block = [sum(1 for i in range(38) if all(bits[j * 40 + i: j * 40 + i + 3])) for j in range(50)]
    assert result.details["nu"] == tuple(np.bincount(np.minimum(per_block, 5), minlength=6))


def test_overlapping_exact_law_matches_enumeration():
    # all 2^12 strings of 12 bits, template 11, K = 3
    counts = [0] * 4
    for v in range(1 << 12):
        s = format(v, "012b")
        counts[min(3, sum(1 for i in range(11) if s[i: i + 2] == "11"))] += 1
    assert np.allclose(overlap_exact(2, 12, 3), np.array(counts) / 4096, rtol=0, atol=1e-12)


def test_universal_matches_the_table_loop():
    bits = _rng_bits(6 * 2000, 6)
    l, q = 6, 640
    values = [int("".join(map(str, bits[i * l:(i + 1) * l])), 2) for i in range(len(bits) // l)]
    last, total = [0] * 64, 0.0
    for i, v in enumerate(values, 1):
        if i > q:
            total += math.log2(i - last[v])
        last[v] = i
    assert universal_test(bits, l, q, strict=False).statistic == pytest.approx(total / (len(values) - q), rel=1e-12)
