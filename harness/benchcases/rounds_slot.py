"""Slot rounds (issue 17): plays of a slot model through the round machine, beside the C kernel.

One round is one play of ``examples/slot_two_scatters.toml`` (243 ways, free
spins with retriggers) by :class:`harness.slot.spin.Player`, staked, drawn,
determined and settled.  The baseline is the C kernel (``kern_slot_simulate``)
playing the same number of plays from a generator, what ``--simulate`` runs:
the ratios say what one play's Python evaluation, the machine and the
journal cost on top of the game's own arithmetic.  The cases:

* ``rngcert-slot-table``: the batch table (:mod:`harness.rounds.batch`),
  ``rngcert play``'s path, unjournaled;
* ``rngcert-slot-table-group-commit``: the same, journaled with group commit
  (a window of 1,024 rounds per fsync'd transaction);
* ``rngcert-slot-play``: :meth:`~harness.slot.spin.Player.spin` alone (no round).

Each checks that every round finished with its stakes conserved.
"""
from __future__ import annotations

import os
import tempfile

from harness.benchcases._base import BenchCase, shipped_or_skip

EXAMPLE = "examples/slot_two_scatters.toml"  # shipped; found by shipped_or_skip at set-up
ROUNDS = 4_000


def _model_path() -> str:
    return str(shipped_or_skip(EXAMPLE))


def _setup_table(batch: str | None):
    def setup():
        import rngcore
        from harness.rounds import Bet
        from harness.rounds.batch import Table
        from harness.rounds.journal import Journal
        from harness.rounds.table import rules_for

        rules = rules_for(f"slot:{_model_path()}")
        bets, g = [Bet("ann", "spin", rules.bets["spin"].stake)], rngcore.Generator()
        folder, runs = tempfile.mkdtemp(prefix="rngcert-bench-slot-rounds-"), [0]

        def run():
            runs[0] += 1
            journal = None if batch is None else Journal(os.path.join(folder, f"{runs[0]}.sqlite"), batch=batch)
            try:
                t = Table(rules, bets, journal=journal).play(g, ROUNDS)
            finally:
                if journal is not None:
                    journal.close()
                    for suffix in ("", "-wal", "-shm"):
                        if os.path.exists(journal.path + suffix):
                            os.remove(journal.path + suffix)
            return {"rounds": t.rounds, "done": t.done, "staked": t.staked, "returned": t.returned,
                    "collected": t.collected}

        return run

    return setup


def _setup_play():
    import rngcore
    from harness.slot import load_model
    from harness.slot.spin import Player

    player, g = Player(load_model(_model_path())), rngcore.Generator()

    def run():
        plays = [player.spin(g) for _ in range(ROUNDS)]
        return {"rounds": len(plays), "done": len(plays), "staked": 0, "returned": 0, "collected": 0}

    return run


def _setup_kernel():
    import rngcore
    from harness.slot import load_model
    from harness.slot.simulate import simulate

    model, g = load_model(_model_path()), rngcore.Generator()

    def run():
        r = simulate(model, ROUNDS, g)
        return {"rounds": r.plays, "done": r.plays, "staked": 0, "returned": 0, "collected": 0}

    return run


def _check(totals) -> None:
    assert totals["rounds"] == ROUNDS == totals["done"], f"{totals['done']} of {ROUNDS} rounds finished"
    assert totals["staked"] == totals["returned"] + totals["collected"], "stakes not conserved"


CASES = [
    BenchCase("rounds-slot", "rngcert-slot-table", _setup_table(None), ROUNDS, "rounds", check=_check),
    BenchCase("rounds-slot", "rngcert-slot-table-group-commit", _setup_table("group"), ROUNDS, "rounds",
              check=_check),
    BenchCase("rounds-slot", "rngcert-slot-play", _setup_play, ROUNDS, "rounds", check=_check),
    BenchCase("rounds-slot", "c-kernel-simulate", _setup_kernel, ROUNDS, "rounds", baseline=True, check=_check),
]
