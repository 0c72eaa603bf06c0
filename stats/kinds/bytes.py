"""The raw byte stream as a kind: 256 equally likely values per outcome.

An RNG's raw output (``rngcert stream``, a binary dump of a third-party
RNG) is not an outcome of any physical equipment, but it is a categorical
stream with an exact null: each byte uniform on 0..255, independently.  Its
``bits`` are the bytes' own bits, most significant first (for 2^8 equally
likely values the PIT digits are exactly those, :class:`stats.outcome_bits.OutcomeBits`).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from stats.kinds.categorical import Categorical


class Bytes(Categorical):
    """A raw byte stream (device name ``bytes``); labels ``"0"``..``"255"``."""

    kind = "bytes"
    syntax = "bytes"
    summary = "a raw byte stream (rngcert stream output, an RNG's dump)"

    def __init__(self, labels=None, probabilities=None, *, width: int = 1, name: str | None = None,
                 multiset=None):
        super().__init__(tuple(str(v) for v in range(256)), (Fraction(1, 256),) * 256, name=name or "bytes")

    @classmethod
    def parse(cls, name: str):
        return cls() if name == "bytes" else None

    def draw(self, generator, n: int) -> np.ndarray:
        """``n`` bytes of ``generator`` (an ``rngcore.Generator``): exactly its raw output."""
        return np.frombuffer(generator.random_bytes(int(n)), dtype=np.uint8).copy()


KINDS = [Bytes]
