"""A round's play (harness.slot.spin) of the features read window by window, sticky wilds and hold and spin.

The play draws with the bounded draw of the C kernel, reel by reel, one play at a time; the window
player (harness/slot/window_player.py) drawing one play per chunk from ``rngcore``'s ``integers``
takes the same values, so from one stream the two must give the same totals, and the C kernel must
give the round plays' totals for sticky wilds (its one-wild, no-retrigger sessions).  The window
player and the kernel are themselves held to straightforward replays in
test_slot_simulate_features.py.  Sessions the kernel does not play (two sticky wilds with
retriggers) and hold and spin are held to the exact analysis where ``--simulate`` plays them through a
round's play (test_slot_sticky.py, test_slot_hold_spin.py), and hold and spin's rule to a reference
written here on fixed draws.
"""
from __future__ import annotations

import pathlib

import pytest

import slot_support as sup
from harness.slot import hold_spin
from harness.slot.draws import RecordedDraws
from harness.slot.model import load_model
from harness.slot.simulate import WINDOW_PLAYER, _empty, describe, simulate
from harness.slot.spin import Player
from harness.slot.window_player import simulate_windows

rngcore = pytest.importorskip("rngcore")

SEED = bytes(range(32))
EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def _plays(m, n: int, stream: int):
    player, g = Player(m), rngcore.Generator(SEED, stream)
    return [player.spin(g) for _ in range(n)]


def _totals(plays):
    """(plays, hits, credits paid, sum of squares): a hit wins or starts a feature, as the players count."""
    wins = [p.award for p in plays]
    hits = sum(1 for p in plays if p.award or len(p.spins) > 1 or p.hold or p.bonus)
    return len(wins), hits, sum(wins), sum(w * w for w in wins)


def _replays(m, plays):
    """Every play re-derived from its record alone (what a journal keeps)."""
    player = Player(m)
    for p in plays:
        assert player.evaluate(p.stops, p.bonus, heights=p.heights, hold=p.hold, refills=p.refills) == p


def _window_models():
    from test_slot_both_ways import LINES, WAYS
    from test_slot_cascade import LINES as CASCADE
    from test_slot_heights import GAME

    weighted = GAME.replace("[reels]\n", "[reels]\nbase_weights = [[2, 1, 0, 3], [1, 1, 1, 1, 4], [1, 2, 1]]\n")
    return {"both-ways lines": sup.model(LINES), "both-ways ways": sup.model(WAYS),
            "reel heights, weighted stops": sup.model(weighted), "cascade lines": sup.model(CASCADE),
            "cascade example": load_model(EXAMPLES / "slot_cascade.toml"),
            "cascade with reel heights": load_model(EXAMPLES / "slot_cascade_megaways.toml")}


@pytest.mark.parametrize("name", ["both-ways lines", "both-ways ways", "reel heights, weighted stops",
                                  "cascade lines", "cascade example", "cascade with reel heights"])
def test_a_round_plays_window_games_as_the_window_player_does(name):
    m = _window_models()[name]
    plays = _plays(m, 400, 71)
    g = rngcore.Generator(SEED, 71)
    got = simulate_windows(m, 400, g, _empty(m, WINDOW_PLAYER, describe(g)), chunk=1)
    assert (got.plays, got.hits, got.paid, got.win_sq) == _totals(plays)
    assert got.hits and (m.cascade is None or any(p.refills for p in plays))
    assert (m.heights is not None) == all(len(p.heights) == len(p.spins) and all(len(h) == m.reels for h in p.heights)
                                          for p in plays)
    _replays(m, plays[:150])


def _sticky(name: str):
    from test_slot_sticky import LINES, RETRIGGERS, WAYS

    return sup.model({"ways": WAYS, "lines": LINES, "two wilds, retriggers": RETRIGGERS}[name])


@pytest.mark.parametrize("name", ["ways", "lines"])
def test_a_round_plays_sticky_wilds_as_the_kernel_does(name):
    m = _sticky(name)
    plays = _plays(m, 1000, 73)
    got = simulate(m, 1000, rngcore.Generator(SEED, 73))
    assert (got.plays, got.hits, got.paid, got.win_sq) == _totals(plays)
    assert got.free_spins == sum(len(p.spins) - 1 for p in plays) > got.features > 0
    _replays(m, plays[:150])


def test_two_sticky_wilds_with_retriggers_replay_and_keep_the_session_cap():
    # inside the exact interval: test_slot_sticky.py (--simulate plays them through a round's play)
    m = _sticky("two wilds, retriggers")
    plays = _plays(m, 1000, 75)
    sessions = [len(p.spins) - 1 for p in plays if len(p.spins) > 1]
    assert max(sessions) == m.free_spins.max_spins  # a retrigger awards what is left below the cap
    _replays(m, plays[:150])


def reference_hold(positions, coins, respins, land, values, grand, supply):
    """The hold-and-spin rules on draws ``supply``, written out: a respin draws one number below land's
    denominator per empty position and each under the numerator lands; landing any coin resets the
    counter to ``respins``, landing none uses one up; then one value draw per locked coin."""
    supply = iter(supply)
    locked, left = coins, respins
    while left and locked < positions:
        landed = sum(next(supply) < land.numerator for _ in range(positions - locked))
        locked, left = locked + landed, respins if landed else left - 1
    table = [v for v, w in values.items() for _ in range(w)]
    return sum(table[next(supply)] for _ in range(locked)) + (grand if locked == positions else 0)


def test_hold_and_spin_plays_its_rule_on_fixed_draws():
    m = load_model(EXAMPLES / "slot_hold_and_spin.toml")
    h = m.hold_and_spin
    positions, den, total = m.rows * m.reels, h.land.denominator, sum(h.values.values())
    checked = full = 0
    for seed in range(60):
        # a fixed supply: landings alternate so counters reset, and some runs fill the window
        supply = [0 if seed % 10 == 0 or (i * (seed % 5 + 1)) % (seed % 4 + 2) == 0 else den - 1 - seed % den
                  for i in range(4000)]
        respin_draws = []
        locked, left, it = h.trigger, h.respins, iter(supply)
        while left and locked < positions:
            row = [next(it) for _ in range(positions - locked)]
            respin_draws += row
            landed = sum(d < h.land.numerator for d in row)
            locked, left = locked + landed, h.respins if landed else left - 1
        draws = respin_draws + [(seed + 5 * i) % total for i in range(locked)]
        expect = reference_hold(positions, h.trigger, h.respins, h.land, dict(h.values), h.grand, draws)
        recorded = RecordedDraws(draws, "the feature")
        assert hold_spin.play(h, positions, h.trigger, recorded) == expect
        recorded.check_used()
        checked, full = checked + 1, full + (locked == positions)
    assert checked == 60 and full


def test_hold_and_spin_rounds_replay_from_their_draws():
    # inside the exact interval: test_slot_hold_spin.py (--simulate plays it through a round's play)
    m = load_model(EXAMPLES / "slot_hold_and_spin.toml")
    plays = _plays(m, 1000, 77)
    assert sum(1 for p in plays if p.hold) > 10
    _replays(m, plays[:150])
    held = next(p for p in plays if p.hold)
    with pytest.raises(ValueError, match="hold-and-spin feature made"):
        Player(m).evaluate(held.stops, hold=list(held.hold) + [0])
    with pytest.raises(ValueError, match="hold-and-spin feature owes a draw"):
        Player(m).evaluate(held.stops, hold=list(held.hold)[:-1])


def test_the_meters_read_the_paid_spin_not_the_last_free_spin():
    """A play with free spins hits the combination progressive when its PAID spin shows the run
    (docs/slot_model.md: free spins hit no meter), whatever the last free spin shows."""
    import rngcore

    from harness.slot.spin import Player
    from slot_support import model
    from test_slot_sticky import RETRIGGERS

    m = model(RETRIGGERS.replace("[reels]", '[progressive]\nsymbol = "A"\ncount = 3\ncontribution = "1/100"\n'
                                            'reset = 40\n[reels]'))
    player, generator = Player(m), rngcore.Generator(bytes(range(32)), 3)
    freed = 0
    for _ in range(400):
        play = player.spin(generator)
        freed += len(play.spins) > 1
        assert ("progressive" in play.meters) == all("A" in column for column in play.spins[0].window)
    assert freed > 50
