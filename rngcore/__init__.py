"""rngcore: a certified ChaCha20 random number generator.

The source of bits (:mod:`rngcore.engine`, the bit-source protocol, and the
engines registered in :mod:`rngcore.engines`: seeding, state, streams,
spawn, fork and thread safety) is kept apart from what is drawn from it
(:mod:`rngcore.generator`: bytes, bounded integers, floats, shuffles).
"""
from rngcore._native import BUILD_INFO, ffi, lib
from rngcore.engine import BitSource, Provenance, TrivialSeedWarning
from rngcore.engines.chacha20 import ChaChaEngine
from rngcore.engines.ctr_drbg import CtrDrbg, CtrDrbgNoDf
from rngcore.engines.hmac_drbg import HmacDrbg
from rngcore.errors import (ContinuousTestError, EntropyError, EntropyHealthError, RNGError, SelfTestError,
                            raise_for_status)
from rngcore.generator import Generator
from rngcore.numpy_interop import ChaChaBitGenerator, numpy_generator

__version__ = BUILD_INFO.version

__all__ = [
    "BUILD_INFO",
    "BitSource",
    "ChaChaBitGenerator",
    "ChaChaEngine",
    "ContinuousTestError",
    "CtrDrbg",
    "CtrDrbgNoDf",
    "EntropyError",
    "EntropyHealthError",
    "Generator",
    "HmacDrbg",
    "RNGError",
    "Provenance",
    "SelfTestError",
    "TrivialSeedWarning",
    "ffi",
    "lib",
    "numpy_generator",
    "raise_for_status",
    "__version__",
]
