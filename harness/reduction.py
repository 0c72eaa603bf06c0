"""A run's partitions computed and merged in a fixed binary tree: on local processes, on Dask, or here.

The results of a run's P partitions are the leaves of one tree whose shape
depends on P alone: level 0 holds the leaves in order; node j of the next
level merges nodes 2j and 2j + 1 of the level below (a last node without a
pair goes up as it is), up to one node, the run's result.  Every merge is
the exact merge of two consecutive segments (integer counts, lists in
order, the later segment's state), and the tree's shape is fixed, so every
run of the same partitions makes the same merges, bit for bit, whatever
the number of workers or where they are.

Merges are tasks, like the partitions (so the process that started the run
does not merge every partition, one after another):

* :class:`Processes`, a local pool (:mod:`stats._workers`): a merge is
  submitted when both its halves are back (a value over
  :data:`SPILL_BYTES` stays in a file in shared memory, :class:`Spilled`:
  only its name goes through this process);
* :class:`harness.cluster.Cluster`, Dask: a merge is submitted with its
  halves' futures as soon as they exist (a tree of merge tasks), so results
  go from worker to worker;
* :class:`Inline`, this process: each task runs when submitted.

A task may compute a whole node of the tree, a *block* of 2^l consecutive
leaves (:func:`blocks`: large blocks first, smaller ones towards the end,
so that the workers finish together): a battery's block is one pass over
its rows, a simulation's block its partitions played one after another and
merged in the same tree in the worker.  Every merge is exact, so the node is
the same whichever way it was computed, and the run needs fewer tasks,
merges and values sent from process to process.

This process takes each block in turn, in order (:func:`reduce`'s
``on_leaf``: progress, a checkpoint, the tests that do not merge).  An
interrupt ends the run with the whole leaves taken so far, merged here from
the largest finished nodes that cover them.

Every value in the tree is a pair ``(data, note)``: ``data`` the pickled
result, unpickled only by the process that merges it; ``note`` what a leaf
tells the process that takes it (a checkpoint's JSON, say), None on merged
nodes.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import os
import pickle
import shutil
import tempfile

#: A value larger than this goes between local processes as a file in shared memory (see :class:`Spilled`).
SPILL_BYTES = 1 << 16


def merged(merge, first, later):
    """Task: the node of ``first`` then ``later`` (two ``(data, note)`` values), by ``merge(a, b)``
    (a module-level function taking two unpickled results, returning the merged one)."""
    return pickle.dumps(merge(pickle.loads(first[0]), pickle.loads(later[0])), pickle.HIGHEST_PROTOCOL), None


def value(result, note=None):
    """A tree value of ``result`` (pickled), with a leaf's ``note``."""
    return pickle.dumps(result, pickle.HIGHEST_PROTOCOL), note


def unpack(values, merge):
    """The result of ``values`` (the nodes :func:`reduce` returns, in order) merged here, in order;
    None when there are none."""
    out = None
    for data, _ in values:
        part = pickle.loads(data)
        out = part if out is None else merge(out, part)
    return out


def merge_in_tree(results: list, merge):
    """``results`` (consecutive segments, a block's: :func:`blocks`) merged in the run's tree: pairs
    of consecutive ones, level by level, a last one without a pair going up as it is."""
    while len(results) > 1:
        results = [merge(*results[i: i + 2]) if i + 1 < len(results) else results[i]
                   for i in range(0, len(results), 2)]
    return results[0]


def levels(count: int) -> list[int]:
    """Nodes per level of the tree over ``count`` leaves: ``[count, ceil(count / 2), ..., 1]``.

    >>> levels(5)
    [5, 3, 2, 1]
    """
    sizes = [int(count)]
    while sizes[-1] > 1:
        sizes.append((sizes[-1] + 1) // 2)
    return sizes


#: The most leaves a block (:func:`blocks`) holds: what a block's outcomes in flight weigh, and how
#: often the progress bar moves.
MAX_BLOCK = 8


def blocks(count: int, workers: int, largest: int = MAX_BLOCK) -> list[tuple[int, int, int]]:
    """``[(start, end, level), ...]``: the leaves ``[0, count)`` cut, in order, into nodes of the tree
    (leaves ``[j 2^level, (j + 1) 2^level)``) each computed as one task on ``workers`` workers.

    A block holds at most ``largest`` leaves and at most 1 / (2 ``workers``) of the leaves still
    to cut, so blocks shrink towards the end of a run and its workers finish together.

    >>> [(a, b) for a, b, _ in blocks(16, 2)]
    [(0, 4), (4, 6), (6, 8), (8, 10), (10, 11), (11, 12), (12, 13), (13, 14), (14, 15), (15, 16)]
    >>> blocks(3, 64)
    [(0, 1, 0), (1, 2, 0), (2, 3, 0)]
    """
    out, start = [], 0
    while start < count:
        cap, level = min(int(largest), (count - start) // (2 * max(1, int(workers)))), 0
        while 2 << level <= cap and start % (2 << level) == 0:
            level += 1
        out.append((start, start + (1 << level), level))
        start += 1 << level
    return out


def reduce(executor, leaves, count: int, merge, on_leaf=None, limit: int | None = None):
    """Compute ``count`` leaves on ``executor`` and merge them in the fixed tree (module docstring).

    Parameters
    ----------
    executor : Inline, Processes or harness.cluster.Cluster
    leaves : iterable
        For each leaf, or block of leaves, in order: ``(task, job)``, a leaf computed as
        ``task(job)``, which returns a :func:`value`; ``(task, job, level)``, the block of the next
        ``2**level`` leaves (a node of the tree: its first leaf a multiple of ``2**level``; see
        :func:`blocks`) computed as ``task(job)``; or ``(None, value)``, a leaf already known (a
        checkpoint's).  At most ``executor.slots`` of them are in flight; each is built (drawn
        outcomes, say) with Ctrl-C held.
    merge : callable
        ``merge(a, b)`` of two results (module-level, so a worker can run it).
    on_leaf : callable, optional
        ``on_leaf(index, handle)`` for each leaf or block in order (``index`` its first leaf), once
        it is finished (``executor.result(handle)`` is its value); it may raise KeyboardInterrupt
        to stop the run after that block.
    limit : int, optional
        The most leaves in flight (submitted and not yet taken), whatever the blocks: a block that
        would pass it is built and held until enough are taken (the first one in flight always
        goes), so at most ``limit`` leaves plus the block held are in flight.

    Returns
    -------
    (values, taken, interrupted)
        The values of the finished nodes covering leaves ``[0, taken)``, in order (one node, the
        root, when the run finished; :func:`unpack` merges them), and whether an interrupt stopped it.
    """
    from stats._signals import deferred_signals

    sizes = levels(count)
    top = len(sizes) - 1
    nodes: dict = {}  # (level, j) -> handle; a node is forgotten once its parent is done and taken
    waiting: dict = {}  # first leaf of a block -> (handle, leaves), until taken
    source = iter(leaves)
    submitted = taken = 0
    done = executor.done

    def span(level, j):
        return j << level, min((j + 1) << level, count)

    def combine():
        for (level, j) in sorted(nodes):
            parent = (level + 1, j // 2)
            if level == top or parent in nodes or j % 2:
                continue
            if j + 1 == sizes[level]:
                nodes[parent] = nodes[(level, j)]  # no pair: goes up as it is
                continue
            pair = (level, j + 1)
            if pair not in nodes:
                continue
            first, later = nodes[(level, j)], nodes[pair]
            if executor.chains:
                nodes[parent] = executor.submit(merged, merge, first, later)
            elif done(first) and done(later):
                nodes[parent] = executor.submit(merged, merge, executor.result(first), executor.result(later))

    release = getattr(executor, "release", None)

    def prune():
        for (level, j) in list(nodes):
            parent = nodes.get((level + 1, j // 2))
            if parent is not None and span(level + 1, j // 2)[1] <= taken and done(parent):
                handle = nodes.pop((level, j))
                if release is not None and handle is not parent:  # (no pair: the parent is this node)
                    release(handle)

    def cover(level, j):
        lo, hi = span(level, j)
        handle = nodes.get((level, j))
        if lo >= taken:
            return []
        if handle is not None and hi <= taken and done(handle):
            return [handle]
        return [] if level == 0 else cover(level - 1, 2 * j) + cover(level - 1, 2 * j + 1)

    interrupted = False
    held = None  # the next leaf or block, built, waiting for room under ``limit``
    try:
        while count:
            while submitted < count and len(waiting) < executor.slots:
                with deferred_signals():  # a leaf built (drawn) is built and submitted whole
                    if held is None:
                        held = _block_of(next(source), submitted, count)
                    task, job, level = held
                    if limit is not None and taken < submitted and submitted - taken + (1 << level) > limit:
                        break
                    handle = executor.put(job) if task is None else executor.submit(task, job)
                    held = None
                nodes[(level, submitted >> level)] = handle
                waiting[submitted] = handle, 1 << level
                submitted += 1 << level
            combine()
            while taken < submitted and done(waiting[taken][0]):
                first = taken
                handle, size = waiting.pop(first)
                executor.raise_failure(handle)
                taken += size
                if on_leaf is not None:
                    on_leaf(first, handle)
            root = nodes.get((top, 0))
            if root is not None and done(root):
                break
            prune()
            executor.wait([h for h in nodes.values() if not done(h)])
    except KeyboardInterrupt:
        interrupted = True
    values = [_read(executor.result(h)) for h in (cover(top, 0) if count else [])]
    if release is not None:  # (read: every node's value can go)
        for handle in {id(h): h for h in nodes.values()}.values():
            if done(handle):
                release(handle)
    if interrupted:
        executor.abandon()  # what is queued or under way is not waited for
    return values, taken, interrupted


def _block_of(leaf, first: int, count: int) -> tuple:
    """``(task, job, level)`` of a leaf or block as :func:`reduce` takes it, checked to be a node of the
    tree over ``count`` leaves starting at leaf ``first``."""
    task, job, *level = leaf
    level = level[0] if level else 0
    if first % (1 << level) or first + (1 << level) > count:
        raise ValueError(f"a block of 2**{level} leaves cannot start at leaf {first} of {count}")
    return task, job, level


class Spilled:
    """A tree value a local worker left in a file (in shared memory where there is some): the pool
    passes its name, so the calling process relays no value's bytes, and a worker writing one never
    waits for the calling process to read it from a pipe.  ``spilled[1]`` is the note; ``spilled[0]``
    (or unpacking it) reads the data."""

    __slots__ = ("path", "note")

    def __init__(self, path: str, note):
        self.path, self.note = path, note

    def __getitem__(self, index):
        return (self._data(), self.note)[index]

    def __iter__(self):
        return iter((self._data(), self.note))

    def _data(self) -> bytes:
        with open(self.path, "rb") as file:
            return file.read()


def _read(value):
    """``value`` as a ``(data, note)`` pair (a :class:`Spilled` one read)."""
    return tuple(value) if isinstance(value, Spilled) else value


def _spilling(folder: str, task, args):
    """Worker: ``task(*args)``, its arguments read where they are :class:`Spilled`, its value left in
    a file of ``folder`` when larger than :data:`SPILL_BYTES`."""
    out = task(*(_read(a) for a in args))
    if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], bytes) and len(out[0]) > SPILL_BYTES:
        path = None
        try:
            descriptor, path = tempfile.mkstemp(suffix=".value", dir=folder)
            with os.fdopen(descriptor, "wb") as file:
                file.write(out[0])
            return Spilled(path, out[1])
        except OSError:  # (shared memory full, say: the value goes through the pipe as it is)
            if path is not None:
                with contextlib.suppress(OSError):
                    os.unlink(path)
    return out


def _shared_memory() -> str | None:
    """A folder in memory for :class:`Spilled` values (Linux's /dev/shm), else None: the temporary folder."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


_FOLDER_PREFIX = "rngcert-values-"


def _values_folder() -> str:
    """A new folder for a run's :class:`Spilled` values, named by this process's id; the folders of
    runs whose process is gone (killed: no exit ran to remove them) are removed first, as they would
    otherwise hold memory until the machine restarts."""
    parent = _shared_memory() or tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(parent):
            pid = name[len(_FOLDER_PREFIX):].partition("-")[0]
            if name.startswith(_FOLDER_PREFIX) and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{_FOLDER_PREFIX}{os.getpid()}-", dir=parent)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's process)
        return True
    return True


class _Done(concurrent.futures.Future):
    def __init__(self, result):
        super().__init__()
        self.set_result(result)


class Inline:
    """Tasks run in this process when submitted (no workers, or a platform that cannot fork)."""

    chains = False
    slots = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def submit(task, *args):
        return _Done(task(*args))

    put = staticmethod(_Done)

    @staticmethod
    def done(handle) -> bool:
        return handle.done()

    @staticmethod
    def wait(handles) -> None:
        return None

    @staticmethod
    def result(handle):
        return handle.result()

    @staticmethod
    def raise_failure(handle) -> None:
        handle.result()

    def abandon(self) -> None:
        """Stop without waiting for the tasks queued or under way."""


class Processes(Inline):
    """Tasks on a pool of ``workers`` local processes (:mod:`stats._workers`: forked where the platform
    can, so they start with what this process prepared).  An interrupt (:meth:`abandon`, or an exception
    leaving the ``with``) cancels what is queued and stops the pool without waiting."""

    def __init__(self, workers: int):
        self.workers = int(workers)
        self.slots = 2 * self.workers

    def __enter__(self):
        from stats import _workers

        self.folder = _values_folder()  # (Spilled values)
        self.pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=_workers.context(),
                                                           initializer=_workers.quiet_worker)
        return self

    def __exit__(self, kind, *exc):
        # Not waiting for the idle workers to exit: the caller goes on to its report meanwhile
        # (the pool's own thread joins them; nothing is left queued once a run is over).
        self.pool.shutdown(wait=False, cancel_futures=True)
        shutil.rmtree(self.folder, ignore_errors=True)
        return False

    def release(self, handle) -> None:
        """Forget a finished node's value (its parent has read it): its file, if it was spilled."""
        if handle.cancelled() or handle.exception() is not None:
            return
        value = handle.result()
        if isinstance(value, Spilled):
            with contextlib.suppress(OSError):
                os.unlink(value.path)

    def abandon(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def submit(self, task, *args):
        return self.pool.submit(_spilling, self.folder, task, args)

    @staticmethod
    def wait(handles) -> None:
        if handles:
            concurrent.futures.wait(handles, return_when=concurrent.futures.FIRST_COMPLETED)


__all__ = ["reduce", "blocks", "merged", "value", "unpack", "levels", "merge_in_tree", "Inline", "Processes", "MAX_BLOCK"]
