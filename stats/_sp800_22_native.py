"""The C hot loops of the SP 800-22 tests (``csrc/stats/sp800_22*.h``), on numpy arrays.

Berlekamp–Massey on 64-bit words for the linear complexity test (§2.10);
the runs of ones per block for the longest-run (§2.4) and overlapping
template (§2.8) tests;
one-pass overlapping pattern counts for the serial (§2.11) and approximate
entropy (§2.12) tests, and per block for the non-overlapping template test
(§2.7); GF(2) ranks on 64-bit row words for the rank test (§2.5); the ±1
walk's extremes for the cumulative sums test (§2.13) and its cycle counts
for the random excursion tests (§2.14, §2.15); the last-seen distances of
Maurer's universal test (§2.9).  The statistics stay in the tests' modules;
these functions only count, exactly, and the straightforward references
they are checked against live in the tests.

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
    # ImportError if the extension is not built.  By name: the extension imports nothing of ours, and
    # `from stats import ...` would read as a dependency of this module on the whole package (whose
    # device kinds reach the PIT, which uses these kernels).
    _kernels = importlib.import_module("stats._kernels")

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


def block_runs(blocks, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a 2-D 0/1 array: its longest run of ones, and how many of its windows of m bits are all ones.

    Both int64, one entry per row; runs do not cross rows.
    """
    rows = _contiguous_bits(blocks)
    if rows.ndim != 2:
        raise ValueError(f"expected a 2-D array of blocks, got shape {rows.shape}")
    if m < 1:
        raise ValueError(f"m = {m}: a template holds at least one bit")
    count, size = rows.shape
    longest, windows = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
    if count == 0:
        return longest, windows
    ffi, lib = _lib()
    _check(lib.stat_sp800_block_runs(ffi.from_buffer("uint8_t[]", rows), count, size, m,
                                     ffi.from_buffer("int64_t[]", longest), ffi.from_buffer("int64_t[]", windows)),
           "SP 800-22 block runs")
    return longest, windows


def block_pattern_counts(bits, blocks: int, m: int) -> np.ndarray:
    """Counts (int64, shape (blocks, 2^m)) of the m-bit windows inside each of ``blocks`` blocks of n // blocks bits.

    Windows do not wrap or cross a block's end; pattern v (first bit most
    significant) is column v.
    """
    x = _contiguous_bits(bits)
    blocks = int(blocks)
    size = x.size // blocks if blocks > 0 else 0
    ffi, lib = _lib()
    if not 1 <= m <= lib.STAT_SP800_MAX_PATTERN:
        raise ValueError(f"m = {m}: pattern lengths are 1..{lib.STAT_SP800_MAX_PATTERN}")
    if blocks < 1 or size < m:
        raise ValueError(f"{x.size} bits do not make {blocks} block(s) of at least {m} bits")
    counts = np.zeros((blocks, 1 << m), dtype=np.uint64)
    _check(lib.stat_sp800_block_pattern_counts(ffi.from_buffer("uint8_t[]", x), blocks, size, m,
                                               ffi.from_buffer("uint64_t[]", counts)),
           "SP 800-22 block pattern counts")
    return counts.astype(np.int64)


def gf2_ranks(bits, matrices: int, rows: int, columns: int) -> np.ndarray:
    """Ranks over GF(2) (int64) of the first ``matrices`` rows × columns matrices of the bits, filled row by row."""
    x = _contiguous_bits(bits)
    if not 1 <= columns <= 64 or rows < 1:
        raise ValueError(f"{rows} x {columns} matrices: rows >= 1 and 1 <= columns <= 64")
    if x.size < matrices * rows * columns:
        raise ValueError(f"{x.size} bits do not fill {matrices} matrices of {rows} x {columns}")
    out = np.zeros(matrices, dtype=np.int32)
    if matrices:
        ffi, lib = _lib()
        _check(lib.stat_sp800_ranks(ffi.from_buffer("uint8_t[]", x), matrices, rows, columns,
                                    ffi.from_buffer("int32_t[]", out)),
               "SP 800-22 matrix ranks")
    return out.astype(np.int64)


def _nonempty(bits, what: str) -> np.ndarray:
    x = _contiguous_bits(bits)
    if x.size == 0:
        raise ValueError(f"{what}: the sequence is empty")
    return x


def cusum_excursions(bits) -> tuple[int, int]:
    """``(forward, backward)``: max |S_k| of the ±1 walk from the first bit and from the last."""
    x = _nonempty(bits, "SP 800-22 cumulative sums")
    ffi, lib = _lib()
    out = ffi.new("int64_t[2]")
    _check(lib.stat_sp800_cusum(ffi.from_buffer("uint8_t[]", x), x.size, out, out + 1), "SP 800-22 cumulative sums")
    return int(out[0]), int(out[1])


def excursion_counts(bits) -> tuple[int, np.ndarray, np.ndarray]:
    """``(J, nu, xi)`` of the ±1 walk padded with zeros.

    J is the number of cycles; ``nu`` (int64, shape (8, 6)): for the states
    -4..-1, +1..+4, the cycles visiting it 0, 1, 2, 3, 4 and >= 5 times;
    ``xi`` (int64, 18): the visits to the states -9..-1, +1..+9 over the walk.
    """
    x = _nonempty(bits, "SP 800-22 random excursions")
    ffi, lib = _lib()
    cycles = ffi.new("int64_t *")
    nu = np.zeros((lib.STAT_SP800_EXCURSION_STATES, lib.STAT_SP800_EXCURSION_CLASSES), dtype=np.int64)
    xi = np.zeros(lib.STAT_SP800_VARIANT_STATES, dtype=np.int64)
    _check(lib.stat_sp800_excursions(ffi.from_buffer("uint8_t[]", x), x.size, cycles,
                                     ffi.from_buffer("int64_t[]", nu), ffi.from_buffer("int64_t[]", xi)),
           "SP 800-22 random excursions")
    return int(cycles[0]), nu, xi


def universal_distances(bits, block: int, init_blocks: int, tested: int) -> np.ndarray:
    """The K = ``tested`` distances i - last[value] (int64) of Maurer's test, blocks of L = ``block`` bits."""
    x = _contiguous_bits(bits)
    ffi, lib = _lib()
    if not 1 <= block <= lib.STAT_SP800_MAX_UNIVERSAL_BLOCK:
        raise ValueError(f"L = {block}: block lengths are 1..{lib.STAT_SP800_MAX_UNIVERSAL_BLOCK}")
    if init_blocks < 0 or tested < 0 or x.size < (init_blocks + tested) * block:
        raise ValueError(f"{x.size} bits do not hold {init_blocks} + {tested} blocks of {block} bits")
    out = np.zeros(tested, dtype=np.int64)
    _check(lib.stat_sp800_universal_distances(ffi.from_buffer("uint8_t[]", x), block, init_blocks, tested,
                                              ffi.from_buffer("int64_t[]", out)),
           "SP 800-22 universal distances")
    return out


__all__ = ["linear_complexities", "pattern_counts", "shorter_counts", "block_pattern_counts", "block_runs", "gf2_ranks",
           "cusum_excursions", "excursion_counts", "universal_distances"]
