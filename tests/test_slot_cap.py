"""Award caps ([cap] win): the capped figures against a brute force over every stop
combination and every feature outcome, min(win, cap) taken play by play."""
from __future__ import annotations

from fractions import Fraction

import pytest

from harness.slot import hold_spin as hs
from harness.slot.exact import analyse
from harness.slot.profiles import check
from slot_support import HOLD_TWO_BY_TWO, TWO_BY_TWO, award, brute_stage, model, numpy_player_agrees, refused, round_play_simulates

GAME = TWO_BY_TWO.replace('C = { kind = "scatter" }', 'C = { kind = "scatter", pays = { 1 = 1, 2 = 4 } }') + """
[bonus]
kind = "wheel"
symbol = "C"
trigger = 2
segments = { 2 = 5, 5 = 3, 12 = 1 }
[progressive]
symbol = "A"
count = 2
contribution = "1/100"
reset = 40
[cap]
win = 20
"""


def brute(m, cap_bets: int):
    """(E[X], E[X^2], P(cap reached), E[uncapped win]) per play, X = min(S + F, cap) + P."""
    b = brute_stage(m, m.base_strips, with_progressive=True)
    tb, n = m.total_bet, b.cycle
    cap = cap_bets * tb
    wheel = {v * tb: Fraction(w, sum(w for _, w in m.bonus.segments)) for v, w in m.bonus.segments if w}
    prog = m.progressive
    q = Fraction(sum(r[2] for r in b.records), n)  # hit probability per play
    eg, eg2 = 1 / q, (2 - q) / (q * q)  # plays between two hits: geometric
    cb = prog.contribution * tb
    e_m, e_m2 = prog.reset + cb * eg, prog.reset ** 2 + 2 * prog.reset * cb * eg + cb * cb * eg2
    s1 = s2 = reached = plain = Fraction(0)
    for total, k, p, _ in b.records:
        spin = m.bet_per_line * total + tb * award(m.symbols[m.scatter].pays, k)
        for f, pf in (wheel.items() if k >= m.bonus.trigger else [(0, Fraction(1))]):
            c = min(spin + f, cap)
            m1, m2 = (e_m, e_m2) if p else (0, 0)
            s1 += pf * (c + m1)
            s2 += pf * (c * c + 2 * c * m1 + m2)
            reached += pf if spin + f > cap else 0
            plain += pf * (spin + f)
    return s1 / n, s2 / n, reached / n, plain / n


@pytest.mark.parametrize("cap", [12, 15, 25, 1000])
def test_capped_game_equals_brute_force(cap):
    m = model(GAME.replace("win = 20", f"win = {cap}"))
    a = analyse(m)
    mean, second, reached, plain = brute(m, cap)
    assert a.rtp == mean / m.total_bet
    assert a.variance == second - mean * mean
    assert a.cap.capped == reached
    assert a.parts["cap"] == (a.cap.mean - plain) / m.total_bet
    assert sum(a.parts.values()) == a.rtp
    assert (a.parts["cap"] < 0) == (reached > 0)
    uncapped = analyse(model(GAME.replace("[cap]\nwin = 20\n", "")))
    assert a.rtp - a.parts["cap"] == uncapped.rtp and a.hit_frequency == uncapped.hit_frequency
    assert check(a, "jp")[1].value == a.rtp  # the RTP rule reads the capped RTP


def test_cap_reached_at_every_bet_level_alike():
    """The cap is a multiple of the total bet, so only the progressive's reset share changes with the level."""
    text = GAME.replace("paylines = [[1, 1], [2, 2]] }", "paylines = [[1, 1], [2, 2]], levels = [1, 4] }")
    a = analyse(model(text))
    scaled = analyse(model(text.replace("per_line = 1,", "per_line = 4,").replace(", levels = [1, 4]", "")))
    assert a.bet_levels[1].rtp == scaled.rtp and a.parts["cap"] == scaled.parts["cap"]


@pytest.mark.parametrize("positions, n0, respins, q", [(4, 2, 2, Fraction(1, 4)), (6, 3, 3, Fraction(1, 5))])
def test_hold_and_spin_win_distribution_has_the_chain_moments(positions, n0, respins, q):
    values, grand = {1: 5, 3: 2, 10: 1}, 50
    outcome = hs.solve(positions, n0, respins, q, values, grand)
    dist = hs.win_distribution(outcome, positions, values, grand)
    assert sum(dist.values()) == 1
    assert sum(w * p for w, p in dist.items()) == outcome.mean
    assert sum(w * w * p for w, p in dist.items()) == outcome.second


def test_capped_hold_and_spin_game():
    text = HOLD_TWO_BY_TWO + "[cap]\nwin = 60\n"
    m = model(text)
    a = analyse(m)
    b = brute_stage(m, m.base_strips, with_progressive=False)
    h = m.hold_and_spin
    dist = {k: hs.win_distribution(hs.solve(4, k, 2, h.land, dict(h.values), h.grand), 4, dict(h.values), h.grand)
            for k in (2, 3, 4)}
    tb, cap = m.total_bet, 60 * m.total_bet
    mean = sum(sum(p * min(m.bet_per_line * t + tb * f, cap) for f, p in (dist[k].items() if k >= 2 else [(0, 1)]))
               for t, k, _, _ in b.records) / b.cycle
    assert a.rtp == mean / tb and a.parts["cap"] < 0


def test_numpy_player_inside_the_exact_intervals():
    numpy_player_agrees(model(GAME), 30_000)


@pytest.mark.parametrize("bonus", [True, False], ids=["bonus", "no-bonus"])
def test_simulate_plays_a_cap_beside_a_progressive_through_a_rounds_play(tmp_path, bonus):
    text = GAME if bonus else GAME.replace('[bonus]\nkind = "wheel"\nsymbol = "C"\ntrigger = 2\nsegments = '
                                           '{ 2 = 5, 5 = 3, 12 = 1 }\n', "")
    assert ("[bonus]" in text) == bonus
    assert round_play_simulates(tmp_path, text, 8000)["progressive_hits"] > 0


def test_simulate_plays_the_cap_through_a_rounds_play(tmp_path):
    no_meter = GAME.replace('[progressive]\nsymbol = "A"\ncount = 2\ncontribution = "1/100"\nreset = 40\n', "").replace(
        "win = 20", "win = 13")
    assert "[progressive]" not in no_meter and analyse(model(no_meter)).parts["cap"] < 0  # the cap takes some wins
    round_play_simulates(tmp_path, no_meter, 3000)


@pytest.mark.parametrize("change, where", [
    (("win = 20", "win = 11"), "cap.win"),  # below the top award, the wheel segment of 12 x total bet
    (("win = 20", "win = 0"), "cap.win"),
    (("win = 20", 'win = "20"'), "cap.win"),
    (("win = 20", "win = 20\nper = 1"), "cap"),
    (("[cap]\nwin = 20", "cap = 20"), "cap"),
])
def test_bad_cap_exit_2(tmp_path, change, where):
    assert change[0] in GAME
    refused(tmp_path, GAME.replace(*change), where)
