"""docs/architecture.md against the code: every extension point it names exists and its recipe is tested.

The table of extension points names, for each, the module that declares
it, the module-level sequence it lists its items in, the registry and the
base class; each of those must import.  Every "Adding a ..." recipe is held
to account by a test that writes a toy as one new module: the doc names
those tests, and each must exist and hold a test of a toy.
"""
from __future__ import annotations

import ast
import importlib
import re

import pytest

from registry_support import ROOT

DOC = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
RECIPES = ("game", "device", "engine", "statistical test", "device kind")


def _table_rows() -> dict[str, list[str]]:
    start = DOC.index("| extension | one new module |")
    rows = {}
    for line in DOC[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


def _resolve(dotted: str):
    """The object a dotted name names: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            value = getattr(value, attr)
        return value
    raise ImportError(dotted)


@pytest.mark.parametrize("extension", RECIPES)
def test_every_extension_point_has_a_recipe_and_a_row(extension):
    article = "an" if extension[0] in "aeiou" else "a"
    assert f"\n## Adding {article} {extension}\n" in DOC
    assert extension in _table_rows()


@pytest.mark.parametrize("extension", RECIPES)
def test_the_table_names_what_exists(extension):
    _, module, declares, registry, _ = _table_rows()[extension]
    folder = re.fullmatch(r"`([\w/]+)/NAME\.py`", module).group(1)
    assert (ROOT / folder).is_dir() and (ROOT / folder / "__init__.py").exists(), module
    names = re.findall(r"`([\w.]+)`", declares + " " + registry)
    assert names, (declares, registry)
    for name in names:
        if "." in name:  # a class or a registry; a bare upper-case word is the sequence a module lists
            _resolve(name)


def _test_files_named() -> set[str]:
    return set(re.findall(r"`(tests/test_\w+\.py)`", DOC))


def test_the_recipes_are_held_by_toy_module_tests():
    named = _test_files_named()
    for path in ("tests/test_games_registry.py", "tests/test_devices_declared.py",
                 "tests/test_stats_registry.py", "tests/test_core_engines.py"):
        assert path in named
    for path in named:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        tests = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
        assert tests, path
    for path in ("tests/test_games_registry.py", "tests/test_devices_declared.py",
                 "tests/test_stats_registry.py", "tests/test_core_engines.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(r"def test_\w*toy\w*\(", source), f"{path} holds no test of a toy module"
