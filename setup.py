"""Build glue: setuptools reads the metadata from pyproject.toml; this file
only names the cffi build script, which lives outside the installed package
(``csrc/build_cffi.py``) so the build logic never ships inside ``rngcore``.

One extension per C layer (``rngcore/_layers.py``): the certified core, the
game and slot kernels, and the test layer.  They use only the stable ABI, so
the wheel is tagged abi3 for every CPython from 3.11 on.  The example models
and the docs are copied into the package as ``harness/_shipped/`` (found
through ``harness.resources``).

Build byproducts (``build/``, ``rngcert.egg-info/``) go to a private
temporary directory, never into the source tree, so installing leaves the
checkout as it was.
"""
import atexit
import importlib.util
import pathlib
import shutil
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent


def _shipped_dirs():
    """``harness.resources.SHIPPED_DIRS``, read by path (building imports no package)."""
    spec = importlib.util.spec_from_file_location("_rngcert_resources", ROOT / "harness" / "resources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SHIPPED_DIRS


class build_py_with_shipped(build_py):
    """build_py, plus the example models and docs as package data."""

    def run(self):
        super().run()
        target = pathlib.Path(self.build_lib) / "harness" / "_shipped"
        for folder in _shipped_dirs():
            source = ROOT / folder
            if source.is_dir():
                shutil.copytree(source, target / folder, dirs_exist_ok=True)


_SCRATCH = tempfile.mkdtemp(prefix="rngcert-build-")
atexit.register(shutil.rmtree, _SCRATCH, ignore_errors=True)

setup(
    cffi_modules=[
        "csrc/build_cffi.py:core_ffibuilder",
        "csrc/build_cffi.py:kernels_ffibuilder",
        "csrc/build_cffi.py:testing_ffibuilder",
        "csrc/build_cffi.py:stats_ffibuilder",
    ],
    cmdclass={"build_py": build_py_with_shipped},
    options={
        "bdist_wheel": {"py_limited_api": "cp311"},
        # The layers' extensions compile side by side, one per core (True: os.cpu_count()).
        "build_ext": {"parallel": True},
        "build": {"build_base": _SCRATCH + "/build"},
        "egg_info": {"egg_base": _SCRATCH},
    },
)
