"""Helpers for the registry tests: generated doc tables and toy packages on disk."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def generated_block(doc: str, name: str) -> str:
    """The text between ``<!-- NAME table: ... -->`` and ``<!-- end of NAME table -->`` in ``doc``."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    match = re.search(rf"<!-- {re.escape(name)} table:[^\n]*-->\n(.*?)<!-- end of {re.escape(name)} table -->",
                      text, re.S)
    assert match, f"{doc} has no generated {name} table"
    return match.group(1)


def write_package(root: Path, package: str, modules: dict[str, str]) -> Path:
    """A package ``package`` under ``root`` holding ``modules`` (name -> source); returns its folder."""
    folder = root / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    return folder


def regenerate(doc: str, name: str, table: str) -> None:
    """Rewrite the generated ``name`` table of ``doc`` (run by hand after adding a game or device)."""
    path = ROOT / doc
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(generated_block(doc, name), table), encoding="utf-8")


def registered_package(tmp_path, monkeypatch, registry, package: str, modules: dict[str, str]):
    """Write ``package`` under ``tmp_path``, register it in ``registry``; yields the items added, then removes them."""
    import sys

    write_package(tmp_path, package, modules)
    monkeypatch.syspath_prepend(str(tmp_path))
    added = registry.register_package(package)
    yield added
    for item in added:
        if item.name in registry:
            registry.unregister(item.name)
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
