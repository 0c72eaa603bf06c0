"""Free spins in ways games with reel heights per spin or both-ways pays (docs/slot_model.md, "Reel
heights per spin", "Both-ways pays"): the stages of harness.slot.exact built from every height's
columns (harness.slot.heights.reelset) and read both ways by the ways programme, against a brute force
that lists every height, stop and way of the paid spin and of one free spin, read from both ends
where the game says so (``ways_reference``), and combines them into the whole play's distribution (without retriggers:
exactly, every number of free spins convolved; with them: first-step equations over the spins left),
and the shipped example ``examples/slot_megaways_free_spins.toml`` at full size against the textbook
ways product and the scatters' count convolved over the reels."""
from __future__ import annotations

import math
import pathlib
from fractions import Fraction

import pytest
from slot_support import award, feature_value_by_first_step, model, refused, round_play_simulates, simulate_refused
from test_slot_megaways import scatter_distribution
import ways_reference as ref

from harness.benchcases.slot_ways import FREE_SPINS_RTP
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import check

GAME = """
name = "heights with free spins"
[window]
rows = 3
reels = 3
heights = [{ 1 = 1, 3 = 2 }, { 2 = 1, 3 = 1 }, { 1 = 1, 2 = 1, 3 = 1 }]
[bet]
ways = 27
per_way = 2
total = 12
[symbols]
A = { pays = { 2 = 1, 3 = 6 } }
K = { pays = { 3 = 3 } }
W = { kind = "wild", multiplier = 2 }
S = { kind = "scatter", pays = { 2 = 1 } }
X = {}
[reels]
base = ["A K S W X", "K W A S X A", "A S K W X"]
base_weights = [[1, 2, 1, 1, 3], [2, 1, 1, 1, 1, 2], [1, 1, 2, 1, 1]]
feature = ["A K W X X", "K W A S X", "A S K X"]
[free_spins]
scatter = "S"
spins = { 2 = 2, 3 = 3 }
multiplier = 2
"""
RETRIGGERS = GAME.replace("multiplier = 2\n", "multiplier = 2\nretrigger = { 2 = 1 }\n")
BOTH_WAYS = GAME.replace("per_way = 2", "per_way = 2\nboth_ways = true")
FIXED_BOTH_WAYS = """
name = "both ways with free spins"
window = { rows = 2, reels = 4 }
bet = { ways = 16, per_way = 1, both_ways = true }
[symbols]
A = { pays = { 3 = 5, 4 = 20 } }
K = { pays = { 2 = 1, 3 = 2, 4 = 8 } }
W = { kind = "wild", multiplier = 3 }
S = { kind = "scatter", pays = { 2 = 2 } }
X = {}
[reels]
base = ["A K W S X", "K A X", "A S K W X", "K A A S X"]
feature = ["A W X", "K A S", "A K X", "K S A X"]
[free_spins]
scatter = "S"
spins = { 2 = 3 }
multiplier = 3
"""
GAMES = [GAME, BOTH_WAYS, FIXED_BOTH_WAYS]
IDS = ["heights", "heights both ways", "both ways"]


def spins(m, *, feature: bool):
    """[(probability, credits won, spins awarded, line classes paid)] of one spin, every height, stop and way."""
    out = []
    sx = m.symbol_index("S")
    names = m.symbol_names
    rows = list(ref.windows(m, feature=feature))
    total = sum(w for *_, w in rows)
    for window, raw, w in rows:
        pays = ref.symbol_pays(m, window, both_ways=m.both_ways)
        n = sum(col.count(sx) for col in raw)
        credits = m.bet_per_line * sum(pays.values()) + award(m.symbols[sx].pays, n) * m.total_bet
        awarded = award(m.free_spins.retrigger if feature else m.free_spins.spins, n)
        if feature:
            credits *= m.free_spins.multiplier
        out.append((Fraction(w, total), credits, awarded, {f"{k} x {names[i]}" for i, k in pays}))
    return out


@pytest.mark.parametrize("text", GAMES, ids=IDS)
def test_without_retriggers_every_play_equals_the_analysis(text):
    m = model(text)
    a = analyse(m)
    base, free = spins(m, feature=False), spins(m, feature=True)
    assert all(j == 0 for _, _, j, _ in free)
    one = {}  # one free spin's win distribution
    for p, c, _, _ in free:
        one[c] = one.get(c, 0) + p
    mean = second = hit = Fraction(0)
    classes = {name for *_, paid in base + free for name in paid}
    once = dict.fromkeys(classes, Fraction(0))
    sums = {0: {0: Fraction(1)}}  # n -> the distribution of n free spins' total win, convolved
    for n in range(1, max(n for _, _, n, _ in base) + 1):
        nxt: dict = {}
        for x, q in sums[n - 1].items():
            for y, r in one.items():
                nxt[x + y] = nxt.get(x + y, 0) + q * r
        sums[n] = nxt
    f1 = {n: sum(x * q for x, q in d.items()) for n, d in sums.items()}
    f2 = {n: sum(x * x * q for x, q in d.items()) for n, d in sums.items()}
    missed = {name: sum((q for q, _, _, pd in free if name not in pd), Fraction(0)) for name in classes}
    for p, c, n, paid in base:  # the play's win: the paid spin's c plus n free spins'
        mean += p * (c + f1[n])
        second += p * (c * c + 2 * c * f1[n] + f2[n])
        hit += p * (c > 0 or n > 0)
        for name in classes:
            once[name] += p * (1 if name in paid else 1 - missed[name] ** n)
    assert a.rtp == mean / m.total_bet
    assert a.variance == second - mean * mean
    assert a.hit_frequency == hit
    got = {c.name: c.probability for c in a.classes if c.kind == "line"}
    assert got == {k: v for k, v in once.items() if v}
    assert a.parts["feature"] > 0 and a.cycle == math.prod(sum(w for _, w in ref.reel_heights(m, r)) * (
        sum(m.base_weights[r]) if m.base_weights else len(m.base_strips[r])) for r in range(m.reels))


@pytest.mark.parametrize("text", [RETRIGGERS, FIXED_BOTH_WAYS.replace("multiplier = 3\n",
                                                                      "multiplier = 3\nretrigger = { 2 = 1 }\n")],
                         ids=["heights", "both ways"])
def test_with_retriggers_the_feature_equals_first_step_equations(text):
    m = model(text)
    a = analyse(m)
    base, free = spins(m, feature=False), spins(m, feature=True)
    per_spin: dict = {}
    for p, c, j, _ in free:
        per_spin[(c, j)] = per_spin.get((c, j), 0) + p
    ev, _ = feature_value_by_first_step(per_spin, n_max=80, sweeps=200)  # E[one free spin and its retriggers]
    triggered = sum(p * n for p, _, n, _ in base)
    assert abs(float(a.parts["feature"]) - float(triggered) * ev / m.total_bet) < 1e-9
    assert a.parts["lines"] + a.parts["scatters"] == sum(p * c for p, c, _, _ in base) / m.total_bet


def test_fixed_heights_are_the_ways_game_with_the_same_free_spins():
    tall = GAME.replace("heights = [{ 1 = 1, 3 = 2 }, { 2 = 1, 3 = 1 }, { 1 = 1, 2 = 1, 3 = 1 }]",
                        "heights = [{ 3 = 1 }, { 3 = 1 }, { 3 = 1 }]").replace("total = 12", "total = 54")
    plain = GAME.replace("heights = [{ 1 = 1, 3 = 2 }, { 2 = 1, 3 = 1 }, { 1 = 1, 2 = 1, 3 = 1 }]\n", "") \
        .replace("total = 12\n", "")
    a, b = analyse(model(tall)), analyse(model(plain))
    assert b.model.total_bet == 54
    assert (a.rtp, a.variance, a.hit_frequency, a.parts) == (b.rtp, b.variance, b.hit_frequency, b.parts)


@pytest.mark.parametrize("text, where", [
    (GAME.replace('W = { kind = "wild", multiplier = 2 }', 'W = { kind = "wild", sticky = true }'),
     "symbols.W.sticky: a game with reel heights per spin has no sticky wilds"),
    (GAME + '[cascade]\nrefill = ["X", "X", "X"]\n',
     "window.heights: a game with reel heights per spin has no [free_spins] section"),
    (FIXED_BOTH_WAYS.replace('W = { kind = "wild", multiplier = 3 }', 'W = { kind = "wild", sticky = true }'),
     "symbols.W.sticky: a both-ways game has no sticky wilds"),
    (FIXED_BOTH_WAYS.replace("bet = { ways = 16, per_way = 1, both_ways = true }",
                             "bet = { per_line = 1, paylines = [[1, 1, 1, 1], [2, 2, 2, 2]], both_ways = true }"),
     "bet.both_ways: a both-ways game has no [free_spins] section"),
])
def test_what_heights_with_free_spins_still_refuse_is_located(tmp_path, text, where):
    refused(tmp_path, text, where)


def test_simulation_is_refused_located_not_played_without_the_free_spins(tmp_path):
    simulate_refused(tmp_path, GAME, "free_spins: --simulate does not play free spins with reel heights yet")


def test_both_ways_free_spins_simulate_inside_the_exact_interval(tmp_path):
    report = round_play_simulates(tmp_path, FIXED_BOTH_WAYS.replace("multiplier = 3\n",
                                                                    "multiplier = 3\nretrigger = { 2 = 1 }\n"), 20_000)
    assert report["features"] > 0


# --- the shipped example at full size -------------------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "slot_megaways_free_spins.toml"


@pytest.fixture(scope="module")
def example():
    return analyse(load_model(EXAMPLE))


def test_example_feature_is_its_paid_spin_doubled_times_the_spins(example):
    """Its free spins play the base strips x 2, so one free spin wins twice the paid spin's lines and
    scatters (the lines: the textbook ways product; the scatters: their count convolved over the
    reels), and a play gets E[spins started] / (1 - E[spins a free spin awards]) of them."""
    m = example.model
    assert m.feature_strips == m.base_strips and m.free_spins.multiplier == 2
    credits, _ = ref.product_formula(m)
    dist = scatter_distribution(m)
    sx = m.symbol_index("SCATTER")
    lines = sum(credits.values())
    scatters = sum(p * award(m.symbols[sx].pays, k) for k, p in dist.items()) * m.total_bet
    started = sum(p * award(m.free_spins.spins, k) for k, p in dist.items())
    awarded = sum(p * award(m.free_spins.retrigger, k) for k, p in dist.items())
    assert example.parts["lines"] == lines / m.total_bet
    assert example.parts["feature"] == started / (1 - awarded) * 2 * (lines + scatters) / m.total_bet
    assert example.rtp == FREE_SPINS_RTP  # the bench's pin
    assert example.cycle == 100 ** 6 * 12 ** 6


def test_example_verdict_and_docs_row(example):
    assert all(r.passed for r in check(example, "jp"))
    doc = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `slot_megaways_free_spins.toml`"))
    assert f"RTP {float(example.rtp) * 100:.2f}%" in row
    assert f"1 in {float(1 / example.rarest.probability):,.0f}" in row and "pass" in row


def test_a_play_of_free_spins_with_heights_is_refused_not_drawn_at_full_height():
    from harness.slot.errors import ModelError
    from harness.slot.spin import Player

    with pytest.raises(ModelError, match="free_spins: a play of free spins with reel heights per spin is not drawn"):
        Player(model(GAME))
    player = Player(model(FIXED_BOTH_WAYS))  # both ways: a free spin is read as the analysis reads it
    assert player.free is not None
