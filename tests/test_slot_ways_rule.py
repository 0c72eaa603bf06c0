"""The ways rule (docs/slot_model.md, "Ways to win") against a brute force listing every way.

``ways_reference`` enumerates every stop combination (and height) of small
models and, per symbol, every path of matching cells one by one; the exact
programme (harness.slot.ways) must give the same sums as integers and the
analysis the same fractions.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import ways_reference as ref
from harness.slot import ways
from harness.slot.exact import analyse
from harness.slot.lines import line_classes
from harness.slot.reelset import base_reelset
from harness.slot.ways_rule import WaysRule
from slot_support import model, refused

# 4 reels x 3 rows = 81 ways: two wilds with multipliers (one for A only), a scatter.
GAME = """
name = "ways81"
window = {{ rows = 3, reels = 4 }}
bet = {{ ways = 81, per_way = 1{bet} }}
{top}
[symbols]
A = {{ pays = {{ 2 = 1, 3 = 5, 4 = 10 }} }}
K = {{ pays = {{ 3 = 2, 4 = 4 }} }}
Q = {{ pays = {{ 2 = 1, 4 = 3 }} }}
W = {{ kind = "wild", multiplier = 2{wild} }}
V = {{ kind = "wild", multiplier = 3, substitutes = ["A"] }}
S = {{ kind = "scatter", pays = {{ 2 = 1, 3 = 4 }} }}
{extra}
[reels]
base = ["A K Q S W", "K A W S Q V", "Q K A S W A", "A Q K V K S"]
{reels}
"""
PROGRESSIVE = '[progressive]\nsymbol = "A"\ncount = 3\nwilds = true\ncontribution = "1/100"\nreset = 100'
WEIGHTS = "base_weights = [[1, 2, 3, 4, 5], [2, 0, 1, 1, 1, 3], [1, 1, 1, 1, 1, 1], [5, 1, 1, 1, 1, 2]]"
VARIANTS = {
    "multiply": {},
    "add": {"top": 'wild_multipliers = "add"'},
    "paying wild": {"wild": ", pays = { 2 = 3, 3 = 7 }"},
    "add, paying wild, progressive": {"top": 'wild_multipliers = "add"', "wild": ", pays = { 2 = 3, 3 = 7 }",
                                      "extra": PROGRESSIVE},
    "weighted stops": {"reels": WEIGHTS},
    "expanding wild": {"wild": ", expanding = true"},
    "both ways": {"bet": ", both_ways = true"},
    "both ways, add, paying wild": {"bet": ", both_ways = true", "top": 'wild_multipliers = "add"',
                                    "wild": ", pays = { 2 = 3, 3 = 7 }"},
    "both ways, weighted stops": {"bet": ", both_ways = true", "reels": WEIGHTS},
}


def game(**parts) -> str:
    return GAME.format(**{"bet": "", "top": "", "wild": "", "extra": "", "reels": "", **parts})


def test_three_of_a_kind_is_paid_over_its_own_reels_only():
    # The defect this rule replaced: 3 x A from the left on a 5 x 3 window, reel 4 showing no A,
    # was paid once per path, i.e. 3 x 3 more times (every row of reels 4 and 5).
    m = model("""
    name = "five"
    window = { rows = 3, reels = 5 }
    bet = { ways = 243, per_way = 1 }
    [symbols]
    A = { pays = { 3 = 5, 4 = 20 } }
    K = { pays = { 3 = 1 } }
    W = { kind = "wild", multiplier = 2 }
    [reels]
    base = ["A K W", "A K W", "A K W", "A K W", "A K W"]
    """)
    a, k, w = (m.symbol_index(x) for x in "AKW")
    rule = WaysRule.of(m)
    names = {c.symbol * 10 + c.count: i for i, c in enumerate(line_classes(m))}
    window = [(a, a, k), (a, k, k), (a, w, k), (k, k, k), (a, a, a)]
    # A: 2 x 1 x (1 + 2) = 6 ways-with-multiplier over reels 1-3; K: run of 4 reels, paid 3 x K
    # (the longest listed count) over reels 1-3 only: 1 x 2 x (1 + 2) = 6.
    assert sorted(rule.read(window)) == sorted([(5 * 6, names[a * 10 + 3]), (1 * 6, names[k * 10 + 3])])
    # 4 x A is a four-of-a-kind only (no three-of-a-kinds besides): 1 x 1 x 1 x 1 way.  K shows on
    # every reel but pays 3 only: its longest listed count, over reels 1-3: 2 x 2 x 2 ways.
    assert rule.read([(a, k, k)] * 4 + [(k, k, k)]) == [(20, names[a * 10 + 4]), (8, names[k * 10 + 3])]
    # a way of wilds only is not paid as a symbol: W W W (x2 each) then K K.  A: 2 x 2 x 2 - 2 x 2 x 2 = 0,
    # not paid; K: (2 + 2)^3 ways-with-multiplier less the 2^3 of wilds only = 56.
    assert rule.read([(w, k, k)] * 3 + [(k, k, k)] * 2) == [(56, names[k * 10 + 3])]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_programme_sums_equal_every_way_listed(variant):
    m = model(game(**VARIANTS[variant]))
    f = ways.spin_figures(m, ways.reel_columns(base_reelset(m)))
    b = ref.figures(m, both_ways=m.both_ways)
    classes = line_classes(m)
    nonzero = lambda d: {k: v for k, v in d.items() if v}  # noqa: E731
    assert nonzero({(k, p): v for k, row in enumerate(f.count) for p, v in enumerate(row)}) == b["count"]
    assert nonzero({(k, p): v for k, row in enumerate(f.line_sum) for p, v in enumerate(row)}) == nonzero(b["line_sum"])
    assert f.line_sq == b["line_sq"]
    assert nonzero({((classes[c].symbol, classes[c].count), k): v for c, row in enumerate(f.class_paid)
                    for k, v in enumerate(row)}) == b["class_paid"]
    assert nonzero({(classes[c].symbol, classes[c].count): v for c, v in enumerate(f.class_pay)}) == b["class_pay"]
    assert nonzero(dict(enumerate(f.no_line_win))) == b["no_line"]
    if "progressive" in variant:
        assert any(row[1] for row in f.count)


@pytest.mark.parametrize("variant", ["multiply", "add, paying wild, progressive", "both ways, add, paying wild"])
def test_analysis_equals_the_brute_force_as_fractions(variant):
    m = model(game(**VARIANTS[variant]))
    rtp, hit, variance, classes, progressive = ref.play_figures(m)
    a = analyse(m)
    lines = {c.name: c.probability for c in a.classes if c.kind == "line" and c.probability}
    assert lines == classes
    if m.progressive is None:
        assert a.rtp == rtp and a.variance == variance
    else:  # the meter is paid besides the reels' pays
        assert a.progressive.hit_probability == progressive
        assert a.parts["lines"] + a.parts["scatters"] == rtp
    assert a.hit_frequency == hit


def test_reel_heights_equal_the_brute_force():
    m = model("""
    name = "heights"
    wild_multipliers = "add"
    window = { rows = 3, reels = 3, heights = [{ 1 = 1, 2 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 3 = 1 }] }
    bet = { ways = 27, per_way = 1, total = 10 }
    [symbols]
    A = { pays = { 2 = 1, 3 = 5 } }
    K = { pays = { 2 = 1, 3 = 2 } }
    W = { kind = "wild", multiplier = 2, pays = { 3 = 9 } }
    V = { kind = "wild", multiplier = 3, substitutes = ["K"] }
    S = { kind = "scatter", pays = { 2 = 2 } }
    [reels]
    base = ["A K S K V", "K A W S A W", "A S K W V"]
    """)
    rtp, hit, variance, classes, _ = ref.play_figures(m)
    a = analyse(m)
    assert (a.rtp, a.hit_frequency, a.variance) == (rtp, hit, variance)
    assert {c.name: c.probability for c in a.classes if c.kind == "line" and c.probability} == classes


def test_free_spins_on_a_ways_game_are_paid_by_the_rule():
    # Without retriggers the feature is a fixed number of independent free spins, so
    # RTP = (E[base win] + P(trigger) x spins x multiplier x E[free spin win]) / bet.
    text = game(extra="[free_spins]\nspins = { 3 = 4 }\nmultiplier = 3")
    m = model(text)
    base = ref.figures(m)
    free = ref.figures(m, feature=True)
    cycle = sum(base["count"].values())
    base_lines = Fraction(sum(base["line_sum"].values()), cycle)
    free_lines = Fraction(sum(free["line_sum"].values()), cycle)
    scat = {k: n for (k, _), n in base["count"].items()}
    pay = {0: 0, 1: 0, 2: 1, 3: 4}
    scatters = sum(Fraction(n, cycle) * pay.get(min(k, 3), 4) for k, n in scat.items())
    trigger = sum(Fraction(n, cycle) for k, n in scat.items() if k >= 3)
    free_win = free_lines * m.bet_per_line + scatters * m.total_bet
    mean = base_lines * m.bet_per_line + scatters * m.total_bet + trigger * 4 * 3 * free_win
    assert analyse(m).rtp == mean / m.total_bet


@pytest.mark.parametrize("variant", ["multiply", "add, paying wild, progressive"])
def test_an_award_cap_on_a_ways_game_equals_the_brute_force(variant):
    # the play is paid min(ways pay + scatter pay, cap) (the progressive's meter outside the cap)
    m = model(game(**VARIANTS[variant]) + "[cap]\nwin = 5\n")
    cap = 5 * m.total_bet
    n = paid = paid_sq = bites = 0
    for window, raw, w in ref.windows(m):
        win = m.bet_per_line * sum(ref.symbol_pays(m, window).values()) + ref.scatter_pay(m, raw) * m.total_bet
        n += w
        paid += w * min(win, cap)
        paid_sq += w * min(win, cap) ** 2
        bites += w * (win > cap)
    a = analyse(m)
    assert a.cap.mean == Fraction(paid, n) and a.cap.second == Fraction(paid_sq, n)
    assert a.cap.capped == Fraction(bites, n) > 0
    if m.progressive is None:
        assert a.rtp == Fraction(paid, n * m.total_bet)


def test_jackpot_levels_on_a_way_are_won_by_the_longest_run():
    # two levels of K runs from reel 1 (wilds counting): 4 x K wins GRAND only, 3 x K MINOR
    levels = ("[[jackpot]]\nname = 'MINOR'\nsymbol = 'K'\ncount = 3\nwilds = true\ncontribution = '0.01'\n"
              "reset = 50\n[[jackpot]]\nname = 'GRAND'\nsymbol = 'K'\ncount = 4\nwilds = true\n"
              "contribution = '0.005'\nreset = 500\n")
    m = model(game(extra=levels))
    wild = {m.symbol_index(x) for x in ("K", "W")}
    runs = {3: 0, 4: 0}
    cycle = 0
    for window, _, w in ref.windows(m):
        cycle += w
        run = next((r for r, col in enumerate(window) if not wild & set(col)), len(window))
        if run >= 3:
            runs[min(run, 4)] += w
    a = analyse(m)
    assert [j.hit_probability for j in a.jackpots] == [Fraction(runs[3], cycle), Fraction(runs[4], cycle)]


@pytest.mark.parametrize("variant", ["add", "expanding wild"])
def test_a_played_spin_is_paid_by_the_rule(variant):
    # harness.slot.spin (the rounds' player) reads a ways window through the same rule
    import itertools

    from harness.slot.spin import Player

    m = model(game(**VARIANTS[variant]))
    strips = m.base_strips
    windows = ref.windows(m)
    evaluate = Player(m).evaluate
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        window, _, _ = next(windows)
        assert evaluate([list(stops)]).spins[0].line_pay == sum(ref.symbol_pays(m, window).values()), stops
