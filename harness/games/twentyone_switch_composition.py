"""Blackjack Switch's composition strategy over a full finite shoe (000 別表第1 第2 2).

Definition.  The seat's two areas are dealt a1, b1, the upcard, a2, b2 (2-5-イ).  Every value
here is on the full shoe less all five of those cards, whichever area holds them.

* An area's *value* of a first action is the exact expectation of that area's net when its two
  cards (after the switch decision) take that action against the upcard and every later
  decision is the game's total-dependent basic strategy (:class:`harness.games.twentyone.Evaluator`
  on the shoe less the five cards).
* Each area's first decision is the action of best value; a tie keeps basic strategy's action.
* The switch (2-8-ニ) exchanges the second cards where that strictly raises the sum of the two
  areas' best values; a tie keeps the cards.  Under the peek (2-7) the decisions are taken
  knowing there is no dealer blackjack, so the values compared are joint with "no dealer
  blackjack"; a dealer blackjack ends the round before the switch, each area settled as dealt.

The shared dealer.  The two areas face one dealer hand, drawn after both areas have played
(the hole card, under the peek, treated as drawn then: the shoe is uniformly shuffled).  An
area's value above is nevertheless the exact expectation of its net in the two-area round: the
other area draws between, but by a rule that reads only its own cards and the five dealt, and
for a uniformly shuffled shoe P(the next k cards are c1..ck | the cards seen) is a martingale
in the cards seen, so at the end of the other area's play (a stopping time) the cards to come
are, averaged over that play, distributed as if it had drawn none.  So the sum of the two
areas' values is the exact expected net of the pair of areas with their joint draw from one
shoe, and an area's law of net (the main bet's outcome classes) is exact too.  That holds
while the shoe cannot run out (6..8 decks; the tests' small shoe is chosen so, and they check
the claim against rounds dealt card by card from one shoe).

Splits.  A split hand is valued as everywhere in the family (``Evaluator.pair_split``): on the
shoe less the upcard, the other area's two cards and the pair cards split so far, not less the
other split hands' draws (the published analysers' approximation); a round that splits is one
outcome class valued by its mean (as :func:`harness.games.twentyone_composition.round_law`).

Cost.  The values are of every (upcard, four first cards as a multiset, two-card hand of them):
about 35,000 hands each on its own shoe, and 5,500 splits; in Python fractions that is some
half an hour of CPU for 6 decks (docs/table_games.md: a timed sample), not the 30 s of the
one-area table.
"""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np

from harness.games import twentyone as tw
from harness.games import twentyone_composition as tc
from harness.games import twentyone_switch as sw


@dataclasses.dataclass(frozen=True)
class Deal:
    """One class of the first five cards: the upcard and the four area cards as dealt.

    Attributes
    ----------
    up : int
    cards : tuple of int
        ``(a1, a2, b1, b2)``: the first area's two values, then the second's, as dealt.
    probability : Fraction
    dealer_blackjack : Fraction
        P(the hole card completes a dealer blackjack | the five cards).
    switched, basic_switched : bool
        The composition strategy's switch decision, and basic strategy's (the game's swap cells).
    hands, basic_hands : tuple of HandValue
        Each area's two cards after that decision, every first action's value (E[the area's net |
        the five cards], a peeked dealer blackjack included, settled as dealt) and the action played.
    basic_actions : tuple of str
        Basic strategy's first action for each of ``hands``' two cards (what the composition's
        action is compared with).
    """

    up: int
    cards: tuple
    probability: Fraction
    dealer_blackjack: Fraction
    switched: bool
    basic_switched: bool
    hands: tuple
    basic_hands: tuple
    basic_actions: tuple

    @property
    def value(self) -> Fraction:
        """E[both areas' net | the five cards] under the composition strategy."""
        return self.hands[0].value + self.hands[1].value

    @property
    def basic_value(self) -> Fraction:
        return self.basic_hands[0].value + self.basic_hands[1].value


@dataclasses.dataclass(frozen=True)
class SwitchPlay:
    """The first round of a full finite shoe under the composition strategy (and basic strategy's
    play of the same shoe, for comparison)."""

    deals: list
    area_law: dict            # P(the first area's net) of the rounds where it does not split
    split_probability: Fraction
    split_net: Fraction       # E[the first area's net | it splits]

    @property
    def expected_return(self) -> Fraction:
        """E[net per unit staked on the pair of areas] (each area's mean; both have one law)."""
        return sum((d.probability * d.value for d in self.deals), Fraction(0)) / 2

    @property
    def basic_return(self) -> Fraction:
        """Basic strategy's exact return per unit on the pair, on the same fresh shoe."""
        return sum((d.probability * d.basic_value for d in self.deals), Fraction(0)) / 2

    def differences(self) -> list[tuple[Deal, int]]:
        """(deal, area index) of every area whose composition first action is not basic strategy's
        for the same two cards (after the composition strategy's switch decision)."""
        return [(d, i) for d in self.deals for i, h in enumerate(d.hands)
                if len(h.values) > 1 and h.action != d.basic_actions[i]]

    def insurance_deals(self):
        """The deals given an ace up, as :func:`harness.games.twentyone_insurance.switch_busted_rounds`
        takes them: each area's hand after the switch decision and its composition first action."""
        aces = [d for d in self.deals if d.up == tw.ACE]
        p_ace = sum((d.probability for d in aces), Fraction(0))
        for d in aces:
            yield d.probability / p_ace, d.hands[0].hand, d.hands[1].hand, (d.hands[0].action, d.hands[1].action)

    def switch_differences(self) -> list[Deal]:
        """The deals whose switch decision is not basic strategy's."""
        return [d for d in self.deals if d.switched != d.basic_switched]


class _Values:
    """Every first action's joint value of each two-card hand of four cards, per upcard (cached)."""

    def __init__(self, rules: tw.Rules, shoe: tw.FiniteShoe, up: int, basic):
        self.rules, self.shoe, self.up, self.basic = rules, shoe, up, basic
        self.ev = tw.Evaluator(rules, shoe, up, tw.Dealer(rules, shoe), basic)
        self.peek = rules.peeks(up)
        self._hands: dict = {}
        self._shifted: dict = {}
        self._dists: dict = {}

    def dealer_blackjack(self, removed: tuple) -> Fraction:
        if self.up not in (tw.ACE, tw.TEN):
            return Fraction(0)
        return self.shoe.probability(removed, tw.TEN if self.up == tw.ACE else tw.ACE)

    def hand(self, four: tuple, hand: tuple) -> tuple[dict, str, str]:
        """(joint value per first action, the composition's action, basic strategy's action) of
        ``hand`` (two of the sorted ``four``) on the shoe less the five cards."""
        key = (four, hand)
        found = self._hands.get(key)
        if found is None:
            removed = tw.add(tw.of(*four), self.up)
            if tw.is_natural(hand):
                p_bj = self.dealer_blackjack(removed)
                found = ({tw.STAND: (1 - p_bj) * self.rules.blackjack_pays}, tw.STAND, tw.STAND)
            else:
                values = self.ev.values(hand, removed)
                basic = self.basic(hand, self.up, tc.FIRST, tuple(values))
                act, best = basic, max(values.values())
                if values[act] < best:        # a tie keeps basic strategy's play
                    act = next(a for a in tw.ACTIONS if values.get(a) == best)
                found = (values, act, basic)
            self._hands[key] = found
        return found

    def shifted(self, four: tuple, hand: tuple, shift: Fraction) -> dict:
        """:meth:`hand`'s values plus ``shift`` (a peeked dealer blackjack's part), one dict per case."""
        key = (four, hand, shift)
        found = self._shifted.get(key)
        if found is None:
            found = self._shifted[key] = {a: v + shift for a, v in self.hand(four, hand)[0].items()}
        return found

    def distribution(self, four: tuple, hand: tuple, act: str) -> dict:
        """The joint law of the area's net (no peeked dealer blackjack in it) for a non-split play."""
        key = (four, hand, act)
        found = self._dists.get(key)
        if found is None:
            removed = tw.add(tw.of(*four), self.up)
            if tw.is_natural(hand):
                p_bj = self.dealer_blackjack(removed)
                found = {self.rules.blackjack_pays: 1 - p_bj}
                if not self.peek and p_bj:
                    found[Fraction(0)] = p_bj
            else:
                found = {net: m for net, m in self.ev.initial_dist(act, hand, removed).items() if m}
            self._dists[key] = found
        return found


def _dealt_net(hand: tuple) -> Fraction:
    """An area's net against a peeked dealer blackjack, its cards as dealt (2-7: no switch)."""
    return Fraction(0) if tw.is_natural(hand) else Fraction(-1)


def switch_play(rules: tw.Rules, shoe: tw.FiniteShoe, basic, swaps: np.ndarray) -> SwitchPlay:
    """Every first five cards of a full ``shoe`` played by the composition strategy (module doc).

    Parameters
    ----------
    rules : Rules
        Blackjack Switch's (``rules.switch``).
    shoe : FiniteShoe
        The full shoe; it must hold enough cards that no round can run out (module doc).
    basic : callable
        The total-dependent strategy of every later decision, and basic strategy's first decisions.
    swaps : numpy.ndarray
        Basic strategy's switch cells (:func:`harness.games.twentyone_switch.swap_cells`), for the
        comparison with basic strategy's play of the same shoe.
    """
    deals: list[Deal] = []
    law: dict = {}
    split_p = split_value = Fraction(0)
    n = shoe.size
    kinds = [v for v, c in zip(tw.VALUES, shoe.counts) if c]
    for up in kinds:
        vals = _Values(rules, shoe, up, basic)
        for a1, b1, a2, b2 in itertools.product(kinds, repeat=4):
            left, prob = list(shoe.counts), Fraction(1)
            for i, v in enumerate((a1, b1, up, a2, b2)):      # the dealing order, 2-5-イ
                prob *= Fraction(max(left[v - 1], 0), n - i)
                left[v - 1] -= 1
            if not prob:
                continue
            four = tuple(sorted((a1, a2, b1, b2)))
            p_bj = vals.dealer_blackjack(tw.add(tw.of(*four), up))
            peeked = p_bj if vals.peek else Fraction(0)
            dealt = (tw.of(a1, a2), tw.of(b1, b2))
            shifts = tuple(peeked * _dealt_net(h) for h in dealt)

            def best(hand):
                values, act, _ = vals.hand(four, hand)
                return values[act]

            crossed = (tw.of(a1, b2), tw.of(b1, a2))
            switched = best(crossed[0]) + best(crossed[1]) > best(dealt[0]) + best(dealt[1])
            basic_switched = bool(swaps[sw.swap_index(up, a1, a2, b1, b2)])

            def areas(played, composition: bool) -> tuple:
                return tuple(tw.HandValue(up, hand, prob, p_bj, vals.shifted(four, hand, shifts[i]),
                                          vals.hand(four, hand)[1 if composition else 2])
                             for i, hand in enumerate(played))

            hands = areas(crossed if switched else dealt, True)
            deal = Deal(up, (a1, a2, b1, b2), prob, p_bj, switched, basic_switched, hands,
                        areas(crossed if basic_switched else dealt, False),
                        tuple(vals.hand(four, h.hand)[2] for h in hands))
            deals.append(deal)
            first = deal.hands[0]
            if peeked:
                net = _dealt_net(dealt[0])
                law[net] = law.get(net, 0) + prob * peeked
            if first.action == tw.SPLIT:
                split_p += prob * (1 - peeked)
                split_value += prob * (first.value - shifts[0])
            else:
                for net, m in vals.distribution(four, first.hand, first.action).items():
                    law[net] = law.get(net, 0) + prob * m
    law = {net: p for net, p in sorted(law.items()) if p}
    return SwitchPlay(deals, law, split_p, split_value / split_p if split_p else Fraction(0))


# ------------------------------------------------------------------ chart --

def _name(cards: tuple) -> str:
    """Two cards as dealt (``A+7``, ``10+6``), the order kept: which one is the second card matters."""
    return "+".join("A" if v == tw.ACE else str(v) for v in cards)


def _upcard(up: int) -> str:
    return "A" if up == tw.ACE else str(up)


def chart(play: SwitchPlay) -> dict:
    """The composition table of Switch.

    ``rows``: every two-card hand (by its cards, the one-area table's order) x upcard, the codes
    (:func:`harness.games.twentyone_composition.code`) its first action has over the other area's
    cards, most probable first, ``/`` between (``-``: cards this shoe cannot deal); ``basic``: the
    same for basic strategy's play of the same cards.  ``differences``: every hand, upcard and
    other area's two cards whose composition action is not basic strategy's; ``switches``: every
    upcard and four first cards (as dealt) whose switch decision is not basic strategy's.
    """
    weights: dict = {}
    differences: dict = {}
    for d in play.deals:
        for i, h in enumerate(d.hands):
            if len(h.values) <= 1:
                continue
            plain = tw.HandValue(h.up, h.hand, h.probability, h.dealer_blackjack, h.values, d.basic_actions[i])
            for kind, code in (("composition", tc.code(h)), ("basic", tc.code(plain))):
                cell = weights.setdefault((kind, h.up, h.hand), {})
                cell[code] = cell.get(code, 0) + h.probability
            if h.action != d.basic_actions[i]:
                other = d.hands[1 - i].hand
                key = (tc.hand_name(h.hand), d.up, tc.hand_name(other))
                t, soft = tw.total(h.hand)
                differences[key] = {"hand": key[0], "total": f"{'soft' if soft else 'hard'} {t}",
                                    "upcard": _upcard(d.up), "other": key[2], "composition": tc.code(h),
                                    "basic": tc.code(plain)}
    rows: dict = {"composition": {}, "basic": {}}
    for kind, out in rows.items():
        for hand in tc.chart_order():
            cells = []
            for up in tw.CHART_UPCARDS:
                codes = weights.get((kind, up, hand), {})
                cells.append("/".join(sorted(codes, key=lambda c: -codes[c])) or tc.NOT_DEALT)
            if set(cells) != {tc.NOT_DEALT}:
                out[tc.hand_name(hand)] = cells
    switches = [{"upcard": _upcard(d.up), "first": _name(d.cards[:2]), "second": _name(d.cards[2:]),
                 "composition": "switch" if d.switched else "keep", "basic": "switch" if d.basic_switched else "keep"}
                for d in play.switch_differences()]
    return {"upcards": [_upcard(u) for u in tw.CHART_UPCARDS], "rows": rows["composition"], "basic": rows["basic"],
            "differences": [differences[k] for k in sorted(differences, key=lambda k: (k[1], k[0], k[2]))],
            "switches": switches}


def chart_text(table: dict) -> str:
    """The table as aligned text: ``*`` on a cell that differs from basic strategy, then the
    differing first decisions listed (with the other area's cards) and the switch count."""
    width = max(3, *(len(c) + 1 for codes in table["rows"].values() for c in codes))
    lines = ["          " + " ".join(f"{u:>{width}}" for u in table["upcards"])]
    for name, codes in table["rows"].items():
        marks = [c + ("*" if c != b else "") for c, b in zip(codes, table["basic"][name])]
        lines.append(f"{name:<9} " + " ".join(f"{m:>{width}}" for m in marks))
    diffs = table["differences"]
    lines.append(f"first decisions that differ from basic strategy: {len(diffs)} (hand v upcard, the other area's "
                 "cards)")
    lines += [f"  {d['hand']} ({d['total']}) v {d['upcard']}, other area {d['other']}: {d['composition']} "
              f"(basic {d['basic']})" for d in diffs]
    lines.append(f"switch decisions that differ from basic strategy's: {len(table['switches'])} "
                 "(listed by --chart json)")
    return "\n".join(lines)

