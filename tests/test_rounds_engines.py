"""The registered round engines (harness.rounds.engines): Casino War and Pai Gow rounds.

Casino War: every four-card pattern of a fresh 8-deck stack, weighted by its ways, classified by
the engine, gives exactly the game module's first-round class probabilities (the e-table round
is the first round of a fresh stack), and the bets split as the module's combined main bet pays.
Pai Gow: hand-made deals settle as 9-2 says, and the outcome shares of seeded rounds sit within
a loose band of the module's exact enumeration over every deal.
"""
import itertools
import math
from fractions import Fraction as F

import pytest

import rngcore
from harness.games import casino_war as cw
from harness.games import pai_gow as pg
from harness.rounds import Bet, Round, RoundError
from harness.rounds.engine import ROUND_ENGINES
from harness.rounds.engines.casino_war import ADDITIONAL, MAIN, TIE
from harness.rounds.table import rules_for
from rngcore.devices import cards
from rngcore.devices.tiles import TILE_SET
from tests.rounds_support import SEED


def test_the_engines_are_registered_by_their_modules():
    assert {"casino-war", "pai-gow"} <= set(ROUND_ENGINES)
    assert rules_for("casino-war").engine is ROUND_ENGINES["casino-war"]
    assert rules_for("baccarat").engine.name == "baccarat"  # a game's own engine comes first


def _codes(ranks):
    """Four distinct card codes of these ranks (suits and decks chosen apart)."""
    return [cards.encode(r, i % 4, i // 4) for i, r in enumerate(ranks)]


@pytest.mark.parametrize("strategy", ["war", "surrender"])
def test_war_rounds_have_the_first_round_probabilities_of_a_fresh_stack(strategy):
    """Every rank pattern of the first two cards and, after a tie, of the two war cards, by its ways."""
    engine = ROUND_ENGINES["casino-war"]
    n, per_rank = 52 * 8, 32
    exact = {}
    for first in itertools.product(range(1, 14), repeat=2):
        tied = first[0] == first[1]
        for war in itertools.product(range(1, 14), repeat=2) if tied else [(2, 3)]:
            ranks = first + war
            ways, taken = 1, {}
            for r in ranks if tied else first:
                ways *= per_rank - taken.get(r, 0)
                taken[r] = taken.get(r, 0) + 1
            label = engine.round_dealt("standard", {"cards": _codes(ranks)}, strategy=strategy).record["class"]
            exact[label] = exact.get(label, 0) + ways * (1 if tied else (n - 2) * (n - 3))
    total = n * (n - 1) * (n - 2) * (n - 3)
    expected = cw.first_round(cw.standard_shoe(8), strategy).class_probabilities()
    assert {k: F(v, total) for k, v in exact.items()} == {k: p for k, p in expected.items() if p}


def test_war_bets_split_the_modules_main_bet_per_class():
    for label in cw.CLASSES:
        features = cw.class_features(label)
        combined = cw.main_bet(2).classify(features).pays
        main, additional = MAIN.classify(features).pays, ADDITIONAL.classify(features).pays
        assert main + (additional if label.startswith("war_") else 0) == combined, label
        if not label.startswith("war_"):
            assert additional == 0  # no war: the additional stake is returned untouched
        assert TIE.classify(features).pays == cw.TIE_BET.classify(features).pays


def test_a_war_round_deals_the_war_cards_only_on_a_tie():
    engine = ROUND_ENGINES["casino-war"]
    win = engine.round_dealt("standard", {"cards": _codes((1, 13, 2, 2))})  # A beats K
    assert win.record["class"] == "win" and win.record["used"] == 2
    war = engine.round_dealt("standard", {"cards": _codes((7, 7, 2, 2))})
    assert war.record["class"] == "war_tie" and "war:" in war.shown
    gone = engine.round_dealt("standard", {"cards": _codes((7, 7, 2, 2))}, strategy="surrender")
    assert gone.record["class"] == "surrender"
    r = Round("casino-war", options={"strategy": "surrender"})
    r.place(Bet("ann", "main", 100))
    r.close()
    r.drawn(gone, None)
    r.determine()
    r.settle()
    t = r.totals()
    assert (t["returned"], t["collected"], t["paid"]) == (50, 50, 0)  # half the stake lost (8-1-イ)
    with pytest.raises(ValueError, match="four distinct card codes"):
        engine.round_dealt("standard", {"cards": [1, 1, 2, 3]})


@pytest.mark.parametrize("bets,words", [
    ([Bet("ann", "tie", 10)], "needs the customer's main bet"),
    ([Bet("ann", "main", 100), Bet("ann", "additional", 50)], "equals the main stake"),
    ([Bet("ann", "main", 100), Bet("bob", "main", 100)], "one customer position"),
    ([Bet("ann", "main", 100), Bet("ann", "main", 20)], "already has"),
    ([Bet("ann", "main", 101)], "fraction of a yen"),  # surrender would lose half of it
])
def test_war_refuses_what_8_1_and_4_2_refuse(bets, words):
    r = Round("casino-war")
    with pytest.raises(RoundError, match=words):
        for bet in bets:
            r.place(bet)


def _set_positions(rows):
    """Distinct tile-set positions holding these rows (in order)."""
    free = list(range(len(TILE_SET)))
    out = []
    for row in rows:
        i = next(i for i in free if TILE_SET[i] + 1 == row)
        free.remove(i)
        out.append(i)
    return out


def test_pai_gow_rounds_settle_by_9_2():
    engine = ROUND_ENGINES["pai-gow"]
    # dealer: two mixed hands of low tiles; customer: gee joon and a pair of (1) -- both hands win
    win = engine.round_dealt("standard", {"tiles": _set_positions([19, 18, 17, 16, 20, 21, 1, 1])})
    assert win.features == {"outcome": "win"} and "customer" in win.shown
    lose = engine.round_dealt("standard", {"tiles": _set_positions([20, 21, 1, 1, 19, 18, 17, 16])})
    assert lose.features == {"outcome": "lose"}
    with pytest.raises(ValueError, match="eight distinct tiles"):
        engine.round_dealt("standard", {"tiles": [0, 0, 1, 2, 3, 4, 5, 6]})
    r = Round("pai-gow")
    r.place(Bet("ann", "bet", 15))
    r.close()
    r.drawn(win, None)
    r.determine()
    r.settle()
    assert r.totals()["paid"] == 14  # 15 at 19 to 20 = 14.25, truncated (10-1)


@pytest.mark.slow
def test_pai_gow_round_outcomes_follow_the_exact_enumeration():
    _, _, _, counts = pg.analyse("house-way")
    engine = ROUND_ENGINES["pai-gow"]
    g = rngcore.Generator(SEED, stream=4)
    n = 1500
    seen = {"win": 0, "push": 0, "lose": 0}
    for _ in range(n):
        seen[engine.round_outcome(g, "standard").features["outcome"]] += 1
    for outcome, ways in counts.items():
        p = ways / pg.DEALS
        assert abs(seen[outcome] - n * p) < 5 * math.sqrt(n * p * (1 - p)), (outcome, seen)
