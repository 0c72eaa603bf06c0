"""Exact merges: every battery accumulator that declares one gives, over a stream cut at random points
and merged in order (left to right, or as a tree), exactly the accumulator of one pass.

Parametrized from the registry, so a new test is checked the moment it declares ``sums`` and ``sync``
(stats._accumulate.Accumulator, "Merging"); the tests that declare no merge yet are listed here, so
the list can only shrink on purpose.
"""
import copy
import pathlib

import numpy as np
import pytest

import rngcore
from harness.slot import device as slot_device
from stats import registry
from stats._accumulate import Accumulator, NotMergeable
from stats._validate import InsufficientDataError
from stats.kinds import kind_of, parse_device
from stats.kinds.permutation import Permutation
from stats.registry import PlanContext
from tests.stats_support import device_spec

#: (device, rows) each entry is tried on, in order: the first whose kind the entry applies to.
DEVICES = (("roulette-single", 60_000), ("dice:2", 20_000), ("shoe:1", 400), ("k-of-n:3:20", 20_000),
           ("bytes", 100_000), ("abcc", 3000), (f"slot:{slot_device.SAMPLE}", 20_000),
           (f"slot:{pathlib.Path(__file__).resolve().parents[1] / 'examples' / 'slot_megaways.toml'}", 20_000))
#: Kinds with no device of ours, by the name DEVICES gives them (exhaustive arrangements need <= 7 items).
BARE = {"abcc": Permutation(("A", "B", "C"), multiset=(0, 1, 2, 2), name="abcc")}
#: Battery tests that declare no exact merge yet (none: every battery test merges).
NOT_YET: set = set()


def _device_for(entry):
    for name, rows in DEVICES:
        spec = BARE.get(name) or parse_device(name) or device_spec(name)
        if entry.applies_to(kind_of(spec)):
            ctx = PlanContext(kind_of(spec), rows, 1)
            acc = entry.build(ctx)
            if acc is not None:
                needed = -(-int(acc.min_samples()) // ctx.scale(entry.stream))
                return spec, (ctx if needed <= rows else PlanContext(ctx.kind, needed + rows // 10, 1))
    return None, None


def _figures(acc):
    try:
        result = acc.result()
    except InsufficientDataError as exc:
        return ("insufficient", exc.needed)
    return (repr(float(result.statistic)), repr(float(result.pvalue)), acc.n)


def _stream(spec, ctx, entry):
    kind = ctx.kind
    if hasattr(spec, "draw"):
        rows = spec.draw(rngcore.Generator(bytes(range(32)), stream=len(entry.name)), ctx.n)
    elif kind.multiset is not None:  # a bare stack: shuffles from numpy, as a capture would hold
        rng = np.random.default_rng(len(entry.name))
        rows = np.array([rng.permutation(kind.multiset) for _ in range(ctx.n)], dtype=np.uint8)
    else:  # a kind with no device of ours (k of n): distinct balls from numpy, as a capture would hold
        order = np.argsort(np.random.default_rng(len(entry.name)).random((ctx.n, len(kind.labels))), axis=1)
        rows = np.sort(order[:, :kind.width], axis=1).astype(np.uint8)
    table = kind.stream_table()
    derivers = {name: table[name].make(kind, ctx.seed) for name in table}
    streams = {}

    def get(name):
        if name not in streams:
            streams[name] = derivers[name](np.asarray(rows), get)
        return streams[name]

    return get(entry.stream)


def _segments(entry, ctx, stream, rng, pieces):
    cuts = np.sort(rng.choice(np.arange(1, len(stream)), pieces - 1, replace=False))
    bounds = [0, *cuts.tolist(), len(stream)]
    accs = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc = entry.build(ctx)
        if a:
            acc.starting_at(a)
        inner = np.sort(rng.integers(a, b, 2))  # fed in uneven chunks, as a worker would
        for x, y in ((a, inner[0]), (inner[0], inner[1]), (inner[1], b)):
            acc.update(stream[x:y])
        accs.append(acc)
    return accs


def _tree(accs):
    while len(accs) > 1:
        accs = [accs[i].merge(accs[i + 1]) if i + 1 < len(accs) else accs[i] for i in range(0, len(accs), 2)]
    return accs[0]


ENTRIES = [e for e in registry.entries()]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_merge_of_a_split_equals_one_pass(entry):
    spec, ctx = _device_for(entry)
    if spec is None:
        pytest.skip(f"{entry.name}: none of the sample devices runs it")
    if entry.name in NOT_YET:
        acc = entry.build(ctx)
        assert not hasattr(acc, "starting_at") or type(acc).sync is Accumulator.sync, f"{entry.name} merges now"
        if hasattr(acc, "starting_at"):
            with pytest.raises(NotMergeable):
                acc.starting_at(10)
        return
    stream = _stream(spec, ctx, entry)
    whole = entry.build(ctx)
    whole.update(stream)
    expected = _figures(whole)
    assert expected[0] != "insufficient", f"{entry.name}: pick a larger sample ({expected})"
    rng = np.random.default_rng(sum(map(ord, entry.name)))
    for pieces in (4,):
        in_order = _segments(entry, ctx, stream, rng, pieces)
        merged = in_order[0]
        for acc in in_order[1:]:
            merged = merged.merge(acc)
        assert _figures(merged) == expected, (entry.name, pieces, "left to right")
        assert _figures(_tree(_segments(entry, ctx, stream, rng, pieces))) == expected, (entry.name, pieces)


def test_every_battery_test_is_merged_or_listed():
    names = {e.name for e in ENTRIES}
    assert NOT_YET <= names and len(names - NOT_YET) >= 25, sorted(names - NOT_YET)


def test_a_float_sum_is_refused_not_rounded():
    from stats._accumulate import _add

    with pytest.raises(NotMergeable):
        _add(np.zeros(3), np.ones(3))


def _mergeable_tests(spec, n):
    from stats.battery import plan_tests

    return [t.name for t in plan_tests(spec, n) if t.name not in NOT_YET]


@pytest.mark.parametrize("device", ["roulette-single", "dice:3", "shoe:2"])
def test_battery_segments_merge_into_the_one_pass_report(device):
    """Segments of a capture tested apart (PIT jitter sought to each start) give the one-pass report."""
    from stats.battery import Battery

    spec = device_spec(device)
    n = {"roulette-single": 150_000, "dice:3": 60_000, "shoe:2": 600}[device]
    rows = np.asarray(spec.draw(rngcore.Generator(bytes(range(32)), stream=3), n))
    tests = _mergeable_tests(spec, n)
    one = Battery(spec, n, tests=tests)
    for start in range(0, n, 40_000):
        one.update(rows[start:start + 40_000])
    rng = np.random.default_rng(4)
    cuts = [0, *np.sort(rng.choice(np.arange(1, n), 3, replace=False)).tolist(), n]
    parts = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        part = Battery(spec, n, tests=tests)
        if a:
            part.starting_at(a)
        part.update(rows[a:b])
        parts.append(part)
    merged = parts[0]
    for part in parts[1:]:
        merged.merge(part)
    expected, got = one.result().to_json(), merged.result().to_json()
    assert got == expected and merged.n == n and len(expected["tests"]) >= 6


class _Unmergeable(Accumulator):
    """A core that declares no merge (a new test's, before it declares one)."""

    name = "toy running maximum"

    def _update(self, array):
        self.top = max(getattr(self, "top", 0), int(array.max()))


def test_a_test_that_declares_no_merge_says_so():
    acc = _Unmergeable()
    with pytest.raises(NotMergeable, match="toy running maximum"):
        acc.starting_at(5)
    acc.update(np.arange(3))
    with pytest.raises(NotMergeable, match="toy running maximum"):
        acc.merge(_Unmergeable())


def _with_faults(rows, at, make_bad):
    rows = rows.copy()
    for r in at:
        rows[r] = make_bad(rows[r])
    return rows


@pytest.mark.parametrize("device, make_bad", [
    ("shoe:1", lambda row: np.concatenate([row[:1], row[:-1]])),  # a card twice, one missing
    ("k-of-n:3:20", lambda row: np.array([row[0], row[0], row[2]], dtype=row.dtype)),  # a ball twice
], ids=["composition", "distinct-balls"])
def test_a_check_names_the_first_bad_row_of_the_whole_stream(device, make_bad):
    """A deterministic check merged from segments reports the stream's first bad row and counts them all."""
    from stats.battery import Battery

    spec = parse_device(device) or device_spec(device)
    name = "composition" if device.startswith("shoe") else "distinct-balls"
    n = 300
    if hasattr(spec, "draw"):
        rows = np.asarray(spec.draw(rngcore.Generator(bytes(range(32)), stream=5), n))
    else:
        rows = np.sort(np.argsort(np.random.default_rng(5).random((n, 20)), axis=1)[:, :3], axis=1).astype(np.uint8)
    for bad in ([], [250], [120, 260], [40, 41, 199]):
        data = _with_faults(rows, bad, make_bad)
        one = Battery(spec, n, tests=[name])
        one.update(data)
        parts = []
        for a, b in ((0, 100), (100, 200), (200, 300)):
            part = Battery(spec, n, tests=[name])
            if a:
                part.starting_at(a)
            part.update(data[a:b])
            parts.append(part)
        merged = parts[0].merge(parts[1].merge(parts[2]))  # as a tree: later segments first
        got, expected = merged.result().to_json()["tests"][0], one.result().to_json()["tests"][0]
        assert got == expected and got["statistic"] == len(bad), (bad, got)
        if bad:
            assert f" {bad[0]}: " in got["note"], got


def test_birthday_spacings_cap_counts_the_streams_first_blocks_across_segments():
    """With max_blocks, a later segment counts only the blocks left of the cap at its start."""
    from stats.spacings import BirthdaySpacingsAccumulator

    x = np.asarray(rngcore.Generator(bytes(range(32)), stream=8).integers(0, 37, size=400_000))
    make = lambda: BirthdaySpacingsAccumulator(37, max_blocks=25)
    whole = make()
    whole.update(x)
    assert whole.blocks == 25 and whole.blocks * whole.block_outcomes < x.size
    for cuts in ([50_000, 70_001, 200_000], [1, 3255 * 24 + 7], [3255 * 25, 3255 * 25 + 1]):
        bounds = [0, *cuts, x.size]
        accs = [make() if a == 0 else make().starting_at(a) for a in bounds[:-1]]
        for acc, a, b in zip(accs, bounds[:-1], bounds[1:]):
            acc.update(x[a:b])
        merged = accs[0]
        for acc in accs[1:]:
            merged.merge(acc)
        assert (merged.total, merged.blocks, merged.n) == (whole.total, whole.blocks, whole.n), cuts
        assert _figures(merged) == _figures(whole)


@pytest.mark.parametrize("pieces", [3, 40, 300])
def test_coupon_collector_segments_merge_however_short(pieces):
    """Segments shorter than the values it takes the possible segment starts to coincide are all head;
    they merge exactly too."""
    from stats.coupon import CouponAccumulator

    x = np.asarray(rngcore.Generator(bytes(range(32)), stream=9).integers(0, 37, size=40_000))
    whole_fresh = CouponAccumulator(37)  # (copied: planning its cells costs more than a short segment)
    whole = copy.deepcopy(whole_fresh)
    whole.update(x)
    rng = np.random.default_rng(pieces)
    bounds = [0, *np.sort(rng.choice(np.arange(1, x.size), pieces - 1, replace=False)).tolist(), x.size]
    accs = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc = copy.deepcopy(whole_fresh) if a == 0 else copy.deepcopy(whole_fresh).starting_at(a)
        acc.update(x[a:b])
        accs.append(acc)
    merged = _tree(accs)
    assert np.array_equal(merged.counts, whole.counts) and merged.n == whole.n
    assert _figures(merged) == _figures(whole)


def test_serial_correlation_of_floats_refuses_to_merge():
    """A float stream's sums do not add exactly: the merge refuses rather than rounding."""
    from stats.correlation import SerialCorrelationAccumulator

    x = np.random.default_rng(1).random(2000)
    first, later = SerialCorrelationAccumulator(), SerialCorrelationAccumulator().starting_at(1000)
    first.update(x[:1000])
    later.update(x[1000:])
    with pytest.raises(NotMergeable):
        first.merge(later)
