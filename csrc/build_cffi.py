"""cffi build script: one extension per C layer (named in ``setup.py``).

``csrc/`` has one folder per layer (the table is ``rngcore/_layers.py``):
``core/`` builds ``rngcore._rngcore``, ``kernels/`` builds
``harness._kernels``, ``testing/`` builds ``rngcore._testing`` and ``stats/``
builds ``stats._kernels``.  A layer's
extension compiles every ``.c`` of its folder and declares, to Python, the
regions between ``/* cffi:begin */`` and ``/* cffi:end */`` of every ``.h``
of its folder; the types of the layers it needs (``rng_source`` above all)
are shared through ``ffi.include``.  Adding a C module therefore means adding
its ``.h``/``.c`` pair to the right layer folder and nothing else.

Each extension carries the package version and the SHA-256 of its own
folder (``<prefix>_build_version()``, ``<prefix>_build_sha256()``), and the
hash of every layer it was compiled against (``<prefix>_build_core_sha256()``)
so that the loader can refuse a stale build and every report can name the
exact certified code that produced it.

``RNGCERT_SANITIZE=1`` in the environment builds with AddressSanitizer and
UndefinedBehaviorSanitizer (for the CI step; never for a release).
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import sys

from cffi import FFI

CSRC = pathlib.Path(__file__).resolve().parent
ROOT = CSRC.parent
_REGION = re.compile(r"/\*\s*cffi:begin\s*\*/(.*?)/\*\s*cffi:end\s*\*/", re.S)
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|endif|else|elif|include|pragma|error|undef)\b.*$", re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]


def _load_layers():
    """``rngcore/_layers.py``, loaded by path so building never imports rngcore."""
    spec = importlib.util.spec_from_file_location("_rngcert_layers", ROOT / "rngcore" / "_layers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolves the module by name
    spec.loader.exec_module(module)
    return module


_layers = _load_layers()
LAYERS = _layers.LAYERS
layer_sha256 = _layers.layer_sha256


def layer_dir(name: str) -> pathlib.Path:
    """The folder of layer ``name``."""
    return CSRC / name


def include_dirs(name: str) -> list[pathlib.Path]:
    """Where layer ``name``'s ``#include "..."`` resolve: its folder, then its needs'."""
    return [layer_dir(name)] + [layer_dir(dep) for dep in LAYERS[name].needs]


def layer_sources(name: str) -> list[pathlib.Path]:
    """The ``.c`` files compiled into layer ``name``'s extension: all of its folder's."""
    return sorted(layer_dir(name).glob("*.c"))


def headers_in_dependency_order(name: str) -> list[pathlib.Path]:
    """Layer ``name``'s headers, each after the headers of its own layer it includes.

    A header name must be unique across the layers a build can see, or an
    include would silently resolve to the wrong one.
    """
    dirs = include_dirs(name)
    seen: dict[str, pathlib.Path] = {}
    for folder in dirs:
        for header in folder.glob("*.h"):
            if header.name in seen:
                raise RuntimeError(f"{header} and {seen[header.name]} share a name")
            seen[header.name] = header
    own = layer_dir(name)
    ordered: list[pathlib.Path] = []

    def visit(header: pathlib.Path, stack: tuple[pathlib.Path, ...]) -> None:
        if header in ordered:
            return
        if header in stack:
            raise RuntimeError(f"include cycle through {header.name}")
        for included in _INCLUDE.findall(header.read_text()):
            dependency = seen.get(included)
            if dependency is not None and dependency.parent == own:
                visit(dependency, stack + (header,))
        ordered.append(header)

    for header in sorted(own.glob("*.h")):
        visit(header, ())
    return ordered


def cdef_text(name: str) -> str:
    """The cffi declarations gathered from layer ``name``'s header regions."""
    parts = []
    for header in headers_in_dependency_order(name):
        for region in _REGION.findall(header.read_text()):
            parts.append(_DIRECTIVE.sub("", region))
    return "\n".join(parts)


def package_version() -> str:
    """The version in pyproject.toml (the single source of truth)."""
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    if not match:
        raise RuntimeError("pyproject.toml has no version")
    return match.group(1)


def sanitizing() -> bool:
    """True when ``RNGCERT_SANITIZE`` asks for a sanitizer build."""
    value = os.environ.get("RNGCERT_SANITIZE", "")
    if value not in ("", "0", "1"):
        raise RuntimeError(f"RNGCERT_SANITIZE must be 0 or 1, not {value!r}")
    return value == "1"


def _compile_args() -> list[str]:
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O3", "-std=c11", "-fno-strict-aliasing", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    return args + (_SANITIZERS + ["-g"] if sanitizing() else [])


def _build_info(name: str) -> tuple[str, str]:
    """C declarations and definitions of layer ``name``'s build identity."""
    prefix = LAYERS[name].prefix
    stamps = {"version": package_version(), "sha256": layer_sha256(layer_dir(name))}
    stamps.update({f"{dep}_sha256": layer_sha256(layer_dir(dep)) for dep in LAYERS[name].needs})
    decls = "".join(f"const char *{prefix}_build_{key}(void);\n" for key in stamps)
    defs = "".join(f'const char *{prefix}_build_{key}(void) {{ return "{value}"; }}\n'
                   for key, value in stamps.items())
    return decls, defs


def make_ffibuilders(absolute_paths: bool = False) -> dict[str, FFI]:
    """One FFI builder per layer, keyed by layer name.

    setuptools wants source paths relative to the project root; the
    developer rebuild compiles in a private directory and needs them absolute.
    """

    def path(p: pathlib.Path) -> str:
        return str(p) if absolute_paths else os.path.relpath(p, ROOT)

    builders: dict[str, FFI] = {}
    for name, layer in LAYERS.items():  # a layer comes after the layers it needs
        builder = FFI()
        for dep in layer.needs:
            builder.include(builders[dep])
        decls, defs = _build_info(name)
        builder.cdef(cdef_text(name) + "\n" + decls)
        # The generated code checks every declared type, the included layers' too.
        seen = [h for dep in layer.needs for h in headers_in_dependency_order(dep)]
        headers = "".join(f'#include "{h.name}"\n' for h in seen + headers_in_dependency_order(name))
        builder.set_source(
            layer.module,
            headers + defs,
            sources=[path(p) for p in layer_sources(name)],
            include_dirs=[path(d) for d in include_dirs(name)],
            extra_compile_args=_compile_args(),
            extra_link_args=_SANITIZERS if sanitizing() else [],
            py_limited_api=True,
        )
        builders[name] = builder
    return builders


_builders = make_ffibuilders()
core_ffibuilder = _builders["core"]
kernels_ffibuilder = _builders["kernels"]
testing_ffibuilder = _builders["testing"]
stats_ffibuilder = _builders["stats"]


def extension_path(name: str) -> pathlib.Path:
    """Where the in-place rebuild puts layer ``name``'s extension."""
    package, _, module = LAYERS[name].module.rpartition(".")
    return ROOT.joinpath(*package.split(".")) / f"{module}.abi3.so"


def rebuild_in_place() -> list[pathlib.Path]:
    """Developer rebuild: recompile every layer's extension after editing ``csrc/``.

    Faster than ``pip install -e .``.  Compiles in a private temporary
    directory outside the checkout, one rebuild of a checkout at a time (so
    concurrent rebuilds cannot trample each other), then atomically replaces
    each ``<module>.abi3.so``, leaving exactly one file per extension so a
    stale copy can never shadow the new one.
    """
    import fcntl
    import hashlib
    import shutil
    import tempfile

    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:16]
    lock_path = pathlib.Path(tempfile.gettempdir()) / f"rngcert-rebuild-{checkout}.lock"
    targets = []
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for name, builder in make_ffibuilders(absolute_paths=True).items():
            tmpdir = tempfile.mkdtemp(prefix="rngcert-cffi-")
            try:
                built = pathlib.Path(builder.compile(tmpdir=tmpdir))
                target = extension_path(name)
                for old in target.parent.glob(target.name.split(".")[0] + "*.so"):
                    if old != target:
                        old.unlink()
                shutil.move(built, target.with_suffix(".so.new"))
                target.with_suffix(".so.new").replace(target)
            finally:
                shutil.rmtree(tmpdir, ignore_errors=True)
            targets.append(target)
    return targets


if __name__ == "__main__":
    for target in rebuild_in_place():
        print(target)
