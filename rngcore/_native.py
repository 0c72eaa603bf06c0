"""Load the compiled C layers and check that each matches this package.

Every layer's extension (see :mod:`rngcore._layers`) carries the package
version, the SHA-256 of its own ``csrc/<layer>/`` folder and the hash of each
layer it was compiled against.  A stale extension (built from other sources,
against another core, or for another version) is refused at import rather
than allowed to produce output that a report would attribute to the wrong
code.  This module loads the certified core; :func:`load_layer` is how the
kernels (:mod:`harness.kernels`) and the test layer (:mod:`rngcore.testing`)
load theirs.
"""
from __future__ import annotations

import dataclasses
import importlib
import pathlib
from importlib import metadata

from rngcore._environment import check_environment
from rngcore._layers import LAYERS, REBUILD as _REBUILD, stale_build

check_environment()  # before the C core reads it (at the first keystream call)

_CSRC = pathlib.Path(__file__).resolve().parent.parent / "csrc"


@dataclasses.dataclass(frozen=True)
class BuildInfo:
    """What code produced one layer's extension.

    Attributes
    ----------
    layer : str
        The layer (``core``, ``kernels``, ``testing``).
    version : str
        The package version it was built for.
    sha256 : str
        SHA-256 of the layer's C sources (``csrc/<layer>/``).
    needs : dict
        Layer name -> SHA-256 of each layer it was compiled against.
    """

    layer: str
    version: str
    sha256: str
    needs: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def core_sha256(self) -> str:
        """The certified core's hash: this layer's own, or the one it was built against."""
        return self.sha256 if self.layer == "core" else self.needs["core"]


_loaded: dict[str, BuildInfo] = {}


def _check(name: str, ext) -> BuildInfo:
    layer = LAYERS[name]

    def stamp(key: str) -> str:
        return ext.ffi.string(getattr(ext.lib, f"{layer.prefix}_build_{key}")()).decode()

    info = BuildInfo(layer=name, version=stamp("version"), sha256=stamp("sha256"),
                     needs={dep: stamp(f"{dep}_sha256") for dep in layer.needs})
    try:
        installed = metadata.version("rngcert")
    except metadata.PackageNotFoundError:
        installed = None
    problem = stale_build(name, info.version, info.sha256, installed, _CSRC)
    if problem is not None:
        raise ImportError(problem)
    for dep, built_against in info.needs.items():
        if _loaded[dep].sha256 != built_against:
            raise ImportError(
                f"{layer.module} was built against {dep} {built_against[:16]} but {dep} "
                f"{_loaded[dep].sha256[:16]} is loaded; {_REBUILD}"
            )
    _loaded[name] = info
    return info


def load_layer(name: str):
    """Import layer ``name``'s extension and check its build.

    Returns
    -------
    (ffi, lib, BuildInfo)

    Raises
    ------
    ImportError
        If the extension is missing or stale.
    """
    module = LAYERS[name].module
    try:
        ext = importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - exercised only on a broken install
        raise ImportError(
            f"rngcert's C extension {module} is not built; install with `pip install .` "
            "(a C compiler is required)"
        ) from exc
    return ext.ffi, ext.lib, _check(name, ext)


ffi, lib, BUILD_INFO = load_layer("core")
