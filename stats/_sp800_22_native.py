"""The C hot loops of the SP 800-22 tests (``csrc/stats/sp800_22.h``), on numpy arrays.

Two counting kernels serve three tests: Berlekamp–Massey on 64-bit words
for the linear complexity test (§2.10) and one-pass overlapping pattern
counts for the serial (§2.11) and approximate entropy (§2.12) tests.  The
statistics stay in the tests' modules; these functions only count, and the
straightforward references they are checked against live in the tests.

The kernels are the ``stats`` C layer (``stats._kernels``), which needs no
other layer: like the rest of :mod:`stats` it works on arrays from anywhere
without the certified core.  Its build is checked at first use exactly as
:mod:`rngcore` checks its layers (same version and source-hash rule, from
``rngcore/_layers.py``, read by path so that nothing of :mod:`rngcore` is
imported), so a stale extension is refused rather than used.
"""
from __future__ import annotations

import functools
import importlib.util
import pathlib
import sys
from importlib import metadata

import numpy as np

_ROOT = pathlib.Path(__file__).resolve().parent.parent


def _layers():
    """``rngcore/_layers.py`` by path: the layer table and the stale-build rule, standard library only."""
    name = "_rngcert_layers"  # the name csrc/build_cffi.py loads it under, too
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _ROOT / "rngcore" / "_layers.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses resolves the module by name
        spec.loader.exec_module(module)
    return sys.modules[name]


@functools.lru_cache(maxsize=1)
def _lib():
    from stats import _kernels  # ImportError if the extension is not built

    def stamp(key: str) -> str:
        return _kernels.ffi.string(getattr(_kernels.lib, f"stat_build_{key}")()).decode()

    try:
        installed = metadata.version("rngcert")
    except metadata.PackageNotFoundError:
        installed = None
    problem = _layers().stale_build("stats", stamp("version"), stamp("sha256"), installed, _ROOT / "csrc")
    if problem is not None:
        raise ImportError(problem)
    return _kernels.ffi, _kernels.lib


def _check(status: int, what: str) -> None:
    if status == _lib()[1].STAT_E_MEMORY:
        raise MemoryError(f"{what}: out of memory")
    if status != _lib()[1].STAT_OK:
        raise ValueError(f"{what}: the kernel refused its arguments (status {status})")


def _contiguous_bits(bits) -> np.ndarray:
    return np.ascontiguousarray(bits, dtype=np.uint8)


def linear_complexities(blocks) -> np.ndarray:
    """Linear complexity (the shortest LFSR's length) of each row of a 2-D 0/1 array."""
    rows = _contiguous_bits(blocks)
    if rows.ndim != 2:
        raise ValueError(f"expected a 2-D array of blocks, got shape {rows.shape}")
    count, m = rows.shape
    out = np.zeros(count, dtype=np.int32)
    if count == 0:
        return out.astype(np.int64)
    if m == 0:
        raise ValueError("a block holds at least one bit")
    ffi, lib = _lib()
    _check(lib.stat_sp800_linear_complexity(ffi.from_buffer("uint8_t[]", rows), count, m,
                                            ffi.from_buffer("int32_t[]", out)),
           "SP 800-22 linear complexity")
    return out.astype(np.int64)


def pattern_counts(bits, m: int) -> np.ndarray:
    """Counts (int64) of the 2^m overlapping m-bit patterns of the sequence wrapped by its first m - 1 bits.

    Pattern v (first bit most significant) is entry v; ``m = 0`` gives ``[n]``.
    """
    x = _contiguous_bits(bits)
    n = x.size
    if m == 0:
        return np.array([n], dtype=np.int64)
    if n == 0 or n < m - 1:
        raise ValueError(f"a sequence of {n} bits cannot wrap around {m}-bit patterns (needs at least {max(m - 1, 1)})")
    ffi, lib = _lib()
    if not 1 <= m <= lib.STAT_SP800_MAX_PATTERN:
        raise ValueError(f"m = {m}: pattern lengths are 1..{lib.STAT_SP800_MAX_PATTERN}")
    counts = np.zeros(1 << m, dtype=np.uint64)
    _check(lib.stat_sp800_pattern_counts(ffi.from_buffer("uint8_t[]", x), n, m, ffi.from_buffer("uint64_t[]", counts)),
           "SP 800-22 pattern counts")
    return counts.astype(np.int64)


def shorter_counts(counts: np.ndarray) -> np.ndarray:
    """The wrapped (m-1)-pattern counts from the m-pattern ones: v is the prefix of 2v and 2v + 1."""
    return counts[0::2] + counts[1::2]


__all__ = ["linear_complexities", "pattern_counts", "shorter_counts"]
