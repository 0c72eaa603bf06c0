"""harness.reduction: a run's partitions merged in a tree of fixed shape (pairs of consecutive nodes, level by
level), the merges made by the workers, the same tree for any number of workers; an interrupt keeps exactly
the leaves taken, in order."""
import os

import pytest

from harness import reduction


def _leaf(index):
    return reduction.value(("leaf", index), note=index)


def _join(first, later):
    return ("merge", first, later, os.getpid())


def _shape(node):
    """The tree without the processes that merged it."""
    return node if node[0] == "leaf" else ("merge", _shape(node[1]), _shape(node[2]))


def _pids(node):
    return [] if node[0] == "leaf" else [node[3], *_pids(node[1]), *_pids(node[2])]


def _expected(count):
    """The fixed tree, built the straightforward way: pair consecutive nodes, a last one alone goes up."""
    level = [("leaf", i) for i in range(count)]
    while len(level) > 1:
        level = [("merge", level[i], level[i + 1]) if i + 1 < len(level) else level[i]
                 for i in range(0, len(level), 2)]
    return level[0]


def _run(executor, count, on_leaf=None, saved=()):
    leaves = ((None, reduction.value(("leaf", i))) if i in saved else (_leaf, i) for i in range(count))
    with executor as ex:
        return reduction.reduce(ex, leaves, count, _join, on_leaf)


@pytest.mark.parametrize("count", [1, 2, 3, 5, 8, 11])
def test_the_tree_is_the_same_for_any_number_of_workers_and_merged_by_them(count):
    expected = _expected(count)
    for executor in (reduction.Inline(), reduction.Processes(1), reduction.Processes(3)):
        values, taken, interrupted = _run(executor, count, saved={1})
        assert len(values) == 1 and taken == count and not interrupted  # only the root comes back
        root = reduction.unpack(values, _join)
        assert _shape(root) == expected, executor
        if isinstance(executor, reduction.Processes):
            assert os.getpid() not in _pids(root)  # every merge made by a worker


def test_leaves_are_taken_in_order_and_an_interrupt_keeps_exactly_those_taken():
    seen = []

    def take(index, handle):
        seen.append((index, None if index == 2 else reduction.Inline.result(handle)[1]))
        if index == 5:
            raise KeyboardInterrupt

    for executor in (reduction.Inline(), reduction.Processes(2)):
        seen.clear()
        values, taken, interrupted = _run(executor, 11, take, saved={2})
        assert interrupted and taken == 6 and seen == [(0, 0), (1, 1), (2, None), (3, 3), (4, 4), (5, 5)]
        # the largest finished nodes covering leaves 0-5, in order, merge here into their tree
        leaves = []
        for data in values:
            node = reduction.unpack([data], _join)
            stack = [node]
            while stack:
                top = stack.pop()
                if top[0] == "leaf":
                    leaves.append(top[1])
                else:
                    stack += [top[2], top[1]]
        assert leaves == list(range(6))


def _broken(index):
    raise ValueError(f"partition {index}: line 7 is not an outcome")


def test_the_levels_and_a_failing_partition():
    assert [reduction.levels(n) for n in (0, 1, 5, 8)] == [[0], [1], [5, 3, 2, 1], [8, 4, 2, 1]]
    with reduction.Processes(2) as ex, pytest.raises(ValueError, match="partition 1: line 7"):
        reduction.reduce(ex, iter([(_leaf, 0), (_broken, 1), (_leaf, 2)]), 3, _join)
    with reduction.Inline() as ex:
        assert reduction.reduce(ex, iter([]), 0, _join) == ([], 0, False)


def _slow_leaf(index):
    import time

    time.sleep(0.05 if index == 0 else 3)
    return reduction.value(("leaf", index))


def test_an_interrupt_does_not_wait_for_the_partitions_under_way():
    import time

    def stop(index, handle):
        raise KeyboardInterrupt

    started = time.monotonic()
    with reduction.Processes(2) as ex:
        values, taken, interrupted = reduction.reduce(ex, ((_slow_leaf, i) for i in range(4)), 4, _join, stop)
    assert interrupted and taken == 1 and len(values) == 1 and time.monotonic() - started < 2.5


def _big_leaf(index):
    return reduction.value(("leaf", index, bytes(reduction.SPILL_BYTES)), note=index)


def _big_join(first, later):
    return ("merge", first, later)


def test_large_values_go_through_files_that_are_removed_once_merged():
    count = 7
    with reduction.Inline() as ex:
        [expected] = reduction.reduce(ex, ((_big_leaf, i) for i in range(count)), count, _big_join)[0]
    notes = []
    ex = reduction.Processes(2)
    with ex:
        values, taken, _ = reduction.reduce(ex, ((_big_leaf, i) for i in range(count)), count, _big_join,
                                            lambda index, handle: notes.append(ex.result(handle)[1]))
        left = os.listdir(ex.folder)
    assert isinstance(values[0], tuple) and values[0][0] == expected[0]  # the root, read back
    assert notes == list(range(count)) and taken == count
    assert left == []  # each value's file removed once read
    assert not os.path.exists(ex.folder)


def test_a_value_that_cannot_be_written_to_a_file_goes_as_it_is(tmp_path):
    out = reduction._spilling(str(tmp_path / "missing"), _big_leaf, (3,))
    assert out == _big_leaf(3)
    spilled = reduction._spilling(str(tmp_path), _big_leaf, (3,))
    assert isinstance(spilled, reduction.Spilled) and spilled[1] == 3 and tuple(spilled) == _big_leaf(3)
    assert reduction._spilling(str(tmp_path), _leaf, (3,)) == _leaf(3)  # small: never a file


def test_the_values_folder_of_a_killed_run_is_removed_by_the_next_run():
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    parent = reduction._shared_memory() or __import__("tempfile").gettempdir()
    stale = os.path.join(parent, f"rngcert-values-{gone}-test")
    os.makedirs(stale, exist_ok=True)
    with reduction.Processes(1) as ex:
        assert os.path.isdir(ex.folder) and os.path.basename(ex.folder).startswith(f"rngcert-values-{os.getpid()}-")
    assert not os.path.exists(stale) and not os.path.exists(ex.folder)


@pytest.mark.parametrize("workers", [1, 2, 3, 64])
def test_blocks_are_nodes_of_the_tree_covering_the_leaves_in_order(workers):
    assert reduction.blocks(0, workers) == []
    for count in range(1, 70):
        cut = reduction.blocks(count, workers)
        assert [a for a, _, _ in cut] == [0, *[b for _, b, _ in cut[:-1]]] and cut[-1][1] == count
        for a, b, level in cut:
            assert b - a == 1 << level and a % (b - a) == 0 and b - a <= reduction.MAX_BLOCK
        assert all(b - a == 1 for a, b, _ in cut[-2 * workers:])  # the last blocks single leaves
    assert max(b - a for a, b, _ in reduction.blocks(32, 2)) == reduction.MAX_BLOCK


def _block(span):
    """A block's task: its leaves merged in the block, in the run's tree."""
    first, end = span
    return reduction.value(reduction.merge_in_tree([("leaf", i) for i in range(first, end)], _join))


@pytest.mark.parametrize("count", [9, 16, 27])
def test_a_run_of_blocks_makes_the_tree_of_its_leaves(count):
    cut = reduction.blocks(count, 2)
    assert any(level for _, _, level in cut)
    for executor in (reduction.Inline(), reduction.Processes(2)):
        taken = []
        with executor as ex:
            values, done, interrupted = reduction.reduce(ex, ((_block, (a, b), level) for a, b, level in cut), count,
                                                         _join, lambda index, handle: taken.append(index))
        assert taken == [a for a, _, _ in cut] and done == count and not interrupted
        assert _shape(reduction.unpack(values, _join)) == _expected(count), executor


def test_a_block_must_be_a_node_of_the_tree():
    with reduction.Inline() as ex, pytest.raises(ValueError, match="cannot start at leaf 1"):
        reduction.reduce(ex, iter([(_leaf, 0), (_block, (1, 3), 1)]), 4, _join)


class _Counting(reduction.Processes):
    """A pool that records how many leaves are in flight (submitted, not yet taken) at each submit."""

    def __init__(self, workers, taken):
        super().__init__(workers)
        self.taken, self.peak = taken, 0

    def submit(self, task, *args):
        if task is _block:
            self.peak = max(self.peak, args[0][1] - self.taken[0])
        return super().submit(task, *args)


@pytest.mark.parametrize("limit", [None, 12])
def test_at_most_limit_leaves_are_in_flight_whatever_the_blocks(limit):
    count = 40
    cut = reduction.blocks(count, 1)  # blocks of 8, 8, 8, 4, 4, 2, 2, then single leaves
    ends = {a: b for a, b, _ in cut}
    taken = [0]
    ex = _Counting(2, taken)
    with ex:
        values, done, _ = reduction.reduce(ex, ((_block, (a, b), level) for a, b, level in cut), count, _join,
                                           lambda index, handle: taken.__setitem__(0, ends[index]), limit)
    assert done == count and _shape(reduction.unpack(values, _join)) == _expected(count)
    if limit is None:
        assert ex.peak > 12  # four blocks of up to 8 in flight: what the limit is for
    else:
        assert ex.peak == limit  # (8 + 4, at most: a block that would pass it waits)
