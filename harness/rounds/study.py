"""A scripted fault study: rounds with faults before and after the determination point, and a recovery.

The evidence a certification plan's ``[[rounds]]`` section gives for 000's
e-table fault rule (``electronic_table_games.md`` §3-4) and its record
rule: rngcert's round state machine, journaled, plays a game's scripted
bets through

1. ``rounds`` ordinary rounds;
2. a fault as betting closes (before the determination point): void, every
   stake returned;
3. a fault once the outcome is determined, with the first customer
   unreachable: settled on what was dealt, that customer's bets recorded
   unsettled and kept;
4. two rounds stopped (the process "dies", the journal is closed with them
   open) in ``OUTCOME_GENERATION`` and in ``OUTCOME_DETERMINED``; the
   journal is reopened and :func:`~harness.rounds.recall.recover` finishes
   them by the rule, the first void, the second settled;

and checks the invariants the issue states: the hash chain is intact, every
round ends ``DONE`` or ``VOID``, every bet is settled (or recorded
unsettled) exactly once, the stakes are conserved, each fault resolved as
the rule says, and a second recovery finds nothing to do.  It is evidence
about rngcert's reference rounds; a product's own program is tested on the
machine.
"""
from __future__ import annotations

import pathlib

from harness.rounds import recall
from harness.rounds.journal import Journal
from harness.rounds.machine import Round
from harness.rounds.meters import bank_of
from harness.rounds.states import DETERMINED, State


def fault_study(rules, bets, generator, path: pathlib.Path, rounds: int = 10, options: dict | None = None) -> dict:
    """Run the study on a new journal at ``path``; its JSON-able result (``checks``: name, ok, detail)."""
    options = dict(options or {})
    checked = rules.check_options(options)  # once, before any round
    rules.prepare(checked)
    first = bets[0].customer
    faults, stopped = [], {}
    with Journal(path) as journal:
        meters = bank_of(rules, journal, checked)  # a game with meters: every round settles against them in turn

        def round_() -> Round:
            r = Round(rules, journal.next_round_id(), sink=journal.append, options=checked, meters=meters)
            for bet in bets:
                r.place(bet)
            r.close()
            return r

        for _ in range(rounds):
            r = round_()
            r.generate(generator)
            r.determine()
            r.settle()
        before = round_()
        before.fault("fault injected as betting closed (study)")
        faults.append((before.round_id, State.BETTING_CLOSED, before.state, ()))
        after = round_()
        after.generate(generator)
        after.determine()
        after.fault("fault injected after the determination point (study)", unreachable=(first,))
        faults.append((after.round_id, State.OUTCOME_DETERMINED, after.state, (first,)))
        for state in (State.OUTCOME_GENERATION, State.OUTCOME_DETERMINED):
            r = round_()
            r.generate(generator)
            if state is State.OUTCOME_DETERMINED:
                r.determine()
            stopped[r.round_id] = state
    with Journal(path) as journal:  # the restart
        recovered = recall.recover(journal)
        again = recall.recover(journal)
        verified = journal.verify()
        events = journal.events()
    checks = [_check("the hash chain is intact", verified.ok, verified.reason or f"{verified.records} records")]
    checks += _round_checks(events)
    for round_id, at, state, unreachable in faults:
        want = State.DONE if at in DETERMINED else State.VOID
        checks.append(_check(f"round {round_id}: a fault at {at.value} is {want.value}", state is want,
                             f"finished {state.value}"))
        if unreachable:
            kept = [e for e in events[round_id] if e["kind"] == "unsettled"]
            checks.append(_check(f"round {round_id}: the bets of unreachable {first!r} are recorded, not paid",
                                 bool(kept) and all(e["customer"] == first for e in kept),
                                 f"{len(kept)} unsettled records"))
    expected = [(r, s.value, (State.DONE if s in DETERMINED else State.VOID).value) for r, s in stopped.items()]
    checks.append(_check("the restart finishes the stopped rounds by the rule", recovered == expected,
                         f"recovered {recovered}, expected {expected}"))
    checks.append(_check("a second restart has nothing to do", again == [], f"recovered {again}"))
    return {"game": rules.game.name, "variant": rules.variant, "options": options, "rounds": len(events),
            "records": verified.records, "tip": verified.tip,
            "faults": [{"round": r, "at": at.value, "finished": s.value} for r, at, s, _ in faults],
            "recovered": [{"round": r, "stopped_in": s, "finished": f} for r, s, f in recovered],
            "checks": checks}


def _check(name: str, ok: bool, detail: str) -> dict:
    return {"check": name, "ok": bool(ok), "detail": detail}


def _round_checks(events: dict) -> list[dict]:
    """Every round DONE or VOID, each bet settled once, the stakes conserved (unsettled amounts included)."""
    open_, twice, unbalanced = [], [], []
    for round_id, evs in events.items():
        state = [e["state"] for e in evs if e["kind"] == "state"][-1]
        if state not in ("DONE", "VOID"):
            open_.append(round_id)
        bets = [e for e in evs if e["kind"] in ("bet", "stake")]  # the stakes added after betting closed too
        moves = [e for e in evs if e["kind"] in ("settlement", "unsettled")]
        if sorted(m["index"] for m in moves) != list(range(len(bets))):
            twice.append(round_id)
        if sum(b["stake"] for b in bets) != sum(m["returned"] + m["collected"] for m in moves):
            unbalanced.append(round_id)
    return [_check("every round ends DONE or VOID", not open_, f"open: {open_}" if open_ else f"{len(events)} rounds"),
            _check("every bet is settled or recorded exactly once", not twice, f"rounds {twice}" if twice else "yes"),
            _check("stakes in = returned + collected", not unbalanced,
                   f"rounds {unbalanced}" if unbalanced else "every round")]


__all__ = ["fault_study"]
