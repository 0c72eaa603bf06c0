"""Reel heights per spin with the award cap, the combination progressive, mystery and jackpot levels, a wheel
bonus and hold and spin (docs/slot_model.md, "Reel heights per spin"): the analysis against a brute force over
every height and every stop, every way listed one by one (tests/ways_reference.py), ``min(win, cap)`` taken
play by play."""
from __future__ import annotations

import functools
import pathlib
import re
from fractions import Fraction

import pytest
from slot_support import award, refused, round_play_simulates
from test_slot_hold_spin import reference
from ways_reference import progressive_won, symbol_pays, windows

from harness.slot.exact import analyse
from harness.slot.model import parse_model
from harness.slot.profiles import check

DOC = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "slot_model.md").read_text(encoding="utf-8")
SECTION = DOC.split("\n## Reel heights per spin\n", 1)[1].split("\n## ", 1)[0]
# the annotated model, the features' fragment, the hold-and-spin fragment, the free spins beside it
HEIGHTS, FEATURES, HOLD, FREE = re.findall(r"```\n(.*?)```", SECTION, re.S)[:4]
# W made expanding (test_expanding_models_expand checks the text replace took)
EXPANDING = HEIGHTS.replace('kind = "wild", multiplier', 'kind = "wild", expanding = true, multiplier')
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


def _hold_feature(m):
    """The hold-and-spin feature started with ``coins`` coins, on the ``rows x reels`` grid at its tallest, as a
    function of ``coins``: ({credits: probability}, {class: P(paid)}) of its win, the final count by following
    the positions one by one (:func:`test_slot_hold_spin.reference`), then the sum of that many independent coin
    values."""
    h, tb, grid = m.hold_and_spin, m.total_bet, m.rows * m.reels
    whole = sum(h.values.values())
    coin = m.symbol_names[h.symbol]

    @functools.cache
    def wins(coins: int) -> tuple[dict, dict]:
        final = reference(grid, coins, h.respins, h.land, dict(h.values), h.grand)[0]
        out: dict = {}
        sums = {0: Fraction(1)}  # the sum of n coin values, n = 0, 1, ...
        for n in range(grid + 1):
            for v, q in sums.items():
                if n in final:
                    won = tb * (v + (h.grand if n == grid else 0))
                    out[won] = out.get(won, 0) + final[n] * q
            sums = _add(sums, {value: Fraction(weight, whole) for value, weight in h.values.items()})
        paid = {f"hold and spin {h.trigger}+ x {coin}": 1}
        if h.grand:
            paid[f"hold and spin grand ({grid} x {coin})"] = final.get(grid, 0)
        return out, paid

    return wins


def _scatter_class(m, n: int) -> str:
    """S's class for ``n`` shown: the counts sharing one award (its pay and the free spins it awards) are one
    class, named by the smallest of them, ``k+`` for the largest listed."""
    keys = set(m.symbols[m.symbol_index("S")].pays)
    if m.free_spins is not None:
        keys |= set(m.free_spins.spins) | set(m.free_spins.retrigger)
    k = max(c for c in keys if c <= n)
    return f"scatter {k}{'+' if k == max(keys) else ''} x S"


def _spins(m, *, feature: bool) -> dict:
    """{(credits, meter hit, classes paid, S shown): probability} of one spin, every height and stop
    (:func:`ways_reference.windows`: an expanding wild covers the rows its reel shows, the S counted before);
    a free spin's credits times the free spins' multiplier, its meters never hit."""
    names, tb = m.symbol_names, m.total_bet
    s_code, a_code = names.index("S"), names.index("A")
    out: dict = {}
    rows = list(windows(m, feature=feature))
    total = sum(w for *_, w in rows)
    for window, raw, w in rows:
        credits, paid = 0, set()
        for (i, k), pay in symbol_pays(m, window).items():
            credits += pay * m.bet_per_line
            paid.add(f"{k} x {names[i]}")
        scatters = sum(col.count(s_code) for col in raw)
        if award(m.symbols[s_code].pays, scatters):
            credits += award(m.symbols[s_code].pays, scatters) * tb
            paid.add(_scatter_class(m, scatters))
        hit = not feature and progressive_won(m, window)
        for level in () if feature else m.jackpots:  # one level in these models: a meter like the progressive's
            hit = (scatters >= level.count if level.on == "scatter" else
                   all(a_code in col for col in window[:level.count]))
        if feature:
            credits *= m.free_spins.multiplier
        key = (credits, hit, frozenset(paid), scatters)
        out[key] = out.get(key, 0) + Fraction(w, total)
    return out


def _add(x: dict, y: dict) -> dict:
    """The distribution of the sum of two independent wins."""
    out: dict = {}
    for a, p in x.items():
        for b, q in y.items():
            out[a + b] = out.get(a + b, 0) + p * q
    return out


def brute(m):
    """Per play: (E[X], E[X^2], P(hit), P(cap reached), {class: P(paid)}), X = min(spin + free spins + feature,
    cap) + meters (the feature: the wheel, or hold and spin; the free spins without retriggers: every number of
    them, each free spin's heights and stops drawn again, the whole win convolved; coins in a free spin start
    nothing)."""
    tb = m.total_bet
    cap = m.cap * tb if m.cap is not None else None
    features = []  # [(the feature's {credits: probability}, {class: P(paid)})], by the S count that starts it
    if m.bonus is not None:
        whole = sum(w for _, w in m.bonus.segments)
        wheel = {v * tb: Fraction(w, whole) for v, w in m.bonus.segments if w}
        features.append((m.bonus.trigger, lambda k: (wheel, {"wheel bonus 2+ x S": 1, **{
            f"wheel bonus prize {v // tb} x total bet": q for v, q in wheel.items()}})))
    if m.hold_and_spin is not None:  # S is the coin
        features.append((m.hold_and_spin.trigger, _hold_feature(m)))
    free = _spins(m, feature=True) if m.free_spins is not None else {}
    free_win, free_missed = {}, {}  # one free spin's {credits: probability}; per class, P(not paid)
    for (credits, _, paid, scatters), q in free.items():
        assert not award(m.free_spins.retrigger, scatters)  # no retriggers in these models
        free_win[credits] = free_win.get(credits, 0) + q
    for name in {n for _, _, paid, _ in free for n in paid}:
        free_missed[name] = sum(q for (_, _, paid, _), q in free.items() if name not in paid)
    sums = [{0: Fraction(1)}]  # n -> the win of n free spins

    def free_spins(n: int) -> dict:
        while len(sums) <= n:
            sums.append(_add(sums[-1], free_win))
        return sums[n]

    base = _spins(m, feature=False)
    q = sum(p for (_, hit, _, _), p in base.items() if hit)
    meter = m.progressive or (m.jackpots[0] if m.jackpots else None)
    e_m, e_m2 = _meter(meter.reset, meter.contribution, tb, q) if meter else (0, 0)
    s1 = s2 = hits = reached = Fraction(0)
    once: dict = {}
    after: dict = {}
    alike: dict = {}  # (spin credits, meter hit, key of after) -> probability: alike paid spins summed
    for (spin, hit, paid, scatters), p in base.items():
        n = award(m.free_spins.spins, scatters) if m.free_spins is not None else 0
        started = [f(scatters) for trigger, f in features if scatters >= trigger]
        feature_win, feature_paid = started[0] if started else ({0: Fraction(1)}, {})
        key = (n, scatters if started else None)  # the free spins' and the feature's win, once per key
        if key not in after:
            after[key] = _add(free_spins(n), feature_win)
        alike[(spin, hit, key)] = alike.get((spin, hit, key), 0) + p
        seen = paid | ({_meter_class(m)} if hit else set())
        hits += p if seen or n or started else 0
        for name in seen | free_missed.keys() | feature_paid.keys():  # paid in the spin, a free spin or the feature
            missed = (name not in seen) * free_missed.get(name, 1) ** n * (1 - feature_paid.get(name, 0))
            if missed != 1:
                once[name] = once.get(name, 0) + p * (1 - missed)
    for (spin, hit, key), p in alike.items():
        m1, m2 = (e_m, e_m2) if hit else (0, 0)
        for f, pf in after[key].items():
            c = spin + f if cap is None else min(spin + f, cap)
            s1 += p * pf * (c + m1)
            s2 += p * pf * (c * c + 2 * c * m1 + m2)
            reached += p * pf if cap is not None and spin + f > cap else 0
    for level in m.mystery:  # independent of the reels: a second meter, its moments added
        l1, l2 = _meter(level.reset, level.contribution, tb, level.probability)
        s2 += 2 * s1 * level.probability * l1 + level.probability * l2
        s1 += level.probability * l1
        hits = 1 - (1 - hits) * (1 - level.probability)
        once[f"mystery progressive {level.name}"] = level.probability
    return s1, s2, hits, reached, once


CASCADE = '[cascade]\nrefill = ["A K", "K A", "A K"]\n'  # expanding wilds stay refused with cascades
SCATTER_LEVEL = '[[jackpot]]\nname = "MINI"\nsymbol = "S"\ncount = 2\ncontribution = "1/100"\nreset = 30\n'
LINE_LEVEL = '[[jackpot]]\nname = "MAJOR"\nsymbol = "A"\ncount = 3\ncontribution = "1/100"\nreset = 30\n'


CAPPED_HOLD = FEATURES.split("[bonus]")[0] + HOLD.replace("grand = 20", "grand = 4")  # cap, progressive, hold


@pytest.mark.parametrize("text", [HEIGHTS + HOLD + FREE, HEIGHTS + CAPPED_HOLD + FREE, EXPANDING + HOLD,
                                  pytest.param(EXPANDING + HOLD + FREE, marks=pytest.mark.slow),
                                  pytest.param(EXPANDING + CAPPED_HOLD + FREE, marks=pytest.mark.slow),
                                  HEIGHTS + HOLD + FREE.replace("multiplier = 2", "multiplier = 1") + SCATTER_LEVEL],
                         ids=["hold and spin, free spins", "hold and spin, free spins, cap, progressive",
                              "expanding, hold and spin", "expanding, hold and spin, free spins",
                              "expanding, hold and spin, free spins, cap, progressive",
                              "hold and spin, free spins, jackpot level"])
def test_heights_with_hold_and_spin_free_spins_and_expanding_wilds_equal_brute_force(text):
    m = parse_model(text)
    assert m.hold_and_spin is not None and (m.free_spins is not None or m.expanding)
    a = analyse(m)
    mean, second, hit, reached, once = brute(m)
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert sum(a.parts.values()) == a.rtp and a.rtp_upper is None and a.bounded is None
    if m.cap is not None:
        assert 0 < a.cap.capped == reached and a.parts["cap"] < 0
    if m.free_spins is not None:
        assert a.feature.trigger_probability > 0


def test_expanding_models_expand():
    assert parse_model(EXPANDING).expanding == (parse_model(EXPANDING).symbol_index("W"),)
    assert not parse_model(HEIGHTS).expanding


@pytest.mark.parametrize("extra", [FEATURES, FEATURES.replace("win = 5 ", "win = 4 "),
                                   FEATURES.split("[progressive]")[0], FEATURES.split("[bonus]")[0] + MYSTERY,
                                   "[bonus]" + FEATURES.split("[bonus]")[1] + MYSTERY,
                                   "[bonus]" + FEATURES.split("[bonus]")[1] + SCATTER_LEVEL, LINE_LEVEL + MYSTERY,
                                   HOLD, FEATURES.split("[bonus]")[0] + HOLD.replace("grand = 20", "grand = 4"),
                                   HOLD + SCATTER_LEVEL, FEATURES.split("[progressive]")[0] + SCATTER_LEVEL,
                                   FEATURES.split("[progressive]")[0] + LINE_LEVEL],
                         ids=["documented", "tighter cap", "cap alone", "cap, progressive, mystery",
                              "bonus and mystery", "bonus and a scatter jackpot level", "a line jackpot level",
                              "hold and spin", "hold and spin, cap, progressive", "hold and spin, jackpot level",
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


@pytest.mark.parametrize("extra", [FEATURES + MYSTERY, LINE_LEVEL,
                                   FEATURES.split("[bonus]")[0] + HOLD.replace("grand = 20", "grand = 4")],
                         ids=["cap, meters, bonus", "jackpot level", "hold and spin, cap, progressive"])
def test_simulate_plays_heights_with_the_features(tmp_path, extra):
    report = round_play_simulates(tmp_path, HEIGHTS + extra, 2000)
    assert report["rtp_exact_inside"]


@pytest.mark.parametrize("extra, where", [
    (CASCADE, "symbols.W: a cascade model has no expanding wild symbols"),
    ("[progressive]" + FEATURES.split("[progressive]")[1].split("[bonus]")[0] + SCATTER_LEVEL,
     "jackpot: jackpot levels and [progressive] in one model"),
])
def test_what_stays_refused_is_located(tmp_path, extra, where):
    text = HEIGHTS if extra != CASCADE else HEIGHTS.replace('kind = "wild", multiplier',
                                                             'kind = "wild", expanding = true, multiplier')
    refused(tmp_path, text + extra, where)


def test_both_ways_heights_take_no_cap(tmp_path):
    text = HEIGHTS.replace("total = 10 ", "total = 10\nboth_ways = true ") + FEATURES.split("[progressive]")[0]
    refused(tmp_path, text, "bet.both_ways: a both-ways game has no [cap] section")
