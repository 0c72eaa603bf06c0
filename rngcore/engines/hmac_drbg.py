"""The HMAC_DRBG engine: SP 800-90A Rev. 1 section 10.1.2 with SHA-256
(``csrc/core/hmac_drbg.h``), modes and streams as :mod:`rngcore.engines._drbg`."""
from __future__ import annotations

from rngcore._native import lib
from rngcore.engines._drbg import DrbgEngine

__all__ = ["ENGINES", "HmacDrbg"]


class HmacDrbg(DrbgEngine):
    """HMAC_DRBG (SHA-256, security strength 256); see :class:`DrbgEngine`.

    Replay seed: 96 hex digits, entropy input (32 bytes) || nonce (16 bytes).
    """

    name = "hmac-drbg-sha256"
    summary = ("HMAC_DRBG, SHA-256 (SP 800-90A 10.1.2): seed = entropy input || nonce, "
               "stream = personalization string, output = 4096-byte Generate requests")
    seed_help = "96 hex digits: entropy input (32 bytes) then nonce (16 bytes)"
    seed_bytes = 48
    mechanism = lib.RNG_DRBG_HMAC_SHA256
    kat_mechanisms = ("hmac",)
    parameters = {"mechanism": "HMAC_DRBG", "hash": "SHA-256", "security_strength": 256}


ENGINES = [HmacDrbg]
