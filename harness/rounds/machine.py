"""One round of an electronic table game, by 000's rules, as a sequence of append-only events.

A :class:`Round` accepts bets while betting is open, draws its outcome
through the game's round engine, and settles every bet in whole yen.  A
fault (:meth:`Round.fault`) is resolved at once by the rule of the game's
fault clause: before the outcome is determined the round is void and every
stake is returned; at or after it the round is settled on what was dealt.
A bet that cannot be settled because its customer cannot be identified or
is missing is recorded as unsettled and kept (the clause's second paragraph).

Every state change, bet, outcome and settlement is one event (a dict), in
order, handed to ``sink`` as it happens (the journal writes them), so a
round is exactly what its events say.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

from harness.rounds import money
from harness.rounds.states import DETERMINED, FINAL, TRANSITIONS, State
from harness.rounds.table import RoundError, RoundRules, rules_for

__all__ = ["Bet", "Round", "RoundError"]


@dataclasses.dataclass(frozen=True)
class Bet:
    """A customer's stake on one bet (``on``: the instance of a bet family, e.g. a roulette number)."""

    customer: str
    bet: str
    stake: int
    on: str | None = None

    def as_dict(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


class Round:
    """A round of ``game`` (see the module doc).

    Parameters
    ----------
    game : str
        A registered game with an e-table declaration.
    round_id : int
        The round's number (the journal's key).
    variant : str, optional
        One of the declaration's variants (default: its first).
    sink : callable, optional
        Called with every event as it happens.
    options : dict, optional
        Keywords of the game's round engine (``decks`` for baccarat).
    """

    def __init__(self, game: str, round_id: int = 1, variant: str | None = None,
                 sink: Callable[[dict], None] | None = None, options: dict | None = None):
        self.rules: RoundRules = rules_for(game, variant)
        self.round_id = round_id
        self.options = dict(options or {})
        self.state = State.BETTING_OPEN
        self.bets: list[Bet] = []
        self.events: list[dict] = []
        self.outcome = None
        self._pending = None  # the dealt outcome and its draw, until the determination point
        self.settled: set[int] = set()  # indices of bets settled (or recorded unsettled)
        self._sink = sink
        self._emit("open", state=self.state.value, game=game, variant=self.rules.variant, options=self.options)

    # -- events ------------------------------------------------------------------------------

    def _emit(self, kind: str, **data) -> dict:
        event = {"round": self.round_id, "seq": len(self.events), "kind": kind, **data}
        self.events.append(event)
        if self._sink is not None:
            self._sink(event)
        return event

    def _move(self, to: State, **data) -> None:
        if to not in TRANSITIONS[self.state]:
            raise RoundError(f"round {self.round_id}: {self.state.value} -> {to.value} is not a legal transition "
                             f"(from {self.state.value}: {', '.join(s.value for s in TRANSITIONS[self.state]) or 'none, it is final'})")
        before, self.state = self.state, to
        self._emit("state", state=to.value, previous=before.value, **data)

    # -- the steps ---------------------------------------------------------------------------

    def place(self, bet: Bet) -> None:
        """Accept a bet (only while betting is open; only a permitted bet; a whole, positive stake)."""
        game = self.rules.game.name
        if self.state is not State.BETTING_OPEN:
            raise RoundError(f"round {self.round_id}: betting is closed ({self.state.value}); bet {bet.bet!r} of "
                             f"{bet.customer!r} refused")
        rule = self.rules.rule(bet.bet, bet.on)
        if isinstance(bet.stake, bool) or not isinstance(bet.stake, int) or bet.stake < 1:
            raise RoundError(f"{game}: a stake is a whole number of yen >= 1, got {bet.stake!r} on {bet.bet!r}")
        if not money.whole_payouts(bet.stake, self.rules.nets(rule), self.rules.etable.truncation):
            raise RoundError(f"{game}: a stake of {bet.stake} on {bet.bet!r} would pay a winning that is not whole "
                             "yen, and the game's settlement clause states no rounding")
        self.bets.append(bet)
        self._emit("bet", **bet.as_dict())

    def close(self) -> None:
        """Close betting."""
        self._move(State.BETTING_CLOSED)

    def generate(self, generator) -> None:
        """Draw the outcome through the game's round engine, recording the generator positions it used."""
        self._move(State.OUTCOME_GENERATION)
        before = _provenance(generator)
        dealt = self.rules.game.round_outcome(generator, self.rules.variant, **self.options)
        after = _provenance(generator)
        self._pending = (dealt, _drawn(before, after))

    def determine(self) -> None:
        """The game's determination point (its ``etable.determined_after``): the outcome is now fixed."""
        if self.state is not State.OUTCOME_GENERATION:
            self._move(State.OUTCOME_DETERMINED)  # refused, naming the legal transitions
        dealt, provenance = self._pending
        self.outcome = dealt
        self._move(State.OUTCOME_DETERMINED, point=self.rules.etable.determined_after)
        self._emit("outcome", shown=dealt.shown, record=dealt.record, provenance=provenance)

    def settle(self, unreachable: Iterable[str] = ()) -> None:
        """Settle every bet not yet settled; a bet of a customer in ``unreachable`` is recorded, not paid."""
        if self.state is not State.SETTLEMENT:
            self._move(State.SETTLEMENT)
        self._settle_remaining(frozenset(unreachable))
        self._move(State.DONE)

    def fault(self, reason: str, unreachable: Iterable[str] = ()) -> None:
        """A fault now: void and refund before the determination point, settle after it (the fault clause)."""
        if self.state in FINAL or self.state is State.FAULT:
            raise RoundError(f"round {self.round_id}: a {self.state.value} round cannot fault")
        at = self.state
        settles = at in DETERMINED
        self._move(State.FAULT, at=at.value, reason=reason, clause=self.rules.etable.fault_clause,
                   resolution="settle" if settles else "void")
        if settles:
            self._move(State.SETTLEMENT)
            self._settle_remaining(frozenset(unreachable))
            self._move(State.DONE)
        else:
            self._refund(frozenset(unreachable))
            self._move(State.VOID)

    # -- money -------------------------------------------------------------------------------

    def _record(self, index: int, bet: Bet, amounts: money.Amounts, unreachable, **data) -> None:
        self.settled.add(index)
        kind = "unsettled" if bet.customer in unreachable else "settlement"
        extra = {"reason": "the customer cannot be identified or is missing: recorded and kept "
                           f"(the paragraph after {self.rules.etable.fault_clause})"} if kind == "unsettled" else {}
        self._emit(kind, index=index, **bet.as_dict(), **amounts.as_dict(), **data, **extra)

    def _settle_remaining(self, unreachable) -> None:
        truncation = self.rules.etable.truncation
        for i, bet in enumerate(self.bets):
            if i in self.settled:
                continue  # never settled twice
            label, net = self.rules.net(self.rules.rule(bet.bet, bet.on), self.outcome.features)
            self._record(i, bet, money.settle(bet.stake, net, truncation), unreachable, result=label)

    def _refund(self, unreachable) -> None:
        for i, bet in enumerate(self.bets):
            self._record(i, bet, money.Amounts(bet.stake, 0, 0), unreachable, result="void")

    # -- reading -----------------------------------------------------------------------------

    def totals(self) -> dict[str, int]:
        """Stakes in and what the settlement records say went where (unsettled amounts apart)."""
        out = {"staked": sum(b.stake for b in self.bets), "returned": 0, "collected": 0, "paid": 0,
               "unsettled_returned": 0, "unsettled_collected": 0, "unsettled_paid": 0}
        for e in self.events:
            if e["kind"] in ("settlement", "unsettled"):
                prefix = "" if e["kind"] == "settlement" else "unsettled_"
                for key in ("returned", "collected", "paid"):
                    out[prefix + key] += e[key]
        return out


def _provenance(generator) -> dict | None:
    provenance = getattr(generator, "provenance", None)
    return None if provenance is None else provenance().as_dict()


def _drawn(before: dict | None, after: dict | None) -> dict | None:
    """The provenance of one draw: who drew it and the output byte range [start, end) it consumed."""
    if before is None or after is None:
        return None
    out = {k: v for k, v in before.items() if k != "position"}
    out["start"], out["end"] = before["position"], after["position"]
    return out
