"""Casino War: the exact shoe analysis against a brute force written here,
published house edges, and the C table against the device shoe.

* Every distinct ordering of small shoes (a few ranks of a one-deck shoe) is
  dealt here with its own reading of 000 別表第1 第4 (one card each, war on a
  tie with burns, the cut card playing one more round), and the long-run
  class frequencies E[count per shoe] / E[rounds per shoe] are compared
  exactly with :func:`harness.games.casino_war.dealt_shoe`.
* Wizard of Odds' first-round house edges for 1-8 decks (rules that match
  the seed) are checked to the digits printed.
"""
import itertools
from collections import Counter
from fractions import Fraction as F

import pytest

from harness.games import casino_war as cw
from harness.games.registry import GAMES


def distinct_orderings(counts):
    """Every distinct ordering of a multiset of ranks (equally likely in a shuffled shoe)."""
    total = sum(counts)

    def rec(left, prefix):
        if len(prefix) == total:
            yield tuple(prefix)
            return
        for rank, c in enumerate(left):
            if c:
                left[rank] -= 1
                prefix.append(rank)
                yield from rec(left, prefix)
                prefix.pop()
                left[rank] += 1

    yield from rec(list(counts), [])


def deal_shoe(order, burn, cut, strategy, war_burns):
    """Round classes of one shoe, dealt by hand from the rules."""
    pos, classes = burn, []
    last = False
    while True:
        start = pos
        a, b = order[pos], order[pos + 1]
        pos += 2
        if a > b:
            cls = "win"
        elif a < b:
            cls = "lose"
        elif strategy == "surrender":
            cls = "surrender"
        else:
            pos += war_burns
            c, d = order[pos], order[pos + 1]
            pos += 2
            cls = "war_higher" if c > d else "war_tie" if c == d else "war_lower"
        classes.append(cls)
        # 000 第1 10: the cut card (in front of card `cut`) out at the start of
        # this round ends the shoe now; out during it, one more round is played.
        if last or start == cut:
            return classes
        if start < cut < pos:
            last = True


def brute_force(counts, burn, cut, strategy, war_burns=0):
    tally, shoes = Counter(), 0
    for order in distinct_orderings(counts):
        tally.update(deal_shoe(order, burn, cut, strategy, war_burns))
        shoes += 1
    rounds = sum(tally.values())
    return {c: F(tally[c], rounds) for c in cw.CLASSES}, F(rounds, shoes)


CASES = [
    ((4, 4, 4), 1, 3, "war", 0),
    ((4, 4, 4), 1, 4, "war", 0),
    ((4, 4, 4), 0, 5, "war", 0),
    ((4, 4, 4), 1, 3, "war", 1),
    ((4, 4, 4), 1, 6, "surrender", 0),
    ((3, 3, 3, 2), 1, 4, "war", 0),
    ((2, 2, 2, 2, 2), 1, 3, "war", 0),
    ((4, 4, 3), 2, 4, "war", 0),
]


@pytest.mark.parametrize("counts,burn,cut,strategy,war_burns", CASES)
def test_dealt_shoe_equals_brute_force(counts, burn, cut, strategy, war_burns):
    expected, rounds_per_shoe = brute_force(counts, burn, cut, strategy, war_burns)
    got = cw.dealt_shoe(counts, cw.ShoeProcedure(burn, (cut,), war_burns), strategy)
    assert got.rounds == rounds_per_shoe
    assert got.class_probabilities() == expected


def test_random_cut_card_is_the_average_over_its_positions():
    counts = (4, 4, 4)
    procs = [cw.dealt_shoe(counts, cw.ShoeProcedure(1, (c,)), "war") for c in (2, 3, 4)]
    both = cw.dealt_shoe(counts, cw.ShoeProcedure(1, (2, 3, 4)), "war")
    assert both.rounds == sum(p.rounds for p in procs) / 3
    assert both.ties == sum(p.ties for p in procs) / 3


def test_first_round_equals_brute_force_of_two_and_four_cards():
    counts = (4, 4, 3, 2)
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    ties = war_ties = total = 0
    for a, b, c, d in itertools.permutations(range(len(cards)), 4):
        total += 1
        if cards[a] == cards[b]:
            ties += 1
            war_ties += cards[c] == cards[d]
    e = cw.first_round(counts, "war")
    assert e.ties == F(ties, total) and e.war_ties == F(war_ties, total)


def test_surrender_has_no_removal_effect():
    # Rounds take two cards whatever happens, so every round is dealt like the first.
    for decks in (1, 4, 8):
        shoe = cw.standard_shoe(decks)
        dealt = cw.dealt_shoe(shoe, cw.production_procedure(decks), "surrender")
        assert dealt.class_probabilities() == cw.first_round(shoe, "surrender").class_probabilities()


# Wizard of Odds, Casino War (https://wizardofodds.com/games/casino-war/): six decks, going to war,
# "a tie after a tie will result in a bonus equal to the original wager" (the seed's 2 to 1 on the
# additional stake, 8-3-ロ): 2.33%; surrender 3.70%; tie bet 18.65%.  The house edge by number of
# decks (with bonus / no bonus / surrender / tie), as reproduced at
# i-online-casinos.com/games/casino-war-odds.php:
PUBLISHED = {
    1: ("2.06", "2.42", "2.94", "35.29"),
    2: ("2.24", "2.70", "3.40", "25.24"),
    3: ("2.29", "2.79", "3.55", "21.94"),
    4: ("2.31", "2.84", "3.62", "20.29"),
    5: ("2.32", "2.86", "3.67", "19.31"),
    6: ("2.33", "2.88", "3.70", "18.65"),
    7: ("2.34", "2.89", "3.72", "18.18"),
    8: ("2.34", "2.90", "3.73", "17.83"),
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED))
def test_published_first_round_house_edges(decks):
    shoe = cw.standard_shoe(decks)
    war, surrender = cw.first_round(shoe, "war"), cw.first_round(shoe, "surrender")
    bonus = cw.results(war, cw.bets("war", 2))
    no_bonus = cw.results(war, cw.bets("war", 1))
    surr = cw.results(surrender, cw.bets("surrender"))
    got = (bonus[0].house_edge, no_bonus[0].house_edge, surr[0].house_edge, bonus[1].house_edge)
    assert tuple(f"{float(x) * 100:.2f}" for x in got) == PUBLISHED[decks]


def test_first_round_six_decks_exact():
    e = cw.first_round(cw.standard_shoe(6), "war")
    assert e.ties == F(23, 311)  # (4d - 1) / (52d - 1)
    main, tie, additional = cw.results(e, cw.bets("war"))
    assert tie.rtp == F(253, 311)
    assert additional.outcome("tie").probability == e.war_ties / e.ties


def test_bad_input():
    with pytest.raises(ValueError, match="decks"):
        cw.standard_shoe(9)
    with pytest.raises(ValueError, match="strategy"):
        cw.bets("fold")
    with pytest.raises(ValueError, match="cut card"):
        cw.dealt_shoe((4, 4, 4), cw.ShoeProcedure(1, (10,)), "war")
    with pytest.raises(ValueError, match="war_tie_pays"):
        cw.main_bet(0)


# ------------------------------------------------------------ the C table --

import numpy as np  # noqa: E402

import rngcore  # noqa: E402
from rngcore.devices.shoe import Shoe  # noqa: E402

SEED = bytes(range(32))
STRENGTH = {1: 14, **{r: r for r in range(2, 14)}}


def device_rounds(decks, strategy, war_burns, rounds):
    """Rounds dealt through the devices' Shoe (rngcore.devices.shoe), classed here."""
    shoe = Shoe(rngcore.Generator(SEED, 3), cw.SHOE_RULES, decks)
    tally = Counter()
    for _ in range(rounds):
        shoe.start_round()
        a, b = (STRENGTH[int(c) & 15] for c in shoe.deal(2))
        if a != b:
            tally["win" if a > b else "lose"] += 1
        elif strategy == "surrender":
            tally["surrender"] += 1
        else:
            shoe.burn(war_burns)
            x, y = (STRENGTH[int(c) & 15] for c in shoe.deal(2))
            tally["war_higher" if x > y else "war_tie" if x == y else "war_lower"] += 1
        shoe.end_round()
    return tally, shoe.shuffles


@pytest.mark.parametrize("decks,strategy,war_burns", [(4, "war", 0), (8, "war", 3), (6, "surrender", 0)])
def test_c_table_deals_the_device_shoe(decks, strategy, war_burns):
    rounds = 3000
    expected, shuffles = device_rounds(decks, strategy, war_burns, rounds)
    table = cw.WarTable(decks, strategy, war_burns)
    counts = np.zeros(len(cw.CLASSES), dtype=np.uint64)
    g = rngcore.Generator(SEED, 3)
    table.play(g, 1000, counts)
    table.play(g, rounds - 1000, counts)  # state carries across calls
    assert {c: int(counts[i]) for i, c in enumerate(cw.CLASSES) if counts[i]} == dict(expected)
    assert table.shoes == shuffles


def test_simulation_interval_contains_the_exact_return():
    sim = cw.simulate(2_000_000, rngcore.Generator(SEED, 5), 6, "war")
    assert sim.rounds == 2_000_000 and sim.ok
    for bet in sim.bets:
        assert bet.inside, bet.name
    assert sim.outcome_fit.pvalue > 1e-9


def test_table_rejects_bad_arguments():
    with pytest.raises(ValueError, match="allows 4..8 decks"):
        cw.WarTable(2)
    with pytest.raises(ValueError, match="casino-war: option burns must be"):
        GAMES["casino-war"].analyse(strategy="war", burns=99)
    with pytest.raises(ValueError, match="takes no option"):
        GAMES["casino-war"].analyse(strategy="war", burns=1, hands=2)


def test_docs_table_matches_the_analysis():
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "table_games.md").read_text()
    rows = re.findall(r"^\| (\d) \| (.+) \|$", text, re.M)
    assert [int(d) for d, _ in rows] == list(range(1, 9))
    for d, rest in rows:
        war = {b.name: b for b in GAMES["casino-war"].analyse(strategy="war", decks=int(d)).bets}
        surrender = {b.name: b for b in GAMES["casino-war"].analyse(strategy="surrender", decks=int(d)).bets}
        figures = [war["main_first_round"], war["main"], surrender["main"], war["tie_first_round"], war["tie"]]
        cells = [c.strip() for c in rest.split("|")]
        assert cells[:5] == [f"{float(b.house_edge) * 100:.4f}%" for b in figures]
        assert cells[5] == f"{GAMES['casino-war'].analyse(strategy='war', decks=int(d)).parameters['rounds_per_shoe_float']:.3f}"


# ------------------------------------------------------- command line: --strategy, --option --

def _cli(*args):
    import json

    from click.testing import CliRunner

    from harness.cli import main

    result = CliRunner().invoke(main, ["game", "casino-war", *args])
    return result, (json.loads(result.stdout) if result.exit_code == 0 and "--json" in args else None)


def test_cli_strategies_and_operator_options():
    _, default = _cli("--json")
    assert default["strategy"] == "war" and default["parameters"]["surrender_offered"] == "yes"
    _, surrender = _cli("--strategy", "surrender", "--option", "decks=6", "--json")
    expected = GAMES["casino-war"].analyse(strategy="surrender", decks=6)
    assert surrender["strategy"] == "surrender" and surrender["bets"] == [b.as_dict() for b in expected.bets]
    # the seed's war-tie pay (8-3-ロ) and the war burns: --option and the flags are one option
    _, by_option = _cli("--option", "bonus=1", "--option", "burns=3", "--json")
    _, by_flag = _cli("--bonus", "1", "--burns", "3", "--json")
    assert by_option["bets"] == by_flag["bets"] and by_option["parameters"]["war_tie_pays"] == "1 to 1"
    assert by_option["bets"][0]["rtp"] != default["bets"][0]["rtp"]
    _, no_surrender = _cli("--option", "surrender=no", "--json")
    assert no_surrender["bets"] == default["bets"] and no_surrender["parameters"]["surrender_offered"] == "no"
    result, _ = _cli("--strategy", "surrender", "--option", "surrender=no")
    assert result.exit_code == 2 and "casino-war: --strategy surrender needs a house that offers it" in result.stderr
    result, _ = _cli("--strategy", "fold")
    assert result.exit_code == 2 and "strategy must be one of war, surrender, got 'fold'" in result.stderr
