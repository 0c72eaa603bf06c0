"""The game class shared by the poker games dealt from one fresh deck per round.

Such a game's module holds its rules tables and two functions,
``analyse(strategy, **options)`` and ``simulate(rounds, generator, strategy,
progress, chunk, **options)`` (the options: the game's declared
:class:`~harness.games.base.GameOption` values by keyword); its
:class:`DeckGame` names them.
"""
from __future__ import annotations

from typing import Callable

from harness.games.base import Analysis, Game


class DeckGame(Game):
    """A game with one variant, settled for a declared strategy by its module's functions."""

    devices = "deck"
    chunk = 1 << 15
    analysis: Callable[..., Analysis]
    simulation: Callable

    def _analyse(self, variant, *, strategy, **options) -> Analysis:
        return type(self).analysis(strategy, **options)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, **options):
        return type(self).simulation(rounds, generator, strategy, progress, self.chunk, **options)
