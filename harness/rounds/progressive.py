"""The poker progressive bet in rounds (000 別表第1 第3 4-2-ロ, 4-6-ハ; 5-8; 6-9): its rule, the award a
round's cards win, and the meter its stakes fund.

Mode B offers it with Caribbean Stud (4-9: the bets of 4-2-ハ-(1) and (2)), Three Card Poker (5-11: 「それら」
read as 「58のイに規定する賭け」) and Texas Hold'em Bonus (6-12: 「69のイに規定する賭け」); digest §2's "+
progressive".  Each game's table of awards and the classification of the cards are
:mod:`harness.games.poker_progressive`'s (``TABLES``): an award is a fixed multiple of the progressive
stake or a share of the accumulated amount (累積金額), the meter.  In a round:

* the bet ``progressive`` settles by :func:`bet_rule`: a fixed award wins N times the stake, the stake
  returned (「賭金のN倍に相当する額」); a share award returns the stake and is paid from the meter; any
  other hand loses;
* the meter (:func:`meter`, :mod:`harness.rounds.meters`) is funded by the progressive stakes of every
  settled round at the operator's rate (4-2-ロ, 5-8-イ, 6-9-イ: chosen so that winnings / stakes stay at
  most 1), exactly, the fractions of a yen carried; a share award pays the whole yen of that share of the
  meter after the round's contribution, with the progressive bet's settlement (``jackpot``); if what is
  left is below the reset amount the meter is set to it, the house adding the difference (4-6-ハ, 5-8-ハ,
  6-9-ハ).  The rate and the reset are the operator's round options ``rate`` (hundredths of a percent,
  default :data:`RATE`) and ``reset`` (yen, default :data:`RESET`), the analysis' own options and
  defaults (:data:`OPTIONS`), journaled with each round, so a recovery meters a round by its own; a new
  meter starts at the reset of the game's first metered round, and a journal's meter continues from its
  earlier rounds whatever a later session's reset (that reset acts at the next award);  Texas Hold'em Bonus truncates a winning below 1 yen (6-8-イ); Caribbean Stud states no rounding
  (4-6), read the same way: the fraction of a yen stays on the meter;
* who may win (:func:`award`): Caribbean Stud and Texas Hold'em Bonus exclude a customer who folded (4-5-ロ,
  6-9-ロ), Hold'em Bonus also a hand formed without the customer's cards (6-9-ロ); Three Card Poker's 5-8-ロ
  excludes no one.  Hold'em Bonus's board royal (6-9-ニ, ホ) is the operator's round option
  ``board-royal`` (:data:`BOARD_ROYAL`, the analysis' own option): with ``yes`` a royal flush of the board
  alone wins too, the whole meter divided by the participants (one customer position here: all of it),
  a folded customer's progressive stake is not collected at the fold (6-9-ニ) and so he wins it too
  (the analysis' reading, :mod:`harness.games.poker_progressive`);
* who may bet (:func:`needs`): a customer with an ante (4-2-ロ ただし書, 6-2-ロ read by 6-9-イ), or, in
  Three Card Poker, with an ante or Pair Plus (5-8-イ), refused when betting closes otherwise.
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from harness.games import poker_progressive as pp
from harness.games.core import PUSH, BetRule, Where, odds, rows
from harness.rounds.meters import MeterSpec

BET = "progressive"
#: The operator's meter options of the rounds, declared once by the analysis: the contribution rate
#: (hundredths of a percent of each progressive stake, 4-2-ロ, 5-8-イ, 6-9-イ) and the reset amount (yen,
#: 4-6-ハ, 5-8-ハ).
OPTIONS = tuple(next(o for o in pp.OPTIONS if o.name == name) for name in ("rate", "reset"))
RATE, RESET = (o.default for o in OPTIONS)

#: Hold'em Bonus's board-royal operator option (6-9-ニ, ホ), declared once by the analysis.
BOARD_ROYAL = next(o for o in pp.OPTIONS if o.name == "board-royal")



def meter(options) -> MeterSpec:
    """The meter of a game's progressive for a round's ``options`` (``rate``, ``reset``; the defaults
    otherwise): funded by the ``progressive`` stakes alone."""
    return MeterSpec(BET, Fraction(options.get("rate", RATE), pp.RATE_SCALE), options.get("reset", RESET),
                     funded_by=BET)


#: The meter at the default rate and reset.
METER = meter({})


class Metered:
    """What a round engine of a game with the progressive adds (put it first among the bases): the meter,
    its rate and reset by the round's options (:func:`harness.rounds.meters.specs_of` reads
    :meth:`meter_specs`); the engine's ``round_options`` list :data:`OPTIONS`."""

    meters = (METER,)

    def meter_specs(self, options) -> tuple[MeterSpec, ...]:
        return (meter(options),)


@functools.lru_cache(maxsize=None)
def bet_rule(variant: str) -> BetRule:
    """The progressive bet of ``variant``'s table, per unit of the progressive stake (Hold'em Bonus's with the
    board royal's row: the round option decides whether a round reaches it)."""
    t = pp.table(variant)
    entries = [(a.name, Where(progressive=a.name), odds(a.multiple) if a.multiple is not None else PUSH)
               for a in t.awards]
    shares = frozenset(a.name for a in t.awards if a.share is not None)
    sources = [t.eligibility, *(a.source for a in t.awards)]
    return BetRule(BET, ", ".join(sources), rows(*entries), push_labels=shares,
                   note=f"per unit of progressive stake: a multiple wins that many stakes; a share of the meter "
                        f"returns the stake and is paid from the meter ({', '.join(sorted(shares))}); the meter "
                        f"is funded at the round option rate of every progressive stake (default {RATE / 100:g} %), "
                        f"reset to the round option reset (default {RESET:,} yen)")


def award(variant: str, codes, eligible: bool = True, **rules) -> dict:
    """The round features of the progressive of a round dealing ``codes`` (the shuffle's first cards, in the
    order of the game's simulation: the table's ``positions`` pick the customer's and the board's):
    ``progressive`` (the award won, or None) and ``meters`` (the share of the meter it takes, if any).
    ``eligible`` False: the customer folded (the table's classification decides what that excludes:
    everything but Hold'em Bonus's board royal under ``board_royal="yes"``)."""
    t = pp.table(variant)
    cards = np.array([[codes[p] for p in t.positions]], dtype=np.uint8)
    index = int(t.classify(cards, played=[eligible], **rules)[0])
    if index < 0:
        return {BET: None, "meters": {}}
    won = t.awards[index]
    return {BET: won.name, "meters": {} if won.share is None else {METER.name: won.share}}


def needs(bets, *, with_any: tuple[str, ...], clause: str):
    """``check_bets``: the index of a progressive bet and why, when the round has none of ``with_any``."""
    names = [b.bet for b in bets]
    if BET in names and not any(n in names for n in with_any):
        return names.index(BET), f"the progressive is only for a customer with {' or '.join(with_any)} ({clause})"
    return None


__all__ = ["BET", "BOARD_ROYAL", "METER", "Metered", "OPTIONS", "RATE", "RESET", "award", "bet_rule", "meter", "needs"]
