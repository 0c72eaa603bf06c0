"""The C kernels of the rank, template, runs, cusum, excursion and universal tests equal plain references.

Each reference is the standard's definition written out one bit or one
cycle at a time in Python (the GF(2) rank by eliminating rows as integers,
a window's value read from its bits, the walk padded with zeros and split at
each of them, the universal test's last-seen table), on random sequences and
on the edges: zero and full-rank matrices, dependent rows, one column and 64,
walks that never return or end on zero, blocks exactly one window long.
"""
from __future__ import annotations

import numpy as np
import pytest

from stats._sp800_22_native import (block_pattern_counts, block_runs, cusum_excursions, excursion_counts, gf2_ranks,
                                    universal_distances)


def _rng_bits(n, seed):
    return np.random.default_rng(seed).integers(0, 2, n).astype(np.uint8)


def plain_rank(rows):
    """Rank over GF(2) of integer row words: take any row holding the lowest remaining bit as pivot."""
    rows, rank = [r for r in rows if r], 0
    while rows:
        pivot = rows.pop()
        low = pivot & -pivot
        rows = [r ^ pivot if r & low else r for r in rows]
        rows = [r for r in rows if r]
        rank += 1
    return rank


def matrix_rows(bits, matrices, m, q):
    return [[int("".join(map(str, bits[(j * m + r) * q:(j * m + r + 1) * q])), 2) for r in range(m)]
            for j in range(matrices)]


@pytest.mark.parametrize("m, q", [(32, 32), (3, 3), (5, 1), (1, 7), (40, 64), (64, 40), (6, 9)])
def test_ranks_match_plain_elimination(m, q):
    count = 60
    bits = _rng_bits(count * m * q + 5, m * q)
    matrices = bits[: count * m * q].reshape(count, m, q)
    matrices[0] = 0                                         # rank 0
    matrices[1] = 0
    np.fill_diagonal(matrices[1], 1)                        # rank min(m, q)
    if m > 2:
        matrices[2:, 2] = matrices[2:, 0] ^ matrices[2:, 1]  # a dependent row in every other matrix
    flat = matrices.ravel()
    expected = [plain_rank(rows) for rows in matrix_rows(flat, count, m, q)]
    assert gf2_ranks(flat, count, m, q).tolist() == expected
    assert expected[0] == 0 and expected[1] == min(m, q)


def test_ranks_read_only_whole_matrices_and_refuse_bad_shapes():
    bits = _rng_bits(1000, 1)
    assert gf2_ranks(bits, 0, 32, 32).tolist() == []
    assert gf2_ranks(bits, 2, 10, 10).tolist() == [plain_rank(r) for r in matrix_rows(bits, 2, 10, 10)]
    with pytest.raises(ValueError, match="columns <= 64"):
        gf2_ranks(bits, 1, 2, 65)
    with pytest.raises(ValueError, match="do not fill"):
        gf2_ranks(bits, 2, 32, 32)


def plain_block_counts(bits, blocks, m):
    size = len(bits) // blocks
    out = np.zeros((blocks, 1 << m), dtype=np.int64)
    for j in range(blocks):
        block = "".join(map(str, bits[j * size:(j + 1) * size]))
        for i in range(size - m + 1):
            out[j, int(block[i:i + m], 2)] += 1
    return out


@pytest.mark.parametrize("blocks, m, n", [(8, 9, 8 * 300 + 7), (1, 1, 50), (3, 4, 12), (5, 2, 5 * 2), (2, 16, 64)])
def test_block_pattern_counts_match_plain_windows(blocks, m, n):
    bits = _rng_bits(n, n)
    assert np.array_equal(block_pattern_counts(bits, blocks, m), plain_block_counts(bits, blocks, m))


def test_block_pattern_counts_refuse_blocks_shorter_than_a_window():
    with pytest.raises(ValueError, match="at least 9 bits"):
        block_pattern_counts(_rng_bits(80, 1), 10, 9)
    with pytest.raises(ValueError, match="1..25"):
        block_pattern_counts(_rng_bits(80, 1), 1, 26)


def plain_walk(bits):
    walk, s = [], 0
    for b in bits:
        s += 1 if b else -1
        walk.append(s)
    return walk


CASES = [_rng_bits(2001, 7), _rng_bits(10_000, 8), np.ones(50, np.uint8), np.zeros(7, np.uint8),
         np.array([1, 0] * 20, np.uint8), np.array([1], np.uint8), np.array([0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], np.uint8),
         np.concatenate([np.ones(12, np.uint8), np.zeros(30, np.uint8), np.ones(18, np.uint8)])]


@pytest.mark.parametrize("bits", CASES, ids=range(len(CASES)))
def test_cusum_matches_both_walks(bits):
    forward = max(abs(s) for s in plain_walk(bits))
    backward = max(abs(s) for s in plain_walk(bits[::-1]))
    assert cusum_excursions(bits) == (forward, backward)


def plain_excursions(bits):
    """Cycles of the walk padded with 0 at both ends, and the visit counts the tests read."""
    cycles, current = [], []
    for s in plain_walk(bits):
        if s == 0:
            cycles.append(current)
            current = []
        else:
            current.append(s)
    if plain_walk(bits)[-1] != 0:
        cycles.append(current)
    states = [-4, -3, -2, -1, 1, 2, 3, 4]
    nu = [[sum(1 for c in cycles if min(c.count(x), 5) == k) for k in range(6)] for x in states]
    far = [x for x in range(-9, 10) if x]
    xi = [plain_walk(bits).count(x) for x in far]
    return len(cycles), nu, xi


@pytest.mark.parametrize("bits", CASES, ids=range(len(CASES)))
def test_excursion_counts_match_the_cycles_of_the_padded_walk(bits):
    j, nu, xi = excursion_counts(bits)
    assert (j, nu.tolist(), xi.tolist()) == plain_excursions(bits)
    assert nu.sum(axis=1).tolist() == [j] * 8


def test_walk_kernels_refuse_an_empty_sequence():
    for kernel in (cusum_excursions, excursion_counts):
        with pytest.raises(ValueError, match="empty"):
            kernel(np.zeros(0, np.uint8))


@pytest.mark.parametrize("l, q", [(6, 640), (1, 3), (4, 0), (16, 5), (7, 1280)])
def test_universal_distances_match_the_table_loop(l, q):
    bits = _rng_bits(l * (q + 900) + 3, l + q)
    values = [int("".join(map(str, bits[i * l:(i + 1) * l])), 2) for i in range(len(bits) // l)]
    last, expected = {}, []
    for i, v in enumerate(values, 1):
        if i > q:
            expected.append(i - last.get(v, 0))
        last[v] = i
    k = len(values) - q
    assert universal_distances(bits, l, q, k).tolist() == expected


def test_universal_distances_refuse_what_the_bits_do_not_hold():
    with pytest.raises(ValueError, match="do not hold"):
        universal_distances(_rng_bits(60, 1), 6, 5, 6)
    with pytest.raises(ValueError, match="1..16"):
        universal_distances(_rng_bits(60, 1), 17, 1, 1)


def plain_block_runs(row, m):
    """A row's longest run of ones and its windows of m bits that are all ones, read one window at a time."""
    text = "".join(map(str, row))
    longest = max((len(run) for run in text.split("0")), default=0)
    windows = sum(1 for i in range(len(row) - m + 1) if "0" not in text[i:i + m])
    return longest, windows


@pytest.mark.parametrize("size, m", [(1032, 9), (128, 1), (8, 3), (10_000, 10), (1, 1), (9, 9), (5, 7)])
def test_block_runs_match_plain_windows(size, m):
    count = 40
    blocks = _rng_bits(count * size, size + m).reshape(count, size)
    blocks[0] = 0
    blocks[1] = 1                                   # one run the whole block long
    if size > 3:
        blocks[2, : size // 2] = 1                  # a long run from the start, cut by the block's end
        blocks[3, -(size // 2):] = 1                # and one up to the end: runs never cross a block
    longest, windows = block_runs(blocks, m)
    assert list(zip(longest.tolist(), windows.tolist())) == [plain_block_runs(r, m) for r in blocks.tolist()]
    assert longest[1] == size and windows[1] == max(size - m + 1, 0) and longest[0] == windows[0] == 0


def test_block_runs_of_no_blocks_and_bad_arguments():
    longest, windows = block_runs(np.zeros((0, 128), dtype=np.uint8), 9)
    assert longest.tolist() == windows.tolist() == []
    with pytest.raises(ValueError, match="at least one bit"):
        block_runs(np.zeros((2, 8), dtype=np.uint8), 0)
    with pytest.raises(ValueError, match="2-D"):
        block_runs(np.zeros(8, dtype=np.uint8), 1)
