"""Table-game math: the exact return of every bet, confirmed through the devices.

Each game is one module holding its rules table (every pay-table entry
citing its seed section) and declaring its game(s) in ``GAMES``
(:class:`~harness.games.base.Game`); :mod:`~harness.games.registry`
discovers them.  Engines are shared code (:mod:`~harness.games.base`,
:mod:`~harness.games.categorical` for one-outcome games,
:mod:`~harness.games.markov` for multi-roll craps bets, the C kernel
``csrc/kernels/baccarat.c`` for any shoe composition).  Device tables come from
:mod:`rngcore.devices`.

>>> from harness.games import game
>>> bet = game("craps").analyse().bet("pass")
>>> bet.house_edge
Fraction(7, 495)
"""
from harness.games.core import BetResult, BetRule, OutcomeClass, PayRow, Split, Where, odds
from harness.games.registry import GAMES, Analysis, Game, GameOption, game, register, register_module, register_package

__all__ = ["GAMES", "Analysis", "BetResult", "BetRule", "Game", "GameOption", "OutcomeClass", "PayRow", "Split",
           "Where", "game", "odds", "register", "register_module", "register_package"]
