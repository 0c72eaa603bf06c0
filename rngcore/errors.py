"""Exceptions for C status codes (``RNG_E_*`` in ``csrc/core/rng_source.h``).

C returns a status and never raises; Python turns a negative status into an
exception with :func:`raise_for_status`.  Other modules that call C drawing
functions on ``Generator.source`` do so through
:func:`rngcore.engine.locked_call`, which holds the generator's lock for the
call and then checks the status here.
"""
from __future__ import annotations

from typing import Mapping

from rngcore._native import lib

__all__ = ["RNGError", "EntropyError", "EntropyHealthError", "ContinuousTestError", "SelfTestError",
           "ExhaustedError", "raise_for_status"]


class RNGError(RuntimeError):
    """A generator refused to produce output."""


class EntropyError(RNGError):
    """The operating system could not supply entropy (the generator fails closed)."""


class EntropyHealthError(EntropyError):
    """The operating system's entropy failed an SP 800-90B health test
    (Repetition Count or Adaptive Proportion, ``csrc/core/health.h``): the
    generator that took it is closed for good; a new one runs the start-up
    test again."""


class ContinuousTestError(RNGError):
    """Two consecutive blocks of an engine's production output were equal
    (the continuous test, ``csrc/core/continuous.h``): the engine is stuck,
    and is closed for good; a new one starts afresh."""


class SelfTestError(RNGError):
    """The power-on known-answer self-test failed; output is refused."""


class ExhaustedError(RNGError):
    """A finite source ran out: a test source's bytes, or a replay DRBG's
    reseed interval (SP 800-90A: a reseed is required, and replay has no entropy)."""


_MESSAGES = {
    lib.RNG_E_ENTROPY: (EntropyError, "the operating system could not supply entropy; "
                                      "no output is produced without it"),
    lib.RNG_E_SELFTEST: (SelfTestError, "the engine's power-on self-test (its known-answer vectors) "
                                        "failed; output refused"),
    lib.RNG_E_ARGUMENT: (ValueError, "an argument was out of range"),
    lib.RNG_E_EXHAUSTED: (ExhaustedError, "the source ran out (a test source's bytes, or a replay "
                                          "DRBG's reseed interval: a reseed is required)"),
    lib.RNG_E_MEMORY: (MemoryError, "out of memory"),
    lib.RNG_E_HEALTH_RCT: (EntropyHealthError, "the operating system's entropy failed the SP 800-90B Repetition "
                                               "Count Test (a sample repeated too often in a row); this generator "
                                               "is closed, create a new one"),
    lib.RNG_E_CONTINUOUS: (ContinuousTestError, "a block of the engine's output repeated one of the two before it (the "
                                                "continuous test: the engine is stuck); this generator is closed, "
                                                "create a new one"),
    lib.RNG_E_HEALTH_APT: (EntropyHealthError, "the operating system's entropy failed the SP 800-90B Adaptive "
                                               "Proportion Test (a sample too common in a 512-sample window); this "
                                               "generator is closed, create a new one"),
}


def raise_for_status(status: int, what: str = "generator", *, details: Mapping[int, str] | None = None) -> None:
    """Raise the exception for a negative C status; return for ``RNG_OK``.

    This is the one status -> exception map: every caller of C (core,
    kernels, test layer) checks its status here, so a status means the same
    exception everywhere.

    Parameters
    ----------
    status : int
        A status returned by a C function, or an ``rng_source``'s ``status``.
    what : str
        What failed, for the message (e.g. ``"random_bytes"``).
    details : mapping of int to str, optional
        What a status means for this call (e.g. for ``RNG_E_ARGUMENT``, which
        limit the arguments broke); the exception class stays the map's.
    """
    if status >= 0:
        return
    cls, message = _MESSAGES.get(status, (RNGError, f"unknown C status {status}"))
    if details and status in details:
        message = details[status]
    raise cls(f"{what}: {message}")
