"""Shared helpers for the core tests: an independent ChaCha20 reference
(OpenSSL through ``cryptography``), an independent Python statement of the
draw contract, and the RFC 8439 vector loader."""
from __future__ import annotations

import dataclasses
import pathlib

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

from rngcore import lib
from rngcore.testing import keystream_impl

VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "chacha20_rfc8439.txt"


def reference_keystream(key: bytes, stream: int, nbytes: int, counter: int = 0) -> bytes:
    """ChaCha20 keystream from OpenSSL, independent of rngcore's C.

    OpenSSL's 16-byte IV is state words 12-15 little-endian: our 64-bit block
    counter then our 64-bit stream id (and OpenSSL carries word 12 into 13).
    """
    iv = counter.to_bytes(8, "little") + stream.to_bytes(8, "little")
    return Cipher(algorithms.ChaCha20(key, iv), mode=None).encryptor().update(bytes(nbytes))


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


@dataclasses.dataclass(frozen=True)
class Vector:
    count: int
    key: bytes
    nonce: bytes
    counter: int
    plaintext: bytes
    ciphertext: bytes

    @property
    def counter64(self) -> int:
        """RFC 8439's 32-bit counter and first nonce word are our words 12-13."""
        return self.counter | int.from_bytes(self.nonce[0:4], "little") << 32

    @property
    def stream(self) -> int:
        """RFC 8439's nonce words 1-2 are our 64-bit stream id (words 14-15)."""
        return int.from_bytes(self.nonce[4:12], "little")


def load_vectors(path: pathlib.Path = VECTORS) -> list[Vector]:
    """Parse the RFC 8439 vector file; raises if it is missing or malformed."""
    if not path.is_file():
        raise FileNotFoundError(f"known-answer vectors missing: {path}")
    vectors = []
    for block in path.read_text(encoding="ascii").split("\n\n"):
        fields = {}
        for line in block.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, value = line.partition("=")
            fields[name.strip()] = value.strip()
        if not fields:
            continue
        try:
            vectors.append(Vector(
                count=int(fields["COUNT"]),
                key=bytes.fromhex(fields["KEY"]),
                nonce=bytes.fromhex(fields["NONCE"]),
                counter=int(fields["COUNTER"]),
                plaintext=bytes.fromhex(fields["PLAINTEXT"]),
                ciphertext=bytes.fromhex(fields["CIPHERTEXT"]),
            ))
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{path}: malformed record {fields.get('COUNT', '?')}: {exc}") from exc
    if not vectors:
        raise ValueError(f"{path}: no vectors found")
    return vectors


def keystream_paths() -> list[str]:
    """The keystream code paths this machine can run."""
    return ["portable", "avx2"] if lib.rng_cpu_has_avx2() else ["portable"]


# One implementation of the path switch, shared with benchmarks.
keystream_path = keystream_impl
