"""The ``build`` block of every report: which code produced it.

Kept apart from :mod:`harness.selftest` so that writing a JSON report
(:func:`harness.commands._generator.provenance_block`) imports no more than
it reads: the loaded core's stamp, the kernels' stamp and a few C calls,
never the self-test's vectors and health tests.
"""
from __future__ import annotations

import os

import rngcore
from rngcore import lib
from rngcore.engines.chacha20 import active_path


def build_info() -> dict:
    """What code is under test: version, the layers' C source hashes, dispatched path.

    ``core_sha256`` names the certified RNG (``csrc/core/``) alone;
    ``kernels_sha256`` the game and slot kernels (``csrc/kernels/``).
    """
    from harness import kernels  # (its import checks the kernels' build against the core)

    return {
        "version": rngcore.BUILD_INFO.version,
        "core_sha256": rngcore.BUILD_INFO.sha256,
        "kernels_sha256": kernels.BUILD_INFO.sha256,
        "keystream_path": active_path(),
        # Bulk shuffles of 16+ rows run their index chains on the vector unit
        # when the AVX2 path is selected; the output is the same either way.
        "bulk_shuffle_kernel": "avx2-groups" if lib.rng_shuffle_uses_groups(416, 16) else "scalar",
        "cpu_has_avx2": bool(lib.rng_cpu_has_avx2()),
        "force_portable_env": os.environ.get("RNGCERT_FORCE_PORTABLE"),
    }
