"""Known answers of the SP 800-90A engines (run by ``rngcert selftest``).

1. NIST CAVP (CAVS 14.3) DRBG vectors: 720 HMAC_DRBG SHA-256 cases and
   1,440 CTR_DRBG AES-256 cases (derivation function on and off), each in
   three procedures (no reseed; prediction resistance false, with an
   explicit reseed; prediction resistance true, a reseed with fresh entropy
   before each generate), run on the C mechanism itself on every code path
   of its primitive the CPU has (SHA-256: portable, SHA-NI; AES: portable,
   AES-NI, VAES).
2. SP 800-38A F.5.1/F.5.3/F.5.5 AES-CTR (AES-128/192/256) on every AES path.
3. The engines' own power-on self-test, re-run.
4. A stability pin per engine: the SHA-256 of the first MiB of its replay
   stream for a fixed seed, on every code path of its primitive.

The vector files ship inside the package (``rngcore/data/``, copies of
``tests/vectors/`` with their provenance headers), so an installed rngcert
can test itself.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import pathlib
from importlib import resources
from typing import Iterator

from rngcore._native import ffi, lib
from rngcore.engine import Check

__all__ = ["AesVector", "CavpCase", "EXPECTED_CASES", "PIN_BYTES", "PIN_SEED", "PIN_SHA256", "aes_paths", "aes_path",
           "check_aes_ctr", "check_cavp", "check_power_on", "check_stability_pin", "code_path", "code_paths",
           "known_answers", "load_aes_ctr", "load_cavp", "run_case"]

PROCEDURES = ("no_reseed", "pr_false", "pr_true")
FILES = {"hmac": "HMAC_DRBG_SHA256_{}.rsp", "ctr": "CTR_DRBG_AES256_{}.rsp"}
SECTIONS = {"[SHA-256]": "hmac", "[AES-256 use df]": "ctr-df", "[AES-256 no df]": "ctr-nodf"}
EXPECTED_CASES = {"hmac": 720, "ctr-df": 720, "ctr-nodf": 720}
AES_VECTORS_FILE = "aes_ctr_sp800_38a.txt"
EXPECTED_AES_VECTORS = 3

# SHA-256 of the first MiB of each engine's replay stream for seed PIN_SEED (entropy input ||
# nonce; the 48-byte entropy input without the df) and no personalization string: the Python
# SP 800-90A reference's stream (harness/benchcases/_drbg_reference.py), recomputed from it by
# tests/test_drbg.py.  The bench cases check their replay runs against these too.
PIN_SEED = bytes(range(0x40, 0x70))
PIN_BYTES = 1 << 20
PIN_SHA256 = {
    "ctr-drbg-aes256": "a85614556fc2e8cbf2d425bdaaa63d7e807961e750178d9e07c9854606a74f94",
    "ctr-drbg-aes256-nodf": "4e53ab3a0b6ba5fd3de7be6fb5b015bb5c0449da33a62f0dd4294fcbf934aadd",
    "hmac-drbg-sha256": "1cf9697e67f9c4d65a3c8686776c4c369bec52dbd5a453dbdcec9b3808a3eba2",
}


@dataclasses.dataclass(frozen=True)
class CavpCase:
    """One CAVP record, with where it came from (file, section, COUNT)."""

    mechanism: str          # "hmac", "ctr-df" or "ctr-nodf"
    procedure: str          # "no_reseed", "pr_false" or "pr_true"
    origin: str             # file and section header line number
    count: int
    entropy: bytes
    nonce: bytes
    personalization: bytes
    additional: tuple[bytes, bytes]
    entropy_reseed: bytes = b""
    additional_reseed: bytes = b""
    entropy_pr: tuple[bytes, ...] = ()
    returned: bytes = b""


def parse_cavp(text: str, origin: str, procedure: str) -> list[CavpCase]:
    """The records of one CAVS ``.rsp`` file; ValueError naming the record."""
    cases: list[CavpCase] = []
    mechanism = None
    section_line = 0
    record: dict[str, list[str]] = {}
    line_of_record = 0

    def finish():
        if not record:
            return
        where = f"{origin}:{line_of_record}"
        try:
            fields = {key: [bytes.fromhex(v) for v in values] for key, values in record.items() if key != "COUNT"}
            pr = procedure == "pr_true"
            case = CavpCase(
                mechanism=mechanism, procedure=procedure, origin=f"{origin}:{section_line}",
                count=int(record["COUNT"][0]),
                entropy=fields["EntropyInput"][0], nonce=fields["Nonce"][0],
                personalization=fields["PersonalizationString"][0],
                additional=tuple(fields["AdditionalInput"]),
                entropy_reseed=fields.get("EntropyInputReseed", [b""])[0],
                additional_reseed=fields.get("AdditionalInputReseed", [b""])[0],
                entropy_pr=tuple(fields["EntropyInputPR"]) if pr else (),
                returned=fields["ReturnedBits"][0],
            )
        except (KeyError, ValueError, IndexError) as exc:
            raise ValueError(f"{where}: malformed record ({type(exc).__name__}: {exc})") from None
        if mechanism is None or len(case.additional) != 2 or (pr and len(case.entropy_pr) != 2):
            raise ValueError(f"{where}: record outside a known section or with missing fields")
        cases.append(case)
        record.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            finish()
            if line in SECTIONS:
                mechanism, section_line = SECTIONS[line], number
            elif "=" not in line:
                mechanism = None  # a section of a mechanism we do not have
            continue
        if "=" not in line:
            raise ValueError(f"{origin}:{number}: expected 'Name = value', got {line[:60]!r}")
        name, value = (part.strip() for part in line.split("=", 1))
        if name == "COUNT":
            finish()
            line_of_record = number
        record.setdefault(name, []).append(value)
    finish()
    return cases


@functools.lru_cache(maxsize=2 * len(PROCEDURES) * len(FILES))
def _parsed(text: str, origin: str, procedure: str) -> tuple[CavpCase, ...]:
    """:func:`parse_cavp`, remembered by the file's text: every DRBG engine's self-test
    reads all the files, and parsing them is most of a load (the text is read each time,
    so a changed file is parsed again)."""
    return tuple(parse_cavp(text, origin, procedure))


def _resource(name: str, directory):
    if directory is None:
        return resources.files("rngcore") / "data" / name, "from the package"
    return pathlib.Path(directory) / name, "at"


def load_cavp(directory: str | os.PathLike | None = None) -> list[CavpCase]:
    """Every CAVP case; raises if a file is missing or a count is short.

    Parameters
    ----------
    directory : path-like, optional
        Where the ``.rsp`` files are; default: the copies shipped in
        ``rngcore/data`` (the tests read ``tests/vectors/`` through here).
    """
    cases: list[CavpCase] = []
    for procedure in PROCEDURES:
        for pattern in FILES.values():
            resource, where = _resource(pattern.format(procedure), directory)
            try:
                text = resource.read_text(encoding="ascii")
            except FileNotFoundError:
                raise FileNotFoundError(f"CAVP DRBG vectors missing {where}: {resource}") from None
            cases.extend(_parsed(text, str(resource), procedure))
    counts = {m: sum(c.mechanism == m for c in cases) for m in EXPECTED_CASES}
    if counts != EXPECTED_CASES:
        raise ValueError(f"CAVP DRBG vectors: expected {EXPECTED_CASES} cases, found {counts}")
    return cases


# --- running a case on the C mechanism -----------------------------------------------


def _buf(data: bytes):
    return ffi.from_buffer(data) if data else ffi.NULL


def _ok(status: int, step: str) -> None:
    if status != lib.RNG_OK:
        raise RuntimeError(f"{step} returned status {status}")


def run_case(case: CavpCase) -> bytes:
    """The second generate's output for ``case``, by the CAVP procedure."""
    n = len(case.returned)
    out = ffi.new("uint8_t[]", n)
    if case.mechanism == "hmac":
        state = ffi.new("rng_hmac_drbg *")
        instantiate = functools.partial(lib.rng_hmac_drbg_instantiate, state)
        reseed = functools.partial(lib.rng_hmac_drbg_reseed, state)
        generate = functools.partial(lib.rng_hmac_drbg_generate, state)
    else:
        state = ffi.new("rng_ctr_drbg *")
        instantiate = functools.partial(lib.rng_ctr_drbg_instantiate, state, int(case.mechanism == "ctr-df"))
        reseed = functools.partial(lib.rng_ctr_drbg_reseed, state)
        generate = functools.partial(lib.rng_ctr_drbg_generate, state)
    _ok(instantiate(_buf(case.entropy), len(case.entropy), _buf(case.nonce), len(case.nonce),
                    _buf(case.personalization), len(case.personalization)), "instantiate")
    if case.procedure == "pr_false":
        _ok(reseed(_buf(case.entropy_reseed), len(case.entropy_reseed),
                   _buf(case.additional_reseed), len(case.additional_reseed)), "reseed")
    for i in range(2):
        if case.procedure == "pr_true":
            # Prediction resistance: reseed with fresh entropy and the
            # caller's additional input, then generate with none.
            _ok(reseed(_buf(case.entropy_pr[i]), len(case.entropy_pr[i]),
                       _buf(case.additional[i]), len(case.additional[i])), "reseed")
            _ok(generate(out, n, ffi.NULL, 0), "generate")
        else:
            _ok(generate(out, n, _buf(case.additional[i]), len(case.additional[i])), "generate")
    return bytes(ffi.buffer(out))


# --- AES code paths ------------------------------------------------------------------


_PATHS = {
    # kind: (get, set, {path name: impl, ...}, CPU test of each path)
    "aes": (lambda: lib.rng_aes_get_impl(), lambda impl: lib.rng_aes_set_impl(impl),
            {"portable": lib.RNG_AES_IMPL_PORTABLE, "aesni": lib.RNG_AES_IMPL_AESNI, "vaes": lib.RNG_AES_IMPL_VAES},
            {"portable": lambda: True, "aesni": lambda: lib.rng_cpu_has_aesni(), "vaes": lambda: lib.rng_cpu_has_vaes()}),
    "sha": (lambda: lib.rng_sha256_get_impl(), lambda impl: lib.rng_sha256_set_impl(impl),
            {"portable": lib.RNG_SHA_IMPL_PORTABLE, "shani": lib.RNG_SHA_IMPL_SHANI},
            {"portable": lambda: True, "shani": lambda: lib.rng_cpu_has_shani()}),
}


def code_paths(kind: str) -> list[str]:
    """Every path of ``kind`` ("aes" or "sha") this build and CPU can run."""
    return [name for name, available in _PATHS[kind][3].items() if available()]


@contextlib.contextmanager
def code_path(kind: str, path: str):
    """Select path ``path`` of ``kind`` (e.g. "aes", "vaes") inside the block."""
    get, select, impls, _ = _PATHS[kind]
    previous = get()
    _ok(select(impls[path]), f"selecting the {path} {kind} path")
    try:
        yield
    finally:
        select(previous)


def aes_paths() -> list[str]:
    """Every AES path this build and CPU can run ("portable", "aesni", "vaes")."""
    return code_paths("aes")


def aes_path(path: str):
    """Select AES path ``path`` inside the block."""
    return code_path("aes", path)


def _kind(mechanism: str) -> str:
    return "sha" if mechanism == "hmac" else "aes"


@dataclasses.dataclass(frozen=True)
class AesVector:
    """One SP 800-38A CTR record."""

    count: int
    key: bytes
    counter: bytes
    plaintext: bytes
    keystream: bytes
    ciphertext: bytes


def load_aes_ctr(directory: str | os.PathLike | None = None) -> list[AesVector]:
    """The SP 800-38A AES-CTR records; raises if missing or short."""
    resource, where = _resource(AES_VECTORS_FILE, directory)
    try:
        text = resource.read_text(encoding="ascii")
    except FileNotFoundError:
        raise FileNotFoundError(f"SP 800-38A vectors missing {where}: {resource}") from None
    vectors = []
    for block in text.split("\n\n"):
        fields = dict((p.strip() for p in line.split("=", 1)) for line in block.splitlines()
                      if "=" in line and not line.startswith("#"))
        if not fields:
            continue
        try:
            vectors.append(AesVector(int(fields["COUNT"]), bytes.fromhex(fields["KEY"]),
                                     bytes.fromhex(fields["INITIAL_COUNTER"]), bytes.fromhex(fields["PLAINTEXT"]),
                                     bytes.fromhex(fields["KEYSTREAM"]), bytes.fromhex(fields["CIPHERTEXT"])))
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{resource}: malformed record ({exc})") from None
    if len(vectors) != EXPECTED_AES_VECTORS:
        raise ValueError(f"{resource}: expected {EXPECTED_AES_VECTORS} vectors, found {len(vectors)}")
    return vectors


def aes_ctr_keystream(key: bytes, counter: bytes, nbytes: int) -> bytes:
    """AES-CTR keystream on the selected path (whole blocks, cut to ``nbytes``)."""
    nblocks = -(-nbytes // 16)
    out = ffi.new("uint8_t[]", 16 * nblocks)
    _ok(lib.rng_aes_ctr(key, len(key), counter, out, nblocks), "rng_aes_ctr")
    return bytes(ffi.buffer(out))[:nbytes]


def check_aes_ctr(vectors: list[AesVector]) -> Iterator[Check]:
    """Every SP 800-38A vector on every AES path."""
    for path in aes_paths():
        with aes_path(path):
            failed = [v.count for v in vectors
                      if aes_ctr_keystream(v.key, v.counter, len(v.keystream)) != v.keystream
                      or bytes(a ^ b for a, b in zip(v.plaintext, v.keystream)) != v.ciphertext]
        yield Check(f"sp800-38a-aes-ctr-{path}", not failed,
                    f"{len(vectors) - len(failed)}/{len(vectors)} vectors pass"
                    + (f"; failing COUNT {failed}" if failed else ""))


def check_cavp(cases: list[CavpCase], mechanisms: tuple[str, ...]) -> Iterator[Check]:
    """The cases of ``mechanisms`` (all of one kind), on every path of their
    primitive: SHA-256 for HMAC_DRBG, AES for CTR_DRBG."""
    chosen = [c for c in cases if c.mechanism in mechanisms]
    kind = _kind(mechanisms[0])
    for path in code_paths(kind):
        with code_path(kind, path):
            failed = [f"{c.origin} COUNT {c.count}" for c in chosen if run_case(c) != c.returned]
        yield Check(f"cavp-{'+'.join(mechanisms)}-{path}", bool(chosen) and not failed,
                    f"{len(chosen) - len(failed)}/{len(chosen)} CAVP cases pass"
                    + (f"; failing {failed[:5]}" if failed else ""))


def check_power_on() -> Check:
    """Re-run the DRBG engines' power-on self-test (one CAVP case per
    mechanism and SP 800-38A AES-256 on every AES path)."""
    passed = lib.rng_drbg_selftest_run() == lib.RNG_OK
    return Check("power-on-selftest", passed,
                 "power-on self-test, embedded CAVP answers (one per DRBG mechanism) and SP 800-38A AES-256 "
                 "on every AES and SHA-256 path: " + ("pass" if passed else "FAILED; every DRBG engine now refuses output"))


def check_stability_pin(engine) -> Check:
    """The first MiB of ``engine``'s (a DRBG engine class) pinned replay stream hashes to its
    pin, on every path of its primitive (AES for CTR_DRBG, SHA-256 for HMAC_DRBG)."""
    kind = _kind(engine.kat_mechanisms[0])
    expected = PIN_SHA256[engine.name]
    digests = {}
    for path in code_paths(kind):
        with code_path(kind, path):
            out = bytearray(PIN_BYTES)
            engine(PIN_SEED).fill_pointer(ffi.from_buffer(out), PIN_BYTES, "known answers")
            digests[path] = hashlib.sha256(out).hexdigest()
    wrong = {path: digest for path, digest in digests.items() if digest != expected}
    detail = f"first MiB of seed {PIN_SEED.hex()} ({', '.join(digests)} {kind} paths): SHA-256 {expected}"
    if wrong:
        detail = (f"first MiB of seed {PIN_SEED.hex()} should hash to {expected}; "
                  + "; ".join(f"{path} gives {digest}" for path, digest in wrong.items()))
    return Check("stability-pin", not wrong, detail)


def known_answers(engine) -> list[Check]:
    """The checks for one engine (a DRBG engine class); a check that raises counts as failed."""
    mechanisms = engine.kat_mechanisms
    checks: list[Check] = []
    try:
        checks.extend(check_cavp(load_cavp(), mechanisms))
    except Exception as exc:  # a broken install must report, not crash
        checks.append(Check("cavp", False, f"{type(exc).__name__}: {exc}"))
    if any(m.startswith("ctr") for m in mechanisms):
        try:
            checks.extend(check_aes_ctr(load_aes_ctr()))
        except Exception as exc:
            checks.append(Check("sp800-38a-aes-ctr", False, f"{type(exc).__name__}: {exc}"))
    checks.append(check_power_on())
    try:
        checks.append(check_stability_pin(engine))
    except Exception as exc:
        checks.append(Check("stability-pin", False, f"{type(exc).__name__}: {exc}"))
    return checks
