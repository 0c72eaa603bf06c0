"""Pai Gow tiles: ranks, the house way, the C enumeration against a brute
force written here, settlement and the simulation through the devices.

* The two-tile ranking is re-typed here from 000 別表第1 第9 6-1, 6-2, 9-2
  (digest §5) and compared with ``hand_key`` over every pair of hands.
* Every deal of a reduced tile set is enumerated here in Python and compared
  with the C enumeration ``kern_pg_enumerate``; a few hands' dealer counts
  are recounted tile by tile against ``kern_pg_setting_counts``.
* The house way is checked on hands worked by hand from 000 8-2 .. 8-10.
"""
import itertools
import json
import pathlib
from fractions import Fraction as F

import numpy as np
import pytest

import rngcore
from harness.games import pai_gow as pg
from harness.games.registry import GAMES

SEED = bytes(range(32))

# 6-2 イ..ラ typed from the digest table: (tiles on one side, tiles on the other).
NAMED = [({20}, {21})] + [({r}, {r}) for r in range(1, 12)] + [({12}, {13}), ({14}, {15}), ({16}, {17}), ({18}, {19}),
         ({1}, {12, 13}), ({2}, {12, 13}), ({1}, {3, 14, 15}), ({2}, {3, 14, 15}), ({1}, {10, 16, 17}),
         ({2}, {10, 16, 17})]
PIPS = {1: 12, 2: 2, 3: 8, 4: 4, 5: 10, 6: 6, 7: 4, 8: 11, 9: 10, 10: 7, 11: 6, 12: 9, 13: 9, 14: 8, 15: 8,
        16: 7, 17: 7, 18: 5, 19: 5, 20: 3, 21: 6}
TILE_ORDER = [[r] for r in range(1, 12)] + [[12, 13], [14, 15], [16, 17], [18, 19], [20, 21]]  # 6-1


def tile_strength(t):
    return -next(i for i, group in enumerate(TILE_ORDER) if t in group)


def strength(a, b):
    """(class, total, best tile): larger is stronger (independent of the module)."""
    for i, (one, other) in enumerate(NAMED):
        if (a in one and b in other) or (b in one and a in other):
            return (100 - i, 0, max(tile_strength(a), tile_strength(b)))
    values = [{PIPS[t]} if t not in (20, 21) else {3, 6} for t in (a, b)]
    best = max((x + y) % 10 for x in values[0] for y in values[1])
    return (0, best, max(tile_strength(a), tile_strength(b)))


def test_ranking_matches_the_rules_typed_here():
    pairs = [(a, b) for a in range(1, 22) for b in range(a, 22) if a != b or pg.COPIES[a] == 2]
    for (a, b), (c, d) in itertools.product(pairs, repeat=2):
        mine, theirs = strength(a, b), strength(c, d)
        assert (pg.hand_key(a, b) > pg.hand_key(c, d)) == (mine > theirs), ((a, b), (c, d))
        assert (pg.hand_key(a, b) == pg.hand_key(c, d)) == (mine == theirs)


def test_ranking_examples():
    assert pg.combination(20, 21) == "イ" and pg.combination(1, 13) == "レ" and pg.combination(2, 17) == "ラ"
    assert pg.hand_key(2, 10) > pg.hand_key(12, 10)  # day high nine above any plain 9 (ム is last)
    assert pg.total(20, 6) == 9 and pg.total(21, 4) == 7  # Gee Joon counts 3 or 6, the better
    # 9-2: equal hands go to the stronger tile, then the dealer
    assert pg.settle(((1, 12), (9, 11)), ((1, 13), (4, 5))) == "push"  # wong = wong, top tiles equal: dealer
    assert pg.settle(((1, 12), (4, 5)), ((1, 13), (9, 11))) == "lose"


HOUSE_WAY_CASES = [
    ((20, 21, 6, 4), "8-2", lambda s: 20 in s[0] + s[1] and sorted(s[0]) != [20, 21] and sorted(s[1]) != [20, 21]),
    ((20, 21, 6, 6), "8-2 except ト", lambda s: sorted(s[0]) == [20, 21]),
    ((1, 1, 12, 5), "8-1 (8-3-イ needs 4-8 or 11)", lambda s: sorted(s[0]) == [1, 1]),
    ((1, 1, 12, 8), "8-3-イ", lambda s: sorted(s[0]) in ([1, 8], [1, 12])),
    ((2, 2, 3, 4), "8-3-ロ", lambda s: 2 in s[0] and 2 in s[1]),
    ((2, 2, 14, 15), "8-3-ロ except カ", lambda s: sorted(s[0]) in ([2, 2], [14, 15])),
    ((12, 13, 2, 5), "8-4", lambda s: (12 in s[0]) != (12 in s[1])),
    ((3, 3, 8, 9), "8-5", lambda s: 3 in s[0] and 3 in s[1]),
    ((10, 10, 2, 1), "8-6", lambda s: 10 in s[0] and 10 in s[1]),
    ((1, 12, 3, 10), "8-7 weakest", lambda s: sorted(s[0]) == [1, 10]),
    ((10, 3, 5, 8), "8-9-イ", lambda s: (pg.total(*s[0]), pg.total(*s[1])) == (9, 7)),
    ((20, 18, 6, 1), "8-9-ロ", lambda s: (pg.total(*s[0]), pg.total(*s[1])) == (9, 7)),
    ((4, 7, 9, 11), "8-8-イ", lambda s: (pg.total(*s[0]), pg.total(*s[1])) == (8, 6)),
]


@pytest.mark.parametrize("tiles,rule,check", HOUSE_WAY_CASES, ids=[c[1] for c in HOUSE_WAY_CASES])
def test_house_way(tiles, rule, check):
    split = pg.house_way(tiles)
    assert sorted(split[0] + split[1]) == sorted(tiles)
    assert pg.hand_key(*split[0]) >= pg.hand_key(*split[1])
    assert check(split), split


def test_house_way_table_is_data_with_items():
    items = [r.item for r in pg.HOUSE_WAY]
    assert items[:8] == ["8-2", "8-3-イ", "8-3-ロ", "8-3-ハ", "8-3-ニ", "8-4", "8-5", "8-6"]
    assert {"8-1", "8-7", "8-8", "8-9-イ", "8-9-ロ", "8-9-ハ"} <= set(items)
    # Dropping a rule from the table changes the dealer's setting of the hands it covers.
    without = tuple(r for r in pg.HOUSE_WAY if r.item != "8-2")
    assert pg.house_way((20, 21, 6, 4), without)[0] in ((20, 21), (21, 20))


def brute_force(tile_set, chosen):
    """Every deal of a tile set, one physical tile at a time (independent loop)."""
    t = pg.hand_tables()
    position = {h: i for i, h in enumerate(t.hands)}
    tally = {o: 0 for o in pg.OUTCOMES}
    n = len(tile_set)
    for mine in itertools.combinations(range(n), 4):
        rest = [k for k in range(n) if k not in mine]
        me = position[tuple(sorted(tile_set[k] for k in mine))]
        ck = t.settings[me, chosen[me]]
        for theirs in itertools.combinations(rest, 4):
            dk = t.dealer[position[tuple(sorted(tile_set[k] for k in theirs))]]
            high, low = ck[0] > dk[0], ck[1] > dk[1]
            tally["win" if high and low else "push" if high or low else "lose"] += 1
    return tally


@pytest.mark.parametrize("tile_set", [
    (1, 1, 2, 2, 12, 13, 20, 21, 6, 6, 4, 10),
    (3, 3, 5, 8, 8, 10, 14, 15, 16, 17, 18, 19),
])
@pytest.mark.parametrize("strategy", ["house-way", "best-vs-house-way"])
def test_c_enumeration_equals_brute_force_on_reduced_sets(tile_set, strategy):
    chosen = pg.customer_settings(strategy)
    assert pg.enumerate_deals(chosen, tile_set=tile_set) == brute_force(sorted(tile_set), chosen)


def test_setting_counts_recounted_tile_by_tile():
    t = pg.hand_tables()
    counts = pg.setting_counts()
    full = [x + 1 for x in pg.TILE_SET]
    for i in (0, 1234, 5000, len(t.hands) - 1):
        hand = list(t.hands[i])
        left = list(full)
        for x in hand:
            left.remove(x)
        got = np.zeros((3, 3), dtype=np.int64)
        position = {h: j for j, h in enumerate(t.hands)}
        for theirs in itertools.combinations(range(28), 4):
            dk = t.dealer[position[tuple(sorted(left[k] for k in theirs))]]
            for s in range(3):
                ck = t.settings[i, s]
                high, low = ck[0] > dk[0], ck[1] > dk[1]
                got[s, 0 if high and low else 1 if high or low else 2] += 1
        assert (got == counts[i].astype(np.int64)).all(), t.hands[i]


def test_full_enumeration_agrees_with_weighted_hands():
    for strategy in ("house-way", "best-vs-house-way"):
        counts = pg.analyse(strategy)[3]
        assert sum(counts.values()) == pg.DEALS == 35960 * 20475
        assert counts == pg.weighted_counts(pg.customer_settings(strategy))


def test_exact_returns():
    house = GAMES["pai-gow"].analyse(strategy="house-way")
    best = GAMES["pai-gow"].analyse(strategy="best-vs-house-way")
    assert house.bet("bet").rtp == F(89902607, 92035125)
    assert best.bet("bet").rtp > house.bet("bet").rtp
    assert F(best.parameters["house_ev"]) == -best.bet("bet").expected_net
    # Wizard of Odds, Pai Gow Tiles FAQ (wizardofodds.com/ask-the-wizard/pai-gow-tiles): house edge 2.3896%
    # with a 5% commission when customer and dealer both use (its) house way.  The house ways differ in
    # detail (its own versus 000 第9 8), so the figures agree only roughly: within 0.2 percentage points.
    assert abs(float(house.bet("bet").house_edge) - 0.023896) < 0.002


def test_rule_table_strategy():
    text = "# set Gee Joon together\n20 21 6 4 : 20 21\n"
    table = pg.read_rule_table(text)
    chosen = pg.customer_settings(table)
    house = pg.customer_settings("house-way")
    i = pg.all_hands().index((4, 6, 20, 21))
    assert chosen[i] != house[i] and (np.delete(chosen, i) == np.delete(house, i)).all()
    reduced = (20, 21, 6, 4, 1, 1, 12, 13, 3, 10)
    assert pg.enumerate_deals(chosen, tile_set=reduced) != pg.enumerate_deals(house, tile_set=reduced)
    for bad in ("20 21 6 : 20 21", "20 21 6 4 : 1 2", "20 21 6 4 20 21", "a b c d : e f", "9 9 9 1 : 9 9"):
        with pytest.raises(ValueError, match="line 1"):
            pg.read_rule_table(bad)


def test_dealing_start_by_dice():
    dice = np.array([[0, 0, 0], [5, 5, 5], [0, 1, 2]])  # totals 3, 18, 6
    dealer, seat = pg.deal_blocks(dice, 2)
    # total 3 -> start at position 3: blocks go to 3, 4, ..., 8, 1, 2
    assert dealer[0] == 6 and seat[0] == 7
    # total 18 -> (18 - 1) % 8 + 1 = 2: the seat gets the first block
    assert seat[1] == 0 and dealer[1] == 7
    assert dealer[2] == (1 - 6) % 8


def test_simulation_through_tiles_and_dice():
    sim = GAMES["pai-gow"].simulate(300_000, rngcore.Generator(SEED, 9), strategy="house-way", seat=5)
    assert sim.rounds == 300_000 and sim.ok
    assert sim.bets[0].inside
    assert sim.outcome_fit.pvalue > 1e-9


# ------------------------------------------------ command line: --strategy, the rule table --

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "pai_gow_rules.txt"


def _cli(*args):
    from click.testing import CliRunner

    from harness.cli import main

    return CliRunner().invoke(main, ["game", "pai-gow", *args])


def test_example_rule_table_parses_and_runs_from_the_cli():
    table = pg.read_rule_table(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    # the example's claim: every listed hand is set as best-vs-house-way sets it, and not as the house way
    best, house = pg.customer_settings("best-vs-house-way"), pg.customer_settings("house-way")
    hands = pg.all_hands()
    assert len(table) == 4
    for hand, setting in table.items():
        assert setting == best[hands.index(hand)] != house[hands.index(hand)], hand
    result = _cli("--strategy", "table", "--option", f"rules={EXAMPLE}", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    exact = pg.analyse(table)
    assert report["strategy"] == "table" and report["parameters"]["rules"] == str(EXAMPLE)
    assert report["bets"] == [b.as_dict() for b in exact[1]]
    assert report["parameters"]["counts"] == pg.weighted_counts(pg.customer_settings(table))
    house_rtp = GAMES["pai-gow"].analyse(strategy="house-way").bet("bet").rtp
    assert house_rtp < F(report["bets"][0]["rtp"]) < GAMES["pai-gow"].analyse(strategy="best-vs-house-way").bet("bet").rtp


@pytest.mark.parametrize("text,message", [
    ("1 2 3 4 : 1 2\n\n1 2 4 3 : 3 4\n", "line 3: hand 1 2 3 4 is already set on line 1"),
    ("# only a comment\n", "no rule lines"),
    ("1 2 3 4 : 1 5\n", "line 1: expected 'A B C D : X Y'"),
    ("1 2 3 : 1 2\n", "line 1: expected"),
])
def test_malformed_rule_table_exits_2_naming_file_and_line(tmp_path, text, message):
    path = tmp_path / "rules.txt"
    path.write_text(text, encoding="utf-8")
    result = _cli("--strategy", "table", "--option", f"rules={path}")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1 and f"{path}" in result.stderr and message in result.stderr


def test_strategy_table_and_rules_go_together():
    for args in (("--strategy", "table"), ("--option", f"rules={EXAMPLE}")):
        result = _cli(*args)
        assert result.exit_code == 2 and "--strategy table and --option rules=FILE go together" in result.stderr
    result = _cli("--strategy", "optimal")
    assert result.exit_code == 2 and "house-way, best-vs-house-way, table, got 'optimal'" in result.stderr
