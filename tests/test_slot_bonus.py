"""Bonus wheels and pick bonuses ([bonus]): the exact solution against a brute force
over every ordered sequence of picks, and whole small games against a brute force
over every stop combination.

The pick reference never forms sets of picked items: it follows every ordered
sequence of picks with its probability (the product of weight / remaining weight).
"""
from __future__ import annotations

import pathlib
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot import bonus as bn
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import check
from slot_support import TWO_BY_TWO, award, brute_stage, model, numpy_player_agrees, refused, round_play_simulates

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def pick_reference(items, picks: int) -> dict[int, Fraction]:
    """P(the bonus pays v), following every ordered sequence of picks."""
    out: dict[int, Fraction] = {}

    def go(left: list[int], p: Fraction, won: int, made: int) -> None:
        total = sum(items[i][1] for i in left)
        if made == picks or total == 0:
            out[won] = out.get(won, 0) + p
            return
        for i in left:
            value, weight, end = items[i]
            if not weight:
                continue
            q = p * Fraction(weight, total)
            if end:
                out[won + value] = out.get(won + value, 0) + q
            else:
                go([j for j in left if j != i], q, won + value, made + 1)

    go(list(range(len(items))), Fraction(1), 0, 0)
    return dict(sorted(out.items()))


BOARDS = [
    ([(1, 1, False), (2, 1, False), (5, 1, False), (0, 1, True)], 3),
    ([(3, 2, False), (3, 1, False), (10, 3, False), (0, 2, True), (7, 0, False)], 2),
    ([(1, 1, False), (4, 5, True), (9, 1, False), (2, 3, False), (6, 1, True), (1, 2, False)], 6),
]


@pytest.mark.parametrize("board, picks", BOARDS)
def test_pick_equals_every_ordered_sequence(board, picks):
    items = tuple(bn.PickItem(value=v, weight=w, end=e) for v, w, e in board)
    got = bn.solve(bn.Bonus(kind="pick", symbol=0, trigger=1, items=items, picks=picks))
    want = pick_reference(board, picks)
    assert got.win == want and sum(want.values()) == 1
    assert got.mean == sum(v * p for v, p in want.items())
    assert sum(got.share.values()) == got.mean


def test_wheel_is_its_weights():
    got = bn.solve(bn.Bonus(kind="wheel", symbol=0, trigger=1, segments=((2, 5), (5, 3), (50, 1), (80, 0))))
    assert got.win == {2: Fraction(5, 9), 5: Fraction(3, 9), 50: Fraction(1, 9)}
    assert got.mean == Fraction(10 + 15 + 50, 9) and got.second == Fraction(20 + 75 + 2500, 9)


WHEEL = TWO_BY_TWO + """
[bonus]
kind = "wheel"
symbol = "C"
trigger = 2
segments = { 2 = 5, 5 = 3, 50 = 1 }
"""

PICK = TWO_BY_TWO + """
[bonus]
kind = "pick"
symbol = "C"
trigger = 1
picks = 2
items = [{ value = 1 }, { value = 4, weight = 2 }, { value = 20 }, { value = 0, end = true }]
"""


def _bonus_distribution(m):
    b = m.bonus
    if b.kind == "wheel":
        total = sum(w for _, w in b.segments)
        return {v: Fraction(w, total) for v, w in b.segments if w}
    return pick_reference([(it.value, it.weight, it.end) for it in b.items], b.picks)


@pytest.mark.parametrize("text", [WHEEL, PICK], ids=["wheel", "pick"])
def test_game_equals_brute_force(text):
    m = model(text.replace('C = { kind = "scatter" }', 'C = { kind = "scatter", pays = { 1 = 1, 2 = 3 } }'))
    assert m.symbols[m.scatter].pays
    a = analyse(m)
    brute = brute_stage(m, m.base_strips, with_progressive=False)
    dist = _bonus_distribution(m)
    f1 = sum(v * p for v, p in dist.items())
    f2 = sum(v * v * p for v, p in dist.items())
    n, tb = brute.cycle, m.total_bet
    scat = m.symbols[m.scatter].pays
    s1 = s2 = Fraction(0)
    hits = started = feature = 0
    for total, k, _, _ in brute.records:  # k: scatters in the window
        w = m.bet_per_line * total + tb * award(scat, k)
        on = k >= m.bonus.trigger
        g1, g2 = (tb * f1, tb * tb * f2) if on else (0, 0)
        s1 += w + g1
        s2 += w * w + 2 * w * g1 + g2
        feature += g1
        hits += w > 0 or on
        started += on
    mean = s1 / n
    assert a.rtp == mean / tb and a.parts["feature"] == feature / n / tb
    assert a.variance == s2 / n - mean * mean
    assert a.hit_frequency == Fraction(hits, n)
    by_name = {c.name: c for c in a.classes}
    assert by_name[f"{m.bonus.kind} bonus {m.bonus.trigger}+ x C"].probability == Fraction(started, n)
    top = max(dist) if m.bonus.kind == "wheel" else max(it.value for it in m.bonus.items)
    assert by_name[f"{m.bonus.kind} bonus prize {top} x total bet"].probability == Fraction(started, n) * (
        dist[top] if m.bonus.kind == "wheel" else _won(m, top))
    assert sum(c.rtp for c in a.classes) == a.rtp
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability)


def _won(m, value) -> Fraction:
    """P(an item of ``value`` is among the picks): the top item is unique on the PICK board."""
    items = [(it.value, it.weight, it.end) for it in m.bonus.items]
    marked = [(1 if v == value else 0, w, e) for v, w, e in items]
    return sum(p for v, p in pick_reference(marked, m.bonus.picks).items() if v)


def test_bonus_with_free_spins_adds_independently():
    """A bonus and free spins started by one paid spin: their means add, and the play's variance
    has the cross term 2 E[F1] E[F2] (independent given the window)."""
    text = WHEEL + "[free_spins]\nspins = { 2 = 1 }\n"
    with_both, wheel_only = analyse(model(text)), analyse(model(WHEEL))
    free_only = analyse(model(text.replace(WHEEL[WHEEL.index("[bonus]"):], "")))
    assert with_both.parts["feature"] == wheel_only.parts["feature"] + free_only.parts["feature"]
    assert with_both.rtp > free_only.rtp


def test_example_passes_jp():
    m = load_model(EXAMPLES / "slot_pick_bonus.toml")
    assert m.bonus is not None and m.bonus.kind == "pick"
    a = analyse(m)
    assert any(c.name == "pick bonus prize 12 x total bet" for c in a.classes)
    assert all(c.passed for c in check(a, "jp"))


@pytest.mark.parametrize("text", [WHEEL, PICK], ids=["wheel", "pick"])
def test_numpy_player_inside_the_exact_intervals(text):
    numpy_player_agrees(model(text), 20_000)


@pytest.mark.parametrize("text", [WHEEL, PICK], ids=["wheel", "pick"])
def test_simulate_plays_the_bonus_through_a_rounds_play(tmp_path, text):
    assert round_play_simulates(tmp_path, text, 3000)["features"] > 0


@pytest.mark.parametrize("text, change, where", [
    (WHEEL, ("segments = { 2 = 5, 5 = 3, 50 = 1 }", "segments = { 2 = 0 }"), "bonus.segments"),
    (WHEEL, ("segments = { 2 = 5, 5 = 3, 50 = 1 }", "segments = { 2.5 = 1 }"), "bonus.segments"),
    (WHEEL, ('kind = "wheel"', 'kind = "dice"'), "bonus.kind"),
    (WHEEL, ('symbol = "C"', 'symbol = "A"'), "bonus.symbol"),
    (WHEEL, ("trigger = 2", "trigger = 5"), "bonus.trigger"),
    (WHEEL, ("segments = {", "items = [], segments = {"), "bonus"),
    (PICK, ("picks = 2", "picks = 5"), "bonus.picks"),
    (PICK, ("[{ value = 1 }, { value = 4, weight = 2 }, { value = 20 }, { value = 0, end = true }]",
            "[{ value = 1, weight = 0 }]"), "bonus.items"),
    (PICK, ("{ value = 20 }", "{ value = 20, end = 1 }"), "bonus.items, item 3.end"),
    (PICK, ("{ value = 20 }", "{ value = -2 }"), "bonus.items, item 3.value"),
    (PICK, ("items = [", "items = [" + "{ value = 1 }, " * 12), "bonus.items"),
    (WHEEL, ("[bonus]", "[hold_and_spin]\nsymbol = \"B\"\ntrigger = 2\nland = \"1/2\"\nvalues = { 1 = 1 }\n[bonus]"),
     "bonus"),
])
def test_bad_bonus_exit_2(tmp_path, text, change, where):
    assert change[0] in text
    refused(tmp_path, text.replace(*change), where)
