"""``--simulate`` of the features beyond lines, scatters and free spins: each player's plays of
fixed draws against a straightforward evaluation written here, and each example's simulated
figures inside their 99.9% intervals around the exact ones."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest

import slot_support as sup
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.simulate import simulate, simulate_numpy

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
