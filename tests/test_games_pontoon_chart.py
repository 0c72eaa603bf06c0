"""Pontoon's ``--strategy FILE``: the chart ``--chart csv`` prints, read back as the player's strategy
(harness/games/twentyone_pontoon_chart.py), its exact return, the C table playing it, and the one-line
refusal of a chart Pontoon cannot play."""
from fractions import Fraction
import json

import pytest
import rngcore
from click.testing import CliRunner

from harness.cli import main
from harness.games import twentyone as tw
from harness.games import twentyone_game as tg
from harness.games import twentyone_pontoon_chart as pc
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.kernels import lib

GAME = GAMES["pontoon"]


def run(*args):
    return CliRunner().invoke(main, ["game", "pontoon", *args])


def main_rtp(*args) -> Fraction:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    bet = next(b for b in json.loads(result.stdout)["bets"] if b["name"] == "main")
    return Fraction(bet["rtp"])


def printed(*options) -> str:
    result = run("--chart", "csv", *options)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("options", [(), ("--option", "double-cards=any")])
def test_the_printed_chart_read_back_is_the_basic_strategy_exactly(tmp_path, options):
    path = tmp_path / "basic.csv"
    path.write_text(printed(*options))
    assert main_rtp("--strategy", str(path), *options) == main_rtp(*options)
    # and it prints back as itself
    assert printed("--strategy", str(path), *options) == path.read_text()


def edit(text: str, changes: dict[str, str]) -> str:
    lines = text.splitlines()
    for name, row in changes.items():
        at = [i for i, line in enumerate(lines) if line.split(",")[0] == name]
        assert len(at) == 1, name
        lines[at[0]] = f"{name},{row}"
    return "\n".join(lines) + "\n"


CHANGED = {"hard 15": "S,S,S,S,S,S,S,S,S,S", "hard 13": "H,H,H,H,H,H,H,H,H,H", "doubled 14": "W,W,W,W,W,W,W,W,W,W"}


def test_a_changed_chart_returns_less_and_its_value_is_that_play(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text(edit(printed(), CHANGED))
    mine, basic = main_rtp("--strategy", str(path)), main_rtp()
    assert mine < basic
    # independently: the computed strategy with the same cells changed, valued by the DP directly
    rules = GAME.game_rules()
    strategy = tg.infinite(rules)[1]
    cells = dict(strategy.cells)
    # odd totals: no pair shares their cells (a pair row is played by itself)
    for split in (False, True):       # a split hand plays by its row too
        for up, t15, t13 in zip(tw.CHART_UPCARDS, CHANGED["hard 15"].split(","), CHANGED["hard 13"].split(",")):
            cells[(up, 15, False, 2, None, tw.Context(split))] = t15
            cells[(up, 13, False, 2, None, tw.Context(split))] = t13
            cells[(up, 14, False, 0, None, tw.Context(split, False, True))] = tw.RESCUE
    changed = type(strategy)(cells, strategy.splits)
    hands = tw.first_round(rules, tw.InfiniteShoe(tg.pt.PONTOON_WEIGHTS), changed, distributions=False,
                           evaluator=tg.pt.PontoonEvaluator)
    assert 1 + tw.expected_return(hands) == mine


def test_the_c_table_plays_the_chart(tmp_path):
    """The C round engine's strategy table from the read-back chart is the computed strategy's,
    cell for cell (but the questions a round never puts); with hard 15 changed it differs in those cells only."""
    rules = GAME.game_rules()
    text = printed()
    basic = tt.strategy_cells(rules, tg.infinite(rules)[1])
    asked = basic != lib.KERN_TW_NO_CELL
    for up in tw.VALUES:   # the first hand may always split (max-hands 2..4): never asked without
        for key, _ in tt.hand_keys(True):
            asked[lib.kern_tw_cell(0, up, 0, key)] = False
        asked[lib.kern_tw_cell(4, up, 0, lib.KERN_TW_PAIRS + 3)] = False   # a split hand's doubled A-A-A: split aces
        # take no double, so the computed strategy holds only its default there
    assert asked.sum() > 1000 and (tt.strategy_cells(rules, pc.read_chart(text, "x", rules))[asked] == basic[asked]).all()
    changed = tt.strategy_cells(rules, pc.read_chart(edit(text, {"hard 15": CHANGED["hard 15"]}), "x", rules))
    differ = asked & (changed != basic)
    assert differ.any() and set(changed[differ]) == {tt.ACTION_CODES[tw.STAND]}


def test_simulate_plays_the_players_chart(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text(edit(printed(), CHANGED))
    result = run("--strategy", str(path), "--simulate", "20000", "--seed", bytes(range(32)).hex(), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["strategy"] == "table" and "the player's chart" in json.dumps(report)


@pytest.mark.slow
def test_the_simulated_return_of_the_players_chart_contains_its_exact_return(tmp_path):
    path = tmp_path / "mine.csv"
    path.write_text(edit(printed(), CHANGED))
    sim = GAME.simulate(400_000, rngcore.Generator(bytes(range(32)).hex(), 12), strategy=str(path))
    main_bet = sim.bets[0]
    low, high = main_bet.interval
    assert main_bet.exact.rtp == main_rtp("--strategy", str(path)) < main_rtp()
    assert low <= float(main_bet.exact.rtp) <= high
    assert sim.outcome_fit.impossible == 0 and sim.outcome_fit.pvalue > 1e-9


@pytest.mark.parametrize("name, row, words", [
    ("hard 12", "S,,S,S,S,H,H,H,H,H", ("missing cell", "row 'hard 12' against 3 is empty")),
    ("hard 12", "S,X,S,S,S,H,H,H,H,H", ("unknown code 'X' in row 'hard 12' against 3",)),
    ("hard 12", "S,P,S,S,S,H,H,H,H,H", ("split (P) on 'hard 12' against 3, which is not a pair",)),
    ("hard 16", "R,H,H,H,H,H,H,H,H,R", ("surrender (R) in row 'hard 16' against 2", "only against an A, K, Q or J")),
    ("hard 16 x3", "H,H,H,H,H,H,H,H,H,R", ("surrender (R) in row 'hard 16 x3' against A", "first two cards")),
    ("hard 12 x3", "D,H,H,H,H,H,H,H,H,H", ("double (D) in row 'hard 12 x3' against 2", "double-cards=any")),
    ("hard 12", "W,H,H,H,H,H,H,H,H,H", ("'W' in row 'hard 12' against 2", "doubled row")),
    ("doubled 14", "H,S,S,S,S,S,S,S,S,S", ("'H' in row 'doubled 14' against 2",)),
])
def test_a_chart_pontoon_cannot_play_is_one_line_naming_file_line_and_cell(tmp_path, name, row, words):
    text = printed()
    path = tmp_path / "bad.csv"
    path.write_text(edit(text, {name: row}))
    number = 1 + [line.split(",")[0] for line in text.splitlines()].index(name)
    result = run("--strategy", str(path))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    assert f"pontoon: strategy chart {path} line {number}: " in lines[0], lines[0]
    for word in words:
        assert word in lines[0], lines[0]


def test_a_missing_row_is_named(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("".join(line + "\n" for line in printed().splitlines() if not line.startswith("6-8,")))
    result = run("--strategy", str(path))
    assert result.exit_code == 2 and f"pontoon: strategy chart {path}: missing row(s) 6-8" in result.stderr
