"""Cascades with scatters and free spins played as rounds (harness/slot/spin.py, docs/slot_model.md,
"Cascades with scatters and free spins").

One spin of the round's play, paid or free, over every stop and every refill draw, has exactly the
distribution the brute force of tests/test_slot_cascade_features.py gives (the one the exact analysis
is held to); whole plays are held draw for draw to the rules written out here (tests/test_slot_cascade's
window evaluation); a round journals the refills, replays to them and is finished by 5-1 at restart.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

import rngcore
from harness.rounds import Bet
from harness.rounds import recall as rc
from harness.rounds.journal import Journal
from harness.rounds.table import rules_for
from harness.slot.draws import bounded
from harness.slot.spin import Player

from tests.rounds_support import SEED, step
from tests.slot_support import award, model
from tests.test_slot_cascade import _evaluate
from tests.test_slot_cascade_features import GAME, NO_FREE_SPINS, _spin, _with_heights

RETRIGGERS = GAME.replace("retrigger = false", "retrigger = { 2 = 1 }")


class _EveryPath:
    """A draw source that, run again and again, makes every sequence of draws a spin can make, each once
    (an odometer over the draws, the last one turning fastest)."""

    def __init__(self):
        self.prefix: list[tuple[int, int]] = []
        self.path: list[tuple[int, int]] = []

    def one(self, bound: int) -> int:
        n = len(self.path)
        value = self.prefix[n][0] if n < len(self.prefix) else 0
        assert n >= len(self.prefix) or self.prefix[n][1] == bound  # the same path asks the same bounds
        self.path.append((value, bound))
        return value

    def many(self, bound: int, k: int):
        return tuple(self.one(bound) for _ in range(k))

    def runs(self, run):
        """``(run(self), probability of its draws)`` for every path."""
        while True:
            self.path = []
            got = run(self)
            p = Fraction(1)
            for _, bound in self.path:
                p /= bound
            yield got, p
            while self.path and self.path[-1][0] + 1 == self.path[-1][1]:
                self.path.pop()
            if not self.path:
                return
            value, bound = self.path.pop()
            self.prefix = self.path + [(value + 1, bound)]


def _spin_distribution(stage) -> dict:
    """{(credits won, spins awarded): probability} of one spin of a Player stage over every draw."""
    def run(source):
        stops, heights = [], []
        for r, bound in enumerate(stage.bounds.tolist()):  # reel by reel: its height (if drawn), its stop
            if stage.heights is not None:
                heights.append(source.one(sum(stage.heights[r][1])))
            stops.append(source.one(bound))
        spin = stage.evaluate(tuple(stops), stage.columns(stops, heights), source)
        return spin.win, spin.spins_awarded

    out: dict = {}
    for key, p in _EveryPath().runs(run):
        out[key] = out.get(key, Fraction(0)) + p
    return out


def _brute(m, strips, times, table) -> dict:
    out: dict = {}
    for (credits, _, spins), p in _spin(m, strips, times, table).items():
        out[(credits, spins)] = out.get((credits, spins), Fraction(0)) + p
    return out


@pytest.mark.parametrize("text", [GAME, RETRIGGERS, NO_FREE_SPINS, _with_heights(NO_FREE_SPINS)])
def test_one_spin_is_distributed_as_the_brute_force_says(text):
    """The paid spin's and a free spin's whole cascade sequence, its last window's scatters paid and
    awarding spins: every stop (every reel height too) and every refill draw, exactly."""
    m = model(text)
    player = Player(m)
    awards = m.free_spins.spins if m.free_spins else {}
    assert _spin_distribution(player.base) == _brute(m, m.base_strips, 1, awards)
    if m.free_spins is not None:
        retrigger = m.free_spins.retrigger or {}
        assert _spin_distribution(player.free) == _brute(m, m.feature_strips, m.free_spins.multiplier, retrigger)


def _reference_play(m, generator) -> tuple[int, list[list[int]], list[int]]:
    """(award, every spin's stops, the refill draws) of one play, by the rules of docs/slot_model.md
    drawn one bounded draw at a time: the paid spin's stops reel by reel, its cascade's refills (after
    each paying window, reel by reel, one per removed cell, the first drawn on top), then each free
    spin owed, the same way from the feature strips, its ladder from the first rung."""
    draw = lambda bound: bounded(generator, [bound], "a reference draw")[0]  # noqa: E731
    s = m.symbol_index("S")
    pays, ladder, fsp = m.symbols[s].pays, m.cascade.ladder, m.free_spins
    all_stops, refills = [], []

    def spin(strips, times, table):
        stops = [draw(len(strip)) for strip in strips]
        all_stops.append(stops)
        window = [[strip[(p + i) % len(strip)] for i in range(m.rows)] for strip, p in zip(strips, stops)]
        credits, k = 0, 0
        while True:
            pay, _, cells = _evaluate(m, window)
            if not pay:
                break
            credits += pay * ladder[min(k, len(ladder) - 1)]
            k += 1
            for r, column in enumerate(window):
                strip = m.cascade.refill[r]
                new = []
                for _ in [row for row in range(len(column)) if (r, row) in cells]:
                    refills.append(draw(len(strip)))
                    new.append(strip[refills[-1]])
                window[r] = new + [x for row, x in enumerate(column) if (r, row) not in cells]
        n = sum(column.count(s) for column in window)  # the last window's scatters
        return times * (credits + award(pays, n) * m.total_bet), award(table, n)

    total, owed = spin(m.base_strips, 1, fsp.spins)
    while owed:
        win, more = spin(m.feature_strips, fsp.multiplier, fsp.retrigger or {})
        total, owed = total + win, owed - 1 + more
    return total, all_stops, refills


@pytest.mark.parametrize("text", [GAME, RETRIGGERS])
def test_a_play_draws_and_pays_as_the_rules_say(text):
    m = model(text)
    player = Player(m)
    ours, theirs = rngcore.Generator(SEED, stream=11), rngcore.Generator(SEED, stream=11)
    free = 0
    for _ in range(3000):
        play = player.spin(ours)
        award_, stops, refills = _reference_play(m, theirs)
        assert (play.award, play.stops, list(play.refills)) == (award_, stops, refills)
        assert ours.provenance().position == theirs.provenance().position  # draw for draw
        free += len(stops) > 1
    assert free > 50


def test_a_cascade_free_spins_round_is_journaled_replayed_and_recovered(tmp_path):
    path = tmp_path / "tumble.toml"
    path.write_text(RETRIGGERS)
    game = f"slot:{path}"
    stake = rules_for(game).bets["spin"].stake
    with Journal(tmp_path / "t.sqlite", batch="round") as j:
        g = rngcore.Generator(SEED, stream=3)
        for _ in range(60):
            step(j, game, [Bet("ann", "spin", stake)], g)
        stopped = step(j, game, [Bet("ann", "spin", stake)], g, finish=False)  # stopped at its point
        rounds = j.events()
        records = [next(e for e in evs if e["kind"] == "outcome")["record"] for evs in rounds.values()]
        assert any(len(rec["stops"]) > 1 and rec["refills"] for rec in records)
        assert all(rc.replay(j, n, SEED).equal for n in rounds)
        assert rc.recover(j) == [(stopped.round_id, "OUTCOME_DETERMINED", "DONE")]
        settled = [e for e in j.events()[stopped.round_id] if e["kind"] == "settlement"]
        played = Player(model(RETRIGGERS)).evaluate(records[-1]["stops"], refills=records[-1]["refills"])
        assert [e["returned"] + e["paid"] for e in settled] == [played.award]
