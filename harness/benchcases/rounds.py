"""Round bench cases: single-zero roulette rounds through the e-table state machine (issue 17).

The issue's targets are absolute: >= 200,000 rounds/s through the state
machine unjournaled and >= 20,000 journaled (``synchronous=FULL``, one
commit per round), each read beside the raw game kernel of the same run.
The baseline is that kernel drawing the same rounds one C call per round
(what a round of the machine calls once); the report's ratios say what the
machine and the journal cost on top of it.  Every case returns its money
totals, and the check asserts each round settled with its stakes conserved.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np

from harness.benchcases._base import BenchCase

ROUNDS = 2_000
JOURNALED = 200  # each commit is an fsync: a few milliseconds on a disk


def _bets():
    from harness.rounds import Bet

    return [Bet("ann", "straight", 100, "17"), Bet("bob", "red", 50)]


def _setup_machine(journaled: bool, rounds: int):
    def setup():
        import rngcore
        from harness.rounds import Round
        from harness.rounds.journal import Journal
        from harness.rounds.table import rules_for

        g = rngcore.Generator()
        rules = rules_for("roulette-single")
        bets = _bets()
        folder = tempfile.mkdtemp(prefix="rngcert-bench-rounds-")
        runs = [0]

        def run():
            runs[0] += 1
            journal = Journal(os.path.join(folder, f"{runs[0]}.sqlite"), batch="round") if journaled else None
            sink = None if journal is None else journal.append
            totals = {"rounds": 0, "staked": 0, "returned": 0, "collected": 0, "done": 0}
            for i in range(rounds):
                r = Round(rules, i + 1, sink=sink)
                for bet in bets:
                    r.place(bet)
                r.close()
                r.generate(g)
                r.determine()
                r.settle()
                t = r.totals()
                totals["rounds"] += 1
                totals["done"] += r.state.value == "DONE"
                for key in ("staked", "returned", "collected"):
                    totals[key] += t[key]
            if journal is not None:
                journal.close()
            return totals

        return run

    return setup


def _setup_kernel(rounds: int):
    def setup():
        import rngcore
        from harness.games import _native

        g = rngcore.Generator()

        def run():
            counts = np.zeros(37, dtype=np.uint64)
            for _ in range(rounds):
                _native.tally(g, 37, 1, counts)
            return {"rounds": int(counts.sum()), "staked": rounds, "returned": 0, "collected": rounds, "done": rounds}

        return run

    return setup


def _check(rounds: int):
    def check(totals) -> None:
        assert totals["rounds"] == rounds == totals["done"], f"{totals['done']} of {rounds} rounds finished"
        assert totals["staked"] == totals["returned"] + totals["collected"], "stakes not conserved"

    return check


CASES = [
    BenchCase("rounds-roulette", "rngcert-round-machine", _setup_machine(False, ROUNDS), ROUNDS, "rounds",
              check=_check(ROUNDS)),
    BenchCase("rounds-roulette", "raw-kernel-one-call-per-round", _setup_kernel(ROUNDS), ROUNDS, "rounds",
              baseline=True, check=_check(ROUNDS)),
    BenchCase("rounds-roulette-journaled", "rngcert-round-journal-full-sync", _setup_machine(True, JOURNALED),
              JOURNALED, "rounds", check=_check(JOURNALED)),
    BenchCase("rounds-roulette-journaled", "raw-kernel-one-call-per-round", _setup_kernel(JOURNALED), JOURNALED,
              "rounds", baseline=True, check=_check(JOURNALED)),
]
