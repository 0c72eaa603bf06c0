"""Pai Gow rounds in mode B (000 別表第1 第9 13): the customer's betting area against the dealer.

Built on :mod:`harness.games.pai_gow`'s public functions (the house way,
the settings, the 9-2 comparison).  13-2: the displayed tiles appear as if
dealt from an initialised tile set, and the dice that pick the dealing start
(5-1) are replaced by dealing "to the dealer and the betting areas": a round
draws eight tiles of a freshly shuffled set of 32, the first four the
dealer's, the next four the customer's.  The dealer sets his hands by the
house way (8); the customer's hands are set by the round option
``strategy``: ``"house-way"`` (the default: the dealer sets them on request,
7 ただし書) or ``"best-vs-house-way"`` (the exact best setting against the
house way, :func:`harness.games.pai_gow.customer_settings`).  The outcome is
determined when the dealer has set his hands (14-1, item 8); the one bet
(4-3) wins at 19 to 20 with winnings below 1 yen truncated (10-1).
"""
from __future__ import annotations

import functools

from harness.games import pai_gow as pg
from harness.games.base import GameOption
from harness.games.etable import Dealt
from harness.rounds.engine import RoundEngine
from rngcore.devices.tiles import TILE_SET

STRATEGIES = pg.NAMED_STRATEGIES  # the settings by name (a rule-table file is not a round option)
TILES = len(TILE_SET)
STRATEGY = GameOption.choice("strategy", "how the customer's hands are set: house-way (the dealer sets them on "
                                         "request, 000 第9 7 ただし書) or best-vs-house-way (the exact best "
                                         "setting against the house way)", STRATEGIES)


@functools.lru_cache(maxsize=None)
def _settings(strategy: str) -> tuple[dict, object]:
    tables = pg.hand_tables()
    return {hand: i for i, hand in enumerate(tables.hands)}, pg.customer_settings(strategy)


def _show(split) -> str:
    return " / ".join("-".join(f"T{row}" for row in hand) for hand in split)


class PaiGowRounds(RoundEngine):
    name = "pai-gow"
    round_options = (STRATEGY,)

    def round_bets(self, variant: str) -> tuple:
        return (pg.BET,)

    def round_outcome(self, generator, variant: str, *, strategy: str = "house-way") -> Dealt:
        """Eight tiles of a freshly shuffled set: the dealer's four, then the customer's."""
        _check(strategy)
        drawn = generator.choice(TILES, size=8, replace=False)
        return self.round_dealt(variant, {"tiles": [int(i) for i in drawn]}, strategy=strategy)

    def round_dealt(self, variant: str, record: dict, *, strategy: str = "house-way") -> Dealt:
        _check(strategy)
        drawn = record.get("tiles") if isinstance(record, dict) else None
        if not isinstance(drawn, list) or len(drawn) != 8 or len(set(drawn)) != 8 \
                or not all(type(i) is int and 0 <= i < TILES for i in drawn):
            raise ValueError(f"pai-gow: {record!r} is not a round of eight distinct tiles of the set (0..{TILES - 1})")
        rows = [TILE_SET[i] + 1 for i in drawn]
        dealer = pg.house_way(rows[:4])
        hand = tuple(sorted(rows[4:]))
        position, chosen = _settings(strategy)
        customer = pg.splits(hand)[int(chosen[position[hand]])]
        outcome = pg.settle(customer, dealer)
        return Dealt({"outcome": outcome}, f"dealer {_show(dealer)}, customer {_show(customer)} ({outcome})",
                     {"tiles": drawn, "rows": rows, "outcome": outcome})


def _check(strategy) -> None:
    STRATEGY.check("pai-gow rounds", strategy)


ROUND_ENGINES = (PaiGowRounds(),)
