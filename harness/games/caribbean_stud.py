"""Caribbean Stud Poker (000 別表第1 第3 4): the ante and bet over every deal,
the customer's fold-or-bet decision computed exactly for each of his hands
and the dealer's up card, and rounds played through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1043-1199 (digest ``rules/poker.md``
§3; the original wins where they differ).  Hand ranks: 3-1, 3-2
(:data:`harness.games.poker_hands.FIVE_CARD_RANKS`).  The stakes, the pay
table and the dealer's qualification are the tables below, each entry with
its item.  Readings where the seed is silent or ambiguous (digest §11):

* 4-5-イ-(1) "Ａ及びＫのトランプが含まれていない" is read "does not hold
  both an A and a K": the dealer qualifies with A-K high or better;
* the bet is returned when the dealer does not qualify (4-6 pays the ante only).

Exact method: C(52,5) 47 C(46,4) = 19,933,230,517,200 deals.  For each
customer hand and up card the dealer's other four cards are counted by
inclusion-exclusion over the customer's cards (``csrc/kernels/caribbean_stud.h``),
hands equal up to a permutation of suits once.  The progressive (4-2-ハ-(2),
4-6-ハ) is not analysed here.
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
from harness.kernels import ffi, lib
from rngcore.errors import raise_for_status

SOURCE = "000 別表第1 第3 4"
DECK = tuple(range(52))

# ------------------------------------------------------------------ rules --

# 4-5-イ-(1): a five-odds hand without both an A and a K does not qualify; the
# weakest qualifying hand is therefore A-K-4-3-2 (values compare in 3-2 order).
DEALER_QUALIFIES_FROM = ("AS KD 4C 3H 2S", f"{SOURCE} 4-5-イ")
BET_STAKE = (2, f"{SOURCE} 4-4")                       # the bet is twice the ante

# 4-6-ロ: the bet's odds by the customer's hand when he beats a qualified dealer.
BET_PAYS = (
    ("royal_flush", 250, f"{SOURCE} 4-6-ロ-(1)"),
    ("straight_flush", 50, f"{SOURCE} 4-6-ロ-(2)"),
    ("four_of_a_kind", 20, f"{SOURCE} 4-6-ロ-(3)"),
    ("full_house", 7, f"{SOURCE} 4-6-ロ-(4)"),
    ("flush", 5, f"{SOURCE} 4-6-ロ-(5)"),
    ("straight", 4, f"{SOURCE} 4-6-ロ-(6)"),
    ("three_of_a_kind", 3, f"{SOURCE} 4-6-ロ-(7)"),
    ("two_pair", 2, f"{SOURCE} 4-6-ロ-(8)"),
    ("one_pair", 1, f"{SOURCE} 4-6-ロ-(9)"),
    ("high_card", 1, f"{SOURCE} 4-6-ロ-(9)"),
)

# Net per unit of ante of ante + bet (4-5-ロ, 4-6).
OUTCOMES = (
    ("fold", LOSE, f"{SOURCE} 4-4", "cards and stakes collected"),
    ("not_qualified", Fraction(1), f"{SOURCE} 4-6", "ante 1 to 1; bet returned (reading)"),
    ("win", None, f"{SOURCE} 4-6-ロ", "ante 1 to 1 and the bet by the table"),
    ("tie", PUSH, f"{SOURCE} 4-5-ロ", "引分け: both stakes returned"),
    ("lose", Fraction(-1 - BET_STAKE[0]), f"{SOURCE} 4-6-イ", "ante and bet collected"),
)

PLAYER_STRATEGIES = (
    Strategy("optimal", "fold or bet (4-4) by the larger exact expectation, computed for every hand and dealer "
                        "up card (a tie bets)"),
    Strategy("ak", "bet with A-K or better (the hands a dealer qualifies with, 4-5-イ), fold the rest (4-4)"),
)
STRATEGIES = tuple(s.name for s in PLAYER_STRATEGIES)

# --------------------------------------------------------- exact counting --


def _value(text: str) -> int:
    return int(ph.rank([ph.parse(text)])[0])


def _category_codes() -> dict[str, int]:
    return {r.name: r.code for r in ph.FIVE_CARD_RANKS}


def _deck_values(deck: tuple[int, ...]) -> tuple[tuple[int, ...], np.ndarray]:
    """The sorted deck and the distinct values of its five-card hands (the classes)."""
    deck = tuple(sorted(set(deck)))
    if not 12 <= len(deck) <= 52 or any(not 0 <= c < 52 for c in deck):
        raise ValueError(f"a Caribbean Stud deck holds 12..52 distinct cards 0..51, got {len(deck)}")
    every = ph.all_values(5) if len(deck) == 52 else ph.rank(np.array(list(itertools.combinations(deck, 5)), np.uint8))
    return deck, np.ascontiguousarray(np.unique(every), dtype=np.uint32)


@functools.lru_cache(maxsize=None)
def counts(strategy: str = "optimal", deck: tuple[int, ...] = DECK,
           pays: tuple[tuple[str, int], ...] | None = None) -> tuple[dict[str, dict[str, int]], int, tuple[int, int]]:
    """Deals of each (customer hand, class) for a strategy, C(n,5)(n-5)C(n-6,4)
    in all, and the (hand, up card) pairs bet and folded.  ``pays`` replaces
    the bet's pay table (the tests check published analyses of other tables)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"caribbean-stud strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    deck, values = _deck_values(deck)
    qualify = int(np.searchsorted(values, _value(DEALER_QUALIFIES_FROM[0])))
    table = np.zeros(16, dtype=np.uint32)
    codes = _category_codes()
    for name, pay in (pays if pays is not None else tuple((n, p) for n, p, _ in BET_PAYS)):
        table[codes[name]] = pay
    out = np.zeros(16 * lib.KERN_CSP_CLASSES, dtype=np.uint64)
    decided = np.zeros(2, dtype=np.uint64)
    mode = lib.KERN_CSP_OPTIMAL if strategy == "optimal" else lib.KERN_CSP_THRESHOLD
    raise_for_status(lib.kern_csp_counts(ffi.from_buffer("uint8_t[]", np.array(deck, dtype=np.uint8)), len(deck),
                                         ffi.from_buffer("uint32_t[]", values), values.size, qualify,
                                         ffi.from_buffer("uint32_t[]", table), mode,
                                         _value(DEALER_QUALIFIES_FROM[0]), ffi.from_buffer("uint64_t[]", out),
                                         ffi.from_buffer("uint64_t[]", decided)), "Caribbean Stud deals")
    out = out.reshape(16, lib.KERN_CSP_CLASSES)
    by_hand = {r.name: {o[0]: int(out[r.code, k]) for k, o in enumerate(OUTCOMES)} for r in ph.FIVE_CARD_RANKS}
    n = len(deck)
    return by_hand, math.comb(n, 5) * (n - 5) * math.comb(n - 6, 4), (int(decided[0]), int(decided[1]))


def bet_rule(pays: tuple[tuple[str, int], ...] | None = None) -> BetRule:
    """Ante + bet as one bet per unit of ante: a class per outcome, a win per customer hand."""
    table = pays if pays is not None else tuple((n, p) for n, p, _ in BET_PAYS)
    entries = []
    for outcome, net, _, _ in OUTCOMES:
        if outcome == "win":
            entries += [(f"win_{hand}", Where(outcome="win", hand=hand), 1 + BET_STAKE[0] * odds(pay))
                        for hand, pay in table]
        else:
            entries.append((outcome, Where(outcome=outcome), net))
    sources = ", ".join(dict.fromkeys([DEALER_QUALIFIES_FROM[1], BET_STAKE[1]] + [o[2] for o in OUTCOMES]
                                      + [s for *_, s in BET_PAYS]))
    return BetRule("ante_bet", sources, rows(*entries), note="net per unit of ante; the bet is 2 antes")


def analyse(strategy: str = "optimal", deck: tuple[int, ...] = DECK,
            pays: tuple[tuple[str, int], ...] | None = None) -> Analysis:
    """Exact result of the ante and bet for a strategy (every deal of ``deck``)."""
    by_hand, total, (bet, folded) = counts(strategy, deck, pays)
    weights: dict[str, int] = {}
    for hand, classes in by_hand.items():
        for outcome, n in classes.items():
            label = f"win_{hand}" if outcome == "win" else outcome
            weights[label] = weights.get(label, 0) + n
    result = result_from_weights(bet_rule(pays), weights, total)
    bet_share = Fraction(bet, bet + folded)
    per_total = result.house_edge / (1 + BET_STAKE[0] * bet_share)
    parameters = {
        "strategy": strategy,
        "deals": total,
        "bet_probability": f"{bet_share.numerator}/{bet_share.denominator}",
        "bet_probability_float": float(bet_share),
        "house_edge_per_total_wagered": f"{per_total.numerator}/{per_total.denominator}",
        "house_edge_per_total_wagered_float": float(per_total),
        "total_loss_in_antes": -int(result.expected_net * total),
        "hand_counts": {hand: sum(classes.values()) // ((len(deck) - 5) * math.comb(len(deck) - 6, 4))
                        for hand, classes in by_hand.items()},
    }
    note = (f"ante_bet is per unit of ante (the bet is 2 antes); per total wagered {float(per_total) * 100:.4f} %; "
            "every deal of 5 + 5 cards (one dealer card up) enumerated")
    return Analysis("caribbean-stud", "standard", parameters, (result,), note, strategy)


# ------------------------------------------------------------ simulation --

@functools.lru_cache(maxsize=2)
def _dealer_tables(deck: tuple[int, ...]):
    """The C dealer tables of a deck (kept for the process: about 120 MB for 52 cards)."""
    deck, values = _deck_values(deck)
    handle = ffi.new("kern_csp_tables **")
    raise_for_status(lib.kern_csp_tables_new(ffi.from_buffer("uint8_t[]", np.array(deck, dtype=np.uint8)), len(deck),
                                             ffi.from_buffer("uint32_t[]", values), values.size, handle),
                     "Caribbean Stud dealer tables")
    return ffi.gc(handle[0], lib.kern_csp_tables_free), values


def _pay_table() -> np.ndarray:
    table = np.zeros(16, dtype=np.uint32)
    codes = _category_codes()
    for name, pay, _ in BET_PAYS:
        table[codes[name]] = pay
    return table


def optimal_bets(cards: np.ndarray, deck: tuple[int, ...] = DECK) -> np.ndarray:
    """Whether the optimal decision bets each round: rows of the customer's 5 cards then the up card."""
    tables, values = _dealer_tables(tuple(sorted(set(deck))))
    cards = np.ascontiguousarray(cards, dtype=np.uint8)
    out = np.zeros(cards.shape[0], dtype=np.uint8)
    qualify = int(np.searchsorted(values, _value(DEALER_QUALIFIES_FROM[0])))
    raise_for_status(lib.kern_csp_decide(tables, qualify, ffi.from_buffer("uint32_t[]", _pay_table()),
                                         ffi.from_buffer("uint8_t[]", cards), cards.shape[0],
                                         ffi.from_buffer("uint8_t[]", out)), "Caribbean Stud decisions")
    return out.astype(bool)


def simulate(rounds: int, generator, strategy: str = "optimal", progress=None, chunk: int = 1 << 15) -> Simulation:
    """Play ``rounds`` rounds through the ``deck`` device: one fresh shuffle per
    round, the customer's hand its first five cards, the dealer's the next five
    with the first of them face up (4-3)."""
    exact = analyse(strategy)
    qualify = _value(DEALER_QUALIFIES_FROM[0])
    names = {r.code: r.name for r in ph.FIVE_CARD_RANKS}
    tally: dict[str, int] = {}

    def settle(cards: np.ndarray) -> None:
        mine, theirs = ph.rank(cards[:, :5]), ph.rank(cards[:, 5:10])
        bet = optimal_bets(cards[:, :6]) if strategy == "optimal" else mine >= qualify
        outcome = np.where(~bet, 0, np.where(theirs < qualify, 1, np.where(mine > theirs, 2,
                                                                             np.where(mine == theirs, 3, 4))))
        for k, (label, *_) in enumerate(OUTCOMES):
            here = outcome == k
            if label == "win":
                for code, count in zip(*np.unique(ph.category(mine[here]), return_counts=True)):
                    tally[f"win_{names[int(code)]}"] = tally.get(f"win_{names[int(code)]}", 0) + int(count)
            elif here.any():
                tally[label] = tally.get(label, 0) + int(here.sum())

    return play_deals("caribbean-stud", rounds, generator, progress, chunk, settle, [(exact.bets[0], tally)],
                      dealt="customer: cards 1-5, dealer: 6-10, card 6 face up (4-3)",
                      note="outcome chi-square: the ante_bet classes vs their exact probabilities")


# ---------------------------------------------------------------- the game --

class CaribbeanStudGame(DeckGame):
    name = "caribbean-stud"
    summary = "Caribbean Stud Poker: ante and bet against a dealer qualifying with A-K; every deal enumerated"
    rules = f"{SOURCE} (seed L1043-1199)"
    etable = ETable("000 別表第1 第3 4-9", ("standard",), ("ante_bet", "progressive"),
                    "000 別表第1 第3 4-9 (L1187): the bets of 4-2-ハ-(1) and (2) (ante, progressive) only",
                    "the dealer's hand has been turned face up (5-イ)", "000 別表第1 第3 4-10-イ",
                    note="the progressive bet of 4-2-ハ-(2) is played in rounds (harness.rounds.progressive)")
    strategies = PLAYER_STRATEGIES
    analysis = staticmethod(analyse)
    simulation = staticmethod(simulate)


GAMES = (CaribbeanStudGame(),)
