"""``--simulate`` of the features beyond lines, scatters and free spins: each player's plays of
fixed draws against a straightforward evaluation written here, and each example's simulated
figures inside their 99.9% intervals around the exact ones."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import slot_support as sup
import ways_reference
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.simulate import simulate, simulate_numpy
from test_slot_simulate import ways_credits

rngcore = pytest.importorskip("rngcore")

SEED = bytes(range(32))
EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


# --- jackpot levels (docs/slot_model.md, "Jackpot levels") --------------------------------------


def _jackpot_replay(m, plays: int, generator) -> dict:
    """Plays of a lines-and-scatter model with jackpot levels, by the rules: stops one per reel
    with integers(0, L), reels in order; lines by the reference line rule; the scatter pays for
    the count of J; the level of the highest count reached pays its reset."""
    j = m.symbol_index("J")
    levels = sorted(m.jackpots, key=lambda level: level.count)
    out = dict(plays=0, hits=0, line_win=0, scatter_win=0, jackpot_hits=0, jackpot_win=0, win_sq=0, max_win=0)
    for _ in range(plays):
        cols = []
        for strip in m.base_strips:
            stop = generator.integers(0, len(strip))
            cols.append([strip[(stop + h) % len(strip)] for h in range(m.rows)])
        line_win = m.bet_per_line * sum(sup.reference_line(m, [cols[r][row] for r, row in enumerate(line)])[0]
                                        for line in m.paylines)
        count = sum(col.count(j) for col in cols)
        scatter_win = sup.award(m.symbols[j].pays, count) * m.total_bet
        won = [level for level in levels if count >= level.count]
        reset = won[-1].reset if won else 0
        win = line_win + scatter_win + reset
        out["plays"] += 1
        out["hits"] += bool(line_win or scatter_win or won)
        out["line_win"] += line_win
        out["scatter_win"] += scatter_win
        out["jackpot_hits"] += bool(won)
        out["jackpot_win"] += reset
        out["win_sq"] += win * win
        out["max_win"] = max(out["max_win"], win)
    return out


def test_the_kernel_plays_jackpot_levels_as_the_rules_say():
    from test_slot_jackpot import GAME

    m = sup.model(GAME)
    got = simulate(m, 4000, rngcore.Generator(SEED, 31))
    expect = _jackpot_replay(m, 4000, rngcore.Generator(SEED, 31))
    assert {f: getattr(got, f) for f in expect} == expect
    assert expect["jackpot_hits"] > 100 and expect["jackpot_win"] > expect["jackpot_hits"] * 10  # MAJOR/GRAND won


@pytest.mark.parametrize("player", ["C", "numpy"])
def test_jackpot_levels_example_simulates_inside_its_intervals(player):
    m = load_model(EXAMPLES / "slot_jackpot_levels.toml")
    a = analyse(m)
    if player == "C":
        result = simulate(m, 400_000, rngcore.Generator(SEED, 3))
    else:
        result = simulate_numpy(m, 100_000, np.random.Generator(np.random.PCG64(20261202)))
    assert result.jackpot_hits > 0 and result.agrees(a) == (True, True), (float(a.rtp), result.rtp_interval())


def test_rngcert_slot_simulates_jackpot_levels(tmp_path):
    from click.testing import CliRunner
    from test_slot_jackpot import GAME

    from harness.cli import main

    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "20000", "--seed", SEED.hex()])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    assert "jackpot level hits" in result.output and "exact" in result.output


# --- both-ways pays and reel heights: the window player (harness/slot/window_player.py) ----------


def _window_credits(m, window) -> int:
    """A window's credits straight from the rules: every payline read from the left and, for
    both-ways pays, from the right unless the left reading covers every reel (a ways game, of
    fixed or drawn heights: test_slot_simulate.ways_credits); then each scatter's pay for its
    count anywhere (counted before an expanding wild covers the rows its reel shows)."""
    credits = 0
    shown = []
    for col in window:
        wild = next((x for x in m.expanding if x in col), None)
        shown.append(col if wild is None else [wild] * len(col))
    if m.ways:
        credits = ways_credits(m, shown, with_prog=False)[0] * m.bet_per_line
    for path in () if m.ways else m.paylines:
        seq = [shown[r][row] for r, row in enumerate(path)]
        left = sup.reference_line(m, seq)
        credits += left[0] * m.bet_per_line
        if m.both_ways and not (left[0] and left[1][1] == m.reels):
            credits += sup.reference_line(m, seq[::-1])[0] * m.bet_per_line
    for x in m.scatters:
        credits += sup.award(m.symbols[x].pays, sum(col.count(x) for col in window)) * m.total_bet
    return credits


def _window_replay(m, plays: int, generator) -> tuple[int, int, int, int]:
    """(plays, hits, credits, sum of squares): the draws of the window player's docstring (per
    reel, every play's height then every play's stop), each window paid by ``_window_credits``."""
    columns = []
    for r, strip in enumerate(m.base_strips):
        weights = m.base_weights[r] if m.base_weights else [1] * len(strip)
        virtual = [p for p, w in enumerate(weights) for _ in range(w)]  # virtual stop -> physical
        if m.heights is not None:
            by_draw = [h for h, w in m.heights[r] for _ in range(w)]  # a draw below the total weight -> height
            heights = [by_draw[int(x)] for x in generator.integers(0, len(by_draw), size=plays)]
        else:
            heights = [m.rows] * plays
        stops = [virtual[int(x)] for x in generator.integers(0, len(virtual), size=plays)]
        columns.append([[strip[(p + i) % len(strip)] for i in range(h)] for p, h in zip(stops, heights)])
    wins = [_window_credits(m, list(window)) for window in zip(*columns)]
    return plays, sum(w > 0 for w in wins), sum(wins), sum(w * w for w in wins)


def _feature_models():
    from test_slot_both_ways import LINES, WAYS
    from test_slot_heights import GAME

    weighted = GAME.replace("[reels]\n", "[reels]\nbase_weights = [[2, 1, 0, 3], [1, 1, 1, 1, 4], [1, 2, 1]]\n")
    expanding = weighted.replace('kind = "wild", multiplier = 2', 'kind = "wild", multiplier = 2, expanding = true')
    return {"both-ways lines": LINES, "both-ways ways": WAYS, "reel heights": GAME,
            "reel heights, weighted stops": weighted, "reel heights, expanding wild": expanding}


@pytest.mark.parametrize("name", ["both-ways lines", "both-ways ways", "reel heights", "reel heights, weighted stops",
                                  "reel heights, expanding wild"])
def test_the_window_player_plays_fixed_draws_as_the_rules_say(name):
    """(One-way reel heights are simulated by the C kernel; the window player still plays them, past the
    kernel's size limit.)"""
    from harness.slot.simulate import SimulationResult
    from harness.slot.window_player import simulate_windows

    m = sup.model(_feature_models()[name])
    got = simulate_windows(m, 1500, rngcore.Generator(SEED, 41), SimulationResult(total_bet=m.total_bet))
    assert (got.plays, got.hits, got.paid, got.win_sq) == _window_replay(m, 1500, rngcore.Generator(SEED, 41))
    assert got.hits > 0 and got.line_win > 0


@pytest.mark.parametrize("name", ["both-ways lines", "both-ways ways", "reel heights, weighted stops",
                                  "reel heights, expanding wild"])
def test_window_games_simulate_inside_their_intervals(name):
    m = sup.model(_feature_models()[name])
    result = simulate(m, 20_000, rngcore.Generator(SEED, 43))
    assert result.agrees(analyse(m)) == (True, True), (float(analyse(m).rtp), result.rtp_interval())


@pytest.mark.parametrize("name, engine", [("both-ways lines", "Python window player"), ("reel heights", "C")])
def test_rngcert_slot_simulates_window_games(tmp_path, name, engine):
    from click.testing import CliRunner

    from harness.cli import main

    path = tmp_path / "game.toml"
    path.write_text(_feature_models()[name], encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "5000", "--seed", SEED.hex(), "--json"])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    report = json.loads(result.stdout)
    assert report["simulation"]["plays"] == 5000 and report["simulation"]["engine"] == engine


def _cascade_replay(m, plays: int, generator) -> tuple[int, int, int, int]:
    """(plays, hits, credits, sum of squares) of cascade plays by the rules: the paid spins' stops
    (per reel, every play's), then play by play each paying window's wins removed (the first n cells
    of a line paid n x S; a ways game's paid cells, tests/ways_reference.py), the cells left falling, one refill stop per removed cell drawn on top
    (reel by reel, the first drawn on top), window k paid ladder[min(k, last)] times."""
    strips, refill, ladder = m.base_strips, m.cascade.refill, m.cascade.ladder
    stops = [generator.integers(0, len(s), size=plays) for s in strips]
    wins = []
    for i in range(plays):
        window = [[s[(int(p[i]) + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        credits, k = 0, 0
        while True:
            pay, removed = 0, set()
            if m.ways:  # every way listed by the rule; a paid symbol's cells on its reels 1..k removed
                pay, removed = sum(ways_reference.symbol_pays(m, window).values()), ways_reference.paid_cells(m, window)
            for path in () if m.ways else m.paylines:
                line_pay, combination, _ = sup.reference_line(m, [window[r][row] for r, row in enumerate(path)])
                if line_pay:
                    pay += line_pay
                    removed |= {(r, path[r]) for r in range(combination[1])}
            if not pay:
                break
            credits += pay * m.bet_per_line * ladder[min(k, len(ladder) - 1)]
            k += 1
            for r in range(m.reels):
                gone = sorted(row for reel, row in removed if reel == r)
                new = [refill[r][int(x)] for x in generator.integers(0, len(refill[r]), size=len(gone))] if gone else []
                window[r] = new + [x for row, x in enumerate(window[r]) if row not in gone]
        wins.append(credits)
    return plays, sum(w > 0 for w in wins), sum(wins), sum(w * w for w in wins)


def _cascade_model(name: str):
    from test_slot_cascade import LINES, WAYS

    return load_model(EXAMPLES / "slot_cascade.toml") if name == "example" else sup.model(
        {"lines": LINES, "ways": WAYS}[name])


@pytest.mark.parametrize("name", ["lines", "ways", "example"])
def test_the_window_player_plays_cascades_as_the_rules_say(name):
    m = _cascade_model(name)
    got = simulate(m, 1500, rngcore.Generator(SEED, 47))
    assert (got.plays, got.hits, got.paid, got.win_sq) == _cascade_replay(m, 1500, rngcore.Generator(SEED, 47))
    assert got.hits > 0


@pytest.mark.parametrize("name", ["scatters and free spins", "scatters only"])
def test_cascades_with_scatters_simulate_through_a_rounds_play(tmp_path, name):
    from test_slot_cascade_features import GAME, NO_FREE_SPINS

    report = sup.round_play_simulates(tmp_path, GAME if name == "scatters and free spins" else NO_FREE_SPINS, 6000)
    assert report["features"] > 0 or name == "scatters only"


@pytest.mark.parametrize("name", ["lines", "example"])
def test_cascades_simulate_inside_their_intervals(name):
    m = _cascade_model(name)
    result = simulate(m, 15_000, rngcore.Generator(SEED, 53))
    assert result.agrees(analyse(m)) == (True, True), (float(analyse(m).rtp), result.rtp_interval())


# --- sticky wilds (docs/slot_model.md, "Sticky wilds"): the C kernel ------------------------------


def _sticky_replay(m, plays: int, generator) -> dict:
    """Plays by the rules: stops one per reel with integers(0, L), reels in order; the paid spin's
    lines (ways: test_slot_simulate.ways_credits) and scatter pay; then its free spins, each with the sticky wild laid over every position
    it has landed on in the session so far (a scatter under it not counted), paid x the multiplier."""
    wild = next(i for i, s in enumerate(m.symbols) if s.sticky)
    fsp, out = m.free_spins, dict.fromkeys(("plays", "hits", "line_win", "scatter_win", "feature_win", "features",
                                            "free_spins", "win_sq", "max_win"), 0)

    def window(strips):
        cols = []
        for strip in strips:
            stop = generator.integers(0, len(strip))
            cols.append([strip[(stop + h) % len(strip)] for h in range(m.rows)])
        return cols

    def pay(cols):
        if m.ways:
            lines = ways_credits(m, cols, with_prog=False)[0]
        else:
            lines = sum(sup.reference_line(m, [cols[r][row] for r, row in enumerate(path)])[0] for path in m.paylines)
        scatters = sum(sup.award(m.symbols[x].pays, sum(c.count(x) for c in cols)) for x in m.scatters)
        return lines * m.bet_per_line, scatters * m.total_bet

    for _ in range(plays):
        cols = window(m.base_strips)
        line_win, scatter_win = pay(cols)
        spins = sup.award(fsp.spins, sum(c.count(fsp.scatter) for c in cols))
        feature, stuck = 0, set()
        for _ in range(spins):
            cols = window(m.feature_strips)
            for r, h in stuck:
                cols[r][h] = wild
            feature += fsp.multiplier * sum(pay(cols))
            stuck = {(r, h) for r in range(m.reels) for h in range(m.rows) if cols[r][h] == wild}
        win = line_win + scatter_win + feature
        for key, value in (("plays", 1), ("hits", bool(win or spins)), ("line_win", line_win),
                           ("scatter_win", scatter_win), ("feature_win", feature), ("features", bool(spins)),
                           ("free_spins", spins), ("win_sq", win * win)):
            out[key] += value
        out["max_win"] = max(out["max_win"], win)
    return out


def _sticky_models():
    from test_slot_sticky import LINES, WAYS

    return {"ways": WAYS, "lines": LINES}


@pytest.mark.parametrize("name", ["ways", "lines"])
def test_the_kernel_plays_sticky_wilds_as_the_rules_say(name):
    m = sup.model(_sticky_models()[name])
    got = simulate(m, 3000, rngcore.Generator(SEED, 59))
    expect = _sticky_replay(m, 3000, rngcore.Generator(SEED, 59))
    assert {f: getattr(got, f) for f in expect} == expect
    assert expect["free_spins"] > expect["features"] > 0


@pytest.mark.parametrize("name", ["ways", "lines"])
def test_sticky_wilds_simulate_inside_their_intervals(name):
    m = sup.model(_sticky_models()[name])
    result = simulate(m, 200_000, rngcore.Generator(SEED, 61))
    assert result.agrees(analyse(m)) == (True, True), (float(analyse(m).rtp), result.rtp_interval())
    unstuck = sup.model(_sticky_models()[name].replace("sticky = true", "sticky = false"))
    assert result.feature_win > simulate(unstuck, 200_000, rngcore.Generator(SEED, 61)).feature_win
