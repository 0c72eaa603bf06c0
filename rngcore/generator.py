"""The drawing side: :class:`Generator` turns engine bits into outcomes."""
from __future__ import annotations

import numpy as np

from rngcore._native import ffi, lib


def _parse_seed(seed) -> bytes:
    if isinstance(seed, str):
        try:
            seed = bytes.fromhex(seed)
        except ValueError:
            raise ValueError(f"seed must be 64 hex digits, got {seed!r}") from None
    seed = bytes(seed)
    if len(seed) != 32:
        raise ValueError(f"seed must be 32 bytes (64 hex digits), got {len(seed)} bytes")
    return seed


class Generator:
    """ChaCha20 generator (replay mode only in this bootstrap version).

    Parameters
    ----------
    seed : bytes or str
        32 bytes (or 64 hex digits): the ChaCha20 key.
    stream : int
        64-bit stream id (state words 14-15).
    """

    def __init__(self, seed, stream: int = 0):
        if not 0 <= int(stream) < 2**64:
            raise ValueError(f"stream must be in [0, 2**64), got {stream}")
        self._engine = ffi.new("rng_chacha *")
        lib.rng_chacha_init_replay(self._engine, _parse_seed(seed), int(stream))
        self._source = ffi.new("rng_source *")
        lib.rng_chacha_source(self._engine, self._source)

    @property
    def source(self):
        """The ``rng_source *`` through which C drawing code reads bits."""
        return self._source

    def random_bytes(self, n: int) -> bytes:
        """Return the next ``n`` bytes of keystream."""
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        buf = bytearray(n)
        if n:
            lib.rng_chacha_fill(self._engine, ffi.from_buffer(buf), n)
        return bytes(buf)
