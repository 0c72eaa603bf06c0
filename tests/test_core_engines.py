"""Generator(bit_source), the engine registry, provenance and the seed policy,
and the one option set (--engine/--seed/--stream/--show-seed) of every
command that draws."""
import hashlib
import json
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
import rngcore.engine as engine_module
import rngcore.engines as registry
from harness.cli import main
from rngcore.engine import Provenance, TrivialSeedWarning, seed_fingerprint
from rngcore.testing import TestEngine
from tests.registry_support import write_package

SEED = bytes(range(0x40, 0x60))
SEED_HEX = SEED.hex()
DRAWING_COMMANDS = ("stream", "draw", "test", "game", "slot")
REPORTING_COMMANDS = ("test", "game", "slot")


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- Generator(bit_source) ------------------------------------------------------

def test_generator_on_a_chacha_engine_is_generator_seed_stream():
    a = rngcore.Generator(rngcore.ChaChaEngine(SEED, 7))
    b = rngcore.Generator(SEED, 7)
    assert a.random_bytes(100) == b.random_bytes(100)
    assert a.integers(0, 37, size=50).tolist() == b.integers(0, 37, size=50).tolist()
    assert a.position == b.position == 100 + 200
    assert a.bit_source is a.engine and isinstance(a.bit_source, rngcore.BitSource)


def test_generator_draws_from_the_test_engine_through_the_same_seam():
    data = bytes(range(256)) * 4
    generator = rngcore.Generator(TestEngine.from_bytes(data))
    assert generator.random_bytes(10) == data[:10]
    # integers(0, 2**32) is one 4-byte little-endian word per value
    words = generator.integers(0, 2**32, size=3).tolist()
    assert words == [int.from_bytes(data[10 + 4 * i:14 + 4 * i], "little") for i in range(3)]
    assert generator.provenance().describe() == "test test, position 22"


def test_a_bit_source_takes_no_stream_or_interval():
    with pytest.raises(TypeError, match="takes no stream"):
        rngcore.Generator(rngcore.ChaChaEngine(SEED), 3)
    with pytest.raises(TypeError, match="takes no stream"):
        rngcore.Generator(rngcore.ChaChaEngine(), reseed_interval=100)


# --- provenance ---------------------------------------------------------------------

def test_replay_provenance_names_the_seed_by_fingerprint_only():
    generator = rngcore.Generator(SEED, 9)
    generator.random_bytes(33)
    prov = generator.provenance()
    assert prov == Provenance("chacha20", "replay", hashlib.sha256(SEED).hexdigest()[:16], 9, 33)
    assert "seed" not in prov.as_dict() and SEED_HEX not in json.dumps(prov.as_dict())
    assert SEED_HEX not in prov.describe() and prov.seed_fingerprint in prov.describe()
    shown = generator.provenance(show_seed=True)
    assert shown.seed == SEED_HEX and shown.as_dict()["seed"] == SEED_HEX and SEED_HEX in shown.describe()


def test_production_position_counts_the_bytes_handed_out():
    generator = rngcore.Generator(reseed_interval=5000)
    assert generator.provenance().position == 0
    expected = 0
    for size in (1, 7, 100, 3000, 70_000, 1 << 20, 5):
        generator.random_bytes(size)
        expected += size
        assert generator.provenance().position == expected
    generator.integers(0, 37, size=10)  # one 4-byte word each (rejection ~ 2^-29)
    generator.random()
    expected += 40 + 8
    prov = generator.provenance()
    assert prov.position == expected and prov.mode == "production"
    assert prov.seed_fingerprint is None and prov.stream is None
    assert generator.engine.seedings > 200  # many OS reseeds, none changed the count
    assert generator.position is None  # a production stream cannot be sought


def test_production_position_survives_a_reseed_that_drops_the_buffer():
    generator = rngcore.Generator(reseed_interval=100)
    for _ in range(50):
        generator.random_bytes(3)
    assert generator.provenance().position == 150


# --- trivial seeds ------------------------------------------------------------------------

@pytest.fixture
def fresh_warning(monkeypatch):
    monkeypatch.setattr(engine_module, "_warned_trivial", False)


@pytest.mark.parametrize("seed", [bytes(32), b"\xff" * 32, bytes([0, 1] * 16), bytes([7, 8, 9] * 10 + [7, 8])])
def test_a_trivial_seed_works_but_warns_once(fresh_warning, seed):
    with pytest.warns(TrivialSeedWarning, match="distinct byte value"):
        first = rngcore.Generator(seed).random_bytes(16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rngcore.Generator(seed).random_bytes(16) == first


def test_a_seed_of_four_distinct_bytes_does_not_warn(fresh_warning):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rngcore.Generator(bytes([1, 2, 3, 4] * 8))
        rngcore.Generator(SEED)
    assert not engine_module._warned_trivial


def test_the_selftest_vectors_do_not_use_up_the_warning(fresh_warning):
    from rngcore.engines import _chacha20_kat

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(c.passed for c in _chacha20_kat.known_answers())
    assert not engine_module._warned_trivial


def test_the_cli_warns_on_one_line(fresh_warning):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", "from harness.cli import main; main()", "stream",
                           "--seed", "00" * 32, "--bytes", "8"], capture_output=True, timeout=60)
    assert proc.returncode == 0 and len(proc.stdout) == 8
    [line] = proc.stderr.decode().splitlines()
    assert line.startswith("rngcert: warning: the replay seed with fingerprint ") and "distinct byte value" in line


# --- the registry -----------------------------------------------------------------------

def test_chacha20_is_the_first_registered_engine():
    known = registry.engines()
    assert list(known)[0] == registry.DEFAULT_ENGINE == "chacha20"
    assert known["chacha20"] is rngcore.ChaChaEngine
    with pytest.raises(ValueError, match="unknown engine 'nope'; valid engines: chacha20"):
        registry.engine_class("nope")


def test_create_builds_either_mode_and_refuses_a_lone_stream():
    replay = rngcore.Generator(registry.create("chacha20", SEED_HEX, 5))
    assert replay.random_bytes(64) == rngcore.Generator(SEED, 5).random_bytes(64)
    assert registry.create("chacha20").mode == "production"
    with pytest.raises(ValueError, match="needs a seed"):
        registry.create("chacha20", None, 5)
    with pytest.raises(ValueError, match="64 hex digits"):
        registry.create("chacha20", "abc")


def test_registration_refuses_non_engines_and_name_clashes():
    with pytest.raises(TypeError, match="BitSource subclass"):
        registry.register(object)

    class Impostor(rngcore.BitSource):
        name = "chacha20"

    with pytest.raises(ValueError, match="'chacha20' is already registered"):
        registry.register(Impostor)


# --- the shared CLI options ------------------------------------------------------------------

@pytest.mark.parametrize("command", DRAWING_COMMANDS)
def test_every_drawing_command_has_the_one_option_set(command):
    result = _invoke(command, "--help")
    assert result.exit_code == 0, result.output
    for option in ("--engine", "--seed", "--stream", "[chacha20"):
        assert option in result.output, (command, option)
    assert ("--show-seed" in result.output) == (command in REPORTING_COMMANDS)
    assert "00...00" not in result.output


@pytest.mark.parametrize("command, args", [
    ("stream", ["--bytes", "8"]), ("draw", ["dice:2"]), ("test", ["roulette-single"]),
    ("game", ["craps", "--simulate", "10"]), ("slot", ["examples/slot_compliant.toml", "--simulate", "10"]),
])
def test_bad_engine_seed_or_stream_is_one_line_exit_2(command, args):
    for extra, message in ((["--engine", "nope"], "'nope' is not"), (["--seed", "abc"], "64 hex digits"),
                           (["--stream", "3"], "needs --seed")):
        result = _invoke(command, *args, *extra)
        assert result.exit_code == 2, (command, extra, result.output)
        [line] = result.output.splitlines()
        assert line.startswith("Error:") and message in line, (command, line)


@pytest.mark.parametrize("command, args", [
    ("stream", ["--bytes", "8"]), ("draw", ["dice:2", "-n", "5"]), ("test", ["roulette-single"]),
    ("game", ["craps", "--simulate", "1000"]), ("slot", ["examples/slot_compliant.toml", "--simulate", "100"]),
])
@pytest.mark.parametrize("failure", ["entropy", "selftest"])
def test_a_generator_that_refuses_output_is_one_line_exit_1(command, args, failure):
    """Built inside the error handling: no traceback, no output."""
    from rngcore.testing import entropy_failure, selftest_failure

    lib = rngcore.lib
    with entropy_failure() if failure == "entropy" else selftest_failure():
        if failure == "selftest":
            assert lib.rng_chacha_selftest_run() == lib.RNG_E_SELFTEST
        result = CliRunner().invoke(main, [command, *args])
    assert lib.rng_chacha_selftest_run() == lib.RNG_OK
    assert result.exit_code == 1, (command, result.output)
    assert "Traceback" not in result.output and not isinstance(result.exception, (RuntimeError, ValueError))
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: ")
    assert ("could not supply entropy" if failure == "entropy" else "self-test") in line, line
    assert result.stdout_bytes == b""


def test_test_and_slot_gained_stream():
    a = _invoke("test", "roulette-single", "--samples", "20000", "--seed", SEED_HEX, "--stream", "4", "--json")
    b = _invoke("test", "roulette-single", "--samples", "20000", "--seed", SEED_HEX, "--json")
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) != json.loads(b.stdout)
    slot = _invoke("slot", "examples/slot_compliant.toml", "--simulate", "20000", "--seed", SEED_HEX,
                   "--stream", "4", "--json")
    assert slot.exit_code in (0, 1), slot.output
    assert "stream 4" in json.loads(slot.stdout)["simulation"]["generator"]


# --- seeds in reports ------------------------------------------------------------------------

FINGERPRINT = seed_fingerprint(SEED)


@pytest.mark.parametrize("args", [
    ["test", "roulette-single", "--samples", "20000"],
    ["game", "roulette-single", "--simulate", "20000", "--json"],
    ["slot", "examples/slot_compliant.toml", "--simulate", "20000"],
    ["slot", "examples/slot_compliant.toml", "--simulate", "20000", "--json"],
])
def test_reports_name_the_seed_by_fingerprint_unless_asked(args):
    hidden = _invoke(*args, "--seed", SEED_HEX)
    assert hidden.exit_code in (0, 1), hidden.output
    assert SEED_HEX not in hidden.output
    shown = _invoke(*args, "--seed", SEED_HEX, "--show-seed")
    assert SEED_HEX in shown.output
    assert FINGERPRINT in hidden.output


@pytest.mark.parametrize("args", [
    ["test", "roulette-single", "--samples", "20000"],
    ["game", "roulette-single", "--simulate", "20000"],
    ["slot", "examples/slot_compliant.toml", "--simulate", "20000"],
])
def test_json_reports_carry_the_provenance(args):
    report = json.loads(_invoke(*args, "--seed", SEED_HEX, "--stream", "3", "--json").stdout)
    prov = report["provenance"]
    assert prov["engine"] == "chacha20" and prov["mode"] == "replay" and prov["stream"] == 3
    assert prov["seed_fingerprint"] == FINGERPRINT and "seed" not in prov and prov["position"] > 0
    shown = json.loads(_invoke(*args, "--seed", SEED_HEX, "--show-seed", "--json").stdout)["provenance"]
    assert shown["seed"] == SEED_HEX
    production = json.loads(_invoke(*args, "--json").stdout)["provenance"]
    assert production["mode"] == "production" and production["position"] > 0
    assert production["seed_fingerprint"] is None
    assert json.loads(_invoke("game", "craps", "--json").stdout)["provenance"] is None  # nothing drawn


def test_a_report_describes_production_by_its_position():
    result = _invoke("test", "roulette-single", "--samples", "20000")
    assert "chacha20 production mode (OS entropy), position 0" in result.output


# --- a new engine is one module ------------------------------------------------------------

TOY_ENGINE = '''
"""A toy engine: SHA-256 in counter mode (block i = SHA-256(seed || stream || i))."""
import hashlib

from rngcore import ffi
from rngcore.engine import BitSource, Check


class ToyEngine(BitSource):
    name = "toy"
    summary = "toy SHA-256 counter engine (registry test)"
    seed_help = "64 hex digits"
    has_production = False

    def __init__(self, seed=None, stream=None):
        self._init_lock()
        self._seed = bytes(seed)
        self._stream = stream or 0
        self._taken = 0
        self._callbacks = (
            ffi.callback("uint32_t(void *)", lambda _: int.from_bytes(self._take(4), "little")),
            ffi.callback("uint64_t(void *)", lambda _: int.from_bytes(self._take(8), "little")),
            ffi.callback("int(void *, void *, size_t)", self._fill),
            ffi.callback("int(void *, uint64_t *, size_t)", self._words),
        )
        self._source = ffi.new("rng_source *")
        (self._source.next32, self._source.next64, self._source.fill, self._source.words64) = self._callbacks

    def _take(self, n):
        first, end = self._taken // 32, -(-(self._taken + n) // 32)
        blocks = b"".join(hashlib.sha256(self._seed + self._stream.to_bytes(8, "little")
                                         + i.to_bytes(8, "little")).digest() for i in range(first, end))
        start = self._taken - 32 * first
        self._taken += n
        return blocks[start:start + n]

    def _fill(self, state, out, n):
        ffi.memmove(out, self._take(n), n)
        return 0

    def _words(self, state, out, count):
        data = self._take(8 * count)
        for i in range(count):
            out[i] = int.from_bytes(data[8 * i:8 * i + 8], "little")
        return 0

    def _position_unlocked(self):
        return self._taken

    @classmethod
    def known_answers(cls):
        expected = hashlib.sha256(bytes(48)).digest()
        got = ToyEngine(bytes(32), 0)._take(32)
        return [Check("toy-kat", got == expected, "block 0 of the all-zero seed")]


ENGINES = [ToyEngine]
'''


@pytest.fixture
def toy_engine(tmp_path, monkeypatch):
    """ONE new module in a temporary package, registered through the public API."""
    write_package(tmp_path, "toy_rng_plugins", {"toy": TOY_ENGINE})
    monkeypatch.syspath_prepend(str(tmp_path))
    [engine] = registry.register_package("toy_rng_plugins")
    yield engine
    registry.ENGINES.unregister(engine.name)


def test_a_toy_engine_in_one_module_reaches_every_command_and_the_selftest(toy_engine):
    names = list(registry.engines())
    assert names[0] == "chacha20" and names[-1] == "toy"  # the default first, then discovery order
    choices = "[" + "|".join(names) + "]"
    for command in DRAWING_COMMANDS:
        assert choices in _invoke(command, "--help").output.replace("\n", "").replace(" ", ""), command
    stream = _invoke("stream", "--engine", "toy", "--seed", SEED_HEX, "--stream", "2", "--bytes", "100")
    assert stream.exit_code == 0, stream.output
    keystream = b"".join(hashlib.sha256(SEED + (2).to_bytes(8, "little") + i.to_bytes(8, "little")).digest()
                         for i in range(4))
    assert stream.stdout_bytes == keystream[:100]
    draw = _invoke("draw", "roulette-single", "-n", "5", "--engine", "toy", "--seed", SEED_HEX)
    assert draw.exit_code == 0 and len(draw.output.split()) == 5, draw.output
    report = _invoke("test", "dice:2", "--samples", "3000", "--engine", "toy", "--seed", SEED_HEX)
    assert f"toy replay, seed fingerprint {FINGERPRINT}" in report.output
    selftest = _invoke("selftest")
    assert selftest.exit_code == 0, selftest.output
    assert "engine toy: toy SHA-256 counter engine" in selftest.output
    assert "PASS  toy-kat" in selftest.output
    production = _invoke("stream", "--engine", "toy", "--bytes", "8")
    assert production.exit_code == 2 and "no production mode" in production.output


def test_the_toy_engine_under_the_devices_c_code(toy_engine):
    generator = rngcore.Generator(toy_engine(SEED, 0))
    from rngcore.devices import device_spec

    spins = device_spec("roulette-single").draw(generator, 1000)
    assert spins.min() >= 0 and spins.max() < 37 and np.unique(spins).size > 30
    assert generator.provenance().position > 0


def test_the_documented_fingerprint():
    # docs/audit_contract.md, "Seeds in reports": the sha256sum recipe's output
    assert seed_fingerprint(bytes(range(32))) == "630dcd2966c43366"
