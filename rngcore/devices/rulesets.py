"""Shoe procedures of each rule set, as data with citations.

A rule set fixes how a card shoe is initialised and ended:

* ``decks``: the permitted deck counts and the default.
* ``ranks``: standard 13 ranks, or Pontoon's 12 (10s removed).
* ``cut``: the stack is cut (cards above the cutting card go to the bottom)
  at a position at least ``cut.min_from_end`` cards from either end; ``None``
  when the procedure has no cut (machine-shuffled / continuous).
* ``cut_card``: where the cut card (penetration card) goes, as a range of
  cards *behind* it (from the bottom), each end a card count (int) or a
  fraction of the stack (Fraction, rounded up); ``None``: no cut card.
* ``after_cut_card``: ``"finish-round"`` (the round in which the cut card
  comes out is the last) or ``"one-more-round"`` (one more round is played;
  if the cut card came out before any card of a round, that round is the
  last).  Then the cards are collected and reshuffled.
* ``burn``: what is burned after each shuffle (:class:`Burn`).
* ``continuous``: cards return and the stack is reshuffled every round
  (continuous shuffler, or a single deck shuffled before every round).

Values the sources leave to the operator carry a default marked
"not in sources" in ``notes``; every field can be overridden per shoe.

This is the one statement of each shoe procedure: the device's
:class:`~rngcore.devices.shoe.Shoe` follows it, a recorded shoe is replayed
by it (:meth:`Shoe.replay <rngcore.devices.shoe.Shoe.replay>`), and the C
kernels receive it as their rule struct from :meth:`RuleSet.c_rules`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rngcore.devices.cards import MAX_DECKS, PONTOON_RANKS, STANDARD_RANKS

FINISH_ROUND = "finish-round"
ONE_MORE_ROUND = "one-more-round"
AFTER_CUT_CARD = (FINISH_ROUND, ONE_MORE_ROUND)
BURN_MODES = ("none", "count", "by-value")  # the C rule struct's burn_mode numbers them in this order


@dataclass(frozen=True)
class Burn:
    """A burn procedure.

    kind : "none" | "count" | "by-value"
        ``count``: burn ``count`` cards.  ``by-value``: draw one card (the
        indicator, burned face up) and burn as many further cards as its
        value, with A = ``ace`` and 10/J/Q/K = ``ten_value``, 2-9 at face
        value.  With ``indicator_counts`` the indicator is one of those
        cards (value cards burned in all, at least the indicator) -- the
        other reading of "burn as many cards as its value".
    """

    kind: str = "none"
    count: int = 0
    ace: int = 1
    ten_value: int = 10
    indicator_counts: bool = False

    def __post_init__(self):
        if self.kind not in BURN_MODES:
            raise ValueError(f"burn kind must be one of {', '.join(BURN_MODES)}; got {self.kind!r}")
        if self.kind == "count" and self.count < 1:
            raise ValueError(f"a count burn needs count >= 1, got {self.count}")
        if self.kind == "by-value" and not (0 <= self.ace <= 11 and 0 <= self.ten_value <= 10):
            raise ValueError(f"by-value burn: ace must be in 0..11 and ten_value in 0..10, got {self.ace}, {self.ten_value}")

    def value_of_rank(self, rank: int) -> int:
        """Cards burned for an indicator of ``rank`` (1..13)."""
        if rank == 1:
            return self.ace
        if rank >= 10:
            return self.ten_value
        return rank


NO_BURN = Burn("none")


def cards_behind(spec: int | Fraction, size: int) -> int:
    """Cards behind the cut card for one end of a cut-card range: a count, or a fraction of ``size`` rounded up."""
    return spec if isinstance(spec, int) else math.ceil(spec * size)


@dataclass(frozen=True)
class Cut:
    """The player's/dealer's cut: position at least ``min_from_end`` from either end."""

    min_from_end: int = 1


@dataclass(frozen=True)
class RuleSet:
    """How one jurisdiction's shoe is shuffled, cut, burned and ended (see module doc)."""

    name: str
    citation: str
    decks: tuple[int, int]                     # permitted (min, max)
    default_decks: int
    ranks: tuple[int, ...] = STANDARD_RANKS
    cut: Cut | None = Cut(1)
    cut_card: tuple[int | Fraction, int | Fraction] | None = (Fraction(1, 4), Fraction(1, 4))
    after_cut_card: str = FINISH_ROUND
    burn: Burn = NO_BURN
    burn_each_round: int = 0
    continuous: bool = False
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        lo, hi = self.decks
        if not 1 <= lo <= hi <= MAX_DECKS or not lo <= self.default_decks <= hi:
            raise ValueError(f"{self.name}: decks {self.decks} / default {self.default_decks} outside 1..{MAX_DECKS}")
        if self.after_cut_card not in AFTER_CUT_CARD:
            raise ValueError(f"after_cut_card must be one of {', '.join(AFTER_CUT_CARD)}; got {self.after_cut_card!r}")

    def with_options(self, **changes) -> "RuleSet":
        """A copy with operator choices changed (e.g. ``burn=Burn("count", 2)``)."""
        return replace(self, **changes)

    def c_rules(self, decks: int) -> dict[str, int]:
        """This procedure for ``decks`` decks as the C kernels' rule struct (``kern_bac_rules`` fields).

        Raises ValueError if the procedure does not allow that many decks, or
        is not a dealt-down shoe with a cut card (the kernels deal those).
        """
        lo, hi = self.decks
        if not lo <= decks <= hi:
            raise ValueError(f"{self.name} ({self.citation}) allows {lo}..{hi} decks, got {decks}; "
                             "the exact analysis takes more, the simulation follows the procedure")
        if self.continuous or self.cut_card is None:
            raise ValueError(f"{self.name}: the C kernels deal a dealt-down shoe with a cut card")
        size = 4 * len(self.ranks) * decks
        return {
            "fresh_each_round": 0,
            "cut_min_from_end": 0 if self.cut is None else self.cut.min_from_end,
            "cut_behind_lo": cards_behind(self.cut_card[0], size),
            "cut_behind_hi": cards_behind(self.cut_card[1], size),
            "one_more_round": int(self.after_cut_card == ONE_MORE_ROUND),
            "burn_mode": BURN_MODES.index(self.burn.kind),
            "burn_count": self.burn.count,
            "burn_ace": self.burn.ace,
            "burn_ten": self.burn.ten_value,
            "burn_indicator_counts": int(self.burn.indicator_counts),
            "burn_each_round": self.burn_each_round,
        }


_OPERATOR_CUT_CARD = "cut-card position not in sources (operator parameter): default 1/4 of the stack behind it"


def _japan(name: str, citation: str, decks: tuple[int, int], after_cut_card: str, **fields) -> RuleSet:
    """A shoe game of 000 別表第1: the procedure of 第1 2-1, which the other
    card games apply.  Burn "one or more" cards (2-1-ハ; the count is an
    operator parameter, default 1); the cut-card position is left to the
    operator (default 1/4 of the stack behind it); default decks 8, the most
    each game permits."""
    fields = {
        "default_decks": 8,
        "burn": Burn("count", 1),
        "notes": (_OPERATOR_CUT_CARD, "burn count not in sources (\"one or more\"): default 1"),
        **fields,
    }
    return RuleSet(name=name, citation=citation, decks=decks, after_cut_card=after_cut_card, **fields)


RULE_SETS: dict[str, RuleSet] = {
    r.name: r
    for r in (
        RuleSet(
            name="pa-blackjack",
            citation="002 58 Pa. Code § 549.3, 549.6(d),(e),(g), 549.7(c),(k)",
            decks=(1, MAX_DECKS), default_decks=6,
            cut=Cut(10),                          # § 549.6(d): at least 10 cards in from top or bottom
            cut_card=(Fraction(1, 4), Fraction(1, 4)),  # § 549.6(e): "at least approximately one-quarter" from the bottom
            after_cut_card=FINISH_ROUND,          # § 549.7(k)
            burn=Burn("count", 1),                # § 549.7(c): first card to the discard rack
            notes=("deck count: § 549.3 sets only a minimum (1); default 6 not in sources",
                   "cut card read as exactly one-quarter of the stack behind it (rounded up)"),
        ),
        _japan("jp-baccarat", "000 別表第1 第1 1, 2-1, 10", (4, 8),
               ONE_MORE_ROUND,                    # 第1 10
               cut=Cut(1)),                       # 2-1-ロ: cut anywhere
        _japan("jp-blackjack", "000 別表第1 第2 1-1, 1-2 (applying 第1 2), 1-15", (4, 8),
               FINISH_ROUND),                     # 1-15
        _japan("jp-blackjack-switch", "000 別表第1 第2 2-1, 2-14", (6, 8), FINISH_ROUND),
        _japan("jp-pontoon", "000 別表第1 第2 3-1, 3-11", (4, 8), FINISH_ROUND,
               ranks=PONTOON_RANKS),              # 3-1: decks with the 10s removed
        _japan("jp-casino-war", "000 別表第1 第4 1, 2, 9", (4, 8),
               ONE_MORE_ROUND),                   # 9 applies 第1 10
        RuleSet(
            name="jp-poker",
            citation="000 別表第1 第3 1, 2",
            decks=(1, 1), default_decks=1,
            cut=None, cut_card=None, continuous=True,  # one deck, shuffled before every round
        ),
        RuleSet(
            name="deluxe-blackjack",
            citation="001 セットアップ, シャッフルについて",
            decks=(8, 8), default_decks=8,
            after_cut_card=FINISH_ROUND,          # "that round is the last of the shoe"
            burn=Burn("by-value", ace=1, ten_value=10),
            notes=(_OPERATOR_CUT_CARD,
                   "burn: A counts 1 and 10/J/Q/K count 10 (001 states neither); the drawn card is burned "
                   "in addition to that many cards (also unstated; indicator_counts=True is the other reading)"),
        ),
        RuleSet(
            name="macau-baccarat",
            citation="003 Art. 1(1), 2-1, 3-1, 8",
            decks=(6, 12), default_decks=8,
            cut_card=(12, 12),                    # Art. 2-1: "at least about 12 cards" from the end
            after_cut_card=FINISH_ROUND,          # Art. 3-1 ambiguous ("last round, or one more")
            burn=Burn("by-value", ace=1, ten_value=10),
            notes=("default decks 8 not in sources",
                   "burn by the first card's face value is an interpretation of garbled Art. 2-1; "
                   "A = 1, 10/J/Q/K = 10 not in sources",
                   "after the cut card: Art. 3-1 reads both ways; finish-round chosen",
                   "Art. 8 optional burn of one card per round: burn_each_round (default 0)"),
        ),
        RuleSet(
            name="sbo-baccarat",
            citation="004 バーンカード無し",
            decks=(1, MAX_DECKS), default_decks=8,
            burn=NO_BURN,                         # "the dealer does not burn cards between games"
            notes=("deck count, cut and cut-card position not in sources: defaults 8 decks, "
                   "1/4 of the stack behind the cut card, finish-round",),
        ),
    )
}


def rule_set(name: str) -> RuleSet:
    """The :class:`RuleSet` called ``name``; ValueError listing the valid names."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; valid: {', '.join(RULE_SETS)}") from None
