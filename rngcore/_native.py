"""Load the compiled extension and check that it matches this package.

The extension carries the package version and a SHA-256 of ``csrc/`` that it
was built from.  A stale extension (built from other sources or for another
version) is refused at import rather than allowed to produce output that a
report would attribute to the wrong code.
"""
from __future__ import annotations

import dataclasses
import hashlib
import pathlib
from importlib import metadata

try:
    from rngcore._rngcore import ffi, lib
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "rngcore's C extension is not built; install with `pip install -e .` "
        "(a C compiler is required)"
    ) from exc

_CSRC = pathlib.Path(__file__).resolve().parent.parent / "csrc"


@dataclasses.dataclass(frozen=True)
class BuildInfo:
    """What code produced this extension: package version and C source hash."""

    version: str
    csrc_sha256: str


def _source_hash(csrc: pathlib.Path) -> str | None:
    """Hash of a checked-out ``csrc/`` (same recipe as csrc/build_cffi.py)."""
    if not csrc.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(p for p in csrc.iterdir() if p.suffix in (".c", ".h")):
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _check_build() -> BuildInfo:
    info = BuildInfo(
        version=ffi.string(lib.rng_build_version()).decode(),
        csrc_sha256=ffi.string(lib.rng_build_csrc_sha256()).decode(),
    )
    try:
        installed = metadata.version("rngcert")
    except metadata.PackageNotFoundError:
        installed = None
    if installed is not None and installed != info.version:
        raise ImportError(
            f"rngcore extension was built for version {info.version} but rngcert "
            f"{installed} is installed; rebuild with `pip install -e .`"
        )
    current = _source_hash(_CSRC)
    if current is not None and current != info.csrc_sha256:
        raise ImportError(
            "rngcore extension is stale: csrc/ has changed since it was built "
            f"(built from {info.csrc_sha256[:16]}, sources now {current[:16]}); "
            "rebuild with `pip install -e .`"
        )
    return info


BUILD_INFO = _check_build()
