"""Mystery and multi-level progressives ([[mystery]]): every figure against a brute
force over every stop combination and every mystery outcome of a play (no level,
or one level), with each meter's moments from the geometric law of the plays
between two hits; every bet level against a separate analysis at that bet.
"""
from __future__ import annotations

import pathlib
from fractions import Fraction

import pytest

from harness.slot.exact import analyse
from harness.slot.profiles import check
from harness.slot.model import load_model
from slot_support import (TWO_BY_TWO, brute_stage, model, numpy_player_agrees, refused, round_play_simulates,
                          simulate_refused)

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"

LEVELS = """
[[mystery]]
name = "MINI"
probability = "1/50"
contribution = "0.01"
reset = 10
[[mystery]]
name = "GRAND"
probability = "1/20000"
contribution = "0.002"
reset = 1000
"""
GAME = TWO_BY_TWO + LEVELS


def meter(q: Fraction, c: Fraction, reset: int, bet: int) -> tuple[Fraction, Fraction]:
    """(E[M], E[M^2]) of the meter paid at a hit: M = reset + c bet G, G geometric(q) on 1, 2, ..."""
    eg, eg2 = 1 / q, (2 - q) / (q * q)
    return reset + c * bet * eg, reset * reset + 2 * reset * c * bet * eg + (c * bet) ** 2 * eg2


def test_game_equals_brute_force():
    m = model(GAME)
    a = analyse(m)
    brute = brute_stage(m, m.base_strips, with_progressive=False)
    tb, n = m.total_bet, brute.cycle
    outcomes = [(1 - sum(level.probability for level in m.mystery), Fraction(0), Fraction(0))]
    outcomes += [(level.probability, *meter(level.probability, level.contribution, level.reset, tb))
                 for level in m.mystery]
    s1 = s2 = hit = Fraction(0)
    for total, _, _, _ in brute.records:
        w = m.bet_per_line * total
        for i, (q, e1, e2) in enumerate(outcomes):
            s1 += q * (w + e1)
            s2 += q * (w * w + 2 * w * e1 + e2)
            hit += q if (w > 0 or i > 0) else 0
    mean = s1 / n
    assert a.rtp == mean / tb
    assert a.parts["progressive"] == sum(q * e1 for q, e1, _ in outcomes) / tb
    assert a.variance == s2 / n - mean * mean
    assert a.hit_frequency == hit / n
    by_name = {c.name: c for c in a.classes}
    assert by_name["mystery progressive GRAND"].probability == Fraction(1, 20000)
    assert a.rarest.name == "mystery progressive GRAND" and sum(c.rtp for c in a.classes) == a.rtp


def test_with_a_combination_progressive_and_bet_levels():
    """Both kinds of progressive in one model, at every bet level: each level's RTP equals a
    separate analysis of the model with per_line scaled to that bet."""
    text = GAME.replace("paylines = [[1, 1], [2, 2]] }", "paylines = [[1, 1], [2, 2]], levels = [1, 3] }") + """
[progressive]
symbol = "A"
count = 2
contribution = "1/100"
reset = 40
"""
    a = analyse(model(text))
    assert [b.level for b in a.bet_levels] == [1, 3]
    for b in a.bet_levels:
        scaled = analyse(model(text.replace("per_line = 1,", f"per_line = {b.level},").replace(", levels = [1, 3]", "")))
        assert scaled.rtp == b.rtp
    assert a.bet_levels[1].rtp < a.bet_levels[0].rtp  # the fixed resets weigh less at the larger bet


def test_example_passes_jp_at_every_bet():
    m = load_model(EXAMPLES / "slot_mystery_levels.toml")
    assert [level.name for level in m.mystery] == ["MINI", "MINOR", "MAJOR", "GRAND"]
    a = analyse(m)
    assert a.rarest.name == "mystery progressive GRAND"
    assert all(c.passed for c in check(a, "jp"))


def test_jp_rarest_catches_a_mystery_level():
    a = analyse(model(GAME.replace('probability = "1/20000"', 'probability = "1/200000000"')))
    failed = [c.rule.id for c in check(a, "jp") if not c.passed]
    assert "jp-3-3" in failed and a.rarest.name == "mystery progressive GRAND"


def test_numpy_player_inside_the_exact_intervals():
    numpy_player_agrees(model(TWO_BY_TWO.replace('C = { kind = "scatter" }', 'C = { kind = "scatter", pays = { 2 = 1 } }')
                              + LEVELS.replace('"1/20000"', '"1/200"')), 50_000, features=False)


def test_simulate_plays_mystery_levels_through_a_rounds_play(tmp_path):
    round_play_simulates(tmp_path, GAME, 20_000)


def test_simulate_refuses_a_mystery_draw_beyond_a_plays_one_draw(tmp_path):
    # the round's play draws a play's mystery outcome with one 32-bit bounded draw (harness.slot.meters)
    simulate_refused(tmp_path, GAME.replace('"1/20000"', '"1/5000000000"'), "mystery")


@pytest.mark.parametrize("change, where", [
    (('probability = "1/50"', 'probability = "1"'), "mystery, level 1.probability"),
    (('probability = "1/50"', 'probability = 0.02'), "mystery, level 1.probability"),
    (('probability = "1/50"', 'probability = "19999/20000"'), "mystery"),
    (('contribution = "0.01"', 'contribution = "0.999"'), "mystery"),
    (('name = "GRAND"', 'name = "MINI"'), "mystery, level 2.name"),
    (("reset = 1000", "reset = -1"), "mystery, level 2.reset"),
    (("reset = 1000", "reset = 1000\nodds = 3"), "mystery, level 2"),
    (('name = "MINI"\n', ''), "mystery, level 1"),
])
def test_bad_mystery_exit_2(tmp_path, change, where):
    assert change[0] in GAME
    refused(tmp_path, GAME.replace(*change, 1), where)


def test_mystery_not_an_array_exit_2(tmp_path):
    refused(tmp_path, TWO_BY_TWO.replace("[reels]", "mystery = 3\n[reels]"), "mystery")
