"""Mississippi Stud (000 別表第1 第3 7): the ante and the three street bets of
1, 2 or 3 antes, the customer's decisions computed exactly by backward
induction, and rounds played through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1499-1581 (digest ``rules/poker.md``
§6; the original wins where they differ).  Hand ranks: 3-1, 3-2
(:data:`harness.games.poker_hands.FIVE_CARD_RANKS`).  The customer holds 2
cards and 3 community cards lie face down (7-3); before each community card
is turned up he folds, losing every stake placed (7-4-イ-(1)), or bets 1, 2
or 3 antes on the street (7-4-イ-(2), 7-5, 7-6).  The final five cards win
with a pair of jacks or better, push with a pair of 6s to 10s and lose
otherwise (7-7-ロ); a win pays the ante and every street bet by the table
(7-8-ロ).

Exact method: for every set of 4 cards the classes of its 48 completions are
counted in C (``csrc/kernels/stud_classes.h``); the best action for each set
of 2, 3 and 4 cards in view and each amount staked so far is found by
backward induction in exact integers (every value is a whole number of
antes times the completions), and the round's outcomes are carried forward
through those decisions.  A tie of expectations makes the larger stake (bet
rather than fold, the larger bet), as in the published analysis.
"""
from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from harness.games import poker_hands as ph
from harness.games._deck_game import DeckGame, play_deals
from harness.games.base import Analysis, Strategy
from harness.games.core import BetRule, LOSE, PUSH, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import Simulation

SOURCE = "000 別表第1 第3 7"

# 7-8-ロ (1)..(9): odds on the ante and on every street bet.
PAYS = (
    ("royal_flush", odds(500), f"{SOURCE} 7-8-ロ-(1)"),
    ("straight_flush", odds(100), f"{SOURCE} 7-8-ロ-(2)"),
    ("four_of_a_kind", odds(40), f"{SOURCE} 7-8-ロ-(3)"),
    ("full_house", odds(10), f"{SOURCE} 7-8-ロ-(4)"),
    ("flush", odds(6), f"{SOURCE} 7-8-ロ-(5)"),
    ("straight", odds(4), f"{SOURCE} 7-8-ロ-(6)"),
    ("three_of_a_kind", odds(3), f"{SOURCE} 7-8-ロ-(7)"),
    ("two_pair", odds(2), f"{SOURCE} 7-8-ロ-(8)"),
    ("pair_j_or_better", odds(1), f"{SOURCE} 7-8-ロ-(9)"),
)
# 7-7-ロ: a pair of 6s to 10s is 引分け (every stake returned); a pair of 5s or lower, or less, loses.
PUSH_PAIRS = (("6", "7", "8", "9", "10"), f"{SOURCE} 7-7-ロ")
WINNING_PAIRS = (("J", "Q", "K", "A"), f"{SOURCE} 7-2-ハ, 7-7-ロ")
# 7-4-イ-(2), 7-5, 7-6: each street bet is 1, 2 or 3 antes; (1): a fold collects every stake placed.
STREET_BETS = ((1, 2, 3), f"{SOURCE} 7-4-イ-(2)")
STREETS = (("3rd", f"{SOURCE} 7-4"), ("4th", f"{SOURCE} 7-5"), ("5th", f"{SOURCE} 7-6"))

PLAYER_STRATEGIES = (
    Strategy("optimal", "fold or bet 1, 2 or 3 antes on each street (7-4, 7-5, 7-6) by the largest exact "
                        "expectation, computed by backward induction for every set of cards in view and every "
                        "amount staked; a tie makes the larger stake"),
)


def class_labels() -> list[str | None]:
    """The pay-table label of each completion class of ``stud_classes.h`` (None: unused)."""
    def pair(rank: str) -> str:
        return "pair_j_or_better" if rank in WINNING_PAIRS[0] else "pair_6_to_10" if rank in PUSH_PAIRS[0] else "lose"
    return ph.stud_class_labels({name for name, *_ in PAYS}, pair)


def _pays() -> dict[str | None, Fraction]:
    return {name: pay for name, pay, _ in PAYS} | {"pair_6_to_10": PUSH, "lose": LOSE, None: Fraction(0)}


def _nets() -> np.ndarray:
    return np.array([int(_pays()[label]) for label in class_labels()], dtype=np.int64)


# ------------------------------------------------------- exact induction --

@functools.lru_cache(maxsize=None)
def _growth(known: int) -> np.ndarray:
    """For every set of ``known`` cards (lexicographic) and every card it lacks
    (ascending), the index of the set with that card added: (C(52, k), 52 - k)."""
    sets = np.array(list(itertools.combinations(range(52), known)), dtype=np.int64)
    present = np.zeros((len(sets), 52), dtype=bool)
    present[np.arange(len(sets))[:, None], sets] = True
    others = np.nonzero(~present)[1].reshape(len(sets), 52 - known)
    grown = np.concatenate([np.repeat(sets, 52 - known, axis=0), others.reshape(-1, 1)], axis=1)
    return ph.lex_index(grown).reshape(len(sets), 52 - known)


def _best(fold: np.ndarray, bets: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The largest of fold and each bet (value arrays), ties to the larger stake: (value, action 0..3)."""
    value, action = fold.copy(), np.zeros(fold.shape, dtype=np.int64)
    for k, v in enumerate(bets, start=1):
        better = v >= value
        value = np.where(better, v, value)
        action = np.where(better, k, action)
    return value, action


def decisions() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The optimal action (0 fold, else antes bet) for every set of 2, 3 and 4
    cards in view and every stake so far: arrays (1326,), (22100, 3) for
    stakes 2..4 and (270725, 5) for stakes 3..7."""
    return induction()[1:]


def street_action(cards, staked: int) -> int:
    """The optimal action (0 fold, else the antes bet on the street) with ``cards`` in view (2, 3 or 4 card
    indices 0..51, in any order) and ``staked`` antes staked so far (:func:`decisions`)."""
    known = len(cards)
    row = decisions()[known - 2][int(ph.lex_index([list(cards)])[0])]
    if known == 2:
        return int(row)
    least = known - 1  # a row of 3 or 4 cards holds one action per stake so far, from the least: 1 ante a street
    return int(row[staked - least])


def start_values() -> np.ndarray:
    """The exact expected net per ante of each two-card start played optimally (1326 fractions)."""
    return np.array([Fraction(int(v), 48 * 49 * 50) for v in induction()[0]], dtype=object)


@functools.lru_cache(maxsize=None)
def induction() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Backward induction: the value of every two-card start (in 1 / (50 49 48)
    antes) and the actions of :func:`decisions`."""
    per4 = ph.completion_classes(4).astype(np.int64) @ _nets()  # per unit staked, times 48
    units4 = 48
    stakes4 = np.arange(3, 8)
    v4, a4 = _best(-units4 * stakes4[None, :] + 0 * per4[:, None],
                   [(stakes4[None, :] + k) * per4[:, None] for k in STREET_BETS[0]])
    grow3 = _growth(3)
    stakes3 = np.arange(2, 5)
    units3 = units4 * 49
    v3, a3 = _best(np.broadcast_to(-units3 * stakes3, (grow3.shape[0], 3)).copy(),
                   [v4[grow3][:, :, stakes3 + k - 3].sum(axis=1) for k in STREET_BETS[0]])
    grow2 = _growth(2)
    units2 = units3 * 50
    v2, a2 = _best(np.full(grow2.shape[0], -units2, dtype=np.int64),
                   [v3[grow2][:, :, k - 1].sum(axis=1) for k in STREET_BETS[0]])
    for array in (v2, a2, a3, a4):
        array.flags.writeable = False
    return v2, a2, a3, a4


def ante_rule() -> BetRule:
    """The ante and the street bets as one bet per unit of ante: folds by street and
    stake, showdowns by final hand and total stake (the net is the total times the odds)."""
    entries = [("fold_3rd", Where(outcome="fold_3rd"), LOSE)]
    entries += [(f"fold_4th_{s}", Where(outcome=f"fold_4th_{s}"), Fraction(-s)) for s in range(2, 5)]
    entries += [(f"fold_5th_{s}", Where(outcome=f"fold_5th_{s}"), Fraction(-s)) for s in range(3, 8)]
    pays = _pays()
    for hand in [name for name, *_ in PAYS] + ["pair_6_to_10", "lose"]:
        entries += [(f"{hand}_{t}", Where(hand=hand, stake=t), t * pays[hand]) for t in range(4, 11)]
    sources = ", ".join(dict.fromkeys([STREET_BETS[1], *(s for _, s in STREETS), PUSH_PAIRS[1], WINNING_PAIRS[1]]
                                      + [s for *_, s in PAYS]))
    return BetRule("ante", sources, rows(*entries),
                   push_labels=frozenset(f"pair_6_to_10_{t}" for t in range(4, 11)),
                   note="net per unit of ante; fold_4th_S / fold_5th_S: folded with S antes staked; HAND_T: the "
                        "final hand with T antes staked in all (ante and the three street bets)")


@functools.lru_cache(maxsize=None)
def analyse(strategy: str = "optimal") -> Analysis:
    """Exact result of the ante with its street bets (every deal of 2 + 3 cards, in order)."""
    if strategy != "optimal":
        raise ValueError(f"mississippi-stud strategy must be optimal, got {strategy!r}")
    a2, a3, a4 = decisions()
    grow2, grow3 = _growth(2), _growth(3)
    weights: dict[str, int] = {"fold_3rd": int((a2 == 0).sum()) * 50 * 49 * 48}
    mass3 = np.zeros((grow3.shape[0], 3), dtype=np.int64)      # paths reaching each 3-set, by stake 2..4
    played = a2 > 0
    np.add.at(mass3, (grow2[played].ravel(), np.repeat(a2[played] - 1, 50)), 1)
    mass4 = np.zeros((ph.completion_classes(4).shape[0], 5), dtype=np.int64)  # stakes 3..7
    for s in range(3):
        stake = s + 2
        folded = (a3[:, s] == 0)
        weights[f"fold_4th_{stake}"] = int(mass3[folded, s].sum()) * 49 * 48
        live = ~folded & (mass3[:, s] > 0)
        np.add.at(mass4, (grow3[live].ravel(), np.repeat(stake + a3[live, s] - 3, 49)),
                  np.repeat(mass3[live, s], 49))
    counts4 = ph.completion_classes(4).astype(np.int64)
    labels = class_labels()
    for s in range(5):
        stake = s + 3
        folded = a4[:, s] == 0
        weights[f"fold_5th_{stake}"] = int(mass4[folded, s].sum()) * 48
        for bet in STREET_BETS[0]:
            here = a4[:, s] == bet
            summed = mass4[here, s] @ counts4[here]
            for k, label in enumerate(labels):
                if label is not None and summed[k]:
                    key = f"{label}_{stake + bet}"
                    weights[key] = weights.get(key, 0) + int(summed[k])
    deals = math.comb(52, 2) * 50 * 49 * 48
    result = result_from_weights(ante_rule(), weights, deals)
    wagered = sum((Fraction(w, deals) * _stake(label) for label, w in weights.items()), Fraction(0))
    per_total = result.house_edge / wagered
    parameters = {
        "strategy": strategy,
        "deals": deals,
        "average_wagered_in_antes": f"{wagered.numerator}/{wagered.denominator}",
        "average_wagered_in_antes_float": float(wagered),
        "house_edge_per_total_wagered": f"{per_total.numerator}/{per_total.denominator}",
        "house_edge_per_total_wagered_float": float(per_total),
        "folded_on_3rd_street": int((a2 == 0).sum()),
    }
    note = (f"ante is per unit of ante; per total wagered {float(per_total) * 100:.4f} % "
            f"({float(wagered):.4f} antes wagered on average); every deal of 2 + 3 cards enumerated")
    return Analysis("mississippi-stud", "standard", parameters, (result,), note, strategy)


def _stake(label: str) -> int:
    """Antes staked in all in a class of :func:`ante_rule`."""
    return 1 if label == "fold_3rd" else int(label.rsplit("_", 1)[1])


# ------------------------------------------------------------ simulation --

def simulate(rounds: int, generator, strategy: str = "optimal", progress=None, chunk: int = 1 << 15) -> Simulation:
    """Play ``rounds`` rounds through the ``deck`` device: one fresh shuffle per
    round, the customer's cards its first two, the community cards the next
    three, turned up in that order (7-3 .. 7-6)."""
    exact = analyse(strategy)
    a2, a3, a4 = decisions()
    labels = np.array([label or "" for label in class_labels()], dtype=object)
    tally: dict[str, int] = {}

    def add(label: str, count: int) -> None:
        if count:
            tally[label] = tally.get(label, 0) + count

    def settle(cards: np.ndarray) -> None:
        bet3 = a2[ph.lex_index(cards[:, :2])]
        stake = 1 + bet3
        bet4 = np.where(bet3 > 0, a3[ph.lex_index(cards[:, :3]), np.clip(stake - 2, 0, 2)], 0)
        after4 = stake + bet4
        bet5 = np.where(bet4 > 0, a4[ph.lex_index(cards[:, :4]), np.clip(after4 - 3, 0, 4)], 0)
        final = labels[ph.completion_class(cards[:, :5])]
        add("fold_3rd", int((bet3 == 0).sum()))
        for s in range(2, 5):
            add(f"fold_4th_{s}", int(((bet3 > 0) & (bet4 == 0) & (stake == s)).sum()))
        for s in range(3, 8):
            add(f"fold_5th_{s}", int(((bet4 > 0) & (bet5 == 0) & (after4 == s)).sum()))
        shown = bet5 > 0
        keys = np.char.add(np.char.add(final[shown].astype(str), "_"), (after4 + bet5)[shown].astype(str))
        for label, count in zip(*np.unique(keys, return_counts=True)):
            add(str(label), int(count))

    return play_deals("mississippi-stud", rounds, generator, progress, chunk, settle, [(exact.bets[0], tally)],
                      dealt="customer: cards 1-2, community: 3-5, turned up in order",
                      note="outcome chi-square: the ante classes vs their exact probabilities")


class MississippiStudGame(DeckGame):
    name = "mississippi-stud"
    summary = "Mississippi Stud: ante and three street bets of 1-3 antes, decided by exact backward induction"
    rules = f"{SOURCE} (seed L1499-1581)"
    #: 7-11 applies 4-9 with 「二ハの（1）及び（2）に掲げる」 read as 「72のハに規定する」 and 「それら」 as
    #: 「それ」 (seed L1577): the ante of 7-2-ハ only; 7-12 applies 4-10-イ with its proviso read as
    #: 「77のイの処理が終了した」 (seed L1581).
    etable = ETable("000 別表第1 第3 7-11 (applying 4-9)", ("standard",), ("ante",),
                    "000 別表第1 第3 7-11 (L1577, applying 4-9): the bet of 7-2-ハ only (the ante; the street bets "
                    "are its procedure, 7-4 .. 7-6)",
                    "7-7-イ processing (the customer's hand revealed) is finished", "000 別表第1 第3 7-12",
                    note="the street bets (7-4-イ-(2), 7-5, 7-6) are additional stakes of the ante's round, each a "
                         "decision; 7-8 states no rounding (every odds is whole)")
    strategies = PLAYER_STRATEGIES
    analysis = staticmethod(analyse)
    simulation = staticmethod(simulate)


GAMES = (MississippiStudGame(),)
