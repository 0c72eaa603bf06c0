"""Exceptions for C status codes (``RNG_E_*`` in ``csrc/core/rng_source.h``).

C returns a status and never raises; Python turns a negative status into an
exception with :func:`raise_for_status`.  Other modules that call C drawing
functions on ``Generator.source`` do so through
:func:`rngcore.engine.locked_call`, which holds the generator's lock for the
call and then checks the status here.
"""
from __future__ import annotations

from rngcore._native import lib

__all__ = ["RNGError", "EntropyError", "SelfTestError", "ExhaustedError", "raise_for_status"]


class RNGError(RuntimeError):
    """A generator refused to produce output."""


class EntropyError(RNGError):
    """The operating system could not supply entropy (the generator fails closed)."""


class SelfTestError(RNGError):
    """The power-on known-answer self-test failed; output is refused."""


class ExhaustedError(RNGError):
    """A finite test source ran out of bytes."""


_MESSAGES = {
    lib.RNG_E_ENTROPY: (EntropyError, "the operating system could not supply entropy; "
                                      "no output is produced without it"),
    lib.RNG_E_SELFTEST: (SelfTestError, "the ChaCha20 power-on self-test (RFC 8439 vectors) "
                                        "failed; output refused"),
    lib.RNG_E_ARGUMENT: (ValueError, "an argument was out of range"),
    lib.RNG_E_EXHAUSTED: (ExhaustedError, "the test source ran out of bytes"),
    lib.RNG_E_MEMORY: (MemoryError, "out of memory"),
}


def raise_for_status(status: int, what: str = "generator") -> None:
    """Raise the exception for a negative C status; return for ``RNG_OK``.

    Parameters
    ----------
    status : int
        A status returned by a C function, or an ``rng_source``'s ``status``.
    what : str
        What failed, for the message (e.g. ``"random_bytes"``).
    """
    if status >= 0:
        return
    cls, message = _MESSAGES.get(status, (RNGError, f"unknown C status {status}"))
    raise cls(f"{what}: {message}")
