"""Game options and player strategies: whole numbers, named choices and files, ``--option NAME=VALUE`` and
``--strategy NAME``, all generated from what a game declares (a toy game in one module proves it)."""
import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games import registry
from harness.games.base import GameOption, OptionFile, Strategy
from harness.games.registry import GAMES
from registry_support import generated_block, registered_package

# A toy game declaring one option of every kind, two strategies and a combination it refuses.
TOY_GAME = '''
    """A toy spinner: every kind of option and two strategies, in one module."""
    from fractions import Fraction

    from harness.games.base import Analysis, Game, GameOption, Strategy
    from harness.games.core import BetRule, Where, odds, result_from_weights, rows


    class Spinner(Game):
        name = "toy-spinner"
        summary = "a spinner of N sections; the bet wins on section 1"
        rules = "toy rules"
        strategies = (Strategy("bold", "bet on section 1 (toy rules 1)"),
                      Strategy("timid", "bet on nothing; the stake comes back (toy rules 2)"))
        options = (GameOption("sections", "N", "sections on the spinner (toy rules 3)", 2, 10, 4),
                   GameOption.choice("pays", "the win pays full or short (toy rules 4)", ("full", "short")),
                   GameOption.choice("lucky-seven", "section 7 also wins (toy rules 5)", ("no", "yes")),
                   GameOption.path("weights", "a file of one weight per section (toy rules 6)"))

        def check_together(self, strategy, options):
            if options["lucky_seven"] == "yes" and options["sections"] < 7:
                raise ValueError(f"{self.name}: option lucky-seven=yes needs 7+ sections")

        def _analyse(self, variant, *, strategy, sections, pays, lucky_seven, weights):
            weight = [int(w) for w in weights.text.split()] if weights else [1] * sections
            wins = weight[0] + (weight[6] if lucky_seven == "yes" else 0)
            n = sections - 1 if pays == "full" else sections
            pay = odds(n) if strategy == "bold" else Fraction(0)
            rule = BetRule("spin", "toy rules 1", rows(("win", Where(win=True), pay)))
            result = result_from_weights(rule, {"win": wins, "lose": sum(weight) - wins}, sum(weight))
            return Analysis(self.name, variant, {"sections": sections}, (result,))


    GAMES = (Spinner(),)
'''


@pytest.fixture
def spinner(tmp_path, monkeypatch):
    yield from registered_package(tmp_path, monkeypatch, registry.GAMES, "toy_spinner_pkg", {"spinner": TOY_GAME})


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


def report(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def refused(*args) -> str:
    """The one-line stderr of a refused invocation (exit 2, no traceback)."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


def test_every_kind_of_option_and_the_strategy_reach_the_game(spinner, tmp_path):
    assert report("toy-spinner")["bets"][0]["rtp"] == "1/1"  # 4 sections, full pay 3 to 1, bold
    assert report("toy-spinner")["strategy"] == "bold"
    assert report("toy-spinner", "--option", "pays=short")["bets"][0]["rtp"] == "5/4"
    assert report("toy-spinner", "--sections", "8", "--option", "pays=short")["bets"][0]["rtp"] == "9/8"
    assert report("toy-spinner", "--option", "sections=8", "--option", "lucky-seven=yes")["bets"][0]["rtp"] == "2/1"
    timid = report("toy-spinner", "--strategy", "timid")
    assert timid["strategy"] == "timid" and timid["bets"][0]["rtp"] == "1/4"
    weights = tmp_path / "weights.txt"
    weights.write_text("3 1 1 1\n")
    assert report("toy-spinner", "--option", f"weights={weights}")["bets"][0]["rtp"] == "2/1"
    text = run("toy-spinner", "--strategy", "timid").output
    assert text.startswith("toy-spinner  variant standard  strategy timid")


def test_help_lists_every_option_and_strategy_from_the_declarations(spinner):
    text = " ".join(run("--help").output.split())
    assert "toy-spinner pays full|short, default full: the win pays full or short (toy rules 4)" in text
    assert "toy-spinner lucky-seven no|yes, default no: section 7 also wins (toy rules 5)" in text
    assert "toy-spinner weights FILE, default none: a file of one weight per section (toy rules 6)" in text
    assert "toy-spinner bold (default) bet on section 1 (toy rules 1)" in text
    assert "toy-spinner timid bet on nothing" in text
    assert "--sections N" in text and "--pays" not in text  # only whole numbers are flags too
    assert "casino-war surrender yes|no, default yes" in text and "pai-gow best-vs-house-way" in text


@pytest.mark.parametrize("args,message", [
    (("--strategy", "reckless"), "toy-spinner: strategy must be one of bold, timid, got 'reckless'"),
    (("--option", "colour=red"), "toy-spinner has no option 'colour' (its options: sections, pays, lucky-seven, "
                                 "weights)"),
    (("--option", "pays=double"), "toy-spinner: --option pays must be one of full|short, got 'double'"),
    (("--option", "lucky-seven=true"), "toy-spinner: --option lucky-seven must be one of no|yes, got 'true'"),
    (("--option", "sections=11"), "toy-spinner: --option sections must be a whole number in 2..10, got 11"),
    (("--option", "sections=four"), "toy-spinner: --option sections must be a whole number in 2..10, got 'four'"),
    (("--option", "pays"), "--option takes NAME=VALUE, got 'pays'"),
    (("--option", "pays=full", "--option", "pays=short"), "toy-spinner: --option pays given twice"),
    (("--sections", "5", "--option", "sections=5"), "toy-spinner: --sections given twice (as --sections and --option "
                                                    "sections=)"),
    (("--sections", "11"), "Invalid value for '--sections': 11 is not in the range 2<=x<=10"),
    (("--option", "weights=/nonexistent/w.txt"), "toy-spinner: --option weights: cannot read /nonexistent/w.txt"),
    (("--option", "lucky-seven=yes"), "toy-spinner: option lucky-seven=yes needs 7+ sections"),
])
def test_undeclared_names_and_values_exit_2_in_one_line(spinner, args, message):
    assert message in refused("toy-spinner", *args)


def test_games_without_strategies_refuse_one_and_keep_their_output():
    assert "craps offers no player strategies, so --strategy does not apply" in refused("craps", "--strategy", "x")
    assert "baccarat has no option 'bonus' (its options: decks)" in refused("baccarat", "--option", "bonus=1")
    assert "--bonus applies to casino-war only, not baccarat" in refused("baccarat", "--bonus", "1")
    plain = report("baccarat", "--decks", "6")
    assert "strategy" not in plain and plain["variant"] == "jp" and plain["parameters"]["decks"] == 6
    assert report("baccarat", "--option", "decks=6")["bets"] == plain["bets"]
    assert run("baccarat", "--decks", "6").output.startswith("baccarat  variant jp  (")


def test_option_declarations_are_checked():
    with pytest.raises(ValueError, match="exactly one of"):
        GameOption("x", "N", "help", 1, 3, 1, choices=("a",))
    with pytest.raises(ValueError, match="hold the default"):
        GameOption.choice("x", "help", ("a", "b"), default="c")
    with pytest.raises(ValueError, match="distinct"):
        GameOption.choice("x", "help", ("a", "a"))
    with pytest.raises(ValueError, match="outside"):
        GameOption("x", "N", "help", 1, 3, 4)
    option = GameOption.choice("dealer", "the dealer's soft 17", ("s17", "h17"))
    assert option.default == "s17" and option.check("g", None) == "s17" and option.check("g", "h17") == "h17"
    assert GameOption("decks", "N", "h", 1, 8, 8).check("g", "6") == 6
    assert GameOption.path("rules", "h").check("g", OptionFile("p", "t")) == OptionFile("p", "t")


def test_registry_refuses_reserved_and_repeated_names():
    class Bad(type(GAMES["craps"])):
        name = "toy-bad"

    for options, strategies, match in [
        ((GameOption.choice("strategy", "h", ("a", "b")),), (), "none of option, strategy, variant"),
        ((GameOption("n", "N", "h", 1, 2, 1), GameOption.choice("n", "h", ("a",))), (), "must be unique"),
        ((), (Strategy("a", "h"), Strategy("a", "h")), "strategies must be distinct"),
    ]:
        bad = Bad()
        bad.options, bad.strategies = options, strategies
        with pytest.raises(ValueError, match=match):
            registry.register(bad)
    assert "toy-bad" not in GAMES


def test_docs_table_of_options_is_generated():
    assert generated_block("docs/table_games.md", "game options") == registry.options_table(), (
        "regenerate: cd tests && python -c \"import registry_support as r; from harness.games.registry import "
        "options_table as t; r.regenerate('docs/table_games.md', 'game options', t())\"")


def _bad_values(option) -> list:
    """Values ``option`` refuses, as typed on the command line."""
    if option.kind == "whole":
        return [str(option.high + 1), str(option.low - 1), "many"]
    return ["no-such-" + option.name]


def _walked(options):
    return [(o, value) for o in options if o.kind in ("whole", "choice") for value in _bad_values(o)]


def _one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_bad_option_value_names_the_flag_as_typed(name):
    game = GAMES[name]
    flags = registry.flag_options()
    for option, value in _walked(game.options):
        line = _one_line(run(name, "--option", f"{option.name}={value}"))
        assert f"{name}: --option {option.name} must be {option.allowed()}, got " in line, line
        assert f"--{option.name} " not in line.replace(f"--option {option.name}", ""), line
        if option.name in flags:  # the game's own flag: click's range (every game's) or the game's own
            line = _one_line(run(name, f"--{option.name}", value))
            assert (f"Invalid value for '--{option.name}'" in line
                    or f"{name}: --{option.name} must be {option.allowed()}, got {int(value)}" in line), line
            assert "--option" not in line, line


def test_every_bad_round_option_value_names_the_flag_as_typed(tmp_path):
    from harness.rounds import RoundError
    from harness.rounds.table import rules_for

    bets = tmp_path / "bets.toml"
    bets.write_text("")  # never read: the options are refused first
    walked = 0
    for name in GAMES:
        try:
            rules = rules_for(name)
        except RoundError:  # no electronic table-game mode, or no round engine yet
            continue
        for option, value in _walked(rules.options):
            journal = tmp_path / f"{name}.sqlite"
            line = _one_line(CliRunner().invoke(main, ["play", name, "--journal", str(journal), "--bets", str(bets),
                                                       "--option", f"{option.name}={value}"]))
            assert f"{name} rounds: --option {option.name} must be {option.allowed()}, got " in line, line
            assert not journal.exists()
            walked += 1
    assert walked >= 30  # baccarat, casino-war, the twenty-one tables, the poker games' strategies


def test_option_errors_name_options_as_the_caller_says():
    from harness.games.base import OptionError

    decks = GameOption("decks", "N", "h", 1, 8, 8)
    with pytest.raises(OptionError) as refused_:
        decks.check("g", 9)
    assert str(refused_.value) == "g: option decks must be a whole number in 1..8, got 9"  # plan files, Python
    assert refused_.value.named(lambda n: f"--{n}") == "g: --decks must be a whole number in 1..8, got 9"
    with pytest.raises(ValueError, match="^g: --strategy: cannot read /nonexistent/c.csv"):
        GameOption.path("chart", "h").check("g", "/nonexistent/c.csv", typed="--strategy")
    import pickle  # a worker process raises it to the parent

    again = pickle.loads(pickle.dumps(refused_.value))
    assert again.named(lambda n: f"--option {n}") == "g: --option decks must be a whole number in 1..8, got 9"
