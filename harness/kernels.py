"""The game and slot kernels' extension (``harness._kernels``), bound to the core.

The kernels draw only through the certified core: their shuffles, device
draws and bounded draws are the core's own functions, reached through the
table the core hands out (``csrc/core/core_api.h``).  Importing this module
checks the kernels' build (its own hash, and the core hash it was compiled
against) and binds that table before any kernel can run.
"""
from __future__ import annotations

import rngcore
from rngcore._native import load_layer

ffi, lib, BUILD_INFO = load_layer("kernels")

if lib.kern_bind_core(rngcore.lib.rng_core_api_table()) != rngcore.lib.RNG_OK:  # pragma: no cover
    raise ImportError("harness._kernels does not accept this core's table; rebuild with `python csrc/build_cffi.py`")
