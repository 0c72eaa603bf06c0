"""Shared helpers for the core tests: an independent ChaCha20 reference
(OpenSSL through ``cryptography``), an independent Python statement of the
draw contract, and where the RFC 8439 vector file is (read with the one
loader, :func:`harness.selftest.load_vectors`)."""
from __future__ import annotations

import pathlib

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from rngcore import lib
from rngcore.testing import available_keystream_paths, keystream_impl

VECTOR_FILE = pathlib.Path(__file__).resolve().parent / "vectors" / "chacha20_rfc8439.txt"


def reference_keystream(key: bytes, stream: int, nbytes: int, counter: int = 0) -> bytes:
    """ChaCha20 keystream from OpenSSL, independent of rngcore's C.

    OpenSSL's 16-byte IV is state words 12-15 little-endian: our 64-bit block
    counter then our 64-bit stream id.  Whether OpenSSL carries word 12 into
    word 13 depends on the version (cryptography 48 carries, 50 refuses to cross the
    2^32-block boundary), so each run that would cross it is asked for with
    its own IV naming the full 64-bit counter: the reference never relies on
    OpenSSL's carry.
    """
    out = bytearray()
    block = counter
    while len(out) < nbytes:
        room = ((block >> 32) + 1 << 32) - block  # blocks before word 12 wraps
        take = min(room * 64, nbytes - len(out))
        iv = (block % 2**64).to_bytes(8, "little") + stream.to_bytes(8, "little")
        out += Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor().update(bytes(take))
        block += room
    return bytes(out)


def reference_integers(keystream: bytes, low: int, high: int, count: int) -> tuple[list[int], int]:
    """``count`` draws on ``[low, high)`` per docs/audit_contract.md, written
    from the contract alone: returns the values and the bytes consumed."""
    n = high - low
    if n == 1:
        return [low] * count, 0
    width = 32 if n <= 1 << 32 else 64
    size, modulus = width // 8, 1 << width
    threshold = modulus % n  # words whose low half is below this are rejected
    values, offset = [], 0
    while len(values) < count:
        if offset + size > len(keystream):
            raise ValueError("reference keystream too short")
        word = int.from_bytes(keystream[offset:offset + size], "little")
        offset += size
        product = word * n
        if product % modulus >= threshold:
            values.append(low + product // modulus)
    return values, offset


def reference_doubles(keystream: bytes, count: int) -> list[float]:
    """``(x >> 11) * 2**-53`` for each little-endian 8-byte word."""
    return [(int.from_bytes(keystream[8 * i:8 * i + 8], "little") >> 11) * 2.0**-53 for i in range(count)]


def keystream_paths() -> list[str]:
    """The keystream code paths this machine can run."""
    return available_keystream_paths()


# One implementation of the path switch, shared with benchmarks.
keystream_path = keystream_impl
