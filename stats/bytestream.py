"""The raw byte stream as a device: :data:`BYTES`, the :class:`stats.kinds.Bytes` kind's one device.

``rngcert test bytes --input dump.bin`` runs the categorical battery on the
bytes and the spectral test on their bits (see :mod:`stats.kinds.bytes`).
"""
from __future__ import annotations

from stats.kinds.bytes import Bytes

NAME = "bytes"
BYTES = Bytes()

__all__ = ["BYTES", "NAME"]
