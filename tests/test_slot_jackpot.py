"""Jackpot levels won by counts of a symbol (docs/slot_model.md, "Jackpot levels"), against a
brute force over every stop combination with the meters' geometric moments written out here."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import award, model, numpy_player_agrees, reference_line, refused, round_play_simulates

from harness.slot.exact import analyse
from harness.slot.profiles import check

GAME = """
name = "jackpot levels"
window = { rows = 2, reels = 3 }
bet = { per_line = 1, paylines = [[1, 1, 1], [2, 2, 2]], levels = [1, 4] }
[symbols]
A = { pays = { 3 = 5 } }
K = { pays = { 3 = 2 } }
W = { kind = "wild" }
J = { kind = "scatter", pays = { 2 = 1 } }
[[jackpot]]
name = "GRAND"
symbol = "J"
count = 4
contribution = "1/50"
reset = 300
[[jackpot]]
name = "MINOR"
symbol = "J"
count = 2
contribution = "0.01"
reset = 10
[[jackpot]]
name = "MAJOR"
symbol = "J"
count = 3
contribution = "3/200"
reset = 40
[reels]
base = ["A K J K W", "K A J J A", "A J J K"]
"""


def _meter(p, c, reset, bet):
    """(E[M], E[M^2]) of the meter at a hit: M = reset + c bet G, G geometric on plays (E G = 1/p,
    E G^2 = (2 - p)/p^2)."""
    g1, g2 = 1 / p, (2 - p) / (p * p)
    return reset + c * bet * g1, reset * reset + 2 * reset * c * bet * g1 + c * c * bet * bet * g2


def brute_force(m):
    """(RTP, variance, hit frequency, P(level)) from every stop combination."""
    strips = m.base_strips
    j = m.symbol_index("J")
    levels = sorted(((lv.count, lv) for lv in m.jackpots), key=lambda t: t[0])  # the highest count reached wins
    combos = list(itertools.product(*(range(len(s)) for s in strips)))
    plays = []
    for stops in combos:
        window = [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        win = sum(reference_line(m, [window[r][row] for r, row in enumerate(path)])[0] for path in m.paylines)
        n = sum(col.count(j) for col in window)
        win += max((v for k, v in m.symbols[j].pays.items() if k <= n), default=0) * m.total_bet
        level = next((lv for count, lv in reversed(levels) if count <= n), None)
        plays.append((win, level))
    cycle = len(combos)
    p = {lv.name: Fraction(sum(1 for _, x in plays if x is lv), cycle) for _, lv in levels}
    meter = {lv.name: _meter(p[lv.name], lv.contribution, lv.reset, m.total_bet) for _, lv in levels}
    mean = second = Fraction(0)
    for win, level in plays:
        e1, e2 = meter[level.name] if level else (0, 0)
        mean += win + e1
        second += win * win + 2 * win * e1 + e2
    mean, second = mean / cycle, second / cycle
    hit = Fraction(sum(1 for win, level in plays if win or level), cycle)
    return mean / m.total_bet, second - mean * mean, hit, p


def test_levels_equal_brute_force():
    m = model(GAME)
    assert [lv.name for lv in m.jackpots] == ["GRAND", "MINOR", "MAJOR"]  # the file's order
    a = analyse(m)
    rtp, variance, hit, p = brute_force(m)
    assert a.rtp == rtp and a.variance == variance and a.hit_frequency == hit
    by_name = {c.name: c.probability for c in a.classes if c.kind == "progressive"}
    assert by_name == {"jackpot MINOR (2 x J)": p["MINOR"], "jackpot MAJOR (3 x J)": p["MAJOR"],
                       "jackpot GRAND (4+ x J)": p["GRAND"]}
    shares = sum(lv.contribution + p[lv.name] * lv.reset / m.total_bet for lv in m.jackpots)
    assert a.parts["progressive"] == shares and a.parts["feature"] == 0
    assert sum(c.rtp for c in a.classes) == a.rtp


def test_reset_shares_fall_at_a_larger_bet():
    m = model(GAME)
    a = analyse(m)
    _, _, _, p = brute_force(m)
    fixed = a.parts["lines"] + a.parts["scatters"]
    at_four = fixed + sum(lv.contribution + p[lv.name] * lv.reset / (4 * m.total_bet) for lv in m.jackpots)
    assert [b.rtp for b in a.bet_levels] == [a.rtp, at_four]


def test_japanese_checks_cover_the_levels():
    a = analyse(model(GAME))
    results = {c.rule.id: c for c in check(a, "jp")}
    levels = [c for c in a.classes if c.name.startswith("jackpot ")]
    assert len(levels) == 3 and results["jp-3-3"].outcome == a.rarest.name
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability)


LEVEL = '[[jackpot]]\nname = "X"\nsymbol = "J"\ncount = 6\ncontribution = "0.01"\nreset = 5\n'


@pytest.mark.parametrize("change, where", [
    (("symbol = \"J\"\ncount = 4", "symbol = \"Q\"\ncount = 4"),
     "jackpot, level 1.symbol: a jackpot is won on a payline by a line symbol or by counts of a scatter"),
    (("symbol = \"J\"\ncount = 4", "symbol = \"A\"\ncount = 4"), "jackpot, level 1.count: must be at most 3"),
    (("symbol = \"J\"\ncount = 4", "symbol = \"J\"\ncount = 4\nwilds = true"),
     "jackpot, level 1.wilds: only a level won on a payline counts substituting wilds"),
    (("count = 4", "count = 3"), "jackpot, level 3.count: 3 x J already wins level 1"),
    (("contribution = \"1/50\"", "contribution = \"0.98\""), "jackpot: the levels' contributions sum to"),
    (("reset = 300", "reset = 300\nodds = 3"), "jackpot, level 1: unknown key 'odds'"),
    (("name = \"GRAND\"\n", ""), "jackpot, level 1: missing 'name'"),
    (("[reels]", "[progressive]\nsymbol = \"A\"\ncount = 3\ncontribution = \"0.01\"\nreset = 5\n[reels]"),
     "jackpot: jackpot levels and [progressive] in one model"),
])
def test_bad_levels_are_located(tmp_path, change, where):
    refused(tmp_path, GAME.replace(*change), where)


def test_a_level_the_window_cannot_show_is_refused(tmp_path):
    refused(tmp_path, GAME.replace("[reels]", LEVEL + "[reels]"), "jackpot, level 4: 6 x J can never show")


def test_a_second_jackpot_symbol_is_refused(tmp_path):
    text = GAME.replace('J = { kind = "scatter", pays = { 2 = 1 } }',
                        'J = { kind = "scatter", pays = { 2 = 1 } }\nQ = { kind = "scatter" }')
    refused(tmp_path, text.replace("[reels]", LEVEL.replace('"J"', '"Q"') + "[reels]"),
            "jackpot, level 4.symbol: every scatter level counts the one jackpot scatter symbol 'J'")


def test_simulate_plays_jackpot_levels_won_on_a_payline_through_a_rounds_play(tmp_path):
    """The C kernel plays the scatter levels (tests/test_slot_simulate_features.py); the line levels too
    are played by a round's play, which names the meters a play hits (harness.slot.meters)."""
    assert round_play_simulates(tmp_path, BOTH, 8000)["jackpot_hits"] > 0


# Two more levels won on a payline: a run of 2, or of 3, A from reel 1 (wilds count for these).
LINE_LEVELS = """
[[jackpot]]
name = "RUBY"
symbol = "A"
count = 2
wilds = true
contribution = "0.004"
reset = 25
[[jackpot]]
name = "DIAMOND"
symbol = "A"
count = 3
wilds = true
contribution = "0.006"
reset = 150
"""
BOTH = GAME.replace("[reels]", LINE_LEVELS + "[reels]")


def _run(m, symbols, jackpot, wilds):
    """Length of the run of ``jackpot`` (or a wild substituting for it, if ``wilds``) from reel 1."""
    n = 0
    for x in symbols:
        s = m.symbols[x]
        if x == jackpot or (wilds and s.kind == "wild" and m.symbol_names[jackpot] in s.substitutes):
            n += 1
        else:
            break
    return n


def brute_force_both(m, cap: int | None = None):
    """(RTP, variance, hit frequency, P(level)) from every stop combination, a scatter level and a line
    level per play at most (the highest of each kind); ``cap`` (credits): each play's win (not its meters)
    paid at most that, free spins included (at most one, no retrigger: every feature-strip stop listed)."""
    strips = m.base_strips
    j = m.symbol_index("J")
    free_wins = [0]  # one free spin's win, per feature-strip stop combination (the meters: never in free spins)
    if m.free_spins is not None:
        assert not m.free_spins.retrigger and set(m.free_spins.spins.values()) == {1}
        feature = m.feature_strips
        free_wins = []
        for stops in itertools.product(*(range(len(s)) for s in feature)):
            window = [[s[(q + h) % len(s)] for h in range(m.rows)] for s, q in zip(feature, stops)]
            lines = [[window[r][row] for r, row in enumerate(path)] for path in m.paylines]
            n = sum(col.count(j) for col in window)
            free_wins.append(m.free_spins.multiplier * (sum(reference_line(m, seq)[0] for seq in lines) + max(
                (v for k, v in m.symbols[j].pays.items() if k <= n), default=0) * m.total_bet))
    by_kind = {on: sorted((lv for lv in m.jackpots if lv.on == on), key=lambda lv: lv.count)
               for on in ("scatter", "line")}
    combos = list(itertools.product(*(range(len(s)) for s in strips)))
    plays = []
    for stops in combos:
        window = [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        lines = [[window[r][row] for r, row in enumerate(path)] for path in m.paylines]
        win = sum(reference_line(m, seq)[0] for seq in lines)
        n = sum(col.count(j) for col in window)
        win += max((v for k, v in m.symbols[j].pays.items() if k <= n), default=0) * m.total_bet
        hits = [next((lv for lv in reversed(by_kind["scatter"]) if lv.count <= n), None)]
        line = by_kind["line"]
        run = max(_run(m, seq, line[0].symbol, line[0].wilds) for seq in lines) if line else 0
        hits.append(next((lv for lv in reversed(line) if lv.count <= run), None))
        triggered = m.free_spins is not None and award(m.free_spins.spins, n)
        for f in (free_wins if triggered else [0]):  # each equally likely given the paid spin
            total = win + f
            plays.append((total if cap is None else min(total, cap), [lv for lv in hits if lv is not None],
                          Fraction(1, len(free_wins) if triggered else 1)))
    cycle = len(combos)
    p = {lv.name: sum((w for _, hit, w in plays if lv in hit), Fraction(0)) / cycle for lv in m.jackpots}
    meter = {lv.name: _meter(p[lv.name], lv.contribution, lv.reset, m.total_bet) for lv in m.jackpots}
    mean = second = Fraction(0)
    pairs: dict = {}  # E[M_s M_l] per pair of levels won together (each a pass over the plays)
    for win, hit, weight in plays:
        # E[(w + M1 + M2)^2] = w^2 + 2 w (E M1 + E M2) + E M1^2 + E M2^2 + 2 E[M1 M2]
        e1 = sum(meter[lv.name][0] for lv in hit)
        if len(hit) == 2 and tuple(lv.name for lv in hit) not in pairs:
            pairs[tuple(lv.name for lv in hit)] = _pair(plays, cycle, *hit, m.total_bet)
        e2 = sum(meter[lv.name][1] for lv in hit) + (2 * pairs[tuple(lv.name for lv in hit)]
                                                     if len(hit) == 2 else 0)
        mean += weight * (win + e1)
        second += weight * (win * win + 2 * win * e1 + e2)
    mean, second = mean / cycle, second / cycle
    hit_frequency = sum((w for win, hit, w in plays if win or hit), Fraction(0)) / cycle
    return mean / m.total_bet, second - mean * mean, hit_frequency, p


def _pair(plays, cycle, s, l, bet):
    """E[M_s M_l] at a play hitting both, M = reset + c bet (1 + A): going back over the earlier plays,
    first-step analysis on the first of them: a play that hits s (or l) ends A (or B), so
    E[AB] = P(neither) (1 + E[A] + E[B] + E[AB])."""
    neither = sum((w for _, hit, w in plays if s not in hit and l not in hit), Fraction(0)) / cycle
    p_s = sum((w for _, hit, w in plays if s in hit), Fraction(0)) / cycle
    p_l = sum((w for _, hit, w in plays if l in hit), Fraction(0)) / cycle
    ea, eb = (1 - p_s) / p_s, (1 - p_l) / p_l  # geometric: earlier plays back to the level's last hit
    eab = neither * (1 + ea + eb) / (1 - neither)
    g_s, g_l = 1 + ea, 1 + eb
    cs, cl = s.contribution * bet, l.contribution * bet
    return (s.reset * l.reset + s.reset * cl * g_l + l.reset * cs * g_s
            + cs * cl * (1 + ea + eb + eab))


def test_line_and_scatter_levels_equal_brute_force():
    m = model(BOTH)
    assert [lv.on for lv in m.jackpots] == ["scatter"] * 3 + ["line"] * 2
    a = analyse(m)
    rtp, variance, hit, p = brute_force_both(m)
    assert a.rtp == rtp and a.variance == variance and a.hit_frequency == hit
    by_name = {c.name: c.probability for c in a.classes if c.kind == "progressive"}
    assert by_name["jackpot RUBY (2 x A on a line)"] == p["RUBY"] > 0
    assert by_name["jackpot DIAMOND (3 x A on a line)"] == p["DIAMOND"] > 0
    assert sum(c.rtp for c in a.classes) == a.rtp
    # (the brute force's meters of the two kinds are dependent: the product rule fails this test)


def test_line_levels_alone_equal_brute_force():
    text = GAME.split("[[jackpot]]")[0] + LINE_LEVELS + "[reels]" + GAME.split("[reels]")[1]
    m = model(text)
    a = analyse(m)
    rtp, variance, hit, p = brute_force_both(m)
    assert a.rtp == rtp and a.variance == variance and a.hit_frequency == hit


def test_a_line_level_the_paylines_cannot_show_is_refused(tmp_path):
    text = BOTH.replace('symbol = "A"\ncount = 3\nwilds = true', 'symbol = "K"\ncount = 3\nwilds = true')
    refused(tmp_path, text, "jackpot, level 5.symbol: every line level counts the one jackpot line symbol 'A'")
    never = GAME.replace("[reels]", LINE_LEVELS.replace('symbol = "A"', 'symbol = "X"') + "[reels]").replace(
        "[symbols]", "[symbols]\nX = {}")
    refused(tmp_path, never, "jackpot, level 4: 2 x X can never show on a payline")


FREE = '[free_spins]\nspins = { 3 = 1 }\nmultiplier = 2\n'


@pytest.mark.parametrize("cap, free", [(3, ""), (3, FREE), (4, FREE), (6, FREE)],
                         ids=["cap 3", "cap 3, free spins", "cap 4, free spins", "cap 6, free spins"])
@pytest.mark.parametrize("text", [GAME, "BOTH", "LINES"], ids=["scatter levels", "line and scatter levels",
                                                               "line levels"])
def test_levels_beside_a_cap_equal_brute_force(text, cap, free):
    """The cap takes the play's win, the meters are paid in full outside it: E[C; a level won] carries each
    meter's cross term, so the variance is exact too; the classes' probabilities stay the uncapped ones."""
    text = {"BOTH": BOTH, "LINES": GAME.split("[[jackpot]]")[0] + LINE_LEVELS + "[reels]" + GAME.split("[reels]")[1]
            }.get(text, text)
    text = text.replace("[reels]", free + "[reels]")
    m = model(text.replace("[reels]", f"[cap]\nwin = {cap}\n[reels]"))
    a = analyse(m)
    rtp, variance, hit, p = brute_force_both(m, cap=cap * m.total_bet)
    assert (rtp, variance, hit, p)[:3] != brute_force_both(m)[:3]  # the cap takes some wins
    uncapped = analyse(model(text))
    assert a.bounded is None and a.rtp == rtp and a.variance == variance and a.hit_frequency == hit
    assert a.parts["cap"] < 0 and a.rtp - a.parts["cap"] == uncapped.rtp and a.classes == uncapped.classes
    assert a.parts["progressive"] == uncapped.parts["progressive"] and a.jackpots == uncapped.jackpots


def test_levels_beside_a_cap_simulate_inside_the_exact_figures(tmp_path):
    """A round's play (line and scatter levels) and the numpy player (scatter levels): the meters outside the
    cap, each simulated RTP's interval holding the exact capped one."""
    round_play_simulates(tmp_path, BOTH.replace("[reels]", "[cap]\nwin = 3\n[reels]"), 4000)
    numpy_player_agrees(model(GAME.replace("[reels]", FREE + "[cap]\nwin = 3\n[reels]")), 20_000)
