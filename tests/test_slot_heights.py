"""Reel heights drawn per spin (docs/slot_model.md, "Reel heights per spin"): the window-by-window
analysis of harness.slot.heights (with an expanding wild, the stages of harness.slot.height_reels) against
a brute force over every height, every stop and every way listed one by one, read straight from the ways
rule (tests/ways_reference.py)."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import model, play_figures, refused
from ways_reference import symbol_pays

from harness.slot.exact import analyse
from harness.slot.profiles import check

GAME = """
name = "heights"
window = { rows = 3, reels = 3, heights = [{ 1 = 1, 2 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 3 = 1 }] }
bet = { ways = 27, per_way = 1, total = 10 }
[symbols]
A = { pays = { 3 = 5 } }
K = { pays = { 2 = 1, 3 = 2 } }
W = { kind = "wild", multiplier = 2 }
S = { kind = "scatter", pays = { 2 = 2 } }
[reels]
base = ["A K S K", "K A W S A", "A S K"]
"""


def brute_force(m):
    names = m.symbol_names
    strips = m.base_strips
    dist: dict = {}
    weights = m.base_weights or [[1] * len(s) for s in strips]
    total = 1
    for hs, w in zip(m.heights, weights):
        total *= sum(x for _, x in hs) * sum(w)
    for heights in itertools.product(*m.heights):
        hw = 1
        for _, w in heights:
            hw *= w
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            window = [[s[(p + i) % len(s)] for i in range(h)] for s, p, (h, _) in zip(strips, stops, heights)]
            shown = []
            for col in window:  # an expanding wild covers the rows its reel shows (scatters counted before)
                wild = next((x for x in m.expanding if x in col), None)
                shown.append(col if wild is None else [wild] * len(col))
            credits, paid = 0, set()
            for (i, k), pay in symbol_pays(m, shown).items():  # the ways rule, every way listed
                credits += pay * m.bet_per_line
                paid.add(f"{k} x {names[i]}")
            n = sum(col.count(m.symbol_index("S")) for col in window)
            if n >= 2:
                credits += 2 * m.total_bet
                paid.add("scatter 2+ x S")
            key = (credits, frozenset(paid))
            sw = 1
            for w, p in zip(weights, stops):
                sw *= w[p]
            dist[key] = dist.get(key, Fraction(0)) + Fraction(hw * sw, total)
    return dist


EXPANDING = GAME.replace('W = { kind = "wild", multiplier = 2 }', 'W = { kind = "wild", multiplier = 2, expanding = true }')


@pytest.mark.parametrize("game", [GAME, EXPANDING], ids=["", "expanding wild"])
@pytest.mark.parametrize("weights", ["", "base_weights = [[2, 1, 0, 3], [1, 1, 1, 1, 4], [1, 2, 1]]\n"],
                         ids=["stops", "virtual stops"])
def test_heights_equal_brute_force(game, weights):
    m = model(game + weights)
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force(m))
    assert a.rtp == mean / 10 and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert sum(c.rtp for c in a.classes) == a.rtp and a.model.total_bet == 10


def test_a_fixed_height_is_the_ordinary_ways_game():
    fixed = GAME.replace("heights = [{ 1 = 1, 2 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 3 = 1 }]",
                         "heights = [{ 3 = 1 }, { 3 = 1 }, { 3 = 1 }]").replace(", total = 10", ", total = 27")
    ways = GAME.replace(", heights = [{ 1 = 1, 2 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 3 = 1 }]", "").replace(
        ", total = 10", "")
    a, b = analyse(model(fixed)), analyse(model(ways))
    assert (a.rtp, a.variance, a.hit_frequency) == (b.rtp, b.variance, b.hit_frequency)
    assert [c.probability for c in a.classes] == [c.probability for c in b.classes]


@pytest.mark.parametrize("change, where", [
    (("{ 2 = 1, 3 = 2 }", "{ 2 = 1, 4 = 2 }"), "window.heights, reel 2: height 4 is impossible"),
    (("{ 1 = 2, 3 = 1 }", "{ 1 = 0, 3 = 0 }"), "window.heights, reel 3: the weights sum to 0"),
    (("{ 1 = 2, 3 = 1 }]", "]"), "window.heights: must list one table of height weights per reel (3)"),
    ((", total = 10", ""), "bet: missing 'total'"),
    (("bet = { ways = 27, per_way = 1, total = 10 }", "bet = { per_line = 1, paylines = [[1, 1, 1]], total = 10 }"),
     "bet: a game with reel heights per spin pays every way"),
])
def test_bad_heights_are_located(tmp_path, change, where):
    refused(tmp_path, GAME.replace(*change), where)


def test_total_without_heights_is_refused(tmp_path):
    refused(tmp_path, GAME.replace(", heights = [{ 1 = 1, 2 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 3 = 1 }]", ""),
            "bet.total: only a game with reel heights per spin")


def test_too_many_windows_are_beyond_the_exact_reading(monkeypatch):
    from harness.slot import heights
    from harness.slot.errors import BeyondExact

    monkeypatch.setattr(heights, "MAX_HEIGHT_WINDOWS", 5)  # a valid model: beyond, not refused as impossible
    with pytest.raises(BeyondExact, match="window.heights: the reel heights and strips show"):
        heights.solve_by_windows(model(GAME))
    analyse(model(GAME))  # the analysis sums the ways over the reels: no window is listed


def test_japanese_checks_use_the_height_figures():
    a = analyse(model(GAME))
    assert {c.rule.id: c for c in check(a, "jp")}["jp-4-3"].value == a.rtp
