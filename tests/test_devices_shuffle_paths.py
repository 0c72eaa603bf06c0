"""The two shuffle kernels give the same output, word for word.

Bulk shuffles (``rng_shuffle16_rows``) run 16 rows at a time with their index
chains on the vector unit when the AVX2 path is selected (csrc/core/shuffle_avx2.h);
everything else runs the scalar kernel, which the exhaustive proofs in
test_devices_exhaustive.py cover.  These tests hold the group kernel to the
scalar one: same rows, same words consumed, on the production word width and
on narrow words where batches are rejected often (so the group kernel's
fast path and its word-by-word path both run).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from rngcore import Generator, ffi, lib
from rngcore.devices._native import shuffled_rows
from rngcore.testing import TestEngine, available_keystream_paths, keystream_impl
from devices_support import shuffle_batches

SEED = bytes(range(32))

needs_avx2 = pytest.mark.skipif(not lib.rng_cpu_has_avx2(), reason="no AVX2 path on this CPU/build")


def rows_by(kernel: str, fresh: np.ndarray, rows: int, *, stream: int = 3):
    """(rows, position after) from a replay generator, with `kernel` forced."""
    impl = "avx2" if kernel == "group" else "portable"
    with keystream_impl(impl):
        assert lib.rng_shuffle_uses_groups(fresh.size, rows) == (kernel == "group" and rows >= 16
                                                                 and 2 <= fresh.size <= 65536)
        generator = Generator(SEED, stream)
        out = shuffled_rows(generator, fresh, rows)
        return out, generator.position


SIZES = list(range(1, 701)) + [1000, 1024, 1025, 4096]


@needs_avx2
@pytest.mark.parametrize("chunk", range(0, len(SIZES), 100))
def test_group_kernel_equals_scalar_kernel(chunk):
    for n in SIZES[chunk:chunk + 100]:
        fresh = np.arange(n, dtype=np.uint16)[::-1].copy()
        rows = 16 * 2 + 5  # two groups and a scalar tail
        group, group_position = rows_by("group", fresh, rows)
        scalar, scalar_position = rows_by("scalar", fresh, rows)
        assert np.array_equal(group, scalar), n
        assert group_position == scalar_position, n


@needs_avx2
@pytest.mark.parametrize("n", [65535, 65536, 65537])
def test_group_kernel_at_the_16_bit_index_limit(n):
    fresh = (np.arange(n, dtype=np.uint32) % 65536).astype(np.uint16)
    group, group_position = rows_by("group", fresh, 16)
    scalar, scalar_position = rows_by("scalar", fresh, 16)
    assert np.array_equal(group, scalar)
    assert group_position == scalar_position
    assert np.array_equal(np.sort(group, axis=1), np.broadcast_to(np.sort(fresh), group.shape))


def run_on_words(kernel: str, n: int, rows: int, words: list[int], bits: int):
    impl = "avx2" if kernel == "group" else "portable"
    with keystream_impl(impl):
        engine = TestEngine.from_words(words, bits)
        fresh = ffi.new("uint16_t[]", list(range(n)))
        out = ffi.new("uint16_t[]", n * rows)
        status = lib.rng_shuffle16_rows(engine.source, fresh, n, out, rows, bits)
        return status, list(out), engine.consumed


@needs_avx2
@pytest.mark.parametrize("bits", [8, 12, 16, 24])
def test_group_kernel_equals_scalar_kernel_through_rejections(bits):
    """Narrow words: a batch is rejected with probability up to 2^-(bits/8)."""
    rng = random.Random(bits)
    limit = int(lib.rng_batch_limit(bits))
    rejected_somewhere = 0
    for trial in range(40):
        n = rng.randint(2, min(limit, 300))
        rows = rng.choice([16, 17, 31, 32, 48])
        words = [rng.getrandbits(bits) for _ in range(3 * rows * n + 64)]  # ample for any rejection rate here
        group = run_on_words("group", n, rows, words, bits)
        scalar = run_on_words("scalar", n, rows, words, bits)
        assert group[0] == scalar[0] == lib.RNG_OK
        assert group == scalar, (n, rows)
        batches = len(shuffle_batches(n, bits))
        rejected_somewhere += group[2] > rows * batches
    assert rejected_somewhere > 10  # the rejection paths really ran


@needs_avx2
def test_group_kernel_reports_an_exhausted_source():
    n, rows, bits = 20, 16, 16
    words = [7] * 30  # far fewer than 16 shuffles need
    for kernel in ("group", "scalar"):
        status, _, _ = run_on_words(kernel, n, rows, words, bits)
        assert status == lib.RNG_E_EXHAUSTED


def test_portable_build_never_takes_the_group_kernel():
    with keystream_impl("portable"):
        assert lib.rng_shuffle_uses_groups(416, 1000) == 0
    for path in available_keystream_paths()[1:]:  # every vector path has the AVX2 index chains
        with keystream_impl(path):
            assert lib.rng_shuffle_uses_groups(416, 1000) == 1
            assert lib.rng_shuffle_uses_groups(416, 15) == 0
            assert lib.rng_shuffle_uses_groups(1, 1000) == 0
            assert lib.rng_shuffle_uses_groups(65537, 1000) == 0
