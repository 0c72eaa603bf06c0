"""The round states and the transitions between them (000's e-table clauses, digest §4).

``OUTCOME_DETERMINED`` is the game's own point of §3's table (for a card
game the end of all drawing, not the first card): a fault before it voids
the round, a fault at or after it settles on what was dealt.  ``FAULT``
leads to ``VOID`` (refund) or ``SETTLEMENT`` (settle) and nowhere else.
"""
from __future__ import annotations

import enum


class State(enum.Enum):
    """A round's state; the value is the name the journal and reports use."""

    BETTING_OPEN = "BETTING_OPEN"
    BETTING_CLOSED = "BETTING_CLOSED"
    OUTCOME_GENERATION = "OUTCOME_GENERATION"
    OUTCOME_DETERMINED = "OUTCOME_DETERMINED"
    SETTLEMENT = "SETTLEMENT"
    DONE = "DONE"
    VOID = "VOID"
    FAULT = "FAULT"


#: The legal next states of every state (DONE and VOID are final).
TRANSITIONS: dict[State, frozenset[State]] = {
    State.BETTING_OPEN: frozenset({State.BETTING_CLOSED, State.FAULT}),
    State.BETTING_CLOSED: frozenset({State.OUTCOME_GENERATION, State.FAULT}),
    State.OUTCOME_GENERATION: frozenset({State.OUTCOME_DETERMINED, State.FAULT}),
    State.OUTCOME_DETERMINED: frozenset({State.SETTLEMENT, State.FAULT}),
    State.SETTLEMENT: frozenset({State.DONE, State.FAULT}),
    State.FAULT: frozenset({State.VOID, State.SETTLEMENT}),
    State.DONE: frozenset(),
    State.VOID: frozenset(),
}

#: States in which the outcome is already determined: a fault here settles instead of voiding.
DETERMINED = frozenset({State.OUTCOME_DETERMINED, State.SETTLEMENT})

#: The states a round ends in.
FINAL = frozenset({State.DONE, State.VOID})
