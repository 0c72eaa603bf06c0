"""Hold and spin ([hold_and_spin]): the absorbing Markov chain against a brute force
over every respin outcome, and a whole game against a brute force over every stop.

The reference below never forms the chain's states: it follows the positions
themselves, respin by respin, through every subset of empty positions that
can land coins, with its exact probability.
"""
from __future__ import annotations

import itertools
import pathlib
from fractions import Fraction
from functools import lru_cache

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot import hold_spin as hs
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import check
from slot_support import (HOLD_TWO_BY_TWO, TWO_BY_TWO, award, brute_stage, model, numpy_player_agrees, refused,
                          round_play_simulates)

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def reference(positions: int, n0: int, respins: int, q: Fraction, values: dict, grand: int):
    """(distribution of the final count, E[W], E[W^2], P(full)) by following the positions."""
    total = sum(values.values())
    value_dist = {v: Fraction(w, total) for v, w in values.items() if w}

    @lru_cache(maxsize=None)
    def ends(locked: frozenset, left: int) -> tuple:
        if len(locked) == positions or left == 0:
            return ((len(locked), Fraction(1)),)
        empty = [i for i in range(positions) if i not in locked]
        out: dict[int, Fraction] = {}
        for size in range(len(empty) + 1):
            for landed in itertools.combinations(empty, size):
                p = q**size * (1 - q) ** (len(empty) - size)
                nxt = ends(locked | frozenset(landed), respins if landed else left - 1)
                for n, pn in nxt:
                    out[n] = out.get(n, 0) + p * pn
        return tuple(sorted(out.items()))

    final = dict(ends(frozenset(range(n0)), respins))
    mean = second = Fraction(0)
    for n, p in final.items():  # the coin values: every assignment of values to the n coins
        for vs in itertools.product(value_dist, repeat=n):
            pv = p
            for v in vs:
                pv *= value_dist[v]
            w = sum(vs) + (grand if n == positions else 0)
            mean += pv * w
            second += pv * w * w
    return final, mean, second, final.get(positions, Fraction(0))


@pytest.mark.parametrize("positions, n0, respins, q", [
    (4, 2, 3, Fraction(1, 5)), (4, 1, 1, Fraction(1, 2)), (5, 3, 2, Fraction(2, 7)), (3, 3, 3, Fraction(1, 9)),
])
def test_chain_equals_following_the_positions(positions, n0, respins, q):
    values, grand = {1: 3, 2: 2, 5: 1}, 40
    got = hs.solve(positions, n0, respins, q, values, grand)
    final, mean, second, full = reference(positions, n0, respins, q, values, grand)
    assert got.final == final and sum(final.values()) == 1
    assert (got.mean, got.second, got.full) == (mean, second, full)


GAME = HOLD_TWO_BY_TWO


def test_game_equals_brute_force():
    m = model(GAME)
    a = analyse(m)
    brute = brute_stage(m, m.base_strips, with_progressive=False)
    values = dict(m.hold_and_spin.values)
    features = {n0: reference(4, n0, 2, Fraction(1, 4), values, 50) for n0 in range(2, 5)}
    n, tb = brute.cycle, m.total_bet
    s1 = s2 = Fraction(0)
    hits = started = full = 0
    for total, k, _, _ in brute.records:  # k: coins in the window
        b = m.bet_per_line * total
        f1, f2 = (tb * features[k][1], tb * tb * features[k][2]) if k >= 2 else (0, 0)
        s1 += b + f1
        s2 += b * b + 2 * b * f1 + f2
        hits += b > 0 or k >= 2
        started += k >= 2
        full += features[k][3] if k >= 2 else 0
    mean = s1 / n
    assert a.rtp == mean / tb and a.parts["feature"] == (s1 - sum(m.bet_per_line * r[0] for r in brute.records)) / n / tb
    assert a.variance == s2 / n - mean * mean
    assert a.hit_frequency == Fraction(hits, n)
    by_name = {c.name: c for c in a.classes}
    assert by_name["hold and spin 2+ x C"].probability == Fraction(started, n)
    assert by_name["hold and spin grand (4 x C)"].probability == full / n
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability)


def test_example_with_15_positions():
    m = load_model(EXAMPLES / "slot_hold_and_spin.toml")
    assert m.rows * m.reels == 15 and m.hold_and_spin is not None
    a = analyse(m)
    names = [c.name for c in a.classes]
    assert "hold and spin grand (15 x COIN)" in names
    assert all(c.passed for c in check(a, "jp"))


def test_numpy_player_inside_the_exact_intervals():
    numpy_player_agrees(load_model(EXAMPLES / "slot_hold_and_spin.toml"), 200_000)


def test_simulate_plays_hold_and_spin_through_a_rounds_play(tmp_path):
    assert round_play_simulates(tmp_path, GAME, 3000)["features"] > 0


@pytest.mark.parametrize("change, where", [
    (('land = "1/4"', 'land = "0"'), "hold_and_spin.land"),
    (('land = "1/4"', 'land = 0.25'), "hold_and_spin.land"),
    (("values = { 1 = 5, 3 = 2, 10 = 1 }", "values = { 1 = 0 }"), "hold_and_spin.values"),
    (('symbol = "C"', 'symbol = "A"'), "hold_and_spin.symbol"),
    (("trigger = 2", "trigger = 5"), "hold_and_spin.trigger"),
])
def test_bad_hold_and_spin_exit_2(tmp_path, change, where):
    refused(tmp_path, GAME.replace(*change), where)


def test_numpy_player_adds_hold_and_spin_to_the_free_spins_of_one_play():
    """A play that starts free spins and hold and spin wins both: C (two or more) starts both, and the
    exact RTP is the hold-and-spin game's plus the free spins' part of the free-spins game (independent
    given the window).  A player that let the hold-and-spin win replace the free spins' lost 2.2 bets a
    play."""
    hold = model(GAME)
    free = model(TWO_BY_TWO + "[free_spins]\nspins = { 2 = 2 }\nmultiplier = 5\n")
    both = model(GAME + "[free_spins]\nspins = { 2 = 2 }\nmultiplier = 5\n")
    exact = analyse(both)
    assert exact.rtp == analyse(hold).rtp + analyse(free).parts["feature"]
    numpy_player_agrees(both, 200_000)
