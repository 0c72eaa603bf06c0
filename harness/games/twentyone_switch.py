"""Blackjack Switch's own math (000 別表第1 第2 2): the switch decision, the exact law of one
area's net, the Super Match side bet, and the law of the first round's side classes.

The seat holds two areas with equal stakes (2-4-ハ).  Each gets two cards; after the peek
the seat may exchange the two second cards (2-8-ニ).  Everything after the switch is the
one-seat round of :mod:`harness.games.twentyone`, played once per area against one dealer.

What is exact, precisely.

* The switch decision.  For every upcard and the four first cards (values, in the order
  dealt), the seat keeps or exchanges by comparing the exact values of the two candidate
  pairs of hands: the sum of each hand's value under the strategy the areas are played
  with (``hands``: the infinite-shoe basic strategy, or a player's chart).  Under the
  peek the decision is taken knowing there is no dealer blackjack, so the values
  compared are joint with "no dealer blackjack"; without the peek they are the whole
  values.  A tie keeps the cards.  A two-card 21 made by the switch counts as a
  blackjack (the digest's reading of 2-3, not in sources).
* The main bet: the law of ONE area's net per unit on it, for an infinite shoe, the
  switch decided as above and each area played by ``hands``' strategy.  With an
  infinite shoe an area's net depends only on its own cards and the dealer's, so the
  law is exact.  The second area has the same law (the decision is symmetric in the
  two areas; tested), so its mean is the return per unit staked on the pair.
* The Super Match (2-12) and the first round's side classes: exact for the first round
  of a full finite shoe (integer counts of ranks).
"""
from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from harness.games import twentyone as tw
from harness.kernels import lib

WEIGHTS = (1,) * 9 + (4,)          # an infinite shoe's draw weights out of 13 (ten-value: 4 ranks)
MATCH = ("none", "pair", "two_pair", "three", "four")   # the kernel's match classes 0..4 (twentyone.h)
SWAPPED = lib.KERN_TW_SWAPPED


def decision_values(rules: tw.Rules, hands) -> dict:
    """(upcard, two-card hand) -> the value the switch compares (module doc)."""
    out = {}
    for h in hands:
        v = h.value
        if rules.peeks(h.up) and not tw.is_natural(h.hand):
            v += h.dealer_blackjack      # the lost stake of a dealer blackjack is known not to come
        out[(h.up, h.hand)] = v
    return out


def swap_index(up, a1, a2, b1, b2):
    """Index of the switch cell of upcard ``up``, the first area's values ``a1, a2`` and the
    second's ``b1, b2`` (in the order dealt), as the kernel's ``kern_tw_swap_index``; ints or
    numpy arrays."""
    return ((((up - 1) * 10 + (a1 - 1)) * 10 + (a2 - 1)) * 10 + (b1 - 1)) * 10 + (b2 - 1)


def swap_cells(rules: tw.Rules, hands) -> np.ndarray:
    """The kernel's switch decisions (uint8[KERN_TW_SWAPS]): 1 where exchanging the second
    cards is worth strictly more."""
    value = decision_values(rules, hands)
    cells = np.zeros(lib.KERN_TW_SWAPS, dtype=np.uint8)
    a1, a2, b1, b2 = np.ix_(range(10), range(10), range(10), range(10))
    for up in tw.VALUES:
        vals = [value[(up, tw.of(a, b))] for a in tw.VALUES for b in tw.VALUES]
        scale = math.lcm(*(v.denominator for v in vals))
        # the values as integers over one denominator: exact comparisons, vectorised
        v = np.array([int(x * scale) for x in vals], dtype=object).reshape(10, 10)
        gain = v[a1, b2] + v[b1, a2] - v[a1, a2] - v[b1, b2]
        cells[swap_index(up, a1 + 1, a2 + 1, b1 + 1, b2 + 1)] = (gain > 0).astype(np.uint8)
    return cells


def _swapped(cells: np.ndarray, up: int, a1: int, a2: int, b1: int, b2: int) -> bool:
    return bool(cells[swap_index(up, a1, a2, b1, b2)])


def played_pairs(cells: np.ndarray, up: int):
    """Every four first cards of an infinite shoe against ``up``: (weight out of 13**4, the two
    areas' hands as dealt, as played after the switch decision ``cells``)."""
    for a1, a2, b1, b2 in itertools.product(tw.VALUES, repeat=4):
        w = WEIGHTS[a1 - 1] * WEIGHTS[a2 - 1] * WEIGHTS[b1 - 1] * WEIGHTS[b2 - 1]
        dealt = (tw.of(a1, a2), tw.of(b1, b2))
        yield w, dealt, (tw.of(a1, b2), tw.of(b1, a2)) if _swapped(cells, up, a1, a2, b1, b2) else dealt


def insurance_deals(cells: np.ndarray):
    """The four first cards of an infinite shoe given an ace up, as
    :func:`harness.games.twentyone_insurance.switch_busted_rounds` takes them: every first
    decision the strategy's."""
    for w, _, (a, b) in played_pairs(cells, tw.ACE):
        yield Fraction(w, 13 ** 4), a, b, None


def area_law(rules: tw.Rules, hands, cells: np.ndarray, area: int = 0) -> dict[Fraction, Fraction]:
    """P(net per unit) of area ``area`` (0 the first, 1 the second) for an infinite shoe.

    ``hands`` are the infinite shoe's :class:`~harness.games.twentyone.HandValue` (with
    distributions) of the strategy the areas are played with, ``cells`` the switch
    decisions.  Under the peek a dealer blackjack ends the round before the switch, so
    that part of an area's law is its cards as dealt.
    """
    by = {(h.up, h.hand): h for h in hands}
    out: dict = {}

    def put(net, p):
        out[net] = out.get(net, 0) + p

    whole = 13 ** 4
    for up in tw.VALUES:
        p_up = Fraction(WEIGHTS[up - 1], 13)
        played: dict = {}              # the area's two cards after the switch -> weight
        dealt_naturals = 0             # weight of a natural as dealt (the dealer-blackjack part)
        for w, dealt, pair in played_pairs(cells, up):
            if rules.peeks(up):
                dealt_naturals += w * tw.is_natural(dealt[area])
            played[pair[area]] = played.get(pair[area], 0) + w
        for hand, w in played.items():
            h = by[(up, hand)]
            for net, m in h.distribution.items():
                put(net, p_up * Fraction(w, whole) * m)
            if rules.peeks(up):
                # take out the dealer-blackjack part of the played hand ...
                put(Fraction(0) if tw.is_natural(hand) else Fraction(-1), -p_up * Fraction(w, whole) * h.dealer_blackjack)
        if rules.peeks(up):
            # ... and put in that of the hand as dealt (no switch against a dealer blackjack)
            p_bj = by[(up, tw.of(2, 3))].dealer_blackjack
            put(Fraction(0), p_up * p_bj * Fraction(dealt_naturals, whole))
            put(Fraction(-1), p_up * p_bj * Fraction(whole - dealt_naturals, whole))
    return {net: p for net, p in sorted(out.items()) if p}


# --------------------------------------------------------- the Super Match --

def super_match_ways(decks: int) -> dict[str, tuple[int, int]]:
    """Ways (out of C(52 decks, 4)) the four first cards of a full shoe fall in each match
    class by rank (000 第2 2-12: four, three, two pair, one pair; none)."""
    m, n = 4 * decks, 52 * decks
    c = math.comb
    ways = {"four": 13 * c(m, 4), "three": 13 * c(m, 3) * (n - m), "two_pair": c(13, 2) * c(m, 2) ** 2,
            "pair": 13 * c(m, 2) * c(12, 2) * m * m, "none": c(13, 4) * m ** 4}
    total = c(n, 4)
    assert sum(ways.values()) == total
    return {k: (w, total) for k, w in ways.items()}


# ------------------------------------------- the first round's side classes --

@functools.lru_cache(maxsize=8)
def _rank_grid(decks: int):
    """Every ordered four ranks (a1, b1, a2, b2) with its weight m(m-1).. over same ranks."""
    m = 4 * decks
    grid = np.array(list(itertools.product(range(1, 14), repeat=4)), dtype=np.int64)
    w = np.ones(len(grid), dtype=np.int64)
    for k in range(4):
        prior = sum((grid[:, j] == grid[:, k]).astype(np.int64) for j in range(k))
        w *= m - prior
    same = sum((grid[:, i] == grid[:, j]).astype(np.int64) for i in range(4) for j in range(i + 1, 4))
    match = np.array([0, 1, 2, 3, 0, 0, 4], dtype=np.int64)[same]
    return np.minimum(grid, 10), w, match


def first_round_sides(rules: tw.Rules, cells: np.ndarray, decks: int) -> dict[int, Fraction]:
    """Exact P(side class) of the first round of a full shoe: match | swapped << 3 (twentyone.h).

    The four first cards and the upcard by exchangeability (the order they are dealt in
    does not change their law); under the peek a dealer blackjack (the hole card
    completing it) means no switch.
    """
    values, w, match = _rank_grid(decks)
    n = 52 * decks
    full = [4 * decks] * 9 + [16 * decks]
    used = [(values == v).sum(axis=1) for v in tw.VALUES]
    out: dict[int, Fraction] = {}
    for up in tw.VALUES:
        left_up = full[up - 1] - used[up - 1]
        wu = w * left_up
        # the grid's columns are the order dealt: a1, b1, then a2, b2
        swapped = cells[swap_index(up, values[:, 0], values[:, 2], values[:, 1], values[:, 3])].astype(np.int64)
        denominator = n * (n - 1) * (n - 2) * (n - 3) * (n - 4)
        if rules.peeks(up):
            other = tw.TEN if up == tw.ACE else tw.ACE
            left_other = full[other - 1] - used[other - 1]
            parts = [(wu * left_other, np.zeros_like(swapped)), (wu * (n - 5 - left_other), swapped)]
            denominator *= n - 5
        else:
            parts = [(wu, swapped)]
        for weight, sw in parts:
            cls = match | (sw * SWAPPED)
            for k in np.unique(cls):
                total = int(weight[cls == k].sum())
                out[int(k)] = out.get(int(k), 0) + Fraction(total, denominator)
    return dict(sorted(out.items()))


def side_label(side: int) -> str:
    """Label of a two-area side class: ``"pair, switched"``, ``"none, kept"``."""
    return f"{MATCH[side & 7]}, {'switched' if side & SWAPPED else 'kept'}"
