"""Cascades with a wheel or pick bonus, or with jackpot levels (docs/slot_model.md, "Cascades with a
bonus", "Cascades with jackpot levels"), against an independent brute force: every stop combination
and every refill stop followed through the paid spin's whole cascade sequence (test_slot_cascade's
player, windows as shown), the bonus started by that sequence's last window and played out (a wheel's
segments, every ordered sequence of picks), with and without the free spins the same window awards
(each a whole sequence of its own); the jackpot level its count reaches pays a meter whose moments
are written out from the geometric law of the plays between two hits."""
from __future__ import annotations

from fractions import Fraction

import pytest
from slot_support import award, model, play_figures, refused, round_play_simulates
from test_slot_cascade import paid_spins
from test_slot_cascade_features import GAME, NO_FREE_SPINS, _named, _sequence, _spin, play_free_spins

from harness.slot import cascade_stage
from harness.slot.exact import analyse
from harness.slot.profiles import check

WHEEL = """[bonus]
kind = "wheel"
symbol = "S"
trigger = 3
segments = { 2 = 3, 10 = 1 }
"""
PICK = """[bonus]
kind = "pick"
symbol = "S"
trigger = 2
picks = 2
items = [{ value = 1 }, { value = 4, weight = 2 }, { value = 0, end = true }]
"""


def bonus_prizes(m) -> dict[tuple[int, frozenset], Fraction]:
    """{(total bets won, prize values won): probability} of one bonus (a wheel stops on one segment; a pick
    board follows every ordered sequence of picks: its prizes are the values of the items picked)."""
    b = m.bonus
    if b.kind == "wheel":
        total = sum(w for _, w in b.segments)
        return {(v, frozenset({v})): Fraction(w, total) for v, w in b.segments if w}
    out: dict = {}
    items = [(it.value, it.weight, it.end) for it in b.items]
    dist: dict = {}  # every ordered sequence of picks, kept as the set of items picked

    def go(left: list[int], p: Fraction, picked: frozenset, made: int) -> None:
        total = sum(items[i][1] for i in left)
        if made == b.picks or total == 0:
            dist[picked] = dist.get(picked, 0) + p
            return
        for i in left:
            value, weight, end = items[i]
            if weight:
                q = p * Fraction(weight, total)
                if end:
                    dist[picked | {i}] = dist.get(picked | {i}, 0) + q
                else:
                    go([j for j in left if j != i], q, picked | {i}, made + 1)

    go(list(range(len(items))), Fraction(1), frozenset(), 0)
    for picked, p in dist.items():
        key = (sum(items[i][0] for i in picked), frozenset(items[i][0] for i in picked))
        out[key] = out.get(key, 0) + p
    return out


def play_distribution(m) -> dict:
    """The play's outcome distribution {(credits, outcomes paid, S in the paid spin's last window): probability}
    (meters aside: they are added by :func:`with_meters`)."""
    fsp, tb, b = m.free_spins, m.total_bet, m.bonus
    pays = m.symbols[m.symbol_index("S")].pays
    free = _spin(m, m.feature_strips, fsp.multiplier, {}) if fsp is not None else {}
    prizes = bonus_prizes(m) if b is not None else {}
    sequences: dict = {}  # the paid spin's sequence: {(credits, outcomes, scatters in its last window): p}
    for window, weight in paid_spins(m, m.base_strips):
        for key, q in _sequence(m, window, 1).items():
            sequences[key] = sequences.get(key, Fraction(0)) + q * weight
    dist: dict = {}
    for (credits, seen, n), p0 in sequences.items():
        scatter = award(pays, n) * tb
        runs = {(credits + scatter, _named(m, seen | ({("S", n)} if scatter else set()))): p0}
        runs = play_free_spins(m, runs, free, award(fsp.spins, n) if fsp is not None else 0)
        if b is not None and n >= b.trigger:  # the last window starts the bonus
            started = f"{b.kind} bonus {b.trigger}+ x S"
            nxt = {}
            for (c1, s1), p1 in runs.items():
                for (v, won), p2 in prizes.items():
                    names = {started} | {f"{b.kind} bonus prize {x} x total bet" for x in won if x}
                    key = (c1 + v * tb, s1 | frozenset(names))
                    nxt[key] = nxt.get(key, Fraction(0)) + p1 * p2
            runs = nxt
        for (c, names), p in runs.items():
            dist[c, names, n] = dist.get((c, names, n), Fraction(0)) + p
    return dist


def brute_force(m) -> dict:
    """The play's outcome distribution {(credits, outcomes paid): probability}."""
    dist: dict = {}
    for (c, names, _), p in play_distribution(m).items():
        dist[c, names] = dist.get((c, names), Fraction(0)) + p
    return dist


@pytest.mark.parametrize("text", [NO_FREE_SPINS + WHEEL, NO_FREE_SPINS + PICK, GAME + WHEEL, GAME + PICK],
                         ids=["wheel", "pick", "wheel and free spins", "pick and free spins"])
def test_cascade_bonus_equals_brute_force(text):
    m = model(text)
    a = analyse(m)
    mean, second, hit, once = play_figures(brute_force(m))
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean
    assert a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert all(c.exact for c in a.classes) and sum(c.rtp for c in a.classes) == a.rtp
    assert a.parts["feature"] > 0 and a.parts["cascade"] > 0
    assert a.rarest.probability == min(once.values())


def test_bounded_chain_brackets_the_bonus(monkeypatch):
    """The paid spin's chain forced past the exact limit: every figure's bounds hold the exact one."""
    text = NO_FREE_SPINS + WHEEL
    exact = analyse(model(text))
    monkeypatch.setattr(cascade_stage, "MAX_CASCADE_STATES", 1)
    bounded = analyse(model(text))
    assert bounded.bounded and bounded.rtp <= exact.rtp <= bounded.rtp_upper
    assert bounded.parts["feature"] <= exact.parts["feature"] <= bounded.parts_upper["feature"]
    assert bounded.variance <= exact.variance <= bounded.variance_upper
    by_name = {c.name: c for c in exact.classes}
    for c in bounded.classes:
        assert c.probability <= by_name[c.name].probability <= c.probability_upper, c.name
    assert {c.name for c in bounded.classes} == set(by_name)


def test_annotated_example_is_valid_and_passes():
    from test_slot_docs import _fragment

    from harness.slot.model import parse_model

    m = parse_model(_fragment("Cascades with a bonus"), source="docs/slot_model.md")
    assert m.cascade is not None and m.bonus is not None
    a = analyse(m)
    assert a.cascade.exact and a.parts["feature"] > 0 and a.parts["cascade"] > 0
    assert all(c.passed for c in check(a, "jp")), [c for c in check(a, "jp") if not c.passed]


def test_simulate_plays_the_cascade_bonus_through_a_rounds_play(tmp_path):
    assert round_play_simulates(tmp_path, GAME + WHEEL, 3000)["features"] > 0


def test_bonus_that_never_starts_is_located(tmp_path):
    refused(tmp_path, NO_FREE_SPINS + WHEEL.replace("trigger = 3", "trigger = 6"), "bonus.trigger")


def test_cascade_with_hold_and_spin_still_refused(tmp_path):
    refused(tmp_path, NO_FREE_SPINS + '[hold_and_spin]\nsymbol = "S"\ntrigger = 3\nland = "1/2"\nvalues = { 1 = 1 }\n',
            "cascade")


JACKPOTS = """[[jackpot]]
name = "MINOR"
symbol = "S"
count = 2
contribution = "1/100"
reset = 20
[[jackpot]]
name = "MAJOR"
symbol = "S"
count = 3
contribution = "1/50"
reset = 200
"""


def with_meters(m, dist: dict):
    """(mean, second moment, hit frequency, {outcome: P(paid at least once)}) of the play with its jackpot
    meters: the level the last window's count reaches pays its meter, ``reset + contribution x bet x G``
    with ``G`` (the plays since its last hit, this one included) geometric in the level's hit probability."""
    tb = m.total_bet
    ranges = []
    for i, level in enumerate(m.jackpots):
        above = [lv.count for lv in m.jackpots if lv.count > level.count]
        ranges.append((level, range(level.count, min(above) if above else m.rows * m.reels + 1)))
    moments = {}
    for level, counts in ranges:
        p = sum((q for (_, _, n), q in dist.items() if n in counts), Fraction(0))
        c = level.contribution * tb
        e_g, e_g2 = 1 / p, (2 - p) / p ** 2
        moments[level.name] = (level.reset + c * e_g, level.reset ** 2 + 2 * level.reset * c * e_g + c * c * e_g2)
    mean = second = hit = Fraction(0)
    once: dict = {}
    for (credits, names, n), q in dist.items():
        won = next((lv for lv, counts in ranges if n in counts), None)
        m1, m2 = moments[won.name] if won else (0, 0)
        mean += q * (credits + m1)
        second += q * (credits * credits + 2 * credits * m1 + m2)
        hit += q if credits or won else 0
        label = "2" if won is not None and won.count == 2 else "3+"
        for name in names | ({f"jackpot {won.name} ({label} x S)"} if won else set()):
            once[name] = once.get(name, Fraction(0)) + q
    return mean, second, hit, once


@pytest.mark.parametrize("text", [NO_FREE_SPINS + JACKPOTS, GAME + JACKPOTS + WHEEL],
                         ids=["jackpot levels", "jackpot levels, free spins and a wheel"])
def test_cascade_jackpot_levels_equal_brute_force(text):
    m = model(text)
    a = analyse(m)
    mean, second, hit, once = with_meters(m, play_distribution(m))
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean
    assert a.hit_frequency == hit
    assert {c.name: c.probability for c in a.classes if c.probability} == once
    assert sum(c.rtp for c in a.classes) == a.rtp and a.parts["progressive"] > 0
    assert [j.hit_probability for j in a.jackpots] == [once["jackpot MINOR (2 x S)"], once["jackpot MAJOR (3+ x S)"]]


def test_jackpot_levels_beside_a_bounded_chain_are_beyond_the_exact_analysis(tmp_path, monkeypatch):
    monkeypatch.setattr(cascade_stage, "MAX_CASCADE_STATES", 1)
    path = tmp_path / "game.toml"
    path.write_text(NO_FREE_SPINS + JACKPOTS, encoding="utf-8")
    from click.testing import CliRunner

    from harness.cli import main

    result = CliRunner().invoke(main, ["slot", str(path)])
    assert result.exit_code == 2 and "jackpot" in result.stderr and "--simulate N" in result.stderr, result.output


def test_cascade_jackpot_on_a_payline_still_refused(tmp_path):
    line = JACKPOTS.replace('symbol = "S"\ncount = 2', 'symbol = "A"\ncount = 3', 1)  # MINOR on a run of A
    refused(tmp_path, NO_FREE_SPINS + line, "jackpot")


def test_simulate_plays_cascade_jackpot_levels_through_a_rounds_play(tmp_path):
    round_play_simulates(tmp_path, NO_FREE_SPINS + JACKPOTS, 3000)


def test_jackpot_annotated_example_is_valid_and_passes():
    from test_slot_docs import _fragment

    from harness.slot.model import parse_model

    m = parse_model(_fragment("Cascades with jackpot levels"), source="docs/slot_model.md")
    assert m.cascade is not None and [lv.on for lv in m.jackpots] == ["scatter", "scatter"]
    a = analyse(m)
    assert a.cascade.exact and a.parts["progressive"] > 0 and a.parts["cascade"] > 0
    assert all(c.passed for c in check(a, "jp")), [c for c in check(a, "jp") if not c.passed]
