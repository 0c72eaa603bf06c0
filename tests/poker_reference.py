"""A straightforward poker hand evaluator, independent of csrc/kernels/poker_eval.h.

Written from 000 別表第1 第3 3-1/3-2 (five cards), 5-4 (three cards), 9-8
(Omaha, exactly 2 + 3) and 9-11 (eight-or-better low) by counting ranks and
sorting, with every combination tried where a best hand is asked for.  A hand's
key is a tuple (category, ranks...) that compares like the seed's order; the
category numbers are the seed's table read from the bottom (high card 1 ...
royal flush 10; three cards: no pair 1 ... straight flush 6).

A card is the label index ``suit * 13 + rank - 1`` (rank 1 = A .. 13 = K).
"""
from __future__ import annotations

import itertools
from collections import Counter


def rank_value(card: int) -> int:
    """Card strength 2..14 (3-2 proviso: A high)."""
    rank = card % 13 + 1
    return 14 if rank == 1 else rank


def suit(card: int) -> int:
    return card // 13


def _straight_top(values: list[int], length: int) -> int | None:
    """Top card of a run of ``length`` distinct values in A,K,...,2,A (no wrap-around)."""
    distinct = sorted(set(values), reverse=True)
    if len(distinct) != length:
        return None
    if distinct[0] - distinct[-1] == length - 1:
        return distinct[0]
    if distinct[0] == 14 and distinct[1:] == list(range(length, 1, -1)):
        return length  # the ace low: 5-4-3-2-A (3-2-A), the lowest
    return None


def _read(hand) -> tuple[list[int], bool, int | None, Counter, list[int]]:
    """(values, flush, straight top, rank counts, ranks by (how many, rank)) of a hand."""
    values = [rank_value(c) for c in hand]
    counts = Counter(values)
    # ranks ordered by (how many, rank): the deciding order of 3-2 イ..ヘ and 5-4-ロ
    grouped = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    return values, len({suit(c) for c in hand}) == 1, _straight_top(values, len(hand)), counts, grouped


def five_key(hand) -> tuple:
    """Key of exactly five cards."""
    values, flush, top, counts, grouped = _read(hand)
    shape = sorted(counts.values(), reverse=True)
    if flush and top == 14:
        return (10, 14)
    if flush and top:
        return (9, top)
    if shape == [4, 1]:
        return (8, *grouped)
    if shape == [3, 2]:
        return (7, *grouped)
    if flush:
        return (6, *sorted(values, reverse=True))
    if top:
        return (5, top)
    if shape == [3, 1, 1]:
        return (4, *grouped)
    if shape == [2, 2, 1]:
        return (3, *grouped)
    if shape == [2, 1, 1, 1]:
        return (2, *grouped)
    return (1, *sorted(values, reverse=True))


def best_key(cards) -> tuple:
    """Key of the best five of 5..7 cards."""
    return max(five_key(c) for c in itertools.combinations(cards, 5))


def three_key(hand) -> tuple:
    """Key of three cards (5-4: three of a kind above a straight, a straight above a flush)."""
    values, flush, top, counts, grouped = _read(hand)
    if flush and top:
        return (6, top)
    if len(counts) == 1:
        return (5, values[0])
    if top:
        return (4, top)
    if flush:
        return (3, *sorted(values, reverse=True))
    if len(counts) == 2:
        return (2, *grouped)
    return (1, *sorted(values, reverse=True))


def omaha_high_key(hole, board) -> tuple:
    return max(five_key(h + b) for h in itertools.combinations(hole, 2) for b in itertools.combinations(board, 3))


def _low_ranks(five) -> list[int] | None:
    """9-11: five different ranks, all A..8 (A = 1); highest first, or None."""
    ranks = [c % 13 + 1 for c in five]
    if len(set(ranks)) != 5 or max(ranks) > 8:
        return None
    return sorted(ranks, reverse=True)


def low_key(fives) -> tuple | None:
    """The best low of the candidate five-card sets: a key where LARGER is better
    (negated ranks, highest card first), or None."""
    lows = [r for r in (_low_ranks(f) for f in fives) if r is not None]
    if not lows:
        return None
    best = min(lows)
    return tuple(-r for r in best)


def omaha_low_key(hole, board) -> tuple | None:
    return low_key(h + b for h in itertools.combinations(hole, 2) for b in itertools.combinations(board, 3))


def any_low_key(cards) -> tuple | None:
    return low_key(itertools.combinations(cards, 5))
