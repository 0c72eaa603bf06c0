"""A card shoe dealt round by round under a rule set's procedure.

Life of a shoe (rules per :mod:`rngcore.devices.rulesets`)::

    shuffle   fresh stack -> Fisher-Yates (csrc/core/shuffle.c) -> cut (rotate)
              -> cut card placed -> burn
    rounds    start_round(); deal() ...; end_round()
    end       after the cut card comes out, the round it decides on is the
              last; the next start_round() collects every card and shuffles

Every random choice (the shuffle, the cut position, the cut-card position)
is drawn from the generator at shuffle time; dealing draws nothing.  So a
shoe is replayed card for card from (seed, stream, :attr:`Shoe.shuffle_position`):
``Generator(seed, stream).seek(position)`` then ``Shoe(...).shuffle()``.
The shuffle, cut and cut-card draws are three locked calls in a row, so that
recall holds when the shoe owns its generator (give each shoe its own
``Generator`` or ``spawn()`` child); a thread drawing from the same generator
in between would take keystream between them.  That never biases a shoe,
but it would make its recall position insufficient.

Cards are uint16 codes (:mod:`rngcore.devices.cards`).
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from rngcore import controls
from rngcore.devices import cards
from rngcore.devices._native import engine_position, shuffle_in_place, shuffled_rows
from rngcore.devices.rulesets import FINISH_ROUND, RuleSet, cards_behind, rule_set


class ShoeExhaustedError(ValueError):
    """A card was asked of a shoe with no cards left (it never wraps around)."""


def fresh_shoes(generator, count: int, decks: int = 8, *, pontoon: bool = False) -> np.ndarray:
    """``count`` freshly shuffled shoes of ``decks`` decks: uint16 codes, shape (count, 52 * decks).

    Row ``i`` is a uniform random ordering of the physical cards (48 per deck
    with ``pontoon``: the 10s removed).
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    ranks = cards.PONTOON_RANKS if pontoon else cards.STANDARD_RANKS
    return shuffled_rows(generator, _fresh_stack_read_only(decks, ranks), count)


@functools.lru_cache(maxsize=32)
def _fresh_stack_read_only(decks: int, ranks: tuple[int, ...]) -> np.ndarray:
    # Built once per (decks, ranks): rebuilding it cost 4-7% of a bulk shuffle.
    stack = cards.fresh_stack(decks, ranks)
    stack.flags.writeable = False  # C only reads it (rng_shuffle16_rows copies into each row)
    return stack


class Shoe:
    """A shoe of ``decks`` decks following ``rules``.

    Parameters
    ----------
    generator : rngcore.Generator
        Source of every shuffle, cut and cut-card position.
    rules : RuleSet or str
        A rule set or its name (see ``rngcore.devices.rulesets.RULE_SETS``).
    decks : int, optional
        Number of decks; default the rule set's; must be within its range.
    cut_card : (int or Fraction, int or Fraction), optional
        Override the range of cards left behind the cut card.

    Raises
    ------
    ValueError
        Deck count outside the rule set's range (and 1..MAX_DECKS), or a cut-card
        range outside the stack.
    """

    def __init__(self, generator, rules: RuleSet | str = "pa-blackjack", decks: int | None = None, *,
                 cut_card=None):
        self.rules = rule_set(rules) if isinstance(rules, str) else rules
        lo, hi = self.rules.decks
        decks = self.rules.default_decks if decks is None else operator.index(decks)
        if not lo <= decks <= hi:
            raise ValueError(f"{self.rules.name}: decks must be in {lo}..{hi} "
                             f"(any shoe: 1..{cards.MAX_DECKS}), got {decks}")
        self.decks = decks
        self.generator = generator
        self._fresh = cards.fresh_stack(decks, self.rules.ranks)
        self.size = int(self._fresh.size)
        self._cut_card = self.rules.cut_card if cut_card is None else cut_card
        if self._cut_card is not None and not self.rules.continuous:
            behind = [cards_behind(x, self.size) for x in self._cut_card]
            if not 1 <= behind[0] <= behind[1] <= self.size - 1:
                raise ValueError(
                    f"cut card must have between 1 and {self.size - 1} cards behind it in a "
                    f"{self.size}-card shoe, got the range {behind[0]}..{behind[1]}")
        self._stack = np.empty(0, dtype=np.uint16)
        self._next = 0
        self._cut_index: int | None = None
        self._cut_card_out = False
        self._last_round = False          # the round in progress is the last of this shoe
        self._next_round_last = False     # the next round will be the last
        self._reshuffle_due = True
        self._round_open = False
        self._round_cards: list[int] = []
        self.burned: list[int] = []
        self.discards: list[int] = []
        self.burn_indicator: int | None = None
        self.shuffle_position: int | None = None
        self.shuffles = 0

    # -- initialisation ----------------------------------------------------------

    @classmethod
    def replay(cls, rules: RuleSet | str, stack, cut_card_index: int | None) -> "Shoe":
        """A recorded shoe, dealt by ``rules`` from its burn on (no generator: it is never reshuffled).

        ``stack``: the cards in dealing order after the shuffle and the cut
        (the burned cards included); ``cut_card_index``: how many cards were
        in front of the cut card (None for a procedure without one).  Deal
        it with :meth:`start_round` / :meth:`deal` / :meth:`end_round` until
        :meth:`end_round` returns True.
        """
        rules = rule_set(rules) if isinstance(rules, str) else rules
        stack = np.array(stack, dtype=np.uint16)
        per_deck = 4 * len(rules.ranks)
        if stack.ndim != 1 or stack.size % per_deck:
            raise ValueError(f"a recorded {rules.name} shoe holds a whole number of {per_deck}-card decks, "
                             f"got {stack.size} cards")
        shoe = cls(None, rules, stack.size // per_deck)
        if (cut_card_index is None) != (shoe._cut_card is None or rules.continuous):
            raise ValueError(f"{rules.name}: cut_card_index must be given exactly when the procedure has a cut card")
        if cut_card_index is not None and not 0 < cut_card_index < shoe.size:
            raise ValueError(f"cut_card_index must be in 1..{shoe.size - 1}, got {cut_card_index}")
        shoe._begin(stack, cut_card_index)
        return shoe

    def shuffle(self) -> None:
        """Collect every card and initialise: shuffle, cut, place the cut card, burn."""
        if self.generator is None:
            raise ValueError("a replayed shoe has no generator: it ends where its recording ends")
        controls.before(self.generator, "shuffle")
        self.shuffle_position = engine_position(self.generator)
        stack = self._fresh.copy()
        shuffle_in_place(self.generator, stack)
        rules = self.rules
        if rules.cut is not None and not rules.continuous:
            m = rules.cut.min_from_end
            if self.size > 2 * m:  # cards above the cutting card go to the bottom
                at = int(self.generator.integers(m, self.size - m + 1))
                stack = np.concatenate([stack[at:], stack[:at]])
        cut_index = None
        if self._cut_card is not None and not rules.continuous:
            lo, hi = (cards_behind(x, self.size) for x in self._cut_card)
            behind = lo if lo == hi else int(self.generator.integers(lo, hi + 1))
            cut_index = self.size - behind
        self._begin(stack, cut_index)

    def _begin(self, stack: np.ndarray, cut_index: int | None) -> None:
        """A new shoe from a shuffled and cut stack: place the cut card, burn."""
        rules = self.rules
        self._stack = stack
        self._next = 0
        self._cut_index = cut_index
        self._cut_card_out = self._last_round = self._next_round_last = False
        self._reshuffle_due = False
        self._round_cards = []
        self.burned, self.discards, self.burn_indicator = [], [], None
        self.shuffles += 1
        if not rules.continuous:
            self._burn_procedure()

    def _burn_procedure(self) -> None:
        burn = self.rules.burn
        if burn.kind == "count":
            self.burn(burn.count)
        elif burn.kind == "by-value":
            indicator = self._take()
            self.burn_indicator = indicator
            self.burned.append(indicator)
            value = burn.value_of_rank(int(cards.rank_of(indicator)))
            self.burn(max(0, value - 1) if burn.indicator_counts else value)

    # -- rounds ----------------------------------------------------------------------

    def start_round(self) -> None:
        """Begin a round, shuffling first if the previous round was the shoe's last."""
        if self._round_open:
            raise ValueError("a round is already in progress; call end_round() first")
        if self.generator is not None:
            controls.before(self.generator, "round")
        if self._reshuffle_due or self.rules.continuous:
            self.shuffle()
        self._round_open = True
        self._round_cards = []
        if self._next_round_last:
            self._last_round, self._next_round_last = True, False
        if self.rules.burn_each_round:
            self.burn(self.rules.burn_each_round)

    def deal(self, count: int | None = None):
        """Deal the next card (an int code), or ``count`` cards (a uint16 array)."""
        if not self._round_open:
            raise ValueError("no round in progress; call start_round() before dealing")
        if count is None:
            return self._deal_one()
        if count < 0:
            raise ValueError(f"count must be >= 0, got {count}")
        if count > self.remaining:
            raise ShoeExhaustedError(self._exhausted_message(count))
        return np.array([self._deal_one() for _ in range(count)], dtype=np.uint16)

    def _deal_one(self) -> int:
        card = self._take()
        self._round_cards.append(card)
        return card

    def burn(self, count: int = 1) -> list[int]:
        """Burn ``count`` cards: treated as used until the next shuffle."""
        if count < 0:
            raise ValueError(f"count must be >= 0, got {count}")
        if count > self.remaining:
            raise ShoeExhaustedError(self._exhausted_message(count, "burn"))
        taken = [self._take() for _ in range(count)]
        self.burned.extend(taken)
        return taken

    def end_round(self) -> bool:
        """Finish the round; return True if the shoe must now be reshuffled."""
        if not self._round_open:
            raise ValueError("no round in progress")
        self._round_open = False
        self.discards.extend(self._round_cards)
        self._round_cards = []
        if self._last_round or self.rules.continuous:
            self._reshuffle_due = True
        return self._reshuffle_due

    def _take(self) -> int:
        if self._next >= self._stack.size:
            raise ShoeExhaustedError(self._exhausted_message(1))
        if self._cut_index is not None and self._next == self._cut_index and not self._cut_card_out:
            self._cut_card_comes_out()
        card = int(self._stack[self._next])
        self._next += 1
        return card

    def _cut_card_comes_out(self) -> None:
        """The cut card is drawn just before the card at its position.

        Outside a round (in the burn after a shuffle) it counts as coming out
        at the start of the next round.  At the start of a round (no card of
        the round dealt yet) that round is the last under both readings; later
        in a round, "finish-round" makes this round the last and
        "one-more-round" the next one.
        """
        self._cut_card_out = True
        if not self._round_open:
            self._next_round_last = True
        elif not self._round_cards or self.rules.after_cut_card == FINISH_ROUND:
            self._last_round = True
        else:
            self._next_round_last = True

    def _exhausted_message(self, wanted: int, what: str = "deal") -> str:
        return (f"shoe exhausted: cannot {what} {wanted} card(s), {self.remaining} left of "
                f"{self.size} ({len(self.discards) + len(self._round_cards)} dealt, "
                f"{len(self.burned)} burned); the shoe never wraps around")

    # -- state -----------------------------------------------------------------------

    @property
    def remaining(self) -> int:
        """Cards still in the shoe (not dealt, not burned)."""
        return int(self._stack.size - self._next)

    @property
    def stack(self) -> np.ndarray:
        """The undealt cards in dealing order (a copy)."""
        return self._stack[self._next:].copy()

    @property
    def cut_card_index(self) -> int | None:
        """Cards in front of the cut card after the shuffle (None: no cut card)."""
        return self._cut_index

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out of this shoe."""
        return self._cut_card_out

    @property
    def last_round(self) -> bool:
        """Whether the round in progress is the last before a reshuffle."""
        return self._last_round

    @property
    def reshuffle_due(self) -> bool:
        """Whether the next start_round() will collect and reshuffle."""
        return self._reshuffle_due or self.rules.continuous

    @property
    def round_cards(self) -> tuple[int, ...]:
        """Cards dealt in the round in progress."""
        return tuple(self._round_cards)

    @property
    def position(self) -> int | None:
        """The generator's keystream position now (replay mode)."""
        return engine_position(self.generator)

    def composition(self) -> dict[str, int]:
        """Cards still in the shoe by rank label (``"A"``, ``"2"``, ..., ``"K"``)."""
        counts = np.bincount(cards.rank_of(self._stack[self._next:]), minlength=14)
        return {cards.RANKS[r - 1]: int(counts[r]) for r in self.rules.ranks}
