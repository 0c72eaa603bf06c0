"""The C poker evaluator (csrc/kernels/poker_eval.h): exhaustive known answers,
agreement with the straightforward reference (tests/poker_reference.py), and
each rank and tie-break rule of 000 別表第1 第3 3, 5-4, 9-8, 9-11 by example."""
from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from harness.games import poker_hands as ph
from harness.kernels import lib
import poker_reference as ref

# Five-card and seven-card category counts: Wikipedia, "Poker probability" (the
# 5-card and 7-card frequency tables, royal flush listed apart); the 7-card
# straight flush (4,324 + 37,260) and four-of-a-kind (224,848) counts also in
# B. Alspach, "7-Card Poker Hands" (2000), people.math.sfu.ca/~alspach/comp20/.
FIVE_CARD_COUNTS = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744,
                    "flush": 5108, "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552,
                    "one_pair": 1098240, "high_card": 1302540}
SEVEN_CARD_COUNTS = {"royal_flush": 4324, "straight_flush": 37260, "four_of_a_kind": 224848,
                     "full_house": 3473184, "flush": 4047644, "straight": 6180020, "three_of_a_kind": 6461620,
                     "two_pair": 31433400, "one_pair": 58627800, "high_card": 23294460}
# Three-card counts out of C(52, 3) = 22,100: threecardpoker.org/odds/ and J. Grochowski,
# "Three Card Poker and Pair Plus", Casino City Times, 8 July 2021.
THREE_CARD_COUNTS = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096,
                     "one_pair": 3744, "high_card": 16440}


IMPLS = [("portable", lib.KERN_PK_IMPL_PORTABLE)] + (
    [("avx512", lib.KERN_PK_IMPL_AVX512)] if lib.kern_pk_cpu_has_avx512() else [])


@pytest.fixture(params=IMPLS, ids=[name for name, _ in IMPLS])
def impl(request):
    """Each code path of the best five (poker_eval_simd.h) in turn; the chosen path after."""
    before = lib.kern_pk_get_impl()
    assert lib.kern_pk_set_impl(request.param[1]) == 0
    yield request.param[0]
    assert lib.kern_pk_set_impl(before) == 0


def values(text: str, kind: str = "best5") -> int:
    return int(ph.rank([ph.parse(text)], kind)[0])


def assert_same_order(c_values, keys) -> int:
    """The C values order the hands exactly as the reference keys (ties included)."""
    c_values = [int(v) for v in c_values]
    by_value: dict[int, tuple] = {}
    for v, k in zip(c_values, keys):
        assert by_value.setdefault(v, k) == k, f"C value {v:#x} given to reference keys {by_value[v]} and {k}"
    ordered = [by_value[v] for v in sorted(by_value)]
    none_last = [k for k in ordered if k is not None]
    assert all(a < b for a, b in zip(none_last, none_last[1:])), "C order differs from the reference order"
    return len(by_value)


def sample_hands(n: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)  # test data only; the game never draws with numpy
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size].astype(np.uint8)


# ----------------------------------------------------------- rule tables --

@pytest.mark.parametrize("table", [ph.FIVE_CARD_RANKS, ph.THREE_CARD_RANKS])
def test_rank_tables_follow_the_seed_order(table):
    codes = [r.code for r in table]
    assert codes == sorted(codes, reverse=True) and codes[-1] == 1 and len(set(codes)) == len(codes)
    assert all(r.item.startswith("000 別表第1 第3") for r in table)


def test_three_card_order_puts_trips_above_a_straight_above_a_flush():
    """5-4-イ: (2) three of a kind > (3) straight > (4) flush -- unlike five cards."""
    assert lib.KERN_PK3_TRIPS > lib.KERN_PK3_STRAIGHT > lib.KERN_PK3_FLUSH
    assert lib.KERN_PK_FLUSH > lib.KERN_PK_STRAIGHT > lib.KERN_PK_TRIPS


# --------------------------------------------------- exhaustive answers --

def test_all_five_card_hands_fall_in_7462_classes_with_the_standard_counts():
    every = ph.all_values(5)
    assert every.size == math.comb(52, 5) == 2_598_960
    assert np.unique(every).size == 7462
    assert ph.category_counts(5) == FIVE_CARD_COUNTS
    counted = {r.name: int(np.count_nonzero(ph.category(every) == r.code)) for r in ph.FIVE_CARD_RANKS}
    assert counted == FIVE_CARD_COUNTS


def test_the_lookup_tables_rank_every_five_card_hand_as_the_evaluator(impl):
    """rank() takes the best five of 5..7 cards from the tables of poker_eval_lut.h; every
    five-card hand (each rank pattern and each flush mask of five) gets kern_pk_value's value."""
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    assert (ph.rank(hands) == ph.all_values(5)).all()


def test_all_three_card_hands_give_the_published_counts():
    assert ph.all_values(3).size == 22_100
    assert ph.category_counts(3) == THREE_CARD_COUNTS


@pytest.mark.slow  # 1-3 s on a loaded 2-core machine; the default run checks 7-card samples below
def test_all_133784560_seven_card_hands_give_the_published_counts():
    counts = ph.category_counts(7)
    assert sum(counts.values()) == math.comb(52, 7) == 133_784_560
    assert counts == SEVEN_CARD_COUNTS


def test_every_three_card_hand_matches_the_reference():
    hands = list(itertools.combinations(range(52), 3))
    assert assert_same_order(ph.all_values(3), [ref.three_key(h) for h in hands]) == len(set(ph.all_values(3)))


# ------------------------------------------------ agreement on samples --

def test_five_card_hands_match_the_reference(impl):
    hands = sample_hands(20000, 5, 1)
    assert assert_same_order(ph.rank(hands), [ref.five_key(h) for h in hands.tolist()]) > 2000


@pytest.mark.parametrize("size", [6, 7])
def test_best_five_of_more_cards_matches_the_reference(size, impl):
    hands = sample_hands(1000, size, size)
    assert assert_same_order(ph.rank(hands), [ref.best_key(h) for h in hands.tolist()]) > 500


@pytest.mark.parametrize("size", [5, 6, 7])
def test_every_path_gives_the_portable_values(size):
    """The AVX-512 path and the portable loop agree hand for hand (and so does
    the branchy evaluator behind all_values, on five cards), whatever the
    number of hands (a block of 16 is partly filled at the end)."""
    hands = sample_hands(200_003, size, 40 + size)
    expected = {}
    for name, code in IMPLS:
        assert lib.kern_pk_set_impl(code) == 0
        expected[name] = [ph.rank(hands[:n]) for n in (200_003, 16, 17, 1, 31)]
    lib.kern_pk_set_impl(IMPLS[-1][1])
    for got in expected.values():
        assert all((a == b).all() for a, b in zip(got, expected["portable"]))
    assert len(np.unique(expected["portable"][0])) > 4000


@pytest.mark.parametrize("size", [5, 6, 7])
def test_a_card_twice_or_no_card_is_refused_at_every_position(size, impl):
    """Every pair of positions, in a hand early in a block and in the last, partly
    filled block (the AVX-512 path compares rotated position groups); and a byte
    above 51 at every position."""
    hands = sample_hands(37, size, 3)
    assert ph.rank(hands).size == 37
    for a, b in itertools.combinations(range(size), 2):
        for h in (0, 5, 15, 16, 36):
            bad = hands.copy()
            bad[h, b] = bad[h, a]
            with pytest.raises(ValueError):
                ph.rank(bad)
    for position in range(size):        # a byte that is no card, checked as the cards are read
        for h, byte in ((0, 52), (15, 255), (36, 64)):
            bad = hands.copy()
            bad[h, position] = byte
            with pytest.raises(ValueError):
                ph.rank(bad)


def test_a_path_the_cpu_lacks_is_refused():
    assert lib.kern_pk_set_impl(7) != 0
    if not lib.kern_pk_cpu_has_avx512():
        assert lib.kern_pk_set_impl(lib.KERN_PK_IMPL_AVX512) != 0


def test_omaha_high_and_low_match_the_reference():
    hands = sample_hands(600, 9, 9).tolist()
    high, low = ph.rank(hands, "omaha-hi"), ph.rank(hands, "omaha-lo")
    assert assert_same_order(high, [ref.omaha_high_key(h[:4], h[4:]) for h in hands]) > 300
    keys = [ref.omaha_low_key(h[:4], h[4:]) for h in hands]
    assert all((v == 0) == (k is None) for v, k in zip(low.tolist(), keys))
    assert sum(k is not None for k in keys) > 20
    assert assert_same_order([v for v in low if v], [k for k in keys if k is not None]) > 5


def test_any_five_low_matches_the_reference():
    hands = sample_hands(3000, 7, 11).tolist()
    low = ph.rank(hands, "low8")
    keys = [ref.any_low_key(h) for h in hands]
    assert all((v == 0) == (k is None) for v, k in zip(low.tolist(), keys))
    assert assert_same_order([v for v in low if v], [k for k in keys if k is not None]) > 20


@pytest.mark.slow
def test_every_five_card_hand_matches_the_reference():
    hands = list(itertools.combinations(range(52), 5))
    assert assert_same_order(ph.all_values(5), [ref.five_key(h) for h in hands]) == 7462


# ------------------------------------------------- each rule by example --

@pytest.mark.parametrize("stronger, weaker, rule", [
    ("AS KS QS JS 10S", "KH QH JH 10H 9H", "3-1-イ above ロ"),
    ("5D 4D 3D 2D AD", "9C 9D 9H 9S KS", "3-1-ロ above ハ: the steel wheel is still a straight flush"),
    ("6D 5D 4D 3D 2D", "5C 4C 3C 2C AC", "3-2-ト: 5-4-3-2-A the lowest straight flush"),
    ("2C 2D 2H 2S 3S", "AC AD AH KS KD", "3-1-ハ above ニ"),
    ("3C 3D 3H 2S 2D", "AS KS QS JS 9S", "3-1-ニ above ホ"),
    ("7S 5S 4S 3S 2S", "AD KC QH JS 10S", "3-1-ホ above ヘ"),
    ("6C 5D 4H 3S 2S", "5C 4D 3H 2S AS", "3-2-ト: 5-4-3-2-A the lowest straight"),
    ("AC KD QH JS 10S", "KC QD JH 10S 9S", "3-1-ヘ: A-K-Q-J-10 the highest straight"),
    ("5C 4D 3H 2S AS", "AC AD AH KS QD", "3-1-ヘ above ト"),
    ("2C 2D 2H 4S 3D", "AC AD KH KS QD", "3-1-ト above チ"),
    ("AC AD 3H 3S 2D", "KC KD QH QS JD", "3-2-ニ: the higher pair"),
    ("AC AD 4H 4S 2D", "AH AS 3H 3C KD", "3-2-ニ: the higher second pair"),
    ("AC AD 4H 4S 3D", "AH AS 4D 4C 2D", "3-2-ニ: then the fifth card"),
    ("2C 2D 4H 4S 3D", "AH AS KD QC JD", "3-1-チ above リ"),
    ("AC AD 4H 3S 2D", "KC KD AH QS JD", "3-2-ホ: the higher pair"),
    ("AC AD 5H 3S 2D", "AH AS 4D 3C 2H", "3-2-ホ: then the other cards"),
    ("2C 2D 4H 5S 3D", "AH KS QD JC 9D", "3-1-リ above ヌ"),
    ("AH KS QD JC 9D", "AH KS QD JC 8D", "3-2-ヘ: card by card to the last"),
    ("AS KS QS JS 9S", "AH KH QH JH 8H", "3-2-ト: flushes card by card (reading)"),
])
def test_five_card_rules(stronger, weaker, rule):
    assert values(stronger) > values(weaker), rule


@pytest.mark.parametrize("hand, category", [
    ("KS AH 2D 3C 4S", "high_card"),       # 3-1-ヘ: no wrap-around past the ace
    ("QS KH AD 2C 3S", "high_card"),
    ("AS KS QS JS 10S", "royal_flush"),
    ("KS AS 2S 3S 4S", "flush"),
])
def test_five_card_categories(hand, category):
    assert ph.category_name(values(hand)) == category


@pytest.mark.parametrize("one, other, rule", [
    ("AS KD QH JC 9S", "AH KS QD JS 9C", "3-2 proviso: suits never rank"),
    ("5C 4D 3H 2S AS", "5D 4C 3S 2H AH", "equal straights tie"),
])
def test_five_card_ties(one, other, rule):
    assert values(one) == values(other), rule


def test_best_five_of_seven_uses_the_shared_cards():
    """Hold'em (第3 10): best five of seven; four of a kind on the board is decided by the kicker (reading)."""
    assert values("AS 2D 9C 9D 9H 9S 3C") > values("KS QD 9C 9D 9H 9S 3C")
    assert values("2S 3D 9C 9D 9H 9S AC") == values("KS QD 9C 9D 9H 9S AC")
    assert ph.category_name(values("AS 2S 3S 4S 5S 5D 5H")) == "straight_flush"


@pytest.mark.parametrize("stronger, weaker, rule", [
    ("3S 2S AS", "AH AD AC", "5-4-イ (1) above (2)"),
    ("2H 2D 2C", "AS KD QC", "5-4-イ (2) three of a kind above (3) straight"),
    ("3S 2D AC", "AS KS 9S", "5-4-イ (3) straight above (4) flush"),
    ("AS KS 9S", "AH AD KC", "5-4-イ (4) above (5)"),
    ("2H 2D 3C", "AS KD JC", "5-4-イ (5) above (6)"),
    ("4S 3D 2C", "3S 2D AC", "5-4-ロ-(3): 3-2-A the lowest straight"),
    ("AS KD QC", "KS QD JC", "5-4-ロ-(3): A-K-Q the highest straight"),
    ("AH AD 2C", "KS KD AC", "5-4-ロ-(1): the higher pair"),
    ("KS KD AC", "KH KC QC", "5-4-ロ-(1): then the odd card"),
    ("AS 5D 3C", "AH 5H 2C", "5-4-ロ-(2): card by card"),
])
def test_three_card_rules(stronger, weaker, rule):
    assert values(stronger, "three") > values(weaker, "three"), rule


def test_three_cards_do_not_wrap_past_the_ace():
    assert ph.category_name(values("KS AD 2C", "three"), three=True) == "high_card"


@pytest.mark.parametrize("better, worse, rule", [
    ("AS 2D 3C 4H 5S 9D KC", "AS 2D 3C 4H 6S 9D KC", "9-11: A-2-3-4-5 the best low"),
    ("7S 5D 4C 3H 2S KD KC", "8S 4D 3C 2H AS KD KC", "9-11: the lower highest card wins"),
    ("8S 6D 4C 3H 2S KD KC", "8S 6D 5C 3H 2S KD KC", "9-11: then the next card"),
])
def test_eight_or_better_low(better, worse, rule):
    assert values(better, "low8") > values(worse, "low8") > 0, rule


@pytest.mark.parametrize("hand", ["AS 2D 3C 4H 9S KD KC", "AS AD 3C 4H 5S 5D KC", "9S 2D 3C 4H 5S KD KC"])
def test_no_qualifying_low(hand):
    """9-11: five different ranks, all A..8, or no low (0)."""
    assert values(hand, "low8") == 0


def test_omaha_uses_exactly_two_hole_and_three_board_cards():
    """9-8-イ-(1): four board spades and one hole spade make no flush; one hole ace and
    four low board cards make no low."""
    hole, board = "AS KD QC JH", "2S 5S 8S 9S KC"
    assert ph.category_name(values(f"{hole} {board}", "omaha-hi")) != "flush"
    assert ph.category_name(values("AS KS QC JH 2S 5S 8S 9D KC", "omaha-hi")) == "flush"
    assert values("AS KD QC JH 2S 3D 4C 5H KC", "omaha-lo") == 0
    assert values("AS 2D QC JH 3S 4D 5C 9H KC", "omaha-lo") == values("AS 2D 3S 4D 5C 9H KC", "low8")


@pytest.mark.parametrize("hands, kind", [
    ([[0, 1, 2, 3, 52]], "best5"),
    ([[0, 1, 2, 3, 3]], "best5"),
    ([[0, 1, 2, 3]], "best5"),
    ([[0, 1, 2, 3, 4]], "three"),
    ([[0, 1, 2, 3, 4]], "omaha-hi"),
])
def test_bad_hands_are_refused(hands, kind):
    with pytest.raises(ValueError):
        ph.rank(hands, kind)


def test_bad_card_labels_are_refused():
    with pytest.raises(ValueError, match="unknown card"):
        ph.parse("AS 1H")


def test_force_portable_selects_the_portable_path():
    """RNGCERT_FORCE_PORTABLE=1 (dispatch.h) selects the portable lookup loop here too."""
    code = "from harness.kernels import lib; print(lib.kern_pk_get_impl())"
    env = {**os.environ, "RNGCERT_FORCE_PORTABLE": "1", "PYTHONSAFEPATH": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert int(out.stdout) == lib.KERN_PK_IMPL_PORTABLE
