"""The CTR_DRBG engines: SP 800-90A Rev. 1 section 10.2 with AES-256
(``csrc/core/ctr_drbg.h``), with and without the derivation function;
modes and streams as :mod:`rngcore.engines._drbg`.  AES runs on AES-NI when
the CPU has it, else (or with ``RNGCERT_FORCE_PORTABLE=1``) on the
constant-time bitsliced C path; both give the same bytes."""
from __future__ import annotations

from rngcore._native import lib
from rngcore.engines._drbg import DrbgEngine

__all__ = ["CtrDrbg", "CtrDrbgNoDf", "ENGINES"]


class CtrDrbg(DrbgEngine):
    """CTR_DRBG (AES-256, derivation function, security strength 256).

    Replay seed: 96 hex digits, entropy input (32 bytes) || nonce (16 bytes).
    """

    name = "ctr-drbg-aes256"
    summary = ("CTR_DRBG, AES-256 with derivation function (SP 800-90A 10.2): seed = entropy input || nonce, "
               "stream = personalization string, output = 4096-byte Generate requests")
    seed_help = "96 hex digits: entropy input (32 bytes) then nonce (16 bytes)"
    seed_bytes = 48
    mechanism = lib.RNG_DRBG_CTR_AES256
    kat_mechanisms = ("ctr-df",)
    parameters = {"mechanism": "CTR_DRBG", "cipher": "AES-256", "derivation_function": True,
                  "security_strength": 256}


class CtrDrbgNoDf(CtrDrbg):
    """CTR_DRBG (AES-256, no derivation function: full-entropy input).

    Replay seed: 96 hex digits, the 48-byte entropy input (seedlen); no nonce.
    """

    name = "ctr-drbg-aes256-nodf"
    summary = ("CTR_DRBG, AES-256 without derivation function (SP 800-90A 10.2): seed = 48-byte entropy input, "
               "stream = personalization string, output = 4096-byte Generate requests")
    seed_help = "96 hex digits: the 48-byte entropy input (no nonce without the derivation function)"
    entropy_bytes = 48
    nonce_bytes = 0
    mechanism = lib.RNG_DRBG_CTR_AES256_NO_DF
    kat_mechanisms = ("ctr-nodf",)
    parameters = dict(CtrDrbg.parameters, derivation_function=False)

    @classmethod
    def _input_rules(cls) -> str:
        return ("without the derivation function: entropy input of exactly 48 bytes, no nonce, "
                "personalization and additional input of at most 48 bytes")


ENGINES = [CtrDrbg, CtrDrbgNoDf]
