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

__version__ = BUILD_INFO.version

#: The names whose modules need numpy, loaded on first use (PEP 562): the
#: engines and their registry import without it (``rngcert X --help`` lists
#: the engines; drawing loads the generator).
_NUMPY_EXPORTS = {
    "Generator": "rngcore.generator",
    "ChaChaBitGenerator": "rngcore.numpy_interop",
    "numpy_generator": "rngcore.numpy_interop",
}


def __getattr__(name: str):
    home = _NUMPY_EXPORTS.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this hook
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NUMPY_EXPORTS))

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
