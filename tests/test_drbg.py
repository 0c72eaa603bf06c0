"""The SP 800-90A engines (HMAC_DRBG SHA-256, CTR_DRBG AES-256 with and
without the df): CAVP and SP 800-38A known answers on every code path, the
replay contract against independent Python references, reseed limits,
production reseeding and prediction resistance, the self-test latch, and
drawing every device and game through ``--engine``."""
import hashlib
import filecmp
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.benchcases import drbg as drbg_bench
from harness.benchcases._drbg_reference import CtrDrbgReference, HmacDrbgReference, reference_stream
from harness.cli import main
from rngcore import ffi, lib
from rngcore.engines import _drbg_kat as kat
from rngcore.engines import engines
from rngcore.engines.ctr_drbg import CtrDrbg, CtrDrbgNoDf
from rngcore.engines.hmac_drbg import HmacDrbg
from rngcore.errors import EntropyError, ExhaustedError, SelfTestError
from rngcore.testing import entropy_failure, selftest_failure

VECTORS = pathlib.Path(__file__).parent / "vectors"
DRBGS = (HmacDrbg, CtrDrbg, CtrDrbgNoDf)
SEED = bytes(range(0x40, 0x70))  # 48 bytes
SEED_HEX = SEED.hex()
CASES = kat.load_cavp(VECTORS)


def _paths(mechanism):
    return kat.code_paths("sha" if mechanism == "hmac" else "aes")


# --- known answers ------------------------------------------------------------------------

def test_the_vector_files_hold_every_case_and_the_package_copies_equal_them():
    assert len(CASES) == 2160
    assert {m: sum(c.mechanism == m for c in CASES) for m in kat.EXPECTED_CASES} == kat.EXPECTED_CASES
    assert {(c.mechanism, c.procedure) for c in CASES} == {
        (m, p) for m in kat.EXPECTED_CASES for p in kat.PROCEDURES}
    data = pathlib.Path(rngcore.__file__).parent / "data"
    for name in [f.format(p) for f in kat.FILES.values() for p in kat.PROCEDURES] + [kat.AES_VECTORS_FILE]:
        assert filecmp.cmp(VECTORS / name, data / name, shallow=False), name
        assert (VECTORS / name).read_text().startswith("#"), name  # the provenance header


@pytest.mark.parametrize("mechanism, path", [(m, p) for m in kat.EXPECTED_CASES for p in _paths(m)])
def test_every_cavp_case_passes_on_every_path(mechanism, path):
    cases = [c for c in CASES if c.mechanism == mechanism]
    assert len(cases) == 720
    with kat.code_path("sha" if mechanism == "hmac" else "aes", path):
        failed = [(c.origin, c.count) for c in cases if kat.run_case(c) != c.returned]
    assert failed == []


def test_a_wrong_answer_is_caught():
    case = next(c for c in CASES if c.mechanism == "hmac")
    wrong = kat.CavpCase(**{**case.__dict__, "returned": bytes(len(case.returned))})
    checks = list(kat.check_cavp([wrong], ("hmac",)))
    assert len(checks) == len(kat.code_paths("sha"))
    assert all(not check.passed and "0/1" in check.detail for check in checks)


@pytest.mark.parametrize("path", kat.aes_paths())
def test_sp800_38a_aes_ctr_on_every_path(path):
    vectors = kat.load_aes_ctr(VECTORS)
    assert [len(v.key) for v in vectors] == [16, 24, 32]
    with kat.aes_path(path):
        for v in vectors:
            assert kat.aes_ctr_keystream(v.key, v.counter, 64) == v.keystream
            # and a longer run, across the counter's 64-bit carry, equals OpenSSL's
            assert kat.aes_ctr_keystream(v.key, b"\x00" * 8 + b"\xff" * 8, 16 * 37) == _openssl_ctr(
                v.key, b"\x00" * 8 + b"\xff" * 8, 16 * 37)


def test_the_aes_paths_agree_on_a_long_keystream():
    key = bytes(range(32))
    outputs = set()
    for path in kat.aes_paths():
        with kat.aes_path(path):
            outputs.add(kat.aes_ctr_keystream(key, b"\xff" * 16, 16 * 1001))  # wraps 2**128
    assert outputs == {_openssl_ctr(key, b"\xff" * 16, 16 * 1001)}


@pytest.mark.parametrize("path", kat.aes_paths())
def test_aes_ctr_equals_openssl_for_random_keys_and_counters(path):
    """Every key size, many keys (the key expansion) and nine blocks each, on every path."""
    draw = np.random.default_rng(20261203)
    with kat.aes_path(path):
        for key_len in (16, 24, 32):
            for _ in range(40):
                key, counter = draw.bytes(key_len), draw.bytes(16)
                assert kat.aes_ctr_keystream(key, counter, 16 * 9) == _openssl_ctr(key, counter, 16 * 9)


def _openssl_ctr(key, counter, n):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    return Cipher(algorithms.AES(key), modes.CTR(counter)).encryptor().update(bytes(n))


@pytest.mark.parametrize("path", kat.code_paths("sha"))
def test_sha256_on_every_path_equals_hashlib(path):
    import hashlib

    out = ffi.new("uint8_t[32]")
    with kat.code_path("sha", path):
        for n in (0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 65536 + 7):
            data = bytes((7 * i + n) & 0xFF for i in range(n))
            lib.rng_sha256(data, n, out)
            assert bytes(out) == hashlib.sha256(data).digest(), n


def test_the_references_pass_cavp_too():
    """The Python references are independent: they pass the same vectors."""
    for case in CASES[::37]:
        if case.mechanism == "hmac":
            ref = HmacDrbgReference(case.entropy, case.nonce, case.personalization)
        else:
            ref = CtrDrbgReference(case.entropy, case.nonce, case.personalization, df=case.mechanism == "ctr-df")
        if case.procedure == "pr_false":
            ref.reseed(case.entropy_reseed, case.additional_reseed)
        for i in range(2):
            if case.procedure == "pr_true":
                ref.reseed(case.entropy_pr[i], case.additional[i])
                out = ref.generate(len(case.returned))
            else:
                out = ref.generate(len(case.returned), case.additional[i])
        assert out == case.returned, (case.origin, case.count)


@pytest.mark.parametrize("path", kat.aes_paths())
def test_the_df_equals_the_reference_for_every_padding(path):
    """Block_Cipher_df runs its three BCC chains together: inputs of every length mod 16
    and of several blocks give the reference's output on every AES path."""
    entropy, nonce = bytes(range(32)), bytes(range(100, 116))
    for n in range(50):
        personalization = bytes((3 * i + n) & 0xFF for i in range(n))
        additional = (bytes((5 * i + 1) & 0xFF for i in range(7 * n % 61)), b"")
        case = kat.CavpCase("ctr-df", "no_reseed", "synthetic", n, entropy, nonce, personalization, additional,
                            returned=bytes(64))
        ref = CtrDrbgReference(entropy, nonce, personalization)
        ref.generate(64, additional[0])
        with kat.aes_path(path):
            assert kat.run_case(case) == ref.generate(64, additional[1]), n


def test_a_changed_vector_file_is_parsed_again(tmp_path):
    """The parsed vectors are remembered by the files' text, never by their names."""
    for name in [f.format(p) for f in kat.FILES.values() for p in kat.PROCEDURES]:
        (tmp_path / name).write_bytes((VECTORS / name).read_bytes())
    answers = [c.returned for c in CASES]
    assert [c.returned for c in kat.load_cavp(tmp_path)] == answers
    name = kat.FILES["hmac"].format("no_reseed")
    text = (VECTORS / name).read_text(encoding="ascii")
    first = text.index("ReturnedBits = ") + len("ReturnedBits = ")
    flipped = "1" if text[first] == "0" else "0"
    (tmp_path / name).write_text(text[:first] + flipped + text[first + 1:], encoding="ascii")
    changed = [(a, b) for a, b in zip(answers, (c.returned for c in kat.load_cavp(tmp_path))) if a != b]
    assert len(changed) == 1 and changed[0][0][1:] == changed[0][1][1:]


# --- the replay contract ---------------------------------------------------------------------

@pytest.mark.parametrize("cls", DRBGS)
@pytest.mark.parametrize("stream", [None, 5])
def test_replay_is_generate_requests_of_4096_bytes(cls, stream):
    personalization = b"" if stream is None else stream.to_bytes(8, "big")
    expected = reference_stream(cls.name, SEED, personalization, 3 * 4096 + 100)
    assert rngcore.Generator(cls(SEED, stream)).random_bytes(len(expected)) == expected
    # Any mix of reads reads the same stream.
    g = rngcore.Generator(cls(SEED_HEX, stream))
    first = g.random_bytes(3) + g.random_bytes(5000)
    words = [int(g.integers(0, 2**32, dtype=np.uint64)) for _ in range(3)]
    assert first == expected[:5003]
    assert words == [int.from_bytes(expected[5003 + 4 * i:5007 + 4 * i], "little") for i in range(3)]
    assert g.provenance().position == 5015


@pytest.mark.parametrize("cls", DRBGS)
def test_instantiate_takes_the_standards_inputs(cls):
    entropy, nonce = (SEED, b"") if cls is CtrDrbgNoDf else (SEED[:32], SEED[32:])
    engine = cls.instantiate(entropy, nonce, b"table 7")
    expected = reference_stream(cls.name, SEED, b"table 7", 4096)
    assert rngcore.Generator(engine).random_bytes(4096) == expected
    if cls is not CtrDrbgNoDf:  # longer inputs are allowed with the df / HMAC
        long = cls.instantiate(bytes(range(64)), bytes(range(32)), b"x" * 100)
        assert len(rngcore.Generator(long).random_bytes(10)) == 10
    with pytest.raises(ValueError, match=cls.name):
        cls.instantiate(bytes(range(16)), b"")


def test_replay_refuses_after_the_reseed_interval():
    engine = HmacDrbg(SEED, reseed_interval=2)
    g = rngcore.Generator(engine)
    g.random_bytes(2 * 4096)
    assert engine.reseed_counter == 3
    with pytest.raises(ExhaustedError, match="reseed is required"):
        g.random_bytes(1)
    with pytest.raises(ExhaustedError):  # latched
        g.random_bytes(1)
    with pytest.raises(ValueError, match="2\\*\\*48"):
        HmacDrbg(SEED, reseed_interval=2**48 + 1)
    assert HmacDrbg(SEED).provenance().parameters["reseed_interval"] == 2**48


@pytest.mark.parametrize("mechanism", ["hmac", "ctr"])
def test_the_mechanism_enforces_its_reseed_counter(mechanism):
    state = ffi.new(f"rng_{mechanism}_drbg *")
    args = ((state,) if mechanism == "hmac" else (state, 1))
    instantiate = getattr(lib, f"rng_{mechanism}_drbg_instantiate")
    generate = getattr(lib, f"rng_{mechanism}_drbg_generate")
    reseed = getattr(lib, f"rng_{mechanism}_drbg_reseed")
    assert instantiate(*args, SEED[:32], 32, SEED[32:], 16, ffi.NULL, 0) == lib.RNG_OK
    assert state.reseed_interval == 2**48
    state.reseed_interval = 3
    out = ffi.new("uint8_t[64]")
    assert [generate(state, out, 64, ffi.NULL, 0) for _ in range(4)] == [0, 0, 0, lib.RNG_E_EXHAUSTED]
    assert reseed(state, SEED[:32], 32, ffi.NULL, 0) == lib.RNG_OK
    assert generate(state, out, 64, ffi.NULL, 0) == lib.RNG_OK
    assert generate(state, out, 65537, ffi.NULL, 0) == lib.RNG_E_ARGUMENT  # max_number_of_bits_per_request


def test_the_stream_is_a_personalization_string():
    a, b = (rngcore.Generator(HmacDrbg(SEED, s)).random_bytes(64) for s in (1, 2))
    assert a != b
    assert rngcore.Generator(HmacDrbg(SEED, personalization=(1).to_bytes(8, "big"))).random_bytes(64) == a
    with pytest.raises(ValueError, match="not both"):
        HmacDrbg(SEED, 1, personalization=b"x")


def test_provenance_names_the_engine_and_its_parameters():
    prov = CtrDrbgNoDf(SEED, 3).provenance()
    data = prov.as_dict()
    assert data["engine"] == "ctr-drbg-aes256-nodf" and data["stream"] == 3 and "seed" not in data
    assert data["parameters"]["derivation_function"] is False
    assert data["parameters"]["cipher"] == "AES-256" and data["parameters"]["request_bytes"] == 4096
    assert "derivation_function False" in prov.describe()


# --- production -----------------------------------------------------------------------------

@pytest.mark.parametrize("cls", DRBGS)
def test_production_reseeds_from_the_os(cls):
    a, b = cls(), cls()
    assert rngcore.Generator(a).random_bytes(64) != rngcore.Generator(b).random_bytes(64)
    limited = cls(reseed_interval=2)
    rngcore.Generator(limited).random_bytes(5 * 4096)
    assert limited.seedings == 3  # instantiate, then a reseed after each 2 requests
    pr = cls(prediction_resistance=True)
    rngcore.Generator(pr).random_bytes(3 * 4096)
    assert pr.seedings == 4 and pr.prediction_resistance
    g = rngcore.Generator(a)
    g.random_bytes(10)
    a.reseed(b"game 42")
    assert a.seedings == 2 and a.provenance().position == 74
    with pytest.raises(ValueError, match="production mode only"):
        cls(SEED).reseed()
    with pytest.raises(ValueError, match="production mode only"):
        cls(SEED, prediction_resistance=True)


@pytest.mark.parametrize("cls", DRBGS)
def test_production_fails_closed_without_entropy(cls):
    with entropy_failure():
        with pytest.raises(EntropyError):
            cls()
    engine = cls(prediction_resistance=True)
    g = rngcore.Generator(engine)
    with entropy_failure():
        with pytest.raises(EntropyError):
            g.random_bytes(1)
    with pytest.raises(EntropyError):  # latched, never a fallback
        g.random_bytes(1)


def test_a_forked_child_reseeds():
    g = rngcore.Generator(HmacDrbg())
    g.random_bytes(5)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(write, g.random_bytes(32))
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 32)
    assert child != g.random_bytes(32)


def test_a_failed_selftest_run_stops_every_live_drbg():
    live = rngcore.Generator(CtrDrbg(SEED))
    live.random_bytes(5)  # a buffered request is waiting
    with selftest_failure():
        assert lib.rng_drbg_selftest_run() == lib.RNG_E_SELFTEST
        with pytest.raises(SelfTestError):
            CtrDrbg(SEED)
    assert lib.rng_drbg_selftest_run() == lib.RNG_OK
    with pytest.raises(SelfTestError, match="self-test"):
        live.random_bytes(1)
    with pytest.raises(SelfTestError):
        live.integers(0, 10)
    assert len(rngcore.Generator(CtrDrbg(SEED)).random_bytes(8)) == 8


def test_the_environment_forces_the_portable_aes_and_sha_paths():
    script = ("import rngcore; from rngcore import ffi, lib; from rngcore.engines.ctr_drbg import CtrDrbg; "
              f"print(ffi.string(lib.rng_aes_impl_name()).decode(), ffi.string(lib.rng_sha256_impl_name()).decode(), "
              f"rngcore.Generator(CtrDrbg(bytes(range(0x40, 0x70)))).random_bytes(9000).hex()[-16:])")
    expected = reference_stream("ctr-drbg-aes256", SEED, b"", 9000).hex()[-16:]
    fastest = ("vaes" if lib.rng_cpu_has_vaes() else "aesni" if lib.rng_cpu_has_aesni() else "portable",
               "shani" if lib.rng_cpu_has_shani() else "portable")
    for value, paths in [("1", ("portable", "portable")), ("0", fastest), ("", fastest)]:
        env = {**os.environ, "RNGCERT_FORCE_PORTABLE": value}
        result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert result.stdout.split() == [*paths, expected], value


# --- every engine through --engine ------------------------------------------------------------

def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _devices():
    from rngcore.devices import DEVICES

    return [device.example for device in DEVICES.values()]  # a family's smallest member or sample path


def test_the_drbgs_are_registered_engines():
    assert {"hmac-drbg-sha256", "ctr-drbg-aes256", "ctr-drbg-aes256-nodf"} <= set(engines())
    assert list(engines())[0] == "chacha20"
    assert rngcore.Generator(engines()["hmac-drbg-sha256"](SEED)).random_bytes(4) == \
        reference_stream("hmac-drbg-sha256", SEED, b"", 4)


@pytest.mark.parametrize("engine", [name for name in engines() if name != "chacha20"])
def test_every_device_and_game_draws_through_every_drbg(engine):
    stream = _invoke("stream", "--engine", engine, "--seed", SEED_HEX, "--stream", "5", "--bytes", "100")
    assert stream.exit_code == 0, stream.output
    assert stream.stdout_bytes == reference_stream(engine, SEED, (5).to_bytes(8, "big"), 100)
    for device in _devices():
        draw = _invoke("draw", device, "-n", "3", "--engine", engine, "--seed", SEED_HEX)
        assert draw.exit_code == 0 and draw.output.strip(), (device, draw.output)
        production = _invoke("draw", device, "-n", "2", "--engine", engine)
        assert production.exit_code == 0, (device, production.output)
    game = _invoke("game", "craps", "--simulate", "2000", "--engine", engine, "--seed", SEED_HEX, "--json")
    assert game.exit_code == 0 and f'"engine": "{engine}"' in game.output, game.output


@pytest.mark.parametrize("args, message", [
    (["--engine", "hmac-drbg-sha256", "--seed", SEED_HEX[:64]], "96 hex digits"),
    (["--engine", "ctr-drbg", "--seed", SEED_HEX], "ctr-drbg"),
])
def test_bad_drbg_input_is_one_line_exit_2(args, message):
    result = _invoke("stream", "--bytes", "8", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_the_documented_worked_example():
    text = (pathlib.Path(__file__).parent.parent / "docs" / "drbg.md").read_text()
    seed = bytes(range(48))
    for engine in ("hmac-drbg-sha256", "ctr-drbg-aes256", "ctr-drbg-aes256-nodf"):
        spaced = " ".join(f"{b:02x}" for b in reference_stream(engine, seed, (7).to_bytes(8, "big"), 16))
        assert spaced in text, engine
    assert f"--seed {seed.hex()} --stream 7 --bytes 16" in text
    snippet = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(snippet, "docs/drbg.md", "exec"), {})


@pytest.mark.parametrize("engine", DRBGS)
def test_seek_and_spawn_are_refused_with_the_reason(engine):
    g = rngcore.Generator(engine(SEED))
    with pytest.raises(ValueError, match="cannot seek: an SP 800-90A DRBG's state moves one way"):
        g.seek(4096)
    with pytest.raises(ValueError, match="cannot spawn children: give each instance its own"):
        g.spawn(2)
    assert g.position == 0  # nothing was consumed


@pytest.mark.parametrize("engine", sorted(kat.PIN_SHA256))
def test_the_stability_pins_are_the_reference_streams_digests(engine):
    stream = reference_stream(engine, kat.PIN_SEED, b"", kat.PIN_BYTES)
    assert hashlib.sha256(stream).hexdigest() == kat.PIN_SHA256[engine]
    assert drbg_bench.REPLAY_SHA256 is kat.PIN_SHA256 and drbg_bench.SEED == kat.PIN_SEED


@pytest.mark.parametrize("engine", sorted(kat.PIN_SHA256))
def test_selftest_checks_every_drbgs_stability_pin_on_every_path(engine, monkeypatch):
    cls = engines()[engine]
    check = kat.check_stability_pin(cls)
    kind = "sha" if engine.startswith("hmac") else "aes"
    assert check.passed and all(path in check.detail for path in kat.code_paths(kind)), check
    assert "stability-pin" in [c.name for c in cls.known_answers()]
    monkeypatch.setitem(kat.PIN_SHA256, engine, "0" * 64)  # a changed stream is reported
    check = kat.check_stability_pin(cls)
    assert not check.passed and "should hash to " + "0" * 64 in check.detail


def test_bench_replay_cases_run_and_check_without_cryptography(monkeypatch):
    # A plain install has no `cryptography`: the replay checks must not need it.
    for name in [m for m in sys.modules if m == "cryptography" or m.startswith("cryptography.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    replays = [c for c in drbg_bench.CASES if c.name.endswith("-replay")]
    assert {c.name for c in replays} == {"rngcert-ctr-drbg-replay", "rngcert-hmac-drbg-replay"}
    for case in replays:
        case.check(case.setup()())
        with pytest.raises(AssertionError, match="replay differs"):
            case.check(bytes(drbg_bench.MIB))


# --- docs/audit_contract.md section 6 ---------------------------------------------------------

def test_draws_read_a_drbg_stream_as_they_read_chacha20s():
    """The draws see only a byte stream: on a DRBG they give exactly what they give on the same
    bytes replayed by the test engine (the draw methods themselves are proven on ChaCha20)."""
    from rngcore.testing import TestEngine

    draws = [lambda g: g.integers(0, 37, size=1000).tolist(),
             lambda g: g.integers(0, 3_000_000_000, size=100).tolist(),  # rejections
             lambda g: [g.integers(0, 52) for _ in range(20)],
             lambda g: g.random(size=50).tolist(),
             lambda g: g.permutation(416).tolist()]
    for cls in DRBGS:
        stream = reference_stream(cls.name, SEED, (3).to_bytes(8, "big"), 3 * 4096)
        on_drbg, on_bytes = rngcore.Generator(cls(SEED, 3)), rngcore.Generator(TestEngine.from_bytes(stream))
        for draw in draws:
            assert draw(on_drbg) == draw(on_bytes), cls.name
        assert on_drbg.provenance().position == on_bytes.engine.provenance().position > 4096


def test_audit_contract_drbg_worked_example():
    """The numbers of docs/audit_contract.md section 6, from the independent SP 800-90A reference
    (OpenSSL's HMAC-SHA256 and AES-256) and from the engines' draws."""
    doc = (pathlib.Path(__file__).parent.parent / "docs" / "audit_contract.md").read_text()
    seed = bytes(range(48))
    assert f"Seed `{seed.hex()}`" in doc and "`0000000000000007`" in doc
    expected = {"hmac-drbg-sha256": [26, 27, 36], "ctr-drbg-aes256": [30, 26, 1], "ctr-drbg-aes256-nodf": [16, 27, 17]}
    for name, values in expected.items():
        head = reference_stream(name, seed, (7).to_bytes(8, "big"), 12)
        words = [int.from_bytes(head[i:i + 4], "little") for i in (0, 4, 8)]
        assert all(37 * x % 2**32 >= 2**32 % 37 for x in words)  # no word rejected
        row = (f"| `{name}` | `{head.hex()}` | {', '.join(map(str, words))} | "
               f"**{', '.join(str(37 * x >> 32) for x in words)}** |")
        assert row in doc, row
        g = rngcore.Generator(engines()[name](seed, 7))
        assert [g.integers(0, 37) for _ in range(3)] == values == [37 * x >> 32 for x in words]
