"""The composition-dependent first decision of twenty-one over a full finite shoe.

Definition.  The *composition strategy* of a rule set and a shoe plays the initial decision of
every (upcard, first two cards) by the best exact value for the full shoe less those three
cards, and every later decision (a hand of three or more cards, a split hand, Pontoon's rescue)
by the game's total-dependent basic strategy (the chart ``--strategy basic`` plays).  Each
initial action is valued as "this action, then basic strategy", so the choice compares every
action under one continuation: this is the "composition dependent for the first two cards,
total dependent after" strategy of the published analysers' tables of two-card exceptions.
Because basic strategy's own initial action is among the candidates, the composition
strategy's return on the shoe is at least basic strategy's on the same shoe, hand by hand.
A tie keeps basic strategy's action, so the table differs from the chart only where the
composition is strictly better.

The values are :class:`harness.games.twentyone.Evaluator`'s, exact fractions for a fresh shoe
(the dealer's hole card treated as drawn after the player's cards); split hands are valued as
there, on the shoe less the upcard and the pair cards split so far.  The C round engine keys a
two-card hand by its two values, so it plays this strategy exactly
(:func:`harness.games.twentyone_table.strategy_cells` fills its table from
:class:`CompositionStrategy`).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.games import twentyone as tw

FIRST = tw.Context()
NOT_DEALT = "-"


class CompositionStrategy:
    """Basic strategy with the initial two-card decisions of ``first``: (upcard, hand) -> action.

    Callable as an :class:`~harness.games.twentyone.Evaluator` strategy and by the C table's
    filler; equal (and hashed) by its cells, so equal strategies share cached results."""

    def __init__(self, basic, first: dict):
        self.basic, self.first = basic, dict(first)
        self._key = (id(basic), tuple(sorted(self.first.items())))

    def __call__(self, hand: tuple, up: int, ctx: tw.Context, allowed: tuple[str, ...]) -> str:
        if ctx == FIRST and tw.cards(hand) == 2:
            act = self.first.get((up, hand))
            if act is not None and act in allowed:
                return act
        return self.basic(hand, up, ctx, allowed)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.basic is self.basic and other.first == self.first

    def __hash__(self) -> int:
        return hash(self._key)


@dataclasses.dataclass(frozen=True)
class CompositionPlay:
    """The first round of a full finite shoe under the composition strategy.

    Attributes
    ----------
    hands : list of HandValue
        Every initial hand, its action the composition optimum and its distribution that action's.
    basic_hands : list of HandValue
        The same hands played by basic strategy throughout (values of every action, no distributions).
    strategy : CompositionStrategy
    """

    hands: list
    basic_hands: list
    strategy: CompositionStrategy

    @property
    def expected_return(self) -> Fraction:
        return tw.expected_return(self.hands)

    @property
    def basic_return(self) -> Fraction:
        """Basic strategy's exact return on the same fresh shoe."""
        return tw.expected_return(self.basic_hands)

    def differences(self) -> list[tw.HandValue]:
        """The initial hands whose composition play is not basic strategy's."""
        return [h for h, b in zip(self.hands, self.basic_hands) if h.action != b.action]


def composition_play(rules: tw.Rules, shoe: tw.FiniteShoe, basic, evaluator=None,
                     settle: tw.Settle = tw.standard_settle) -> CompositionPlay:
    """Every initial hand of a full ``shoe`` played by the composition strategy over ``basic``.

    Parameters
    ----------
    rules : Rules
    shoe : FiniteShoe
        The full shoe (its composition before the round).
    basic : callable
        The total-dependent strategy of every later decision (``strategy(hand, up, ctx, allowed)``).
    evaluator : type, optional
        The :class:`~harness.games.twentyone.Evaluator` class (Pontoon's has its own).
    """
    evaluators: dict = {}
    basic_hands = tw.first_round(rules, shoe, basic, settle, evaluators=evaluators, evaluator=evaluator)
    first: dict = {}
    hands = []
    for h in basic_hands:
        removed = tw.add(h.hand, h.up)
        settled = tw.settled_first(rules, h.up, h.hand, h.dealer_blackjack)
        if settled is not None:
            hands.append(dataclasses.replace(h, distribution=settled[1]))
            continue
        act, best = h.action, max(h.values.values())
        if h.values[act] < best:     # a tie keeps basic strategy's play
            act = next(a for a in tw.ACTIONS if h.values.get(a) == best)
        first[(h.up, h.hand)] = act
        dist = None if act == tw.SPLIT else \
            tw.initial_distribution(evaluators[h.up], act, h.hand, removed, h.dealer_blackjack)
        hands.append(dataclasses.replace(h, action=act, distribution=dist))
    return CompositionPlay(hands, basic_hands, CompositionStrategy(basic, first))


def round_law(rules: tw.Rules, hands: list) -> tuple[dict, Fraction, Fraction]:
    """(P(net) of the rounds that do not split, P(the seat splits), E[net | it splits]) of
    :attr:`CompositionPlay.hands` under ``rules``.

    A split's net is not given a law on a finite shoe: its hands are valued on the shoe less the
    pair cards only (the published analysers' approximation, exact in mean for that method), and
    the per-outcome laws of two hands that share the dealer do not combine into a distribution of
    total mass 1 there.  Under the peek a dealer blackjack ends the round before the split (a loss
    of 1, in the law); the split's mean is given no dealer blackjack then."""
    law: dict = {}
    split_p = split_value = Fraction(0)
    for h in hands:
        if h.action != tw.SPLIT:
            for net, m in h.distribution.items():
                law[net] = law.get(net, 0) + h.probability * m
            continue
        peeked = h.dealer_blackjack if rules.peeks(h.up) else Fraction(0)
        law[Fraction(-1)] = law.get(Fraction(-1), 0) + h.probability * peeked
        split_p += h.probability * (1 - peeked)
        split_value += h.probability * (h.value + peeked)
    return law, split_p, (split_value / split_p if split_p else Fraction(0))


# ------------------------------------------------------------------ chart --

def hand_name(hand: tuple) -> str:
    """A two-card hand by its cards, high first: ``10+6``, ``A+7``, ``8+8``."""
    values = sorted((v for v, n in zip(tw.VALUES, hand) for _ in range(n)),
                    key=lambda v: 11 if v == tw.ACE else v, reverse=True)
    return "+".join("A" if v == tw.ACE else str(v) for v in values)


def code(h: tw.HandValue) -> str:
    """The chart code of an initial hand's play: H S D P R, ``Ds``/``Rs`` where standing beats
    hitting for these cards (what to do where the double or surrender is not offered)."""
    act = h.action
    if act in (tw.DOUBLE, tw.SURRENDER) and h.values.get(tw.STAND, -2) > h.values.get(tw.HIT, -2):
        return act + "s"
    return act


def _rows(hands: list, order: list[tuple]) -> dict[str, list[str]]:
    cells = {(h.up, h.hand): code(h) for h in hands if len(h.values) > 1}
    rows = {hand_name(hand): [cells.get((up, hand), NOT_DEALT) for up in tw.CHART_UPCARDS] for hand in order}
    return {name: row for name, row in rows.items() if set(row) != {NOT_DEALT}}


def chart_order() -> list[tuple]:
    """The two-card hands but the natural in chart order: hard by total, soft by total, pairs 2..10, A."""
    def rank(hand: tuple) -> tuple:
        x = tw.pair_value(hand)
        if x is not None:
            return 2, 11 if x == tw.ACE else x, 0
        t, soft = tw.total(hand)
        return int(soft), t, -max(v for v, n in zip(tw.VALUES, hand) if n)
    two = [tw.of(a, b) for a in tw.VALUES for b in tw.VALUES[a - 1:]]
    return sorted((h for h in two if not tw.is_natural(h)), key=rank)


def chart(play: CompositionPlay) -> dict:
    """The composition table: every two-card hand (by its cards) x upcard with its code, basic
    strategy's code for the same cards, and the cells where the two differ (``-``: cards this
    shoe cannot deal)."""
    order = chart_order()
    rows, basic = _rows(play.hands, order), _rows(play.basic_hands, order)
    upcards = ["A" if u == tw.ACE else str(u) for u in tw.CHART_UPCARDS]
    differences = []
    for hand in order:
        name = hand_name(hand)
        t, soft = tw.total(hand)
        for u, c, b in zip(upcards, rows.get(name, ()), basic.get(name, ())):
            if c != b:
                differences.append({"hand": name, "total": f"{'soft' if soft else 'hard'} {t}", "upcard": u,
                                    "composition": c, "basic": b})
    return {"upcards": upcards, "rows": rows, "basic": basic, "differences": differences}


def chart_text(table: dict) -> str:
    """The composition table as aligned text, ``*`` on a cell that differs from basic strategy,
    then the differences listed."""
    lines = ["          " + " ".join(f"{u:>3}" for u in table["upcards"])]
    for name, codes in table["rows"].items():
        marks = [c + ("*" if c != b else "") for c, b in zip(codes, table["basic"][name])]
        lines.append(f"{name:<9} " + " ".join(f"{m:>3}" for m in marks))
    diffs = table["differences"]
    lines.append(f"* differs from basic strategy: {len(diffs)} cell(s)")
    lines += [f"  {d['hand']} ({d['total']}) v {d['upcard']}: {d['composition']} (basic {d['basic']})" for d in diffs]
    return "\n".join(lines)


def chart_csv(table: dict) -> str:
    """The composition table as CSV (a header of upcards, one row per two-card hand); a cell that
    differs from basic strategy carries a ``*``."""
    lines = ["hand," + ",".join(table["upcards"])]
    for name, codes in table["rows"].items():
        lines.append(f"{name}," + ",".join(c + ("*" if c != b else "") for c, b in zip(codes, table["basic"][name])))
    return "\n".join(lines) + "\n"
