"""Bet scripts for ``rngcert play``: the bets every round of a scripted session places.

A script is TOML or JSON (by its suffix; anything else is read as TOML)::

    rounds = 3                # optional: how many rounds (--rounds overrides)

    [[bets]]
    customer = "ann"
    bet = "banker"            # a bet name of the game (``rngcert game GAME --json`` lists them)
    stake = 15                # whole yen >= 1
    # on = "17"               # the instance of a bet family (a roulette number, a split)
    # at = "BETTING_CLOSED"   # the state the bet is placed in (default BETTING_OPEN)

Every bet is checked against the game's rules before any round is played,
so a script with an unknown or unlisted bet, a stake that is not whole
positive yen, or a bet placed after betting closed is refused as a whole.
"""
from __future__ import annotations

import dataclasses
import json
import pathlib
import tomllib

from harness.rounds.machine import Bet, Round, RoundError
from harness.rounds.states import State

KEYS = {"customer", "bet", "stake", "on", "at"}


@dataclasses.dataclass(frozen=True)
class Script:
    """A parsed bet script: its bets and, if it says, how many rounds."""

    bets: tuple[Bet, ...]
    rounds: int | None


def load(path: pathlib.Path) -> tuple[list[dict], int | None]:
    """The raw bet entries and round count of a script file; RoundError naming the file and the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RoundError(f"{path}: cannot read the bet script ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise RoundError(f"{path}: not a valid {'JSON' if path.suffix.lower() == '.json' else 'TOML'} bet script "
                         f"({exc})") from None
    if not isinstance(data, dict) or set(data) - {"bets", "rounds"}:
        extra = sorted(set(data) - {"bets", "rounds"}) if isinstance(data, dict) else "not a table"
        raise RoundError(f"{path}: a bet script holds 'bets' and optionally 'rounds', found {extra}")
    bets = data.get("bets")
    if not isinstance(bets, list) or not bets or not all(isinstance(b, dict) for b in bets):
        raise RoundError(f"{path}: 'bets' must be a non-empty list of bet tables")
    rounds = data.get("rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
        raise RoundError(f"{path}: 'rounds' must be a whole number >= 1, got {rounds!r}")
    return bets, rounds


def parse(path: pathlib.Path, game, variant: str | None = None, options: dict | None = None) -> Script:
    """The script's bets, each checked on a scratch round of ``game`` (a name or its
    :class:`~harness.rounds.table.RoundRules`; nothing is journaled)."""
    entries, rounds = load(path)
    scratch = Round(game, 0, variant, options=options)
    bets = []
    for n, entry in enumerate(entries, 1):
        where = f"{path}: bet {n}"
        unknown = sorted(set(entry) - KEYS)
        if unknown or not {"customer", "bet", "stake"} <= set(entry):
            raise RoundError(f"{where}: a bet has customer, bet, stake and optionally on, at; "
                             f"got {sorted(entry)}")
        on = entry.get("on")
        bet = Bet(str(entry["customer"]), str(entry["bet"]), entry["stake"], None if on is None else str(on))
        at = entry.get("at", State.BETTING_OPEN.value)
        if at not in {s.value for s in State}:
            raise RoundError(f"{where}: at must be a state ({', '.join(s.value for s in State)}), got {at!r}")
        try:
            scratch.place(bet)
        except RoundError as exc:
            raise RoundError(f"{where}: {exc}") from None
        if at != State.BETTING_OPEN.value:
            raise RoundError(f"{where} ({bet.customer} on {bet.bet}) is placed at {at}: betting is closed then, "
                             "so the bet is refused")
        bets.append(bet)
    problem = scratch.closing_problem()  # the bets as a whole, as betting closes
    if problem is not None:
        index, reason = problem
        bet = bets[index]
        raise RoundError(f"{path}: bet {index + 1} ({bet.customer} on {bet.bet}): {reason}")
    return Script(tuple(bets), rounds)
