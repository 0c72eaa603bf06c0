"""Round bench cases: single-zero roulette rounds through the e-table state machine (issue 17).

The issue's targets are absolute: >= 200,000 rounds/s through the state
machine unjournaled and >= 20,000 journaled (``synchronous=FULL``), each
read beside the raw game kernel of the same run.  The baseline is that
kernel drawing the same rounds one C call per round (what one round of the
machine draws); the report's ratios say what the machine and the journal
cost on top of it.  The cases:

* ``rngcert-round-table``: a batch table (:mod:`harness.rounds.batch`), the
  fast path ``rngcert play`` uses for rounds without a fault;
* ``rngcert-round-machine``: one :class:`~harness.rounds.machine.Round` per
  round, every step called by hand (the path of a faulted round);
* journaled, the table with group commit (a window of 1,024 rounds, each
  window one fsync'd transaction) and, for comparison, the machine with one
  commit per round (``batch="round"``).

Every case returns its money totals, and the check asserts each round
finished with its stakes conserved.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np

from harness.benchcases._base import BenchCase

TABLE_ROUNDS = 100_000
MACHINE_ROUNDS = 2_000
JOURNALED = 20_000
PER_ROUND_COMMITS = 50  # each commit is an fsync: a few milliseconds on a disk


def _bets():
    from harness.rounds import Bet

    return [Bet("ann", "straight", 100, "17"), Bet("bob", "red", 50)]


def _setup(batch: str | None, play):
    """A setup whose run plays ``play(rules, bets, generator, journal)`` on a fresh journal (or none)
    and discards the journal after."""
    def setup():
        import rngcore
        from harness.rounds.journal import Journal
        from harness.rounds.table import rules_for

        g = rngcore.Generator()
        rules, bets = rules_for("roulette-single"), _bets()
        folder, runs = tempfile.mkdtemp(prefix="rngcert-bench-rounds-"), [0]

        def run():
            runs[0] += 1
            journal = None if batch is None else Journal(os.path.join(folder, f"{runs[0]}.sqlite"), batch=batch)
            try:
                return play(rules, bets, g, journal)
            finally:
                if journal is not None:  # a run writes tens of megabytes
                    journal.close()
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(journal.path + suffix):
                            os.remove(journal.path + suffix)

        return run

    return setup


def _table(rounds: int):
    def play(rules, bets, g, journal):
        from harness.rounds.batch import Table

        t = Table(rules, bets, journal=journal).play(g, rounds)
        return {"rounds": t.rounds, "done": t.done, "staked": t.staked, "returned": t.returned,
                "collected": t.collected}

    return play


def _machine(rounds: int):
    def play(rules, bets, g, journal):
        from harness.rounds import Round

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
        return totals

    return play


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
    BenchCase("rounds-roulette", "rngcert-round-table", _setup(None, _table(TABLE_ROUNDS)), TABLE_ROUNDS, "rounds",
              check=_check(TABLE_ROUNDS)),
    BenchCase("rounds-roulette", "rngcert-round-machine", _setup(None, _machine(MACHINE_ROUNDS)), MACHINE_ROUNDS,
              "rounds", check=_check(MACHINE_ROUNDS)),
    BenchCase("rounds-roulette", "raw-kernel-one-call-per-round", _setup_kernel(MACHINE_ROUNDS), MACHINE_ROUNDS,
              "rounds", baseline=True, check=_check(MACHINE_ROUNDS)),
    BenchCase("rounds-roulette-journaled", "rngcert-round-table-group-commit", _setup("group", _table(JOURNALED)),
              JOURNALED, "rounds", check=_check(JOURNALED)),
    BenchCase("rounds-roulette-journaled", "rngcert-round-machine-commit-per-round",
              _setup("round", _machine(PER_ROUND_COMMITS)), PER_ROUND_COMMITS, "rounds", check=_check(PER_ROUND_COMMITS)),
    BenchCase("rounds-roulette-journaled", "raw-kernel-one-call-per-round", _setup_kernel(JOURNALED), JOURNALED,
              "rounds", baseline=True, check=_check(JOURNALED)),
]
