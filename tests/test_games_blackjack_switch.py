"""Blackjack Switch (000 別表第1 第2 2): the C engine's two areas against the independent Python
round (tests/twentyone_reference.py), the switch decision, the exact law of an area, the Super
Match by brute force, and the game through the CLI."""
import functools
import itertools
import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.games import twentyone as tw
from harness.games import twentyone_game as tg
from harness.games import twentyone_switch as sw
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from harness.kernels import lib
from rngcore.devices import cards
from tests import twentyone_reference as reference

SEED = bytes(range(32)).hex()
GAME = GAMES["blackjack-switch"]


@functools.lru_cache(maxsize=None)
def analysis(rules):
    """(initial hands, basic strategy, swap cells) of ``rules`` (infinite shoe, no distributions)."""
    hands, strategy = tw.infinite_deck_analysis(rules, distributions=False)
    return hands, strategy, sw.swap_cells(rules, hands)


def swap_of(cells):
    return lambda up, a1, a2, b1, b2: cells[lib.kern_tw_swap_cell(up, a1, a2, b1, b2)]


CASES = {
    "default": {},
    "no-hole-card, no surrender, no re-split": {"deal": "no-hole-card", "surrender": "no", "max_hands": 2},
    "no das, 10-11": {"das": "no", "double": "10-11"},
    "no-hole-card, busted splits returned": {"deal": "no-hole-card", "split_busts": "returned"},
}


@pytest.mark.parametrize("case", CASES)
def test_c_engine_plays_both_areas_as_the_reference_round_by_round(case):
    rules = GAME.game_rules(**CASES[case])
    _, strategy, cells = analysis(rules)
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 6, swaps=cells)
    theirs, their_shoes = reference.switch_rounds(rules, strategy, swap_of(cells), GAME.shoe_rules, 6,
                                                  rngcore.Generator(SEED, 3), 3000)
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    net_log, side_log = table.play(rngcore.Generator(SEED, 3), 3000, nets, sides, log=True)
    ours = [(F(int(n), tt.DEN), int(s)) for n, s in zip(net_log, side_log)]
    assert ours == [(nets_[0], side) for nets_, side in theirs]
    assert table.shoes == their_shoes
    assert {side >> 3 for _, side in ours} == {0, 1}          # both kept and switched rounds were played


def orderings(values):
    return sorted(set(itertools.permutations(values)))


def codes(values):
    return np.array([cards.encode(v, 0) for v in values], dtype=np.uint16)


def test_c_round_over_every_ordering_of_a_small_shoe_equals_the_reference():
    # Both areas, splits, doubles, surrender and the switch on every ordering of nine cards.
    rules = GAME.game_rules()
    _, strategy, cells = analysis(rules)
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 6, swaps=cells)
    played = switched = 0
    for d in orderings((1, 2, 5, 6, 8, 8, 10, 10, 10)):
        it = iter(d)
        try:
            theirs = reference.play_switch(rules, lambda: next(it), strategy, swap_of(cells))
        except (StopIteration, RuntimeError):
            theirs = "out of cards"
        try:
            nets, side, _, _ = table.round_areas(codes(d))
            ours = (nets[:2], bool(side & sw.SWAPPED))
        except tt.OutOfCards:
            ours = "out of cards"
        assert ours == theirs, d
        played += ours != "out of cards"
        switched += ours != "out of cards" and ours[1]
    assert played > 20_000 and switched > 2_000


def test_a_no_hole_card_blackjack_after_a_split_under_both_readings_as_the_reference():
    # 2-11-ロ, no hole card: the first area's 8-8 split against a ten (forced, no switch), the
    # second area's 10-9 standing; over every draw of an infinite shoe of A 7 8 T T the C
    # round settles both areas as the reference under both readings of a bust's stake.
    keep = np.zeros(lib.KERN_TW_SWAPS, dtype=np.uint8)
    nets = {}
    for split_busts in ("lost", "returned"):
        rules = GAME.game_rules(deal="no-hole-card", surrender="no", max_hands=2, split_busts=split_busts)
        strategy = analysis(rules)[1]
        splits = tw.TableStrategy(strategy.cells, {**strategy.splits, (10, 8): True})
        table = tt.TwentyOneTable(rules, splits, GAME.shoe_rules, 6, swaps=keep)
        for path, _, theirs in reference.over_every_draw(
                lambda deal: reference.play_switch(rules, deal, splits, swap_of(keep))[0],
                (1, 0, 0, 0, 0, 0, 1, 1, 0, 2), (8, 10, 10, 8, 9)):
            ours = table.round_areas(codes(path))[0][:2]
            assert ours == theirs, (split_busts, path)
            nets.setdefault(path, []).append(ours)
    differ = {b[0] - a[0] for a, b in nets.values() if a != b}
    assert differ == {1} and all(a[1] == b[1] for a, b in nets.values())


def test_the_switch_is_taken_exactly_where_the_pair_of_hands_is_worth_more():
    rules = GAME.game_rules()
    hands, _, cells = analysis(rules)
    value = sw.decision_values(rules, hands)
    checked = 0
    for up, a1, a2, b1, b2 in itertools.product((2, 6, 10, tw.ACE), *[tw.VALUES] * 4):
        keep = value[(up, tw.of(a1, a2))] + value[(up, tw.of(b1, b2))]
        switch = value[(up, tw.of(a1, b2))] + value[(up, tw.of(b1, a2))]
        assert cells[lib.kern_tw_swap_cell(up, a1, a2, b1, b2)] == (switch > keep)
        checked += 1
    assert checked == 4 * 10 ** 4
    # 10,5 and 6,10 against a 6: switching makes 20 and 11
    assert cells[lib.kern_tw_swap_cell(6, 10, 5, 6, 10)] == 1


def test_an_areas_law_is_the_mean_of_the_best_pair_of_hands():
    # The law's mean, computed the straightforward way: every deal of four cards and an
    # upcard, the better pair of hands (a dealer blackjack under the peek ends the round as
    # dealt), half of it per area; and both areas have the same law.
    rules = GAME.game_rules()
    hands = tg.infinite(rules)[0]           # the game's own (cached) analysis
    cells = sw.swap_cells(rules, hands)
    law = sw.area_law(rules, hands, cells)
    assert sum(law.values()) == 1
    assert sw.area_law(rules, hands, cells, area=1) == law
    value = sw.decision_values(rules, hands)
    p_bj = {h.up: h.dealer_blackjack for h in hands}
    w = [1] * 9 + [4]                                        # out of 13
    total = F(0)
    for up in tw.VALUES:
        # this upcard's values as integers over one denominator (exact, and fast to add)
        vals = {(a, b): value[(up, tw.of(a, b))] for a in tw.VALUES for b in tw.VALUES}
        scale = math.lcm(*(v.denominator for v in vals.values()), p_bj[up].denominator)
        v = {k: int(x * scale) for k, x in vals.items()}
        bj = int(p_bj[up] * scale) if rules.peeks(up) else 0
        acc = 0
        for a1, a2, b1, b2 in itertools.product(tw.VALUES, repeat=4):
            best = max(v[a1, a2] + v[b1, b2], v[a1, b2] + v[b1, a2])
            lost = bj * ((a1 + a2 != 11 or 1 not in (a1, a2)) + (b1 + b2 != 11 or 1 not in (b1, b2)))
            acc += w[a1 - 1] * w[a2 - 1] * w[b1 - 1] * w[b2 - 1] * (best - lost)
        total += F(w[up - 1] * acc, 13 ** 5 * scale * 2)
    assert sum(net * p for net, p in law.items()) == total


def test_super_match_by_brute_force_over_every_four_cards_of_one_deck():
    for decks in (1,):
        ranks = [r for r in range(1, 14) for _ in range(4 * decks)]
        counts = {k: 0 for k in sw.MATCH}
        for four in itertools.combinations(range(len(ranks)), 4):
            counts[sw.MATCH[reference.match_class([ranks[i] for i in four])]] += 1
        ways = sw.super_match_ways(decks)
        assert {k: w for k, (w, _) in ways.items()} == counts


def test_super_match_exact_return_and_pays():
    bet = GAME.analyse().bet("super_match")
    pays = {o.label: o.net for o in bet.outcomes}
    assert pays == {"four": 40, "three": 5, "two_pair": 8, "pair": 1, "lose": -1}
    ways = sw.super_match_ways(8)
    n = ways["none"][1]
    assert bet.rtp == 1 + sum(F(ways[k][0], n) * pays[k] for k in ("four", "three", "two_pair", "pair")) \
        - F(ways["none"][0], n)
    assert bet.rtp == F(11653799, 11826255)


def test_first_round_side_law_by_straightforward_loops_on_one_deck():
    # The vectorised law against plain loops: every ordered four ranks and upcard value of a
    # full one-deck shoe, the hole card completing a dealer blackjack (no switch) or not.
    rules = GAME.game_rules()
    _, _, cells = analysis(rules)
    left = [0] + [4] * 13                       # by rank
    by_value = [0] + [4] * 9 + [16]             # by value
    value = lambda r: min(r, 10)
    numerators: dict = {}                       # (class, peeked) -> integer weight
    for four in itertools.product(range(1, 14), repeat=4):
        w = 1
        for r in four:
            w *= left[r]
            left[r] -= 1
            by_value[value(r)] -= 1
        match = reference.match_class(list(four))
        a1, b1, a2, b2 = map(value, four)
        for up in tw.VALUES:
            swapped = int(cells[lib.kern_tw_swap_cell(up, a1, a2, b1, b2)])
            if rules.peeks(up):
                other = by_value[10 if up == 1 else 1]
                parts = [(other, 0), (47 - other, swapped)]     # the hole card: one of the 52 - 5 left
            else:
                parts = [(47, swapped)]
            for k, sws in parts:
                key = match | 8 * sws
                numerators[key] = numerators.get(key, 0) + w * by_value[up] * k
        for r in four:
            left[r] += 1
            by_value[value(r)] += 1
    law = {k: F(v, 52 * 51 * 50 * 49 * 48 * 47) for k, v in sorted(numerators.items())}
    assert sw.first_round_sides(rules, cells, 1) == law


def test_simulation_agrees_with_the_exact_figures():
    sim = GAME.simulate(200_000, rngcore.Generator(SEED, 9), decks=6)
    assert sim.ok, sim.as_dict()
    bets = {b.name: b for b in sim.bets}
    assert set(bets) == {"main", "super_match"} and all(b.inside for b in bets.values())
    assert sim.outcome_fit.ok and sim.outcome_fit.statistic is not None


def test_cli_refuses_a_deck_count_outside_6_to_8_and_an_option_of_another_game():
    runner = CliRunner()
    for args, word in ((["--option", "decks=3"], "decks"), (["--option", "even-money=take"], "even-money"),
                       (["--option", "dealer=s17"], "dealer")):
        result = runner.invoke(main, ["game", "blackjack-switch", *args])
        assert result.exit_code == 2, result.output
        assert word in result.output and "Traceback" not in result.output


def test_cli_json_reports_the_main_bet_per_area_and_the_super_match():
    result = CliRunner().invoke(main, ["game", "blackjack-switch", "--json", "--option", "decks=6"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    names = [b["name"] for b in report["bets"]]
    assert names == ["main", "insurance", "super_match"]
    assert report["parameters"]["rules"]["dealer_22_push"]["value"] is True


@pytest.mark.slow
def test_c_engine_equals_the_reference_over_a_million_switch_rounds():
    rules = GAME.game_rules()
    _, strategy, cells = analysis(rules)
    table = tt.TwentyOneTable(rules, strategy, GAME.shoe_rules, 8, swaps=cells)
    n = 1_000_000
    nets = np.zeros(lib.KERN_TW_NETS, dtype=np.uint64)
    sides = np.zeros(lib.KERN_TW_SIDES, dtype=np.uint64)
    net_log, side_log = table.play(rngcore.Generator(SEED, 7), n, nets, sides, log=True)
    theirs, shoes = reference.switch_rounds(rules, strategy, swap_of(cells), GAME.shoe_rules, 8,
                                            rngcore.Generator(SEED, 7), n)
    ours = [(F(int(a), tt.DEN), int(b)) for a, b in zip(net_log, side_log)]
    first = next((i for i, (a, (b, s)) in enumerate(zip(ours, theirs)) if a != (b[0], s)), None)
    assert first is None, f"round {first}: C {ours[first]}, reference {theirs[first]}"
    assert table.shoes == shoes


def test_the_swap_cell_index_is_the_kernels():
    """One Python statement of the switch cells' layout (twentyone_switch.swap_index), the kernel's
    kern_tw_swap_index, for every cell."""
    grid = np.array(list(itertools.product(tw.VALUES, repeat=5)))
    ours = sw.swap_index(*grid.T)
    assert (np.sort(ours) == np.arange(lib.KERN_TW_SWAPS)).all()
    for i in range(0, len(grid), 97):
        assert ours[i] == lib.kern_tw_swap_cell(*map(int, grid[i]))


@pytest.mark.slow
def test_a_simulation_with_a_chart_computes_its_switch_cells_once(tmp_path, monkeypatch):
    """The swap cells of a player's chart are computed once per analysis and simulation (the main
    bet, the C table and the first-round law read the same cells)."""
    chart = tmp_path / "chart.csv"
    chart.write_text(tw.chart_csv(tw.chart(analysis(GAME.game_rules())[1])))
    calls = []
    real = sw.swap_cells
    monkeypatch.setattr(sw, "swap_cells", lambda rules, hands: calls.append(1) or real(rules, hands))
    result = CliRunner().invoke(main, ["game", "blackjack-switch", "--strategy", "table", "--option",
                                       f"chart={chart}", "--option", "das=no", "--simulate", "2000", "--seed",
                                       SEED])
    assert result.exit_code in (0, 1), result.output
    assert len(calls) == 1
