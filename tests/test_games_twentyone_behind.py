"""The bet-behind (001): its settlement in the C round engine against the independent Python
round (tests/twentyone_reference.py), its exact law (harness.games.twentyone_behind), and the
deluxe-blackjack options through the CLI."""
import itertools
import json
from fractions import Fraction as F

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.games import twentyone as tw
from harness.games import twentyone_behind as tb
from harness.games import twentyone_game as tg
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.kernels import lib
from rngcore.devices import cards
from tests import twentyone_reference as reference

SEED = bytes(range(32)).hex()
GAME = GAMES["deluxe-blackjack"]
FOLLOW = list(itertools.product((False, True), repeat=2))


def test_following_the_double_and_the_split_is_exactly_the_seats_law():
    # Through the bet-behind's own split path (each split hand given the dealer's outcome,
    # convolved), not the analysis' split distribution: equal laws, fraction by fraction.
    rules = GAME.game_rules()
    hands = tg.infinite(rules)[0]
    assert tb.behind_law(rules, hands, True, True) == tw.net_distribution(hands)


def test_not_following_a_double_is_one_stake_on_the_doubled_hand():
    rules = GAME.game_rules()
    hands = tg.infinite(rules)[0]
    mean = {f: sum(n * p for n, p in tb.behind_law(rules, hands, *f).items()) for f in FOLLOW}
    assert all(mean[f] < mean[(True, True)] for f in FOLLOW if f != (True, True))
    # Hands that do not split, the straightforward way: a doubled hand's value v is its
    # two-stake value joint with no dealer blackjack, less the blackjack's one stake.
    plain = [h for h in hands if h.action != tw.SPLIT]
    expected = sum(h.probability * ((h.value + h.dealer_blackjack) / 2 - h.dealer_blackjack
                                    if h.action == tw.DOUBLE else h.value) for h in plain)
    law = tb.behind_law(rules, plain, False, True)
    assert sum(n * p for n, p in law.items()) == expected
    assert expected < sum(h.probability * h.value for h in plain)


@pytest.mark.parametrize("follow", FOLLOW, ids=lambda f: f"double={f[0]},split={f[1]}")
def test_c_engine_settles_the_bet_behind_as_the_reference_round_by_round(follow):
    rules = GAME.game_rules()
    strategy = tw.infinite_deck_analysis(rules, distributions=False)[1]
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 8, behind=follow)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    behind = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    net_log, _, behind_log = table.play(rngcore.Generator(SEED, 21), 4000, nets, sides, behind=behind, log="behind")
    ours = [(F(int(a), tt.DEN), F(int(b), tt.DEN)) for a, b in zip(net_log, behind_log)]
    theirs, _ = reference.behind_rounds(rules, strategy, *follow, GAME.shoe_rules, 8, rngcore.Generator(SEED, 21), 4000)
    assert ours == theirs
    assert int(behind.sum()) == 4000
    assert any(a != b for a, b in ours) == (follow != (True, True))


def test_c_bet_behind_over_every_ordering_of_a_small_shoe_with_splits_and_doubles():
    rules = GAME.game_rules()
    strategy = tw.infinite_deck_analysis(rules, distributions=False)[1]
    tables = {f: tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 8, behind=f) for f in FOLLOW}
    differs = 0
    for d in sorted(set(itertools.permutations((2, 5, 6, 8, 8, 9, 10, 10)))):
        stack = np.array([cards.encode(v, 0) for v in d], dtype=np.uint16)
        for f, table in tables.items():
            it = iter(d)
            try:
                theirs = reference.play_behind(rules, lambda: next(it), strategy, *f)
            except (StopIteration, RuntimeError):
                theirs = None
            try:
                nets = table.round_areas(stack)[0]
                ours = (nets[0], nets[2])
            except tt.OutOfCards:
                ours = None
            assert ours == theirs, (d, f)
            differs += ours is not None and ours[0] != ours[1]
    assert differs > 1000


def test_the_options_are_the_bet_behind_players_and_only_deluxes():
    runner = CliRunner()
    bad = runner.invoke(main, ["game", "deluxe-blackjack", "--option", "follow-double=maybe"])
    assert bad.exit_code == 2 and "follow-double" in bad.output and "Traceback" not in bad.output
    other = runner.invoke(main, ["game", "blackjack", "--option", "follow-split=yes"])
    assert other.exit_code == 2 and "follow-split" in other.output
    ok = runner.invoke(main, ["game", "deluxe-blackjack", "--option", "follow-double=yes", "--option",
                              "follow-split=yes", "--json"])
    assert ok.exit_code == 0, ok.output
    bets = {b["name"]: b for b in json.loads(ok.stdout)["bets"]}
    assert bets["bet_behind"]["rtp"] == bets["main"]["rtp"]


def test_simulation_counts_the_bet_behind_from_the_engine():
    sim = GAME.simulate(100_000, rngcore.Generator(SEED, 22), follow_double="no", follow_split="yes")
    assert sim.ok
    bet = {b.name: b for b in sim.bets}["bet_behind"]
    assert bet.decisions == 100_000 and bet.inside


@pytest.mark.slow
def test_c_engine_settles_the_bet_behind_as_the_reference_over_a_million_rounds():
    rules = GAME.game_rules()
    strategy = tw.infinite_deck_analysis(rules, distributions=False)[1]
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 8, behind=(False, False))
    n = 1_000_000
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    net_log, _, behind_log = table.play(rngcore.Generator(SEED, 23), n, nets, sides, log="behind")
    theirs, _ = reference.behind_rounds(rules, strategy, False, False, GAME.shoe_rules, 8,
                                        rngcore.Generator(SEED, 23), n)
    ours = [(F(int(a), tt.DEN), F(int(b), tt.DEN)) for a, b in zip(net_log, behind_log)]
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, f"round {first}: C {ours[first]}, reference {theirs[first]}"


def test_without_the_hole_card_the_engines_bet_behind_is_the_seats_net():
    # The bet-behind is 001's (hole card): a dealer blackjack ends its rounds at the peek.
    # Without the hole card the engine reports the seat's net for it whatever the follow
    # choices, also when a dealer blackjack comes after the seat split (8-8 v 10).
    rules = GAMES["blackjack"].game_rules(deal="no-hole-card", max_hands=2, surrender="no")
    strategy = tw.infinite_deck_analysis(rules, distributions=False)[1]
    tables = {f: tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 8, behind=f) for f in FOLLOW}
    split_against_blackjack = 0
    for d in sorted(set(itertools.permutations((1, 2, 3, 8, 8, 10, 10)))):
        stack = np.array([cards.encode(v, 0) for v in d], dtype=np.uint16)
        results = set()
        for table in tables.values():
            try:
                nets, _, used, hands = table.round_areas(stack)
            except tt.OutOfCards:
                continue
            results.add((nets[0], nets[2]))
            # the dealer's second card is the last one dealt when the dealer draws no more
            split_against_blackjack += hands > 1 and d[1] == 10 and d[used - 1] == 1 and table is tables[(False, False)]
        assert all(seat == behind for seat, behind in results), d
        assert len(results) <= 1, d
    assert split_against_blackjack > 0
