"""Bet scripts for ``rngcert play``: the bets every round of a scripted session places.

A script is TOML or JSON (by its suffix; anything else is read as TOML)::

    rounds = 3                # optional: how many rounds (--rounds overrides)

    [[bets]]
    customer = "ann"
    bet = "banker"            # a bet name of the game (``rngcert game GAME --json`` lists them)
    stake = 15                # whole yen >= 1
    # on = "17"               # the instance of a bet family (a roulette number, a split)
    # at = "BETTING_CLOSED"   # the state the bet is placed in (default BETTING_OPEN)

A game whose customers decide mid-round (twenty-one, with the round option
``strategy=script``, its default) reads their actions from the script, one
list per round, one action per decision point in order::

    actions = [["no-insurance", "hit", "stand"], ["split", "stand", "double"]]

(round N plays the Nth list; a flat list is the first round's).  Whether an
action is allowed is known only as the round is dealt: a refused one is named
with its round and place then.  Texas Hold'em Bonus takes ``play`` / ``fold``,
then ``bet`` / ``check`` twice (``[["play", "bet", "check"], ["fold"]]``),
each word checked before any round; a decision its list does not reach is
made by the round option ``strategy``.

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
    actions: tuple[tuple[str, ...], ...] | None = None  # the scripted actions of round 1, 2, ...

    def actions_of(self, n: int):
        """The scripted actions of the ``n``-th round of the session (from 0), or None (no script)."""
        if self.actions is None:
            return None
        return self.actions[n] if n < len(self.actions) else ()


def load(path: pathlib.Path) -> tuple[list[dict], int | None, tuple | None]:
    """The raw bet entries, round count and scripted actions of a script file; RoundError naming the file
    and the problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RoundError(f"{path}: cannot read the bet script ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise RoundError(f"{path}: not a valid {'JSON' if path.suffix.lower() == '.json' else 'TOML'} bet script "
                         f"({exc})") from None
    if not isinstance(data, dict) or set(data) - {"bets", "rounds", "actions"}:
        extra = sorted(set(data) - {"bets", "rounds", "actions"}) if isinstance(data, dict) else "not a table"
        raise RoundError(f"{path}: a bet script holds 'bets' and optionally 'rounds' and 'actions', found {extra}")
    bets = data.get("bets")
    if not isinstance(bets, list) or not bets or not all(isinstance(b, dict) for b in bets):
        raise RoundError(f"{path}: 'bets' must be a non-empty list of bet tables")
    rounds = data.get("rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
        raise RoundError(f"{path}: 'rounds' must be a whole number >= 1, got {rounds!r}")
    return bets, rounds, _actions(path, data.get("actions"))


def _actions(path: pathlib.Path, given) -> tuple | None:
    """The script's ``actions``: a list of per-round lists of action words (a flat list: one round)."""
    if given is None:
        return None
    if isinstance(given, list) and all(isinstance(a, str) for a in given):
        given = [given]
    if not isinstance(given, list) or not all(isinstance(r, list) and all(isinstance(a, str) for a in r)
                                               for r in given):
        raise RoundError(f"{path}: 'actions' must be a list of rounds, each a list of action words "
                         "(e.g. [[\"hit\", \"stand\"]])")
    return tuple(tuple(r) for r in given)


def parse(path: pathlib.Path, game, variant: str | None = None, options: dict | None = None) -> Script:
    """The script's bets, each checked on a scratch round of ``game`` (a name or its
    :class:`~harness.rounds.table.RoundRules`; nothing is journaled)."""
    entries, rounds, actions = load(path)
    scratch = Round(game, 0, variant, options=options)
    engine = scratch.rules.engine
    if getattr(engine, "takes_actions", False):
        try:
            engine.check_actions(actions, scratch.options)
        except ValueError as exc:
            raise RoundError(f"{path}: 'actions': {exc}") from None
    elif actions is not None:
        raise RoundError(f"{path}: 'actions': {scratch.rules.game.name} rounds take no scripted actions")
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
    return Script(tuple(bets), rounds, actions)
