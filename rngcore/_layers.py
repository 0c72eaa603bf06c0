"""The C layers and the hash that names each layer's build.

One home for both the build script (``csrc/build_cffi.py`` loads this file
by path, so building never imports :mod:`rngcore`) and the import-time check
(:mod:`rngcore._native`), so the two can never disagree on what a hash
covers.  This module imports nothing but the standard library.

Each layer is one folder of ``csrc/`` built into one cffi extension:

- ``core``: the certified RNG (engines, entropy, self-test, bounded integers,
  draws, shuffles, devices, numpy interop).  Its hash is the build identity
  every report names, and nothing outside ``csrc/core/`` changes it.
- ``kernels``: the game and slot kernels, which draw only through the core.
- ``testing``: the test engine and the fault plans; never imported by
  production code.
- ``stats``: counting kernels of :mod:`stats` (the SP 800-22 hot loops);
  pure functions of arrays that need no other layer, so :mod:`stats`
  stays independent of the core (it checks this layer's build with
  :func:`stale_build`, loading this file by path).

A layer may include the headers of the layers it ``needs``; its extension
records the hash of each of them it was compiled against, and the loader
refuses it if the loaded layer differs.
"""
from __future__ import annotations

import dataclasses
import hashlib
import pathlib


@dataclasses.dataclass(frozen=True)
class Layer:
    """One C layer: its folder, its extension and its symbol prefix.

    Attributes
    ----------
    name : str
        The layer's name, also its folder under ``csrc/``.
    module : str
        The cffi extension built from it.
    prefix : str
        The prefix of every exported symbol (``rng``, ``kern``, ``rngtest``).
    needs : tuple of str
        Layers whose headers it includes and whose types it shares
        (through ``ffi.include``).
    """

    name: str
    module: str
    prefix: str
    needs: tuple[str, ...] = ()


LAYERS: dict[str, Layer] = {
    layer.name: layer
    for layer in (
        Layer("core", "rngcore._rngcore", "rng"),
        Layer("kernels", "harness._kernels", "kern", needs=("core",)),
        Layer("testing", "rngcore._testing", "rngtest", needs=("core",)),
        Layer("stats", "stats._kernels", "stat"),
    )
}


def layer_files(folder: pathlib.Path) -> list[pathlib.Path]:
    """The ``.c`` and ``.h`` files of one layer folder, in a stable order."""
    return sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h"))


def layer_sha256(folder: pathlib.Path) -> str:
    """SHA-256 over the names and contents of a layer folder's C files."""
    digest = hashlib.sha256()
    for path in layer_files(folder):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


REBUILD = "rebuild with `python csrc/build_cffi.py` (or reinstall)"


def stale_build(name: str, version: str, sha256: str, installed: str | None, csrc: pathlib.Path) -> str | None:
    """Why layer ``name``'s extension (stamped ``version`` and ``sha256``) must be refused, or None.

    It must match the installed package's version (when one is installed),
    and, in a checkout (``csrc`` exists), the hash of ``csrc/<name>/``.
    """
    module = LAYERS[name].module
    rebuild = REBUILD
    if installed is not None and installed != version:
        return f"{module} was built for version {version} but rngcert {installed} is installed; {rebuild}"
    folder = csrc / name
    if folder.is_dir():
        current = layer_sha256(folder)
        if current != sha256:
            return (f"{module} is stale: csrc/{name}/ has changed since it was built "
                    f"(built from {sha256[:16]}, sources now {current[:16]}); {rebuild}")
    return None
