"""No import circles among rngcore, stats and harness: module-level and function-level imports alike.

Every ``import`` statement of every module is read (with :mod:`ast`, so an
import inside a function counts as much as one at the top), resolved to the
module it names, and the graph is searched for strongly connected
components.  A package's ``__init__`` importing its own submodules is the
usual package pattern and is not an edge back from the submodules: a module
depends on its parent package only if it imports a name from it.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rngcore", "stats", "harness")

# Known circles, each named, waiting to be broken: (package every member lies in, its exact
# members).  A circle that matches none of them fails the test; a known circle that is
# gone fails test_known_circles_are_still_there, so the exception cannot outlive it.
KNOWN_CIRCLES: dict[str, tuple[str, frozenset[str]]] = {}


def _known(circle: frozenset[str]) -> str | None:
    for name, (package, members) in KNOWN_CIRCLES.items():
        # exactly its members: a known circle that grows (or swallows another) fails again
        if members == circle and all(m.startswith(package) for m in circle):
            return name
    return None


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of ours that ``name`` imports anywhere in its body."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            # `import pkg` inside pkg.sub binds the parent, which is always loaded before its
            # submodules, and imports no name from it: no edge (see the module docstring).
            candidates = [alias.name for alias in node.names if not name.startswith(alias.name + ".")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            candidates = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                          for alias in node.names]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in modules:  # `import a.b.c` of a name in a.b
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                targets.add(candidate)
    return targets


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (the craps chain solver's Tarjan)."""
    from harness.games.markov import _components

    return [frozenset(c) for c in _components({node: sorted(targets) for node, targets in graph.items()})
            if len(c) > 1]


def test_the_walk_sees_the_packages():
    graph = import_graph()
    assert len(graph) > 100
    assert "rngcore.devices.registry" in graph["rngcore.devices.wheels"]
    assert "harness.games.base" in graph["harness.games.baccarat"]
    # function-level imports count: the draw command imports the registry inside a function
    assert "rngcore.devices.registry" in graph["harness.commands.draw"]


def test_a_parent_package_is_an_edge_only_when_a_name_is_imported_from_it(tmp_path):
    (tmp_path / "pkg").mkdir()
    sub = tmp_path / "pkg" / "sub.py"
    modules = {"pkg": tmp_path / "pkg" / "__init__.py", "pkg.sub": sub, "pkg.other": sub}
    sub.write_text("def f():\n    import pkg\n", encoding="utf-8")
    assert _imports("pkg.sub", sub, modules) == set()
    sub.write_text("from pkg import helper\nimport pkg.other\n", encoding="utf-8")
    assert _imports("pkg.sub", sub, modules) == {"pkg", "pkg.other"}


def test_circle_detection_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset("abc")]


def test_no_import_circles():
    found = [c for c in circles(import_graph()) if _known(c) is None]
    assert not found, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_known_circles_are_still_there():
    """A known circle that is gone must leave the list, so the exception cannot outlive it."""
    known = {_known(c) for c in circles(import_graph())}
    for name in KNOWN_CIRCLES:
        assert name in known, f"the known circle {name!r} is broken: remove it from KNOWN_CIRCLES"


def test_stats_is_independent_of_the_devices():
    graph = import_graph()
    assert not {m for name, targets in graph.items() if name.startswith("stats") for m in targets
                if m.startswith(("rngcore", "harness"))}
