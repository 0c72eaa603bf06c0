"""Clause by clause: every clause rngcert checks, mapped to the evidence in a report.

Each row of :data:`CLAUSES` is a clause with its citation, what it
requires, and which sections of a report are its evidence: devices (by
name pattern or statistical kind), games (by name), the slot checks (by
rule id of :mod:`harness.slot.profiles`) or the self-test.  A clause
rngcert cannot check (fault handling of the game program, help-screen
content) is a row too, with ``covered=False`` and why: the table lists it
as *not covered*, never leaves it out.

Statuses in a report:

* ``checked``: the plan had evidence for the clause; its verdict is the
  evidence's (``fail`` if any piece fails, ``incomplete`` if any is);
* ``not in plan``: rngcert can check it, but this plan has no section that does;
* ``not covered``: rngcert cannot check it (the note says what would).

The 000 citations follow ``../shared/rules/electronic_games.md`` and
``electronic_table_games.md`` (seed ``000_d4cd2a3cb5c95429.txt``); the
GLI-11 items follow the issue's list of RNG items, and their section
numbers are not verified here (GLI-11's text is not among the sources).
"""
from __future__ import annotations

import dataclasses
import fnmatch

from harness.verdict import FAIL, INCOMPLETE, PASS

CHECKED, NOT_IN_PLAN, NOT_COVERED = "checked", "not in plan", "not covered"
GLI = "GLI-11 v3.0 RNG requirements, item"
GLI_NOTE = "GLI-11 section number not verified (its text is not among the sources)"


@dataclasses.dataclass(frozen=True)
class Clause:
    """One clause and the evidence that checks it.

    Attributes
    ----------
    id : str
        Short id used in the report (``"000-10-3-3"``).
    citation : str
        Where the clause is written.
    requirement : str
        What it requires, in a line.
    devices : tuple of str
        fnmatch patterns of device names whose battery sections are evidence.
    kinds : tuple of str
        Statistical kinds (``"permutation"``) whose device sections are evidence.
    own_devices : bool
        Only sections drawn from rngcert's own devices count (not captures).
    games : tuple of str
        Game names whose sections are evidence.
    slot_rules : tuple of str
        Rule ids of :mod:`harness.slot.profiles` whose checks are evidence.
    selftest : bool
        The build's self-test is evidence.
    rounds : bool
        The scripted fault studies of ``[[rounds]]`` sections are evidence: those of slot models
        (``game = "slot:MODEL"``) when ``slot_rounds``, else those of table games.
    replay : bool
        Evidence only when every drawing section ran in replay mode (the report then names the
        seed's fingerprint, stream and position of every outcome).
    covered : bool
        False: rngcert cannot check the clause; ``note`` says what would.
    note : str
    """

    id: str
    citation: str
    requirement: str
    devices: tuple = ()
    kinds: tuple = ()
    own_devices: bool = False
    games: tuple = ()
    slot_rules: tuple = ()
    selftest: bool = False
    rounds: bool = False
    slot_rounds: bool = False
    replay: bool = False
    covered: bool = True
    note: str = ""

    def evidence(self, records: list[dict]) -> list[dict]:
        """The parts of a report's section records that check this clause: ``{"section", "what",
        "verdict"}`` each."""
        found = []
        for record in records:
            kind, result = record["kind"], record.get("result") or {}
            if kind == "selftest" and self.selftest:
                found.append({"section": record["key"], "what": "self-test", "verdict": record["verdict"]})
            elif kind == "device" and (self.devices or self.kinds):
                name = record["key"].split(":", 1)[1].split("#")[0]
                own = not record.get("inputs")
                if self.own_devices and not own:
                    continue
                if any(fnmatch.fnmatchcase(name, p) for p in self.devices) or result.get("kind") in self.kinds:
                    found.append({"section": record["key"], "what": "statistical battery",
                                  "verdict": record["verdict"]})
            elif kind == "game" and any(fnmatch.fnmatchcase(result.get("game", ""), p) for p in self.games):
                found.append({"section": record["key"], "what": "exact analysis"
                              + (" and simulation" if result.get("simulation") else ""), "verdict": record["verdict"]})
            elif kind == "rounds" and self.rounds and \
                    str(result.get("game", "")).startswith("slot:") == self.slot_rounds:
                found.append({"section": record["key"], "what": "scripted rounds: faults and recovery",
                              "verdict": record["verdict"]})
            elif kind == "slot" and self.slot_rules:
                for check in result.get("checks", []):
                    if check.get("rule") in self.slot_rules:  # an undecided check shows neither pass nor fail
                        verdict = check["verdict"] if check["verdict"] in (PASS, FAIL) else INCOMPLETE
                        found.append({"section": record["key"], "what": f"check {check['rule']}",
                                      "verdict": verdict})
        return found

    def assess(self, records: list[dict], replay: bool) -> dict:
        """This clause's row of the report."""
        row = {"id": self.id, "citation": self.citation, "requirement": self.requirement, "note": self.note}
        if not self.covered:
            return {**row, "status": NOT_COVERED, "verdict": None, "evidence": []}
        evidence = self.evidence(records)
        if self.replay and not replay:
            return {**row, "status": NOT_COVERED, "verdict": None, "evidence": [],
                    "note": (self.note + "; " if self.note else "") + "the plan ran in production mode"}
        if not evidence:
            return {**row, "status": NOT_IN_PLAN, "verdict": None, "evidence": []}
        verdicts = {e["verdict"] for e in evidence}
        verdict = FAIL if FAIL in verdicts else PASS if verdicts == {PASS} else INCOMPLETE
        return {**row, "status": CHECKED, "verdict": verdict, "evidence": evidence}


def _equiprobable(id_, citation, game_text, devices, games, kinds=()):
    return Clause(id_, f"000 別表第1 {citation} (shared/rules/electronic_table_games.md §2)",
                  f"{game_text}: each displayed outcome appears with the probability of the physical equipment",
                  devices=devices, kinds=kinds, games=games)


CLAUSES: tuple[Clause, ...] = (
    # 000 第10: electronic (slot-style) games, shared/rules/electronic_games.md
    Clause("000-10-3-1", "000 別表第1 第10 3-1 (seed L3299-3301; electronic_games.md §3)",
           "outcomes are determined from the value output by the system's built-in RNG",
           selftest=True, note="evidence: the self-test of every registered engine; each drawing section "
                               "names its engine, seed fingerprint and stream"),
    Clause("000-10-3-3", "000 別表第1 第10 3-3 (seed L3303; electronic_games.md §3)",
           "the least likely winning condition has probability at least 1/100,000,000", slot_rules=("jp-3-3",)),
    Clause("000-10-4-3", "000 別表第1 第10 4-3 イ, ロ (seed L3313-3317; electronic_games.md §4)",
           "90% <= theoretical return per single bet < 100%, bonus features and progressives included",
           slot_rules=("jp-4-3",)),
    Clause("000-10-5", "000 別表第1 第10 5-1, 5-2 (electronic_games.md §5)",
           "a fault before the outcome is determined voids the round; after, it is settled; unsettleable: record",
           rounds=True, slot_rounds=True,
           note="evidence: a [[rounds]] section of a slot model (game = \"slot:MODEL\"), rngcert's journaled slot "
                "play faulted before and after its determination point (the play's last reel stop drawn), one "
                "customer's settlement recorded unsettled, and restarted after a stop; the product's own program "
                "is tested on the machine"),
    Clause("000-10-help", "000 別表第1 第10 2-3, 3-2, 4-2, 5-3 (electronic_games.md)",
           "help screens describe the bets, the win conditions, the payout computation and fault measures",
           covered=False, note="content review of the help screens"),
    # e-table common clauses, shared/rules/electronic_table_games.md
    _equiprobable("000-1-13-2", "第1 13-2", "baccarat", ("shoe:[4-8]",), ("baccarat",)),
    _equiprobable("000-2-1-18", "第2 1-18-ロ", "blackjack", ("shoe:[4-8]",), ("blackjack",)),
    _equiprobable("000-3-4-9", "第3 4-9-ロ", "poker games (one shuffled deck)", ("deck",), ()),
    _equiprobable("000-4-12-2", "第4 12-2", "casino war", ("shoe:[4-8]",), ("casino-war",)),
    _equiprobable("000-5-11-3", "第5 11-3", "craps (two dice)", ("dice:2",), ("craps",)),
    _equiprobable("000-6-10-3", "第6 10-3", "sic bo (three dice)", ("dice:3",), ("sic-bo",)),
    _equiprobable("000-7-1-8", "第7 1-8-ハ", "single-zero roulette", ("roulette-single",), ("roulette-single",)),
    _equiprobable("000-7-2-8", "第7 2-8", "double-zero roulette", ("roulette-double",), ("roulette-double",)),
    _equiprobable("000-8-9-3", "第8 9-3", "money wheel", ("money-wheel",), ("money-wheel",)),
    _equiprobable("000-9-13-2", "第9 13-2", "pai gow (tile set)", ("tiles",), ("pai-gow",)),
    Clause("000-etable-bets", "000 別表第1, each game's e-table item (electronic_table_games.md §1)",
           "an electronic table game offers only the bets listed for that game", covered=False,
           note="the games' exact analyses list the bets rngcert's rules tables define; whether a product offers "
                "only those is a review of the product"),
    Clause("000-etable-fault", "000 別表第1 第1 14-1 and each game's fault item (electronic_table_games.md §3)",
           "a fault voids the round for the affected customers unless the outcome was determined, then settle",
           rounds=True, note="evidence: a [[rounds]] section, rngcert's journaled round state machine faulted "
                             "before and after the game's determination point and restarted after a stop; the "
                             "product's own program is tested on the machine"),
    Clause("000-etable-record", "000 別表第1 第1 14-2 and each game's fault item (electronic_table_games.md §3)",
           "a settlement that cannot be completed is recorded and the record kept", rounds=True,
           note="evidence: a [[rounds]] section, whose unreachable customer's bets are journaled unsettled; "
                "the operator's own record keeping is reviewed on its system"),
    # GLI-11-style RNG items
    Clause("gli11-strength", f"{GLI} 'cryptographic strength'",
           "the RNG is a cryptographic generator whose output passes its known-answer tests", selftest=True,
           note=GLI_NOTE),
    Clause("gli11-seeding", f"{GLI} 'seeding'", "the RNG is seeded from an unpredictable source", covered=False,
           note="production mode seeds from the OS (getrandom) and fails closed (docs/audit_contract.md); "
                "no test of outcomes can show it. " + GLI_NOTE),
    Clause("gli11-reseeding", f"{GLI} 'reseeding'", "the RNG reseeds in a way that does not weaken it",
           covered=False, note="reseeding after 1 GiB and after fork() is tested in rngcert's test suite, "
                               "not in this report. " + GLI_NOTE),
    Clause("gli11-scaling", f"{GLI} 'scaling'",
           "outcomes are scaled to their ranges without bias (no modulo, no float scaling)",
           devices=("*",), note="evidence: the frequency tests of each device. " + GLI_NOTE),
    Clause("gli11-shuffling", f"{GLI} 'shuffling'", "every ordering of a shuffled stack is equally likely",
           kinds=("permutation",), note=GLI_NOTE),
    Clause("gli11-independence", f"{GLI} 'independence'",
           "successive outcomes are independent (serial, gap, runs and correlation tests)", devices=("*",),
           note=GLI_NOTE),
    Clause("gli11-integrity", f"{GLI} 'outcome integrity'",
           "any recorded outcome can be recomputed from the generator's record", devices=("*",), own_devices=True,
           replay=True,
           note="evidence: each drawing section's provenance (engine, seed fingerprint, stream, position; "
                "docs/audit_contract.md). " + GLI_NOTE),
    Clause("gli11-failure", f"{GLI} 'failure handling'",
           "the RNG stops producing output when its self-test fails", selftest=True,
           note="the power-on self-test and the continuous test; a failed one makes every command fail closed. "
                + GLI_NOTE),
)


def clause_table(records: list[dict], replay: bool) -> list[dict]:
    """Every clause's row for a report whose section records are ``records``."""
    return [clause.assess(records, replay) for clause in CLAUSES]


__all__ = ["CLAUSES", "Clause", "clause_table", "CHECKED", "NOT_IN_PLAN", "NOT_COVERED"]
