"""`rngcert test --workers N` on a capture: fixed partitions merged exactly, the report of one pass for any N."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

import harness.partitions
import harness.sources
from harness.cli import main
from harness.partitions import partitions, run_partitioned
from stats.battery import Battery
from stats.io import open_capture
from tests.stats_support import device_spec

N = 60_000


def _capture(tmp_path):
    path = tmp_path / "spins.npy"
    np.save(path, np.random.default_rng(7).integers(0, 37, N).astype(np.uint8))
    return path


def test_partitions_are_fixed_by_n_alone():
    assert partitions(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert partitions(N) == [(0, N)] and partitions(0) == []


def test_two_workers_give_the_one_process_report(tmp_path, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 16_384)  # 4 partitions (set in the parent)
    path = _capture(tmp_path)
    args = ["test", "roulette-single", "--input", str(path), "--format", "indices", "--json"]
    one = CliRunner().invoke(main, args)
    two = CliRunner().invoke(main, args + ["--workers", "2"])
    assert one.exit_code == two.exit_code and one.exit_code in (0, 1), two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b and a["n"] == N and len(a["tests"]) > 15


def test_an_interrupted_parallel_run_reports_its_whole_partitions(tmp_path, monkeypatch):
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 20_000)
    path = _capture(tmp_path)
    spec = device_spec("roulette-single")
    capture = open_capture(path, spec, format="indices")

    def progress(done, total):
        if done >= 40_000:
            raise KeyboardInterrupt

    result = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=None, workers=2,
                             progress=progress)
    assert result.interrupted and result.n == 40_000
    fresh = Battery(spec, N)
    fresh.update(capture.rows(0, 40_000))
    assert result.to_json() == fresh.result(interrupted=True).to_json()


SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@pytest.mark.parametrize("device, n", [("roulette-single", N), ("dice:3", 30_000)])
def test_outcomes_drawn_from_our_device_give_the_one_process_report(monkeypatch, device, n):
    """Drawn in the main process in a one-process run's chunks, tested in partitions: the same report."""
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 12_289)  # partitions cut across draw chunks
    monkeypatch.setattr(harness.sources, "rows_per_chunk", lambda kind, values=None: 5000)  # several draws each
    args = ["test", device, "--seed", SEED, "--stream", "4", "--samples", str(n), "--json"]
    one = CliRunner().invoke(main, args)
    two = CliRunner().invoke(main, args + ["--workers", "2"])
    three = CliRunner().invoke(main, args + ["--workers", "3"])
    assert one.exit_code == two.exit_code == three.exit_code and one.exit_code in (0, 1), two.output
    a, b, c = (json.loads(r.stdout) for r in (one, two, three))
    assert a == b == c and a["n"] == n and len(a["tests"]) > 10


def test_a_test_that_cannot_merge_reads_the_outcomes_in_the_main_process(tmp_path, monkeypatch):
    """A test that declares no merge runs in one pass beside the partitions; the report is still one pass."""
    from stats.runs import RunsAccumulator

    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 16_384)
    monkeypatch.setattr(RunsAccumulator, "mergeable", classmethod(lambda cls: False))
    path = _capture(tmp_path)
    spec = device_spec("roulette-single")
    capture = open_capture(path, spec, format="indices")
    result = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01,
                             tests=["frequency", "runs-up", "serial-pairs"], workers=2)
    one = Battery(spec, N, tests=["frequency", "runs-up", "serial-pairs"])
    one.update(capture.rows(0, N))
    assert result.to_json() == one.result().to_json() and not result.interrupted


def test_one_home_cuts_partitions_and_segments_as_before():
    """harness.partitions holds every cut of a run: the fixed partitions and the segments' quadratic
    schedule (harness.segments.boundaries reads it), each equal to its straightforward definition."""
    from harness import segments
    from harness.partitions import schedule

    def reference_boundaries(total, minimum, points=16):
        ends = []
        for j in range(1, points + 1):
            b = total if j == points else -(-total * j * j // (points * points))
            if b - (ends[-1] if ends else 0) >= minimum or j == points:
                ends.append(b)
        if len(ends) > 1 and ends[-1] - ends[-2] < minimum:
            del ends[-2]
        return ends

    rng = np.random.default_rng(5)
    for total in [1, 2, 1999, 2000, 20_000, 10**6, 2**60, *rng.integers(1, 10**7, 200).tolist()]:
        assert segments.boundaries(total) == reference_boundaries(total, segments.MIN_SEGMENT)
        assert segments.boundaries(total, 1) == reference_boundaries(total, 1)
        assert [b for _, b in schedule(total, 16, 2000)] == reference_boundaries(total, 2000)
    for n, size in rng.integers(0, 5000, (300, 2)).tolist():
        size += 1
        assert partitions(n, size) == [(a, min(n, a + size)) for a in range(0, n, size)]


def test_any_partition_size_and_number_of_workers_give_the_one_pass_report(tmp_path, monkeypatch):
    """The partitions' accumulators are merged by the workers in a tree of fixed shape (harness.reduction):
    only the root comes back, and it is the one pass's, for 10 partitions (levels of 10, 5, 3, 2, 1: two
    carried up unpaired) on 1 or 3 workers (the 4 partitions above: 1, 2 and 3 workers)."""
    from harness import reduction

    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 6_007)
    nodes, unpack = [], reduction.unpack
    monkeypatch.setattr(reduction, "unpack", lambda values, merge: nodes.append(len(values)) or unpack(values, merge))
    spec = device_spec("roulette-single")
    capture = open_capture(_capture(tmp_path), spec, format="indices")
    tests = ["frequency", "serial-pairs", "gap", "coupon-collector", "runs-up", "ks-subsequences", "spectral"]
    one = Battery(spec, N, tests=tests)
    one.update(capture.rows(0, N))
    for workers in (1, 3):
        result = run_partitioned(spec, "roulette-single", capture, "indices", N, alpha=0.01, tests=tests,
                                 workers=workers)
        assert result.to_json() == one.result().to_json(), workers
    assert nodes == [1, 1]


def test_the_worker_benchmark_checks_each_case_against_the_other(monkeypatch):
    """battery-workers-64M (here on 2^15 outcomes): the one-process baseline's check runs the two workers
    and compares (not the baseline with itself); a report that differs is caught."""
    from harness.benchcases import partitions as bench

    monkeypatch.setattr(bench, "OUTCOMES", 1 << 15)
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 1 << 13)
    for cached in (bench._capture, bench._report):
        cached.cache_clear()
    monkeypatch.setattr(bench, "_capture", bench._capture.__wrapped__)  # (not the 2^26 capture of a bench run)
    calls, real = [], harness.partitions.run_partitioned
    monkeypatch.setattr(harness.partitions, "run_partitioned", lambda *a, **k: calls.append(k["workers"]) or real(*a, **k))
    two, one = (next(c for c in bench.CASES if c.group == bench.GROUP and c.name == label)
                for label in ("two-workers", "one-process"))
    result = one.setup()()
    one.check(result)
    assert calls == [2]
    with pytest.raises(AssertionError):
        two.check(Battery(device_spec("roulette-single"), 1 << 15, tests=list(bench.TESTS)).result())
    bench._report.cache_clear()


def test_a_later_partitions_head_is_looked_for_in_a_short_prefix(monkeypatch):
    """sync() is shown a growing prefix of a later segment's first chunk (256 values, then 16 times more):
    a gap test's first hit is a few values in, and scanning the whole chunk for it (and for the runs' and
    coupon collector's heads) cost a third of a 2^20-value first chunk's time.  The same state as from the
    whole chunk."""
    from stats.gap import GapAccumulator

    shown, real = [], GapAccumulator.sync
    monkeypatch.setattr(GapAccumulator, "sync", lambda self, head, start: shown.append(len(head)) or real(self, head, start))
    x = np.random.default_rng(2).integers(0, 37, 100_000).astype(np.uint8)
    first, later = GapAccumulator(37), GapAccumulator(37).starting_at(50_000)
    first.update(x[:50_000])
    later.update(x[50_000:])
    assert shown == [256]
    whole = GapAccumulator(37)
    whole.update(x)
    merged = first.merge(later).result()
    assert merged.statistic == whole.result().statistic and merged.pvalue == whole.result().pvalue
    assert np.array_equal(first.counts, whole.counts)


def test_the_workers_battery_is_the_reports_plan_not_planned_again(monkeypatch):
    """The main process plans the battery once: its workers' battery (the tests that merge) is
    Battery.only of the report's, whose accumulators are copies (a partition fed to one leaves the
    other fresh); that the partitions give the one-pass figures is the other tests' business."""
    import stats.battery

    spec = device_spec("roulette-single")
    tests = ["frequency", "gap", "runs-up"]
    full = Battery(spec, 30_000, tests=tests)
    workers = full.only(["gap", "frequency"])
    assert [t.name for t in workers.tests] == ["frequency", "gap"]
    x = np.random.default_rng(4).integers(0, 37, 30_000).astype(np.uint8)
    workers.update(x)
    assert all(t.acc.n == 0 for t in full.tests) and all(t.acc.n for t in workers.tests)
    with pytest.raises(ValueError, match="fresh battery"):
        workers.only(["gap"])
    plans = []
    real = stats.battery.plan_tests
    monkeypatch.setattr(stats.battery, "plan_tests", lambda *a, **k: plans.append(1) or real(*a, **k))
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 7_001)
    monkeypatch.setattr(harness.sources, "CHUNK_VALUES", 2_000)
    import rngcore
    from harness.partitions import run_drawn

    drawn = run_drawn(spec, "roulette-single", rngcore.Generator(bytes(range(32))), 30_000, alpha=0.01, tests=tests,
                      workers=1)
    assert plans == [1] and drawn.n == 30_000  # the report's plan only (it was planned twice)


def test_blocks_of_drawn_partitions_give_the_one_process_report(monkeypatch):
    """Outcomes drawn here and sent in blocks of partitions (harness.reduction.blocks: 4, 2 and 1
    partitions of 1,000 rows, across draw chunks of 1,500), each block tested in one pass: the report
    of the run without --workers."""
    import rngcore
    from harness import reduction
    from harness.partitions import run_drawn
    from stats.battery import run_battery

    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", 1_000)
    monkeypatch.setattr(harness.sources, "CHUNK_VALUES", 1_500)
    cuts, real = [], reduction.blocks
    monkeypatch.setattr(reduction, "blocks", lambda *a, **k: cuts.append(real(*a, **k)) or cuts[-1])
    spec, n, tests = device_spec("roulette-single"), 24_000, ["frequency", "serial-pairs", "gap", "runs-up"]
    one = run_battery(spec, harness.sources.drawn(spec, rngcore.Generator(SEED, stream=3), n, 1_500), n=n, tests=tests)
    chunks, draw = [], harness.sources.drawn

    def drawn(*args):
        for rows in draw(*args):
            chunks.append(len(rows))
            yield rows

    monkeypatch.setattr(harness.sources, "drawn", drawn)
    two = run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=3), n, alpha=0.01, tests=tests, workers=2)
    assert two.to_json() == one.to_json() and two.n == n
    assert {b - a for a, b, _ in cuts[0]} == {4, 2, 1}
    assert chunks == [1_500] * 16  # drawn in the small chunks, so partitions of 1,000 rows straddle them


@pytest.mark.parametrize("workers", [2, 3])
def test_drawn_rows_in_flight_are_capped_in_partitions_whatever_the_blocks(monkeypatch, workers):
    """Drawn outcomes wait in this process until a worker has them: at most drawn_in_flight(W)
    partitions of them are in flight (submitted, not yet taken), not 2W blocks of up to 8 (32
    partitions on 2 workers); the report is still the one-process report."""
    import rngcore
    from harness import reduction
    from harness.partitions import drawn_in_flight, run_drawn
    from stats.battery import run_battery
    from stats.kinds import kind_of

    size, count = 1_000, 48
    monkeypatch.setattr(harness.partitions, "PARTITION_ROWS", size)
    taken, peak, real = [0], [0], reduction.Processes.submit

    def submit(self, task, *args):
        if task is harness.partitions._test_partition:
            _, start, end, rows, _ = args[0]
            assert len(rows) == end - start  # the rows themselves travel with the task
            peak[0] = max(peak[0], end - taken[0])
        return real(self, task, *args)

    monkeypatch.setattr(reduction.Processes, "submit", submit)
    spec, n, tests = device_spec("roulette-single"), count * size, ["frequency", "serial-pairs", "gap"]
    chunk = harness.sources.rows_per_chunk(kind_of(spec))  # (the chunks both runs draw)
    one = run_battery(spec, harness.sources.drawn(spec, rngcore.Generator(SEED, stream=5), n, chunk), n=n, tests=tests)
    drawn = run_drawn(spec, "roulette-single", rngcore.Generator(SEED, stream=5), n, alpha=0.01, tests=tests,
                      workers=workers, progress=lambda done, total: taken.__setitem__(0, done))
    assert drawn.to_json() == one.to_json()
    assert size < peak[0] <= drawn_in_flight(workers) * size, peak
