"""Craps rounds with the multi-roll bets of 000 別表第1 第5 3-3: a bet stays until its roll decides it.

Extends the game's own one-roll rounds (:class:`harness.games.craps.CrapsGame`
as a round engine) with the bets decided over several rolls, built on
:mod:`harness.games.craps`' public chain (:func:`~harness.games.craps.chain_features`,
:func:`~harness.games.craps.shooter_next`, each bet's rows).  A round opens
on a come-out roll with a new shooter and rolls, one roll at a time through
the game's own dice, until every bet placed in it is decided: a pass or
don't-pass bet by its natural, craps, point or seven-out (6-1, 6-2), a
place, buy, lay or hardway bet by its number or a 7 (working on every
roll, the module's reading), a one-roll bet by the round's first roll.  A
round of one-roll bets only is one roll, dealt and journaled exactly as the
game's own engine deals it.

12-2's point is the end of each roll.  The rolls of a round are drawn and
journaled together when the last deciding roll is finished (the outcome
record lists them), so a fault before that leaves no roll of the round
recorded or shown, and the round is void; after it, every bet settles on
the rolls.  Bets that exist only while a point is on (the come and don't
come bets, the odds bets) cannot be placed when a round opens, and are
refused.
"""
from __future__ import annotations

import functools

from harness.games import craps as cr
from harness.games.core import BetRule, PayRow, Where
from harness.games.etable import Dealt
from harness.games.registry import GAMES
from harness.rounds.engine import RoundEngine

MAX_ROLLS = 100_000  # far past any real decision (P(a line bet lasts 100 rolls) < 1e-12)


def _decision_key(name: str) -> str:
    return f"decided_{name}"


def _settled_by_decision(bet: cr.ChainBet) -> BetRule:
    """The chain bet as a pay table over the round's decision of it (a feature the deal computes)."""
    seen, table = set(), []
    for row in bet.rows:
        if row.label not in seen:
            seen.add(row.label)
            table.append(PayRow(row.label, Where(**{_decision_key(bet.name): row.label}), row.pays))
    return BetRule(bet.name, bet.source, tuple(table), push_labels=bet.push_labels, note=bet.note)


class CrapsRounds(RoundEngine):
    name = "craps"
    deals_for_bets = True

    @property
    def game(self):
        return GAMES["craps"]

    def _chains(self, variant: str) -> dict[str, cr.ChainBet]:
        return _chains(variant)

    def round_bets(self, variant: str) -> tuple:
        return tuple(self.game.round_bets(variant)) + tuple(_settled_by_decision(b) for b in _chains(variant).values())

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        chain = self._chains("jp").get(bet.bet)
        if chain is not None and (chain.start != 0 or chain.track != "line"):
            raise ValueError(f"craps: {bet.bet!r} is placed only while a point is on ({chain.source}); a round "
                             "opens on a come-out roll, so it cannot be placed in one")

    def round_outcome(self, generator, variant: str, *, bets=()) -> Dealt:
        """Roll until every bet of ``bets`` (names) is decided; one roll when none spans rolls."""
        chains = self._chains(variant)
        pending = {name for name in bets if name in chains}
        if not pending:
            return self.game.round_outcome(generator, variant)
        rolls, point, mask = [], 0, 0
        while pending:
            index = self.game.round_outcome(generator, variant).record["index"]
            rolls.append(index)
            dice = _dice(index)
            features = cr.chain_features(point, mask, dice)
            pending = {name for name in pending if chains[name].decide(features) is None}
            point, mask = cr.shooter_next(point, mask, sum(dice))
            if len(rolls) >= MAX_ROLLS:
                raise RuntimeError(f"craps: no decision in {MAX_ROLLS} rolls (the generator is broken)")
        return self.round_dealt(variant, {"rolls": rolls})

    def round_batch(self, generator, variant: str, rounds: int, *, bets=()):
        if not any(name in self._chains(variant) for name in bets):
            return self.game.round_batch(generator, variant, rounds)  # one roll each: the C batch kernel
        return super().round_batch(generator, variant, rounds, bets=bets)

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        """A one-roll record (``index``) as the game reads it, or a multi-roll one (``rolls``): the first
        roll's features with every chain bet's decision over the rolls."""
        if isinstance(record, dict) and set(record) == {"index"}:
            return self.game.round_dealt(variant, record)
        rolls = record.get("rolls") if isinstance(record, dict) else None
        if not isinstance(rolls, list) or not rolls or not all(type(i) is int and 0 <= i < 36 for i in rolls):
            raise ValueError(f"craps: {record!r} is not a round of rolls (dice indices 0..35)")
        features = dict(self.game.round_dealt(variant, {"index": rolls[0]}).features)
        point, mask, pending = 0, 0, dict(self._chains(variant))
        for index in rolls:
            dice = _dice(index)
            roll = cr.chain_features(point, mask, dice)
            for name, chain in list(pending.items()):
                row = chain.decide(roll)
                if row is not None:
                    features[_decision_key(name)] = row.label
                    del pending[name]
            point, mask = cr.shooter_next(point, mask, sum(dice))
        shown = ", ".join(f"{i // 6 + 1}-{i % 6 + 1}" for i in rolls)
        return Dealt(features, f"rolls {shown} ({len(rolls)} roll{'s' * (len(rolls) > 1)})", {"rolls": rolls})


@functools.lru_cache(maxsize=None)
def _chains(variant: str) -> dict[str, cr.ChainBet]:
    """The variant's chain bets by name (built once: the module builds them on every call)."""
    return {b.name: b for b in cr.chains_for(variant)}


def _dice(index: int) -> tuple[int, int]:
    return index // 6 + 1, index % 6 + 1


ROUND_ENGINES = (CrapsRounds(),)
