"""The C kernels of the SP 800-22 tests (csrc/stats/sp800_22.h) equal straightforward references.

Berlekamp–Massey is checked against the textbook recursion on lists of
bits, and the overlapping pattern counts against counting every wrapped
window one at a time, on random blocks and on the edges: block lengths
around the 64-bit word boundaries, constant blocks, a lone one at either
end (linear complexity 1 and m), short LFSRs, and the shortest sequences
a wrap allows.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stats._sp800_22_native import linear_complexities, pattern_counts, shorter_counts


def berlekamp_massey(s):
    """The textbook recursion over GF(2) (Massey 1969): the length of the shortest LFSR generating s."""
    c, b, length, last = [1] + [0] * len(s), [1] + [0] * len(s), 0, -1
    for k in range(len(s)):
        d = s[k]
        for i in range(1, length + 1):
            d ^= c[i] & s[k - i]
        if d:
            t = c[:]
            for i in range(len(s) + 1 - (k - last)):
                c[i + k - last] ^= b[i]
            if 2 * length <= k:
                length, last, b = k + 1 - length, k, t
    return length


def wrapped_counts(bits, m):
    """Counts of the m-bit windows starting at each position of the sequence read cyclically."""
    n, counts = len(bits), [0] * (1 << m)
    for i in range(n):
        v = 0
        for j in range(m):
            v = 2 * v + int(bits[(i + j) % n])
        counts[v] += 1
    return counts


def _rng_bits(n, seed):
    return np.random.default_rng(seed).integers(0, 2, n).astype(np.uint8)


def _lfsr(taps, length, seed_bits):
    s = list(seed_bits)
    while len(s) < length:
        s.append(sum(s[-t] for t in taps) & 1)
    return s[:length]


@pytest.mark.parametrize("m", [1, 2, 13, 63, 64, 65, 127, 128, 129, 500, 1000])
def test_linear_complexity_matches_textbook_on_random_blocks(m):
    count = max(3, 4000 // m)
    blocks = _rng_bits(count * m, m).reshape(count, m)
    assert linear_complexities(blocks).tolist() == [berlekamp_massey([int(v) for v in row]) for row in blocks]


@pytest.mark.parametrize("m", [1, 64, 65, 200])
def test_linear_complexity_matches_textbook_on_edge_blocks(m):
    rows = [[0] * m, [1] * m, [1] + [0] * (m - 1), [0] * (m - 1) + [1], [k % 2 for k in range(m)],
            _lfsr((3, 5), m, [1, 0, 0, 1, 1]), _lfsr((1, 31), m, [1] + [0] * 30)]
    blocks = np.array(rows, dtype=np.uint8)
    expected = [berlekamp_massey(row) for row in rows]
    assert linear_complexities(blocks).tolist() == expected
    if m >= 200:
        assert expected[:4] == [0, 1, 1, m] and expected[5] <= 5 and expected[6] <= 31


def test_linear_complexity_with_every_kind_of_lane_in_one_group():
    """One group of 64 lanes in lock step: low-complexity lanes (LFSRs, a late 1, zeros) beside random ones,
    so that the coefficients the kernel updates (up to the longest length of any lane) cover lanes far
    shorter and far longer than the rest at every step."""
    m, rows = 300, []
    for j in range(64):
        kind = j % 4
        if kind == 0:
            rows.append([int(v) for v in _rng_bits(m, 100 + j)])
        elif kind == 1:
            rows.append(_lfsr((1, 2 + j % 29), m, [1] + [0] * (1 + j % 29)))
        elif kind == 2:
            rows.append([0] * (m - 1 - j) + [1] + [0] * j)  # complexity m - j: one late 1
        else:
            rows.append([0] * m if j % 8 == 3 else [int(v) for v in _rng_bits(m // 3, j)] + [0] * (m - m // 3))
    blocks = np.array(rows, dtype=np.uint8)
    assert linear_complexities(blocks).tolist() == [berlekamp_massey(row) for row in rows]


def test_linear_complexity_of_long_blocks_and_strided_input():
    blocks = _rng_bits(2 * 1601, 7).reshape(2, 1601)  # 26 words
    assert linear_complexities(blocks).tolist() == [berlekamp_massey([int(v) for v in r]) for r in blocks]
    wide = _rng_bits(6 * 200, 8).reshape(6, 200)
    assert linear_complexities(wide[::2, 50:150]).tolist() == [berlekamp_massey(list(r)) for r in wide[::2, 50:150]]
    assert linear_complexities(np.zeros((0, 500), dtype=np.uint8)).tolist() == []


@pytest.mark.parametrize("m", [1, 2, 3, 5, 10, 11, 16])
def test_pattern_counts_match_wrapped_windows(m):
    bits = _rng_bits(700 + m, m)
    counts = pattern_counts(bits, m)
    assert counts.tolist() == wrapped_counts(bits, m) and counts.sum() == bits.size
    assert shorter_counts(counts).tolist() == wrapped_counts(bits, m - 1)


@pytest.mark.parametrize("bits", [[1], [0, 1], [1, 1, 1, 1, 1], [0] * 9, [1, 0, 1], [0, 1, 1, 0, 1, 0, 0, 0]])
@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_pattern_counts_on_the_shortest_sequences(bits, m):
    if len(bits) < m - 1:
        with pytest.raises(ValueError, match="cannot wrap"):
            pattern_counts(np.array(bits, dtype=np.uint8), m)
    else:
        assert pattern_counts(np.array(bits, dtype=np.uint8), m).tolist() == wrapped_counts(bits, m)


def test_pattern_counts_refuse_what_the_kernel_cannot_hold():
    with pytest.raises(ValueError, match="1..25"):
        pattern_counts(np.zeros(100, dtype=np.uint8), 26)
    assert pattern_counts(np.zeros(5, dtype=np.uint8), 0).tolist() == [5]


def test_the_stats_layer_speaks_the_cores_statuses_and_needs_nothing_of_it():
    import rngcore
    from rngcore._layers import LAYERS
    from stats._sp800_22_native import _lib

    _, lib = _lib()
    assert (lib.STAT_OK, lib.STAT_E_ARGUMENT, lib.STAT_E_MEMORY) == (
        rngcore.lib.RNG_OK, rngcore.lib.RNG_E_ARGUMENT, rngcore.lib.RNG_E_MEMORY)
    assert LAYERS["stats"].needs == ()
    assert lib.stat_sp800_linear_complexity(_lib()[0].NULL, 1, 5, _lib()[0].NULL) == lib.STAT_E_ARGUMENT


def test_a_stale_stats_layer_is_refused(tmp_path):
    import shutil

    from stats._sp800_22_native import _layers

    layers = _layers()
    csrc = tmp_path / "csrc"
    # The checkout's sources: an installed package carries no csrc/stats to copy.
    checkout = Path(__file__).resolve().parents[1]
    shutil.copytree(checkout / "csrc" / "stats", csrc / "stats")
    built = layers.layer_sha256(csrc / "stats")
    assert layers.stale_build("stats", "1.0", built, "1.0", csrc) is None
    (csrc / "stats" / "sp800_22.c").write_text("/* an edit */\n")
    assert "stats._kernels is stale: csrc/stats/ has changed" in layers.stale_build("stats", "1.0", built, None, csrc)
    assert "built for version 0.9" in layers.stale_build("stats", "0.9", built, "1.0", csrc)
