"""Progress of long jobs on stderr: one bar with an ETA, only on a terminal.

Every long command (and any long library step a command drives: reading a
capture file, an exact slot analysis, a simulation) reports progress through
:class:`Progress`, so progress looks the same everywhere and never reaches a
CI log: when stderr is not a terminal, or the user gave ``--quiet``, nothing
is written at all.

Usage, with any library function that takes a ``progress(done, total)``
callback::

    with Progress("simulating", total=rounds, unit="rounds", quiet=quiet) as report:
        simulate(..., progress=report)

``report(done)`` or ``report(done, total)`` sets the absolute position (a
changed ``total`` is taken over); calling it more often than the terminal is
redrawn costs little (the bar redraws at most every 0.1 s).  A job that
ends within half a second shows no bar.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO

import click

REDRAW_SECONDS = 0.1  # the bar is redrawn at most this often (and at the end)
DELAY_SECONDS = 0.5  # a job that ends sooner shows no bar at all (no flicker on short runs)


def _is_terminal(file) -> bool:
    try:
        return bool(file.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


class Progress:
    """A progress bar with an ETA for one job of ``total`` units.

    Parameters
    ----------
    label : str
        What is being done (``"simulating craps"``, ``"reading spins.npy"``).
    total : int
        Units of work in the job (outcomes, rounds, bytes, ...); must be > 0
        for a bar to be shown.
    unit : str, optional
        Name of a unit, shown after the counts.
    quiet : bool, optional
        Show nothing (``--quiet``).
    file : text stream, optional
        Where the bar goes (default ``sys.stderr``); nothing is shown unless it
        is a terminal.
    """

    def __init__(self, label: str, total: int, *, unit: str = "", quiet: bool = False,
                 file: TextIO | None = None):
        self.label = label
        self.total = int(total)
        self.unit = unit
        self.file = sys.stderr if file is None else file
        self.enabled = not quiet and self.total > 0 and _is_terminal(self.file)
        self.done = 0
        self._bar = None
        self._started = time.monotonic()
        self._last_draw = 0.0

    def __enter__(self) -> "Progress":
        self._started = time.monotonic()
        return self

    def _open_bar(self) -> None:
        label = f"{self.label} ({self.unit})" if self.unit else self.label
        self._bar = click.progressbar(length=self.total, label=label, file=self.file,
                                      show_eta=True, show_percent=True, show_pos=True)
        self._bar.__enter__()

    def __call__(self, done: int, total: int | None = None) -> None:
        """Set the position to ``done`` units (of ``total``, if it changed)."""
        if total is not None and int(total) != self.total:
            self.total = int(total)
            if self._bar is not None:
                self._bar.length = self.total
        step = int(done) - self.done
        self.done = int(done)
        if not self.enabled or step <= 0:
            return
        now = time.monotonic()
        if self._bar is None:
            if now - self._started < DELAY_SECONDS:
                return
            self._open_bar()
            step = self.done  # the bar starts at 0: catch up at once
        if now - self._last_draw < REDRAW_SECONDS and self.done < self.total:
            self._bar.pos += step  # count it; draw later
            return
        self._last_draw = now
        self._bar.update(step)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.render_finish()
            self._bar = None
