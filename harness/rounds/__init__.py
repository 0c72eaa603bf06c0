"""Electronic table-game rounds: the state machine of 000's e-table clauses, settlement in whole yen.

A round (:class:`~harness.rounds.machine.Round`) moves through
``BETTING_OPEN → BETTING_CLOSED → OUTCOME_GENERATION → OUTCOME_DETERMINED →
SETTLEMENT → DONE``; a fault (``FAULT``) resolves by 000's rule: ``VOID``
with every stake returned before the game's determination point, settlement
on what was dealt after it (``electronic_table_games.md`` §3-4, and 000
第10 5-1 for slot-style games).  What each game permits and where its
outcome is determined are declared once in the game's module
(:class:`harness.games.etable.ETable`) and read through the game registry.
"""
from harness.rounds.machine import Bet, Round, RoundError
from harness.rounds.states import State, TRANSITIONS

__all__ = ["Bet", "Round", "RoundError", "State", "TRANSITIONS"]
