"""Reading a journal back: recall of the last rounds, replay of a replay-mode round, recovery at restart.

Recall shows what the journal holds (AGCO asks for the last game plus 9
prior): bets, outcome, settlement and the generator provenance of each
round.  A production-mode outcome cannot be re-derived (its keys are
erased): its recall is the journaled result and its key epoch and position
range.  A replay-mode round is re-derived by :func:`replay` from (seed,
stream, start position) and compared with the journal.  :func:`recover`
finishes every round a stopped process left open, by the fault rule, each
game's meters carried from round to round (:mod:`harness.rounds.meters`).
"""
from __future__ import annotations

import dataclasses

from harness.rounds import meters as meter_rules
from harness.rounds.journal import Journal
from harness.rounds.machine import Round, RoundError
from harness.rounds.states import FINAL, State


METER_FIELDS = ("meter", "before", "contributed", "awarded", "seeded", "after")  # what recall shows of a meter


def summary(events: list[dict]) -> dict:
    """One round as recall shows it."""
    first = events[0]
    state = next((e["state"] for e in reversed(events) if e["kind"] == "state"), first["state"])
    outcome = next((e for e in events if e["kind"] == "outcome"), None)
    fault = next((e for e in events if e.get("state") == "FAULT"), None)
    keep = ("customer", "bet", "on", "stake")
    settlements = [{k: e[k] for k in ("kind", "customer", "bet", "on", "stake", "result", "returned", "collected",
                                      "paid", "jackpot", "reason") if k in e}
                   for e in events if e["kind"] in ("settlement", "unsettled")]
    metered = next((e["meters"] for e in events if e["kind"] == "meters"), None)
    return {
        "round": first["round"], "game": first["game"], "variant": first["variant"], "options": first["options"],
        "state": state,
        "bets": [{k: e[k] for k in keep + ("adds",) if k in e} for e in events if e["kind"] in ("bet", "stake")],
        "decisions": [{k: v for k, v in e.items() if k not in ("round", "seq", "kind")}
                      for e in events if e["kind"] == "decision"],
        "outcome": None if outcome is None else {k: outcome[k] for k in ("shown", "record", "provenance")},
        "fault": None if fault is None else {k: fault[k] for k in ("at", "reason", "clause", "resolution")},
        "settlements": settlements,
        **({} if metered is None else {"meters": [{k: m[k] for k in METER_FIELDS} for m in metered]}),
    }


def recall(journal: Journal, last: int = 10) -> list[dict]:
    """The last ``last`` rounds (the most recent first)."""
    rounds = journal.events()
    return [summary(rounds[r]) for r in list(rounds)[::-1][:last]]


@dataclasses.dataclass(frozen=True)
class Replayed:
    """A replay-mode round re-derived from its recorded generator position, beside the journal's."""

    round: int
    journaled: dict
    derived: dict
    end: int

    @property
    def equal(self) -> bool:
        return self.journaled == self.derived


def replay(journal: Journal, round_id: int, seed: str) -> Replayed:
    """Re-derive round ``round_id`` from ``seed`` and its journaled stream and start position.

    RoundError (bad input) for an unknown round, one with no outcome, a production-mode round, or
    a seed that is not the one the journal names by its fingerprint.
    """
    import rngcore
    from rngcore.engine import seed_fingerprint
    from rngcore.engines import engines

    rounds = journal.events()
    if round_id not in rounds:
        raise RoundError(f"round {round_id} is not in {journal.path} (rounds {min(rounds, default=0)}.."
                         f"{max(rounds, default=0)})")
    events = rounds[round_id]
    outcome = next((e for e in events if e["kind"] == "outcome"), None)
    if outcome is None or outcome.get("provenance") is None:
        raise RoundError(f"round {round_id} has no journaled outcome to re-derive (it ended {summary(events)['state']})")
    p = outcome["provenance"]
    if p["mode"] != "replay":
        raise RoundError(f"round {round_id} was drawn in production mode: its keys are erased, so it is recalled "
                         "(rngcert journal recall), not re-derived")
    engine = engines().get(p["engine"])
    if engine is None:
        raise RoundError(f"round {round_id} names engine {p['engine']!r}, which this rngcert does not have")
    key = engine.parse_seed(seed)
    if seed_fingerprint(key) != p["seed_fingerprint"]:
        raise RoundError(f"--seed is not round {round_id}'s seed: its fingerprint is {seed_fingerprint(key)}, "
                         f"the journal's {p['seed_fingerprint']}")
    generator = rngcore.Generator(engine(key, p["stream"]))
    generator.seek(p["start"])
    r = Round.restore(events)
    dealt = r.rules.engine.round_outcome(generator, r.rules.variant, **r.dealing())
    return Replayed(round_id, outcome["record"], dealt.record, generator.provenance().position)


def recover(journal: Journal) -> list[tuple[int, str, str]]:
    """Finish every open round by the fault rule; (round, state it stopped in, final state) for each.

    A game's meters are carried through its rounds in order: each round settles against the values its
    metered rounds before it left (RoundError if a round's ``meters`` record does not continue them),
    starting at the resets of its first metered round (by that round's journaled options).
    """
    finished, banks = [], {}
    for round_id, events in journal.events().items():
        game = events[0].get("game") if events else None
        r = Round.restore(events, sink=journal.append, meters=banks.get(game))  # a new bank: at its own resets
        if r.metered is not None:  # metered before the stop (or finished): the bank takes its record
            r.meters.absorb(round_id, r.metered)
        if r.state not in FINAL:
            stopped = r.state.value
            r.finish(f"the process stopped in {stopped}; the round is finished at restart")
            journal.commit()
            finished.append((round_id, stopped, r.state.value))
        if r.meters is not None and (game in banks or r.metered is not None):  # the game's meters have begun
            banks[game] = r.meters
    return finished


__all__ = ["Replayed", "recall", "recover", "replay", "summary", "State"]
