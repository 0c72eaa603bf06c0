"""The bet-behind (001 ベットビハインドプレイヤーのアクション): a bet that follows a seat's play.

Its outcome follows the seated player's hand (001 1. ベッティング).  Two choices are the
bet-behind player's own (001, both "no" by default):

* follow double: "no", the seat's double is a hit for the bet-behind, whose stake stays
  one unit; "yes", it doubles too;
* follow split: "no", it follows only the seat's first split hand; "yes", it follows both,
  with an equal stake on the second.

Settlement is the C round engine's (``behind`` in ``csrc/kernels/twentyone.c``).  The exact
law here is for an infinite shoe with the seat's strategy, like the main bet's: with an
infinite shoe a split hand's future depends only on its own cards and the dealer's, so
each split hand's law given the dealer's outcome is exact and the two split hands are
independent given it.  Defined for the hole-card rule without re-splits (001's rules: a
dealer blackjack ends the round before any decision, split once).  With both choices
"yes" the bet-behind's net is the seat's, round by round, so its law is the main bet's
(a test proves it through this module's own split path).
"""
from __future__ import annotations

from fractions import Fraction

from harness.games import twentyone as tw


def _halved(net: Fraction, follow_double: bool) -> Fraction:
    """A single hand's net for the bet-behind: a doubled hand (|net| = 2) counts one stake
    unless it follows the double."""
    return net / 2 if abs(net) == 2 and not follow_double else net


def behind_law(rules: tw.Rules, hands, follow_double: bool, follow_split: bool,
               strategy=None) -> dict[Fraction, Fraction]:
    """P(net per unit) of the bet-behind on an infinite shoe.

    ``hands``: the seat's initial hands (:class:`~harness.games.twentyone.HandValue` with
    distributions) under ``strategy`` (None: the infinite-shoe optimum, the basic strategy).
    """
    if not rules.hole_card or rules.max_hands != 2:
        raise ValueError("the bet-behind's exact law is for the hole-card rule without re-splits (001's rules)")
    shoe = tw.InfiniteShoe()
    dealer = tw.Dealer(rules, shoe)
    evaluators: dict = {}
    out: dict = {}

    def put(net, p):
        out[net] = out.get(net, 0) + p

    for h in hands:
        if h.action != tw.SPLIT:
            for net, m in h.distribution.items():
                put(_halved(net, follow_double) if h.action == tw.DOUBLE else net, h.probability * m)
            continue
        up = h.up
        ev = evaluators.get(up)
        if ev is None:
            ev = evaluators[up] = tw.Evaluator(rules, shoe, up, dealer, strategy)
        for net, m in _split_law(ev, dealer, tw.pair_value(h.hand), follow_double, follow_split).items():
            put(net, h.probability * m)
        if ev.peek:
            put(Fraction(-1), h.probability * h.dealer_blackjack)
    return {net: p for net, p in sorted(out.items()) if p}


def _split_law(ev: tw.Evaluator, dealer: tw.Dealer, x: int, follow_double: bool, follow_split: bool) -> dict:
    """P(bet-behind net, no dealer blackjack under the peek) of a split pair of ``x``."""
    ctx = tw.Context(split=True, split_aces=x == tw.ACE)
    removed = tw.of(ev.up, x, x)
    dealer_law = dealer.distribution(removed, ev.up)
    # one split hand's (dealer outcome, net for the bet-behind), its second card drawn
    hand: dict = {}
    for v, p in ev.shoe.draws(removed):
        for (o, net), m in ev.play_dist(tw.of(x, v), tw.add(removed, v), ctx).items():
            key = (o, _halved(net, follow_double))
            hand[key] = hand.get(key, 0) + p * m
    out: dict = {}
    for o, po in enumerate(dealer_law):
        if not po or (o == tw.DBJ and ev.peek):
            continue
        given = {net: m / po for (oo, net), m in hand.items() if oo == o}
        law = tw.convolve(given, given) if follow_split else given
        for net, m in law.items():
            out[net] = out.get(net, 0) + po * m
    return out
