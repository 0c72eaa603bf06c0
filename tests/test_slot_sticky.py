"""Sticky wilds in free spins (docs/slot_model.md, "Sticky wilds"): the exact session chain of
harness.slot.sticky against a brute force that plays every sequence of feature stops of every
session, after every stop combination of the paid spin."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import model, play_figures, reference_line, refused
from ways_reference import symbol_pays

from harness.slot.exact import analyse
from harness.slot.profiles import check


def _listed(table, count):
    """The award listed for the largest count <= ``count`` (0 if none)."""
    return max(((k, v) for k, v in table.items() if k <= count), default=(0, 0))[1]


def _window(m, strips, stops):
    return [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]


def _scatter_label(m, x, n):
    """The name of the count range of scatter ``x`` that ``n`` falls in (ranges start at every listed count)."""
    spins = m.free_spins.spins if m.free_spins.scatter == x else {}
    keys = sorted(set(m.symbols[x].pays) | set(spins))
    starts = [k for k in keys if k <= n]
    if not starts:
        return None
    lo = starts[-1]
    hi = keys[keys.index(lo) + 1] - 1 if lo != keys[-1] else m.max_scatter
    text = f"{lo}+" if hi == m.max_scatter and hi > lo else f"{lo}" if hi == lo else f"{lo}-{hi}"
    return f"scatter {text} x {m.symbol_names[x]}"


def _pay(m, window, times, paid_spin):
    """(credits, outcomes paid) of a window: lines by the rule, scatter pays by the count; in the paid
    spin a count range that awards free spins is an outcome too."""
    names = m.symbol_names
    credits, paid = 0, set()
    for (i, k), pay in (symbol_pays(m, window) if m.ways else {}).items():  # the ways rule, every way
        credits += pay * m.bet_per_line * times
        paid.add(f"{k} x {names[i]}")
    for path in ([] if m.ways else m.paylines):
        pay, combination, _ = reference_line(m, [window[r][row] for r, row in enumerate(path)])
        if pay:
            credits += pay * m.bet_per_line * times
            paid.add(f"{combination[1]} x {names[combination[0]]}")
    for x in m.scatters:
        n = sum(col.count(x) for col in window)
        pay = _listed(m.symbols[x].pays, n)
        credits += pay * m.total_bet * times
        spins = _listed(m.free_spins.spins, n) if paid_spin and x == m.free_spins.scatter else 0
        if pay or spins:
            paid.add(_scatter_label(m, x, n))
    return credits, paid


def _session(m, n):
    """{(credits, outcomes paid): probability} of ``n`` free spins with the sticky wilds: every sequence of
    feature stops, depth first; a retrigger adds its spins up to ``free_spins.max_spins`` in all."""
    wilds = {i for i, s in enumerate(m.symbols) if s.sticky}
    strips = m.feature_strips
    combos = list(itertools.product(*(range(len(s)) for s in strips)))
    cap = m.free_spins.max_spins
    out: dict = {}
    paid_for: dict = {}  # a window's pay, read once (the same windows recur along the sequences)

    def pay(window):
        key = tuple(map(tuple, window))
        if key not in paid_for:
            paid_for[key] = _pay(m, window, m.free_spins.multiplier, False)
        return paid_for[key]

    def play(sticky: dict, left: int, awarded: int, credits: int, paid: frozenset, p: Fraction) -> None:
        if left == 0:
            out[(credits, paid)] = out.get((credits, paid), Fraction(0)) + p
            return
        for stops in combos:
            window = _window(m, strips, stops)
            for (r, h), x in sticky.items():  # a stuck position shows its wild, over whatever landed
                window[r][h] = x
            won, seen = pay(window)
            scatters = sum(col.count(m.free_spins.scatter) for col in window)
            more = min(_listed(m.free_spins.retrigger, scatters), cap - awarded) if m.free_spins.retrigger else 0
            stuck = {(r, h): window[r][h] for r in range(m.reels) for h in range(m.rows) if window[r][h] in wilds}
            play(stuck, left - 1 + more, awarded + more, credits + won, paid | seen, p / len(combos))

    play({}, n, n, 0, frozenset(), Fraction(1))
    return out


def brute_force(m):
    """(mean, second moment, P(outcome at least once)) per play."""
    strips = m.base_strips
    trigger = m.free_spins.scatter
    sessions: dict = {}
    dist: dict = {}
    combos = list(itertools.product(*(range(len(s)) for s in strips)))
    for stops in combos:
        window = _window(m, strips, stops)
        won, paid = _pay(m, window, 1, True)
        spins = _listed(m.free_spins.spins, sum(col.count(trigger) for col in window))
        if spins and spins not in sessions:
            sessions[spins] = _session(m, spins)
        for (more, seen), q in (sessions[spins] if spins else {(0, frozenset()): 1}).items():
            key = (won + more, frozenset(paid) | seen)
            dist[key] = dist.get(key, Fraction(0)) + Fraction(q) / len(combos)
    mean, second, _, once = play_figures(dist)
    return mean, second, once


WAYS = """
name = "sticky ways"
window = { rows = 2, reels = 3 }
bet = { ways = 8, per_way = 1 }
[symbols]
A = { pays = { 3 = 5 } }
K = { pays = { 2 = 1, 3 = 2 } }
W = { kind = "wild", sticky = true }
S = { kind = "scatter", pays = { 2 = 1 } }
[free_spins]
spins = { 2 = 1, 3 = 2 }
multiplier = 2
[reels]
base = ["A K S K", "K A W S A", "A S K"]
feature = ["A K W", "K W S", "A K S"]
"""

LINES = """
name = "sticky lines"
window = { rows = 2, reels = 3 }
bet = { per_line = 1, paylines = [[1, 1, 1], [2, 2, 2], [1, 2, 1]] }
[symbols]
A = { pays = { 3 = 6 } }
K = { pays = { 3 = 2 } }
W = { kind = "wild", sticky = true, multiplier = 2 }
S = { kind = "scatter" }
[free_spins]
spins = { 2 = 3 }  # a three-step chain
[reels]
base = ["A S K", "K A S W", "S A K"]
feature = ["A K W", "W K A", "A K"]
"""


# Two sticky wilds (x2 and x3, multiplying) and retriggers, capped at 3 spins a session (a retrigger of 2
# after a first award of 2 is cut to 1).
RETRIGGERS = """
name = "sticky retriggers"
window = { rows = 2, reels = 3 }
bet = { ways = 8, per_way = 1 }
[symbols]
A = { pays = { 3 = 5 } }
K = { pays = { 2 = 1, 3 = 2 } }
W = { kind = "wild", sticky = true, multiplier = 2 }
V = { kind = "wild", sticky = true, multiplier = 3 }
S = { kind = "scatter", pays = { 2 = 1 } }
[free_spins]
spins = { 2 = 1, 3 = 2 }
retrigger = { 1 = 1, 2 = 2 }
max_spins = 3
[reels]
base = ["A K S K", "K A W S A", "A S V"]
feature = ["A W", "K V S", "S A K"]
"""


@pytest.mark.parametrize("text", [WAYS, LINES, RETRIGGERS], ids=["ways", "lines", "two wilds, retriggers"])
def test_session_chain_equals_brute_force(text):
    m = model(text)
    a = analyse(m)
    mean, second, once = brute_force(m)
    assert a.rtp == mean / m.total_bet and a.parts["feature"] > 0
    assert a.variance == second - mean * mean
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert all(c.exact for c in a.classes) and sum(c.rtp for c in a.classes) == a.rtp


def test_sticky_wilds_pay_more_than_the_same_wilds_unstuck():
    stuck = analyse(model(WAYS))
    loose = analyse(model(WAYS.replace("sticky = true", "sticky = false")))
    assert stuck.parts["lines"] == loose.parts["lines"] and stuck.parts["feature"] > loose.parts["feature"]
    assert stuck.feature.spins_per_feature == loose.feature.spins_per_feature


@pytest.mark.parametrize("change, where", [
    (("sticky = true }", "sticky = 1 }"), "symbols.W.sticky: must be true or false"),
    (("A = { pays = { 3 = 5 } }", "A = { pays = { 3 = 5 }, sticky = true }"), "symbols.A.sticky: only a wild sticks"),
    (("multiplier = 2", "multiplier = 2\nretrigger = true"),
     "free_spins.retrigger: free spins with sticky wilds and retriggers need free_spins.max_spins"),
    (("multiplier = 2", "multiplier = 2\nretrigger = true\nmax_spins = 1"),
     "free_spins.max_spins: 1 is below the 2 free spins free_spins.spins awards"),
    (("multiplier = 2", "multiplier = 2\nmax_spins = 5"), "free_spins.max_spins: caps the spins retriggers add"),
    (("multiplier = 2", "multiplier = 2\nretrigger = true\nmax_spins = 0"), "free_spins.max_spins"),
    (("sticky = true }", "sticky = true, expanding = true }"), "symbols.W.sticky: a sticky wild and expanding"),
])
def test_bad_sticky_models_are_located(tmp_path, change, where):
    refused(tmp_path, WAYS.replace(*change), where)


def test_sticky_without_free_spins_is_refused(tmp_path):
    text = WAYS.split("[free_spins]")[0] + '[reels]\nbase = ["A K S K", "K A W S A", "A S K"]\n'
    refused(tmp_path, text, "symbols.W.sticky: a wild sticks for the rest of the free spins, but there is no")


def test_japanese_checks_use_the_session_figures():
    a = analyse(model(WAYS))
    results = {c.rule.id: c for c in check(a, "jp")}
    assert results["jp-3-3"].value == a.rarest.probability and not results["jp-4-3"].passed


def test_retriggers_and_two_wilds_reach_the_checks_and_the_cap():
    a = analyse(model(RETRIGGERS))
    s = a.sticky
    assert s.chain_states > s.states > 1 and 1 < s.spins[1] < s.spins[2] <= 3  # retriggers, never past the cap
    capped = analyse(model(RETRIGGERS.replace("max_spins = 3", "max_spins = 5")))
    assert capped.sticky.spins[2] > s.spins[2] and capped.parts["feature"] > a.parts["feature"]
    assert a.feature.spins_per_feature > 1 and 0 < a.feature.retrigger_per_spin < 1
    results = {c.rule.id: c for c in check(a, "jp")}
    assert results["jp-3-3"].value == a.rarest.probability and results["jp-4-3"].value == a.rtp


def test_a_session_beyond_its_state_limit_is_refused(tmp_path, monkeypatch):
    from harness.slot import sticky
    from harness.slot.errors import ModelError

    monkeypatch.setattr(sticky, "MAX_STICKY_STATES", 5)
    with pytest.raises(ModelError, match="free_spins.max_spins: the sticky-wild session reaches more than 5 states"):
        analyse(model(RETRIGGERS))
    refused(tmp_path, RETRIGGERS, "free_spins.max_spins: the sticky-wild session reaches more than 5 states")


def test_max_spins_without_sticky_wilds_is_refused(tmp_path):
    text = RETRIGGERS.replace(", sticky = true", "")
    refused(tmp_path, text, "free_spins.max_spins: only a free-spin session with sticky wilds is capped")


@pytest.mark.parametrize("text", [
    RETRIGGERS,
    RETRIGGERS.replace('V = { kind = "wild", sticky = true, multiplier = 3 }\n', "").replace(", V", "")
    .replace('"K V S"', '"K W S"').replace('"A S V"', '"A S W"'),
], ids=["two wilds", "retriggers"])
def test_simulate_plays_the_sticky_sessions_its_kernel_does_not_through_a_rounds_play(tmp_path, text):
    # The kernel lays one wild over the positions it landed on, in sessions without retriggers: a second
    # sticky wild or a retrigger is played by a round's play (harness/slot/play_player.py) instead.
    from slot_support import round_play_simulates

    assert analyse(model(text)).sticky is not None
    assert round_play_simulates(tmp_path, text, 5000)["free_spins"] > 0
