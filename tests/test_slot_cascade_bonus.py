"""Cascades with a wheel or pick bonus (docs/slot_model.md, "Cascades with a bonus"), against an
independent brute force: every stop combination and every refill stop followed through the paid
spin's whole cascade sequence (test_slot_cascade's player, windows as shown), the bonus started by
that sequence's last window and played out (a wheel's segments, every ordered sequence of picks),
with and without the free spins the same window awards (each a whole sequence of its own)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from slot_support import award, model, play_figures, refused, round_play_simulates
from test_slot_cascade import paid_spins
from test_slot_cascade_features import GAME, NO_FREE_SPINS, _named, _sequence, _spin

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


def brute_force(m) -> dict:
    """The play's outcome distribution {(credits, outcomes paid): probability}."""
    fsp, tb, b = m.free_spins, m.total_bet, m.bonus
    pays = m.symbols[m.symbol_index("S")].pays
    free = _spin(m, m.feature_strips, fsp.multiplier, {}) if fsp is not None else {}
    prizes = bonus_prizes(m)
    started = f"{b.kind} bonus {b.trigger}+ x S"
    sequences: dict = {}  # the paid spin's sequence: {(credits, outcomes, scatters in its last window): p}
    for window, weight in paid_spins(m, m.base_strips):
        for key, q in _sequence(m, window, 1).items():
            sequences[key] = sequences.get(key, Fraction(0)) + q * weight
    dist: dict = {}
    for (credits, seen, n), p0 in sequences.items():
        scatter = award(pays, n) * tb
        runs = {(credits + scatter, _named(m, seen | ({("S", n)} if scatter else set()))): p0}
        for _ in range(award(fsp.spins, n) if fsp is not None else 0):
            nxt: dict = {}
            for (c1, s1), p1 in runs.items():
                for (c2, s2, _), p2 in free.items():
                    key = (c1 + c2, s1 | _named(m, s2))
                    nxt[key] = nxt.get(key, Fraction(0)) + p1 * p2
            runs = nxt
        if n >= b.trigger:  # the last window starts the bonus
            nxt = {}
            for (c1, s1), p1 in runs.items():
                for (v, won), p2 in prizes.items():
                    names = {started} | {f"{b.kind} bonus prize {x} x total bet" for x in won if x}
                    key = (c1 + v * tb, s1 | frozenset(names))
                    nxt[key] = nxt.get(key, Fraction(0)) + p1 * p2
            runs = nxt
        for key, p in runs.items():
            dist[key] = dist.get(key, Fraction(0)) + p
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
