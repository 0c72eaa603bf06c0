"""Three Card Poker (000 別表第1 第3 5): ante and play with the ante bonus, and
Pair Plus; exact returns over every deal, the customer's strategy computed
exactly, and rounds played through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1201-1337 (digest ``rules/poker.md``
§4; the original wins where they differ).  Hand ranks: 5-4
(:data:`harness.games.poker_hands.THREE_CARD_RANKS`).  Every stake, payout
and the dealer's qualification is an entry of the tables below, with its
item.  Readings where the seed is silent (digest §11):

* a Play stake when the dealer does not qualify is returned (5-7-ロ-(1)
  pays the ante only);
* a fold forfeits every stake of the customer (5-5-イ-(1): "the customer's
  stakes" are collected), Pair Plus included.  Neither strategy here folds
  a pair or better, and a hand below a pair loses Pair Plus anyway, so this
  never changes a figure: the bets are reported separately, Pair Plus as
  placed alone (5-5-ロ).

Exact method: each of the C(52,3) customer hands against each of the
C(49,3) dealer hands of the other cards (407,170,400 deals) is counted in
C (``csrc/kernels/three_card.h``) as dealer not qualified / customer
stronger / equal / weaker; every bet and strategy is settled from these
counts in exact fractions.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction
from typing import Sequence

import numpy as np

from harness.games import poker_hands as ph
from harness.games._deck_game import DeckGame, play_deals
from harness.games.base import Analysis, Strategy
from harness.games.core import BetRule, LOSE, PUSH, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import Simulation
from harness.kernels import ffi, lib
from rngcore.errors import raise_for_status

SOURCE = "000 別表第1 第3 5"
DECK = tuple(range(52))

# ------------------------------------------------------------------ rules --

# 5-6-イ-(1): a dealer hand of no pair without an A, K or Q does not qualify;
# the weakest qualifying hand is therefore Q-3-2 (values compare in 5-4 order).
DEALER_QUALIFIES_FROM = ("QS 3D 2C", f"{SOURCE} 5-6-イ")
PLAY_STAKE = (Fraction(1), f"{SOURCE} 5-5-イ-(2)")           # Play = the ante

# Net per unit of ante of ante + Play when the customer plays (5-6-ロ-(1), 5-7-イ, ロ).
ANTE_PLAY = (
    ("not_qualified", Fraction(1), f"{SOURCE} 5-7-ロ-(1)", "ante 1 to 1; Play returned (reading)"),
    ("win", Fraction(2), f"{SOURCE} 5-7-ロ-(2)", "ante 1 to 1 and Play 1 to 1"),
    ("tie", PUSH, f"{SOURCE} 5-6-ロ-(1)", "引分け: both stakes returned"),
    ("lose", Fraction(-2), f"{SOURCE} 5-7-イ", "ante and Play collected"),
)
FOLD = ("fold", LOSE, f"{SOURCE} 5-5-イ-(1)")

# 5-7-ニ: paid on the ante to every customer who did not fold, even if the ante lost.
ANTE_BONUS = (
    ("straight_flush", odds(5), f"{SOURCE} 5-7-ニ-(1)"),
    ("three_of_a_kind", odds(4), f"{SOURCE} 5-7-ニ-(2)"),
    ("straight", odds(1), f"{SOURCE} 5-7-ニ-(3)"),
)

PAIR_PLUS = BetRule(
    "pair_plus", f"{SOURCE} 5-2-ハ-(2), 5-6-ロ-(2), 5-7-ハ",
    rows(("straight_flush", Where(hand="straight_flush"), odds(40)),
         ("three_of_a_kind", Where(hand="three_of_a_kind"), odds(30)),
         ("straight", Where(hand="straight"), odds(6)),
         ("flush", Where(hand="flush"), odds(4)),
         ("one_pair", Where(hand="one_pair"), odds(1))),
    note="placed alone (5-5-ロ); with an ante, a fold forfeits it (5-5-イ-(1)), which no strategy here does "
         "on a paying hand")

# ------------------------------------------------------------- strategies --

PLAYER_STRATEGIES = (
    Strategy("optimal", "play or fold (5-5-イ) by the larger exact expectation, computed for each of the 22,100 "
                        "hands (a tie plays); it is exactly Q-6-4"),
    Strategy("q64", "play Q-6-4 or better, fold the rest (5-5-イ)"),
)
STRATEGIES = tuple(s.name for s in PLAYER_STRATEGIES)
Q64 = "QS 6D 4C"


def _value(text: str) -> int:
    return int(ph.rank([ph.parse(text)], "three")[0])


# --------------------------------------------------------- exact counting --

@dataclasses.dataclass(frozen=True, eq=False)
class Deals:
    """Every customer hand of a deck with its dealer-class counts (three_card.h)."""

    hands: tuple[tuple[int, ...], ...]
    values: np.ndarray      # uint32 [H]
    counts: np.ndarray      # uint64 [H, 4]: not qualified, stronger, equal, weaker
    dealer_hands: int       # dealer hands per customer hand, C(n - 3, 3)
    deck: tuple[int, ...]

    @property
    def deals(self) -> int:
        return len(self.hands) * self.dealer_hands

    @functools.cached_property
    def _categories(self) -> tuple[str, ...]:
        names = {r.code: r.name for r in ph.THREE_CARD_RANKS}
        return tuple(names[int(c)] for c in ph.category(self.values))

    def categories(self) -> tuple[str, ...]:
        return self._categories


@functools.lru_cache(maxsize=None)
def deals(deck: tuple[int, ...] = DECK) -> Deals:
    """Counts for every customer hand of ``deck`` (card indices) against every dealer hand."""
    deck = tuple(sorted(set(deck)))
    if len(deck) < 6 or any(not 0 <= c < 52 for c in deck):
        raise ValueError(f"a Three Card Poker deck holds 6..52 distinct cards 0..51, got {len(deck)}")
    hands = tuple(itertools.combinations(deck, 3))
    values = np.ascontiguousarray(ph.rank(np.array(hands, dtype=np.uint8), "three"))
    sets = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in hands], dtype=np.uint64)
    counts = np.zeros((len(hands), lib.KERN_TCP_CLASSES), dtype=np.uint64)
    raise_for_status(lib.kern_tcp_versus(ffi.from_buffer("uint32_t[]", values), ffi.from_buffer("uint64_t[]", sets),
                                         len(hands), _value(DEALER_QUALIFIES_FROM[0]),
                                         ffi.from_buffer("uint64_t[]", counts)), "Three Card Poker deals")
    return Deals(hands, values, counts, math.comb(len(deck) - 3, 3), deck)


def _bonus(category: str) -> Fraction:
    return next((pays for name, pays, _ in ANTE_BONUS if name == category), Fraction(0))


def play_values(d: Deals) -> np.ndarray:
    """Expected net per unit ante of playing each hand, times the dealer hands
    (exact integers: every net of the tables is a whole number of antes)."""
    nets = np.array([_whole(net) for _, net, _, _ in ANTE_PLAY], dtype=np.int64)
    bonus = np.array([_whole(_bonus(c)) for c in d.categories()], dtype=np.int64)
    return d.counts.astype(np.int64) @ nets + bonus * d.dealer_hands


def _whole(x: Fraction) -> int:
    if x.denominator != 1:
        raise ValueError(f"a Three Card Poker net of {x} antes is not whole; the integer strategy search needs it")
    return x.numerator


@functools.lru_cache(maxsize=None)
def _decisions(strategy: str, deck: tuple[int, ...]) -> np.ndarray:
    d = deals(deck)
    if strategy == "optimal":  # play when its expectation is at least the fold's (a tie plays)
        play = play_values(d) >= _whole(FOLD[1]) * d.dealer_hands
    elif strategy == "q64":
        play = d.values >= _value(Q64)
    else:
        raise ValueError(f"three-card-poker strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    play.flags.writeable = False
    return play


def decisions(strategy: str, d: Deals) -> np.ndarray:
    """Whether the customer plays each hand of ``d`` (bool array)."""
    return _decisions(strategy, d.deck)


def ante_play_rule() -> BetRule:
    """Ante + Play (+ ante bonus) as one bet per unit of ante: a class per
    (dealer outcome, bonus hand), its net from the tables above."""
    entries = [(FOLD[0], Where(outcome="fold"), FOLD[1])]
    for outcome, net, _, _ in ANTE_PLAY:
        entries.append((outcome, Where(outcome=outcome, bonus=None), net))
        entries += [(f"{outcome}+{hand}_bonus", Where(outcome=outcome, bonus=hand), net + pays)
                    for hand, pays, _ in ANTE_BONUS]
    sources = ", ".join(dict.fromkeys([FOLD[2], PLAY_STAKE[1], DEALER_QUALIFIES_FROM[1]]
                                      + [s for *_, s, _ in ANTE_PLAY] + [s for *_, s in ANTE_BONUS]))
    return BetRule("ante_play", sources, rows(*entries),
                   note="net per unit of ante; Play = ante when the customer plays")


def _label(outcome: str, category: str) -> str:
    return outcome if _bonus(category) == 0 else f"{outcome}+{category}_bonus"


@functools.lru_cache(maxsize=None)
def analyse(strategy: str = "optimal", deck: tuple[int, ...] = DECK) -> Analysis:
    """Exact results of both bets for a strategy (every deal of ``deck``)."""
    d = deals(deck)
    play = decisions(strategy, d)
    weights: dict[str, int] = {}
    for i, cat in enumerate(d.categories()):
        if not play[i]:
            weights[FOLD[0]] = weights.get(FOLD[0], 0) + d.dealer_hands
            continue
        for (outcome, *_), n in zip(ANTE_PLAY, d.counts[i]):
            label = _label(outcome, cat)
            weights[label] = weights.get(label, 0) + int(n)
    ante = result_from_weights(ante_play_rule(), weights, d.deals)
    hand_counts = {r.name: d.categories().count(r.name) for r in ph.THREE_CARD_RANKS}
    paying = {name: n for name, n in hand_counts.items() if name != "high_card"}
    pair_plus = result_from_weights(PAIR_PLUS, {**paying, "lose": hand_counts["high_card"]}, len(d.hands))
    played = Fraction(int(play.sum()), len(d.hands))
    wagered = 1 + played * PLAY_STAKE[0]
    per_total = ante.house_edge / wagered
    not_qualified = Fraction(int(d.counts[:, 0].sum()), d.deals)
    parameters = {
        "strategy": strategy,
        "deals": d.deals,
        "play_probability": _text(played),
        "hands_played": int(play.sum()),
        "ante_play_house_edge_per_total_wagered": _text(per_total),
        "ante_play_house_edge_per_total_wagered_float": float(per_total),
        "dealer_not_qualified_probability": _text(not_qualified),
        "dealer_not_qualified_float": float(not_qualified),
        "hand_counts": hand_counts,
    }
    note = ("ante_play is per unit of ante (Play = ante); per total wagered: "
            f"{float(per_total) * 100:.4f} %; every deal of 3 + 3 cards enumerated")
    return Analysis("three-card-poker", "standard", parameters, (ante, pair_plus), note, strategy)


def _text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


# ------------------------------------------------------------ simulation --

def simulate(rounds: int, generator, strategy: str = "optimal", progress=None, chunk: int = 1 << 16) -> Simulation:
    """Play ``rounds`` rounds through the ``deck`` device: one fresh shuffle per
    round, the customer's hand its first three cards and the dealer's the next three."""
    exact = analyse(strategy)
    d = deals()
    play = decisions(strategy, d)
    qualify = _value(DEALER_QUALIFIES_FROM[0])
    category_of = {r.code: r.name for r in ph.THREE_CARD_RANKS}
    outcomes = [o for o, *_ in ANTE_PLAY]
    ante_labels = [FOLD[0]] + [_label(o, c) for o in outcomes for c in category_of.values()]
    ante_counts: dict[str, int] = {}
    pair_counts: dict[str, int] = {}

    def settle(cards: np.ndarray) -> None:
        mine, theirs = cards[:, :3], cards[:, 3:6]
        v, w = ph.rank(mine, "three"), ph.rank(theirs, "three")
        plays = play[ph.lex_index(mine)]
        outcome = np.where(w < qualify, 0, np.where(v > w, 1, np.where(v == w, 2, 3)))
        cat = ph.category(v)
        for code, name in category_of.items():
            here = cat == code
            k = int(here.sum())
            if k:
                pair_counts["lose" if name == "high_card" else name] = pair_counts.get(
                    "lose" if name == "high_card" else name, 0) + k
            for o, label in enumerate(outcomes):
                k = int((here & plays & (outcome == o)).sum())
                if k:
                    key = _label(label, name)
                    ante_counts[key] = ante_counts.get(key, 0) + k
        folded = int((~plays).sum())
        if folded:
            ante_counts[FOLD[0]] = ante_counts.get(FOLD[0], 0) + folded

    return play_deals("three-card-poker", rounds, generator, progress, chunk, settle,
                      [(exact.bet("ante_play"), ante_counts), (exact.bet("pair_plus"), pair_counts)],
                      dealt="customer: cards 1-3, dealer: 4-6",
                      note=f"outcome chi-square: the ante_play classes ({len(ante_labels)} possible) vs their exact "
                           "probabilities")


# ---------------------------------------------------------------- the game --

class ThreeCardPokerGame(DeckGame):
    name = "three-card-poker"
    summary = "Three Card Poker: ante and Play with the ante bonus, and Pair Plus; every deal enumerated"
    rules = f"{SOURCE} (seed L1201-1337)"
    etable = ETable("000 別表第1 第3 5-11 (applying 4-9)", ("standard",), ("ante_play", "pair_plus", "progressive"),
                    "000 別表第1 第3 5-11: the ante, Pair Plus and progressive bets only",
                    "6-イ (the dealer's hand revealed)", "000 別表第1 第3 5-12",
                    note="the progressive bet (5-8) is played in rounds (harness.rounds.progressive)")
    strategies = PLAYER_STRATEGIES
    analysis = staticmethod(analyse)
    simulation = staticmethod(simulate)


GAMES = (ThreeCardPokerGame(),)
