"""Texas Hold'em Bonus (000 別表第1 第3 6): the ante with its flop, turn and
river bets and the Bonus, every deal enumerated with the customer's three
decisions made optimally, and rounds played through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1339-1497 (digest ``rules/poker.md``
§5; the original wins where they differ).  Hand ranks: 3-1, 3-2
(:data:`harness.games.poker_hands.FIVE_CARD_RANKS`), the best hand of the 7
cards (6-2-ハ-(1)).  Every stake and payout is an entry of the tables below,
with its item.  The operator's choices are options: the hands whose winning
ante is paid (8-ロ-(1) straight or better, (2) flush or better) and the
1,000-to-1 Bonus on the customer's and the dealer's pairs of aces (8-ニ).
Readings where the seed is silent (digest §11):

* a winning ante below the chosen hands is returned (8-ロ pays the flop,
  turn and river bets only);
* an ante that ties returns every stake (7-ハ-(1) 引分け).

Exact method: C(52,2) C(50,3) 47 46 C(45,2) = 55,627,620,048,000 deals
(the flop, the turn and the river in their order), counted in C
(``csrc/kernels/holdem_bonus.h``).  Every decision is optimal: the river
bet is made unless, with the turn in view, it loses more often than it wins
(it pays 1 to 1 whatever the ante is paid, 8-ロ), the turn bet likewise with
the flop in view (the later river decision does not depend on it), and the
flop bet (fold or play, 6-4-イ) by the exact expectation of playing on,
both later decisions optimal, against the fold's -1.  A tie of expectations
makes the larger stake (bet, play), as in Caribbean Stud and Three Card
Poker here.  The progressive (6-9) is not
analysed here.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from harness.games import poker_hands as ph
from harness.games._deck_game import DeckGame, play_deals
from harness.games.base import Analysis, GameOption, Strategy
from harness.games.core import BetRule, LOSE, PUSH, Where, odds, result_from_weights, rows
from harness.games.etable import ETable
from harness.games.simulate import Simulation
from harness.kernels import ffi, lib
from rngcore.errors import raise_for_status

SOURCE = "000 別表第1 第3 6"
DECK = tuple(range(52))

# ------------------------------------------------------------------ rules --

# Stakes in antes: the flop bet (6-4-イ-(2)), the turn bet (6-5-イ-(2)) and the
# river bet (6-6, applying 6-5-イ-(2)).
FLOP_BET = (2, f"{SOURCE} 6-4-イ-(2)")
TURN_BET = (1, f"{SOURCE} 6-5-イ-(2)")
RIVER_BET = (1, f"{SOURCE} 6-6")

# 8-ロ: the operator's choice of the hands whose winning ante is paid 1 to 1
# (the lowest category of each set; the others return the ante).
ANTE_PAY_SETS = (
    ("straight", "straight", f"{SOURCE} 8-ロ-(1)"),
    ("flush", "flush", f"{SOURCE} 8-ロ-(2)"),
)

# Net per unit of ante of the ante and the bets on it, by the customer's result.
OUTCOMES = (
    ("fold", LOSE, f"{SOURCE} 6-4-イ-(1)", "cards and stakes collected, the Bonus excepted"),
    ("win_ante_paid", None, f"{SOURCE} 8-ロ", "flop, turn and river bets 1 to 1 and the ante 1 to 1"),
    ("win_ante_push", None, f"{SOURCE} 8-ロ", "flop, turn and river bets 1 to 1; the ante returned (reading)"),
    ("tie", PUSH, f"{SOURCE} 7-ハ-(1)", "引分け: every stake returned"),
    ("lose", None, f"{SOURCE} 8-イ", "the ante and the flop, turn and river bets collected"),
)

# 8-ハ (1)..(7): the Bonus on the customer's two cards, decided on them alone
# whatever the ante's result or a fold (7-ハ-(2), 6-4-イ-(1)); 8-ニ the option.
BONUS_PAYS = (
    ("aces", odds(30), f"{SOURCE} 8-ハ-(1)"),
    ("ace_king_suited", odds(25), f"{SOURCE} 8-ハ-(2)"),
    ("ace_queen_or_jack_suited", odds(20), f"{SOURCE} 8-ハ-(3)"),
    ("ace_king", odds(15), f"{SOURCE} 8-ハ-(4)"),
    ("kings_queens_or_jacks", odds(10), f"{SOURCE} 8-ハ-(5)"),
    ("ace_queen_or_jack", odds(5), f"{SOURCE} 8-ハ-(6)"),
    ("two_to_ten_pair", odds(3), f"{SOURCE} 8-ハ-(7)"),
)
ACES_BOTH = ("aces_and_dealer_aces", odds(1000), f"{SOURCE} 8-ニ")

OPTIONS = (
    GameOption.choice("ante-pays", "the hands whose winning ante is paid 1 to 1, the operator's choice: straight or "
                                   "better (8-ロ-(1)) or flush or better (8-ロ-(2))", ("straight", "flush")),
    GameOption.choice("aces-1000", "pay the Bonus 1,000 to 1 when the customer's and the dealer's two cards are both "
                                   "a pair of aces (8-ニ, the operator's option)", ("no", "yes")),
)

# The starting hands the optimal strategy folds (6-4-イ-(1)), by ante-pay set: the exact enumeration
# computes them (parameters "hands_folded"; tests/test_games_holdem_bonus.py checks this table against it).
FOLDS = {"straight": ("32o", "42o", "52o", "62o", "72o"), "flush": ("32o", "42o", "43o", "52o", "62o", "72o")}

PLAYER_STRATEGIES = (
    Strategy("optimal", "fold or make the flop bet (6-4-イ) by the exact expectation of playing on; the turn and river "
                        "bets (6-5-イ, 6-6) unless they lose more often than they win with the cards in view; a tie "
                        "of expectations makes the larger stake"),
)

_RANK_A, _RANK_J, _RANK_Q, _RANK_K = 0, 10, 11, 12   # card % 13 (rngcore.devices.cards)

# --------------------------------------------------------- exact counting --


@dataclasses.dataclass(frozen=True, eq=False)
class Tables:
    """The deal counts of a deck and the optimal turn and river decisions (holdem_bonus.h)."""

    deck: tuple[int, ...]
    counts: np.ndarray   # int64 [hands, 15]: outcome * 3 + turn and river bets made
    canon: np.ndarray    # uint8 [flops, 3]: deck positions of each flop counted
    turn: np.ndarray     # uint8 [flops, P]
    river: np.ndarray    # uint64 [flops, P]: bit j = river bet with the j-th other card as the turn

    @property
    def deals_per_hand(self) -> int:
        n = len(self.deck)
        return math.comb(n - 2, 3) * (n - 5) * (n - 6) * math.comb(n - 7, 2)


@functools.lru_cache(maxsize=2)
def tables(deck: tuple[int, ...] = DECK) -> Tables:
    """Every deal of ``deck`` (card indices) counted in C (about a minute for 52 cards)."""
    deck = tuple(sorted(set(deck)))
    if not 9 <= len(deck) <= 52 or any(not 0 <= c < 52 for c in deck):
        raise ValueError(f"a Texas Hold'em Bonus deck holds 9..52 distinct cards 0..51, got {len(deck)}")
    cards = np.array(deck, dtype=np.uint8)
    n = len(deck)
    flops = ffi.new("uint32_t *")
    raise_for_status(lib.kern_thb_flops(ffi.from_buffer("uint8_t[]", cards), n, flops), "Texas Hold'em Bonus flops")
    pairs = math.comb(n - 3, 2)
    counts = np.zeros((math.comb(n, 2), lib.KERN_THB_CELLS), dtype=np.int64)
    canon = np.zeros((flops[0], 3), dtype=np.uint8)
    turn = np.zeros((flops[0], pairs), dtype=np.uint8)
    river = np.zeros((flops[0], pairs), dtype=np.uint64)
    raise_for_status(lib.kern_thb_counts(ffi.from_buffer("uint8_t[]", cards), n, flops[0],
                                         ffi.from_buffer("int64_t[]", counts), ffi.from_buffer("uint8_t[]", canon),
                                         ffi.from_buffer("uint8_t[]", turn), ffi.from_buffer("uint64_t[]", river)),
                     "Texas Hold'em Bonus deals")
    for array in (counts, canon, turn, river):
        array.flags.writeable = False
    return Tables(deck, counts, canon, turn, river)


def _paid_outcomes(ante_pays: str) -> tuple[int, ...]:
    """The kernel's win outcomes (0 flush or better, 1 straight, 2 below) whose ante is paid."""
    lowest = next(low for name, low, _ in ANTE_PAY_SETS if name == ante_pays)
    return (0, 1) if lowest == "straight" else (0,)


def _cell_labels(ante_pays: str) -> list[str]:
    """The ante bet's class of each of the kernel's 15 cells."""
    paid = _paid_outcomes(ante_pays)
    labels = []
    for outcome in range(lib.KERN_THB_OUTCOMES):
        for extra in range(lib.KERN_THB_EXTRA):
            if outcome <= 2:
                labels.append(f"{'win_ante_paid' if outcome in paid else 'win_ante_push'}+{extra}")
            else:
                labels.append("tie" if outcome == 3 else f"lose+{extra}")
    return labels


def _net(label: str) -> Fraction:
    """Net per unit of ante of a class (``+k``: turn and river bets made)."""
    if label in ("fold", "tie"):
        return LOSE if label == "fold" else PUSH
    name, extra = label.split("+")
    stake = 1 + FLOP_BET[0] + int(extra) * TURN_BET[0]
    return {"win_ante_paid": Fraction(stake), "win_ante_push": Fraction(stake - 1), "lose": Fraction(-stake)}[name]


def ante_rule() -> BetRule:
    """The ante with the flop, turn and river bets as one bet per unit of ante."""
    entries = [("fold", Where(outcome="fold"), LOSE)]
    for outcome in ("win_ante_paid", "win_ante_push"):
        entries += [(f"{outcome}+{k}", Where(outcome=outcome, extra=k), _net(f"{outcome}+{k}")) for k in range(3)]
    entries.append(("tie", Where(outcome="tie"), PUSH))
    entries += [(f"lose+{k}", Where(outcome="lose", extra=k), _net(f"lose+{k}")) for k in range(3)]
    sources = ", ".join(dict.fromkeys([FLOP_BET[1], TURN_BET[1], RIVER_BET[1]] + [o[2] for o in OUTCOMES]
                                      + [s for *_, s in ANTE_PAY_SETS]))
    return BetRule("ante", sources, rows(*entries), push_labels=frozenset({"tie"}),
                   note="net per unit of ante; '+k': k of the turn and river bets made (one ante each); "
                        "the flop bet is 2 antes")


@functools.lru_cache(maxsize=None)
def plays(ante_pays: str = "straight", deck: tuple[int, ...] = DECK) -> np.ndarray:
    """Whether the customer makes the flop bet with each hand (pairs of deck positions, lexicographic)."""
    t = tables(deck)
    nets = np.array([int(_net(label)) for label in _cell_labels(ante_pays)], dtype=np.int64)
    play = t.counts @ nets >= -t.deals_per_hand  # at least the fold's -1 (a tie plays)
    play.flags.writeable = False
    return play


def bonus_class(first: int, second: int) -> str | None:
    """The 8-ハ row of the customer's two cards (None: the Bonus loses)."""
    a, b = sorted((first % 13, second % 13), key=lambda r: (r != _RANK_A, r))
    suited = first // 13 == second // 13
    if a == b:
        return "aces" if a == _RANK_A else "kings_queens_or_jacks" if a >= _RANK_J else "two_to_ten_pair"
    if a != _RANK_A or b not in (_RANK_J, _RANK_Q, _RANK_K):
        return None
    if b == _RANK_K:
        return "ace_king_suited" if suited else "ace_king"
    return "ace_queen_or_jack_suited" if suited else "ace_queen_or_jack"


def bonus_hand(hole, dealer, aces_1000: str = "no") -> str | None:
    """The Bonus class of a round: 8-ハ's of the customer's two cards, 8-ニ's when the option is taken and
    the dealer's two cards are a pair of aces too (None: the Bonus loses)."""
    hand = bonus_class(int(hole[0]), int(hole[1]))
    if hand == "aces" and aces_1000 == "yes" and bonus_class(int(dealer[0]), int(dealer[1])) == "aces":
        return ACES_BOTH[0]
    return hand


def paid_from(ante_pays: str) -> int:
    """The category code of the lowest hand whose winning ante is paid (8-ロ-(1) or (2))."""
    lowest = next(low for name, low, _ in ANTE_PAY_SETS if name == ante_pays)
    return next(r.code for r in ph.FIVE_CARD_RANKS if r.name == lowest)


def bonus_rule(aces_1000: str = "no") -> BetRule:
    entries = [(name, Where(hand=name), pays) for name, pays, _ in BONUS_PAYS]
    if aces_1000 == "yes":
        entries.insert(0, (ACES_BOTH[0], Where(hand=ACES_BOTH[0]), ACES_BOTH[1]))
    sources = ", ".join([f"{SOURCE} 6-2-ハ-(2), 7-ハ-(2)"] + [s for *_, s in BONUS_PAYS]
                        + ([ACES_BOTH[2]] if aces_1000 == "yes" else []))
    return BetRule("bonus", sources, rows(*entries),
                   note="per unit of Bonus (placed with an ante, 6-2-ロ); decided on the customer's two cards "
                        "whatever the ante's result or a fold")


def _bonus_result(aces_1000: str, deck: tuple[int, ...]):
    n = len(deck)
    dealer_pairs = math.comb(n - 2, 2)
    aces = sum(1 for c in deck if c % 13 == _RANK_A)
    weights: dict[str, int] = {}
    for x, y in itertools.combinations(deck, 2):
        label = bonus_class(x, y) or "lose"
        if label == "aces" and aces_1000 == "yes":  # the dealer's two cards from the other n - 2
            both = math.comb(aces - 2, 2)
            weights[ACES_BOTH[0]] = weights.get(ACES_BOTH[0], 0) + both
            weights["aces"] = weights.get("aces", 0) + dealer_pairs - both
        else:
            weights[label] = weights.get(label, 0) + dealer_pairs
    return result_from_weights(bonus_rule(aces_1000), weights, math.comb(n, 2) * dealer_pairs)


def _text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def analyse(strategy: str = "optimal", ante_pays: str = "straight", aces_1000: str = "no",
            deck: tuple[int, ...] = DECK) -> Analysis:
    """Exact results of the ante (with its bets) and the Bonus (every deal of ``deck``)."""
    if strategy != "optimal":
        raise ValueError(f"texas-holdem-bonus strategy must be optimal, got {strategy!r}")
    if ante_pays not in [name for name, *_ in ANTE_PAY_SETS] or aces_1000 not in ("no", "yes"):
        raise ValueError(f"texas-holdem-bonus: ante-pays must be straight|flush and aces-1000 no|yes, "
                         f"got {ante_pays!r}, {aces_1000!r}")
    t = tables(deck)
    play = plays(ante_pays, t.deck)
    per_hand = t.deals_per_hand
    labels = _cell_labels(ante_pays)
    summed = t.counts[play].sum(axis=0)
    weights: dict[str, int] = {"fold": int((~play).sum()) * per_hand}
    for label, count in zip(labels, summed):
        weights[label] = weights.get(label, 0) + int(count)
    total = len(play) * per_hand
    ante = result_from_weights(ante_rule(), weights, total)
    extra = Fraction(sum(int(c) * (k % 3) for k, c in enumerate(summed)), total)
    played = Fraction(int(play.sum()), len(play))
    wagered = 1 + FLOP_BET[0] * played + extra
    per_total = ante.house_edge / wagered
    folded = sorted({hand_name(t.deck[a], t.deck[b])
                     for (a, b), p in zip(itertools.combinations(range(len(t.deck)), 2), play) if not p})
    parameters = {
        "strategy": strategy,
        "ante_pays": ante_pays,
        "aces_1000": aces_1000,
        "deals": total,
        "play_probability": _text(played),
        "hands_folded": folded,
        "turn_and_river_bets_per_round": _text(extra),
        "average_wagered_in_antes": _text(wagered),
        "average_wagered_in_antes_float": float(wagered),
        "ante_house_edge_per_total_wagered": _text(per_total),
        "ante_house_edge_per_total_wagered_float": float(per_total),
    }
    note = (f"ante is per unit of ante (flop bet 2 antes, turn and river bets 1 each); per total wagered "
            f"{float(per_total) * 100:.4f} %; every deal of 2 + 3 + 1 + 1 + 2 cards enumerated, every decision "
            "optimal")
    return Analysis("texas-holdem-bonus", "standard", parameters, (ante, _bonus_result(aces_1000, t.deck)), note,
                    strategy)


_RANK_NAMES = "A23456789TJQK"


def hand_name(x: int, y: int) -> str:
    """A starting hand as strategy charts write it: ``'72o'``, ``'AKs'``, ``'TT'``."""
    order = "AKQJT98765432"
    a, b = sorted((_RANK_NAMES[x % 13], _RANK_NAMES[y % 13]), key=order.index)
    return a + b if a == b else a + b + ("s" if x // 13 == y // 13 else "o")


# ------------------------------------------------------------ simulation --

_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def decide(rounds_cards: np.ndarray, ante_pays: str = "straight") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The optimal decisions of rounds of the 52-card deck: rows of the customer's two cards,
    the flop's three and the turn card.  Returns (flop bet, turn bet, river bet) as bool arrays."""
    t = tables(DECK)
    cards = np.asarray(rounds_cards, dtype=np.int64)
    play = plays(ante_pays, DECK)[ph.lex_index(cards[:, :2])]
    lookup = np.full(math.comb(52, 3), -1, dtype=np.int64)
    lookup[ph.lex_index(t.canon.astype(np.int64))] = np.arange(t.canon.shape[0])
    k = np.full(len(cards), -1, dtype=np.int64)
    mapped = np.zeros_like(cards)
    for perm in _PERMUTATIONS:  # a suit permutation taking the flop to the one counted
        image = perm[cards // 13] * 13 + cards % 13
        here = lookup[ph.lex_index(image[:, 2:5])]
        take = (k < 0) & (here >= 0)
        k[take] = here[take]
        mapped[take] = image[take]
    flop = np.sort(mapped[:, 2:5], axis=1)

    def local(c):  # position among the 49 cards not in the flop
        return c - (flop < c[:, None]).sum(axis=1)

    a, b = np.sort(np.stack([local(mapped[:, 0]), local(mapped[:, 1])], axis=1), axis=1).T
    pair = a * (2 * 49 - a - 1) // 2 + (b - a - 1)
    turn = t.turn[k, pair].astype(bool)
    river = ((t.river[k, pair] >> local(mapped[:, 5]).astype(np.uint64)) & np.uint64(1)).astype(bool)
    return play, turn, river


def simulate(rounds: int, generator, strategy: str = "optimal", progress=None, chunk: int = 1 << 15,
             ante_pays: str = "straight", aces_1000: str = "no") -> Simulation:
    """Play ``rounds`` rounds through the ``deck`` device: one fresh shuffle per
    round; the customer's cards are its cards 1-2, the dealer's 3-4; card 5 is
    burnt, 6-8 are the flop, 9 burnt, 10 the turn, 11 burnt, 12 the river (6-3, 6-4-ロ, 6-5-ロ)."""
    exact = analyse(strategy, ante_pays, aces_1000)
    paid_code = paid_from(ante_pays)
    ante_tally: dict[str, int] = {}
    bonus_tally: dict[str, int] = {}

    def settle(cards: np.ndarray) -> None:
        n, cards = len(cards), cards.astype(np.int64)
        board = cards[:, [5, 6, 7, 9, 11]]
        play, turn, river = decide(np.concatenate([cards[:, :2], board[:, :4]], axis=1), ante_pays)
        mine = ph.rank(np.concatenate([cards[:, :2], board], axis=1))
        theirs = ph.rank(np.concatenate([cards[:, 2:4], board], axis=1))
        extra = turn.astype(int) + river.astype(int)
        paid = ph.category(mine) >= paid_code
        for i in range(n):
            if not play[i]:
                label = "fold"
            elif mine[i] > theirs[i]:
                label = f"{'win_ante_paid' if paid[i] else 'win_ante_push'}+{extra[i]}"
            else:
                label = "tie" if mine[i] == theirs[i] else f"lose+{extra[i]}"
            ante_tally[label] = ante_tally.get(label, 0) + 1
            hand = bonus_hand(cards[i, :2], cards[i, 2:4], aces_1000) or "lose"
            bonus_tally[hand] = bonus_tally.get(hand, 0) + 1

    return play_deals("texas-holdem-bonus", rounds, generator, progress, chunk, settle,
                      [(exact.bet("ante"), ante_tally), (exact.bet("bonus"), bonus_tally)],
                      dealt="customer: cards 1-2, dealer: 3-4, burn 5, flop 6-8, burn 9, turn 10, burn 11, "
                            "river 12 (6-3, 6-4-ロ, 6-5-ロ)",
                      note="outcome chi-square: the ante classes vs their exact probabilities")


# ---------------------------------------------------------------- the game --

class HoldemBonusGame(DeckGame):
    name = "texas-holdem-bonus"
    summary = ("Texas Hold'em Bonus: ante with flop, turn and river bets against the dealer, and the Bonus; "
               "every deal enumerated, every decision optimal")
    rules = f"{SOURCE} (seed L1339-1497)"
    options = OPTIONS
    strategies = PLAYER_STRATEGIES
    #: 6-12 applies 4-9 with 「二ハの（1）」 read as 「6二ハの（1）」 and 「それら」 as 「69のイに規定する賭け」
    #: (seed L1493): the ante and the Bonus of 6-2-ハ and the progressive of 6-9-イ; 6-13 applies 4-10-イ with
    #: its proviso read as 「67のイ」 (seed L1497); 8-イ truncates a winning below 1 yen (L1401).
    etable = ETable("000 別表第1 第3 6-12 (applying 4-9)", ("standard",), ("ante", "bonus", "progressive"),
                    "000 別表第1 第3 6-12 (L1493, applying 4-9): the bets of 6-2-ハ-(1) and (2) (ante, bonus) and "
                    "the progressive of 6-9-イ only",
                    "7-イ (the dealer's hand turned face up)", "000 別表第1 第3 6-13 (applying 4-10-イ)",
                    truncation="000 別表第1 第3 6-8-イ (L1401)",
                    note="the flop, turn and river bets (6-4-イ-(2), 6-5-イ-(2), 6-6) are additional stakes of the "
                         "ante's round, each a decision; the progressive's board royal (6-9-ニ, ホ) is not offered "
                         "in rounds")
    analysis = staticmethod(analyse)
    simulation = staticmethod(simulate)


GAMES = (HoldemBonusGame(),)
