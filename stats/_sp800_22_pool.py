"""A pool of processes for the SP 800-22 suite: sequences spread over workers, results in sequence order.

Each task is a run of consecutive sequences, sent packed (eight bits a
byte) to the caller's task function (the suite's: every test on each
sequence, exactly as in the calling process); the results come back in the
order the sequences were given, whatever order the workers finish in, so
the suite's report does not depend on the number of workers.  At most two
tasks per worker are in flight, which bounds the memory the queue holds.

The workers are forked where the platform can fork: they start at once,
share the caller's imported modules, and need no ``if __name__ ==
"__main__"`` guard in the caller's script (the ``spawn`` and ``forkserver``
methods re-run the main module, which breaks a plain script); they only
compute on the bits they are sent.  Elsewhere they are spawned.  They
ignore SIGINT (and take SIGTERM's default action): an interrupt reaches the
calling process, which cancels what is queued and stops the pool once the
tasks under way (a few sequences each) have finished.
"""
from __future__ import annotations

import collections
import ctypes
import ctypes.util
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from stats import _workers

#: Sequences per task at most: enough to amortise a task's transfer (125 kB a sequence of 10^6 bits).
SEQUENCES_PER_TASK = 4
#: Tasks per worker at least, where there are sequences enough: workers finish close together.
TASKS_PER_WORKER = 4


#: glibc's mallopt parameters (malloc.h) and what a worker keeps mapped for reuse.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP_BYTES = 64 << 20


def keep_freed_memory() -> bool:
    """Let this process reuse freed large blocks rather than unmap them and fault them in afresh.

    A test on a 10^6-bit sequence allocates temporaries of up to 8 MB (the
    DFT's), which glibc maps and unmaps on every call by default: a worker
    then spends about a fifth of its CPU time in page faults.  Raising
    glibc's mmap and trim thresholds keeps such blocks in the heap.  The
    values computed are the same either way.  True when the C library took
    the setting (glibc); elsewhere nothing changes.
    """
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt(_M_MMAP_THRESHOLD, _KEEP_BYTES) == 1 and mallopt(_M_TRIM_THRESHOLD, 4 * _KEEP_BYTES) == 1


def _start_worker() -> None:
    """Pool initializer: the common worker signal set-up, then freed memory kept for reuse."""
    _workers.quiet_worker()
    keep_freed_memory()


def unpack(packed: bytes, count: int, length: int) -> np.ndarray:
    """The ``count`` sequences of ``length`` bits of a task, as one 0/1 array."""
    return np.unpackbits(np.frombuffer(packed, dtype=np.uint8), count=count * length)


def map_sequences(bits: np.ndarray, length: int, task, argument, workers: int):
    """Yield ``(i, result)`` for each of the ``bits.size // length`` sequences, in order.

    ``task(packed, count, length, argument)`` (a module-level function, so
    that a worker can find it) returns one result per sequence of its
    ``count``; it runs on ``workers`` processes.  Closing the generator early
    (or an interrupt while it waits) cancels what is queued and stops the pool.
    """
    m = bits.size // length
    per_task = max(1, min(SEQUENCES_PER_TASK, m // (TASKS_PER_WORKER * workers)))
    tasks = [(start, min(per_task, m - start)) for start in range(0, m, per_task)]
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=_workers.context(),
                             initializer=_start_worker) as pool:
        pending = collections.deque()
        try:
            for start, count in tasks:
                packed = np.packbits(bits[start * length: (start + count) * length]).tobytes()
                pending.append((start, pool.submit(task, packed, count, length, argument)))
                while len(pending) >= 2 * workers:
                    yield from _finished(*pending.popleft())
            while pending:
                yield from _finished(*pending.popleft())
        except BaseException:  # an interrupt, or the caller closing the generator
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _finished(start: int, future):
    for k, outcomes in enumerate(future.result()):
        yield start + k, outcomes


__all__ = ["map_sequences", "unpack", "keep_freed_memory", "SEQUENCES_PER_TASK"]
