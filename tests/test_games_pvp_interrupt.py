"""Ctrl-C in a player-versus-player poker simulation (harness/games/_pvp_game.py, poker_tournament.py)
behaves as in every other game: exit 130, INCOMPLETE, and the part done is kept whole, so that every
tally of the report holds exactly the rounds it says were played."""
from __future__ import annotations

import json
import re
import signal

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games import poker_hands as ph

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@pytest.fixture
def ctrl_c_while_boards_are_ranked(monkeypatch):
    """``arm(k)``: Ctrl-C arrives the k-th time dealt boards (rows of five cards) are ranked: after the
    rounds they come from were counted, before the boards' own tally is.  Returns the calls seen."""
    original = ph.rank
    calls = []

    def arm(k: int = 1) -> list:
        def rank(hands, kind="best5"):
            shape = np.shape(hands)
            if len(shape) == 2 and shape[1] == 5:
                calls.append(shape[0])
                if len(calls) == k:
                    signal.raise_signal(signal.SIGINT)
            return original(hands, kind)

        monkeypatch.setattr(ph, "rank", rank)
        return calls

    return arm


def _interrupted(*args) -> dict:
    result = CliRunner().invoke(main, ["game", *args, "--seed", SEED, "--json"])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    report = json.loads(result.stdout)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    return report


def _boards(simulation: dict) -> int:
    return sum(simulation["outcome_chisquare"]["cell_table"]["observed"])


@pytest.mark.parametrize("game", ["texas-holdem", "omaha"])
def test_an_interrupted_table_keeps_its_chunk_whole(ctrl_c_while_boards_are_ranked, game):
    calls = ctrl_c_while_boards_are_ranked(1)
    sim = _interrupted(game, "--simulate", "100000")["simulation"]
    assert calls, "the interrupt was never sent"
    assert sim["interrupted"] and 0 < sim["rounds"] < 100000
    assert _boards(sim) == sim["rounds"]  # one board per round played, none lost to the interrupt


def test_an_interrupted_tournament_keeps_its_tournament_whole(ctrl_c_while_boards_are_ranked):
    calls = ctrl_c_while_boards_are_ranked(20)  # late enough for boards enough to test
    report = _interrupted("poker-tournament", "--entrants", "4", "--simulate", "50")
    sim = report["simulation"]
    assert len(calls) >= 20, "the interrupt was never sent"
    played = sim["rounds"]
    assert sim["interrupted"] and 0 < played < 50
    games, tournaments = (int(x.replace(",", "")) for x in re.search(r"([\d,]+) games in ([\d,]+) tournaments",
                                                                      sim["note"]).groups())
    pooled = int(re.search(r"of ([\d,]+) pooled", sim["note"])[1].replace(",", ""))
    assert tournaments == played and pooled == played * report["parameters"]["pooled"]
    assert _boards(sim) == games  # every game of every tournament counted, and only those
