"""rngcore: a certified ChaCha20 random number generator.

The source of bits (:mod:`rngcore.engine`: seeding, state, streams, spawn,
fork and thread safety) is kept apart from what is drawn from it
(:mod:`rngcore.generator`: bytes, bounded integers, floats).
"""
from rngcore._native import BUILD_INFO, ffi, lib
from rngcore.engine import ChaChaEngine
from rngcore.errors import EntropyError, RNGError, SelfTestError, raise_for_status
from rngcore.generator import Generator
from rngcore.numpy_interop import ChaChaBitGenerator, numpy_generator

__version__ = BUILD_INFO.version

__all__ = [
    "BUILD_INFO",
    "ChaChaBitGenerator",
    "ChaChaEngine",
    "EntropyError",
    "Generator",
    "RNGError",
    "SelfTestError",
    "ffi",
    "lib",
    "numpy_generator",
    "raise_for_status",
    "__version__",
]
