"""Cascades with scatter symbols and free spins (docs/slot_model.md, "Cascades with scatters and free
spins"), against an independent brute force: every stop combination and every refill stop followed
through the paid spin's whole cascade sequence (windows as shown), the last window's scatters paid
and its free spins played as whole sequences on the feature strips, each free spin enumerated the
same way (without retriggers: the play's outcome distribution is exact; with retriggers: first-step
equations over the spins remaining)."""
from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from slot_support import award, feature_value_by_first_step, model, play_figures, refused, round_play_simulates
from test_slot_cascade import WAYS, _play, paid_spins

from harness.slot import cascade_stage
from harness.slot.exact import analyse
from harness.slot.profiles import check

# Reel 1 refills with the blank X only and every win runs from reel 1, so a sequence has at most
# rows + 1 windows.  The scatter S is never removed (it is on no line); refills drop more S in.
GAME = (WAYS.replace('X = {}', 'S = { kind = "scatter", pays = { 2 = 1, 3 = 4 } }\nX = {}')
        .replace('base = ["A K X K", "K A W X A", "A X K"]',
                 'base = ["A K S X", "K A W S X", "A S K X"]\nfeature = ["A K X", "K W A S", "S A K X"]')
        .replace('refill = ["X", "A K W X", "K A X"]', 'refill = ["X", "A S K X", "K A S X"]')
        .replace("ladder = [1, 2, 5]", "ladder = [1, 2]")
        + """[free_spins]
scatter = "S"
spins = { 2 = 1, 3 = 2 }
retrigger = false
multiplier = 2
""")


NO_FREE_SPINS = GAME.split("[free_spins]")[0].replace('feature = ["A K X", "K W A S", "S A K X"]\n', "")


def _sequence(m, window, times):
    """{(credits, outcomes paid, scatters in the last window): probability} of one spin's cascade
    sequence from ``window`` (test_slot_cascade's brute force, which keeps the last window)."""
    s = m.symbol_index("S")
    out: dict = {}
    for (credits, seen, last), q in _play(m, window, 0, m.rows + 2).items():
        key = (credits * times, seen, sum(col.count(s) for col in last))
        out[key] = out.get(key, Fraction(0)) + q
    return out


def _spin(m, strips, times, spins_table):
    """{(credits, outcomes paid, spins awarded): probability} of one spin (its sequence, its scatters)."""
    s = m.symbol_index("S")
    pays = m.symbols[s].pays
    out: dict = {}
    for window, weight in paid_spins(m, strips):
        for (credits, seen, n), q in _sequence(m, window, times).items():
            scatter = award(pays, n) * m.total_bet * times
            if scatter:
                seen = seen | {("S", n)}
            key = (credits + scatter, seen, award(spins_table, n))
            out[key] = out.get(key, Fraction(0)) + q * weight
    return out


def _named(m, seen):
    names = m.symbol_names
    return frozenset(f"scatter {'2' if n == 2 else '3+'} x S" if sym == "S" else f"{n} x {names[sym]}"
                     for sym, n in seen)


def brute_force(m):
    """The play's outcome distribution {(credits, outcomes paid): probability}: the paid spin's
    sequence, then the free spins its last window awards (no retriggers), each a whole sequence."""
    fsp = m.free_spins
    base = _spin(m, m.base_strips, 1, fsp.spins)
    free = _spin(m, m.feature_strips, fsp.multiplier, {})
    dist: dict = {}
    for (credits, seen, n), p in base.items():
        for key, q in play_free_spins(m, {(credits, _named(m, seen)): p}, free, n).items():
            dist[key] = dist.get(key, Fraction(0)) + q
    return dist


def play_free_spins(m, runs: dict, free: dict, n: int) -> dict:
    """``runs`` ({(credits, outcomes paid): probability}) followed by ``n`` free spins, each drawn from
    ``free`` ({(credits, outcomes paid, spins awarded): probability}, :func:`_spin`)."""
    for _ in range(n):
        nxt: dict = {}
        for (c1, s1), p1 in runs.items():
            for (c2, s2, _), p2 in free.items():
                key = (c1 + c2, s1 | _named(m, s2))
                nxt[key] = nxt.get(key, Fraction(0)) + p1 * p2
        runs = nxt
    return runs


@functools.lru_cache(maxsize=None)
def game_distribution():
    """``brute_force`` of GAME, once for the tests that add a section the reels do not see."""
    return brute_force(model(GAME))


def test_scatters_and_free_spins_equal_brute_force():
    m = model(GAME)
    a = analyse(m)
    mean, second, hit, once = play_figures(game_distribution())
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean
    assert a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert all(c.exact for c in a.classes) and sum(c.rtp for c in a.classes) == a.rtp
    assert a.parts["scatters"] > 0 and a.parts["feature"] > 0 and a.parts["cascade"] > 0
    assert a.feature is not None and a.feature.trigger_probability > 0


def test_scatters_without_free_spins_equal_brute_force():
    m = model(NO_FREE_SPINS)
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force_no_free(m))
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once


def test_retriggers_agree_with_first_step_equations():
    m = model(GAME.replace("retrigger = false", "retrigger = { 2 = 1 }"))
    a = analyse(m)
    fsp = m.free_spins
    free = _spin(m, m.feature_strips, fsp.multiplier, fsp.retrigger)
    spin = {}
    for (credits, _, j), p in free.items():
        spin[(credits, j)] = spin.get((credits, j), Fraction(0)) + p
    ev, ev2 = feature_value_by_first_step(spin, n_max=60, sweeps=120)
    base = _spin(m, m.base_strips, 1, fsp.spins)
    mean = sum(float(p) * (c + n * ev) for (c, _, n), p in base.items())
    second = sum(float(p) * (c * c + 2 * c * n * ev + n * ev2 + n * (n - 1) * ev * ev)
                 for (c, _, n), p in base.items())
    assert float(a.rtp) * m.total_bet == pytest.approx(mean, rel=1e-9)
    assert float(a.variance) + float(a.rtp * m.total_bet) ** 2 == pytest.approx(second, rel=1e-9)
    assert a.feature.retrigger_per_spin > 0


def _with_heights(text: str) -> str:
    """``text`` with reel heights per spin (each reel 1 or 2 rows) and a stake."""
    return text.replace("window = { rows = 2, reels = 3 }", "window = { rows = 2, reels = 3, heights = "
                        "[{ 1 = 1, 2 = 2 }, { 1 = 2, 2 = 1 }, { 1 = 1, 2 = 3 }] }").replace(
        "per_way = 1 }", "per_way = 1, total = 6 }")


def test_scatters_with_reel_heights_equal_brute_force():
    # docs/slot_model.md, "Cascades with reel heights": each reel keeps its drawn height; the last
    # window's scatters pay
    m = model(_with_heights(NO_FREE_SPINS))
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force_no_free(m))
    assert m.heights is not None and a.parts["scatters"] > 0 and a.parts["cascade"] > 0
    assert (a.rtp, a.variance, a.hit_frequency) == (mean / m.total_bet, second - mean * mean, hit)
    assert {c.name: c.probability for c in a.classes if c.probability} == once


def test_bounded_scatters_hold_the_brute_force(monkeypatch):
    monkeypatch.setattr(cascade_stage, "MAX_CASCADE_STATES", 0)
    m = model(NO_FREE_SPINS)
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force_no_free(m))
    assert a.rtp <= mean / m.total_bet <= a.rtp_upper and a.bounded
    assert a.variance <= second - mean * mean <= a.variance_upper and a.hit_frequency == hit
    for c in a.classes:
        assert c.probability <= once.get(c.name, 0) <= c.probability_upper


def brute_force_no_free(m):
    dist: dict = {}
    for (credits, seen, _), p in _spin(m, m.base_strips, 1, {}).items():
        key = (credits, _named(m, seen))
        dist[key] = dist.get(key, Fraction(0)) + p
    return dist


def _bounded_chains(monkeypatch, which):
    """Solve the chains ``which`` names ("paid spin", "free spins" or "both") by the bounds only."""
    init = cascade_stage.Solver.__init__

    def patched(self, walk):
        init(self, walk)
        free_walk = walk.times != 1  # GAME's free spins pay x2
        if which == "both" or (which == "free spins") == free_walk:
            self.exact = False
            self.prepared = cascade_stage.cb.prepare(walk.edges)

    monkeypatch.setattr(cascade_stage.Solver, "__init__", patched)


@pytest.mark.parametrize("which", ["both", "paid spin", "free spins"])
def test_bounded_free_spins_hold_the_brute_force(monkeypatch, which):
    # docs/slot_model.md, "Cascade bounds": free spins whose spins are bounded cascade chains
    _bounded_chains(monkeypatch, which)
    m = model(GAME)
    a = analyse(m)
    mean, second, hit, once = play_figures(game_distribution())
    tb = m.total_bet
    assert a.bounded and a.rtp <= mean / tb <= a.rtp_upper and a.rtp_upper - a.rtp < Fraction(1, 10**12)
    assert a.variance <= second - mean * mean <= a.variance_upper and a.hit_frequency == hit
    assert a.parts["feature"] <= a.parts_upper["feature"] and a.parts["feature"] > 0
    for c in a.classes:
        assert c.probability <= once.get(c.name, 0) <= c.probability_upper, c.name
    assert a.feature is None  # its figures are exact or not given: the RTP parts carry the bounds


def test_bounded_free_spins_with_retriggers_hold_the_exact_figures(monkeypatch):
    text = GAME.replace("retrigger = false", "retrigger = { 2 = 1 }")
    exact = analyse(model(text))
    _bounded_chains(monkeypatch, "both")
    a = analyse(model(text))
    assert a.rtp <= exact.rtp <= a.rtp_upper and a.variance <= exact.variance <= a.variance_upper
    for c, e in zip(a.classes, exact.classes):
        assert c.name == e.name and c.probability <= e.probability and e.probability_upper <= c.probability_upper


def test_retriggers_that_never_end_are_refused(tmp_path):
    refused(tmp_path, GAME.replace("retrigger = false", "retrigger = { 2 = 5 }"),
            "free_spins.retrigger: each free spin (a whole cascade sequence) awards on average")


@pytest.mark.parametrize("extra, where", [
    ("[cap]\nwin = 500\n", "cascade: a cascade model has no [cap] section"),
    ("[progressive]\nsymbol = \"A\"\ncount = 3\ncontribution = \"0.01\"\nreset = 10\n",
     "cascade: a cascade model has no [progressive] section"),
])
def test_combinations_still_refused_are_located(tmp_path, extra, where):
    refused(tmp_path, GAME + extra, where)


def test_sticky_wild_with_cascades_is_refused(tmp_path):
    refused(tmp_path, GAME.replace('W = { kind = "wild" }', 'W = { kind = "wild", sticky = true }'),
            "symbols.W.sticky: a cascade model has no sticky wilds")


def test_both_ways_with_cascades_is_refused_and_says_why(tmp_path):
    refused(tmp_path, NO_FREE_SPINS.replace("per_way = 1 }", "per_way = 1, both_ways = true }"),
            "cascade: a cascade model has no both-ways pays (a right-to-left win would remove the last cells")


def test_free_spins_with_cascades_and_reel_heights_are_refused(tmp_path):
    refused(tmp_path, _with_heights(GAME),
            "window.heights: a game with reel heights per spin has no [free_spins] section")


def test_japanese_checks_cover_scatters_and_free_spins():
    a = analyse(model(GAME))
    by_rule = {c.rule.id: c for c in check(a, "jp")}
    assert by_rule["jp-3-3"].outcome == a.rarest.name
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability)
    assert any(c.kind == "scatter" for c in a.classes)


def test_docs_fragment_is_a_valid_model():
    import pathlib
    import re

    from harness.slot.model import parse_model

    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "slot_model.md").read_text(encoding="utf-8")
    section = doc.split("\n## Cascades with scatters and free spins\n", 1)[1].split("\n## ", 1)[0]
    m = parse_model(re.search(r"```\n(.*?)```", section, re.S).group(1), source="docs/slot_model.md")
    assert m.cascade is not None and m.free_spins.retrigger and m.scatters
    a = analyse(m)
    assert all(a.parts[k] > 0 for k in ("lines", "scatters", "feature", "cascade"))
    assert a.feature.retrigger_per_spin > 0 and any(not c.exact for c in a.classes)  # retriggers: bounds
    results = check(a, "jp")
    assert results[0].outcome == a.rarest.name


MYSTERY = """
[[mystery]]
name = "MINI"
probability = "1/40"
contribution = "0.01"
reset = 10
[[mystery]]
name = "GRAND"
probability = "1/5000"
contribution = "0.002"
reset = 500
"""


def test_mystery_levels_with_cascades_equal_brute_force():
    from test_slot_mystery import meter

    m = model(GAME + MYSTERY)
    a = analyse(m)
    tb = m.total_bet
    # every play's cascades and free spins, then independently no level or one level's meter
    outcomes = [(1 - sum(lv.probability for lv in m.mystery), Fraction(0), Fraction(0), None)]
    outcomes += [(lv.probability, *meter(lv.probability, lv.contribution, lv.reset, tb), lv.name)
                 for lv in m.mystery]
    mean = second = hit = Fraction(0)
    once: dict = {}
    for (w, seen), p in game_distribution().items():  # the mystery levels change nothing on the reels
        for q, e1, e2, name in outcomes:
            mean += p * q * (w + e1)
            second += p * q * (w * w + 2 * w * e1 + e2)
            hit += p * q if (w or name) else 0
            for c in seen | ({f"mystery progressive {name}"} if name else set()):
                once[c] = once.get(c, 0) + p * q
    assert a.rtp == mean / tb and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert [b.rtp for b in a.bet_levels] == [a.rtp]


def test_bounded_cascades_with_mystery_levels_hold_the_exact_figures(monkeypatch):
    exact = analyse(model(NO_FREE_SPINS + MYSTERY))
    monkeypatch.setattr(cascade_stage, "MAX_CASCADE_STATES", 0)
    a = analyse(model(NO_FREE_SPINS + MYSTERY))
    assert a.bounded and a.rtp <= exact.rtp <= a.rtp_upper and a.variance <= exact.variance <= a.variance_upper
    assert a.parts["progressive"] == exact.parts["progressive"] > 0 and a.hit_frequency == exact.hit_frequency


def test_simulate_plays_cascades_with_scatters_and_mystery_levels_through_a_rounds_play(tmp_path):
    # the round's play pays the last window's scatters and draws the mystery outcome last
    # (cascades with scatters and free spins: tests/test_slot_simulate_features.py)
    round_play_simulates(tmp_path, NO_FREE_SPINS + MYSTERY, 8000)


def test_the_window_player_draws_mystery_levels_beside_cascades(tmp_path):
    import json

    from click.testing import CliRunner

    from harness.cli import main
    from test_slot_cascade import WAYS as PLAIN

    path = tmp_path / "game.toml"
    path.write_text(PLAIN + MYSTERY, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "30000", "--seed", bytes(range(32)).hex(),
                                       "--json"])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    report = json.loads(result.stdout)["simulation"]
    assert report["engine"] == "Python window player", report
    assert report["rtp_exact_inside"] and report["hit_frequency_exact_inside"], report
