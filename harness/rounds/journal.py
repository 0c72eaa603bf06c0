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

Durability (``batch``): ``"event"`` (the default) commits every event, so a
killed process loses at most the event in flight, never a committed bet or
settlement.  ``"round"`` commits once per finished round, ``"group"`` once
per *window* of finished rounds (group commit: ``window`` rounds or
``max_delay`` seconds after the oldest uncommitted round finished,
whichever comes first, checked as each round finishes, and always at
:meth:`Journal.commit` and on a clean close).  A commit is a transaction
that ``synchronous=FULL`` has fsync'd before it returns, and nothing but
finished rounds is ever committed in these two modes, so a stop loses
exactly the rounds of the uncommitted window, whole, as if their betting
had never opened; a round's result may be reported (and paid) only once
its window is durable (:attr:`Journal.durable_round`; the batch table of
:mod:`harness.rounds.batch` returns only then).  In ``"group"`` mode the
windows are written and committed on a writer thread
(:mod:`harness.rounds.writer`), in order, while the next window's records
are chained: a full window's commit is handed over, not waited for, so
:attr:`Journal.durable_round` may trail the rounds appended by a few
windows, and :meth:`Journal.commit` waits until it has caught up.

Schema (version :data:`SCHEMA_VERSION`, kept in ``PRAGMA user_version``;
:data:`MIGRATIONS` brings an older file up to date, a newer one is refused;
a new file has pages of :data:`PAGE_SIZE` bytes):

``meta(key TEXT PRIMARY KEY, value TEXT)``
    ``created_by`` (the rngcert version that created the file).
``records(seq INTEGER PRIMARY KEY, round INTEGER, kind TEXT, body TEXT, prev TEXT, hash TEXT)``
    ``seq`` from 1 without gaps; ``body`` the event's canonical JSON
    (sorted keys, no spaces, ASCII: any other character written as a
    ``\\uXXXX`` escape, which keeps formatting, encoding and hashing a
    window's texts on Python's fast one-byte paths; a journal written
    before this holds raw UTF-8 bodies, which verify and read the same,
    each hash covering the text stored); ``prev`` the previous row's ``hash``
    (64 zeros for the first); ``hash`` = SHA-256 of
    ``prev + "\\n" + str(seq) + "\\n" + body``.
``records_open``: an index of the ``open`` records (each round's first) by round.

The records buffered since the last hand-over (at most :data:`CHUNK`) are
chained in one C call (:func:`chain`) when they are handed to the writer.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import operator
import os
import sqlite3
import time
from typing import Iterator

from harness.rounds.writer import COLUMNS, Inline, Threaded

SCHEMA_VERSION = 5
PAGE_SIZE = 16384  # a new file's pages: fewer, fuller pages than SQLite's 4096 for rows of a few hundred bytes
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
    # records of kind 'stake' (a stake added after betting closed): the tables are unchanged, but a
    # version-1 reader would restore such a round without them, so version 2 refuses it
    2: ("INSERT OR IGNORE INTO meta VALUES ('stake_records', 'since schema 2')",),
    # every round's first record is its 'open' one: indexing those alone finds the last round as fast,
    # and costs one index entry per round rather than one per record
    3: (
        "DROP INDEX IF EXISTS records_round",
        "CREATE INDEX IF NOT EXISTS records_open ON records(round) WHERE kind = 'open'",
    ),
    # records of kind 'meters' (a round's meter contributions and awards, harness.rounds.meters): the
    # tables are unchanged, but a version-3 reader would finish a metered game's round without its
    # meters, so version 4 refuses it
    4: ("INSERT OR IGNORE INTO meta VALUES ('meter_records', 'since schema 4')",),
    # a slot outcome record of a game with reel heights and free spins keeps each free spin's height draws
    # (``free_heights``): the tables and every earlier record are unchanged, but a version-4 reader cannot
    # re-derive such a play, so version 5 refuses it
    5: ("INSERT OR IGNORE INTO meta VALUES ('free_spin_heights', 'since schema 5')",),
}


BATCHES = ("event", "round", "group")
CHUNK = 4096  # rows buffered before they are handed to the writer (bounds memory inside a window)


class JournalError(ValueError):
    """The file is not a journal this rngcert can read (not SQLite, a newer schema, a malformed row)."""


# json.dumps with these arguments builds this encoder on every call; one is kept (it holds no state
# between calls)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def canonical(body: dict) -> str:
    """The one JSON text of an event that its hash covers (ASCII: see the module doc)."""
    return _CANONICAL.encode(body)


def record_hash(prev: str, seq: int, body: str) -> str:
    """The hash of record ``seq`` with this body, chained onto ``prev`` (what :meth:`Journal.verify` checks)."""
    return hashlib.sha256(f"{prev}\n{seq}\n{body}".encode("utf-8")).hexdigest()


def chain(tip: str, seq: int, bodies: str, count: int) -> list[str]:
    """The hashes of ``count`` records numbered from ``seq`` chained onto ``tip``, in one C call.

    ``bodies`` holds their canonical texts, each ended by a NUL.  Each hash is
    ``record_hash(previous, seq, body)`` (tests/ compare the two); the C kernel
    (``csrc/kernels/journal_chain.h``) formats and hashes every record with the
    core's SHA-256, which costs less than one Python ``hashlib`` call per record.
    """
    from harness.kernels import ffi, lib

    data = bodies.encode("utf-8")
    out = ffi.new("char[]", 64 * count or 1)
    status = lib.kern_journal_chain(data, len(data), count, seq, tip.encode("ascii"), out)
    if status != 0:
        raise ValueError(f"journal chain: {count} records expected, status {status}")
    hexes = ffi.unpack(out, 64 * count).decode("ascii")
    return [hexes[i:i + 64] for i in range(0, 64 * count, 64)]


class Template:
    """The canonical text of an event whose named whole-number fields vary, rendered without JSON encoding.

    Parameters
    ----------
    event : dict
        The event, with every varying field (possibly nested) holding a
        distinct placeholder from :data:`PLACEHOLDERS`.
    fields : sequence of int
        The placeholders, in the order :meth:`render` takes their values
        (those the event does not hold are ignored).

    Notes
    -----
    ``render(*values)`` equals ``canonical(event)`` with each placeholder
    replaced by its value: a whole number is written the same by JSON and by
    ``str``, and the keys' order does not depend on their values.
    """

    def __init__(self, event: dict, fields):
        text = canonical(event).replace("%", "%%")
        where = {}  # placeholder index -> where in the text it stands
        for n, placeholder in enumerate(fields):
            count = text.count(str(placeholder))
            if count > 1:
                raise ValueError(f"placeholder {placeholder} occurs more than once in {event!r}")
            if count:
                where[n] = text.index(str(placeholder))
        self.order = tuple(sorted(where, key=where.get))  # the values' indices, in text order
        for n in self.order:
            text = text.replace(str(fields[n]), "%s")
        self.kind = event["kind"]
        self.pattern = text  # a %-pattern: "%" parses faster than str.format

    def render(self, *values) -> str:
        return self.pattern % tuple(values[n] for n in self.order)


class RoundTemplate:
    """A whole round's events as :class:`Template` s, rendered by one ``%`` call.

    ``text(*values)`` is every event's canonical text, each ended by a NUL, which canonical JSON
    never holds raw (it escapes it as ``\\u0000``): the form :meth:`Journal.append_text` takes,
    so the batch table renders a round with one format and the journal chains a window of them
    in one call.  ``records(*values)`` is the same as ``[(t.kind, t.render(*values)) for t in
    templates]``.
    """

    def __init__(self, events, fields):
        templates = [Template(e, fields) for e in events]
        self.kinds = tuple(t.kind for t in templates)
        self._pattern = "".join(t.pattern + "\0" for t in templates)
        order = [n for t in templates for n in t.order]
        self._pick = operator.itemgetter(*order) if len(order) > 1 else lambda v: tuple(v[n] for n in order)

    def text(self, *values) -> str:
        """The round's canonical texts with these field values, each ended by a NUL."""
        return self._pattern % self._pick(values)

    def records(self, *values) -> list[tuple[str, str]]:
        """The (kind, canonical text) pairs of the round with these field values."""
        return list(zip(self.kinds, self.text(*values).split("\0")))


#: Distinct whole numbers no real field holds (journal fields are non-negative), for :class:`Template`.
PLACEHOLDERS = tuple(-(10**15) - k for k in range(16))


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
    batch : {"event", "round", "group"}
        Commit after every event, once per finished round, or once per window of finished rounds
        (group commit; see the module doc for what each guarantees).
    window : int
        ``batch="group"``: commit once this many rounds have finished.
    max_delay : float
        ``batch="group"``: ... or once the oldest uncommitted finished round is this many seconds old.
    """

    def __init__(self, path, batch: str = "event", window: int = 1024, max_delay: float = 0.25):
        if batch not in BATCHES:
            raise ValueError(f"batch must be one of {', '.join(BATCHES)}, got {batch!r}")
        if isinstance(window, bool) or not isinstance(window, int) or window < 1 or not max_delay > 0:
            raise ValueError(f"a group commit window is >= 1 rounds and > 0 seconds, got {window!r}, {max_delay!r}")
        self.path = os.fspath(path)
        self.batch = batch
        self.window = 1 if batch == "round" else window
        self.max_delay = max_delay
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:  # takes effect only on a file with no table yet (before WAL is on)
                self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA cache_size=-16384")  # 16 MiB: a window's pages are not spilled mid-write
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a round journal ({exc})") from None
        if version > SCHEMA_VERSION:
            self._db.close()
            raise JournalError(f"{self.path}: journal schema version {version} is newer than this rngcert's "
                               f"({SCHEMA_VERSION}); use a newer rngcert")
        self._migrate(version)
        last = self._db.execute("SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1").fetchone()
        self._seq, self._tip = (0, GENESIS) if last is None else last  # the last record chained
        # appended, not yet chained nor written: each unit's texts (each ended by a NUL), every
        # record's kind and round id
        self._texts: list[str] = []
        self._kinds: list[str] = []
        self._rounds: list[int] = []
        self._finished = 0  # rounds finished since the last commit
        self._boundary = True  # the last event appended finished its round
        self._oldest = 0.0  # when the oldest of them finished (time.monotonic)
        opened = self._db.execute("SELECT MAX(round) FROM records WHERE kind = 'open'").fetchone()[0]
        self._last_round = max(opened or 0, self._db.execute(
            "SELECT round FROM records ORDER BY seq DESC LIMIT 1").fetchone()[0] if last else 0)
        self._durable_at_open = self._last_round
        self.commits = 0  # commits of appended records (in "group" mode: handed to the writer thread)
        self._uncommitted = False  # records appended since the last commit
        # group commit writes on a thread of its own; the connection is used by one thread at a time
        # (reads wait for the writer first)
        self._writer = Threaded(self._db) if batch == "group" else Inline(self._db)

    def _migrate(self, version: int) -> None:
        if version == SCHEMA_VERSION:
            return
        try:  # one transaction from the file's version to this one: all of it, or none
            self._db.execute("BEGIN IMMEDIATE")
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    self._db.execute(statement)
                if target == 1:
                    from rngcore import __version__

                    self._db.execute("INSERT INTO meta VALUES ('created_by', ?)", (f"rngcert {__version__}",))
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: cannot bring the journal to schema {SCHEMA_VERSION} ({exc})") from None

    # -- writing ---------------------------------------------------------------------------

    def append(self, event: dict) -> None:
        """Append one event (the :class:`~harness.rounds.machine.Round` sink)."""
        self._add(event["round"], (event["kind"],), canonical(event) + "\0")
        if self.batch == "event":
            self.commit()
        elif event["kind"] == "state" and event["state"] in ("DONE", "VOID"):
            self.finished(1)

    def append_round(self, round_id: int, records) -> None:
        """Append a whole round's events, given as (kind, canonical text) pairs, and count it finished."""
        self.append_text(round_id, tuple(kind for kind, _ in records), "".join(body + "\0" for _, body in records))

    def append_text(self, round_id: int, kinds, text: str) -> None:
        """Append a whole round's events, given as their kinds and their canonical texts each ended
        by a NUL (:meth:`RoundTemplate.text`), and count the round finished.

        The batch table's path (:mod:`harness.rounds.batch`): the texts come from
        :class:`Template`, which renders exactly ``canonical(event)``; :meth:`verify` rechecks
        every hash.
        """
        if self.batch == "event":  # every record its own transaction, as the promise of "event" says
            for kind, body in zip(kinds, text.split("\0")):
                self._add(round_id, (kind,), body + "\0")
                self.commit()
        else:
            self._add(round_id, kinds, text)
        self.finished(1)

    def _add(self, round_id: int, kinds, text: str) -> None:
        """Buffer records of round ``round_id`` (their kinds; their texts each ended by a NUL)."""
        self._texts.append(text)
        self._kinds.extend(kinds)
        self._rounds.extend([round_id] * len(kinds))
        self._boundary, self._uncommitted = False, True
        if round_id > self._last_round:
            self._last_round = round_id
        if len(self._kinds) >= CHUNK:
            self._write()

    def _drop(self) -> None:
        """Forget the records appended and not yet handed to the writer (a stop loses them)."""
        self._texts, self._kinds, self._rounds = [], [], []

    def _chained(self) -> list:
        """The buffered records' row values (flat, in the columns' order), chained onto the tip in one
        call (the buffer emptied)."""
        if not self._kinds:
            return []
        text, kinds, rounds = "".join(self._texts), self._kinds, self._rounds
        self._texts, self._kinds, self._rounds = [], [], []
        first, tip = self._seq + 1, self._tip
        hashes = chain(tip, first, text, len(kinds))
        bodies = text.split("\0")
        bodies.pop()  # what follows the last NUL: nothing
        n = len(kinds)
        self._seq, self._tip = first + n - 1, hashes[-1]
        values = [None] * (COLUMNS * n)  # filled column by column: no tuple per row
        values[0::COLUMNS], values[1::COLUMNS], values[2::COLUMNS] = range(first, first + n), rounds, kinds
        values[3::COLUMNS], values[5::COLUMNS] = bodies, hashes
        hashes.insert(0, tip)
        hashes.pop()
        values[4::COLUMNS] = hashes  # each record's prev: the hash before it
        return values

    def _write(self, commit: bool = False) -> None:
        """Hand the buffered rows to the writer, to be written into the open transaction (and committed)."""
        values = self._chained()
        if commit and self._uncommitted:
            self.commits += 1
            self._uncommitted = False
            self._call(self._writer.write, values, self._last_round)
        elif values:
            self._call(self._writer.write, values)

    def _call(self, step, *args) -> None:
        try:
            step(*args)
        except sqlite3.DatabaseError as exc:  # a full disk, a lost file: the journal cannot be kept
            raise JournalError(f"{self.path}: cannot write the journal ({exc})") from None

    @property
    def durable_round(self) -> int:
        """The last round id whose records are all committed (fsync'd)."""
        durable = self._writer.durable
        return self._durable_at_open if durable is None else durable

    def finished(self, rounds: int) -> None:
        """``rounds`` more rounds are finished (DONE or VOID): commit when the batch's window is full.

        In ``"group"`` mode the window's commit is handed to the writer thread and this returns at
        once (the thread is at most two chunks behind); :meth:`commit` waits for it.
        """
        self._boundary = True
        if self.batch == "event":
            return self.commit()
        if self._finished == 0:
            self._oldest = time.monotonic()
        self._finished += rounds
        if self._finished >= self.window or time.monotonic() - self._oldest >= self.max_delay:
            self._write(commit=True)
            self._finished = 0

    def commit(self) -> None:
        """Make everything appended durable (fsync'd by ``synchronous=FULL``) before returning."""
        self._write(commit=True)
        self._finished = 0
        self._call(self._writer.wait)

    def close(self) -> None:
        """Commit a group window of finished rounds; drop a batch that ends inside a round (its window
        included), as if the process had stopped here."""
        try:
            if self.batch == "group" and self._finished and self._boundary and self._writer.failed is None:
                self.commit()
        finally:
            self._drop()
            try:
                self._call(self._writer.stop)
            finally:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- reading ---------------------------------------------------------------------------

    def rows(self) -> Iterator[tuple]:
        """Every row (seq, round, kind, body text, prev, hash) in order (appended ones included)."""
        self._write()
        self._call(self._writer.wait)
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
        return self._last_round + 1
