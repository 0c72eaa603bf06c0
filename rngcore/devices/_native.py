"""The devices' calls into C (csrc/shuffle.c, csrc/devices.c), status checked.

Every draw passes ``WORD_BITS`` = 64: the same compiled functions run in the
exhaustive proofs with a narrower word width (see csrc/shuffle.h).
"""
from __future__ import annotations

import contextlib

import numpy as np

from rngcore._native import ffi, lib
from rngcore.errors import raise_for_status

WORD_BITS = 64


def check(status: int, what: str) -> None:
    """Raise the rngcore.errors exception for a failure status (ValueError for a bad argument)."""
    raise_for_status(status, what)


def _locked(generator):
    """(rng_source *, lock) of a Generator; a raw cffi ``rng_source *`` gets a null lock."""
    source = getattr(generator, "source", generator)
    if not isinstance(source, ffi.CData):
        raise TypeError(f"expected an rngcore.Generator, got {type(generator).__name__}")
    return source, getattr(generator, "lock", None) or contextlib.nullcontext()


def engine_position(generator) -> int | None:
    """Keystream bytes the generator has consumed (replay mode), else None."""
    position = getattr(generator, "position", None)
    return None if position is None else int(position)


def uniform8(generator, sections: int, count: int, void: int | None = None, bits: int = WORD_BITS) -> np.ndarray:
    """``count`` independent indices uniform on [0, sections) minus ``void``."""
    out = np.empty(count, dtype=np.uint8)
    if count:
        source, lock = _locked(generator)
        with lock:
            status = lib.rng_uniform8(
                source, sections, sections if void is None else void,
                ffi.from_buffer("uint8_t[]", out), count, bits,
            )
        check(status, f"drawing {count} outcomes on {sections} sections")
    return out


def shuffled_rows(generator, fresh: np.ndarray, rows: int, bits: int = WORD_BITS) -> np.ndarray:
    """``rows`` independent shuffles of the uint16 array ``fresh``, shape (rows, len(fresh))."""
    fresh = np.ascontiguousarray(fresh, dtype=np.uint16)
    out = np.empty((rows, fresh.size), dtype=np.uint16)
    if rows and fresh.size:
        source, lock = _locked(generator)
        with lock:
            status = lib.rng_shuffle16_rows(
                source, ffi.from_buffer("uint16_t[]", fresh), fresh.size,
                ffi.from_buffer("uint16_t[]", out), rows, bits,
            )
        check(status, f"shuffling {rows} stacks of {fresh.size}")
    return out


def shuffle_in_place(generator, items: np.ndarray, bits: int = WORD_BITS) -> None:
    """Fisher-Yates shuffle of a contiguous uint16 array, in place."""
    if items.dtype != np.uint16 or not items.flags.c_contiguous:
        raise ValueError("shuffle_in_place needs a C-contiguous uint16 array")
    if items.size > 1:
        source, lock = _locked(generator)
        with lock:
            status = lib.rng_shuffle16(source, ffi.from_buffer("uint16_t[]", items), items.size, bits)
        check(status, f"shuffling {items.size} items")
