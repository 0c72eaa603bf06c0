"""The game registry: discovery, the public registration API, and everything generated from it."""
import json

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games import registry
from harness.games.registry import GAMES
from registry_support import generated_block, registered_package

# A whole new game in ONE module: rules table, analysis, simulation, an option.
TOY_GAME = '''
    """A toy coin game: one new module, registered through the public API."""
    from harness.games.base import CategoricalGame, GameOption
    from harness.games.core import BetRule, Where, odds, rows

    BETS = (
        BetRule("heads", "toy rules 1", rows(("win", Where(side="heads"), odds(1)))),
        BetRule("tails", "toy rules 2", rows(("win", Where(side="tails"), odds(9, 10)))),
    )


    class Coin(CategoricalGame):
        name = "toy-coin"
        summary = "a fair coin, heads pays 1 to 1 and tails 9 to 10"
        rules = "toy rules"
        variants = ("fair", "fair-again")
        variants_help = "two names for one coin"
        options = (GameOption("flips", "K", "flips per bet, 1..3 (default 1)", 1, 3, 1),)

        def bets(self, variant):
            return BETS

        def outcome_features(self, variant):
            return [{"side": "heads"}, {"side": "tails"}]

        def device(self, variant):
            return "coin", 2, 1, None


    GAMES = (Coin(),)
'''


@pytest.fixture
def toy_games(tmp_path, monkeypatch):
    yield from registered_package(tmp_path, monkeypatch, registry.GAMES, "toy_games_pkg", {"coin": TOY_GAME})


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


def test_builtin_games_are_discovered():
    assert {"baccarat", "roulette-single", "roulette-double", "big-six", "money-wheel", "sic-bo", "craps"} <= set(GAMES)
    assert all(g.summary and g.rules and g.variants for g in GAMES.values())


def test_toy_game_in_one_module_appears_everywhere(toy_games):
    assert [g.name for g in toy_games] == ["toy-coin"]
    help_text = run("--help").output
    assert "toy-coin" in help_text and "a fair coin" in help_text
    assert "fair, fair-again (two names for one coin)" in help_text
    assert "--flips K" in help_text and "toy-coin: flips per bet" in help_text
    result = run("toy-coin", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [b["name"] for b in report["bets"]] == ["heads", "tails"]
    assert [b["rtp"] for b in report["bets"]] == ["1/1", "19/20"]
    result = run("toy-coin", "--variant", "fair-again", "--flips", "2", "--simulate", "1000",
                 "--seed", "0f" * 32, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["simulation"]["rounds"] == 1000
    # Options are the game's own: another game refuses them, and this one checks its range.
    result = run("craps", "--flips", "2")
    assert result.exit_code == 2 and "--flips applies to toy-coin only, not craps" in result.output
    result = run("toy-coin", "--decks", "8")
    assert result.exit_code == 2 and "--decks applies to baccarat" in result.output and "not toy-coin" in result.output
    result = run("toy-coin", "--flips", "4")
    assert result.exit_code == 2 and "1<=x<=3" in result.output


def test_toy_game_gone_after_unregister(toy_games):
    registry.GAMES.unregister("toy-coin")
    registry.register(toy_games[0])  # the fixture removes it again
    assert "toy-coin" in GAMES
    registry.GAMES.unregister("toy-coin")
    result = run("toy-coin")
    assert result.exit_code == 2 and "baccarat" in result.output
    registry.register(toy_games[0])


def test_registration_refuses_bad_declarations():
    with pytest.raises(TypeError, match="is not a harness.games.base.Game"):
        registry.register("craps")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(type(GAMES["craps"])())
    with pytest.raises(ValueError, match="unknown game 'poker'; valid games: baccarat"):
        registry.game("poker")


def test_option_checks_name_the_game():
    baccarat = GAMES["baccarat"]
    with pytest.raises(ValueError, match="baccarat: option decks must be a whole number in 1..12, got 13"):
        baccarat.analyse(decks=13)
    with pytest.raises(ValueError, match="craps takes no option --decks"):
        GAMES["craps"].analyse(decks=8)


def test_docs_table_of_games_is_generated():
    assert generated_block("docs/table_games.md", "games") == registry.markdown_table(), (
        "regenerate: cd tests && python -c \"import registry_support as r; from harness.games.registry import "
        "markdown_table as t; r.regenerate('docs/table_games.md', 'games', t())\"")
