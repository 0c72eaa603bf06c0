"""Wild multipliers (``multiplier`` on a wild, ``wild_multipliers = "multiply" | "add"``)
against an independent brute force.

The brute force (``slot_support.brute_stage``) pays every payline of every stop
combination by the rule read straight from docs/slot_model.md, multipliers
included (``slot_support.reference_line``); it never builds the payline automaton.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import rngcore
from harness.slot.exact import analyse
from harness.slot.simulate import simulate
from slot_support import check_base_game, model, reference_line, refused

ENGINES = ["python", "c"]

# 4 reels x 2 rows, six lines; X2 doubles and substitutes for everything, X3 triples,
# substitutes for A and K only and pays on its own; a plain wild P; a scatter.
MULT = """
name = "multipliers"
wild_multipliers = "multiply"
window = { rows = 2, reels = 4 }
bet = { per_line = 1, paylines = [[1, 1, 1, 1], [2, 2, 2, 2], [1, 2, 1, 2], [2, 1, 2, 1], [1, 1, 2, 2], [2, 2, 1, 1]] }
[symbols]
A = { pays = { 2 = 1, 3 = 5, 4 = 20 } }
K = { pays = { 3 = 3, 4 = 10 } }
Q = { pays = { 3 = 2, 4 = 6 } }
X2 = { kind = "wild", multiplier = 2 }
X3 = { kind = "wild", substitutes = ["A", "K"], multiplier = 3, pays = { 3 = 30, 4 = 100 } }
P = { kind = "wild", substitutes = ["Q"] }
S = { kind = "scatter", pays = { 2 = 2 } }
[reels]
base = ["A K X2 Q S A X3", "K A Q X3 A P K", "A Q K X2 A K S", "Q A K X3 A X2 K"]
"""


def texts():
    return {"multiply": MULT, "add": MULT.replace('wild_multipliers = "multiply"', 'wild_multipliers = "add"')}


def test_the_reference_rule_on_hand_picked_lines():
    m = model(MULT)
    ix = {n: i for i, n in enumerate(m.symbol_names)}
    line = [ix[n] for n in ("A", "X2", "X3", "A")]  # 4 x A, x2 x3 = x6: 120 (beats X3's own nothing)
    assert reference_line(m, line)[:2] == (120, (ix["A"], 4))
    added = model(texts()["add"])
    assert reference_line(added, line)[:2] == (100, (ix["A"], 4))  # x(2 + 3) = x5
    line = [ix[n] for n in ("X3", "X3", "X3", "Q")]  # X3's own 3 (30 x 27) beats 3 x A (5 x 27)
    assert reference_line(m, line)[:2] == (810, (ix["X3"], 3))


@pytest.mark.parametrize("mode", ["multiply", "add"])
@pytest.mark.parametrize("engine", ENGINES)
def test_joint_figures_and_analysis_equal_brute_force(mode, engine):
    m = model(texts()[mode])
    a, brute = check_base_game(m, engine)
    n = brute.cycle
    # each class's RTP share: its pays, multipliers included, over every line of every combination
    names = m.symbol_names
    share: dict[str, int] = {}
    for stops_cols in _columns(m):
        for line in m.paylines:
            pay, cls, _ = reference_line(m, [stops_cols[r][line[r]] for r in range(m.reels)])
            if cls is not None:
                key = f"{cls[1]} x {names[cls[0]]}"
                share[key] = share.get(key, 0) + pay
    for c in a.classes:
        if c.kind == "line":
            assert c.rtp == Fraction(share.get(c.name, 0) * m.bet_per_line, n * m.total_bet), c.name
    assert any("wild multipliers" in c.award for c in a.classes)


def _columns(m):
    import itertools

    strips = m.base_strips
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        yield [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]


def test_multipliers_change_the_return_and_simulation_agrees():
    plain = model(MULT.replace(", multiplier = 2", "").replace(", multiplier = 3", ""))
    m = model(MULT)
    a = analyse(m)
    assert a.rtp > analyse(plain).rtp
    assert simulate(m, 300_000, rngcore.Generator(bytes(range(32)), 9)).agrees(a) == (True, True)


@pytest.mark.parametrize("change, where", [
    (('wild_multipliers = "multiply"', 'wild_multipliers = "max"'), "wild_multipliers"),
    (('A = { pays = {', 'A = { multiplier = 2, pays = {'), "symbols.A.multiplier"),
    (('multiplier = 2', 'multiplier = 0'), "symbols.X2.multiplier"),
    (('multiplier = 2', 'multiplier = 1001'), "symbols.X2.multiplier"),
])
def test_bad_multipliers_exit_2_naming_the_key_and_file(tmp_path, change, where):
    text = MULT.replace(*change)
    assert text != MULT
    refused(tmp_path, text, where)


def test_wild_multipliers_written_inside_a_section_gets_the_hint(tmp_path):
    text = MULT.replace('wild_multipliers = "multiply"\n', "").replace("[reels]\n", '[reels]\nwild_multipliers = "add"\n')
    line = refused(tmp_path, text, "reels")
    assert "did you mean the top-level 'wild_multipliers'" in line
