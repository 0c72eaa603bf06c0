"""``--strategy FILE``: a player's own chart for the twenty-one games that play one (harness/games/base.py
``Strategy.file``, harness/games/twentyone_game.py), and the one-line refusal of a chart that cannot be played."""
import json
import pathlib

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games.registry import GAMES

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHART = ROOT / "examples" / "blackjack_chart.csv"
CHART_GAMES = [name for name, g in GAMES.items() if any(s.file == "chart" for s in g.strategies)]


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


def report(*args) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refused(*args) -> str:
    """The one-line stderr of a refused invocation (exit 2, no traceback)."""
    result = run(*args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def edited(tmp_path, old: str, new: str) -> pathlib.Path:
    """The example chart with one line's start ``old`` replaced by ``new`` (a test fails if it is absent)."""
    text = CHART.read_text()
    assert text.count("\n" + old) == 1, old
    path = tmp_path / "chart.csv"
    path.write_text(text.replace("\n" + old, "\n" + new))
    return path


def test_the_family_plays_a_chart_file():
    # Pontoon's chart has its own rows: tests/test_games_pontoon_chart.py
    assert set(CHART_GAMES) == {"blackjack", "blackjack-switch", "deluxe-blackjack", "pa-blackjack", "pontoon"}


@pytest.mark.parametrize("name", ["blackjack", "pa-blackjack"])
def test_strategy_file_is_the_chart_strategy(name):
    mine = report(name, "--strategy", str(CHART))
    spelt_out = report(name, "--strategy", "table", "--option", f"chart={CHART}")
    basic = report(name)
    assert mine["strategy"] == "table" and mine["bets"] == spelt_out["bets"]
    main_bet = next(b for b in mine["bets"] if b["name"] == "main")
    basic_main = next(b for b in basic["bets"] if b["name"] == "main")
    # three cells off the optimum: the exact return is below the basic strategy's
    assert main_bet["rtp"] != basic_main["rtp"]
    num, den = map(int, main_bet["rtp"].split("/"))
    bnum, bden = map(int, basic_main["rtp"].split("/"))
    assert num * bden < bnum * den
    rows = mine["parameters"]["chart"]["rows"]
    assert rows["hard 16"][8] == "S" and rows["hard 12"][:2] == ["S", "S"]


def test_strategy_file_prints_back_as_the_chart(tmp_path):
    result = run("blackjack", "--strategy", str(CHART), "--chart", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines() == [line for line in CHART.read_text().splitlines()
                                                  if line and not line.startswith("#")]


@pytest.mark.parametrize("old, new, words", [
    ("hard 12,S,S,", "hard 12,S,,", ("line 11", "missing cell", "row 'hard 12' against 3 is empty")),
    ("hard 12,S,S,S,S,S,H,H,H,H,H", "hard 12,S,S,S,S,S,H,H,H,H",
     ("line 11", "row 'hard 12' has 9 cells, not 10 (one per upcard 2,3,4,5,6,7,8,9,10,A)")),
    ("soft 15,", "# soft 15,", ("missing row(s) soft 15",)),
    ("hard 12,S,S,", "hard 12,S,P,", ("line 11", "split (P) on 'hard 12' against 3, which is not a pair")),
    ("hard 16,S,S,S,S,S,H,H,R,S,R", "hard 16,S,S,S,S,S,H,H,R,S,X",
     ("line 15", "unknown code 'X' in row 'hard 16' against A", "codes: H, S")),
    ("hard 16,", "hard 22,", ("line 15", "unknown row 'hard 22'")),
])
@pytest.mark.parametrize("name", ["blackjack", "blackjack-switch"])
def test_a_chart_that_cannot_be_played_is_one_line_naming_file_and_cell(tmp_path, name, old, new, words):
    path = edited(tmp_path, old, new)
    line = refused(name, "--strategy", str(path))
    assert f"{name}: strategy chart {path} " in line or f"{name}: strategy chart {path}:" in line, line
    for word in words:
        assert word in line, line


def test_strategy_file_refusals_name_the_flag(tmp_path):
    missing = tmp_path / "none.csv"
    assert (f"blackjack: --strategy: cannot read {missing}: No such file or directory (--strategy takes basic, "
            "table, composition or a FILE)") in refused("blackjack", "--strategy", str(missing))
    assert "blackjack: the chart is given twice (--strategy FILE and --option chart)" in refused(
        "blackjack", "--strategy", str(CHART), "--option", f"chart={CHART}")
    assert "blackjack: --strategy table and --option chart=FILE go together (--strategy FILE says both)" in refused(
        "blackjack", "--strategy", "table")
    # blackjack's chart surrenders against a 9; Pontoon only against an A, K, Q or J (000 第2 3-7-ハ)
    assert f"pontoon: strategy chart {CHART} line 15: surrender (R) in row 'hard 16' against 9" in refused(
        "pontoon", "--strategy", str(CHART))
    assert "craps offers no player strategies" in refused("craps", "--strategy", str(CHART))
