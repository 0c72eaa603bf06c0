"""The devices' calls into C (csrc/core/shuffle.c, csrc/core/devices.c), status checked.

Every draw passes ``WORD_BITS`` = 64: the same compiled functions run in the
exhaustive proofs with a narrower word width (see csrc/core/shuffle.h).  Every
draw goes through :func:`rngcore.engine.locked_call`: the generator's lock
is held for the whole C call and the returned status is checked.
"""
from __future__ import annotations

import numpy as np

from rngcore._native import ffi, lib
from rngcore.engine import locked_call

WORD_BITS = 64


def engine_position(generator) -> int | None:
    """Keystream bytes the generator has consumed (replay mode), else None."""
    position = getattr(generator, "position", None)
    return None if position is None else int(position)


def uniform8(generator, sections: int, count: int, void: int | None = None, bits: int = WORD_BITS) -> np.ndarray:
    """``count`` independent indices uniform on [0, sections) minus ``void``."""
    out = np.empty(count, dtype=np.uint8)
    if count:
        locked_call(generator, lib.rng_uniform8, sections, sections if void is None else void,
                    ffi.from_buffer("uint8_t[]", out), count, bits,
                    what=f"drawing {count} outcomes on {sections} sections")
    return out


def shuffled_rows(generator, fresh: np.ndarray, rows: int, bits: int = WORD_BITS) -> np.ndarray:
    """``rows`` independent shuffles of the uint16 array ``fresh``, shape (rows, len(fresh))."""
    fresh = np.ascontiguousarray(fresh, dtype=np.uint16)
    out = np.empty((rows, fresh.size), dtype=np.uint16)
    if rows and fresh.size:
        locked_call(generator, lib.rng_shuffle16_rows, ffi.from_buffer("uint16_t[]", fresh), fresh.size,
                    ffi.from_buffer("uint16_t[]", out), rows, bits,
                    what=f"shuffling {rows} stacks of {fresh.size}")
    return out


def shuffle_in_place(generator, items: np.ndarray, bits: int = WORD_BITS) -> None:
    """Fisher-Yates shuffle of a contiguous uint16 array, in place."""
    if items.dtype != np.uint16 or not items.flags.c_contiguous:
        raise ValueError("shuffle_in_place needs a C-contiguous uint16 array")
    if items.size > 1:
        locked_call(generator, lib.rng_shuffle16, ffi.from_buffer("uint16_t[]", items), items.size, bits,
                    what=f"shuffling {items.size} items")
