"""The game class shared by the poker games dealt from one fresh deck per round.

Such a game's module holds its rules tables and two functions,
``analyse(strategy, **options)`` and ``simulate(rounds, generator, strategy,
progress, chunk, **options)`` (the options: the game's declared
:class:`~harness.games.base.GameOption` values by keyword); its
:class:`DeckGame` names them.  A module's ``simulate`` says how one chunk of
deals is settled into its tallies and hands the rest (the deck, the chunks,
Ctrl-C, the report) to :func:`play_deals`.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np

from harness.games.base import Analysis, Game, _replay, _run
from harness.games.core import BetResult
from harness.games.simulate import BetSimulation, Simulation

#: What every deck game's round starts with (the procedure line of its simulation report).
FRESH_DECK = "one fresh 52-card shuffle per round (000 第3 2)"


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


def run_whole_chunks(rounds: int, chunk: int, step: Callable[[int], None], done_so_far: Callable[[], int],
                     progress) -> tuple[int, bool, float]:
    """:func:`harness.games.base._run` with every chunk taken whole.

    Ctrl-C or SIGTERM while ``step`` settles a chunk acts once the chunk is
    counted (:func:`stats._signals.deferred_signals`), so a step that fills
    several tallies in Python (the deals, the boards, the count of rounds)
    never leaves an interrupted report whose tallies disagree with the rounds
    it says were played.
    """
    from stats._signals import deferred_signals

    def whole(n: int) -> None:
        with deferred_signals():  # (the tallies and the count of rounds move together)
            step(n)

    return _run(rounds, chunk, whole, done_so_far, progress)


def play_deals(game: str, rounds: int, generator, progress, chunk: int, settle: Callable[[np.ndarray], None],
               bets: Sequence[tuple[BetResult, Mapping[str, int]]], *, dealt: str, note: str,
               tested: int = 0) -> Simulation:
    """Deal ``rounds`` rounds from the ``deck`` device in chunks and report them.

    Parameters
    ----------
    game : str
        The game's name in the report.
    settle : callable
        Called with each chunk's deals (one row of 52 card codes per round, the
        deck's order); adds every round's outcome to the tallies in ``bets``.
    bets : sequence of (BetResult, dict)
        Each reported bet's exact result and the tally ``settle`` fills (label -> rounds).
    dealt : str
        Which cards of the deck go where (after :data:`FRESH_DECK` in the procedure).
    note : str
        What the outcome chi-square tests.
    tested : int
        The bet whose classes are the outcome chi-square (an index into ``bets``).

    Notes
    -----
    A chunk is settled whole: Ctrl-C or SIGTERM while ``settle`` fills the
    tallies acts once the chunk is counted, so an interrupted report's tallies
    hold exactly the rounds it says were played.
    """
    from rngcore.devices import device_spec

    deck = device_spec("deck")
    done = [0]

    def step(n: int) -> None:
        settle(deck.draw(generator, n))
        done[0] += n

    played, interrupted, seconds = run_whole_chunks(rounds, chunk, step, lambda: done[0], progress)
    sims = tuple(BetSimulation(exact, tally) for exact, tally in bets)
    return Simulation(game, "standard", "deck", played, rounds, seconds, sims[tested].fit, sims,
                      procedure=f"{FRESH_DECK}; {dealt}", interrupted=interrupted, replay=_replay(generator),
                      note=note)
