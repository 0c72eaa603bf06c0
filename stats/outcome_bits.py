"""Fair bits from a device's outcomes: the bit streams the spectral test (and any bit test) reads.

Raw bytes give their own bits (:func:`bits_from_bytes`, most significant
first).  Categorical outcomes give the first ``b`` binary digits of their
randomized PIT (:class:`OutcomeBits`, b = :func:`bits_per_outcome`), which are
exactly independent fair bits under the null hypothesis; :mod:`stats.spectral`
explains why the outcome's own binary digits would not be.  This module
declares no battery entry, so the device kinds derive their bit streams from
it without importing the battery's registry.
"""
from __future__ import annotations

import numpy as np

from stats._validate import check_int, exact_probabilities
from stats.pit import DEFAULT_JITTER_SEED, RandomizedPIT


def bits_from_bytes(data) -> np.ndarray:
    """Bits of a byte stream, most significant bit of each byte first (as NIST's ``sts`` reads files)."""
    array = np.frombuffer(data, dtype=np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) \
        else np.asarray(data)
    if array.dtype != np.uint8:
        raise ValueError(f"expected bytes or a uint8 array, got dtype {array.dtype}")
    return np.unpackbits(array.reshape(-1))


def bits_per_outcome(k: int) -> int:
    """b = floor(log2 k): binary digits of the PIT kept per outcome of a k-category device."""
    return max(1, int(k).bit_length() - 1)


class OutcomeBits:
    """Exactly fair, independent bits from categorical outcomes (under the null hypothesis).

    Each outcome gives the first ``b`` binary digits of its randomized PIT
    ``u`` (most significant first).  When the k outcomes are equally likely
    and k = 2^b, those digits are the outcome index's own bits and no jitter
    is drawn.

    Parameters
    ----------
    probabilities : int or sequence
        The device's distribution of one outcome.
    bits : int, optional
        Binary digits per outcome (default floor(log2 k)).
    seed : int, optional
        PIT jitter seed.
    """

    def __init__(self, probabilities, *, bits: int | None = None, seed: int = DEFAULT_JITTER_SEED):
        exact = exact_probabilities(probabilities)
        k = len(exact)
        self.bits = bits_per_outcome(k) if bits is None else check_int("bits", bits, 1, 8)
        self._direct = len(set(exact)) == 1 and k == 1 << self.bits
        self._pit = None if self._direct else RandomizedPIT(exact, seed)
        self._shifts = np.arange(self.bits - 1, -1, -1, dtype=np.uint8)

    def seek(self, position: int) -> None:
        """Stand at outcome ``position`` (the PIT jitter of a segment that starts there)."""
        if self._pit is not None:
            self._pit.seek(position)

    def __call__(self, x, uniform=None) -> np.ndarray:
        """Bits of the outcomes ``x`` (their PIT values ``uniform`` may be passed to reuse a jitter draw)."""
        if self._direct:
            digits = np.asarray(x).astype(np.uint8)
        else:
            u = self._pit(x) if uniform is None else uniform
            top = (1 << self.bits) - 1  # u < 1, but guard the last ulp of float rounding
            digits = np.minimum(np.floor(u * (1 << self.bits)), top).astype(np.uint8)
        return ((digits[:, None] >> self._shifts) & 1).reshape(-1)


__all__ = ["bits_from_bytes", "bits_per_outcome", "OutcomeBits"]
