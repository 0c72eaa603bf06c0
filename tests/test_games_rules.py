"""Pay tables against the seeds.

Every expected value below is typed here from the rules text (the seed
section is named beside it), not read from harness code, so a wrong entry
in a rule table fails here.
"""
from fractions import Fraction as F

import pytest

from harness.games import baccarat, craps, money_wheels, roulette, sic_bo
from harness.games.core import BetRule, Split
from harness.games.registry import GAMES
from tests.games_support import reduced_decks
from rngcore.devices import WHEELS
from rngcore.devices import wheels as device_wheels


def _pays(rule, label="win"):
    for row in rule.rows:
        if row.label == label:
            return row.pays
    raise AssertionError(f"{rule.name} has no row {label!r}")


def _by_name(bets):
    return {b.name: b for b in bets}


# ---------------------------------------------------------------- baccarat --

BACCARAT_ODDS = {
    # 000 第1 8-2-イ/ロ/ハ, 8-3, 9-3; 004 payouts; "N to M" as net win per unit.
    ("banker", "win"): F(19, 20),
    ("player", "win"): F(1),
    ("tie", "win"): F(8),
    ("player_pair", "win"): F(11),
    ("banker_pair", "win"): F(11),
    ("banker_no_commission", "win"): F(1),
    ("banker_no_commission", "win_on_6"): F(1, 2),
    ("super_six", "win"): F(12),          # 004 "12倍", read 12 to 1
    ("tiger", "win_2_cards"): F(12),
    ("tiger", "win_3_cards"): F(20),
    ("fortune_six", "win_2_cards"): F(12),
    ("fortune_six", "win_3_cards"): F(20),
    ("big_tiger", "win"): F(50),
    ("small_tiger", "win"): F(22),
    ("tiger_tie", "win"): F(35),
    ("tiger_pair", "single"): F(4),
    ("tiger_pair", "double"): F(20),
    ("tiger_pair", "twin"): F(100),
    # 004 ドラゴンボーナス table
    ("dragon_bonus_player", "natural_win"): F(1),
    ("dragon_bonus_player", "natural_tie"): F(0),
    ("dragon_bonus_player", "win_by_9"): F(30),
    ("dragon_bonus_player", "win_by_8"): F(10),
    ("dragon_bonus_player", "win_by_7"): F(6),
    ("dragon_bonus_player", "win_by_6"): F(4),
    ("dragon_bonus_player", "win_by_5"): F(2),
    ("dragon_bonus_player", "win_by_4"): F(1),
}


@pytest.mark.parametrize("key", sorted(BACCARAT_ODDS))
def test_baccarat_odds(key):
    name, label = key
    assert _pays(_by_name(baccarat.BETS)[name], label) == BACCARAT_ODDS[key]


def test_baccarat_bet_names_are_the_issue_names():
    names = {b.name for b in baccarat.BETS}
    wanted = {"banker", "player", "tie", "player_pair", "banker_pair", "banker_no_commission", "super_six",
              "tiger", "big_tiger", "small_tiger", "tiger_tie", "tiger_pair", "dragon_bonus_player",
              "dragon_bonus_banker"}
    assert wanted <= names


def test_dragon_bonus_banker_mirrors_player():
    player = _by_name(baccarat.BETS)["dragon_bonus_player"]
    banker = _by_name(baccarat.BETS)["dragon_bonus_banker"]
    assert [(r.label, r.pays) for r in player.rows] == [(r.label, r.pays) for r in banker.rows]


def test_baccarat_classes_settle_as_the_rules_say():
    # A banker natural 9 over 8 (000 6-1 only applies when both totals are 0..7).
    cls = ((8 * 10 + 9) * 2 * 2) * 18
    f = baccarat.class_features(cls)
    assert (f["winner"], f["banker_natural"], f["player_natural"], f["margin"]) == ("banker", True, True, 1)
    rules = _by_name(baccarat.BETS)
    assert rules["banker"].classify(f).label == "win"
    assert rules["dragon_bonus_banker"].classify(f).label == "natural_win"
    assert rules["dragon_bonus_player"].classify(f).label == "lose"
    # Banker wins 6-5 with three cards each: no-commission pays 1 to 2, Tiger 20 to 1.
    cls = (((5 * 10 + 6) * 2 + 1) * 2 + 1) * 18
    f = baccarat.class_features(cls)
    assert rules["banker_no_commission"].classify(f).label == "win_on_6"
    assert rules["tiger"].classify(f).label == "win_3_cards"
    assert rules["big_tiger"].classify(f).label == "win"
    assert rules["small_tiger"].classify(f).label == "lose"


# --------------------------------------------------------------- sic bo ----

SIC_BO_TOTALS = {4: 62, 17: 62, 5: 31, 16: 31, 6: 18, 15: 18, 7: 12, 14: 12, 8: 8, 13: 8, 9: 7, 12: 7,
                 10: 6, 11: 6}  # 000 第6 6-2-ニ (1)-(7)


def test_sic_bo_odds_from_000():
    bets = _by_name(sic_bo.BETS)
    assert _pays(bets["small"]) == 1 and _pays(bets["big"]) == 1          # 6-2-イ, ロ
    for n in range(1, 7):                                                  # 6-2-ハ: 1, 2, 12 to 1
        assert (_pays(bets[f"single_{n}"], "one_die"), _pays(bets[f"single_{n}"], "two_dice"),
                _pays(bets[f"single_{n}"], "three_dice")) == (1, 2, 12)
        assert _pays(bets[f"double_{n}"]) == 11                            # 6-2-ホ
        assert _pays(bets[f"triple_{n}"]) == 180                           # 6-2-チ
    for total, pays in SIC_BO_TOTALS.items():
        assert _pays(bets[f"total_{total}"]) == pays
    assert "total_3" not in bets and "total_18" not in bets
    combos = [n for n in bets if n.startswith("combination_")]
    assert len(combos) == 15 and all(_pays(bets[n]) == 6 for n in combos)  # 3-3-ヘ, 6-2-ヘ
    assert _pays(bets["any_triple"]) == 31                                 # 6-2-ト
    assert _pays(bets["odd"]) == 1 and _pays(bets["even"]) == 1            # 7-3-イ, ロ
    fours = sorted(n for n in bets if n.startswith("four_number_"))
    assert fours == ["four_number_1_2_3_4", "four_number_2_3_4_5", "four_number_2_3_5_6", "four_number_3_4_5_6"]
    assert all(_pays(bets[n]) == 7 for n in fours)                         # 7-3-ハ
    threes = [n for n in bets if n.startswith("three_dice_")]
    assert len(threes) == 50                                               # 56 combinations less 6 triples
    assert _pays(bets["three_dice_1_1_2"]) == 50 and _pays(bets["three_dice_1_2_3"]) == 30  # 7-3-ニ


# ---------------------------------------------------------------- craps ----

def test_craps_odds_from_000_and_002():
    chains = _by_name(craps.chain_bets())
    for n, place, lose, take, lay in [
        (4, F(9, 5), F(5, 11), F(2), F(1, 2)), (10, F(9, 5), F(5, 11), F(2), F(1, 2)),
        (5, F(7, 5), F(5, 8), F(3, 2), F(2, 3)), (9, F(7, 5), F(5, 8), F(3, 2), F(2, 3)),
        (6, F(7, 6), F(4, 5), F(6, 5), F(5, 6)), (8, F(7, 6), F(4, 5), F(6, 5), F(5, 6)),
    ]:  # 000 5 7-2-ハ,ニ,ホ; 002 § 537.5(b), § 537.6
        assert _pays(chains[f"place_{n}"]) == place
        assert _pays(chains[f"place_lose_{n}"]) == lose
        assert _pays(chains[f"pass_odds_{n}"]) == take and _pays(chains[f"come_odds_{n}"]) == take
        assert _pays(chains[f"dont_pass_odds_{n}"]) == lay and _pays(chains[f"dont_come_odds_{n}"]) == lay
    for n, pays in [(4, 7), (10, 7), (6, 9), (8, 9)]:                      # 7-2-チ
        assert _pays(chains[f"hard_{n}"]) == pays
    assert _pays(chains["pass"], "win_natural") == 1 and _pays(chains["dont_pass"], "push_12") == 0
    # 002 § 537.5(g)
    for table, expected in (("a", (24, 249, 999)), ("b", (39, 199, 499))):
        bet = chains[f"fire_bet_{table}"]
        assert tuple(_pays(bet, f"points_{k}") for k in (4, 5, 6)) == expected
        assert all(_pays(bet, f"points_{k}") == -1 for k in (0, 1, 2, 3))
    one = {b.name: b for b in craps.one_roll_for("all")}
    expected_one = {"any_seven": 4, "any_craps": 7, "two": 30, "three": 15, "eleven": 15, "twelve": 30}
    for name, pays in expected_one.items():                                 # 7-2-ヌ..ヨ
        assert _pays(one[name]) == pays
    assert _pays(one["field"], "win") == 1 and _pays(one["field"], "win_2_or_12") == 2  # 7-2-リ
    assert _pays(one["c_and_e"], "win_eleven") == 7 and _pays(one["c_and_e"], "win_craps") == 3  # 7-2-タ
    assert _pays(one["six_seven_eight"], "win") == 1 and _pays(one["six_seven_eight"], "win_pair") == 2
    hops = sorted(n for n in one if n.startswith("hop_"))
    assert len(hops) == 17                                                  # § 537.3(a)(22)-(38)
    assert all(_pays(one[n]) == (30 if n.split("_")[1] == n.split("_")[2] else 15) for n in hops)
    assert dict(one["horn"].parts) == {"two": F(1, 4), "three": F(1, 4), "eleven": F(1, 4), "twelve": F(1, 4)}
    assert dict(one["horn_high_12"].parts) == {"two": F(1, 5), "three": F(1, 5), "eleven": F(1, 5), "twelve": F(2, 5)}
    assert dict(one["whirl"].parts) == {"two": F(1, 5), "three": F(1, 5), "eleven": F(1, 5), "twelve": F(1, 5),
                                        "any_seven": F(1, 5)}


def test_craps_bet_names_cover_the_issue():
    names = {b.name for b in GAMES["craps"].analyse("all").bets}
    wanted = {"pass", "dont_pass", "come", "dont_come", "field", "any_seven", "any_craps", "two", "three",
              "eleven", "twelve", "horn", "whirl", "c_and_e", "six_seven_eight", "fire_bet_a", "fire_bet_b"}
    wanted |= {f"place_{n}" for n in (4, 5, 6, 8, 9, 10)} | {f"place_lose_{n}" for n in (4, 5, 6, 8, 9, 10)}
    wanted |= {f"hard_{n}" for n in (4, 6, 8, 10)}
    assert wanted <= names
    assert {n for n in names if n.startswith("hop_")} and {n for n in names if n.startswith("horn_high_")}


def test_craps_variants_split_by_jurisdiction():
    pa = {b.name for b in GAMES["craps"].analyse("pa").bets}
    jp = {b.name for b in GAMES["craps"].analyse("jp").bets}
    assert "fire_bet_a" in pa and "fire_bet_a" not in jp
    assert "buy_4" in jp and "buy_4" not in pa and "lay_6" in jp
    assert "place_lose_4" in pa and "place_lose_4" not in jp
    assert "whirl" in pa and "whirl" not in jp and "horn" in jp


# --------------------------------------------------------------- wheels ----

def test_big_six_odds_from_002():
    bets = _by_name(money_wheels.big_six_bets())  # § 533.3(a)
    assert {n: _pays(b) for n, b in bets.items()} == {
        "one": 1, "two": 2, "five": 5, "ten": 10, "twenty": 20, "joker": 45, "flag": 45}


def test_money_wheel_both_tables_from_000():
    standard = [_pays(b) for b in money_wheels.money_wheel_bets("standard")]        # 第8 6-2
    alternative = [_pays(b) for b in money_wheels.money_wheel_bets("alternative")]  # 第8 6-3
    assert standard == [1, 3, 5, 10, 20, 45, 45]
    assert alternative == [1, 3, 5, 11, 23, 47, 47]
    with pytest.raises(ValueError, match="standard, alternative"):
        money_wheels.money_wheel_bets("generous")


def test_wheel_counts_from_the_rules():
    # wheels.md: Big Six 23/15/8/4/2/1/1 of 54 (002 § 533.1(a)); Money Wheel 24/12/8/4/2/1/1 of 52.
    assert WHEELS["big-six"].counts == {"$1": 23, "$2": 15, "$5": 8, "$10": 4, "$20": 2, "joker": 1, "flag": 1}
    assert WHEELS["money-wheel"].counts == {"S1": 24, "S2": 12, "S3": 8, "S4": 4, "S5": 2, "S6": 1, "S7": 1}


ROULETTE_ODDS = {"straight": 35, "split": 17, "street": 11, "corner": 8, "first_four": 8, "five_number": 6,
                 "six_line": 5, "column": 2, "dozen": 2, "red": 1, "black": 1, "odd": 1, "even": 1, "low": 1,
                 "high": 1}  # 000 第7 1-5-ロ, 2-5-ロ; 002 § 531.5(a)


@pytest.mark.parametrize("game,variant", [("roulette-single", v) for v in roulette.LAYOUTS["roulette-single"]]
                         + [("roulette-double", v) for v in roulette.LAYOUTS["roulette-double"]])
def test_roulette_odds_and_instances(game, variant):
    layout = roulette.LAYOUTS[game][variant]
    bets = {b.name: b for b in roulette.bets(layout)}
    for name, bet in bets.items():
        rule = bet.members[0][1] if hasattr(bet, "members") else bet
        assert _pays(rule) == ROULETTE_ODDS[name], name
    count = {name: len(b.members) for name, b in bets.items() if hasattr(b, "members")}
    assert count["six_line"] == 11 and count["corner"] == 22 and count["dozen"] == 3 and count["column"] == 3
    zeros = len(layout.zeros)
    assert count["straight"] == 36 + zeros
    assert ("first_four" in bets) == (game == "roulette-single")                  # 000 1-3-ハ-(4)-(二)
    assert ("five_number" in bets) == (game == "roulette-double" and variant != "as-single-zero")  # 2-3-ハ-(5)
    streets = [label for label, _ in bets["street"].members]
    if game == "roulette-single":
        assert {"0-1-2", "0-2-3"} <= set(streets)                                # 1-3-ハ-(3)-(二),(三)
    elif variant == "standard":
        assert {"0-1-2", "00-2-3", "0-2-00"} <= set(streets)                     # 2-3-ハ-(3); § 531.4(e)(3)(i)
    elif variant != "as-single-zero":
        assert {"0-1-2", "00-2-3"} <= set(streets) and "0-2-00" not in streets


def test_roulette_colours_come_from_the_device_tables():
    # roulette.md 1.1: Red = {1,3,5,7,9,12,14,16,18,19,21,23,25,27,30,32,34,36}; the literal 000
    # double-zero reading: {1..10, 29..36}.
    standard = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
    literal = set(range(1, 11)) | set(range(29, 37))
    for game, variant, red in [("roulette-single", "standard", standard), ("roulette-double", "standard", standard),
                               ("roulette-double", "jp-literal", literal)]:
        layout = roulette.LAYOUTS[game][variant]
        pockets = roulette.pocket_features(layout)
        assert {int(p) for p, f in pockets.items() if f["colour"] == "red"} == red
        assert {int(p) for p, f in pockets.items() if f["colour"] == "black"} == set(range(1, 37)) - red
    assert roulette.LAYOUTS["roulette-double"]["jp-literal"].wheel is device_wheels.ROULETTE_DOUBLE_JP_LITERAL


def test_every_bet_cites_a_seed(monkeypatch):
    reduced_decks(monkeypatch)  # a bet's citation is in its rule table, whatever the deck
    for name, g in GAMES.items():
        for variant in g.variants:
            for bet in g.analyse(variant).bets:
                assert bet.source and bet.source.split()[0] in {"000", "001", "002", "003", "004"}, (name, bet.name)


def test_splits_are_well_formed():
    with pytest.raises(ValueError, match="sum to 1"):
        Split("bad", "x", (("two", F(1, 2)), ("three", F(1, 3))))
    assert isinstance(_by_name(craps.one_roll_for("all"))["field"], BetRule)
