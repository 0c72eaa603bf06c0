"""Where a journal's rows go into SQLite: at once, or on a writer thread (group commit).

A :class:`~harness.rounds.journal.Journal` hands its hash-chained rows to a
writer in chunks, each chunk one flat list of the rows' values (``COLUMNS``
per row, in the columns' order: the writer slices it into multi-row INSERTs
without building a tuple per row), either only written into the open
transaction or also committed.  :class:`Inline` does that at once, in the caller's
thread.  :class:`Threaded` does it on one writer thread behind a bounded
queue, so the rows of the next window are chained while SQLite writes and
fsyncs the last one (SQLite runs without the GIL).  The thread keeps the
queue's order, so what reaches the file is always a prefix of what was
handed over and a commit covers every chunk before it; ``durable`` is the
tag of the last commit that returned, so a caller reports a round done only
once ``durable`` has reached it.  A failed write is raised in the caller's
thread at its next call, and nothing after it is written.
"""
from __future__ import annotations

import queue
import sqlite3
import threading

COLUMNS = 6  # seq, round, kind, body, prev, hash
_ROW = "(" + ", ".join(["?"] * COLUMNS) + ")"


class Inline:
    """Write and commit in the caller's thread (what ``batch="event"`` and ``"round"`` use).

    Parameters
    ----------
    db : sqlite3.Connection
        In autocommit mode (``isolation_level=None``): transactions are opened and committed here.
    """

    def __init__(self, db: sqlite3.Connection):
        self._db = db
        limit = db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) if hasattr(db, "getlimit") else 999
        self._per_statement = max(1, min(1024, limit // COLUMNS))  # rows per INSERT: fewer, longer steps
        self._many = f"INSERT INTO records VALUES {', '.join([_ROW] * self._per_statement)}"
        self.durable = None
        self.failed: BaseException | None = None  # the write failure that stopped the writing (raised once)

    def write(self, values: list, commit_tag=None) -> None:
        """Write the rows whose values are ``values`` into the open transaction (opening one); commit it
        too unless ``commit_tag`` is None."""
        self._insert(values)
        if commit_tag is not None:
            self._commit(commit_tag)

    def wait(self) -> None:
        """Return once everything handed over is written (here: at once)."""

    def stop(self) -> None:
        """Write what was handed over; hand nothing more."""

    def _insert(self, values: list) -> None:
        if not values:
            return
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
        step = self._per_statement * COLUMNS
        whole = len(values) - len(values) % step if self._per_statement > 1 else 0
        if whole:  # one statement per m rows: the per-row cost of a statement step is paid m times less
            self._db.executemany(self._many, [values[i:i + step] for i in range(0, whole, step)])
        if whole < len(values):
            self._db.executemany(f"INSERT INTO records VALUES {_ROW}",
                                 [values[i:i + COLUMNS] for i in range(whole, len(values), COLUMNS)])

    def _commit(self, tag) -> None:
        if self._db.in_transaction:
            self._db.execute("COMMIT")
        self.durable = tag


class Threaded(Inline):
    """Write and commit on one writer thread, at most ``depth`` chunks behind the caller (group commit)."""

    def __init__(self, db: sqlite3.Connection, depth: int = 16):
        super().__init__(db)
        self._queue: queue.Queue = queue.Queue(depth)
        self._error: BaseException | None = None  # a failure not yet raised in the caller's thread
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    def write(self, values: list, commit_tag=None) -> None:
        self._raise()
        self._queue.put((values, commit_tag))  # blocks while the writer is ``depth`` chunks behind

    def wait(self) -> None:
        self._queue.join()
        self._raise()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        if self._error is not None:  # a failure raised once already is not raised again
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            self.failed = error
            raise error
        if self.failed is not None:
            raise sqlite3.OperationalError(f"an earlier write failed ({self.failed}); nothing after it is written")

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if self._error is None and self.failed is None:  # after a failure nothing more is written
                    values, tag = item
                    try:
                        self._insert(values)
                        if tag is not None:
                            self._commit(tag)
                    except BaseException as exc:  # handed to the caller's thread at its next call
                        self._error = exc
            finally:
                self._queue.task_done()


__all__ = ["COLUMNS", "Inline", "Threaded"]
