"""The ChaCha20 engine's known-answer tests (run by ``rngcert selftest``).

1. Known answers: all ten RFC 8439 ChaCha20 vectors, on every keystream code
   path the build has (portable C, and AVX2 when the CPU has it), plus the
   replay generator itself wherever a vector lies on a replay stream; then
   the engine's own power-on self-test, re-run, after checking that the
   table it embeds in C is the same file.
2. Stability pin: SHA-256 of the first MiB of a fixed replay stream, so any
   change of output (a refactor, a compiler, a platform) is caught.  The pin
   equals OpenSSL's ChaCha20 keystream for the same key and IV.

The vectors ship inside the package (``rngcore/data/``), so an installed
rngcert can test itself without the source tree.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import pathlib
from importlib import resources
from typing import Callable, Iterator

import numpy as np

from rngcore._native import ffi, lib
from rngcore.engine import Check, known_answer_seeds
from rngcore.engines import engine_class
from rngcore.errors import raise_for_status

VECTORS_FILE = "chacha20_rfc8439.txt"
VECTOR_FIELDS = ("COUNT", "KEY", "NONCE", "COUNTER", "PLAINTEXT", "CIPHERTEXT")
EXPECTED_VECTORS = 10

PIN_SEED = bytes(range(32))
PIN_STREAM = 0x0123456789ABCDEF
PIN_BYTES = 1 << 20
PIN_SHA256 = "da4b17cf7b5f8d93b95e4443a2ddd033ad21775d498bfd89e9abeb51532faa73"

BLOCK = 64


@dataclasses.dataclass(frozen=True)
class Vector:
    """One RFC 8439 record; ``source`` names the RFC section it came from."""

    count: int
    key: bytes
    nonce: bytes
    counter: int
    plaintext: bytes
    ciphertext: bytes
    source: str

    @property
    def engine_counter(self) -> int:
        """The 64-bit block counter (state words 12-13) of our layout.

        RFC 8439's nonce word 0 is state word 13, the high half of our
        counter; its words 1-2 are our stream id."""
        return self.counter | int.from_bytes(self.nonce[:4], "little") << 32

    @property
    def engine_stream(self) -> int:
        """The 64-bit stream id (state words 14-15)."""
        return int.from_bytes(self.nonce[4:], "little")


def parse_vectors(text: str, origin: str) -> list[Vector]:
    """Parse the RFC 8439 vector file format; ValueError naming the record.

    Records are blank-line separated ``NAME = value`` lines; a ``#`` comment
    directly above a record names its RFC section.
    """
    vectors = []
    for number, block in enumerate(text.split("\n\n"), start=1):
        fields: dict[str, str] = {}
        source = ""
        for line in block.strip().splitlines():
            if line.startswith("#"):
                source = line.lstrip("# ").strip()
            elif "=" in line:
                name, value = (part.strip() for part in line.split("=", 1))
                fields[name] = value
        if not fields:
            continue
        missing = [f for f in VECTOR_FIELDS if f not in fields]
        if missing:
            raise ValueError(f"{origin}: record {number} lacks {', '.join(missing)}")
        try:
            vector = Vector(
                count=int(fields["COUNT"]),
                key=bytes.fromhex(fields["KEY"]),
                nonce=bytes.fromhex(fields["NONCE"]),
                counter=int(fields["COUNTER"]),
                plaintext=bytes.fromhex(fields["PLAINTEXT"]),
                ciphertext=bytes.fromhex(fields["CIPHERTEXT"]),
                source=source,
            )
        except ValueError as exc:
            raise ValueError(f"{origin}: record {number} (COUNT = {fields['COUNT']}): {exc}") from None
        if len(vector.key) != 32 or len(vector.nonce) != 12 or len(vector.plaintext) != len(vector.ciphertext):
            raise ValueError(f"{origin}: record COUNT = {vector.count} has bad field lengths")
        vectors.append(vector)
    return vectors


def load_vectors(path: str | os.PathLike | None = None) -> list[Vector]:
    """The RFC 8439 vectors; raises if the file is absent or short.

    Parameters
    ----------
    path : path-like, optional
        The vector file to read; default: the copy shipped in ``rngcore/data``
        (the tests read their provenance copy, ``tests/vectors/``, through here).

    Raises
    ------
    FileNotFoundError
        If the file is missing.
    ValueError
        If a record is malformed or the file does not hold all
        ``EXPECTED_VECTORS`` records.
    """
    if path is None:
        resource, where = resources.files("rngcore") / "data" / VECTORS_FILE, "from the package"
    else:
        resource, where = pathlib.Path(path), "at"
    try:
        text = resource.read_text(encoding="ascii")
    except FileNotFoundError:
        raise FileNotFoundError(f"RFC 8439 vectors missing {where}: {resource}") from None
    vectors = parse_vectors(text, str(resource))
    if len(vectors) != EXPECTED_VECTORS:
        raise ValueError(f"{resource}: expected {EXPECTED_VECTORS} vectors, found {len(vectors)}")
    return vectors


# --- keystream code paths -----------------------------------------------------

BlockFunction = Callable[[tuple, int, int, object, int], None]


def code_paths() -> dict[str, BlockFunction]:
    """Every keystream implementation in this build that this CPU can run.

    Each maps ``(key words, counter, stream, out, nblocks)`` to keystream and
    returns a status or None; ``"dispatch"`` is the function the engine calls
    (the fastest available, AVX-512 then AVX2, unless ``RNGCERT_FORCE_PORTABLE=1``).
    """
    paths: dict[str, BlockFunction] = {
        "portable": lib.rng_chacha20_blocks_portable,
        "dispatch": lib.rng_chacha20_blocks,
    }
    if lib.rng_cpu_has_avx2():
        paths["avx2"] = lib.rng_chacha20_blocks_avx2
    if lib.rng_cpu_has_avx512():
        paths["avx512"] = lib.rng_chacha20_blocks_avx512
    return paths


def _path_keystream(function: BlockFunction, key: bytes, counter: int, stream: int, nbytes: int) -> bytes:
    """The first ``nbytes`` of keystream from ``counter`` on one code path."""
    nblocks = -(-nbytes // BLOCK)
    out = ffi.new("uint8_t[]", BLOCK * nblocks)
    words = ffi.new("uint32_t[8]", [int.from_bytes(key[4 * i:4 * i + 4], "little") for i in range(8)])
    status = function(words, counter, stream, out, nblocks)
    if status is not None:  # a vector path says when this CPU or build has none
        raise_for_status(status, "ChaCha20 keystream path",
                         details={lib.RNG_E_ARGUMENT: "not available on this CPU or build"})
    return ffi.buffer(out)[:nbytes]


def _keystream(function: BlockFunction, vector: Vector) -> bytes:
    return _path_keystream(function, vector.key, vector.engine_counter, vector.engine_stream,
                           len(vector.plaintext))


def _xor(a: bytes, b: bytes) -> bytes:
    return (np.frombuffer(a, np.uint8) ^ np.frombuffer(b, np.uint8)).tobytes()


def _replay_output(key: bytes, stream: int, position: int, nbytes: int) -> bytes:
    """``nbytes`` of the registered ChaCha20 engine's replay output from
    ``position`` (the engine is looked up, not imported, so the engine and
    its known answers do not import each other)."""
    with known_answer_seeds():  # published vectors use trivial keys on purpose
        engine = engine_class("chacha20")(key, stream)
    if position:
        engine.seek(position)
    out = bytearray(nbytes)
    engine.fill_pointer(ffi.from_buffer(out), nbytes, "known answers")
    return bytes(out)


def check_vectors(vectors: list[Vector]) -> Iterator[Check]:
    """Every vector on every code path, then through the replay generator."""
    for path, function in code_paths().items():
        failed = [v.count for v in vectors if _xor(v.plaintext, _keystream(function, v)) != v.ciphertext]
        yield Check(
            f"rfc8439-{path}",
            not failed,
            f"{len(vectors) - len(failed)}/{len(vectors)} vectors pass"
            + (f"; failing COUNT {failed}" if failed else ""),
        )
    # A vector whose counter's high word is 0 lies on a replay stream: skip
    # `counter` blocks from the start and the generator must give its keystream.
    on_stream = [v for v in vectors if v.engine_counter < 2**32]
    failed = []
    for v in on_stream:
        if _xor(v.plaintext, _replay_output(v.key, v.engine_stream, BLOCK * v.engine_counter,
                                            len(v.plaintext))) != v.ciphertext:
            failed.append(v.count)
    yield Check(
        "rfc8439-replay-generator",
        bool(on_stream) and not failed,
        f"{len(on_stream) - len(failed)}/{len(on_stream)} vectors on a replay stream pass"
        + (f"; failing COUNT {failed}" if failed else ""),
    )


def check_power_on(vectors: list[Vector]) -> Check:
    """Re-run the engine's power-on self-test, after confirming the table it
    embeds in C is the packaged RFC 8439 file, record for record."""
    fields = (("key", lib.RNG_KAT_KEY), ("nonce", lib.RNG_KAT_NONCE),
              ("plaintext", lib.RNG_KAT_PLAINTEXT), ("ciphertext", lib.RNG_KAT_CIPHERTEXT))
    differ = []
    if lib.rng_chacha_kat_count() != len(vectors):
        differ.append(f"{lib.rng_chacha_kat_count()} embedded vectors, {len(vectors)} in the file")
    for i, v in enumerate(vectors[: lib.rng_chacha_kat_count()]):
        for name, field in fields:
            embedded = ffi.string(lib.rng_chacha_kat_field(i, field)).decode()
            if bytes.fromhex(embedded) != getattr(v, name):
                differ.append(f"COUNT {v.count} {name}")
        if lib.rng_chacha_kat_counter(i) != v.counter:
            differ.append(f"COUNT {v.count} counter")
    if differ:
        return Check("power-on-selftest", False, "embedded vectors differ from the RFC file: " + ", ".join(differ))
    passed = lib.rng_chacha_selftest_run() == lib.RNG_OK
    return Check("power-on-selftest", passed,
                 "engine's embedded RFC 8439 table (equal to the file) on every path: "
                 + ("pass" if passed else "FAILED; every generator now refuses output"))


def check_stability_pin() -> Check:
    """SHA-256 of the first MiB of the pinned replay stream, from the replay
    generator and from every keystream path directly."""
    replay = _replay_output(PIN_SEED, PIN_STREAM, 0, PIN_BYTES)
    digests = {"generator": hashlib.sha256(replay).hexdigest()}
    for path, function in code_paths().items():
        keystream = _path_keystream(function, PIN_SEED, 0, PIN_STREAM, PIN_BYTES)
        digests[path] = hashlib.sha256(keystream).hexdigest()
    wrong = {name: digest for name, digest in digests.items() if digest != PIN_SHA256}
    detail = (f"first MiB of seed {PIN_SEED.hex()} stream {PIN_STREAM:#x} "
              f"({', '.join(digests)}): SHA-256 {PIN_SHA256}")
    if wrong:
        detail = (f"first MiB of seed {PIN_SEED.hex()} stream {PIN_STREAM:#x} should hash to {PIN_SHA256}; "
                  + "; ".join(f"{name} gives {digest}" for name, digest in wrong.items()))
    return Check("stability-pin", not wrong, detail)




def known_answers() -> list[Check]:
    """Every check above, in order; a check that raises counts as failed."""
    checks: list[Check] = []
    try:
        vectors = load_vectors()
        checks.extend(check_vectors(vectors))
        checks.append(check_power_on(vectors))
    except Exception as exc:  # a broken install must report, not crash
        checks.append(Check("rfc8439", False, f"{type(exc).__name__}: {exc}"))
    try:
        checks.append(check_stability_pin())
    except Exception as exc:
        checks.append(Check("stability-pin", False, f"{type(exc).__name__}: {exc}"))
    return checks
