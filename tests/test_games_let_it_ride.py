"""Let It Ride (000 別表第1 第3 8): the completion counts against the reference
evaluator, the exact decisions, the published house edge, the simulation
through the deck device and the command line."""
from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner

import poker_reference as ref
import rngcore
from harness.cli import main
from harness.games import let_it_ride as lir
from harness.games import poker_hands as ph

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def _reference_class(hand) -> int:
    key = ref.five_key(hand)
    if key[0] == 2:
        return ph.STUD_PAIR_CLASS + key[1] - 2
    return key[0]


@pytest.mark.parametrize("known, picks", [(3, 12), (4, 40)])
def test_completion_counts_match_the_reference(known, picks):
    counts = ph.completion_classes(known)
    rng = np.random.default_rng(known)  # which sets to check (test data only)
    for index in rng.choice(counts.shape[0], picks, replace=False):
        cards = _nth_set(int(index), known)
        expected = np.zeros(ph.STUD_CLASSES, dtype=np.int64)
        rest = [c for c in range(52) if c not in cards]
        for more in itertools.combinations(rest, 5 - known):
            expected[_reference_class(tuple(cards) + more)] += 1
        assert (counts[index] == expected).all(), cards
        assert ph.lex_index([cards])[0] == index


def _nth_set(index: int, k: int) -> tuple[int, ...]:
    return next(itertools.islice(itertools.combinations(range(52), k), index, None))


def test_every_five_card_class_and_lex_index():
    assert (ph.completion_classes(5).sum(axis=0)[[1, 3, 4, 5, 6, 7, 8, 9, 10]]
            == [1302540, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]).all()
    assert ph.completion_classes(5)[:, ph.STUD_PAIR_CLASS:].sum() == 1098240
    hands = np.array(list(itertools.islice(itertools.combinations(range(52), 5), 0, 2598960, 9973)))
    assert (ph.lex_index(hands) == np.arange(0, 2598960, 9973)).all()
    assert (ph.completion_class(hands) == ph.completion_classes(5)[ph.lex_index(hands)].argmax(axis=1)).all()


def test_published_house_edge():
    """000's pay table is the usual one (1000-200-50-11-8-5-3-2-1, pair of 10s):
    house edge 3.51 % per unit (toolsgambling.com, "Let It Ride Strategy", 2026;
    gamblingmy.com: "about roughly 3.5 %")."""
    a = lir.analyse()
    assert round(a.parameters["house_edge_per_unit_float"] * 100, 2) == 3.51


def test_decisions_keep_the_textbook_hands():
    """The computed decisions keep a paying pair, a three-card royal, four to a flush and an open
    straight with two high cards; they take back a low pair, and 5-6-7-8 (expectation exactly 0: a tie)."""
    keep3 = lir._kept(3)
    for cards, kept in (("10S 10D 2C", True), ("AS KS QS", True), ("9S 9D 2C", False), ("2S 7D JC", False)):
        assert bool(keep3[ph.lex_index([ph.parse(cards)])[0]]) == kept, cards
    keep4 = lir._kept(4)
    for cards, kept in (("2S 5S 9S KS", True), ("8C 9D 10H JS", True), ("5C 6D 7H 8S", False), ("2C 3D 7H 8S", False)):
        assert bool(keep4[ph.lex_index([ph.parse(cards)])[0]]) == kept, cards


def test_simulation_and_cli():
    sim = lir.simulate(20000, rngcore.Generator(SEED, stream=8))
    assert sim.rounds == 20000 and all(b.inside for b in sim.bets)
    assert sim.verdict == "pass"
    result = CliRunner().invoke(main, ["game", "let-it-ride", "--json"])
    assert result.exit_code == 0, result.output
    assert [b["name"] for b in json.loads(result.output)["bets"]] == ["spot_1", "spot_2", "spot_3"]


def test_bad_input():
    with pytest.raises(ValueError, match="strategy must be optimal"):
        lir.analyse("blind")
    with pytest.raises(ValueError, match="2..5 known cards"):
        ph.completion_classes(1)
