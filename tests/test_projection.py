"""The projection arithmetic of harness/projection.py, checked exactly (Fractions in, Fractions out)."""
from fractions import Fraction as F

import pytest

from harness.projection import Costs, cluster, count, depth, node


def test_depth_is_the_height_of_the_merge_tree():
    from harness.reduction import levels

    for p in range(1, 300):
        assert depth(p) == len(levels(p)) - 1


def test_count_rounds_partitions_up():
    costs = Costs(units=10, partition=1, merge=0, value_bytes=0, move=0, relay=0)
    assert [count(n, costs) for n in (1, 10, 11, 20, 21)] == [1, 1, 2, 2, 3]


def test_node_without_merge_or_transfer_is_partitions_over_workers():
    costs = Costs(units=4, partition=F(1, 2), merge=0, value_bytes=0, move=0, relay=0)
    run = node(64 * 4, 64, costs)  # 64 partitions on 64 workers: one round of half a second
    assert run.seconds == F(1, 2) and run.throughput == 512 and run.bound == "workers"
    run = node(65 * 4, 64, costs)  # one more partition: a second round
    assert run.seconds == F(65, 2) / 64


def test_node_counts_merges_moves_tail_and_serial():
    costs = Costs(units=1, partition=F(3), merge=F(1, 10), value_bytes=100, move=F(1, 10), relay=F(1, 100),
                  serial=F(2))
    # P = 8: work = 8 (3 + 1/10) + 7 (1/10 + 3/10) = 24.8 + 2.8 = 27.6; on 4 workers 6.9;
    # relay = (32 - 3) / 100 = 0.29; tail = 3 (1/10 + 3/10) = 1.2; T = 2 + 6.9 + 1.2 = 10.1
    run = node(8, 4, costs)
    assert run.seconds == F(101, 10) and run.bound == "workers"


def test_node_counts_the_tasks_of_blocks_of_partitions():
    costs = Costs(units=1, partition=F(1), merge=F(1, 10), value_bytes=1, move=F(1, 10), relay=F(1, 100))
    # P = 32 on 2 workers: 13 blocks (8, 4, 4, 4, 2, 2, 2 and six single partitions), 12 merges:
    # work = 32 + 13/10 + 12 (4/10) = 38.1 -> 19.05; relay = 49/100; tail = 5 (4/10) = 2
    run = node(32, 2, costs)
    assert run.seconds == F(2105, 100) and run.bound == "workers"


def test_node_is_relay_bound_when_values_are_large():
    costs = Costs(units=1, partition=F(1), merge=0, value_bytes=1, move=F(1, 100), relay=F(1, 10))
    # P = 64 on 64 workers: work = 64 (1 + 1/100) + 63 (3/100) = 66.53 -> 1.04; relay = 253/10 = 25.3
    run = node(64, 64, costs)
    assert run.bound == "relay"
    assert run.seconds == F(253, 10) + 6 * F(3, 100)


@pytest.mark.parametrize("bound, link, task", [("workers", 10**9, F(1, 10**6)), ("scheduler", 10**9, F(1)),
                                                ("network", F(1, 10**3), F(1, 10**6))])
def test_cluster_takes_the_slowest_bound(bound, link, task):
    costs = Costs(units=1, partition=F(1), merge=F(1, 100), value_bytes=10, move=0, relay=0, serial=F(1, 2))
    run = cluster(640, 10, 64, costs, link_bytes_per_second=link, task_seconds=task)
    p = 640
    expected = {"workers": (p * 1 + (p - 1) * F(1, 100)) / 640, "scheduler": (2 * p - 1) * task,
                "network": p * F(10) / (10 * link)}
    assert run.bound == bound and run.workers == 640
    assert run.seconds == F(1, 2) + expected[bound] + depth(p) * F(1, 100)


# --- from a bench run's medians -------------------------------------------------------------------

def _fake_costs(monkeypatch):
    """The cost groups of harness.benchcases.partitions with instant cases, and small fake values."""
    import harness.benchcases
    from harness.benchcases import _base
    from harness.benchcases import partitions as bp

    monkeypatch.setattr(bp, "_battery_value", lambda index: (b"b" * 4000, None))
    monkeypatch.setattr(bp, "_baccarat_value", lambda index: (b"g" * 300, None))
    fakes = [_base.BenchCase(c.group, c.name, lambda: (lambda: None), c.units, c.unit) for c in bp.CASES
             if any(c.group in groups for groups in bp.COST_GROUPS.values())]
    monkeypatch.setattr(harness.benchcases, "discover_cases", lambda: fakes)
    fast = _base.Timing(repeats=2, min_seconds=0.0)
    monkeypatch.setattr(_base.Timing, "quick", classmethod(lambda cls: fast))
    return bp, fakes


def test_projections_are_made_from_the_medians_of_the_cost_groups(monkeypatch):
    from harness.benchcases._base import CaseResult
    from harness.projection import report

    bp, fakes = _fake_costs(monkeypatch)
    seconds = {group: 0.001 * (i + 1) for i, group in enumerate(g for gs in bp.COST_GROUPS.values() for g in gs)}
    results = [CaseResult.of(c, seconds_per_call=(seconds[c.group], 2 * seconds[c.group], 9.0), calls_per_repeat=1)
               for c in fakes]
    battery, baccarat = bp.projections(results)
    p, m, v, r, s = (2 * seconds[g] for g in bp.COST_GROUPS["battery"])  # (the medians)
    assert battery == report(*bp.PROJECTED["battery"], Costs(bp.PARTITION, p, m, 4000, v, r, s))
    p, m, v, r, s = (2 * seconds[g] for g in bp.COST_GROUPS["baccarat"])
    assert baccarat == report(*bp.PROJECTED["baccarat"], Costs(bp.GAME_PARTITION, p, m, 300, v, r, s))
    assert [r["machine"] for r in battery["runs"]] == ["64-core node, local pool", "10 nodes x 64 cores, Dask"]
    # a workload whose cost groups did not all run is not projected
    assert [e["unit"] for e in bp.projections([r for r in results if r.group != "battery-merge-2M"])] == ["rounds"]


def test_bench_prints_the_projection_and_json_holds_it(monkeypatch):
    import json

    from click.testing import CliRunner

    from harness.cli import main

    _fake_costs(monkeypatch)
    text = CliRunner().invoke(main, ["bench", "--quick"])
    assert text.exit_code == 0, text.output
    assert "[projection from this run's medians]" in text.output
    assert "64-core node, local pool" in text.output and "10 nodes x 64 cores, Dask" in text.output
    report = json.loads(CliRunner().invoke(main, ["bench", "--quick", "--json"]).stdout)
    assert [e["units"] for e in report["projections"]] == [10**9, 10**10]
    assert all(r["seconds"] > 0 and r["bound"] for e in report["projections"] for r in e["runs"])
    smoke = CliRunner().invoke(main, ["bench", "--smoke"])
    assert smoke.exit_code == 0 and "projection" not in smoke.output
