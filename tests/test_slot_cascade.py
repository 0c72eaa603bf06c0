"""Cascades (docs/slot_model.md, "Cascades"): the exact chain of harness.slot.cascade
against an independent brute force that follows every stop combination and every
refill stop through the whole play, windows kept as shown (never sorted); with reel heights per
spin, every height combination too, each reel refilled to the height it drew."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import model, play_figures, reference_line, refused
from ways_reference import paid_cells, symbol_pays

from harness.slot.exact import analyse
from harness.slot.profiles import check


def _evaluate(m, window):
    """(credits before the ladder, classes paid, cells removed) straight from the line rule (or the
    ways rule, reel heights too: each paid symbol's matching cells on its paid reels)."""
    total, classes, cells = 0, set(), set()
    if m.ways:  # the ways rule, every way listed (tests/ways_reference.py)
        pays = symbol_pays(m, window)
        return sum(pays.values()) * m.bet_per_line, set(pays), paid_cells(m, window)
    for path in m.paylines:
        pay, combination, _ = reference_line(m, [window[r][row] for r, row in enumerate(path)])
        if pay:
            total += pay * m.bet_per_line
            classes.add(combination)
            cells |= {(r, path[r]) for r in range(combination[1])}
    return total, classes, cells


def _play(m, window, k, depth):
    """Outcome distribution {(credits, classes paid, last window): probability} of the play from
    ``window``, the ``k``-th window of the play; every refill stop followed to ``depth`` windows."""
    ladder = m.cascade.ladder
    pay, classes, cells = _evaluate(m, window)
    if not pay:
        return {(0, frozenset(), window): Fraction(1)}
    credits = pay * ladder[min(k, len(ladder) - 1)]
    if depth == 1:
        raise AssertionError("the brute force was given too small a depth for this model")
    options = []
    for r, column in enumerate(window):
        kept = [x for row, x in enumerate(column) if (r, row) not in cells]
        strip = m.cascade.refill[r]
        options.append([(list(new) + kept, Fraction(1, len(strip) ** len(new)))
                        for new in itertools.product(strip, repeat=len(column) - len(kept))])
    out: dict = {}
    for combo in itertools.product(*options):
        p = 1
        for _, q in combo:
            p *= q
        for (later, seen, last), q in _play(m, tuple(tuple(c) for c, _ in combo), k + 1, depth - 1).items():
            key = (credits + later, frozenset(classes) | seen, last)
            out[key] = out.get(key, Fraction(0)) + p * q
    return out


def paid_spins(m, strips):
    """``(window, probability)`` of every paid spin on ``strips`` (every stop combination and, with reel
    heights per spin, every height combination, each as likely as its weights say), windows as shown."""
    heights = m.heights or [((m.rows, 1),)] * m.reels
    cycle = 1
    for s, hs in zip(strips, heights):
        cycle *= len(s) * sum(w for _, w in hs)
    for shape in itertools.product(*heights):
        weight = 1
        for _, w in shape:
            weight *= w
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            yield (tuple(tuple(s[(p + i) % len(s)] for i in range(h)) for s, p, (h, _) in zip(strips, stops, shape)),
                   Fraction(weight, cycle))


def brute_force(m, depth):
    """(mean, second moment, hit frequency, P(class at least once)) per play, over every paid spin."""
    dist: dict = {}
    for window, weight in paid_spins(m, m.base_strips):
        for (credits, seen, _), q in _play(m, window, 0, depth).items():
            dist[credits, seen] = dist.get((credits, seen), Fraction(0)) + q * weight
    return play_figures(dist)


# Reel 1 refills with the blank X only, and every win runs from reel 1: each cascade turns at least
# one of reel 1's two cells into X, so a play has at most three windows and the brute force is complete.
WAYS = """
name = "cascade ways"
window = { rows = 2, reels = 3 }
bet = { ways = 8, per_way = 1 }
[symbols]
A = { pays = { 3 = 5 } }
K = { pays = { 2 = 1, 3 = 2 } }
W = { kind = "wild" }
X = {}
[reels]
base = ["A K X K", "K A W X A", "A X K"]
[cascade]
refill = ["X", "A K W X", "K A X"]
ladder = [1, 2, 5]
"""

# WAYS with reel heights per spin (docs/slot_model.md, "Cascades with reel heights"): each reel keeps
# the height it drew through its refills; reel 1 still refills with X only, so the play stays short.
HEIGHTS = (WAYS.replace("window = { rows = 2, reels = 3 }", "window = { rows = 2, reels = 3, heights = "
                         "[{ 1 = 1, 2 = 2 }, { 1 = 1, 2 = 1 }, { 1 = 2, 2 = 3 }] }")
           .replace("per_way = 1 }", "per_way = 1, total = 4 }")
           .replace('W = { kind = "wild" }', 'W = { kind = "wild", multiplier = 2 }'))

LINES = """
name = "cascade lines"
window = { rows = 3, reels = 3 }
bet = { per_line = 2, paylines = [[1, 1, 1], [2, 2, 2], [3, 3, 3], [1, 2, 3]] }
[symbols]
A = { pays = { 3 = 8 } }
K = { pays = { 2 = 1, 3 = 3 } }
W = { kind = "wild", pays = { 3 = 20 }, multiplier = 2 }
X = {}
[reels]
base = ["A K X W", "K A W", "X A K"]
[cascade]
refill = ["X", "A K W", "K X A"]
ladder = [1, 3]
"""

BASE = """
window = { rows = 1, reels = 3 }
bet = { per_line = 1, paylines = [[1, 1, 1]] }
[symbols]
A = { pays = { 3 = 10 } }
B = {}
[reels]
base = ["A B", "A B", "A B"]
"""


@pytest.mark.parametrize("text", [WAYS, LINES, HEIGHTS], ids=["ways", "lines", "heights"])
def test_chain_equals_brute_force(text):
    m = model(text)
    a = analyse(m)
    mean, second, hit, once = brute_force(m, depth=m.rows + 2)
    tb = m.total_bet
    assert a.rtp == mean / tb and a.rtp > a.parts["lines"] > 0 and a.parts["cascade"] > 0
    assert a.variance == second - mean * mean
    assert a.hit_frequency == hit
    names = m.symbol_names
    by_name = {f"{count} x {names[symbol]}": p for (symbol, count), p in once.items()}
    assert {c.name: c.probability for c in a.classes if c.probability} == by_name
    assert sum(c.rtp for c in a.classes) == a.rtp
    assert a.cascade.states > 0 and a.rarest.exact


def test_endless_refill_is_a_geometric_sum():
    # One line AAA: each window pays 10 with probability 1/8 and is refilled whole.
    m = model(BASE + '[cascade]\nrefill = ["A B", "A B", "A B"]\nladder = [1, 2, 3]\n')
    a = analyse(m)
    q = Fraction(1, 8)
    # P(k-th window pays) = q^(k+1); its multiplier 1, 2, then 3 for ever after.
    assert a.rtp == 10 * q * (1 + 2 * q + 3 * q * q / (1 - q))
    assert a.cascade.cascades == q / (1 - q)  # refills per play: a window pays, one refill follows
    assert a.hit_frequency == q and a.classes[0].probability == q


def test_refill_that_always_pays_again_is_refused(tmp_path):
    refused(tmp_path, BASE + '[cascade]\nrefill = ["A", "A", "A"]\n',
            "cascade.refill: from the window A / A / A the cascades never end")


@pytest.mark.parametrize("extra, where", [
    ("[cascade]\nladder = [1, 2]\n", "cascade: missing 'refill'"),
    ("[cascade]\nrefill = [\"A B\", \"A B\"]\n", "cascade.refill: must list exactly 3 reel strips"),
    ("[cascade]\nrefill = [\"A B\", \"A Q\", \"A B\"]\n", "cascade.refill: reel 2, position 2"),
    ("[cascade]\nrefill = [\"A B\", \"A B\", \"A B\"]\nladder = [1, 0]\n", "cascade.ladder: rung 2"),
    ("[cascade]\nrefill = [\"A B\", \"A B\", \"A B\"]\nladder = []\n", "cascade.ladder"),
    ("[cascade]\nrefill = [\"A B\", \"A B\", \"A B\"]\nrows = 3\n", "cascade: unknown key 'rows'"),
    ("[cascade]\nrefill = [\"A B\", \"A B\", \"A B\"]\n[cap]\nwin = 100\n", "cascade: a cascade model has no [cap]"),
])
def test_bad_cascade_sections_are_located(tmp_path, extra, where):
    refused(tmp_path, BASE + extra, where)


def test_japanese_checks_cover_the_cascades():
    a = analyse(model(WAYS))
    by_rule = {c.rule.id: c for c in check(a, "jp")}
    assert not by_rule["jp-4-3"].passed  # the cascades' return counts: this toy pays far above 100%
    assert by_rule["jp-3-3"].passed and a.rarest.probability == min(c.probability for c in a.classes
                                                                     if c.probability)


def test_the_numpy_player_refuses_a_cascade_model_rather_than_play_it_wrong():
    import numpy as np

    from harness.slot.errors import ModelError
    from harness.slot.simulate import simulate_numpy

    with pytest.raises(ModelError, match="cascade"):
        simulate_numpy(model(WAYS), 10, np.random.Generator(np.random.PCG64(1)))


def _heights_replay(m, plays: int, generator) -> tuple[int, int, int, int]:
    """(plays, hits, credits, sum of squares) of cascade plays with reel heights by the rules: per reel,
    every play's height (a bounded draw below the total weight, heights in the order listed) then every
    play's stop; then play by play each paying window's cells removed and refilled reel by reel, the
    first drawn on top, to the height the reel drew."""
    shapes, stops = [], []
    for hs, strip in zip(m.heights, m.base_strips):
        ladder = [h for h, w in hs for _ in range(w)]  # height h takes w consecutive draws
        shapes.append([ladder[int(x)] for x in generator.integers(0, len(ladder), size=plays)])
        stops.append(generator.integers(0, len(strip), size=plays))
    wins = []
    for i in range(plays):
        window = [[s[(int(p[i]) + h) % len(s)] for h in range(hs[i])]
                  for s, p, hs in zip(m.base_strips, stops, shapes)]
        credits, k = 0, 0
        while True:
            pay, _, cells = _evaluate(m, window)
            if not pay:
                break
            credits += pay * m.cascade.ladder[min(k, len(m.cascade.ladder) - 1)]
            k += 1
            for r, strip in enumerate(m.cascade.refill):
                gone = [row for row in range(len(window[r])) if (r, row) in cells]
                new = [strip[int(x)] for x in generator.integers(0, len(strip), size=len(gone))] if gone else []
                window[r] = new + [x for row, x in enumerate(window[r]) if row not in gone]
        wins.append(credits)
    return plays, sum(w > 0 for w in wins), sum(wins), sum(w * w for w in wins)


def test_the_window_player_plays_cascades_with_heights_as_the_rules_say():
    rngcore = pytest.importorskip("rngcore")
    from harness.slot.simulate import simulate

    m, seed = model(HEIGHTS), bytes(range(32))
    got = simulate(m, 600, rngcore.Generator(seed, 61))
    assert (got.plays, got.hits, got.paid, got.win_sq) == _heights_replay(m, 600, rngcore.Generator(seed, 61))
    assert got.hits > 0
    result = simulate(m, 6_000, rngcore.Generator(seed, 62))
    assert result.agrees(analyse(m)) == (True, True), (float(analyse(m).rtp), result.rtp_interval())
