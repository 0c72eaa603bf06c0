"""The shape of harness.slot: no import circles, one home for the award tables."""
from __future__ import annotations

import ast
import pathlib

import pytest

from harness.slot.model import ScatterAwards, award_for
import slot_support as sup

SLOT = pathlib.Path(__file__).resolve().parents[1] / "harness" / "slot"


def _slot_imports(path: pathlib.Path) -> set[str]:
    """Every harness.slot module ``path`` imports, at any level (function-level included)."""
    modules = {p.stem for p in SLOT.glob("*.py")}
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "harness.slot":
                out |= {a.name for a in node.names if a.name in modules}
            elif node.module.startswith("harness.slot."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[2] for a in node.names if a.name.startswith("harness.slot.")}
    return out - {path.stem}


def test_slot_modules_import_each_other_without_a_circle():
    graph = {p.stem: _slot_imports(p) for p in SLOT.glob("*.py") if p.stem != "__init__"}
    assert len(graph) >= 10
    state: dict[str, int] = {}  # 1 on the current path, 2 finished

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                pytest.fail("import circle: " + " -> ".join(path[path.index(dep):] + [module, dep]))
            if dep not in state:
                visit(dep, path + [module])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])


def test_native_builds_neither_joint_nor_simulation_results():
    deps = _slot_imports(SLOT / "native.py")
    assert not deps & {"joint", "exact", "simulate"}, deps


def test_scatter_awards_are_read_from_the_model_only():
    for path in SLOT.glob("*.py"):
        if path.stem != "model":
            assert "award_for(" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("name", ["SMALL", "FEATURE"])
def test_scatter_awards_follow_the_largest_listed_count(name):
    m = sup.model(getattr(sup, name))
    awards = m.scatter_awards
    assert isinstance(awards, ScatterAwards)
    scatter = m.symbols[m.scatter]
    fsp = m.free_spins
    for k in range(m.max_scatter + 1):
        assert awards.pay[k] == sup.award(scatter.pays, k)
        assert awards.trigger[k] == (sup.award(fsp.spins, k) if fsp else 0)
        assert awards.retrigger[k] == (sup.award(fsp.retrigger, k) if fsp else 0)
    lows = [lo for i, lo, _ in awards.buckets if i == 0]  # buckets: (scatter position, lo, hi)
    assert lows == sorted(set(scatter.pays) | (set(fsp.spins) | set(fsp.retrigger) if fsp else set()))
    assert awards.buckets[-1][2] == m.max_scatter
    assert award_for({3: 5, 5: 9}, 4) == 5 and award_for({3: 5}, 2) == 0


def test_a_c_status_becomes_the_shared_exception():
    native = pytest.importorskip("harness.slot.native")
    import dataclasses

    from harness.slot.joint import LineSuffixes, group_tables
    from harness.slot.lines import build_line_automaton
    from harness.slot.reelset import base_reelset

    m = sup.model(sup.SMALL)
    reels = base_reelset(m)
    auto = build_line_automaton(m, with_progressive=True)
    done = auto.done.copy()
    done[0] = 1  # the kernel refuses an automaton that is final before reel 1: RNG_E_ARGUMENT
    bad = dataclasses.replace(auto, done=done)
    with pytest.raises(ValueError, match="^exact joint figures: an argument was out of range$"):
        native.joint_figures_c(reels, bad, m.paylines, group_tables(reels), LineSuffixes.of(m.paylines, reels.reels))
