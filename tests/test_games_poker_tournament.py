"""Poker tournaments' approved items (000 別表第1 第3 11; harness/games/poker_tournament.py):
blind levels as data and late entry up to the approved deadline (11-2-イ), played
through whole tournaments."""
from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.games import poker_table as pt
from harness.games import poker_tournament as tour

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def fold_to_the_big_blind(view: pt.View) -> tuple[str, int]:
    """Fold whenever owing, else check: every game goes to the big blind, who wins the small blind's post."""
    return ("fold", 0) if "fold" in view.legal() else ("check", 0)


def decks():
    return itertools.repeat(list(range(52)))


def run(*args):
    return CliRunner().invoke(main, ["game", *args])


def test_blind_levels_are_data_and_each_game_posts_its_level():
    """Each level lasts level_games games, the last level stays; the small blind of each game
    is what its small blind loses when everyone folds to the big blind (9-2-ロ, 9-3-ロ-(3))."""
    levels = tour.blind_levels(5, "doubling")
    assert levels[:4] == (5, 10, 20, 40) and tour.blind_levels(5, "flat") == (5,)
    assert [tour.blind_of_game(levels[:3], 2, g) for g in range(8)] == [5, 5, 10, 10, 20, 20, 20, 20]
    rules = tour.PokerTournamentGame.table("texas-holdem", 5)
    t = tour.play_tournament(rules, 3, 200, decks(), fold_to_the_big_blind, levels=levels, level_games=2)
    assert t.chips_conserved and t.blinds[:6] == (5, 5, 10, 10, 20, 20)
    folded_to = set()
    for game, blind in zip(t.games, t.blinds):
        sb, bb = game.small_blind, (game.small_blind + 1) % game.seats
        if not game.showdown:   # both blinds posted in full, everyone folded to the big blind
            assert game.staked[sb] == blind and game.paid.get(sb, 0) == 0
            assert game.staked[bb] == 2 * blind and game.paid[bb] == 3 * blind
            folded_to.add(blind)
    assert {5, 10, 20} <= folded_to
    # rising blinds end a fold-only tournament far sooner than flat ones
    flat = tour.play_tournament(rules, 3, 200, decks(), fold_to_the_big_blind)
    assert len(t.games) < len(flat.games) and set(flat.blinds) == {5}


def test_late_entrants_take_a_seat_with_the_same_points_up_to_the_deadline():
    """11-2-イ: stakes deposited after the games start, up to the approved deadline; 11-3-イ:
    the same points; the prize pool counts every stake taken (11-2-ロ, 11-5)."""
    assert tour.arrivals(2, 6) == (3, 6) and tour.arrivals(3, 10) == (4, 7, 10) and tour.arrivals(0, 5) == ()
    rules = tour.PokerTournamentGame.table("texas-holdem", 5)
    t = tour.play_tournament(rules, 2, 100, decks(), fold_to_the_big_blind, late=(2, 4))
    assert [g.seats for g in t.games[:6]] == [2, 2, 3, 3, 4, 4]
    assert t.entrants == 4 and sorted(t.places) == [0, 1, 2, 3] and t.chips_conserved
    assert tour.prizes(t.entrants, 10_000, tour.Fraction(9, 10), (50, 30, 20)) == (18000, 10800, 7200)


def test_a_late_entrant_is_refused_once_the_places_are_decided():
    """4-ロ: entry closes when one entrant holds every point; the late stake is never taken."""
    rules = tour.PokerTournamentGame.table("texas-holdem", 1)
    t = tour.play_tournament(rules, 2, 1, decks(), pt.call_down, late=(5,))
    assert len(t.games) == 1 and t.entrants == 2 and sorted(t.places) == [0, 1]


def test_the_default_tournament_is_unchanged_by_the_new_items():
    """Flat blinds and no late entry are the defaults: the same tournament as before the options."""
    import rngcore
    from rngcore.devices import device_spec

    rules = tour.PokerTournamentGame.table("omaha", 10)
    played = []
    for kwargs in ({}, {"levels": (10,), "level_games": 3, "late": ()}):
        g = rngcore.Generator(SEED, stream=4)
        d = iter(device_spec("deck").draw(g, 2000))
        t = tour.play_tournament(rules, 4, 150, d, pt.random_policy(g), **kwargs)
        played.append((t.places, [x.paid for x in t.games]))
    assert played[0] == played[1]


def test_cli_reports_levels_and_late_entry():
    result = run("poker-tournament", "--entrants", "4", "--option", "blinds=stepped", "--option", "level-games=3",
                 "--option", "late-entrants=2", "--option", "entry-deadline=6", "--simulate", "4", "--seed", SEED,
                 "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    p = report["parameters"]
    assert p["blind_levels"][:4] == [10, 20, 30, 50] and p["level_games"] == 3
    assert p["late_arrivals_after_games"] == [3, 6] and p["prize_pool_all_late"] == "54000"
    assert "late entrants took a seat" in report["simulation"]["note"]
    assert "not conserved: 0" in report["simulation"]["note"]


@pytest.mark.parametrize("option, message", [("entry-deadline=0", "1..1000000"), ("blinds=weekly", "flat"),
                                             ("late-entrants=11", "0..10")])
def test_bad_tournament_options_exit_2(option, message):
    result = run("poker-tournament", "--option", option)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_shares_are_whole_smallest_chips_in_a_tournament_game():
    """11-3-ハ reads 9-9-ロ's "1 yen" as the smallest tournament chip: three equal winners of 250
    points in 25-point chips get 75 each, the odd 25 to the first clockwise."""
    from harness.games import poker_pots as pots

    s = pots.settle([], 250, {0: 5, 1: 5, 2: 5}, clockwise=[2, 1, 0], r=None, unit=25)
    assert s.paid == {0: 75, 1: 75, 2: 100} and s.house == 0
    assert pots.settle([], 250, {0: 5, 1: 5, 2: 5}, clockwise=[2, 1, 0], r=None).paid == {0: 83, 1: 83, 2: 84}
    # 13-ハ: the low half rounded down to whole chips, the high half the rest
    h = pots.settle_hilo([], 275, {0: 9, 1: 5}, {0: 0, 1: 200}, [0, 1], [1, 0], None, unit=25)
    assert (h.high, h.low, h.house) == ({0: 150}, {1: 125}, 0)


def test_a_tournament_in_25_point_chips_pays_whole_chips():
    import rngcore
    from rngcore.devices import device_spec

    g = rngcore.Generator(SEED, stream=6)
    d = iter(device_spec("deck").draw(g, 3000))
    games = []
    for variant in [*tour.TABLES] * 2:
        rules = tour.PokerTournamentGame.table(variant, 25, 25)
        t = tour.play_tournament(rules, 4, 500, d, pt.random_policy(g, 25))
        assert t.chips_conserved
        games += t.games
    assert len(games) > 10 and any(len(game.paid) > 1 for game in games)
    for game in games:
        assert all(v % 25 == 0 for v in (*game.paid.values(), *game.staked.values(), *game.low_paid.values()))
    with pytest.raises(ValueError, match="whole number of the smallest chip"):
        tour.PokerTournamentGame.table("omaha", 10, 25)


def test_a_tournament_game_takes_the_measures_of_9_14():
    """11-3-ハ, ニ keep 9-14-イ: a replaced exposed card still deals a fair game; a void game moves no point."""
    from harness.games import poker_irregular as irr

    rules = tour.PokerTournamentGame.table("texas-holdem", 5)
    void = tour.play_tournament(rules, 3, 100, decks(), pt.call_down, irregularity=irr.Irregularity(exposed=(0, 1)))
    assert len(void.games) == tour.MAX_GAMES and all(g.void and not g.paid for g in void.games)
    assert void.chips_conserved and sorted(void.places) == [0, 1, 2]
    fixed = tour.play_tournament(rules, 3, 100, decks(), pt.call_down, irregularity=irr.Irregularity(exposed=(0,)))
    assert fixed.chips_conserved and fixed.games[0].measures == (irr.MEASURES["exposed-by-dealer"][0],)
    assert all(g.void is None for g in fixed.games) and any(g.paid for g in fixed.games)


def test_the_places_paid_can_follow_the_number_of_entrants():
    """11-4-ロ: the winners depend on the number of entrants; with late entry that number is known
    only when entry closes, so the prizes follow the stakes actually taken."""
    assert [tour.payout_shares("by-entrants", n) for n in (2, 3, 4, 6, 7, 10)] == [
        (100,), (100,), (65, 35), (65, 35), (50, 30, 20), (50, 30, 20)]
    assert tour.payout_shares("65-35", 9) == (65, 35)
    result = run("poker-tournament", "--entrants", "3", "--option", "payout=by-entrants", "--option",
                 "late-entrants=1", "--json")
    p = json.loads(result.stdout)["parameters"]
    assert p["prizes_by_place"] == ["27000"] and p["prizes_by_place_all_late"] == ["23400", "12600"]


@pytest.mark.parametrize("args, message", [
    (("--points", "1005", "--option", "smallest-chip=10"),
     "poker-tournament: --points (1005) and --blind (10) must be whole chips of --option smallest-chip (10 points)"),
    (("--option", "points=1005", "--smallest-chip", "10"),
     "poker-tournament: --option points (1005) and --blind (10) must be whole chips of --smallest-chip (10 points)"),
    (("--option", "blind=15", "--option", "smallest-chip=10", "--simulate", "2", "--seed", SEED),
     "poker-tournament: --points (1000) and --option blind (15) must be whole chips of --option smallest-chip "
     "(10 points)"),
])
def test_whole_chip_refusal_names_the_flags_as_typed(args, message):
    """11-3-イ: stacks and blinds are whole chips; the refusal names each option as the user gave it
    (an option left at its default: the flag that would set it)."""
    result = run("poker-tournament", *args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.output, result.output
    assert message in lines[0], lines[0]
