"""Checkpoints in the output folder: the run's state and each finished section's record.

``DIR/checkpoints/run.json`` names the plan (its SHA-256: a resumed run
must be given the same plan bytes) and every invocation (command line, UTC
start and end); ``DIR/checkpoints/<section>.json`` holds one finished
section's record exactly as the report shows it, and
``<section>.state``/``.state.json`` the accumulated state of a long section
still running (:class:`Partial`), checked against its SHA-256 when read: a
simulation's totals (:mod:`harness.segments`) or a device battery's
accumulators (:meth:`stats.battery.Battery.state`), both JSON data that
nothing is run from.  Every file is written to
a temporary name and renamed into place, so a kill at any moment leaves
either the old file or the new one, never half of one.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re

FOLDER = "checkpoints"
STATE = "run.json"


class CheckpointError(ValueError):
    """The output folder cannot be used for this run (one line saying why)."""


def write_json(path: pathlib.Path, data) -> None:
    """Write ``data`` as JSON at ``path`` atomically (temporary file, fsync, rename)."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def _file_name(key: str) -> str:
    """A section key as a file name: ``device:shoe:8`` -> ``device_shoe_8.json``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", key) + ".json"


class Checkpoints:
    """The checkpoint folder of one output folder.

    Parameters
    ----------
    out : pathlib.Path
        The run's output folder.
    plan_sha256 : str
        The plan the records belong to.
    """

    def __init__(self, out: pathlib.Path, plan_sha256: str):
        self.out = out
        self.folder = out / FOLDER
        self.plan_sha256 = plan_sha256

    @property
    def state_path(self) -> pathlib.Path:
        return self.folder / STATE

    def open(self, *, resume: bool, invocation: dict) -> dict:
        """Start a run (``resume`` False: the folder holds no run yet) or resume one (same plan);
        record this invocation and return the run state."""
        if self.state_path.exists():
            if not resume:
                raise CheckpointError(f"{self.out} already holds a certification run: add --resume to finish "
                                      "it, or choose another --out")
            try:
                state = json.loads(self.state_path.read_text(encoding="utf-8"))
                recorded = state["plan_sha256"]
            except (OSError, ValueError, KeyError, TypeError):
                raise CheckpointError(f"{self.state_path}: not a checkpoint of rngcert certify") from None
            if recorded != self.plan_sha256:
                raise CheckpointError(f"{self.out} holds a run of another plan (SHA-256 {recorded[:16]}...): "
                                      "--resume needs the same plan file")
        elif resume:
            raise CheckpointError(f"{self.out} holds no certification run to resume (no {FOLDER}/{STATE})")
        else:
            if self.out.exists() and any(self.out.iterdir()):
                raise CheckpointError(f"{self.out} is not empty: choose a new or empty folder for --out")
            state = {"plan_sha256": self.plan_sha256, "runs": []}
        self.folder.mkdir(parents=True, exist_ok=True)
        state["runs"].append(invocation)
        write_json(self.state_path, state)
        return state

    def save_state(self, state: dict) -> None:
        write_json(self.state_path, state)

    def load(self, key: str) -> dict | None:
        """The finished record of section ``key``, or None if it has not finished."""
        path = self.folder / _file_name(key)
        if not path.exists():
            return None
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            return None  # unreadable: run the section again
        if saved.get("plan_sha256") != self.plan_sha256 or saved.get("record", {}).get("key") != key:
            return None
        return saved["record"]

    def save(self, record: dict) -> None:
        """Checkpoint a finished section's record (its partial state, if any, is then dropped)."""
        write_json(self.folder / _file_name(record["key"]), {"plan_sha256": self.plan_sha256, "record": record})
        self.partial(record["key"]).drop()

    def partial(self, key: str) -> "Partial":
        """The mid-section state of section ``key`` (a long battery's accumulators)."""
        return Partial(self.folder, key, self.plan_sha256)


class Partial:
    """The state of one unfinished section: ``<section>.state`` (bytes the section wrote, e.g.
    :meth:`stats.battery.Battery.state`) and ``<section>.state.json`` (the plan and how many
    outcomes the state covers).  Written state first, then its description, each atomically: a
    description always names a state that is whole."""

    def __init__(self, folder: pathlib.Path, key: str, plan_sha256: str):
        stem = _file_name(key)[:-len(".json")]
        self.data, self.meta = folder / f"{stem}.state", folder / f"{stem}.state.json"
        self.plan_sha256 = plan_sha256

    def partitions(self) -> pathlib.Path:
        """The folder keeping the section's finished partitions (:mod:`harness.partition_store`)."""
        return self.data.with_name(self.data.name[:-len(".state")] + ".parts")

    def save(self, rows: int, state: bytes) -> None:
        temporary = self.data.with_name(self.data.name + ".partial")
        with open(temporary, "wb") as handle:
            handle.write(state)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.data)
        write_json(self.meta, {"plan_sha256": self.plan_sha256, "rows": int(rows),
                               "sha256": hashlib.sha256(state).hexdigest()})

    def load(self) -> tuple[int, bytes] | None:
        """(outcomes covered, state) of the last save, or None (none, another plan's, or damaged)."""
        try:
            meta = json.loads(self.meta.read_text(encoding="utf-8"))
            state = self.data.read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("plan_sha256") != self.plan_sha256 or hashlib.sha256(state).hexdigest() != meta.get("sha256"):
            return None
        return int(meta["rows"]), state

    def drop(self) -> None:
        for path in (self.meta, self.data):
            path.unlink(missing_ok=True)


__all__ = ["Checkpoints", "CheckpointError", "Partial", "write_json", "FOLDER"]
