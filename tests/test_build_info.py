"""Each C layer's extension names the code that produced it, and refuses to be stale.

The certified core's hash covers ``csrc/core/`` alone; the kernels and the
test layer carry their own hash and the core hash they were compiled
against; the test hooks live only in the test layer.
"""
import dataclasses
import importlib
import importlib.util
import pathlib
import pkgutil
import re
import shutil
import subprocess
import sys

import pytest

import rngcore
from rngcore import _native
from rngcore._layers import LAYERS, layer_sha256
from harness import kernels
from rngcore import testing

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILDS = {"core": rngcore.BUILD_INFO, "kernels": kernels.BUILD_INFO, "testing": testing.TEST_BUILD_INFO,
          "stats": _native._check("stats", importlib.import_module("stats._kernels"))}


def _build_script():
    spec = importlib.util.spec_from_file_location("build_cffi", ROOT / "csrc" / "build_cffi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_each_layer_names_its_own_sources(name):
    info = BUILDS[name]
    assert info.layer == name and info.version == rngcore.__version__
    assert re.fullmatch(r"[0-9a-f]{64}", info.sha256)
    assert info.sha256 == layer_sha256(ROOT / "csrc" / name)
    assert info.needs == {dep: rngcore.BUILD_INFO.sha256 for dep in LAYERS[name].needs}


def test_every_c_file_belongs_to_a_layer():
    stray = [p.name for p in (ROOT / "csrc").iterdir() if p.suffix in (".c", ".h")]
    assert stray == [], "C files must live in a layer folder"
    assert sorted(p.name for p in (ROOT / "csrc").iterdir() if p.is_dir() and p.name != "__pycache__") \
        == sorted(LAYERS)


def test_the_core_hash_ignores_the_other_layers(tmp_path):
    csrc = tmp_path / "csrc"
    shutil.copytree(ROOT / "csrc", csrc, ignore=shutil.ignore_patterns("__pycache__"))
    before = {name: layer_sha256(csrc / name) for name in LAYERS}
    slot_c = csrc / "kernels" / "slot.c"
    slot_c.write_text(slot_c.read_text() + "\n/* an edit */\n")
    (csrc / "testing" / "testengine.c").write_text("/* an edit */\n")
    after = {name: layer_sha256(csrc / name) for name in LAYERS}
    assert after["core"] == before["core"]
    assert after["kernels"] != before["kernels"] and after["testing"] != before["testing"]


def test_a_stale_layer_is_refused(tmp_path, monkeypatch):
    csrc = tmp_path / "csrc"
    shutil.copytree(ROOT / "csrc", csrc, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_native, "_CSRC", csrc)
    ext = importlib.import_module("rngcore._rngcore")
    assert _native._check("core", ext) == rngcore.BUILD_INFO  # sources unchanged: accepted
    (csrc / "core" / "draws.c").write_text((csrc / "core" / "draws.c").read_text() + "\n")
    with pytest.raises(ImportError, match=r"rngcore._rngcore is stale: csrc/core/ has changed"):
        _native._check("core", ext)


def test_a_layer_built_against_another_core_is_refused(monkeypatch):
    other = dataclasses.replace(rngcore.BUILD_INFO, sha256="0" * 64)
    monkeypatch.setitem(_native._loaded, "core", other)
    with pytest.raises(ImportError, match=r"harness._kernels was built against core"):
        _native._check("kernels", importlib.import_module("harness._kernels"))


def _own_names(name):
    ext = importlib.import_module(LAYERS[name].module)
    names = set(dir(ext.lib)) | set(ext.ffi.list_types()[0])
    if name != "core":
        names -= set(dir(rngcore.lib)) | set(rngcore.ffi.list_types()[0])
    return names


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_every_symbol_carries_its_layer_prefix(name):
    prefix = LAYERS[name].prefix
    names = _own_names(name)
    assert len(names) > 3
    others = [LAYERS[n].prefix for n in LAYERS if n != name and LAYERS[n].prefix.startswith(prefix)]
    for symbol in names:
        lowered = symbol.lower()
        assert lowered.startswith(prefix + "_"), symbol
        assert not any(lowered.startswith(o + "_") for o in others), symbol


def test_the_core_carries_no_test_hooks():
    core_so = pathlib.Path(importlib.import_module("rngcore._rngcore").__file__).read_bytes()
    assert b"rngtest_" not in core_so and b"rng_test_" not in core_so and b"kern_" not in core_so
    assert not [n for n in dir(rngcore.lib) if re.search(r"(^|_)test(_|$)|fail", n.lower())]
    # The core's only inward seam is the fault table, which holds no fault logic.
    assert [n for n in dir(rngcore.lib) if "fault" in n] == ["rng_faults_install"]
    assert hasattr(testing.test_lib, "rngtest_entropy_fail") and hasattr(testing.test_lib, "rngtest_selftest_fail")


def test_production_code_never_loads_the_test_layer():
    script = """
import importlib, pkgutil, sys
import harness, rngcore, stats
for package in (rngcore, harness, stats):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name not in ("rngcore.testing", "rngcore._testing"):  # the test layer itself
            importlib.import_module(info.name)
from click.testing import CliRunner
from harness.cli import main
result = CliRunner().invoke(main, ["game", "baccarat", "--simulate", "200", "--seed", "00" * 32])
assert result.exit_code == 0, result.output
print(sorted(m for m in sys.modules if "testing" in m and m.split(".")[0] in ("rngcore", "harness", "stats")))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_build_script_hashes_as_the_loader_does():
    script = _build_script()
    assert script.LAYERS.keys() == LAYERS.keys()
    for name in LAYERS:
        assert script.layer_sha256(script.layer_dir(name)) == BUILDS[name].sha256


def test_sanitizer_builds_are_asked_for_explicitly(monkeypatch):
    script = _build_script()
    monkeypatch.delenv("RNGCERT_SANITIZE", raising=False)
    assert not [a for a in script._compile_args() if "sanitize" in a]
    monkeypatch.setenv("RNGCERT_SANITIZE", "1")
    assert "-fsanitize=address,undefined" in script._compile_args()
    monkeypatch.setenv("RNGCERT_SANITIZE", "yes")
    with pytest.raises(RuntimeError, match="RNGCERT_SANITIZE must be 0 or 1"):
        script._compile_args()


def test_a_c_module_is_one_pair_in_its_layer_folder(tmp_path):
    """The recipe of docs/architecture.md: a toy .h/.c pair, nothing else edited."""
    (tmp_path / "rngcore").mkdir()
    shutil.copy(ROOT / "rngcore" / "_layers.py", tmp_path / "rngcore" / "_layers.py")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "csrc", tmp_path / "csrc", ignore=shutil.ignore_patterns("__pycache__"))
    before = {name: layer_sha256(tmp_path / "csrc" / name) for name in LAYERS}
    (tmp_path / "csrc" / "kernels" / "toy.h").write_text(
        '#include "rng_source.h"\n/* cffi:begin */\nint kern_toy_answer(rng_source *src);\n/* cffi:end */\n')
    (tmp_path / "csrc" / "kernels" / "toy.c").write_text(
        '#include "toy.h"\nint kern_toy_answer(rng_source *src) { return src->status; }\n')
    spec = importlib.util.spec_from_file_location("toy_build_cffi", tmp_path / "csrc" / "build_cffi.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert "int kern_toy_answer(rng_source *src);" in script.cdef_text("kernels")
    assert "kern_toy_answer" not in script.cdef_text("core") + script.cdef_text("testing")
    assert tmp_path / "csrc" / "kernels" / "toy.c" in script.layer_sources("kernels")
    script.make_ffibuilders()  # the layer still builds its declarations
    after = {name: layer_sha256(tmp_path / "csrc" / name) for name in LAYERS}
    assert after["kernels"] != before["kernels"]
    assert after["core"] == before["core"] and after["testing"] == before["testing"]


def test_every_c_file_named_in_the_code_and_docs_exists():
    """A comment or page that names a C file by path names one that exists (files get renamed)."""
    named = re.compile(r"csrc/[A-Za-z0-9_/]+\.[ch]\b")
    places = [p for folder in ("csrc", "rngcore", "harness", "stats", "docs")
              for p in (ROOT / folder).rglob("*") if p.suffix in (".c", ".h", ".py", ".md")]
    stale = [f"{p.relative_to(ROOT)}: {ref}" for p in places + [ROOT / "README.md"]
             for ref in named.findall(p.read_text(encoding="utf-8")) if not (ROOT / ref).is_file()]
    assert len(places) > 50
    assert not stale, stale
