"""Reel heights per spin with the award cap, the combination progressive, mystery levels and a wheel bonus
(docs/slot_model.md, "Reel heights per spin"): the analysis against a brute force over every height and
every stop, every way listed one by one (tests/ways_reference.py), ``min(win, cap)`` taken play by play."""
from __future__ import annotations

import itertools
import pathlib
import re
from fractions import Fraction

import pytest
from slot_support import refused, round_play_simulates
from ways_reference import symbol_pays

from harness.slot.exact import analyse
from harness.slot.model import parse_model
from harness.slot.profiles import check

DOC = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "slot_model.md").read_text(encoding="utf-8")
SECTION = DOC.split("\n## Reel heights per spin\n", 1)[1].split("\n## ", 1)[0]
HEIGHTS, FEATURES = re.findall(r"```\n(.*?)```", SECTION, re.S)[:2]  # the annotated model, then the fragment
MYSTERY = """
[[mystery]]
name = "MINI"
probability = "1/50"
contribution = "1/200"
reset = 30
"""


def _meter(reset: int, contribution: Fraction, bet: int, q: Fraction) -> tuple[Fraction, Fraction]:
    """(E[M], E[M^2]) of a meter paid at a hit of probability ``q`` per play: the plays between two hits
    are geometric, E[G] = 1/q, E[G^2] = (2 - q)/q^2, and M = reset + contribution x bet x G."""
    cb, eg, eg2 = contribution * bet, 1 / q, (2 - q) / (q * q)
    return reset + cb * eg, reset * reset + 2 * reset * cb * eg + cb * cb * eg2


def _meter_class(m) -> str:
    if m.progressive is not None:
        return "progressive 3 x A"
    level = m.jackpots[0]
    return f"jackpot {level.name} " + (f"({level.count}+ x S)" if level.on == "scatter" else
                                       f"({level.count} x A on a line)")


def brute(m):
    """Per play: (E[X], E[X^2], P(hit), P(cap reached), {class: P(paid)}), X = min(spin + bonus, cap) + meters."""
    names, strips, tb = m.symbol_names, m.base_strips, m.total_bet
    weights = m.base_weights or [[1] * len(s) for s in strips]
    total = 1
    for hs, w in zip(m.heights, weights):
        total *= sum(x for _, x in hs) * sum(w)
    s_code, a_code = names.index("S"), names.index("A")
    cap = m.cap * tb if m.cap is not None else None
    wheel = {}
    if m.bonus is not None:
        whole = sum(w for _, w in m.bonus.segments)
        wheel = {v * tb: Fraction(w, whole) for v, w in m.bonus.segments if w}
    outcomes = []  # (probability, spin credits, wheel starts, progressive hit, classes paid)
    for heights in itertools.product(*m.heights):
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            p = Fraction(1, total)
            for (_, hw), w, s in zip(heights, weights, stops):
                p *= hw * w[s]
            window = [[s[(q + i) % len(s)] for i in range(h)] for s, q, (h, _) in zip(strips, stops, heights)]
            credits, paid = 0, set()
            for (i, k), pay in symbol_pays(m, window).items():
                credits += pay * m.bet_per_line
                paid.add(f"{k} x {names[i]}")
            scatters = sum(col.count(s_code) for col in window)
            if scatters >= 2:
                credits += 2 * tb
                paid.add("scatter 2+ x S")
            hit = m.progressive is not None and all(a_code in col for col in window[:m.progressive.count])
            for level in m.jackpots:  # one level in these models: a meter like the progressive's
                hit = (scatters >= level.count if level.on == "scatter" else
                       all(a_code in col for col in window[:level.count]))
            starts = m.bonus is not None and scatters >= m.bonus.trigger
            outcomes.append((p, credits, starts, hit, paid))
    q = sum(p for p, _, _, hit, _ in outcomes if hit)
    meter = m.progressive or (m.jackpots[0] if m.jackpots else None)
    e_m, e_m2 = _meter(meter.reset, meter.contribution, tb, q) if meter else (0, 0)
    s1 = s2 = hits = reached = Fraction(0)
    once: dict = {}
    for p, spin, starts, hit, paid in outcomes:
        for f, pf in (wheel.items() if starts else [(0, Fraction(1))]):
            c = spin + f if cap is None else min(spin + f, cap)
            m1, m2 = (e_m, e_m2) if hit else (0, 0)
            s1 += p * pf * (c + m1)
            s2 += p * pf * (c * c + 2 * c * m1 + m2)
            reached += p * pf if cap is not None and spin + f > cap else 0
            seen = paid | ({_meter_class(m)} if hit else set()) | (
                {"wheel bonus 2+ x S", f"wheel bonus prize {f // tb} x total bet"} if starts else set())
            hits += p * pf if seen else 0
            for c_name in seen:
                once[c_name] = once.get(c_name, 0) + p * pf
    for level in m.mystery:  # independent of the reels: a second meter, its moments added
        l1, l2 = _meter(level.reset, level.contribution, tb, level.probability)
        s2 += 2 * s1 * level.probability * l1 + level.probability * l2
        s1 += level.probability * l1
        hits = 1 - (1 - hits) * (1 - level.probability)
        once[f"mystery progressive {level.name}"] = level.probability
    return s1, s2, hits, reached, once


SCATTER_LEVEL = '[[jackpot]]\nname = "MINI"\nsymbol = "S"\ncount = 2\ncontribution = "1/100"\nreset = 30\n'
LINE_LEVEL = '[[jackpot]]\nname = "MAJOR"\nsymbol = "A"\ncount = 3\ncontribution = "1/100"\nreset = 30\n'


@pytest.mark.parametrize("extra", [FEATURES, FEATURES.replace("win = 5 ", "win = 4 "),
                                   FEATURES.split("[progressive]")[0], FEATURES.split("[bonus]")[0] + MYSTERY,
                                   "[bonus]" + FEATURES.split("[bonus]")[1] + MYSTERY,
                                   "[bonus]" + FEATURES.split("[bonus]")[1] + SCATTER_LEVEL, LINE_LEVEL + MYSTERY,
                                   FEATURES.split("[progressive]")[0] + SCATTER_LEVEL,
                                   FEATURES.split("[progressive]")[0] + LINE_LEVEL],
                         ids=["documented", "tighter cap", "cap alone", "cap, progressive, mystery",
                              "bonus and mystery", "bonus and a scatter jackpot level", "a line jackpot level",
                              "cap and a scatter jackpot level", "cap and a line jackpot level"])
def test_heights_with_features_equal_brute_force(extra):
    m = parse_model(HEIGHTS + extra)
    a = analyse(m)
    mean, second, hit, reached, once = brute(m)
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert sum(a.parts.values()) == a.rtp and a.rtp_upper is None
    if m.cap is not None:
        assert a.cap.capped == reached and (a.parts["cap"] < 0) == (reached > 0)
    assert check(a, "jp")[1].value == a.rtp  # the RTP rule reads the capped RTP


def test_the_documented_cap_bites():
    a = analyse(parse_model(HEIGHTS + FEATURES))
    assert 0 < a.cap.capped < 1 and a.parts["cap"] < 0 and a.progressive is not None


@pytest.mark.parametrize("extra", [FEATURES + MYSTERY, LINE_LEVEL], ids=["cap, meters, bonus", "jackpot level"])
def test_simulate_plays_heights_with_the_features(tmp_path, extra):
    report = round_play_simulates(tmp_path, HEIGHTS + extra, 2000)
    assert report["rtp_exact_inside"]


@pytest.mark.parametrize("extra, where", [
    ("[hold_and_spin]\nsymbol = \"S\"\ntrigger = 2\nland = \"1/4\"\nvalues = { 1 = 1 }\n",
     "window.heights: a game with reel heights per spin has no [hold_and_spin] section"),
    ("[progressive]" + FEATURES.split("[progressive]")[1].split("[bonus]")[0] + SCATTER_LEVEL,
     "jackpot: jackpot levels and [progressive] in one model"),
])
def test_what_stays_refused_is_located(tmp_path, extra, where):
    refused(tmp_path, HEIGHTS + extra, where)


def test_both_ways_heights_take_no_cap(tmp_path):
    text = HEIGHTS.replace("total = 10 ", "total = 10\nboth_ways = true ") + FEATURES.split("[progressive]")[0]
    refused(tmp_path, text, "bet.both_ways: a both-ways game has no [cap] section")
