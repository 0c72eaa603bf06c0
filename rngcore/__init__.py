"""rngcore: a certified ChaCha20 random number generator.

The source of bits (:class:`Engine`-level concerns: seeding, state, streams)
is kept apart from what is drawn from it (:class:`Generator` methods).
"""
from rngcore._native import BUILD_INFO, ffi, lib
from rngcore.generator import Generator

__version__ = BUILD_INFO.version

__all__ = ["BUILD_INFO", "Generator", "ffi", "lib", "__version__"]
