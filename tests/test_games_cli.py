"""``rngcert game``: CliRunner tests of the table, the JSON schema and bad input."""
import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games.registry import GAMES
from tests.games_support import FULL_DECK_STUDIES, reduced_decks

SEED = "0f" * 32


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


# Bets each game must offer (the issues that specified them); every registered
# game is checked, whether it is listed here or not.
ISSUE_NAMES = {
    "baccarat": ["banker", "player", "tie", "player_pair", "banker_pair", "banker_no_commission", "super_six",
                 "tiger", "big_tiger", "small_tiger", "tiger_tie", "tiger_pair", "dragon_bonus_player",
                 "dragon_bonus_banker"],
    "roulette-single": ["straight", "split", "street", "corner", "first_four", "six_line", "column", "dozen",
                        "red", "black", "odd", "even", "low", "high"],
    "roulette-double": ["straight", "split", "street", "corner", "five_number", "six_line", "column", "dozen",
                        "red", "black", "odd", "even", "low", "high"],
    "big-six": ["one", "two", "five", "ten", "twenty", "joker", "flag"],
    "money-wheel": [f"symbol_{i}" for i in range(1, 8)],
    "sic-bo": ["small", "big", "odd", "even"] + [f"single_{i}" for i in range(1, 7)]
              + [f"total_{t}" for t in range(4, 18)] + [f"double_{i}" for i in range(1, 7)]
              + ["combination_1_2", "combination_5_6", "any_triple"] + [f"triple_{i}" for i in range(1, 7)]
              + ["four_number_1_2_3_4"],
    "craps": ["pass", "dont_pass", "come", "dont_come"] + [f"place_{n}" for n in (4, 5, 6, 8, 9, 10)]
             + [f"place_lose_{n}" for n in (4, 5, 6, 8, 9, 10)] + ["hard_4", "hard_6", "hard_8", "hard_10", "field",
             "any_seven", "any_craps", "two", "three", "eleven", "twelve", "hop_1_3", "horn", "horn_high_12",
             "whirl", "c_and_e", "six_seven_eight", "fire_bet_a", "fire_bet_b", "pass_odds_4", "dont_pass_odds_10"],
    "casino-war": ["main", "tie", "additional", "main_first_round", "tie_first_round"],
    "pai-gow": ["bet"],
}


def test_issue_games_are_registered():
    assert set(ISSUE_NAMES) <= set(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_json_schema_and_bet_names(game, monkeypatch):
    # What every report holds, checked for every game; the full-deck enumerations (minutes) on a reduced
    # deck here, and on the full deck by the slow test below.
    reduced_decks(monkeypatch)
    _check_json_schema_and_bet_names(game)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(FULL_DECK_STUDIES))
def test_json_schema_and_bet_names_on_the_full_deck(game):
    _check_json_schema_and_bet_names(game)


def test_a_reduced_deck_lasts_only_for_the_test():
    from harness.games import caribbean_stud, holdem_bonus

    modules = {"caribbean-stud": caribbean_stud, "texas-holdem-bonus": holdem_bonus}
    assert set(modules) == set(FULL_DECK_STUDIES)
    with pytest.MonkeyPatch.context() as patch:
        reduced_decks(patch)
        small = {name: GAMES[name].analyse() for name in modules}
        assert small["texas-holdem-bonus"].parameters["deals"] < 10**9  # (the full deck: 10^15 and more)
    for name, module in modules.items():
        assert type(GAMES[name]).analysis is module.analyse
        assert small[name] not in GAMES[name].__dict__.get("_analyses", {}).values()


def _check_json_schema_and_bet_names(game):
    result = run(game, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == game and report["variant"]
    names = [b["name"] for b in report["bets"]]
    assert len(names) == len(set(names))
    assert set(ISSUE_NAMES.get(game, ())) <= set(names)
    for bet in report["bets"]:
        rtp = F(bet["rtp"])
        assert abs(float(rtp) - bet["rtp_float"]) < 1e-12
        assert abs(bet["house_edge_float"] - (1 - bet["rtp_float"])) < 1e-12
        assert sum(F(o["probability"]) for o in bet["outcomes"].values()) == 1
        assert 1 + sum(F(o["probability"]) * F(o["net"]) for o in bet["outcomes"].values()) == rtp


def test_table_output():
    result = run("baccarat", "--decks", "6")
    assert result.exit_code == 0, result.output
    assert "decks 6" in result.output and "banker" in result.output and "1.0558%" in result.output
    result = run("money-wheel", "--variant", "alternative")
    assert result.exit_code == 0 and "92.3077" not in result.output  # RTP column, not edge
    assert "0.923077" in result.output


def test_bad_options_exit_2_with_choices():
    result = run("poker")
    assert result.exit_code == 2 and "baccarat" in result.output and "craps" in result.output
    result = run("money-wheel", "--variant", "generous")
    assert result.exit_code == 2 and "standard, alternative" in result.output
    result = run("baccarat", "--decks", "13")
    assert result.exit_code == 2 and "1<=x<=12" in result.output
    result = run("craps", "--decks", "2")
    assert result.exit_code == 2 and "--decks applies to baccarat" in result.output and "not craps" in result.output
    result = run("craps", "--seed", SEED)
    assert result.exit_code == 2 and "--simulate" in result.output
    result = run("craps", "--simulate", "10", "--seed", "abc")
    assert result.exit_code == 2 and "64 hex digits" in result.output
    result = run("craps", "--simulate", "0")
    assert result.exit_code == 2
    result = run("baccarat", "--decks", "2", "--simulate", "10")  # jp-baccarat deals 4..8 decks
    assert result.exit_code == 2 and "4..8 decks" in result.output and "Traceback" not in result.output


def test_simulation_json_is_reproducible():
    args = ("roulette-single", "--simulate", "200000", "--seed", SEED, "--json")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.stderr == ""  # progress is shown only on a terminal
    a = json.loads(first.stdout)["simulation"]
    assert a == {**json.loads(second.stdout)["simulation"], "seconds": a["seconds"],
                 "rounds_per_second": a["rounds_per_second"]}
    assert a["rounds"] == 200000 and a["verdict"] == "pass"
    assert a["outcome_chisquare"]["df"] == 36
    straight = next(b for b in a["bets"] if b["name"] == "straight")
    assert straight["decisions"] == 200000 and straight["exact_rtp"] == "36/37"


def test_simulation_table_baccarat():
    result = run("baccarat", "--variant", "etable", "--decks", "8", "--simulate", "100000", "--seed", SEED)
    assert result.exit_code == 0, result.output
    assert "simulation agrees" in result.output and "100,000 rounds" in result.output
