"""The continuous output test's cost (``csrc/core/continuous.h``): the same
bounded draws with the test on and off, in the same run.  Production mode
runs the test on every batch and replay mode never does, so for each
engine the production draws (test on) are timed against the replay draws
(test off).  For CTR_DRBG and HMAC_DRBG the two modes generate output by the
same code path (one Generate request per 4 KiB), so the ratio is the test's
cost alone; ChaCha20's production mode also makes a fresh key per batch
(fast key erasure), so its ratio bounds the test's cost from above."""
from __future__ import annotations

import numpy as np

from harness.benchcases._base import BenchCase

INTEGERS = 10**6
SEED = bytes(range(0x40, 0x70))


def _setup(engine: str, replay: bool):
    def setup():
        import rngcore
        from rngcore.engines import engine_class

        cls = engine_class(engine)
        g = rngcore.Generator(cls(SEED[:cls.seed_bytes]) if replay else cls())
        return lambda: g.integers(0, 37, INTEGERS)
    return setup


def _check(result) -> None:
    counts = np.bincount(np.asarray(result), minlength=37)
    assert counts.size == 37 and counts.min() > 0.8 * INTEGERS / 37


CASES = []
# The test's cost stays under a tenth of the draws' (for ChaCha20 the ratio also holds the rekeying
# and the buffered copy, and still meets it).
for _short, _engine, _target in (("chacha20", "chacha20", ">= 0.9x test-off-replay"),
                                 ("ctr-drbg", "ctr-drbg-aes256", ">= 0.9x test-off-replay"),
                                 ("hmac-drbg", "hmac-drbg-sha256", ">= 0.9x test-off-replay")):
    CASES += [
        BenchCase(f"continuous-{_short}-integers-37", "test-on-production", _setup(_engine, False), INTEGERS,
                  "values", target=_target, check=_check),
        BenchCase(f"continuous-{_short}-integers-37", "test-off-replay", _setup(_engine, True), INTEGERS,
                  "values", baseline=True, check=_check),
    ]
