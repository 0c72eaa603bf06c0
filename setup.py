"""Build glue: setuptools reads the metadata from pyproject.toml; this file
only names the cffi build script, which lives outside the installed package
(``csrc/build_cffi.py``) so the build logic never ships inside ``rngcore``."""
from setuptools import setup

setup(cffi_modules=["csrc/build_cffi.py:ffibuilder"])
