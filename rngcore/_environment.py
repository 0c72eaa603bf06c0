"""Environment variables the C core reads, checked before it reads them.

``csrc/core/chacha20.c`` reads ``RNGCERT_FORCE_PORTABLE`` once, at the first
keystream call, and acts only on ``"1"``; any other value would silently
select the default path.  A misspelt setting in a lab's job (``yes``,
``true``) must not certify the wrong code path, so it is refused here, when
the extension is loaded.
"""
from __future__ import annotations

import os

FORCE_PORTABLE = "RNGCERT_FORCE_PORTABLE"
FORCE_PORTABLE_VALUES = {
    "1": "force the portable C path",
    "0": "the fastest path the CPU has, AVX-512 then AVX2, as when unset or empty",
    "": "as unset",
}


class EnvironmentSettingError(ValueError):
    """An rngcert environment variable holds a value it does not accept."""


def check_environment(environ=None) -> None:
    """Raise :class:`EnvironmentSettingError` for an undocumented ``RNGCERT_FORCE_PORTABLE``."""
    environ = os.environ if environ is None else environ
    value = environ.get(FORCE_PORTABLE)
    if value is not None and value not in FORCE_PORTABLE_VALUES:
        accepted = " or ".join(f"{v} ({what})" for v, what in FORCE_PORTABLE_VALUES.items() if v)
        raise EnvironmentSettingError(f"{FORCE_PORTABLE}={value[:40]!r} is not accepted; use {accepted}")
