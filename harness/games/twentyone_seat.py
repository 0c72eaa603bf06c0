"""The order in which a seat plays its hands: one home for every Python play of a round's hands.

000 別表第1 第2 1-9 (Blackjack Switch 2-8, Pontoon 3-7; Deluxe Blackjack 001 3. 決定フェーズ): the
customer's hands are played one at a time, the main areas' (seats') original hands in order.  A split
(1-9-ニ-(1)) makes the pair two hands and deals each its second card at once, the hand keeping the
first pair card first, then the hand the split formed; the hand keeping it plays on, and the hand
the split formed is played right after it, before any hand that was waiting already (so among the
hands waiting, the one split last plays first).  A hit or a double deals the hand in play one card;
a bust is settled at once (1-9-ホ) and ends the hand, as a stand does, and a double ends it after its
card (Pontoon's doubled hand may still be rescued, 3-7-ホ).

:class:`SeatPlay` is that order as a value: the seat's hands in the order they are played and the
hand in play.  The rounds (:mod:`harness.rounds.engines.twentyone`) play their dealt cards through it;
the exact insurance law without the hole card (:mod:`harness.games.twentyone_insurance`) walks every
card the shoe could deal through it.  A hand is whatever its user plays (a round's hand record, a
walk's point-value multiset and context): the order does not read it.

Not here, on purpose: the game's C round (``csrc/kernels``) plays the same order in C, and the tests
check its cards and nets against the rounds'; the reference rounds in ``tests/`` are written
independently, as the check; the evaluator's split values (:meth:`harness.games.twentyone.Evaluator.pair_split`)
value each split hand on the shoe less the pair cards (the published analysers' approximation, stated
in :mod:`harness.games.twentyone`), in which no hand's cards depend on another's, so no play order.
"""
from __future__ import annotations

import dataclasses
from typing import Generic, TypeVar

H = TypeVar("H")


@dataclasses.dataclass(frozen=True)
class SeatPlay(Generic[H]):
    """The seat's hands in the order they are played (the module doc), and the hand in play.

    Attributes
    ----------
    hands : tuple
        Every hand the seat holds, in play order: the hands played, the hand in play, the hands
        still to play.
    at : int
        The index of the hand in play; ``len(hands)`` once every hand is played (:attr:`done`).
    """

    hands: tuple
    at: int = 0

    @property
    def done(self) -> bool:
        """Every hand is played."""
        return self.at >= len(self.hands)

    @property
    def playing(self) -> H:
        """The hand in play."""
        return self.hands[self.at]

    @property
    def held(self) -> int:
        """How many hands the seat holds (a split adds one)."""
        return len(self.hands)

    @property
    def ahead(self) -> tuple:
        """The hand in play and the hands still to play, in order: all the play from here reads."""
        return self.hands[self.at:]

    def split(self, kept: H, formed: H) -> "SeatPlay[H]":
        """The hand in play split (1-9-ニ-(1)): ``kept``, the hand keeping the first pair card, plays on,
        and ``formed`` is played right after it.  Each is dealt its second card at once, ``kept``'s first."""
        return SeatPlay(self.hands[:self.at] + (kept, formed) + self.hands[self.at + 1:], self.at)

    def drawn(self, hand: H) -> "SeatPlay[H]":
        """The hand in play is now ``hand`` (a hit's card dealt to it: it plays on)."""
        return SeatPlay(self.hands[:self.at] + (hand,) + self.hands[self.at + 1:], self.at)

    def next(self) -> "SeatPlay[H]":
        """The hand in play is finished (it stood, doubled, surrendered, or busted and was settled at once,
        1-9-ホ): the next hand plays."""
        return SeatPlay(self.hands, self.at + 1)
