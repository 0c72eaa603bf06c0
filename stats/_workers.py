"""How worker processes start, and what they do with signals: one home for every pool of processes.

Workers are forked where the platform can fork: they start at once and
share the caller's imported modules (scipy among them, seconds to import)
and whatever the caller prepared before starting the pool (a planned
battery, an opened capture, a simulation's child generators), so a worker
only computes.  Elsewhere they are spawned.  A forked generator in
production mode reseeds itself after the fork (the audit contract); in
replay mode a worker only ever uses the generator it is handed.  Workers
ignore SIGINT and take SIGTERM's default action: an interrupt is the calling
process's to handle, and the pool can always stop its workers.
"""
from __future__ import annotations

import multiprocessing
import signal


def forks() -> bool:
    """Whether workers are forked here (and so inherit what the caller prepared)."""
    return "fork" in multiprocessing.get_all_start_methods()


def context():
    """The multiprocessing context pools use: fork where available, else spawn."""
    return multiprocessing.get_context("fork" if forks() else "spawn")


def quiet_worker() -> None:
    """Pool initializer: SIGINT ignored, SIGTERM back to its default (a forked worker drops the
    handler it inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


__all__ = ["context", "forks", "quiet_worker"]
