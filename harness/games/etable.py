"""What a game declares about its electronic table-game mode (000's mode B).

Every table game of 000 別表第1 has an item for the electronic table game
system (電子テーブルゲームシステム等): the game may be played with displayed
equipment, offering only the bets that item lists, and a fault rule
(不適切な事象に対する措置) that voids the round for the affected customers
unless the fault came after the game's own "outcome determined" point, when
the round is settled on what was dealt.  A game module states these facts
once, as an :class:`ETable` on its :class:`~harness.games.base.Game`
(attribute ``etable``); :mod:`harness.rounds` reads them through the game
registry.  The digest of the clauses is
``electronic_table_games.md`` §2 (permitted bets) and §3 (determination
points, fault rule).
"""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class ETable:
    """A game's mode-B declaration: permitted bets, determination point, fault rule, rounding.

    Attributes
    ----------
    clause : str
        The mode-B item of 000 (``"000 別表第1 第7 1-8-ハ"``).
    variants : tuple of str
        The game's variants that are 000's game (the first is used by default).
    permitted : tuple of str or None
        Names of the bets mode B may offer (the game's bet names); None: every
        bet of those variants.
    permitted_source : str
        Where the permitted bets are listed, as the refusal of another bet cites it.
    determined_after : str
        The step of the game after which its outcome is determined (§3's table).
    fault_clause : str
        The clause of the fault rule (void before the point, settle after).
    truncation : str or None
        The clause that truncates computed winnings below 1 yen, or None when
        the game's settlement clause states no rounding (then a stake whose
        winnings would not be whole yen is refused).
    note : str
        The reading chosen where the text is ambiguous.
    """

    clause: str
    variants: tuple[str, ...]
    permitted: tuple[str, ...] | None
    permitted_source: str
    determined_after: str
    fault_clause: str
    truncation: str | None = None
    note: str = ""

    def __post_init__(self):
        if not self.variants:
            raise ValueError(f"{self.clause}: an e-table declaration names at least one variant")
        if self.permitted is not None and len(set(self.permitted)) != len(self.permitted):
            raise ValueError(f"{self.clause}: permitted bets must be distinct, got {self.permitted}")


@dataclasses.dataclass(frozen=True)
class Dealt:
    """One round's outcome as a game's round engine deals it.

    Attributes
    ----------
    features : dict
        What the game's pay tables classify (the features of its analysis).
    shown : str
        The outcome as displayed (``"17 red"``, ``"2-5-5"``, the cards).
    record : dict
        JSON-able facts of the deal (a device index, card codes): replaying
        the round from its generator position must reproduce them exactly.
    decisions : tuple of dict
        The customers' mid-round decisions the deal went through (play or
        fold, double, split, ...), in order, each JSON-able and naming its
        clause: the round journals each as a ``decision`` record before the
        outcome.  Empty for a game with none.
    """

    features: dict
    shown: str
    record: dict
    decisions: tuple = ()
