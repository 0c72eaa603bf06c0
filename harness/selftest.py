"""The checks behind ``rngcert selftest``: is this build's generator sound?

For every engine in the registry (:mod:`rngcore.engines`):

1. its known-answer tests, as the engine declares them
   (:meth:`rngcore.engine.BitSource.known_answers`; for ChaCha20 the RFC 8439
   vectors on every keystream path, the power-on self-test and the stability
   pin, :mod:`rngcore.engines._chacha20_kat`);
2. a continuous test over a production-mode run (FIPS 140-style repetition
   test): the engine's own, no 32-byte block equal to either of the two
   before it, and this module's, no two consecutive 64-byte blocks equal;
3. for an engine with a production mode, the SP 800-90B health tests on
   the OS entropy it takes (:func:`rngcore.health.known_answers`).
"""
from __future__ import annotations

import numpy as np

import rngcore
from rngcore import health
from rngcore.engine import Check
from rngcore.engines import engines
from rngcore.engines.chacha20 import active_path  # noqa: F401  (re-exported)
from harness.build import build_info  # noqa: F401  (re-exported: the self-test's first line names the build)
# The ChaCha20 checks, under the names callers have always used.
from rngcore.engines._chacha20_kat import (  # noqa: F401  (re-exported)
    BLOCK, EXPECTED_VECTORS, PIN_BYTES, PIN_SEED, PIN_SHA256, PIN_STREAM, VECTOR_FIELDS, VECTORS_FILE,
    Vector, check_power_on, check_stability_pin, check_vectors, code_paths, load_vectors,
    parse_vectors,
)

CONTINUOUS_MIB = 16


def repeated_block(previous: bytes | None, chunk: bytes) -> int | None:
    """Index of the first 64-byte block of ``chunk`` equal to the block before
    it (``previous`` is the last block of the previous chunk); None if none."""
    blocks = np.frombuffer(chunk, np.uint64).reshape(-1, BLOCK // 8)
    if previous is not None and bytes(blocks[0]) == previous:
        return 0
    same = np.flatnonzero((blocks[1:] == blocks[:-1]).all(axis=1))
    return int(same[0]) + 1 if same.size else None


def check_continuous(mib: int = CONTINUOUS_MIB, generator=None) -> Check:
    """``mib`` MiB of output pass the engine's continuous test and have no two consecutive 64-byte blocks equal.

    Notes
    -----
    This is not the engines' own continuous test (``csrc/core/continuous.h``),
    and both are kept.  That one runs in C on every production batch, before
    any byte of it can be read, and compares each 32-byte block with the two
    before it: it stops a stuck engine in service, a repeated 64-byte
    keystream block (a stuck block counter) included.  This one runs at
    ``rngcert selftest`` on what the public API hands out and compares 64-byte
    blocks, ChaCha20's own unit, across every batch boundary too, where the C
    test compares through fingerprints of the previous batch's last two
    blocks (``tests/test_core_cli.py::test_a_64_byte_repeat_is_caught_in_c_and_by_the_selftest``).
    """
    generator = rngcore.Generator() if generator is None else generator
    buf = bytearray(1 << 20)
    previous = None
    for chunk_index in range(mib):
        try:
            generator.fill(buf)
        except rngcore.ContinuousTestError as exc:  # the engine's own test stopped it first
            return Check("continuous", False, f"the engine's continuous test stopped it: {exc}")
        hit = repeated_block(previous, bytes(buf))
        if hit is not None:
            offset = chunk_index * len(buf) + hit * BLOCK
            return Check("continuous", False, f"64-byte block at byte offset {offset} repeats the one before it")
        previous = bytes(buf[-BLOCK:])
    return Check("continuous", True, f"{mib} MiB of production output: no 32-byte block equal to either of the "
                 "two before it (the engine's test), no 64-byte block equal to the one before it")


def engine_checks(engine) -> list[Check]:
    """One engine's checks: its known answers, then the continuous test on
    a production-mode instance (if it has a production mode)."""
    checks: list[Check] = []
    try:
        checks.extend(engine.known_answers())
    except Exception as exc:  # a broken engine must report, not crash
        checks.append(Check("known-answers", False, f"{type(exc).__name__}: {exc}"))
    if engine.has_production:
        try:
            checks.append(check_continuous(generator=rngcore.Generator(engine())))
        except Exception as exc:
            checks.append(Check("continuous", False, f"{type(exc).__name__}: {exc}"))
        checks.extend(health.known_answers())  # the health tests on the OS entropy it took
    return checks


def run_selftest() -> dict[str, list[Check]]:
    """Every registered engine's checks, by engine name (default engine first)."""
    return {name: engine_checks(engine) for name, engine in engines().items()}
