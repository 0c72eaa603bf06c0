"""Files shipped with rngcert beside the code: the example models and the docs.

The repository keeps them in ``examples/`` and ``docs/`` (their one home); the
build copies them into the package as ``harness/_shipped/`` (``setup.py``), so
an installed rngcert finds them through :mod:`importlib.resources` and a
source checkout finds them where they are.
"""
from __future__ import annotations

import importlib.resources
import pathlib

SHIPPED_DIRS = ("examples", "docs")
"""The repository folders the build copies into ``harness/_shipped/``."""

_SOURCE_ROOT = pathlib.Path(__file__).resolve().parent.parent


def shipped(relative: str) -> pathlib.Path | None:
    """The shipped file ``relative`` (e.g. ``"examples/slot_compliant.toml"``).

    Returns
    -------
    pathlib.Path or None
        The installed copy, else the source checkout's file; None if neither exists.
    """
    packaged = importlib.resources.files("harness") / "_shipped" / relative
    if packaged.is_file():
        return pathlib.Path(str(packaged))
    source = _SOURCE_ROOT / relative
    return source if source.is_file() else None
