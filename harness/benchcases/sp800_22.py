"""SP 800-22 bench cases (issue 15): the linear complexity kernel, and the whole suite on 10^6 bits.

The linear complexity group times Berlekamp–Massey over 400 blocks of 500
bits (2 · 10^5 bits of ``rngcert stream`` output): the bit-sliced lock-step
kernel of :mod:`stats.nist_linear_complexity` against the straightforward
way, one block at a time with the textbook recursion on numpy arrays.  Both
must give the same complexities.

The suite group (no target yet; issue 15 asks for 10^9 bits in <= 120 s,
0.12 s per 10^6-bit sequence) times the 15 tests with the suite's default
parameters on one sequence of 10^6 bits.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from harness.benchcases._base import BenchCase

SEED = "5eed" * 16
LC_BLOCK, LC_BLOCKS = 500, 400
SUITE_BITS = 1_000_000


@lru_cache(maxsize=2)
def _bits(n: int) -> np.ndarray:
    import rngcore

    return np.unpackbits(np.frombuffer(rngcore.Generator(SEED).random_bytes(n // 8), dtype=np.uint8))


def _blocks() -> np.ndarray:
    return _bits(LC_BLOCK * LC_BLOCKS).reshape(LC_BLOCKS, LC_BLOCK)


def _one_block(s: np.ndarray) -> int:
    """Berlekamp–Massey on one block, as the textbook writes it (numpy only for the inner products)."""
    m = s.size
    c = np.zeros(m + 1, dtype=np.uint8)
    b = np.zeros(m + 1, dtype=np.uint8)
    c[0] = b[0] = 1
    length, last = 0, -1
    for k in range(m):
        d = (int(s[k]) + int(np.dot(c[1: length + 1], s[k - length: k][::-1]))) & 1
        if d:
            t = c.copy()
            shift = k - last
            c[shift:] ^= b[: m + 1 - shift]
            if 2 * length <= k:
                length, last, b = k + 1 - length, k, t
    return length


def _straightforward():
    blocks = _blocks()
    return lambda: np.array([_one_block(row) for row in blocks])


def _sliced():
    from stats.nist_linear_complexity import linear_complexities

    blocks = _blocks()
    return lambda: linear_complexities(blocks)


@lru_cache(maxsize=1)
def _expected() -> tuple:
    return tuple(int(v) for v in _straightforward()())


def _check(result):
    assert tuple(int(v) for v in result) == _expected()


def _suite():
    from stats.sp800_22_suite import run_suite

    bits = _bits(SUITE_BITS)
    return lambda: run_suite(bits, length=SUITE_BITS)


def _check_suite(report):
    assert report.sequences == 1 and len({r.test for r in report.rows}) == 15
    assert all(0 <= p <= 1 for r in report.rows for p in r.pvalues)


CASES = [
    BenchCase("sp800-22-linear-complexity-2e5bit", "rngcert-bit-sliced", _sliced, LC_BLOCK * LC_BLOCKS, "bits",
              target=">= 5x numpy-per-block", check=_check),
    BenchCase("sp800-22-linear-complexity-2e5bit", "numpy-per-block", _straightforward, LC_BLOCK * LC_BLOCKS, "bits",
              baseline=True, check=_check),
    BenchCase("sp800-22-suite-1Mbit", "rngcert", _suite, SUITE_BITS, "bits", check=_check_suite),
]
