"""Several scatter symbols against an independent brute force.

The brute force enumerates every stop combination, counts each scatter
symbol in the window on its own, pays each scatter from its own table and
the free spins from the trigger scatter's count, pays every payline by the
rule read straight from docs/slot_model.md (``slot_support.reference_line``),
and takes the free spins (no retriggers here) as a sum of independent spins.
It never forms the joint scatter cells the analysis and the kernels index by.
"""
from __future__ import annotations

import itertools
import pathlib
from fractions import Fraction

import pytest

import numpy as np
import rngcore
from harness.slot.exact import analyse
from harness.slot.joint import joint_moments
from harness.slot.lines import build_line_automaton, line_classes
from harness.slot.model import load_model
from harness.slot.profiles import check
from harness.slot.reelset import base_reelset, feature_reelset
from harness.slot.simulate import simulate, simulate_numpy
import ways_reference
from slot_support import award, model, reference_line, refused

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINES = ["python", "c"]

# 3 x 3, four lines; S pays and triggers free spins, B pays only (it can stack
# two high in one column); a wild for A only; free spins on their own strips.
TWO = """
name = "two scatters"
window = { rows = 3, reels = 3 }
bet = { per_line = 2, paylines = [[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 2, 3]] }
[symbols]
A = { pays = { 2 = 1, 3 = 9 } }
K = { pays = { 3 = 5 } }
W = { kind = "wild", substitutes = ["A"], pays = { 3 = 40 } }
S = { kind = "scatter", pays = { 2 = 2, 3 = 10 } }
B = { kind = "scatter", pays = { 1 = 1, 3 = 4, 5 = 30 } }
[reels]
base = ["A S K B B W K", "K A B S A K", "B A K W S A K B"]
feature = ["A W K S B A", "W A S K B K A", "A B K W S K"]
[free_spins]
scatter = "S"
spins = { 2 = 1, 3 = 3 }
multiplier = 2
"""


def enumerate_stage(m, strips):
    """Per stop combination: (line pay multiple, {scatter name: count}, line classes paid)."""
    names = m.symbol_names
    classes = {(c.symbol, c.count): f"{c.count} x {names[c.symbol]}" for c in line_classes(m)}
    scatters = [names[x] for x in m.scatters]
    out = []
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        cols = [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        total, seen = 0, set()
        for line in m.paylines:
            pay, cls, _ = reference_line(m, [cols[r][line[r]] for r in range(m.reels)])
            total += pay
            if cls is not None:
                seen.add(classes[cls])
        counts = {n: sum(names[x] == n for col in cols for x in col) for n in scatters}
        out.append((total, counts, seen))
    return out


def scatter_seen(m, counts, stage):
    """The scatter classes a window pays (as the analysis names them), for this model's tables."""
    out = set()
    ranges = {"S": [(2, 2, "2"), (3, 9, "3+")], "B": [(1, 2, "1-2"), (3, 4, "3-4"), (5, 9, "5+")]}
    for name, spans in ranges.items():
        for lo, hi, label in spans:
            if lo <= counts[name] <= hi:
                out.add(f"scatter {label} x {name}")
    return out


def window_win(m, total, counts, mult=1):
    pays = sum(award(m.symbols[x].pays, counts[m.symbol_names[x]]) for x in m.scatters)
    return mult * (m.bet_per_line * total + m.total_bet * pays)


@pytest.mark.parametrize("engine", ENGINES)
def test_joint_figures_are_indexed_by_the_joint_counts(engine):
    """Each joint cell (one count per scatter symbol) holds what the brute force finds there."""
    m = model(TWO)
    code = m.scatter_code
    assert code.symbols == (3, 4) and code.radix == (4, 6)  # at most 3 S, 5 B in a window
    for strips, reels in ((m.base_strips, base_reelset(m)), (m.feature_strips, feature_reelset(m))):
        got = joint_moments(reels, build_line_automaton(m, with_progressive=False), m.paylines, engine=engine)
        want: dict[tuple[int, int], list[int]] = {}
        for total, counts, _ in enumerate_stage(m, strips):
            cell = want.setdefault((counts["S"], counts["B"]), [0, 0, 0])
            cell[0] += 1
            cell[1] += total
            cell[2] += total * total
        for k, (n, s1, s2) in enumerate(zip(got.count, got.line_sum, got.line_sq)):
            key = (code.count(k, 0), code.count(k, 1)) if k < code.cells else None
            assert [n[0], s1[0], s2[0]] == want.pop(key, [0, 0, 0]), (k, key)
        assert not want


@pytest.mark.parametrize("engine", ENGINES)
def test_analysis_equals_brute_force(engine):
    m = model(TWO)
    a = analyse(m, engine=engine)
    base, free = enumerate_stage(m, m.base_strips), enumerate_stage(m, m.feature_strips)
    n, nf = len(base), len(free)
    f1 = Fraction(sum(window_win(m, t, c, 2) for t, c, _ in free), nf)
    f2 = Fraction(sum(window_win(m, t, c, 2) ** 2 for t, c, _ in free), nf)
    free_seen: dict[str, int] = {}
    for t, c, seen in free:
        for name in seen | scatter_seen(m, c, "free"):
            free_seen[name] = free_seen.get(name, 0) + 1
    s1 = s2 = Fraction(0)
    hits = 0
    per_play: dict[str, Fraction] = {}
    for t, c, seen in base:
        b = window_win(m, t, c)
        spins = award(m.free_spins.spins, c["S"])
        s1 += b + spins * f1
        s2 += b * b + 2 * b * spins * f1 + spins * f2 + spins * (spins - 1) * f1 * f1
        hits += b > 0 or spins > 0
        shown = seen | scatter_seen(m, c, "base")
        for name in set(free_seen) | shown:
            never = (1 - Fraction(free_seen.get(name, 0), nf)) ** spins
            per_play[name] = per_play.get(name, 0) + (1 if name in shown else 1 - never)
    mean = s1 / n
    assert a.rtp == mean / m.total_bet
    assert a.variance == s2 / n - mean * mean
    assert a.hit_frequency == Fraction(hits, n)
    got = {c.name: c.probability for c in a.classes if c.probability}
    assert got == {name: Fraction(p) / n for name, p in per_play.items()}
    assert all(c.exact for c in a.classes)
    assert a.rarest.probability == min(got.values())


def test_simulations_inside_the_exact_intervals():
    m = model(TWO)
    a = analyse(m)
    seed = bytes(range(32))
    assert simulate(m, 400_000, rngcore.Generator(seed, 5)).agrees(a) == (True, True)
    assert simulate_numpy(m, 100_000, np.random.Generator(np.random.PCG64(19))).agrees(a) == (True, True)


def test_example_with_two_scatters():
    path = ROOT / "examples" / "slot_two_scatters.toml"
    m = load_model(path)
    assert len(m.scatters) == 2 and m.free_spins.scatter == m.symbol_index("BONUS")
    assert m.symbols[m.symbol_index("WILD")].multiplier == 2
    a = analyse(m)
    credits, _ = ways_reference.product_formula(m)  # WILD (x2: two cells' worth) on reels 2 to 4 only
    assert a.parts["lines"] == sum(credits.values()) / m.total_bet
    names = {c.name for c in a.classes}
    assert {"scatter 5+ x BONUS", "scatter 3 x COIN", "scatter 5+ x COIN"} <= names
    assert all(c.passed for c in check(a, "jp"))


@pytest.mark.parametrize("change, where", [
    (('scatter = "S"\n', ""), "free_spins: 2 scatter symbols"),
    (('scatter = "S"', 'scatter = "A"'), "free_spins.scatter"),
    (('scatter = "S"', 'scatter = "Z"'), "free_spins.scatter"),
])
def test_bad_scatter_models_exit_2_naming_the_key_and_file(tmp_path, change, where):
    text = TWO.replace(*change)
    assert text != TWO
    refused(tmp_path, text, where)


def test_too_many_joint_counts_is_refused(tmp_path):
    symbols = "\n".join(f'S{i} = {{ kind = "scatter", pays = {{ 1 = 1 }} }}' for i in range(5))
    strip = " ".join(f"S{i}" for i in range(5)) + " A"
    text = (f'window = {{ rows = 3, reels = 5 }}\nbet = {{ per_line = 1, paylines = [[1, 1, 1, 1, 1]] }}\n'
            f'[symbols]\nA = {{ pays = {{ 3 = 1 }} }}\n{symbols}\n[reels]\nbase = {[strip] * 5}\n')
    refused(tmp_path, text, "joint counts")


def test_the_c_kernels_refuse_cells_beyond_their_tables():
    """Award tables shorter than the scatter cells the stops can reach are refused (RNG_E_ARGUMENT), never read."""
    native = pytest.importorskip("harness.slot.native")
    m = model(TWO)
    game = native.SimGame(m, 10**6)
    game.ptr.max_scatter = 1  # award tables too short for the cells the stops show
    tally = native.ffi.new("kern_slot_tally *")
    generator = rngcore.Generator(bytes(range(32)), 1)
    from rngcore.engine import locked_call

    with pytest.raises(ValueError):
        locked_call(generator, native.lib.kern_slot_simulate, game.ptr, 10, tally, what="slot simulation")
    assert tally.refused == native.lib.KERN_SLOT_REFUSED_TABLES
