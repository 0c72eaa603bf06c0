"""The fast round path (harness.rounds.batch) and group commit (harness.rounds.journal):

* the batch kernel draws exactly the bytes of round-by-round play (reference: one kernel call per round);
* a batch table writes, record for record, the journal round-by-round play writes (same hash chain);
* production provenance stays exact when reseeds fall inside a batch;
* group commit commits whole windows only, and a process stopped mid-window loses exactly that window.
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rngcore
from harness.games import _native
from harness.games.registry import GAMES
from harness.rounds import Bet, RoundError
from harness.rounds import recall as rc
from harness.rounds.batch import Table
from harness.rounds.journal import Journal, RoundTemplate, Template, canonical
from harness.rounds.table import rules_for

from tests.rounds_support import BETS, SEED, step


def played_games():
    out = []
    for name, g in GAMES.items():
        if g.etable is None:
            continue
        try:
            rules_for(name)
        except RoundError:
            continue
        out.append(name)
    return out


def by_hand(journal, game, generator, rounds):
    rules = rules_for(game)
    for _ in range(rounds):
        step(journal, rules, BETS[game], generator)
    journal.commit()


def test_every_played_game_has_bets_here():
    assert set(played_games()) <= set(BETS)


@pytest.mark.parametrize("sections,per_round,void", [(37, 1, None), (38, 1, None), (6, 3, None), (6, 2, None),
                                                     (54, 1, None), (9, 1, 4)])
def test_the_batch_kernel_draws_what_one_call_per_round_draws(sections, per_round, void):
    g, h = rngcore.Generator(SEED, stream=3), rngcore.Generator(SEED, stream=3)
    keys, ends = _native.rounds(g, sections, 500, per_round=per_round, void=void)
    reference, positions = [], []
    for _ in range(500):  # the reference: the simulation kernel, one round per call
        counts = np.zeros(sections ** per_round, dtype=np.uint64)
        _native.tally(h, sections, 1, counts, per_round=per_round, void=void)
        reference.append(int(np.flatnonzero(counts)[0]))
        positions.append(h.provenance().position)
    assert keys.tolist() == reference and ends.tolist() == positions
    assert g.provenance().position == positions[-1]
    if void is not None:
        assert void not in reference


@pytest.mark.parametrize("game", played_games())
def test_a_table_writes_the_journal_round_by_round_play_writes(tmp_path, game):
    with Journal(tmp_path / "table.sqlite", batch="group", window=7) as a, \
            Journal(tmp_path / "by-hand.sqlite", batch="group") as b:
        table = Table(rules_for(game), BETS[game], journal=a)
        g = rngcore.Generator(SEED, stream=5)
        first = table.play(g, 30)
        second = table.play(g, 11)
        by_hand(b, game, rngcore.Generator(SEED, stream=5), 41)
        assert list(a.rows()) == list(b.rows())  # every record, hence the same hash chain
        assert a.verify().ok and a.durable_round == 41
        assert first.rounds == first.done == 30 and second.rounds == 11
        for t in (first, second):
            assert t.staked == t.returned + t.collected
        assert rc.replay(a, 37, SEED).equal


@pytest.mark.parametrize("game", ["roulette-single", "sic-bo", "baccarat"])
def test_unjournaled_totals_equal_the_journaled_rounds(tmp_path, game):
    quick = Table(rules_for(game), BETS[game]).play(rngcore.Generator(SEED, stream=8), 200)
    with Journal(tmp_path / "j.sqlite", batch="group") as j:
        slow = Table(rules_for(game), BETS[game], journal=j).play(rngcore.Generator(SEED, stream=8), 200)
        moves = [json.loads(r[3]) for r in j.rows() if r[2] == "settlement"]
    assert quick == slow
    assert sum(m["paid"] for m in moves) == quick.paid and sum(m["collected"] for m in moves) == quick.collected


def test_a_table_refuses_a_bad_bet_before_drawing():
    g = rngcore.Generator(SEED)
    with pytest.raises(RoundError, match="not permitted|no bet"):
        Table(rules_for("baccarat"), [Bet("ann", "banker_no_commission", 10)])
    with pytest.raises(RoundError, match="whole number"):
        Table(rules_for("sic-bo"), [Bet("ann", "small", -5)])
    assert g.provenance().position == 0


def test_a_template_renders_the_canonical_text():
    event = {"round": -(10**15), "kind": "outcome", "shown": "17 red {x}", "record": {"index": 17},
             "provenance": {"start": -(10**15) - 1, "end": -(10**15) - 2, "engine": "chacha20"}}
    t = Template(event, (-(10**15), -(10**15) - 1, -(10**15) - 2))
    real = dict(event, round=12, provenance=dict(event["provenance"], start=800, end=808))
    assert t.render(12, 800, 808) == canonical(real)


def test_a_round_template_renders_every_event_in_one_call():
    r0, start, end = -(10**15), -(10**15) - 1, -(10**15) - 2
    events = [{"round": r0, "kind": "open", "state": "BETTING_OPEN", "note": "100% {kept} \\ \u0000"},
              {"round": r0, "kind": "outcome", "provenance": {"end": end, "start": start}, "shown": "%s"},
              {"kind": "note"},  # a record with no varying field
              {"round": r0, "kind": "state", "state": "DONE"}]
    rendered = RoundTemplate(events, (r0, start, end)).records(7, 16, 24)
    real = [json.loads(json.dumps(e).replace(str(r0), "7").replace(str(start), "16").replace(str(end), "24"))
            for e in events]
    assert rendered == [(e["kind"], canonical(e)) for e in real]
    assert RoundTemplate(events[2:3], (r0,)).records(7) == [("note", '{"kind":"note"}')]
    assert RoundTemplate(events[3:], (r0,)).records(7) == [("state", '{"kind":"state","round":7,"state":"DONE"}')]
    with pytest.raises(ValueError, match="more than once"):
        Template({"kind": "x", "a": r0, "b": r0}, (r0,))


@pytest.mark.parametrize("name,options,rounds", [
    ("chacha20", {"reseed_interval": 1000}, 500),               # a reseed every ~125 rounds
    ("ctr-drbg-aes256", {"prediction_resistance": True}, 1500),  # a seeding before every request (of a buffer)
    ("chacha20", {}, 500),
])
def test_production_ranges_stay_exact_across_reseeds(tmp_path, name, options, rounds):
    from rngcore.engines import engines

    g = rngcore.Generator(engines()[name](**options))
    with Journal(tmp_path / "p.sqlite", batch="group") as j:
        Table(rules_for("roulette-single"), [Bet("ann", "red", 10)], journal=j).play(g, rounds)
        rows = list(j.rows())
        assert j.verify().ok and all(canonical(json.loads(r[3])) == r[3] for r in rows)
    drawn = [json.loads(r[3])["provenance"] for r in rows if r[2] == "outcome"]
    assert all(p["mode"] == "production" and p["epoch_start"] is not None for p in drawn)
    for a, b in zip(drawn, drawn[1:]):
        assert a["end"] == b["start"]  # every byte accounted for, in order
        if "end_epoch" not in a and a["epoch"] == b["epoch"]:
            assert a["epoch_end"] == b["epoch_start"]
        if "end_epoch" not in a:
            assert a["epoch_end"] - a["epoch_start"] == a["end"] - a["start"]
    if options:
        assert drawn[-1]["epoch"] > drawn[0]["epoch"]


def test_group_commit_commits_whole_windows(tmp_path):
    with Journal(tmp_path / "g.sqlite", batch="group", window=10, max_delay=3600) as j:
        tags, write = [], j._writer.write

        def counting(rows, commit_tag=None):  # what the writer thread is asked to commit, in order
            if commit_tag is not None:
                tags.append(commit_tag)
            write(rows, commit_tag)

        j._writer.write = counting
        table = Table(rules_for("sic-bo"), BETS["sic-bo"], journal=j)
        table.play(rngcore.Generator(SEED), 35)
        # each commit ends on a window of finished rounds: 10, 20, 30, then the last 5 on return
        assert tags == [10, 20, 30, 35] and j.commits == 4 and j.durable_round == 35
    with pytest.raises(ValueError, match="window"):
        Journal(tmp_path / "x.sqlite", batch="group", window=0)


def test_the_writer_thread_reports_only_committed_rounds_durable(tmp_path):
    import threading

    with Journal(tmp_path / "w.sqlite", batch="group", window=4, max_delay=3600) as j:
        gate, write = threading.Event(), j._writer._insert

        def held(rows):  # the disk is slow: the writer thread waits at its first chunk
            gate.wait(30)
            write(rows)

        j._writer._insert = held
        table = Table(rules_for("sic-bo"), BETS["sic-bo"], journal=j)
        for _ in range(4):  # four rounds fill a window: its commit is handed over, not yet done
            table._play_batch(rngcore.Generator(SEED), 1, j.next_round_id())
        assert j.commits == 1 and j.durable_round == 0
        gate.set()
        j.commit()
        assert j.durable_round == 4 and j.verify().ok


def test_a_failed_write_on_the_writer_thread_is_a_journal_error(tmp_path):
    from harness.rounds.journal import JournalError

    j = Journal(tmp_path / "f.sqlite", batch="group", window=2, max_delay=3600)

    def full(rows):
        raise sqlite3.OperationalError("database or disk is full")

    j._writer._insert = full
    Table(rules_for("sic-bo"), BETS["sic-bo"], journal=j)._play_batch(rngcore.Generator(SEED), 2, 1)
    with pytest.raises(JournalError, match="disk is full"):
        j.commit()
    with pytest.raises(JournalError, match="an earlier write failed"):  # and nothing after it is written
        Table(rules_for("sic-bo"), BETS["sic-bo"], journal=j).play(rngcore.Generator(SEED), 3)
    assert j.durable_round == 0
    j.close()
    with Journal(tmp_path / "f.sqlite") as again:
        assert list(again.rows()) == []


CHILD = textwrap.dedent('''
    import os, signal, sys
    import rngcore
    from harness.rounds import Bet
    from harness.rounds.batch import Table
    from harness.rounds.journal import Journal
    from harness.rounds.table import rules_for

    path, stop = sys.argv[1], int(sys.argv[2])

    class Stopping(Journal):
        def _write(self, commit=False):
            if commit and self._uncommitted and self.commits + 1 == stop:
                super()._write()  # the window is written: the power fails before its commit
                self._writer.wait()
                os.kill(os.getpid(), signal.SIGKILL)
            super()._write(commit)

    j = Stopping(path, batch="group", window=8, max_delay=3600)
    Table(rules_for("roulette-single"), [Bet("ann", "red", 10), Bet("bob", "straight", 5, "0")],
          journal=j).play(rngcore.Generator({seed!r}, stream=2), 40)
''')


def test_a_stop_mid_window_loses_exactly_that_window(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(seed=SEED))
    path = tmp_path / "stopped.sqlite"
    done = subprocess.run([sys.executable, str(script), str(path), "3"], env=dict(os.environ, PYTHONSAFEPATH="1"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    with Journal(path) as j:
        assert j.verify().ok
        assert rc.recover(j) == []  # nothing half-done: whole rounds only
        rounds = j.events()
    assert sorted(rounds) == list(range(1, 17))  # two committed windows of 8; the third is gone
    for events in rounds.values():
        assert events[-1]["state"] == "DONE"
        moves = [e for e in events if e["kind"] == "settlement"]
        assert sum(e["stake"] for e in events if e["kind"] == "bet") == sum(m["returned"] + m["collected"]
                                                                              for m in moves)


def test_play_batches_its_rounds_and_steps_the_faulted_one(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main
    from harness.resources import shipped
    from harness.rounds import script

    bets_file = shipped("examples/bets_sic_bo.json")
    journal = tmp_path / "r.sqlite"
    args = ["play", "sic-bo", "--journal", str(journal), "--bets", str(bets_file), "--rounds", "30", "--seed", SEED,
            "--batch", "group", "--window", "8", "--fault-at", "BETTING_CLOSED", "--json"]
    result = CliRunner().invoke(main, args, prog_name="rngcert")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["state"] for r in report["rounds"]] == ["DONE"] * 29 + ["VOID"] and report["verdict"] == "pass"
    t = report["totals"]
    assert t["staked"] == t["returned"] + t["collected"]
    rules = rules_for("sic-bo")
    bets = script.parse(bets_file, rules).bets
    g = rngcore.Generator(SEED)
    with Journal(tmp_path / "by-hand.sqlite", batch="group") as b:  # the 29 batched rounds, stepped by hand
        for _ in range(29):
            step(b, rules, bets, g)
        hand = list(b.rows())
    with Journal(journal) as j:
        assert j.verify().ok and rc.replay(j, 17, SEED).equal
        assert list(j.rows())[:len(hand)] == hand


def test_a_production_table_grows_its_draw_to_full_batches():
    from harness.rounds.batch import MAX_DRAW

    table = Table(rules_for("roulette-single"), BETS["roulette-single"])  # unjournaled ones size their draws too
    totals = table.play(rngcore.Generator(), 3 * MAX_DRAW)
    assert table._draw == MAX_DRAW and totals.done == 3 * MAX_DRAW


class _PowerLoss(BaseException):
    """The machine stops: nothing after this point reaches the disk."""


@pytest.mark.slow
def test_random_power_losses_in_group_committed_tables(tmp_path):
    """300 random stop points in batch tables with group commit (before a window's commit, or after it, or
    inside a round's records): the restart finds whole rounds only, each DONE with its money conserved."""
    import random

    rnd = random.Random(23)
    games = sorted(BETS)
    for trial in range(300):
        game, window = rnd.choice(games), rnd.randrange(1, 9)
        stop_at, where = rnd.randrange(1, 60), rnd.choice(["append", "commit-before", "commit-after"])
        path = tmp_path / f"{trial}.sqlite"

        class Stopping(Journal):
            rounds = 0

            def append_text(self, round_id, kinds, text):
                Stopping.rounds += 1
                if where == "append" and Stopping.rounds == stop_at:
                    part = rnd.randrange(len(kinds))  # part of the round's records
                    self._add(round_id, kinds[:part], "".join(b + "\0" for b in text.split("\0")[:part]))
                    raise _PowerLoss
                super().append_text(round_id, kinds, text)

            def _write(self, commit=False):
                committing = commit and self._uncommitted
                if committing and where == "commit-before" and self.commits + 1 == stop_at:
                    raise _PowerLoss
                super()._write(commit)
                if committing and where == "commit-after" and self.commits == stop_at:
                    self._writer.wait()
                    raise _PowerLoss

        j = Stopping(path, batch="group", window=window, max_delay=3600)
        try:
            Table(rules_for(game), BETS[game], journal=j).play(rngcore.Generator(SEED, stream=trial), 60)
        except _PowerLoss:
            pass
        j._drop()  # the process is gone: what was not committed never reaches the file
        j._writer.stop()
        if j._db.in_transaction:
            j._db.execute("ROLLBACK")
        j._db.close()
        with Journal(path) as again:
            assert again.verify().ok and rc.recover(again) == []
            rounds = again.events()
        assert sorted(rounds) == list(range(1, len(rounds) + 1))  # a prefix of whole rounds
        for events in rounds.values():
            assert events[-1]["state"] == "DONE"
            bets = [e for e in events if e["kind"] in ("bet", "stake")]
            moves = [e for e in events if e["kind"] == "settlement"]
            assert sorted(m["index"] for m in moves) == list(range(len(bets)))
            assert sum(b["stake"] for b in bets) == sum(m["returned"] + m["collected"] for m in moves)
