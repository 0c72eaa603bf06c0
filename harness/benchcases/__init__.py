"""Bench cases for ``rngcert bench``, contributed by each area.

Every module ``harness/benchcases/<area>.py`` (name not starting with ``_``)
that defines ``CASES: list[BenchCase]`` is discovered; adding cases never
means editing the command.  See :mod:`harness.benchcases._base`.
"""
from __future__ import annotations

import importlib
import pkgutil

from harness.benchcases._base import BenchCase, SkipCase

__all__ = ["BenchCase", "SkipCase", "discover_cases", "discover_projections"]


def discover_cases() -> list[BenchCase]:
    """All cases of every area module, areas in name order."""
    cases: list[BenchCase] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        area_cases = getattr(module, "CASES", None)
        if area_cases is None:
            continue
        for case in area_cases:
            if not isinstance(case, BenchCase):
                raise TypeError(f"{module.__name__}.CASES holds {case!r}, not a BenchCase")
            cases.append(case)
    return cases


def discover_projections() -> list:
    """Each area module's ``projections(results)`` (if it has one), areas in name order: what it
    projects from the CaseResults of a run (:mod:`harness.projection`), as JSON-able dicts."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            function = getattr(importlib.import_module(f"{__name__}.{info.name}"), "projections", None)
            if function is not None:
                found.append(function)
    return found
