"""Weighted reel stops (virtual reels) against an independent brute force.

The brute force (``slot_support.brute_stage``) enumerates every combination
of PHYSICAL stops, weights it by the product of its stop weights, pays each
payline by the rule read straight from docs/slot_model.md and aggregates
what the analysis reports; it never builds a virtual reel.
"""
from __future__ import annotations

import pathlib
from fractions import Fraction

import pytest

import rngcore
from harness.slot.exact import analyse
from harness.slot.joint import joint_moments
from harness.slot.lines import build_line_automaton, line_classes
from harness.slot.model import load_model
from harness.slot.profiles import check
from harness.slot.reelset import feature_reelset
from harness.slot.simulate import simulate
from slot_support import award, brute_stage, model, refused

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINES = ["python", "c"]

# 3 x 3, five lines, a paying wild for A and K, a scatter that can stack in one
# column; uneven weights, a weight of 0, and free spins on other weights.
WEIGHTED = """
name = "weighted"
window = { rows = 3, reels = 3 }
bet = { per_line = 3, paylines = [[2, 2, 2], [1, 1, 1], [3, 3, 3], [1, 2, 3], [3, 2, 1]] }
[symbols]
A = { pays = { 2 = 1, 3 = 8 } }
K = { pays = { 3 = 4 } }
B = {}
W = { kind = "wild", substitutes = ["A", "K"], pays = { 3 = 30 } }
S = { kind = "scatter", pays = { 2 = 1, 3 = 6 } }
[reels]
base = ["A K B W S S B", "K A B S W A", "B A K S W B K A"]
base_weights = [[3, 1, 2, 1, 2, 1, 4], [2, 3, 1, 1, 1, 0], [1, 2, 2, 1, 1, 3, 1, 2]]
feature_weights = [[1, 1, 1, 5, 1, 1, 1], [1, 1, 1, 1, 4, 1], [1, 1, 1, 1, 5, 1, 1, 1]]
[free_spins]
spins = { 3 = 2 }
multiplier = 2
"""


def weighted(m, strips, weights):
    """The brute force of one stage, every physical stop combination weighted."""
    brute = brute_stage(m, strips, with_progressive=False, weights=weights)
    figures = (brute.count, brute.line_sum, brute.line_sq, brute.no_line_win, brute.class_scatter)
    return figures, [(w, t, k, seen) for w, (t, k, _, seen) in zip(brute.weights, brute.records)]


@pytest.mark.parametrize("engine", ENGINES)
def test_joint_figures_equal_weighted_brute_force(engine):
    m = model(WEIGHTED)
    figures, _ = weighted(m, m.feature_strips, m.feature_weights)
    got = joint_moments(feature_reelset(m), build_line_automaton(m, with_progressive=False), m.paylines,
                        engine=engine)
    assert (got.count, got.line_sum, got.line_sq, got.no_line_win, got.class_scatter) == figures
    assert got.cycle == 11 * 9 * 12


@pytest.mark.parametrize("engine", ENGINES)
def test_analysis_equals_weighted_brute_force(engine):
    m = model(WEIGHTED)
    a = analyse(m, engine=engine)
    _, base = weighted(m, m.base_strips, m.base_weights)
    _, free = weighted(m, m.feature_strips, m.feature_weights)
    cycle, free_cycle = sum(r[0] for r in base), sum(r[0] for r in free)
    assert a.cycle == cycle == 14 * 8 * 13
    scat = m.symbols[m.scatter].pays
    tb, bpl = m.total_bet, m.bet_per_line
    # one free spin's win (no retriggers): mean and second moment
    f1 = Fraction(sum(w * (bpl * t + tb * award(scat, k)) * 2 for w, t, k, _ in free), free_cycle)
    f2 = Fraction(sum(w * ((bpl * t + tb * award(scat, k)) * 2) ** 2 for w, t, k, _ in free), free_cycle)
    s1 = s2 = Fraction(0)
    hits = 0
    for w, t, k, _ in base:
        b = bpl * t + tb * award(scat, k)
        n = 2 if k >= 3 else 0  # free spins awarded
        mean_f, second_f = n * f1, n * f2 + n * (n - 1) * f1 * f1
        s1 += w * (b + mean_f)
        s2 += w * (b * b + 2 * b * mean_f + second_f)
        hits += w * (b > 0 or n > 0)
    mean = s1 / cycle
    assert a.rtp == mean / tb
    assert a.variance == s2 / cycle - mean * mean
    assert a.hit_frequency == Fraction(hits, cycle)
    names = [f"{c.count} x {m.symbol_names[c.symbol]}" for c in line_classes(m)]
    for cls in a.classes:
        if cls.kind == "line":
            c = names.index(cls.name)
            assert cls.base_probability == Fraction(sum(w for w, _, _, seen in base if c in seen), cycle), cls.name
    assert a.rarest.probability > 0


def test_unweighted_and_unit_weights_agree():
    """Weights of 1 everywhere are the unweighted game: every figure identical."""
    text = WEIGHTED.split("base_weights")[0] + "[free_spins]\nspins = { 3 = 2 }\nmultiplier = 2\n"
    ones = text.replace("[free_spins]", "base_weights = [[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], "
                        "[1, 1, 1, 1, 1, 1, 1, 1]]\n[free_spins]")
    a, b = analyse(model(text)), analyse(model(ones))
    assert (a.rtp, a.variance, a.hit_frequency) == (b.rtp, b.variance, b.hit_frequency)
    assert [(c.name, c.probability, c.per_line_probability) for c in a.classes] == [
        (c.name, c.probability, c.per_line_probability) for c in b.classes]


def test_example_is_annotated_and_passes_jp():
    path = ROOT / "examples" / "slot_weighted.toml"
    assert "base_weights" in path.read_text(encoding="utf-8")
    m = load_model(path)
    assert m.stop_totals() == (60, 60, 60) and all(len(s) == 22 for s in m.base_strips)
    a = analyse(m)
    assert a.rtp == Fraction(83999, 90000) and a.rarest.name == "3 x WILD"
    assert a.rarest.probability == Fraction(1, 2160)
    assert all(c.passed for c in check(a, "jp"))


def test_simulation_of_weighted_reels_inside_the_exact_interval():
    m = model(WEIGHTED)
    a = analyse(m)
    result = simulate(m, 300_000, rngcore.Generator(bytes(range(32)), 3))
    assert result.agrees(a) == (True, True)


@pytest.mark.parametrize("change, where", [
    (("[3, 1, 2, 1, 2, 1, 4]", "[3, 1, 2]"), "reels.base_weights: reel 1"),
    (("[2, 3, 1, 1, 1, 0]", "[0, 0, 0, 0, 0, 0]"), "reels.base_weights: reel 2"),
    (("[1, 2, 2, 1, 1, 3, 1, 2]", "[1, 2, 2, 1, 1, -3, 1, 2]"), "reels.base_weights: reel 3, position 6"),
    (("[1, 2, 2, 1, 1, 3, 1, 2]", "[1, 2, 2, 1, 1, 3.5, 1, 2]"), "reels.base_weights: reel 3, position 6"),
    (("[[3, 1, 2, 1, 2, 1, 4], ", "["), "reels.base_weights"),
    (("[1, 2, 2, 1, 1, 3, 1, 2]", "[1, 2, 2, 1, 1, 3, 1, 99999]"), "reels.base_weights: reel 3"),
    (("[free_spins]\nspins = { 3 = 2 }\nmultiplier = 2\n", ""), "reels.feature_weights"),
])
def test_bad_weights_exit_2_naming_the_key_and_file(tmp_path, change, where):
    text = WEIGHTED.replace(*change)
    assert text != WEIGHTED
    refused(tmp_path, text, where)
