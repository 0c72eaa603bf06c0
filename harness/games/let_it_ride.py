"""Let It Ride (000 別表第1 第3 8): the three spots of one set, the customer's
two decisions to take a spot back computed exactly, and rounds played
through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1583-1637 (digest ``rules/poker.md``
§7; the original wins where they differ).  Hand ranks: 3-1, 3-2
(:data:`harness.games.poker_hands.FIVE_CARD_RANKS`).  The customer holds 3
cards, 2 community cards are face down (8-3); after seeing his cards he may
take back the 1st spot (8-4), after the first community card the 2nd spot
(8-5, independent of the first decision); the 3rd spot stays.  Every spot
still in place is paid by the final hand (8-6, 8-7 applying 7-8).

Exact method: for every set of 3, 4 and 5 cards the classes of all its
completions are counted in C (``csrc/kernels/stud_classes.h``); a spot is
kept exactly when its expectation with the cards in view is positive (a tie
takes it back), so each decision is optimal and the three spots are settled
from the same counts in exact fractions.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from harness.games import poker_hands as ph
from harness.games._deck_game import DeckGame, play_deals
from harness.games.base import Analysis, Strategy
from harness.games.core import BetRule, LOSE, PUSH, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import Simulation

SOURCE = "000 別表第1 第3 8"

# 8-7 (applying 7-8 with the substitutions of 8-7): odds on every spot in place.
PAYS = (
    ("royal_flush", odds(1000), f"{SOURCE} 8-7 (7-8-(1))"),
    ("straight_flush", odds(200), f"{SOURCE} 8-7 (7-8-(2))"),
    ("four_of_a_kind", odds(50), f"{SOURCE} 8-7 (7-8-(3))"),
    ("full_house", odds(11), f"{SOURCE} 8-7 (7-8-(4))"),
    ("flush", odds(8), f"{SOURCE} 8-7 (7-8-(5))"),
    ("straight", odds(5), f"{SOURCE} 8-7 (7-8-(6))"),
    ("three_of_a_kind", odds(3), f"{SOURCE} 8-7 (7-8-(7))"),
    ("two_pair", odds(2), f"{SOURCE} 8-7 (7-8-(8))"),
    ("pair_10_or_better", odds(1), f"{SOURCE} 8-7 (7-8-(9))"),
)
# 8-2, 8-6: the set wins with a pair of 10s or better; no push.
LOWEST_PAYING_PAIR = ("10", f"{SOURCE} 8-2, 8-6")
SPOTS = (("spot_1", 3, f"{SOURCE} 8-4"), ("spot_2", 4, f"{SOURCE} 8-5"), ("spot_3", 5, f"{SOURCE} 8-6"))

PLAYER_STRATEGIES = (
    Strategy("optimal", "take a spot back (8-4, 8-5) unless keeping it has a positive exact expectation with the "
                        "cards in view (a tie takes it back)"),
)


def class_labels() -> list[str | None]:
    """The pay-table label of each completion class of ``stud_classes.h`` (None: unused)."""
    lowest = ph.PAIR_RANKS.index(LOWEST_PAYING_PAIR[0])
    return ph.stud_class_labels({name for name, *_ in PAYS},
                                lambda rank: "pair_10_or_better" if ph.PAIR_RANKS.index(rank) >= lowest else "lose")


def _nets() -> np.ndarray:
    pays = {name: pay for name, pay, _ in PAYS} | {"lose": LOSE, None: Fraction(0)}
    return np.array([int(pays[label]) for label in class_labels()], dtype=np.int64)


TAKEN_BACK = "taken_back"  # the class of a spot taken back (8-4-イ, 8-5): its stake returned
BET = BetRule(f"spot", f"{SOURCE} 8-2, 8-6, 8-7", rows(*((name, Where(hand=name), pay) for name, pay, _ in PAYS)),
              push_labels=frozenset({TAKEN_BACK}))


def spot_rule(name: str, source: str, feature: str = "hand") -> BetRule:
    """The rule of spot ``name`` (decided by ``source``): the pay table of the final hand read from the
    feature ``feature`` (a round reads each spot's own: one may be taken back while another rides) and,
    but for the 3rd spot (8-6), :data:`TAKEN_BACK`, the stake returned."""
    extra = () if name == "spot_3" else ((TAKEN_BACK, PUSH),)
    table = [(label, pay) for label, pay, _ in PAYS] + list(extra)
    return BetRule(name, f"{source}, {BET.source}",
                   rows(*((label, Where(**{feature: label}), pay) for label, pay in table)), push_labels=BET.push_labels,
                   note="per unit on this spot; a spot taken back is returned" if extra else "never taken back")


@functools.lru_cache(maxsize=None)
def _kept(known: int) -> np.ndarray:
    """Whether a spot decided with each set of ``known`` cards in view is kept (5: always)."""
    counts = ph.completion_classes(known)
    if known == 5:
        return np.ones(counts.shape[0], dtype=bool)
    return counts.astype(np.int64) @ _nets() > 0


def keeps(cards) -> bool:
    """Whether the optimal strategy keeps the spot decided with ``cards`` in view (card indices 0..51):
    the customer's three for the 1st spot (8-4), with the first community card for the 2nd (8-5)."""
    return bool(_kept(len(cards))[int(ph.lex_index([list(cards)])[0])])


def hand_label(cards) -> str:
    """The pay-table class of the customer's hand: its three cards and the two community cards (8-6, 8-7)."""
    label = class_labels()[int(ph.completion_class(np.array([list(cards)]))[0])]
    if label is None:
        raise ValueError(f"let-it-ride: {list(cards)} is not a five-card hand")
    return label


@functools.lru_cache(maxsize=None)
def analyse(strategy: str = "optimal") -> Analysis:
    """Exact results of the three spots (every deal of 3 + 2 cards)."""
    if strategy != "optimal":
        raise ValueError(f"let-it-ride strategy must be optimal, got {strategy!r}")
    labels = class_labels()
    results, kept_share = [], {}
    for name, known, source in SPOTS:
        counts = ph.completion_classes(known).astype(np.int64)
        keep = _kept(known)
        per_set = math.comb(52 - known, 5 - known)
        total = counts.shape[0] * per_set
        summed = counts[keep].sum(axis=0)
        weights: dict[str, int] = {TAKEN_BACK: int((~keep).sum()) * per_set}
        for k, label in enumerate(labels):
            if label is not None and summed[k]:
                weights[label] = weights.get(label, 0) + int(summed[k])
        results.append(result_from_weights(spot_rule(name, source), weights, total))
        kept_share[name] = Fraction(int(keep.sum()), counts.shape[0])
    net = sum((r.expected_net for r in results), Fraction(0))
    in_play = sum(kept_share.values(), Fraction(0))
    parameters = {
        "strategy": strategy,
        "deals": math.comb(52, 5),
        "house_edge_per_unit": f"{(-net).numerator}/{(-net).denominator}",
        "house_edge_per_unit_float": float(-net),
        "house_edge_per_unit_in_play": f"{(-net / in_play).numerator}/{(-net / in_play).denominator}",
        "house_edge_per_unit_in_play_float": float(-net / in_play),
        "spots_kept": {k: f"{v.numerator}/{v.denominator}" for k, v in kept_share.items()},
    }
    note = ("per unit of one spot; the set's house edge is per unit (one of the three equal stakes) and per unit "
            f"left in play at the showdown ({float(in_play):.4f} units on average)")
    return Analysis("let-it-ride", "standard", parameters, tuple(results), note, strategy)


def simulate(rounds: int, generator, strategy: str = "optimal", progress=None, chunk: int = 1 << 15) -> Simulation:
    """Play ``rounds`` rounds through the ``deck`` device: one fresh shuffle per
    round, the customer's cards its first three, the community cards the next two."""
    exact = analyse(strategy)
    labels = np.array([label or "" for label in class_labels()], dtype=object)
    tallies = {name: {} for name, *_ in SPOTS}

    def settle(cards: np.ndarray) -> None:
        final = ph.completion_class(cards[:, :5])
        for name, known, _ in SPOTS:
            keep = _kept(known)[ph.lex_index(cards[:, :known])]
            tally = tallies[name]
            if (~keep).any():
                tally[TAKEN_BACK] = tally.get(TAKEN_BACK, 0) + int((~keep).sum())
            for label, count in zip(*np.unique(labels[final[keep]], return_counts=True)):
                tally[label] = tally.get(label, 0) + int(count)

    return play_deals("let-it-ride", rounds, generator, progress, chunk, settle,
                      [(exact.bet(name), tallies[name]) for name, *_ in SPOTS], tested=2,
                      dealt="customer: cards 1-3, community: 4-5",
                      note="outcome chi-square: the final hand's classes (spot 3) vs their exact probabilities")


class LetItRideGame(DeckGame):
    name = "let-it-ride"
    summary = "Let It Ride: three equal spots, two taken back or kept by the exact optimal decision"
    rules = f"{SOURCE} (seed L1583-1637)"
    etable = ETable("000 別表第1 第3 8-10 (applying 4-9)", ("standard",), ("spot_1", "spot_2", "spot_3"),
                    "000 別表第1 第3 8-10: the three-spot bet only", "8-6-イ processing is finished",
                    "000 別表第1 第3 8-11")
    strategies = PLAYER_STRATEGIES
    analysis = staticmethod(analyse)
    simulation = staticmethod(simulate)


GAMES = (LetItRideGame(),)
