"""Holding SIGINT and SIGTERM while a battery takes in a chunk, so no test gets ahead of n."""
from __future__ import annotations

import contextlib
import signal
import threading

_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def deferred_signals():
    """Run the body with SIGINT/SIGTERM recorded, not acted on; deliver them after it.

    Only the main thread can set handlers (and only it receives signals);
    elsewhere the body runs unguarded.  A signal that came is raised again,
    once, through the handler that was in place, so Ctrl-C still becomes
    KeyboardInterrupt, just after the body instead of inside it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = {}
    for sig in _HELD:
        previous[sig] = signal.signal(sig, lambda number, frame: came.append(number))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        for sig in dict.fromkeys(came):
            signal.raise_signal(sig)
