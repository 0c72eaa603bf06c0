"""The report's figures: which renderer draws them, and the numbers every renderer plots.

Two renderers draw the same figures from the same numbers, each a module
with one function per kind of figure (:data:`KINDS`, same arguments):

* :mod:`harness.certify.plots`, matplotlib on its Agg backend, embedded as
  PNG data URIs; used whenever matplotlib is installed (the ``report`` extra,
  ``pip install 'rngcert[report]'``);
* :mod:`harness.certify.svg`, rngcert's own inline SVG, the documented
  fallback of a plain install, so a bundle always has every figure.

Both only draw: the intervals, bins and points are computed once, in
:mod:`harness.certify.figure_numbers`.
"""
from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType

#: The kinds of figure the report draws; each renderer has one function per kind.
KINDS = ("frequency", "bars", "heatmap", "histogram", "parts", "convergence")


@dataclasses.dataclass(frozen=True)
class Renderer:
    """The module that draws the figures and the sentence the report prints about it."""

    module: ModuleType
    description: str


def renderer() -> Renderer:
    """matplotlib (Agg) when it is installed, else the inline SVG fallback (never an error)."""
    try:
        plots = importlib.import_module("harness.certify.plots")
    except ImportError as exc:  # the plain install: no `report` extra
        if not (exc.name or "").startswith("matplotlib"):
            raise  # a fault of rngcert's own, not a missing extra
        from harness.certify import svg

        return Renderer(svg, f"inline SVG drawn by rngcert (matplotlib is not installed: {exc.msg}; "
                             "pip install 'rngcert[report]' draws them with matplotlib)")
    return Renderer(plots, plots.DESCRIPTION)


__all__ = ["KINDS", "Renderer", "renderer"]
