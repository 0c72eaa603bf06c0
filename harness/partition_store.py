"""Finished partitions kept in a directory (``--checkpoint DIR``), so a killed run goes on where it stopped.

A partitioned run (:mod:`harness.partitions`, :mod:`harness.game_partitions`)
writes each partition's result to ``DIR`` as soon as it has it:
``DIR/run.json`` names the run (what is tested or played, how many rows,
the partition size and the generator or capture: a SHA-256 of them, never a
seed), and ``DIR/part-NNNNNN.json`` holds partition NNNNNN's result as JSON
data (a battery's accumulators, :mod:`stats._state`; a simulation's tallies,
:meth:`harness.segments.GameSegments.dump`) with its SHA-256.  Nothing in a
file is run or unpickled.  Each file is written to a temporary name and
renamed into place, so a kill at any moment leaves whole files only.

Run again with the same ``DIR``, the run takes the partitions found there
and computes only the others; the merge is exact and in partition order, so
the result is the uninterrupted run's.  A ``DIR`` holding another run's
partitions is refused (one line); a damaged partition file is computed
again.
"""
from __future__ import annotations

import hashlib
import json
import pathlib

from harness.certify.checkpoint import write_json

FORMAT = "rngcert-partitions/1"
RUN = "run.json"


class PartitionStoreError(ValueError):
    """The directory cannot hold this run's partitions (one line saying why)."""


def run_key(identity: dict) -> str:
    """SHA-256 of a run's identity (JSON-able: sorted keys, so any order of building it agrees; a set
    sorted, any other value by its ``str``)."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=_plain).encode()).hexdigest()


def _plain(value):
    """A value JSON cannot write, as one it can, the same in every process (a set's order is not)."""
    return sorted(value, key=repr) if isinstance(value, (set, frozenset)) else str(value)


class PartitionStore:
    """The finished partitions of one run in ``folder`` (created if missing).

    Parameters
    ----------
    folder : path
        ``--checkpoint DIR``.
    identity : dict
        What makes two runs the same run (see the module docstring); only its
        SHA-256 (:func:`run_key`) and the partition count are written.
    partitions : int
        How many partitions the run has.
    """

    def __init__(self, folder, identity: dict, partitions: int):
        self.folder = pathlib.Path(folder)
        self.key, self.partitions = run_key(identity), int(partitions)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PartitionStoreError(f"--checkpoint {folder}: cannot create the directory ({exc.strerror})") from None
        if not self.folder.is_dir():
            raise PartitionStoreError(f"--checkpoint {folder}: not a directory")
        run = self.folder / RUN
        if run.exists():
            try:
                recorded = json.loads(run.read_text(encoding="utf-8"))
                same = recorded.get("format") == FORMAT and recorded.get("run") == self.key
            except (OSError, ValueError, AttributeError):
                same = False
            if not same:
                raise PartitionStoreError(f"--checkpoint {folder}: holds the partitions of another run "
                                          "(other settings, input or seed); choose another directory")
        else:
            write_json(run, {"format": FORMAT, "run": self.key, "partitions": self.partitions})

    def _path(self, index: int) -> pathlib.Path:
        return self.folder / f"part-{index:06d}.json"

    def load(self, index: int) -> str | None:
        """Partition ``index``'s saved result (the JSON text given to :meth:`save`), or None."""
        try:
            saved = json.loads(self._path(index).read_text(encoding="utf-8"))
            data = saved["data"]
            whole = (saved["run"] == self.key and saved["index"] == index
                     and saved["sha256"] == hashlib.sha256(data.encode()).hexdigest())
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return data if whole else None

    def save(self, index: int, text: str) -> None:
        """Keep partition ``index``'s result, ``text`` (JSON)."""
        write_json(self._path(index), {"run": self.key, "index": int(index), "data": text,
                                       "sha256": hashlib.sha256(text.encode()).hexdigest()})

    def finished(self) -> dict:
        """``{index: text}`` of every whole partition saved so far."""
        out = {}
        for path in sorted(self.folder.glob("part-*.json")):
            try:
                index = int(path.stem[len("part-"):])
            except ValueError:
                continue
            if 0 <= index < self.partitions:
                data = self.load(index)
                if data is not None:
                    out[index] = data
        return out


__all__ = ["PartitionStore", "PartitionStoreError", "run_key"]
