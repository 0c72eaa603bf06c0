"""Free spins in ways games with reel heights per spin or both-ways pays (docs/slot_model.md, "Reel
heights per spin", "Both-ways pays"): the stages of harness.slot.exact built from every height's
columns (harness.slot.height_reels.reelset) and read both ways by the ways programme, against a brute force
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
# the wild expands over the rows its reel shows, the scatters counted before it does
EXPANDING = GAME.replace('W = { kind = "wild", multiplier = 2 }', 'W = { kind = "wild", multiplier = 2, expanding = true }')
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
GAMES = [GAME, BOTH_WAYS, FIXED_BOTH_WAYS, EXPANDING]
IDS = ["heights", "heights both ways", "both ways", "heights expanding"]


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


# --- the plays: every spin draws its reels' heights again (harness/slot/spin.py, the C kernel) ------------

SEED = bytes(range(32))


def reference_spin(m, draw, *, feature: bool):
    """One spin by the rules alone: reel by reel, the height (``draw(H)`` below the total height weight, the
    heights in order each covering its weight), then the stop (``draw(W)`` below the total stop weight, the
    physical stops in order each covering theirs).  (stops, height draws, credits, scatters shown)."""
    strips = m.feature_strips if feature else m.base_strips
    weights = m.feature_weights if feature else m.base_weights
    sx = m.free_spins.scatter  # a symbol index
    stops, drawn, window = [], [], []
    for r, strip in enumerate(strips):
        by_draw = [h for h, w in m.heights[r] for _ in range(w)]
        virtual = [p for p, w in enumerate(weights[r] if weights else [1] * len(strip)) for _ in range(w)]
        j = draw(len(by_draw))
        v = draw(len(virtual))
        drawn.append(j)
        stops.append(v)
        window.append([strip[(virtual[v] + i) % len(strip)] for i in range(by_draw[j])])
    n = sum(col.count(sx) for col in window)  # before any wild expands
    shown = []
    for col in window:  # an expanding wild covers the rows its reel shows; the first listed wins
        wild = next((x for x in m.expanding if x in col), None)
        shown.append(col if wild is None else [wild] * len(col))
    credits = (m.bet_per_line * sum(ref.symbol_pays(m, shown, both_ways=m.both_ways).values())
               + award(m.symbols[sx].pays, n) * m.total_bet)
    return stops, drawn, credits * (m.free_spins.multiplier if feature else 1), n


def reference_play(m, draw):
    """(every spin's stops, every spin's height draws, award): the paid spin, then each free spin once owed."""
    stops, drawn, award_, n = reference_spin(m, draw, feature=False)
    spins, heights, owed = [stops], [drawn], award(m.free_spins.spins, n)
    while owed:
        stops, drawn, credits, n = reference_spin(m, draw, feature=True)
        spins.append(stops)
        heights.append(drawn)
        award_ += credits
        owed += award(m.free_spins.retrigger, n) - 1
    return spins, heights, award_


@pytest.mark.parametrize("text", [GAME, RETRIGGERS, BOTH_WAYS, EXPANDING],
                         ids=["heights", "retriggers", "both ways", "expanding"])
def test_a_play_draws_every_spins_heights_as_the_reference_does(text):
    """From one seeded stream, the round's play and the reference draw the same heights and stops, spin for
    spin (free spins included), and award the same; the play re-derives from its record."""
    import rngcore

    from harness.slot.spin import Player

    m = model(text)
    player, g = Player(m), rngcore.Generator(SEED, stream=11)
    mine = rngcore.Generator(SEED, stream=11)
    freed = 0
    for _ in range(400):
        p = player.spin(g)
        assert (p.stops, p.heights, p.award) == reference_play(m, lambda bound: int(mine.integers(0, bound)))
        assert player.evaluate(p.stops, heights=p.heights) == p
        freed += len(p.spins) - 1
    assert freed > 50


@pytest.mark.parametrize("text", [GAME, RETRIGGERS, EXPANDING], ids=["heights", "retriggers", "expanding"])
def test_the_kernel_plays_the_draws_a_round_plays(text):
    """The C kernel draws each reel's height then its stop, on every spin, as a round's play does: from one
    stream its totals are the plays' totals."""
    import rngcore

    from harness.slot.simulate import simulate
    from harness.slot.spin import Player

    m = model(text)
    player, g = Player(m), rngcore.Generator(SEED, stream=12)
    plays = [player.spin(g) for _ in range(3000)]
    got = simulate(m, 3000, rngcore.Generator(SEED, stream=12))
    assert got.engine == "C"
    assert (got.plays, got.hits, got.line_win, got.scatter_win, got.feature_win, got.free_spins, got.win_sq) == (
        3000, sum(1 for p in plays if p.award or len(p.spins) > 1), sum(p.line_win for p in plays),
        sum(p.scatter_win for p in plays), sum(p.feature_win for p in plays), sum(len(p.spins) - 1 for p in plays),
        sum(p.award ** 2 for p in plays))
    assert got.free_spins > 500


@pytest.mark.parametrize("text", [GAME, BOTH_WAYS, EXPANDING], ids=["heights", "both ways", "expanding"])
def test_every_draw_of_a_spin_is_read_as_the_brute_force_reads_it(text):
    """Every height draw and stop draw of every reel, of the paid spin and of a free spin, read by the round's
    play: the distribution of (credits, spins awarded) equals the brute force's over every height and stop."""
    import itertools

    from harness.slot.spin import Player

    m = model(text)
    player = Player(m)
    for stage, feature in ((player.base, False), (player.free, True)):
        got: dict = {}
        per_reel = [range(sum(ws)) for _, ws in stage.heights]
        combos = list(itertools.product(*(itertools.product(h, range(b)) for h, b in zip(per_reel, stage.bounds.tolist()))))
        for combo in combos:
            drawn, stops = tuple(j for j, _ in combo), tuple(v for _, v in combo)
            spin = stage.evaluate(stops, stage.columns(stops, drawn), heights=drawn)
            key = (spin.win, spin.spins_awarded)
            got[key] = got.get(key, 0) + Fraction(1, len(combos))
        want: dict = {}
        for q, c, j, _ in spins(m, feature=feature):
            want[(c, j)] = want.get((c, j), 0) + q
        assert got == want


def test_heights_with_free_spins_simulate_inside_the_exact_interval(tmp_path):
    """The C kernel (one way) and a round's play (both ways) draw every free spin's heights again."""
    import json

    from click.testing import CliRunner

    from harness.cli import main

    for text, plays, engine in ((RETRIGGERS, 200_000, "C"), (BOTH_WAYS, 20_000, "Python round play"),
                                (EXPANDING, 200_000, "C")):
        path = tmp_path / "game.toml"
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["slot", str(path), "--simulate", str(plays), "--seed", SEED.hex(), "--json"])
        assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
        report = json.loads(result.stdout)["simulation"]
        assert report["plays"] == plays and report["engine"] == engine and report["free_spins"] > 0, report
        assert report["rtp_exact_inside"] and report["hit_frequency_exact_inside"], report


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


@pytest.mark.slow
@pytest.mark.parametrize("name, plays", [("slot_megaways_free_spins", 20_000_000),
                                         ("slot_megaways_both_ways", 20_000)])
def test_example_simulates_inside_the_exact_interval(name, plays):
    """The shipped example through the C kernel at 20 M plays (and the both-ways example, free spins added,
    through a round's play): the exact RTP and hit frequency inside the 99.9% intervals."""
    import rngcore

    from harness.slot.simulate import simulate

    text = (ROOT / "examples" / f"{name}.toml").read_text(encoding="utf-8")
    if name == "slot_megaways_both_ways":
        text += '[free_spins]\nscatter = "SCATTER"\nspins = { 4 = 8 }\nretrigger = { 4 = 4 }\nmultiplier = 2\n'
    m = model(text)
    got = simulate(m, plays, rngcore.Generator(SEED, stream=13))
    assert got.agrees(analyse(m)) == (True, True), (float(analyse(m).rtp), got.rtp_interval())
    assert got.free_spins > 0
