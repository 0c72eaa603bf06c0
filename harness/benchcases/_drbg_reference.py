"""Independent SP 800-90A reference DRBGs in Python, for the tests and the
benchmarks' baselines: HMAC_DRBG over the standard library's ``hmac``
(OpenSSL's HMAC-SHA256) and CTR_DRBG over ``cryptography``'s AES-256 (one
AES-ECB call per block run).  Written from SP 800-90A Rev. 1's pseudocode,
sharing nothing with the C engines, so agreement is evidence."""
from __future__ import annotations

import hmac

SEEDLEN = 48
REQUEST_BYTES = 4096


class HmacDrbgReference:
    """HMAC_DRBG with SHA-256 (10.1.2): instantiate, reseed, generate."""

    def __init__(self, entropy: bytes, nonce: bytes, personalization: bytes = b""):
        self.key, self.v = bytes(32), b"\x01" * 32
        self._update(entropy + nonce + personalization)

    def _mac(self, data: bytes) -> bytes:
        return hmac.digest(self.key, data, "sha256")

    def _update(self, provided: bytes) -> None:
        self.key = self._mac(self.v + b"\x00" + provided)
        self.v = self._mac(self.v)
        if provided:
            self.key = self._mac(self.v + b"\x01" + provided)
            self.v = self._mac(self.v)

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        self._update(entropy + additional)

    def generate(self, n: int, additional: bytes = b"") -> bytes:
        if additional:
            self._update(additional)
        out = bytearray()
        key, v = self.key, self.v
        while len(out) < n:  # one OpenSSL HMAC-SHA256 call per 32 bytes
            v = hmac.digest(key, v, "sha256")
            out += v
        self.v = v
        self._update(additional)
        return bytes(out[:n])


class CtrDrbgReference:
    """CTR_DRBG with AES-256 (10.2), with or without the derivation function."""

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"", *, df: bool = True):
        self.df = df
        self.key, self.v = bytes(32), bytes(16)
        self._update(self._seed(entropy + nonce + personalization if df else entropy, personalization))

    @staticmethod
    def _ecb(key: bytes, data: bytes) -> bytes:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        return Cipher(algorithms.AES(key), modes.ECB()).encryptor().update(data)

    def _blocks(self, n: int) -> bytes:
        v = int.from_bytes(self.v, "big")
        counters = b"".join(((v + i + 1) % (1 << 128)).to_bytes(16, "big") for i in range(n))
        self.v = ((v + n) % (1 << 128)).to_bytes(16, "big")
        return self._ecb(self.key, counters)

    def _update(self, provided: bytes) -> None:
        temp = bytes(a ^ b for a, b in zip(self._blocks(3), provided))
        self.key, self.v = temp[:32], temp[32:]

    def _bcc(self, key: bytes, data: bytes) -> bytes:
        chain = bytes(16)
        for i in range(0, len(data), 16):
            chain = self._ecb(key, bytes(a ^ b for a, b in zip(chain, data[i:i + 16])))
        return chain

    def _block_cipher_df(self, data: bytes) -> bytes:
        s = len(data).to_bytes(4, "big") + SEEDLEN.to_bytes(4, "big") + data + b"\x80"
        s += bytes(-len(s) % 16)
        k = bytes(range(32))
        temp = b"".join(self._bcc(k, i.to_bytes(4, "big") + bytes(12) + s) for i in range(3))
        key, x = temp[:32], temp[32:]
        out = b""
        while len(out) < SEEDLEN:
            x = self._ecb(key, x)
            out += x
        return out

    def _seed(self, df_input: bytes, xor_input: bytes) -> bytes:
        if self.df:
            return self._block_cipher_df(df_input)
        padded = xor_input.ljust(SEEDLEN, b"\x00")
        return bytes(a ^ b for a, b in zip(df_input, padded))

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        self._update(self._seed(entropy + additional if self.df else entropy, additional))

    def generate(self, n: int, additional: bytes = b"") -> bytes:
        if additional:
            additional = self._block_cipher_df(additional) if self.df else additional.ljust(SEEDLEN, b"\x00")
            self._update(additional)
        else:
            additional = bytes(SEEDLEN)
        out = self._blocks(-(-n // 16))[:n]
        self._update(additional)
        return out


def reference_stream(engine: str, seed: bytes, personalization: bytes, nbytes: int) -> bytes:
    """The first ``nbytes`` of a registered DRBG engine's replay stream, by
    its audit contract: ``Generate(4096)`` requests after instantiating with
    ``seed = entropy || nonce`` and the personalization string."""
    if engine == "hmac-drbg-sha256":
        drbg = HmacDrbgReference(seed[:32], seed[32:], personalization)
    elif engine == "ctr-drbg-aes256":
        drbg = CtrDrbgReference(seed[:32], seed[32:], personalization)
    elif engine == "ctr-drbg-aes256-nodf":
        drbg = CtrDrbgReference(seed, b"", personalization, df=False)
    else:
        raise ValueError(f"no reference for engine {engine!r}")
    out = b""
    while len(out) < nbytes:
        out += drbg.generate(REQUEST_BYTES)
    return out[:nbytes]
