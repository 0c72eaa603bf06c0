"""Card shoes: conservation, cut card, burn, continuous shuffle, replay, bad input."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from rngcore import Generator
from rngcore.devices import RULE_SETS, Burn, Shoe, ShoeExhaustedError, cards, fresh_shoes, rule_set

SEED = bytes(range(32))


def gen(stream=0):
    return Generator(SEED, stream)


def all_cards(shoe: Shoe) -> Counter:
    """Every physical card the shoe can account for: dealt, in play, burned, undealt."""
    return Counter(shoe.discards) + Counter(shoe.round_cards) + Counter(shoe.burned) + Counter(shoe.stack.tolist())


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_shoe_is_a_permutation_of_its_multiset(name):
    """Across cut, burn and several reshuffles no card is lost or duplicated."""
    rules = rule_set(name)
    shoe = Shoe(gen(1), rules, decks=rules.decks[0])
    expected = Counter(cards.fresh_stack(rules.decks[0], rules.ranks).tolist())
    shuffles = 0
    for _ in range(400):
        reshuffling = shoe.reshuffle_due
        shoe.start_round()
        shuffles += reshuffling
        assert all_cards(shoe) == expected
        shoe.deal(min(7, shoe.remaining))
        assert all_cards(shoe) == expected
        shoe.end_round()
        if shuffles >= 4:
            break
    assert shuffles >= 4, "the cut card never ended a shoe"
    if rules.ranks == cards.PONTOON_RANKS:
        assert 10 not in set(cards.rank_of(np.array(list(expected))).tolist())


def test_composition_by_rank():
    shoe = Shoe(gen(), "sbo-baccarat", decks=8)  # no burn
    shoe.start_round()
    assert shoe.composition() == {r: 32 for r in cards.RANKS}
    dealt = shoe.deal(20)
    comp = shoe.composition()
    assert sum(comp.values()) == 396
    for rank, label in zip(range(1, 14), cards.RANKS):
        assert comp[label] == 32 - int(np.sum(cards.rank_of(dealt) == rank))
    pontoon = Shoe(gen(), "jp-pontoon", decks=4)
    pontoon.start_round()
    assert "10" not in pontoon.composition() and sum(pontoon.composition().values()) == 4 * 48 - 1


def test_pa_procedure_cut_and_burn():
    shoe = Shoe(gen(2), "pa-blackjack", decks=6)
    shoe.start_round()
    assert shoe.size == 312 and len(shoe.burned) == 1  # § 549.7(c)
    assert shoe.cut_card_index == 312 - 78  # one quarter (78 cards) behind the cut card
    assert shoe.remaining == 311


def test_deluxe_burns_by_value_of_first_card():
    """001: draw the first card and burn as many cards as its value (A = 1, 10/J/Q/K = 10)."""
    shoe = Shoe(gen(3), "deluxe-blackjack")
    seen = set()
    for _ in range(60):
        shoe.shuffle()
        rank = int(cards.rank_of(shoe.burn_indicator))
        value = 1 if rank == 1 else 10 if rank >= 10 else rank
        assert shoe.burned[0] == shoe.burn_indicator
        assert len(shoe.burned) == 1 + value
        assert shoe.remaining == 416 - 1 - value
        seen.add(value)
    assert {1, 10} <= seen


def test_burn_procedure_variants():
    assert Burn("by-value", ace=11).value_of_rank(1) == 11
    assert Burn("by-value").value_of_rank(12) == 10 and Burn("by-value").value_of_rank(7) == 7
    rules = rule_set("jp-baccarat").with_options(burn=Burn("count", 3))
    shoe = Shoe(gen(), rules)
    shoe.shuffle()
    assert len(shoe.burned) == 3
    no_burn = Shoe(gen(), "sbo-baccarat")
    no_burn.shuffle()
    assert no_burn.burned == [] and no_burn.remaining == 416
    counts = rule_set("deluxe-blackjack").with_options(burn=Burn("by-value", indicator_counts=True))
    shoe = Shoe(gen(4), counts)
    for _ in range(20):
        shoe.shuffle()
        rank = int(cards.rank_of(shoe.burn_indicator))
        assert len(shoe.burned) == max(1, 1 if rank == 1 else 10 if rank >= 10 else rank)
    with pytest.raises(ValueError, match="none, count, by-value"):
        Burn("two")
    with pytest.raises(ValueError, match="count >= 1"):
        Burn("count", 0)


def _shoe_with_cut_card_at(rules, front: int, decks: int = 4):
    """A shoe whose cut card has exactly `front` cards in front of it."""
    size = decks * len(rule_set(rules).ranks) * 4
    return Shoe(gen(5), rules, decks=decks, cut_card=(size - front, size - front))


def test_finish_round_after_cut_card():
    shoe = _shoe_with_cut_card_at("pa-blackjack", 6)  # burn 1: cards 0 burned, 1..5 before the cut card
    shoe.start_round()
    shoe.deal(3)
    assert shoe.end_round() is False
    shoe.start_round()
    shoe.deal(2)
    assert not shoe.cut_card_out
    shoe.deal()  # the 7th card: the cut card comes out first
    assert shoe.cut_card_out and shoe.last_round
    shoe.deal(4)
    assert shoe.end_round() is True and shoe.reshuffle_due
    shoe.start_round()
    assert shoe.shuffles == 2 and not shoe.cut_card_out and len(shoe.burned) == 1


def test_one_more_round_after_cut_card():
    shoe = _shoe_with_cut_card_at("jp-baccarat", 6)
    shoe.start_round()
    shoe.deal(4)                      # cards 1..4
    assert shoe.end_round() is False
    shoe.start_round()
    shoe.deal(4)                      # card 5, then the cut card, then 6..8
    assert shoe.cut_card_out and not shoe.last_round
    assert shoe.end_round() is False  # 第1 10: play the next round ...
    shoe.start_round()
    assert shoe.last_round
    shoe.deal(6)
    assert shoe.end_round() is True   # ... then collect and reshuffle


def test_one_more_round_cut_card_at_start_of_round():
    """第1 10: if the cut card comes out at the very start of a round, that round is the last."""
    shoe = _shoe_with_cut_card_at("jp-casino-war", 6)
    shoe.start_round()
    shoe.deal(5)                      # cards 1..5: the cut card sits before card 6
    assert shoe.end_round() is False and not shoe.cut_card_out
    shoe.start_round()
    shoe.deal()
    assert shoe.cut_card_out and shoe.last_round
    assert shoe.end_round() is True


@pytest.mark.parametrize("rules", ["pa-blackjack", "jp-baccarat"])
def test_burn_runs_into_the_cut_card(rules):
    """A burn passing the cut card: it came out before the first round, which is the last."""
    base = rule_set(rules).with_options(burn=Burn("count", 5))
    size = 4 * 52
    shoe = Shoe(gen(6), base, decks=4, cut_card=(size - 3, size - 3))
    shoe.start_round()
    assert shoe.cut_card_out and len(shoe.burned) == 5
    assert shoe.last_round
    shoe.deal(4)
    assert shoe.end_round() is True
    shoe.start_round()
    assert shoe.shuffles == 2


def test_continuous_shuffle_every_round():
    shoe = Shoe(gen(7), "jp-poker")
    seen = []
    for _ in range(3):
        shoe.start_round()
        assert shoe.remaining == 52 and shoe.cut_card_index is None and shoe.burned == []
        seen.append(tuple(shoe.deal(5).tolist()))
        assert shoe.end_round() is True
    assert shoe.shuffles == 3 and len(set(seen)) == 3
    csm = Shoe(gen(8), rule_set("pa-blackjack").with_options(continuous=True), decks=6)
    for _ in range(3):
        csm.start_round()
        assert csm.remaining == 312
        csm.deal(10)
        csm.end_round()


def test_replay_from_shuffle_position():
    g = gen(9)
    g.random_bytes(1000)  # the shoe starts mid-stream
    shoe = Shoe(g, "macau-baccarat")
    decks = []
    for _ in range(2):
        shoe.shuffle()
        decks.append((shoe.shuffle_position, shoe.stack.copy(), list(shoe.burned), shoe.cut_card_index))
    assert decks[0][0] == 1000 and decks[1][0] > 1000
    for position, stack, burned, cut in decks:
        replay = gen(9)
        replay.seek(position)
        again = Shoe(replay, "macau-baccarat")
        again.shuffle()
        assert np.array_equal(again.stack, stack) and again.burned == burned and again.cut_card_index == cut


def test_exhausted_shoe_says_so():
    shoe = Shoe(gen(10), "jp-poker")
    shoe.start_round()
    shoe.deal(50)
    shoe.deal(2)
    with pytest.raises(ShoeExhaustedError, match="shoe exhausted: cannot deal 1 card\\(s\\), 0 left of 52"):
        shoe.deal()
    with pytest.raises(ShoeExhaustedError, match="never wraps"):
        shoe.deal(3)
    big_burn = rule_set("sbo-baccarat").with_options(burn=Burn("count", 53))
    with pytest.raises(ShoeExhaustedError, match="cannot burn 53"):
        Shoe(gen(), big_burn, decks=1).shuffle()


@pytest.mark.parametrize("decks", [0, 13])
def test_bad_deck_counts(decks):
    with pytest.raises(ValueError, match="1..12"):
        Shoe(gen(), "sbo-baccarat", decks=decks)
    with pytest.raises(ValueError, match="1..12"):
        fresh_shoes(gen(), 1, decks)


def test_deck_count_outside_rule_set():
    with pytest.raises(ValueError, match="jp-baccarat: decks must be in 4..8"):
        Shoe(gen(), "jp-baccarat", decks=3)
    with pytest.raises(ValueError, match="unknown rule set 'nj'; valid: pa-blackjack"):
        Shoe(gen(), "nj")


@pytest.mark.parametrize("cut", [(0, 0), (52, 52), (10, 5), (Fraction(1, 1), Fraction(1, 1))])
def test_cut_card_outside_the_shoe(cut):
    with pytest.raises(ValueError, match="between 1 and 51 cards behind it in a 52-card shoe"):
        Shoe(gen(), "sbo-baccarat", decks=1, cut_card=cut)


def test_dealing_outside_a_round():
    shoe = Shoe(gen(), "pa-blackjack")
    with pytest.raises(ValueError, match="start_round"):
        shoe.deal()
    shoe.start_round()
    with pytest.raises(ValueError, match="already in progress"):
        shoe.start_round()


def test_fresh_shoes_bulk():
    shoes = fresh_shoes(gen(11), 50, decks=8)
    assert shoes.shape == (50, 416) and shoes.dtype == np.uint16
    fresh = np.sort(cards.fresh_stack(8))
    assert all(np.array_equal(np.sort(row), fresh) for row in shoes)
    assert len({row.tobytes() for row in shoes}) == 50
    pontoon = fresh_shoes(gen(12), 3, decks=2, pontoon=True)
    assert pontoon.shape == (3, 96) and not np.any(cards.rank_of(pontoon) == 10)
