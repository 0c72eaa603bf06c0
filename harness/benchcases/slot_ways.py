"""Bench cases of large ways games (issue 19, "Large ways games" in docs/slot_model.md):

* ``slot-exact-megaways-117649``: the exact analysis of ``examples/slot_megaways.toml``
  (6 reels of 100 stops, heights 2 to 7 drawn per spin, up to 117,649 ways, wild,
  scatter pays), the ways summed over the reels (:mod:`harness.slot.ways`); it
  checks the pinned exact RTP and rarest outcome.  Throughput is in stop and
  height combinations of the cycle (2.99e18 per analysis, none listed).  No
  baseline can enumerate it; the next group gives the ratio.
* ``slot-ways-dp-vs-windows``: the same programme against the window-by-window
  reading (:func:`harness.slot.heights.solve_by_windows`, every height
  combination and distinct window visited once) on a 4-reel game small enough
  for both (heights 2 or 3, 8-stop strips: 61,440 distinct windows); both must give
  the same figures.
* ``slot-exact-megaways-both-ways``: the exact analysis of
  ``examples/slot_megaways_both_ways.toml`` (the same reels paid from both ends;
  whether a spin pays anything followed per symbol as truth tables,
  :mod:`harness.slot.ways_both`) against the one-way example's as the baseline,
  in the same run: what reading both ways costs.
* ``slot-exact-megaways-free-spins``: the exact analysis of
  ``examples/slot_megaways_free_spins.toml`` (the same reels with free spins that
  retrigger: a second stage, one free spin, built from every height's columns,
  :func:`harness.slot.height_reels.reelset`) against the one-way example's, same run.
* ``slot-sim-megaways-free-spins``: ``--simulate`` of that example in the C kernel
  (every spin, each free spin too, draws each reel's height then its stop) against
  a round's play in Python (:mod:`harness.slot.play_player`, the same draws), same
  run; both must hold the exact RTP and hit frequency in their 99.9% intervals.
"""
from __future__ import annotations

import functools
from fractions import Fraction

from harness.benchcases._base import BenchCase, shipped_or_skip

EXAMPLE = "examples/slot_megaways.toml"  # shipped; found by shipped_or_skip at set-up
EXAMPLE_RTP = Fraction(3860657384912181, 4096000000000000)  # pinned; tests/test_slot_megaways.py derives it
EXAMPLE_CYCLE = 100 ** 6 * 12 ** 6
BOTH_WAYS = "examples/slot_megaways_both_ways.toml"  # shipped; found by shipped_or_skip at set-up
BOTH_WAYS_RTP = Fraction(1937181592419057, 2048000000000000)  # pinned; tests/test_slot_ways_both.py checks it
FREE_SPINS = "examples/slot_megaways_free_spins.toml"  # shipped; found by shipped_or_skip at set-up
FREE_SPINS_RTP = Fraction(278551035023966809640019, 305065280307200000000000)  # tests/test_slot_ways_free.py checks it

SIM_SPINS = 500_000  # the C kernel's run
PLAY_SPINS = 5_000  # a round's play: thousands a second
SEED = bytes(range(32))

SMALL = """
name = "ways programme bench"
[window]
rows = 3
reels = 4
heights = [{ 2 = 1, 3 = 2 }, { 2 = 1, 3 = 2 }, { 2 = 1, 3 = 2 }, { 2 = 1, 3 = 2 }]
[bet]
ways = 81
per_way = 1
total = 40
[symbols]
LION = { pays = { 3 = 20, 4 = 50 } }
WOLF = { pays = { 3 = 10, 4 = 25 } }
A = { pays = { 3 = 4, 4 = 10 } }
K = { pays = { 3 = 2, 4 = 5 } }
WILD = { kind = "wild", multiplier = 2 }
SCATTER = { kind = "scatter", pays = { 3 = 2, 4 = 10 } }
[reels]
base = [
  "LION A K WOLF K A SCATTER K",
  "A WILD K LION K A WOLF SCATTER",
  "K A WOLF WILD A K LION SCATTER",
  "WOLF K A SCATTER LION K A WILD",
]
"""
SMALL_WINDOWS = 61_440  # distinct windows (a few columns repeat)


@functools.cache
def _small():
    from harness.slot.model import parse_model

    return parse_model(SMALL, source="harness/benchcases/slot_ways.py")


def _setup_example(path=EXAMPLE):
    from harness.slot.exact import analyse
    from harness.slot.model import load_model

    model = load_model(shipped_or_skip(path))
    return lambda: analyse(model)


def _check_example(a) -> None:
    assert a.rtp == EXAMPLE_RTP, a.rtp
    assert a.cycle == EXAMPLE_CYCLE and a.rarest.name == "scatter 6+ x SCATTER"


@functools.cache
def _free_spins_analysis():
    from harness.slot.exact import analyse
    from harness.slot.model import load_model

    return analyse(load_model(shipped_or_skip(FREE_SPINS)))


def _setup_sim(spins: int, player: str):
    import rngcore

    from harness.slot import play_player, simulate

    model = _free_spins_analysis().model  # analysed outside the timed call
    if player == "kernel":
        return lambda: simulate.simulate(model, spins, rngcore.Generator(SEED, 1))
    return lambda: play_player.simulate_plays(model, spins, rngcore.Generator(SEED, 1),
                                              simulate.SimulationResult(total_bet=model.total_bet))


def _check_sim(spins: int):
    def check(result) -> None:
        assert result.plays == spins and result.free_spins > 0 and not result.interrupted, result.plays
        assert result.agrees(_free_spins_analysis()) == (True, True), result.rtp_interval()

    return check


def _check_both_ways(a) -> None:
    assert a.rtp == BOTH_WAYS_RTP and a.model.both_ways, a.rtp
    assert a.cycle == EXAMPLE_CYCLE and a.rarest.name == "scatter 6+ x SCATTER"


def _check_free_spins(a) -> None:
    assert a.rtp == FREE_SPINS_RTP and a.parts["feature"] > 0, a.rtp
    assert a.cycle == EXAMPLE_CYCLE and a.rarest.name == "scatter 6+ x SCATTER"


def _setup_small(by_windows: bool):
    from harness.slot import heights

    model = _small()
    return functools.partial(heights.solve_by_windows if by_windows else heights.solve, model)


@functools.cache
def _small_by_windows():
    from harness.slot import heights

    return heights.solve_by_windows(_small())


def _check_small(f) -> None:
    assert f.windows == SMALL_WINDOWS, f.windows
    assert f == _small_by_windows(), "the programme and the window-by-window reading disagree"


CASES = [
    BenchCase("slot-exact-megaways-117649", "rngcert-ways-programme", _setup_example, EXAMPLE_CYCLE,
              "combinations", check=_check_example),
    BenchCase("slot-ways-dp-vs-windows", "rngcert-ways-programme", functools.partial(_setup_small, False),
              SMALL_WINDOWS, "windows", target=">= 10x window-by-window", check=_check_small),
    BenchCase("slot-ways-dp-vs-windows", "window-by-window", functools.partial(_setup_small, True),
              SMALL_WINDOWS, "windows", baseline=True, check=_check_small),
    BenchCase("slot-exact-megaways-both-ways", "rngcert-ways-both-ways", functools.partial(_setup_example, BOTH_WAYS),
              EXAMPLE_CYCLE, "combinations", check=_check_both_ways),
    BenchCase("slot-exact-megaways-both-ways", "one-way", _setup_example, EXAMPLE_CYCLE, "combinations",
              baseline=True, check=_check_example),
    BenchCase("slot-exact-megaways-free-spins", "rngcert-heights-free-spins",
              functools.partial(_setup_example, FREE_SPINS), EXAMPLE_CYCLE, "combinations", check=_check_free_spins),
    BenchCase("slot-exact-megaways-free-spins", "no-free-spins", _setup_example, EXAMPLE_CYCLE, "combinations",
              baseline=True, check=_check_example),
    BenchCase("slot-sim-megaways-free-spins", "rngcert-c-kernel", functools.partial(_setup_sim, SIM_SPINS, "kernel"),
              SIM_SPINS, "plays", target=">= 100x round-play", check=_check_sim(SIM_SPINS)),
    BenchCase("slot-sim-megaways-free-spins", "round-play", functools.partial(_setup_sim, PLAY_SPINS, "play"),
              PLAY_SPINS, "plays", baseline=True, check=_check_sim(PLAY_SPINS)),
]
