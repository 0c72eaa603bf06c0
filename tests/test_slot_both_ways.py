"""Both-ways pays (docs/slot_model.md, "Both-ways pays"): the window enumeration of
harness.slot.both_ways against a brute force over every stop combination that reads each line
from both ends straight from the line rule (a ways game: the ways rule, tests/ways_reference.py)."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import model, play_figures, reference_line, refused
from ways_reference import symbol_pays

from harness.slot.exact import analyse
from harness.slot.profiles import check


def brute_force(m):
    """The play's outcome distribution {(credits, outcomes paid): probability}."""
    names = m.symbol_names
    strips = m.base_strips
    combos = list(itertools.product(*(range(len(s)) for s in strips)))
    dist: dict = {}
    for stops in combos:
        window = [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        credits, paid = 0, set()
        for (i, k), pay in (symbol_pays(m, window, both_ways=True) if m.ways else {}).items():
            credits += pay * m.bet_per_line  # the ways rule, read from both ends, every way listed
            paid.add(f"{k} x {names[i]}")
        for path in ([] if m.ways else m.paylines):
            seq = [window[r][row] for r, row in enumerate(path)]
            left = reference_line(m, seq)
            readings = [left]
            if not (left[0] and left[1][1] == m.reels):  # a full-width win is paid once
                readings.append(reference_line(m, seq[::-1]))
            for pay, combination, _ in readings:
                if pay:
                    credits += pay * m.bet_per_line
                    paid.add(f"{combination[1]} x {names[combination[0]]}")
        for x in m.scatters:
            n = sum(col.count(x) for col in window)
            pay = max((v for k, v in m.symbols[x].pays.items() if k <= n), default=0)
            if pay:
                credits += pay * m.total_bet
                paid.add(f"scatter {n}{'+' if n == max(m.symbols[x].pays) else ''} x {names[x]}")
        key = (credits, frozenset(paid))
        dist[key] = dist.get(key, Fraction(0)) + Fraction(1, len(combos))
    return dist


LINES = """
name = "both ways lines"
window = { rows = 2, reels = 3 }
bet = { per_line = 2, paylines = [[1, 1, 1], [2, 2, 2], [1, 2, 1]], both_ways = true }
[symbols]
A = { pays = { 2 = 1, 3 = 6 } }
K = { pays = { 2 = 1, 3 = 3 } }
Q = { pays = { 3 = 2 } }
W = { kind = "wild", multiplier = 2 }
S = { kind = "scatter", pays = { 2 = 1, 3 = 4 } }
[reels]
base = ["A K Q S W", "K A W S Q", "Q K A S W A"]
"""

WAYS = """
name = "both ways ways"
window = { rows = 2, reels = 4 }
bet = { ways = 16, per_way = 1, both_ways = true }
[symbols]
A = { pays = { 3 = 5, 4 = 20 } }
K = { pays = { 2 = 1, 3 = 2, 4 = 8 } }
W = { kind = "wild", substitutes = ["A"] }
[reels]
base = ["A K W", "K A", "A K W K", "K A A"]
"""


@pytest.mark.parametrize("text", [LINES, WAYS], ids=["lines", "ways"])
def test_both_ways_equal_brute_force(text):
    m = model(text)
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force(m))
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert all(c.exact for c in a.classes) and sum(c.rtp for c in a.classes) == a.rtp


def test_both_ways_pay_more_than_left_to_right_and_count_a_full_line_once():
    both = analyse(model(WAYS))
    left = analyse(model(WAYS.replace(", both_ways = true", "")))
    assert both.rtp > left.rtp and both.parts["scatters"] == left.parts["scatters"] == 0
    # a window of four A: left to right 4 x A on each of the 16 ways, paid once, not twice
    m = model(WAYS.replace('base = ["A K W", "K A", "A K W K", "K A A"]', 'base = ["A", "A", "A", "A"]'))
    assert analyse(m).rtp == Fraction(20 * 16, 16)


PLAIN = LINES.replace(", both_ways = true", "")
PROGRESSIVE = '[progressive]\nsymbol = "A"\ncount = 3\ncontribution = "0.01"\nreset = 5\n'


@pytest.mark.parametrize("text, where", [
    (PLAIN.replace("[1, 2, 1]] }", "[1, 2, 1]], both_ways = 1 }"), "bet.both_ways: must be true or false"),
    (LINES + PROGRESSIVE, "bet.both_ways: a both-ways game has no [progressive] section"),
    (LINES.replace('W = { kind = "wild", multiplier = 2 }', 'W = { kind = "wild", expanding = true }'),
     "symbols.W: a both-ways game has no expanding wild symbols"),
])
def test_bad_both_ways_models_are_located(tmp_path, text, where):
    refused(tmp_path, text, where)


def test_too_many_windows_are_refused_not_sampled(monkeypatch):
    from harness.slot import both_ways
    from harness.slot.errors import ModelError

    monkeypatch.setattr(both_ways, "MAX_BOTH_WAYS_READS", 10)
    with pytest.raises(ModelError, match="bet.both_ways: both-ways pays are analysed by reading every distinct"):
        analyse(model(LINES))


def test_japanese_checks_use_the_both_ways_figures():
    a = analyse(model(LINES))
    results = {c.rule.id: c for c in check(a, "jp")}
    assert results["jp-3-3"].outcome == a.rarest.name and results["jp-4-3"].value == a.rtp
