"""Table-game math: the exact return of every bet, confirmed through the devices.

Rules are data (:mod:`~harness.games.baccarat`, :mod:`~harness.games.roulette`,
:mod:`~harness.games.money_wheels`, :mod:`~harness.games.sic_bo`,
:mod:`~harness.games.craps`), each pay-table entry citing its seed section;
engines are code (:mod:`~harness.games.categorical` for one-outcome games,
:mod:`~harness.games.markov` for multi-roll craps bets, the C kernel
``csrc/baccarat.c`` for any shoe composition).  Wheel tables come from
:mod:`rngcore.devices`.

>>> from harness.games import game
>>> bet = game("craps").analyse().bet("pass")
>>> bet.house_edge
Fraction(7, 495)
"""
from harness.games.core import BetResult, BetRule, OutcomeClass, PayRow, Split, Where, odds
from harness.games.registry import GAMES, Analysis, Game, game

__all__ = ["GAMES", "Analysis", "BetResult", "BetRule", "Game", "OutcomeClass", "PayRow", "Split", "Where",
           "game", "odds"]
