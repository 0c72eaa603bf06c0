"""Expanding wilds (``expanding = true``) against an independent brute force.

The brute force (``slot_support.brute_stage``) counts the scatters of every
stop combination's window, then lets every expanding wild cover its column
(``slot_support.expand``, the rule of docs/slot_model.md) and pays every line
of the result; it never builds the analysis's reel arrays.
"""
from __future__ import annotations

import pytest

import rngcore
from harness.slot.exact import analyse
from harness.slot.simulate import simulate
from slot_support import check_base_game, model, refused

# 3 x 3, five lines; E expands and doubles, F expands (listed after E: a column with
# both shows E), a scatter that an expanding wild covers but that still counts.
EXPANDING = """
name = "expanding"
window = { rows = 3, reels = 3 }
bet = { per_line = 1, paylines = [[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 2, 3], [3, 2, 1]] }
[symbols]
A = { pays = { 3 = 10 } }
K = { pays = { 2 = 1, 3 = 4 } }
Q = { pays = { 3 = 2 } }
E = { kind = "wild", expanding = true, multiplier = 2 }
F = { kind = "wild", expanding = true, substitutes = ["K", "Q"] }
S = { kind = "scatter", pays = { 2 = 1, 3 = 5 } }
[reels]
base = ["A K Q E S A K F", "K A F Q S E Q A K", "Q A K S E K F A A"]
"""


@pytest.mark.parametrize("engine", ["python", "c"])
def test_expanding_wilds_equal_brute_force(engine):
    check_base_game(model(EXPANDING), engine)


def test_expansion_changes_the_game_and_simulation_agrees():
    m = model(EXPANDING)
    a = analyse(m)
    still = analyse(model(EXPANDING.replace("expanding = true, ", "")))
    assert a.rtp > still.rtp and a.parts["scatters"] == still.parts["scatters"]  # scatters count under wilds
    assert simulate(m, 300_000, rngcore.Generator(bytes(range(32)), 11)).agrees(a) == (True, True)


@pytest.mark.parametrize("change, where", [
    (('A = { pays', 'A = { expanding = true, pays'), "symbols.A.expanding"),
    (('E = { kind = "wild", expanding = true', 'E = { kind = "wild", expanding = "yes"'), "symbols.E.expanding"),
])
def test_bad_expanding_exit_2(tmp_path, change, where):
    refused(tmp_path, EXPANDING.replace(*change), where)
