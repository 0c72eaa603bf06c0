"""The round journal (harness.rounds.journal): hash chain, append-only, schema versions, recall,
replay, and recovery after the process is stopped at every state.

The kill tests run a real process that journals rounds and is stopped by SIGKILL right after a
chosen state is committed, or between a record's write and its commit; the restart must finish
every round by the fault rule with money conserved, no bet lost and none settled twice.
"""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

import rngcore
from harness.rounds import RoundError
from harness.rounds import recall as rc
from harness.rounds.journal import GENESIS, Journal, JournalError, SCHEMA_VERSION

from tests.rounds_support import BETS, SEED, step


def play_rounds(journal, games, generator, finish=True):
    for game in games:
        r = step(journal, game, BETS[game], generator, finish)
    return r


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "rounds.sqlite", batch="round") as j:  # one fsync per round: a quick fixture
        play_rounds(j, ["roulette-single", "baccarat", "sic-bo"] * 4, rngcore.Generator(SEED, stream=9))
        yield j


def test_a_clean_journal_verifies_and_names_its_tip(journal):
    v = journal.verify()
    assert v.ok and v.records == len(list(journal.rows())) and v.tip == list(journal.rows())[-1][5]
    rows = list(journal.rows())
    assert rows[0][4] == GENESIS and all(b[4] == a[5] for a, b in zip(rows, rows[1:]))


def test_the_journal_is_append_only(journal):
    db = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE records SET body = '{}' WHERE seq = 3")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM records WHERE seq = 3")


def _tamper(path, *statements):
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER records_no_update")
    db.execute("DROP TRIGGER records_no_delete")
    for s in statements:
        db.execute(s)
    db.commit()
    db.close()


def test_an_edited_record_is_named(journal):
    body = json.loads(next(r[3] for r in journal.rows() if r[0] == 20))
    body["seq"] = body["seq"]  # same keys; change a settled amount or a state
    body["tampered"] = True
    _tamper(journal.path, f"UPDATE records SET body = '{json.dumps(body)}' WHERE seq = 20")
    v = Journal(journal.path).verify()
    assert (v.ok, v.first_bad) == (False, 20) and "altered" in v.reason


def test_a_deleted_record_is_named(journal):
    _tamper(journal.path, "DELETE FROM records WHERE seq = 31")
    v = Journal(journal.path).verify()
    assert (v.ok, v.first_bad) == (False, 31) and "missing" in v.reason


def test_a_rechained_edit_is_caught_at_the_next_link(journal):
    # rewrite record 10 with a hash of its own: record 11 no longer links to it
    from harness.rounds.journal import record_hash
    seq, _, _, body, prev, _ = next(r for r in journal.rows() if r[0] == 10)
    new = body.replace('"kind"', '"kind"', 1).replace("}", ',"x":1}', 1) if body.endswith("}") else body
    _tamper(journal.path, f"UPDATE records SET body = '{new}', hash = '{record_hash(prev, seq, new)}' WHERE seq = 10")
    v = Journal(journal.path).verify()
    assert v.first_bad == 11 and "does not link" in v.reason


def test_a_newer_schema_and_a_non_journal_are_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match=f"schema version {SCHEMA_VERSION + 1} is newer"):
        Journal(path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(JournalError, match="not a round journal"):
        Journal(junk)


def test_the_file_is_wal_with_full_sync(journal):
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_recall_shows_the_last_game_and_nine_prior(journal):
    shown = rc.recall(journal, 10)
    assert [s["round"] for s in shown] == list(range(12, 2, -1))
    for s in shown:
        assert s["state"] == "DONE" and s["bets"] and s["outcome"]["provenance"]["mode"] == "replay"
        assert len(s["settlements"]) == len(s["bets"])
        staked = sum(b["stake"] for b in s["bets"])
        assert staked == sum(x["returned"] + x["collected"] for x in s["settlements"])


def test_replay_re_derives_every_round(journal):
    for round_id in range(1, 13):
        again = rc.replay(journal, round_id, SEED)
        assert again.equal, round_id
    outcome = next(e for e in journal.events()[5] if e["kind"] == "outcome")
    assert rc.replay(journal, 5, SEED).end == outcome["provenance"]["end"]


def test_replay_refuses_a_wrong_seed_an_unknown_round_and_production(journal):
    with pytest.raises(RoundError, match="fingerprint"):
        rc.replay(journal, 1, SEED[::-1])
    with pytest.raises(RoundError, match="not in"):
        rc.replay(journal, 99, SEED)
    play_rounds(journal, ["sic-bo"], rngcore.Generator())
    with pytest.raises(RoundError, match="production mode"):
        rc.replay(journal, 13, SEED)
    p = rc.recall(journal, 1)[0]["outcome"]["provenance"]
    assert p["mode"] == "production" and p["epoch"] >= 1 and p["epoch_end"] - p["epoch_start"] == p["end"] - p["start"] > 0


def test_replay_notices_a_journal_that_disagrees_with_the_stream(journal):
    # a record re-chained wholesale (a forger with the file): the chain is valid, replay is not
    rows = list(journal.rows())
    events = [json.loads(r[3]) for r in rows]
    for e in events:
        if e["round"] == 1 and e["kind"] == "outcome":
            e["record"] = {"index": (e["record"]["index"] + 1) % 37}
    path = journal.path + ".forged"
    with Journal(path) as forged:
        for e in events:
            forged.append(e)
        assert forged.verify().ok
        assert not rc.replay(forged, 1, SEED).equal


def _production(name, **options):
    from rngcore.engines import engines

    return engines()[name](**options)


@pytest.mark.parametrize("name,options", [
    ("chacha20", {"reseed_interval": 5000}),         # bytes between OS seedings
    ("hmac-drbg-sha256", {"reseed_interval": 3}),    # Generate requests between seedings (SP 800-90A)
    ("ctr-drbg-aes256", {"prediction_resistance": True}),  # a seeding before every request
])
def test_the_production_epoch_counts_bytes_within_each_key(name, options):
    bits = _production(name, **options)
    g = rngcore.Generator(bits)
    assert bits.epoch() == (1, 0)
    g.random_bytes(100)
    assert bits.epoch()[1] == 100
    g.reseed()
    assert bits.epoch()[1] == 0 and bits.epoch()[0] >= 2
    sizes = [1, 7, 64, 333, 4096, 9000, 12] * 40
    for n in sizes:
        (e0, p0), before = bits.epoch(), bits.provenance().position
        g.random_bytes(n)
        (e1, p1), after = bits.epoch(), bits.provenance().position
        assert after - before == n
        if e1 == e0:
            assert p1 - p0 == n
        else:
            assert e1 > e0 and 0 <= p1 <= n
    assert bits.epoch()[0] > 10
    assert rngcore.Generator(SEED).bit_source.epoch() is None  # replay: the position says it all


# --------------------------------------------------------------------- kill at every state --

CHILD = textwrap.dedent('''
    import os, signal, sys
    import rngcore
    from harness.rounds import Bet, Round
    from harness.rounds.journal import Journal
    from harness.rounds.meters import bank_of
    from harness.rounds.table import rules_for

    path, game, target, how, batch = sys.argv[1:6]
    bets = {bets!r}[game]

    class Killing(Journal):
        def append(self, event):
            state = {{"bet": "BET", "meters": "METERS"}}.get(event["kind"], event.get("state"))
            hit = event["round"] == 2 and event["kind"] in ("open", "state", "bet", "meters") and state == target
            self.armed = hit and how == "before-commit"
            super().append(event)
            if hit and how == "after-commit":
                self.commit()
                os.kill(os.getpid(), signal.SIGKILL)
            if hit and how == "exception":
                raise RuntimeError("injected")

        def commit(self):
            if getattr(self, "armed", False):  # the record is written: die before its commit
                os.kill(os.getpid(), signal.SIGKILL)
            super().commit()

    j = Killing(path, batch=batch)
    g = rngcore.Generator({seed!r}, stream=1)
    meters = bank_of(rules_for(game), j)  # a game with meters: every round settles against them in turn
    for n in range(2):  # a finished round, then the one that is stopped
        r = Round(game, j.next_round_id(), sink=j.append, meters=meters)
        for customer, bet, stake, on in bets:
            r.place(Bet(customer, bet, stake, on))
        r.close(); r.generate(g); r.determine(); r.settle()
''')

STATES = ["BETTING_OPEN", "BET", "BETTING_CLOSED", "OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT", "DONE"]


def run_child(tmp_path, game, target, how, batch="event", bets=BETS):
    bets = {g: [(b.customer, b.bet, b.stake, b.on) for b in bs] for g, bs in bets.items()}
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(bets=bets, seed=SEED))
    path = tmp_path / f"{game}-{target}-{how}.sqlite"
    env = dict(os.environ, PYTHONSAFEPATH="1")
    done = subprocess.run([sys.executable, str(script), str(path), game, target, how, batch], env=env,
                          capture_output=True, text=True, timeout=120)
    return path, done


def check_recovered(path, game):
    """Restart: finish open rounds, then the invariants of the issue."""
    with Journal(path) as j:
        assert j.verify().ok
        before = {r: [e for e in evs if e["kind"] in ("bet", "stake")] for r, evs in j.events().items()}
        finished = rc.recover(j)
        assert rc.recover(j) == []  # a second restart has nothing left to do
        assert j.verify().ok
        rounds = j.events()
    for round_id, events in rounds.items():
        state = [e["state"] for e in events if e["kind"] == "state"][-1]
        assert state in ("DONE", "VOID")
        bets = [e for e in events if e["kind"] in ("bet", "stake")]  # additional stakes too
        assert bets == before[round_id]  # no bet lost (or invented) by the recovery
        moves = [e for e in events if e["kind"] in ("settlement", "unsettled")]
        assert sorted(m["index"] for m in moves) == list(range(len(bets)))  # each bet exactly once
        assert sum(b["stake"] for b in bets) == sum(m["returned"] + m["collected"] for m in moves)
        fault = next((e for e in events if e.get("state") == "FAULT"), None)
        if fault is not None:
            determined = fault["at"] in ("OUTCOME_DETERMINED", "SETTLEMENT")
            assert fault["resolution"] == ("settle" if determined else "void")
            assert state == ("DONE" if determined else "VOID")
            if not determined:
                assert all(m["result"] == "void" and m["paid"] == 0 for m in moves)
    return finished, rounds


QUICK = {"BET", "OUTCOME_DETERMINED"}  # the default run; the rest under -m slow


@pytest.mark.parametrize("target", [t if t in QUICK else pytest.param(t, marks=pytest.mark.slow) for t in STATES])
def test_sigkill_after_each_state_is_committed(tmp_path, target):
    path, done = run_child(tmp_path, "baccarat", target, "after-commit")
    assert done.returncode == -signal.SIGKILL, done.stderr
    finished, rounds = check_recovered(path, "baccarat")
    assert len(rounds) == 2
    expected = {"BETTING_OPEN": "VOID", "BET": "VOID", "BETTING_CLOSED": "VOID", "OUTCOME_GENERATION": "VOID",
                "OUTCOME_DETERMINED": "DONE", "SETTLEMENT": "DONE"}
    stopped = "BETTING_OPEN" if target == "BET" else target
    assert finished == ([] if target == "DONE" else [(2, stopped, expected[target])])


@pytest.mark.parametrize("target", [pytest.param("BETTING_CLOSED", marks=pytest.mark.slow), "OUTCOME_DETERMINED",
                                    pytest.param("DONE", marks=pytest.mark.slow)])
def test_power_loss_between_write_and_commit(tmp_path, target):
    path, done = run_child(tmp_path, "sic-bo", target, "before-commit")
    assert done.returncode == -signal.SIGKILL, done.stderr
    finished, rounds = check_recovered(path, "sic-bo")
    # the record in flight is lost, so the round is found one state earlier
    earlier = {"BETTING_CLOSED": ("BETTING_OPEN", "VOID"), "OUTCOME_DETERMINED": ("OUTCOME_GENERATION", "VOID"),
               "DONE": ("SETTLEMENT", "DONE")}[target]
    assert finished == [(2, *earlier)]


def test_an_exception_mid_round_is_recovered(tmp_path):
    path, done = run_child(tmp_path, "roulette-single", "OUTCOME_DETERMINED", "exception")
    assert done.returncode == 1 and "injected" in done.stderr
    finished, _ = check_recovered(path, "roulette-single")
    assert finished == [(2, "OUTCOME_DETERMINED", "DONE")]


@pytest.mark.slow
def test_a_round_batched_journal_loses_only_the_unfinished_round(tmp_path):
    path, done = run_child(tmp_path, "money-wheel", "SETTLEMENT", "after-commit", batch="round")
    finished, rounds = check_recovered(path, "money-wheel")
    # "after-commit" commits the batch at SETTLEMENT here, so the round is found there and settled
    assert finished == [(2, "SETTLEMENT", "DONE")] and len(rounds) == 2


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(BETS))
@pytest.mark.parametrize("target", STATES)
@pytest.mark.parametrize("how", ["after-commit", "before-commit", "exception"])
def test_every_game_every_state_every_kind_of_stop(tmp_path, game, target, how):
    path, done = run_child(tmp_path, game, target, how)
    assert done.returncode in (-signal.SIGKILL, 1), done.stderr
    check_recovered(path, game)


class _PowerLoss(BaseException):
    """The machine stops: nothing after this point reaches the disk."""


def power_loss_trial(rnd, path, trial: int, rounds: int, play) -> None:
    """Rounds ``play(journal, generator)`` on a new journal at ``path`` until a random stop point (the
    ``1..39``-th event appended, before or after its commit, ``rnd`` choosing): nothing after it reaches
    the disk."""
    stop_at, before_commit = rnd.randrange(1, 40), rnd.random() < 0.5

    class Stopping(Journal):
        appended = 0

        def append(self, event):
            Stopping.appended += 1
            if Stopping.appended == stop_at and before_commit:
                self._db.execute("BEGIN IMMEDIATE") if not self._db.in_transaction else None
                raise _PowerLoss
            super().append(event)
            if Stopping.appended == stop_at:
                raise _PowerLoss

    j = Stopping(path, batch=rnd.choice(["event", "round"]))
    g = rngcore.Generator(SEED, stream=trial)
    try:
        for _ in range(rounds):
            play(j, g)
    except _PowerLoss:
        pass
    j.close()  # what was not committed is gone


@pytest.mark.slow
def test_a_thousand_random_power_losses(tmp_path):
    """1,000 random stop points (game, round, record; before or after its commit), each followed by a
    restart: the invariants hold every time, and a second restart finds nothing to do."""
    random_power_losses(tmp_path, sorted(BETS), 1000, 17)


def random_power_losses(tmp_path, games, trials, seed, bets=BETS) -> None:
    """``trials`` random stop points in rounds of ``games`` (each with its ``bets``), each followed by a
    restart and :func:`check_recovered`."""
    import random

    rnd = random.Random(seed)
    for trial in range(trials):
        game = rnd.choice(games)
        path = tmp_path / f"{trial}.sqlite"
        power_loss_trial(rnd, path, trial, 4, lambda j, g: step(j, game, bets[game], g))
        check_recovered(path, game)


def test_records_cut_from_the_end_are_caught_against_an_earlier_tip(journal):
    tip = journal.verify().tip
    last = list(journal.rows())[-1][0]
    _tamper(journal.path, f"DELETE FROM records WHERE seq >= {last - 4}")
    again = Journal(journal.path)
    assert again.verify().ok  # a shorter chain is still a valid chain ...
    cut = again.verify(tip)  # ... but it no longer holds the tip seen before
    assert not cut.ok and cut.first_bad == last - 4 and "cut after record" in cut.reason


def test_the_chain_kernel_hashes_every_record_as_record_hash_does():
    """The C chain (one call per window) against hashlib, record by record: non-ASCII text, an
    escaped NUL, an empty body, a body longer than the message buffer's usual size, big seq numbers."""
    import random

    from harness.rounds.journal import chain, record_hash

    rng = random.Random(17)
    bodies = ["", '{"point":"1-3-ニ"}', '{"a":"\\u0000"}', "x" * 70_000] + [
        json.dumps({"k": rng.randrange(10**9), "s": "é" * rng.randrange(40)}) for _ in range(200)]
    for tip, first in ((GENESIS, 1), ("ab" * 32, 2**63)):
        hashes, prev = chain(tip, first, "".join(b + "\0" for b in bodies), len(bodies)), tip
        assert len(hashes) == len(bodies)
        for seq, (body, digest) in enumerate(zip(bodies, hashes), start=first):
            assert digest == record_hash(prev, seq, body)
            prev = digest
    for text, count in (("a\0b\0", 3), ("a\0b", 2), ("a\0b\0", 1)):  # framing that does not hold `count`
        with pytest.raises(ValueError, match="records expected"):
            chain(GENESIS, 1, text, count)


def _old_journal(path, bodies, version):
    """A file of schema ``version`` as an earlier rngcert wrote it, holding a chain of these records."""
    from harness.rounds.journal import MIGRATIONS, record_hash

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    for statement in (s for v in range(1, version + 1) for s in MIGRATIONS[v]):
        db.execute(statement)
    db.execute("INSERT INTO meta VALUES ('created_by', 'rngcert 0')")
    prev = GENESIS
    for seq, (round_id, body) in enumerate(bodies, start=1):
        digest = record_hash(prev, seq, body)
        db.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                   (seq, round_id, json.loads(body)["kind"], body, prev, digest))
        prev = digest
    db.execute(f"PRAGMA user_version = {version}")
    db.close()


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_an_older_journal_is_migrated_and_its_chain_continues(tmp_path, version):
    source = tmp_path / "new.sqlite"
    with Journal(source, batch="round") as j:
        play_rounds(j, ["roulette-single", "baccarat"], rngcore.Generator(SEED, stream=9))
        old = [(r[1], r[3]) for r in j.rows()]
    path = tmp_path / f"v{version}.sqlite"
    _old_journal(path, old, version)
    with Journal(path, batch="round") as j:
        assert j.next_round_id() == 3 and j.verify().ok
        play_rounds(j, ["sic-bo"], rngcore.Generator(SEED, stream=10))
        v = j.verify()
        assert v.ok and v.records == len(list(j.rows())) > len(old)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert meta["meter_records"] == "since schema 4" and meta["created_by"] == "rngcert 0"
    assert meta["free_spin_heights"] == "since schema 5"
    indexes = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "records_open" in indexes and "records_round" not in indexes
    assert db.execute("PRAGMA page_size").fetchone()[0] == 4096  # an existing file keeps its pages
    assert sqlite3.connect(source).execute("PRAGMA page_size").fetchone()[0] == 16384


def test_the_last_round_is_found_from_the_open_records_index(tmp_path):
    """Opening a journal finds its last round through the index of 'open' records, not a scan."""
    path = tmp_path / "j.sqlite"
    with Journal(path, batch="round") as j:
        play_rounds(j, ["roulette-single"] * 3, rngcore.Generator(SEED, stream=9))
    db = sqlite3.connect(path)
    plan = " ".join(r[-1] for r in db.execute("EXPLAIN QUERY PLAN SELECT MAX(round) FROM records WHERE kind = 'open'"))
    assert "records_open" in plan
    with Journal(path, batch="round") as j:
        assert j.next_round_id() == 4


def test_a_body_is_ascii_and_reads_back_its_text(journal):
    """Canonical bodies escape what is not ASCII (roulette's determination point cites 1-3-ニ)."""
    rows = list(journal.rows())
    assert all(body.isascii() for _, _, _, body, _, _ in rows)
    points = [json.loads(body).get("point", "") for _, _, _, body, _, _ in rows]
    assert any("ニ" in p for p in points) and any("\\u30cb" in body for _, _, _, body, _, _ in rows)
