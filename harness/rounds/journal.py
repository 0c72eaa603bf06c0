"""The durable round journal: SQLite (WAL, ``synchronous=FULL``), append-only, hash-chained.

Every event of a round (:mod:`harness.rounds.machine`: state changes, bets,
the outcome with its generator provenance, settlements) is one row of
``records``.  Each row holds the SHA-256 of the row before it, and its own
hash covers that, its sequence number and its canonical JSON body, so an
edited, inserted or deleted row breaks the chain at the first row after it
(:meth:`Journal.verify`).  Triggers refuse UPDATE and DELETE, so the file is
append-only to anything that does not drop them first; the chain catches
anything that does.  A deleted *last* row leaves a shorter, valid chain:
keep the tip hash :meth:`Journal.verify` reports and pass it to a later
verify (``tip_seen``) to catch that too.

Durability: one transaction per event by default (``batch="event"``), so a
killed process loses at most the event in flight, never a committed bet or
settlement; ``batch="round"`` commits once per round (speed; a round killed
before its commit leaves no trace, as if betting had never opened).

Schema (version :data:`SCHEMA_VERSION`, kept in ``PRAGMA user_version``;
:data:`MIGRATIONS` brings an older file up to date, a newer one is refused):

``meta(key TEXT PRIMARY KEY, value TEXT)``
    ``created_by`` (the rngcert version that created the file).
``records(seq INTEGER PRIMARY KEY, round INTEGER, kind TEXT, body TEXT, prev TEXT, hash TEXT)``
    ``seq`` from 1 without gaps; ``body`` the event's canonical JSON
    (sorted keys, no spaces, UTF-8); ``prev`` the previous row's ``hash``
    (64 zeros for the first); ``hash`` = SHA-256 of
    ``prev + "\\n" + str(seq) + "\\n" + body``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
from typing import Iterator

SCHEMA_VERSION = 1
GENESIS = "0" * 64

#: version -> the statements that bring a file of the version before it to this one.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE records (seq INTEGER PRIMARY KEY, round INTEGER NOT NULL, kind TEXT NOT NULL, "
        "body TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL)",
        "CREATE INDEX records_round ON records(round, seq)",
        "CREATE TRIGGER records_no_update BEFORE UPDATE ON records "
        "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END",
        "CREATE TRIGGER records_no_delete BEFORE DELETE ON records "
        "BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END",
    ),
}


class JournalError(ValueError):
    """The file is not a journal this rngcert can read (not SQLite, a newer schema, a malformed row)."""


def canonical(body: dict) -> str:
    """The one JSON text of an event that its hash covers."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_hash(prev: str, seq: int, body: str) -> str:
    return hashlib.sha256(f"{prev}\n{seq}\n{body}".encode("utf-8")).hexdigest()


@dataclasses.dataclass(frozen=True)
class Verification:
    """The result of walking the chain: records checked, the first bad one (None: all good), the tip."""

    records: int
    first_bad: int | None
    reason: str
    tip: str

    @property
    def ok(self) -> bool:
        return self.first_bad is None


class Journal:
    """A round journal file (created if missing).

    Parameters
    ----------
    path : str or os.PathLike
        The SQLite file.
    batch : {"event", "round"}
        Commit after every event, or once per finished round.
    """

    def __init__(self, path, batch: str = "event"):
        if batch not in ("event", "round"):
            raise ValueError(f"batch must be 'event' or 'round', got {batch!r}")
        self.path = os.fspath(path)
        self.batch = batch
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a round journal ({exc})") from None
        if version > SCHEMA_VERSION:
            self._db.close()
            raise JournalError(f"{self.path}: journal schema version {version} is newer than this rngcert's "
                               f"({SCHEMA_VERSION}); use a newer rngcert")
        self._migrate(version)
        last = self._db.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        self._seq, self._tip = (0, GENESIS) if last is None else last

    def _migrate(self, version: int) -> None:
        try:
            for target in range(version + 1, SCHEMA_VERSION + 1):
                self._db.execute("BEGIN IMMEDIATE")
                for statement in MIGRATIONS[target]:
                    self._db.execute(statement)
                if target == 1:
                    from rngcore import __version__

                    self._db.execute("INSERT INTO meta VALUES ('created_by', ?)", (f"rngcert {__version__}",))
                self._db.execute(f"PRAGMA user_version = {target}")
                self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: cannot bring the journal to schema {SCHEMA_VERSION} ({exc})") from None

    # -- writing ---------------------------------------------------------------------------

    def append(self, event: dict) -> None:
        """Append one event (the :class:`~harness.rounds.machine.Round` sink)."""
        body = canonical(event)
        seq = self._seq + 1
        digest = record_hash(self._tip, seq, body)
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                         (seq, event["round"], event["kind"], body, self._tip, digest))
        self._seq, self._tip = seq, digest
        if self.batch == "event" or (event["kind"] == "state" and event["state"] in ("DONE", "VOID")):
            self.commit()

    def commit(self) -> None:
        """Make everything appended durable (fsync'd by ``synchronous=FULL``)."""
        if self._db.in_transaction:
            self._db.execute("COMMIT")

    def close(self) -> None:
        if self._db.in_transaction:  # an unfinished batch is not committed: as if the process had stopped here
            self._db.execute("ROLLBACK")
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- reading ---------------------------------------------------------------------------

    def rows(self) -> Iterator[tuple]:
        """Every row (seq, round, kind, body text, prev, hash) in order."""
        yield from self._db.execute("SELECT seq, round, kind, body, prev, hash FROM records ORDER BY seq")

    def verify(self, tip_seen: str | None = None) -> Verification:
        """Walk the chain; the first row whose sequence, link or hash is wrong is named.

        ``tip_seen``: a tip hash reported by an earlier verify; the chain must still hold that record,
        so records deleted from the end since then are caught too.
        """
        tip, expected, count, seen = GENESIS, 1, 0, tip_seen is None
        for seq, round_id, kind, body, prev, digest in self.rows():
            count += 1
            if seq != expected:
                return Verification(count, expected, f"record {expected} is missing (the next is {seq})", tip)
            if prev != tip:
                return Verification(count, seq, f"record {seq} does not link to record {seq - 1}", tip)
            if record_hash(prev, seq, body) != digest:
                return Verification(count, seq, f"record {seq} was altered (its hash does not match)", tip)
            try:
                event = json.loads(body)
            except ValueError:
                return Verification(count, seq, f"record {seq} is not JSON", tip)
            if not isinstance(event, dict) or event.get("round") != round_id or event.get("kind") != kind:
                return Verification(count, seq, f"record {seq}'s columns disagree with its body", tip)
            tip, expected, seen = digest, expected + 1, seen or digest == tip_seen
        if not seen:
            return Verification(count, count + 1, f"no record has the earlier tip {tip_seen}: the journal was "
                                                   f"cut after record {count}", tip)
        return Verification(count, None, "", tip)

    def events(self) -> dict[int, list[dict]]:
        """Every round's events in order, by round id (in the order the rounds opened)."""
        rounds: dict[int, list[dict]] = {}
        for seq, round_id, _, body, _, _ in self.rows():
            try:
                rounds.setdefault(round_id, []).append(json.loads(body))
            except ValueError:
                raise JournalError(f"{self.path}: record {seq} is not JSON (run rngcert journal verify)") from None
        return rounds

    def next_round_id(self) -> int:
        last = self._db.execute("SELECT MAX(round) FROM records").fetchone()[0]
        return 1 if last is None else last + 1
