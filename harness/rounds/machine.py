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

Additional stakes.  A game whose customers add stakes after betting closes
(twenty-one's double, split and insurance) takes each as a ``stake`` event
while the outcome is generated, before the outcome and the determination
point (:meth:`Round.add_stake`; a round engine announces them in its
decisions, ``adds``).  An additional stake is one more entry of
:attr:`Round.bets`, settled on its own rule like any bet: so a fault before
the determination point returns it with the rest, a fault after settles it,
and the conservation ``stakes in = returned + collected + paid`` holds over
every stake of the round.

Meters.  A game whose round engine lists meters (``engine.meters``: a slot
model's progressive, jackpot and mystery levels) settles against a
:class:`~harness.rounds.meters.MeterBank` holding their values between
rounds: its settlement starts with one ``meters`` record (every meter's
contribution, award and new value, :mod:`harness.rounds.meters`), and the
awards are paid with the settlement of the first bet funding them (a poker
progressive's ``progressive``; else the first bet: ``jackpot``, part of
``paid``).  A round voided before the determination point has no such
record: it neither funds nor wins a meter.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Callable, Iterable

from harness.rounds import meters as meter_rules, money
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
        out = {"customer": self.customer, "bet": self.bet, "stake": self.stake}
        if self.on is not None:
            out["on"] = self.on
        return out


class Round:
    """A round of ``game`` (see the module doc).

    Parameters
    ----------
    game : str or RoundRules
        A registered game with an e-table declaration, or the rules of one
        (``rules_for(game, variant)``, read once for a table playing many rounds).
    round_id : int
        The round's number (the journal's key).
    variant : str, optional
        One of the declaration's variants (default: its first).
    sink : callable, optional
        Called with every event as it happens.
    options : dict, optional
        Keywords of the game's round engine (``decks`` for baccarat); options that
        ``rules.check_options`` returned are not checked again (a table checks once).
    actions : sequence of str, optional
        The customer's actions at the round's decision points, in order (a bet
        script's, for an engine that ``takes_actions``: twenty-one); journaled
        with the round's ``open`` record.
    meters : MeterBank, optional
        The game's meters before this round, for a game with meters (default: a new
        bank, every meter at its reset); the round's settlement updates it.  Play
        a journal's rounds with the bank of :func:`harness.rounds.meters.bank_of` (its values after the
        journal's rounds).
    """

    def __init__(self, game: str, round_id: int = 1, variant: str | None = None,
                 sink: Callable[[dict], None] | None = None, options: dict | None = None, actions=None,
                 meters: meter_rules.MeterBank | None = None):
        self.rules: RoundRules = game if isinstance(game, RoundRules) else rules_for(game, variant)
        game = self.rules.game.name
        self.round_id = round_id
        self.options = self.rules.check_options(options)
        self.state = State.BETTING_OPEN
        self.bets: list[Bet] = []
        self._rules: list = []  # each bet's resolved rule, in bet order
        self.events: list[dict] = []
        self.outcome = None
        self._pending = None  # the dealt outcome and its draw, until the determination point
        self.settled: set[int] = set()  # indices of bets settled (or recorded unsettled)
        self._sink = sink
        specs = meter_rules.specs_of(self.rules)
        self.meters = None if not specs else meters if meters is not None else meter_rules.MeterBank(game, specs)
        self.metered: list[dict] | None = None  # the round's meters record's entries, once journaled
        self.actions = None if actions is None else [str(a) for a in actions]
        if self.actions is not None and not getattr(self.rules.engine, "takes_actions", False):
            raise RoundError(f"{game}: its rounds take no scripted actions (it has no customer decisions to script)")
        given = {} if self.actions is None else {"actions": self.actions}
        self._emit("open", state=self.state.value, game=game, variant=self.rules.variant, options=self.options,
                   **given)

    @classmethod
    def restore(cls, events: list[dict], sink: Callable[[dict], None] | None = None,
                meters: meter_rules.MeterBank | None = None) -> "Round":
        """The round its journaled ``events`` describe, ready to continue (recovery), settling against the
        bank ``meters`` (a game with meters: its values before this round, or after it if the round's
        ``meters`` record is journaled, :func:`harness.rounds.recall.recover`).

        RoundError if the events are not a round this rngcert wrote (they were checked by the
        hash chain, so this means a round of a game or variant no longer known).
        """
        if not events or events[0].get("kind") != "open":
            raise RoundError(f"round {events[0].get('round') if events else '?'}: its first record is not 'open'")
        first = events[0]
        rules = rules_for(first["game"], first["variant"])
        r = cls(rules, first["round"], options=rules.check_options(first.get("options"), prepare=False),
                actions=first.get("actions"), meters=meters)
        r.events = [dict(e) for e in events]
        for e in events:
            kind = e["kind"]
            if kind in ("bet", "stake"):
                bet = Bet(e["customer"], e["bet"], e["stake"], e.get("on"))
                r.bets.append(bet)
                r._rules.append(r.rules.rule(bet.bet, bet.on) if kind == "bet" else r.rules.stake_rule(bet.bet))
            elif kind == "state":
                r.state = State(e["state"])
            elif kind == "outcome":
                try:  # with the keywords it was dealt with: its options, and the bets an engine deals by
                    r.outcome = r.rules.engine.round_dealt(r.rules.variant, e["record"], **r.dealing())
                except ValueError as exc:
                    raise RoundError(f"round {r.round_id}: {exc}") from None
            elif kind in ("settlement", "unsettled"):
                r.settled.add(e["index"])
            elif kind == "meters":
                r.metered = e["meters"]
        if r.outcome is None and (r.state in DETERMINED or any(e.get("resolution") == "settle" for e in events)):
            raise RoundError(f"round {r.round_id}: determined, but its outcome record is missing")
        r._sink = sink
        return r

    def finish(self, reason: str) -> str:
        """Finish an open round by the fault rule (recovery after a stop); returns its final state.

        A round that stopped in ``FAULT`` continues the resolution its fault record chose; one that
        stopped anywhere else faults now, at the state it reached.
        """
        if self.state in FINAL:
            return self.state.value
        if self.state is State.FAULT:
            fault = next(e for e in reversed(self.events) if e.get("state") == "FAULT")
            if fault["resolution"] == "settle":
                self._move(State.SETTLEMENT)
                self._settle_remaining(frozenset())
                self._move(State.DONE)
            else:
                self._refund(frozenset())
                self._move(State.VOID)
        else:
            self.fault(reason)
        return self.state.value

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
        self.rules.check_stake(rule, bet.stake)
        check = getattr(self.rules.engine, "check_bet", None)  # a registered engine may refuse a combination
        if check is not None:
            try:
                check(bet, tuple(self.bets), self.options)
            except ValueError as exc:
                raise RoundError(str(exc)) from None
        self.bets.append(bet)
        self._rules.append(rule)
        self._emit("bet", **bet.as_dict())

    def closing_problem(self) -> tuple[int, str] | None:
        """The first bet the game's rules refuse once betting closes (index, reason), or None."""
        check = getattr(self.rules.engine, "check_bets", None)
        return None if check is None else check(tuple(self.bets), self.options)

    def close(self) -> None:
        """Close betting; RoundError (and betting stays open) if the round's bets as a whole are refused."""
        problem = self.closing_problem() if self.state is State.BETTING_OPEN else None
        if problem is not None:
            index, reason = problem
            bet = self.bets[index]
            raise RoundError(f"round {self.round_id}: bet {index + 1} ({bet.customer} {bet.bet} {bet.stake}): {reason}")
        self._move(State.BETTING_CLOSED)

    def generate(self, generator) -> None:
        """Draw the outcome through the game's round engine, recording the generator positions it used."""
        self._move(State.OUTCOME_GENERATION)
        before = generator_provenance(generator)
        try:
            dealt = self.rules.engine.round_outcome(generator, self.rules.variant, **self.dealing())
        except ValueError as exc:  # the round cannot be played as given (a scripted action the rules refuse)
            self.fault(f"the round cannot be played as given: {exc}")
            error = RoundError(f"round {self.round_id}: {exc} (the round is void, every stake returned)")
            error.scripted = self.actions is not None  # the caller names the script it came from
            raise error from None
        self._deal(dealt, drawn_provenance(before, generator_provenance(generator)))

    def dealing(self) -> dict:
        """The keywords the round engine deals this round with (its options, the bets it deals by, the
        scripted actions)."""
        placed = self.bets[:sum(e["kind"] == "bet" for e in self.events)]  # additional stakes come after
        out = self.rules.dealing(self.options, placed)
        return out if self.actions is None else {**out, "actions": self.actions}

    def drawn(self, dealt, provenance: dict | None) -> None:
        """Enter OUTCOME_GENERATION with an outcome already drawn, and its draw's provenance
        (:func:`drawn_provenance`): the batch table draws many rounds in one call."""
        self._move(State.OUTCOME_GENERATION)
        self._deal(dealt, provenance)

    def _deal(self, dealt, provenance) -> None:
        """The deal is in progress: its customers' decisions are journaled as they are made, one record
        each, and the stakes a decision adds right after it (a fault before the determination point
        still voids the round, returning them too)."""
        for decision in dealt.decisions:
            adds = decision.get("adds", ())
            self._emit("decision", **{k: v for k, v in decision.items() if k != "adds"})
            for extra in adds:
                self.add_stake(extra["bet"], extra["of"], Fraction(extra["share"]), decision["decision"],
                               decision.get("clause", ""))
        self._pending = (dealt, provenance)

    def add_stake(self, bet: str, of: str, share: Fraction, reason: str, clause: str = "") -> Bet:
        """Take an additional stake after betting closed, while the outcome is generated: ``share`` times
        the stake of the round's bet ``of``, from its customer, settled by the rule ``bet`` (a bet of
        the round engine: ``double_1``, ``split_2``, ``insurance_1``); ``of`` names the round's first bet
        of that name, or is the index of one of its bets (one of several customers' bets of one name).
        One ``stake`` event, journaled before the outcome; RoundError in any other state, for an ``of``
        the round has no bet of, or a stake that is not whole yen."""
        if self.state is not State.OUTCOME_GENERATION:
            raise RoundError(f"round {self.round_id}: an additional stake ({reason}) is taken while the outcome is "
                             f"generated, not in {self.state.value}")
        if isinstance(of, int):
            to = of if 0 <= of < len(self.bets) else None
        else:
            to = next((i for i, b in enumerate(self.bets) if b.bet == of), None)
        if to is None:
            raise RoundError(f"round {self.round_id}: an additional stake ({reason}) on {of!r}, a bet the round "
                             "does not have")
        amount = self.bets[to].stake * share
        if amount.denominator != 1 or amount < 1:
            raise RoundError(f"round {self.round_id}: {reason} adds {share} of the {self.bets[to].stake} yen stake on "
                             f"{of!r}: {amount} yen is not a whole stake")
        rule = self.rules.stake_rule(bet)
        extra = Bet(self.bets[to].customer, bet, int(amount))
        self.bets.append(extra)
        self._rules.append(rule)
        self._emit("stake", index=len(self.bets) - 1, **extra.as_dict(), adds=reason, to=to, clause=clause)
        return extra

    def determine(self) -> None:
        """The game's determination point (its ``etable.determined_after``): the outcome is now fixed."""
        if self.state is not State.OUTCOME_GENERATION:
            self._move(State.OUTCOME_DETERMINED)  # refused, naming the legal transitions
        dealt, provenance = self._pending
        # the outcome is journaled before the point is: a round found determined always has its outcome
        self._emit("outcome", shown=dealt.shown, record=dealt.record, provenance=provenance)
        self.outcome = dealt
        self._move(State.OUTCOME_DETERMINED, point=self.rules.etable.determined_after)

    def start_settlement(self) -> None:
        """Enter SETTLEMENT without settling yet (:meth:`settle` continues from here)."""
        self._move(State.SETTLEMENT)

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
        jackpot = self._meter() if self._funds_meters() else 0
        funded = {s.funded_by for s in self.meters.specs} if jackpot else set()
        winner = next((i for i, b in enumerate(self.bets) if b.bet in funded), 0)
        for i, bet in enumerate(self.bets):
            if i in self.settled:
                continue  # never settled twice
            label, amounts = self.rules.settle(self._rules[i], bet.stake, self.outcome.features)
            if i == winner and jackpot:  # the awards go with the first bet funding them (else the first), uncapped
                hit = ", ".join(f"{e['meter']} {e['awarded']}" for e in self.metered if e["awarded"])
                amounts = money.Amounts(amounts.returned, amounts.collected, amounts.paid + jackpot)
                self._record(i, bet, amounts, unreachable, result=f"{label}; {hit}", jackpot=jackpot)
                continue
            self._record(i, bet, amounts, unreachable, result=label)

    def _funds_meters(self) -> bool:
        """Whether the round is metered: a game with meters, one of which every stake funds or the round
        holds the bet that funds it (a round without a poker progressive bet has no ``meters`` record)."""
        names = {b.bet for b in self.bets}
        return self.meters is not None and any(s.funded_by is None or s.funded_by in names for s in self.meters.specs)

    def _meter(self) -> int:
        """Journal the round's ``meters`` record, once (a restored round may hold it), and update the
        bank; the yen the meters award."""
        if self.metered is None:
            funding: dict[str, int] = {}
            for b in self.bets:
                funding[b.bet] = funding.get(b.bet, 0) + b.stake
            entries = self.meters.entries(sum(funding.values()), self.outcome.features.get("meters", ()), funding)
            self._emit("meters", meters=entries)
            self.meters.absorb(self.round_id, entries)
            self.metered = entries
        return sum(e["awarded"] for e in self.metered)

    def _refund(self, unreachable) -> None:
        for i, bet in enumerate(self.bets):
            if i not in self.settled:
                self._record(i, bet, money.Amounts(bet.stake, 0, 0), unreachable, result="void")

    # -- reading -----------------------------------------------------------------------------

    def totals(self) -> dict[str, int]:
        """Stakes in (additional stakes too) and what the settlement records say went where (unsettled
        amounts apart)."""
        out = {"staked": sum(b.stake for b in self.bets), "returned": 0, "collected": 0, "paid": 0,
               "unsettled_returned": 0, "unsettled_collected": 0, "unsettled_paid": 0}
        for e in self.events:
            if e["kind"] in ("settlement", "unsettled"):
                prefix = "" if e["kind"] == "settlement" else "unsettled_"
                for key in ("returned", "collected", "paid"):
                    out[prefix + key] += e[key]
        return out


def generator_provenance(generator) -> dict | None:
    provenance = getattr(generator, "provenance", None)
    if provenance is None:
        return None
    p = provenance()
    out = {"engine": p.engine, "mode": p.mode, "seed_fingerprint": p.seed_fingerprint, "stream": p.stream,
           "position": p.position}
    bits = getattr(generator, "bit_source", None)
    epoch = None if bits is None else bits.epoch()
    if epoch is not None:
        out["epoch"], out["epoch_position"] = epoch
    return out


def drawn_provenance(before: dict | None, after: dict | None) -> dict | None:
    """The provenance of one draw: who drew it and the output byte range [start, end) it consumed.

    Replay mode: (seed fingerprint, stream, start) re-derives it.  Production mode: the keys are
    erased, so the draw is named by its key epoch and the range within it (``epoch_start`` ..
    ``epoch_end``, in epoch ``epoch``; a reseed inside the draw shows as ``end_epoch``), beside
    ``start``/``end``, the bytes the engine had handed out in all.
    """
    if before is None or after is None:
        return None
    out = {k: v for k, v in before.items() if k not in ("position", "epoch", "epoch_position")}
    out["start"], out["end"] = before["position"], after["position"]
    if "epoch" in before:
        out["epoch"], out["epoch_start"] = before["epoch"], before["epoch_position"]
        out["epoch_end"] = after["epoch_position"]
        if after["epoch"] != before["epoch"]:
            out["end_epoch"] = after["epoch"]
    return out
