"""The sdist and the wheel carry what a fresh machine needs.

The sdist is built with setuptools' own PEP 517 backend from a copy of the
checkout (so the checkout is left as it was); the wheel is built from that
sdist by ``python -m build``, as a publisher would.  Without ``build``
installed the wheel tests are skipped, except in CI, where they must run.
"""
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from harness.resources import SHIPPED_DIRS, shipped

ROOT = pathlib.Path(__file__).resolve().parent.parent
_LEFT_OUT = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info", "*.so", "__pycache__",
                                   ".pytest_cache", ".benchmarks")


def _copy_checkout(target: pathlib.Path) -> pathlib.Path:
    shutil.copytree(ROOT, target, ignore=_LEFT_OUT)
    return target


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> pathlib.Path:
    tree = _copy_checkout(tmp_path_factory.mktemp("src") / "rngcert")
    out = tmp_path_factory.mktemp("sdist")
    code = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    name = subprocess.run([sys.executable, "-c", code, str(out)], cwd=tree, capture_output=True, text=True,
                          check=True).stdout.split()[-1]
    byproducts = [p.name for p in tree.iterdir() if p.name == "build" or p.name.endswith(".egg-info")]
    assert byproducts == [], "building must leave the source tree as it was"
    return out / name


def _members(sdist: pathlib.Path) -> set[str]:
    with tarfile.open(sdist) as tar:
        return {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}


def _tracked(pattern: str) -> set[str]:
    return {str(p.relative_to(ROOT)) for p in ROOT.glob(pattern) if "__pycache__" not in p.parts}


def test_sdist_carries_the_build_inputs(sdist):
    members = _members(sdist)
    needed = (_tracked("csrc/**/*.[ch]") | {"csrc/build_cffi.py", "setup.py", "pyproject.toml", "MANIFEST.in",
                                             "README.md", "rngcore/_layers.py", "harness/resources.py"})
    assert len(_tracked("csrc/**/*.h")) > 10
    assert needed <= members, sorted(needed - members)


def test_sdist_carries_docs_examples_tests_and_vectors(sdist):
    members = _members(sdist)
    needed = (_tracked("docs/*.md") | _tracked("examples/*") | _tracked("tests/*.py") | _tracked("tests/vectors/*")
              | _tracked("benchmarks/*.py"))
    assert _tracked("tests/vectors/*") and _tracked("examples/*.toml")
    assert needed <= members, sorted(needed - members)
    assert not [m for m in members if m.endswith((".so", ".o", ".pyc"))]


def _have_build() -> bool:
    return importlib.util.find_spec("build") is not None


@pytest.fixture(scope="module")
def wheel(sdist, tmp_path_factory) -> pathlib.Path:
    if not _have_build():
        if os.environ.get("CI") == "true":
            pytest.fail("the `build` package is required in CI (pip install build)")
        pytest.skip("the `build` package is not installed (pip install build)")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(sdist)],
                   capture_output=True, text=True, check=True)
    (built,) = out.glob("*.whl")
    return built


def test_wheel_is_tagged_abi3(wheel):
    assert "-cp311-abi3-" in wheel.name, wheel.name
    with zipfile.ZipFile(wheel) as zf:
        meta = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/WHEEL"))).decode()
    assert "Root-Is-Purelib: false" in meta
    assert [line for line in meta.splitlines() if line.startswith("Tag:")] == \
        [f"Tag: cp311-abi3-{wheel.name.rsplit('-', 1)[1][:-4]}"]


def test_wheel_holds_every_package_and_layer(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    packages = {str(p.relative_to(ROOT)) for top in ("rngcore", "harness", "stats")
                for p in (ROOT / top).rglob("__init__.py")}
    assert packages <= names, sorted(packages - names)
    assert {"rngcore/_rngcore.abi3.so", "harness/_kernels.abi3.so", "rngcore/_testing.abi3.so"} <= names
    shipped_files = {f"harness/_shipped/{p}" for folder in SHIPPED_DIRS for p in _tracked(f"{folder}/*")}
    assert shipped_files and shipped_files <= names, sorted(shipped_files - names)
    assert not [n for n in names if n.startswith(("csrc/", "tests/"))]


def test_shipped_files_are_found_from_a_checkout():
    example = shipped("examples/slot_compliant.toml")
    assert example is not None and example.read_bytes() == (ROOT / "examples" / "slot_compliant.toml").read_bytes()
    assert shipped("docs/slot_model.md") is not None
    assert shipped("examples/no_such_model.toml") is None


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0].strip() for block in section.split("```sh\n")[1:]]


def test_readme_set_up_commands_are_two_independent_regular_installs():
    main_job, tests = _setup_commands()  # exactly two
    venv = lambda command: command.split("python3 -m venv ", 1)[1].split()[0]  # noqa: E731
    assert venv(main_job) != venv(tests), "the two commands must not share a venv"
    for command in (main_job, tests):
        assert " -e " not in command and "--editable" not in command, command
        assert command.count("python3 -m venv ") == 1
    assert "PYTHONSAFEPATH=1" in tests  # the checkout's rngcore/ must not shadow the installed one


def test_ci_runs_the_readme_test_command_verbatim():
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert lines[-1] == _setup_commands()[1]
