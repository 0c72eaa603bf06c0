"""cffi build script for ``rngcore._rngcore`` (named in ``setup.py``).

C declarations are written once, in the headers: every ``csrc/*.h`` may hold
one or more regions between ``/* cffi:begin */`` and ``/* cffi:end */``; those
regions are what Python sees.  Every ``csrc/*.c`` is compiled in.  Adding a C
module therefore means adding its ``.h``/``.c`` pair and nothing else.

The package version and a SHA-256 of the C sources are compiled into the
extension (``rng_build_version()``, ``rng_build_csrc_sha256()``) so that
``rngcore`` can refuse a stale build and every report can name the exact code
that produced it.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import re
import sys

from cffi import FFI

CSRC = pathlib.Path(__file__).resolve().parent
ROOT = CSRC.parent
_REGION = re.compile(r"/\*\s*cffi:begin\s*\*/(.*?)/\*\s*cffi:end\s*\*/", re.S)
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|endif|else|elif|include|pragma|error|undef)\b.*$", re.M)


def csrc_files() -> list[pathlib.Path]:
    """The C sources that define the build, in a stable order."""
    return sorted(p for p in CSRC.iterdir() if p.suffix in (".c", ".h"))


def csrc_sha256() -> str:
    """SHA-256 over the names and contents of every ``csrc/*.c`` and ``*.h``."""
    digest = hashlib.sha256()
    for path in csrc_files():
        digest.update(path.name.encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def package_version() -> str:
    """The version in pyproject.toml (the single source of truth)."""
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    if not match:
        raise RuntimeError("pyproject.toml has no version")
    return match.group(1)


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def headers_in_dependency_order() -> list[pathlib.Path]:
    """``csrc/*.h``, each after the local headers it includes."""
    ordered: list[pathlib.Path] = []

    def visit(header: pathlib.Path, stack: tuple[pathlib.Path, ...]) -> None:
        if header in ordered:
            return
        if header in stack:
            raise RuntimeError(f"include cycle through {header.name}")
        for name in _INCLUDE.findall(header.read_text()):
            dependency = CSRC / name
            if dependency.exists():
                visit(dependency, stack + (header,))
        ordered.append(header)

    for header in sorted(CSRC.glob("*.h")):
        visit(header, ())
    return ordered


def cdef_text() -> str:
    """The cffi declarations gathered from the headers' cffi regions."""
    parts = []
    for header in headers_in_dependency_order():
        for region in _REGION.findall(header.read_text()):
            parts.append(_DIRECTIVE.sub("", region))
    return "\n".join(parts)


def _compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    return ["-O3", "-std=c11", "-fno-strict-aliasing", "-Wall", "-Wextra", "-Wno-unused-parameter"]


def make_ffibuilder(absolute_paths: bool = False) -> FFI:
    """The FFI builder for ``rngcore._rngcore``.

    setuptools wants source paths relative to the project root; the
    developer rebuild compiles in a private directory and needs them absolute.
    """
    builder = FFI()
    builder.cdef(
        cdef_text()
        + """
const char *rng_build_version(void);
const char *rng_build_csrc_sha256(void);
"""
    )
    headers = "\n".join(f'#include "{h.name}"' for h in headers_in_dependency_order())
    sources = sorted(CSRC.glob("*.c"))
    builder.set_source(
        "rngcore._rngcore",
        headers
        + f"""
const char *rng_build_version(void) {{ return "{package_version()}"; }}
const char *rng_build_csrc_sha256(void) {{ return "{csrc_sha256()}"; }}
""",
        sources=[str(p) if absolute_paths else os.path.relpath(p, ROOT) for p in sources],
        include_dirs=[str(CSRC) if absolute_paths else os.path.relpath(CSRC, ROOT)],
        extra_compile_args=_compile_args(),
    )
    return builder


ffibuilder = make_ffibuilder()


def rebuild_in_place() -> pathlib.Path:
    """Developer rebuild: recompile rngcore's extension after editing ``csrc/``.

    Faster than ``pip install -e .``.  Compiles in a private directory under
    ``build/`` (so concurrent rebuilds cannot trample each other), then
    atomically replaces ``rngcore/_rngcore.abi3.so``, leaving exactly one
    extension file so a stale copy can never shadow the new one.
    """
    import fcntl
    import tempfile

    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / ".rebuild.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tmpdir = tempfile.mkdtemp(prefix="cffi-", dir=ROOT / "build")
        built = pathlib.Path(make_ffibuilder(absolute_paths=True).compile(tmpdir=tmpdir))
        target = ROOT / "rngcore" / "_rngcore.abi3.so"
        for old in (ROOT / "rngcore").glob("_rngcore*.so"):
            if old != target:
                old.unlink()
        built.replace(target)
    return target


if __name__ == "__main__":
    print(rebuild_in_place())
