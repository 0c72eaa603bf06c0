"""Build glue: setuptools reads the metadata from pyproject.toml; this file
only names the cffi build script, which lives outside the installed package
(``csrc/build_cffi.py``) so the build logic never ships inside ``rngcore``.

One extension per C layer (``rngcore/_layers.py``): the certified core, the
game and slot kernels, and the test layer.  They use only the stable ABI, so
the wheel is tagged abi3 for every CPython from 3.11 on.
"""
from setuptools import setup

setup(
    cffi_modules=[
        "csrc/build_cffi.py:core_ffibuilder",
        "csrc/build_cffi.py:kernels_ffibuilder",
        "csrc/build_cffi.py:testing_ffibuilder",
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
