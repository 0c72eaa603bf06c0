"""The raw byte stream as a device: 256 equally likely values per outcome.

An RNG's raw output — ``rngcert stream``, a binary dump of a third-party
RNG — is not an outcome of any physical equipment, but it is a categorical
stream with an exact null distribution: each byte uniform on 0..255,
independently.  :data:`BYTES` describes it in the shape of
``rngcore.devices.DeviceSpec`` (the fields the battery and the capture
reader use), so ``rngcert test bytes --input dump.bin`` runs the categorical
battery on the bytes and the spectral test on their bits (the raw bits,
most significant first: for 2^8 equally likely values the PIT digits are
the byte's own bits, :class:`stats.spectral.OutcomeBits`).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

NAME = "bytes"


@dataclass(frozen=True)
class ByteStreamSpec:
    """Device-spec-shaped description of a raw byte stream (see module doc)."""

    name: str = NAME
    kind: str = "categorical"
    labels: tuple = tuple(str(v) for v in range(256))
    probabilities: tuple = (Fraction(1, 256),) * 256
    width: int = 1
    multiset: tuple = ()

    def label_index(self, label: str) -> int:
        """The byte value of ``label`` ("0".."255")."""
        if label.isdigit() and str(int(label)) == label and int(label) < 256:
            return int(label)
        raise ValueError(f"{label!r} is not a byte value of {self.name} (valid: 0..255)")

    def draw(self, generator, n: int) -> np.ndarray:
        """``n`` bytes of ``generator`` (an ``rngcore.Generator``): exactly its raw output."""
        return np.frombuffer(generator.random_bytes(int(n)), dtype=np.uint8).copy()


BYTES = ByteStreamSpec()


def device_spec(name: str):
    """The spec of a registry device (``rngcore.devices.device_spec``), or :data:`BYTES` for "bytes".

    Raises ValueError listing the valid names for an unknown one.
    """
    if name == NAME:
        return BYTES
    from rngcore.devices import device_spec as registry_spec

    try:
        return registry_spec(name)
    except ValueError as exc:
        raise ValueError(f"{exc} (or {NAME}: a raw byte stream)") from None


__all__ = ["BYTES", "ByteStreamSpec", "NAME", "device_spec"]
