"""Reel-stop capture of a game with reel heights per spin (docs/slot_model.md, "Reel-stop capture"):
a row is the stops, then the heights the reels drew; the battery tests the heights against their
weights (reel-heights) and the stops given the height (reel-stop-given-height) as well as the stops.

The power tests plant one defect each in a capture written here (numpy draws from the stated laws,
not the device) and require the test aimed at it to reject with p < 1e-9 at the stated n.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from test_slot_capture import _capture, _run

from harness.cli import main
from rngcore import Generator
from rngcore.devices import device_spec

SEED = bytes(range(32))
STRIPS = ["A K Q A K Q", "K A Q K A Q A K", "Q A K Q A K A"]
HEIGHTS = ({2: 1, 3: 3}, {1: 1, 2: 1, 3: 2}, {1: 2, 3: 1})  # reel 1 is never 1 row high
MODEL = f"""
name = "capture heights"
[window]
rows = 3
reels = 3
heights = [{", ".join("{ " + ", ".join(f"{h} = {w}" for h, w in hs.items()) + " }" for hs in HEIGHTS)}]
[bet]
ways = 27
per_way = 1
total = 10
[symbols]
A = {{ pays = {{ 3 = 5 }} }}
K = {{ pays = {{ 3 = 2 }} }}
Q = {{ pays = {{ 3 = 1 }} }}
[reels]
base = [{", ".join(f'"{s}"' for s in STRIPS)}]
"""
PLAYS = 40_000  # the stated n of the power tests
STOPS = [len(s.split()) for s in STRIPS]
HEIGHT_LAWS = [np.array([hs.get(h, 0) for h in (1, 2, 3)], dtype=float) / sum(hs.values()) for hs in HEIGHTS]


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    """The model written once for the module's tests."""
    (path := tmp_path_factory.mktemp("capture") / "heights.toml").write_text(MODEL, encoding="utf-8")
    return path


def test_a_row_is_the_stops_then_the_heights(model_path):
    spec = device_spec(f"slot:{model_path}")
    assert spec.columns == tuple((f"reel {r}", what) for what in ("stop", "height") for r in (1, 2, 3))
    assert (spec.kind, spec.width, spec.labels) == ("reels", 6, tuple(str(p) for p in range(1, 9)))
    for law, hs in zip(spec.as_kind().reel_laws()[3:], HEIGHTS):
        total = sum(hs.values())
        assert law == tuple(Fraction(hs.get(h, 0), total) for h in range(1, max(hs) + 1))


def test_heights_are_drawn_after_the_stops_play_by_play(model_path):
    """The stops of all the call's plays (reels of different lengths: play by play, reel 1 first, a
    bounded integer each), then every play's heights, reel 1 first, a bounded integer below the total
    height weight, the heights covering it from the lowest up."""
    rows = device_spec(f"slot:{model_path}").draw(Generator(SEED, 9), 300)
    g = Generator(SEED, 9)
    stops = [[int(g.integers(0, n)) for n in STOPS] for _ in range(300)]
    by_draw = [[h - 1 for h in sorted(hs) for _ in range(hs[h])] for hs in HEIGHTS]
    heights = [[by_draw[r][int(g.integers(0, len(by_draw[r])))] for r in range(3)] for _ in range(300)]
    assert rows.dtype == np.uint8 and rows.tolist() == [s + h for s, h in zip(stops, heights)]


def _clean(rng, n):
    stops = [rng.integers(0, k, size=n) for k in STOPS]
    heights = [rng.choice(3, size=n, p=law) for law in HEIGHT_LAWS]
    return np.column_stack(stops + heights)


def test_a_drawn_capture_passes_every_test(model_path, tmp_path):
    drawn = CliRunner().invoke(main, ["draw", f"slot:{model_path}", "-n", "6000", "--seed", SEED.hex()])
    assert drawn.exit_code == 0, drawn.output
    lines = drawn.stdout.splitlines()
    assert len(lines) == 6000 and {line.split(",")[3] for line in lines} == {"2", "3"}  # reel 1's heights
    capture = tmp_path / "drawn.csv"
    capture.write_text(drawn.stdout, encoding="utf-8")
    code, p = _run(model_path, capture)
    assert code == 0 and set(p) == {"reel-frequency", "reel-interplay", "reel-serial", "reel-heights",
                                    "reel-stop-given-height"}, p


def _heights_biased(rng):
    rows = _clean(rng, PLAYS)
    law = HEIGHT_LAWS[1].copy()  # reel 2 one row high 1.2 times as often as its weights say
    law[0] *= 1.2
    rows[:, 4] = rng.choice(3, size=PLAYS, p=law / law.sum())
    return rows


def _stop_follows_height(rng):
    rows = _clean(rng, PLAYS)
    tall = rows[:, 3] == 2  # reel 1 three rows high: its stop 1 twice as likely (its stops' law overall
    law = np.full(STOPS[0], 1.0)  # moves too little for reel-frequency to see it at this n)
    law[0] = 2
    rows[tall, 0] = rng.choice(STOPS[0], size=int(tall.sum()), p=law / law.sum())
    short = ~tall  # and stop 1 rarer when it is two rows high, so the stops' overall law stays near uniform
    law = np.full(STOPS[0], 1.0)
    law[0] = 0
    rows[short, 0] = rng.choice(STOPS[0], size=int(short.sum()), p=law / law.sum())
    return rows


@pytest.mark.parametrize("plant,caught", [(_heights_biased, "reel-heights"),
                                          (_stop_follows_height, "reel-stop-given-height")],
                         ids=["heights biased", "stop follows the height"])
def test_a_planted_defect_is_caught_at_the_stated_n(model_path, tmp_path, plant, caught):
    code, p = _run(model_path, _capture(tmp_path, plant(np.random.default_rng(20261202))))
    assert code == 1 and p[caught] < 1e-9, p


@pytest.mark.parametrize("height, message", [
    (0, "play 8: reel 1 shows height '1', which it cannot have (probability 0)"),
    (3, "play 8: reel 1 shows height '4', which it cannot have"),
])
def test_a_height_a_reel_cannot_have_is_refused(model_path, tmp_path, height, message):
    rows = _clean(np.random.default_rng(2), 300)
    rows[7, 3] = height
    result = CliRunner().invoke(main, ["test", f"slot:{model_path}", "--input", str(_capture(tmp_path, rows))])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


def test_a_reel_of_one_height_is_refused(tmp_path):
    path = tmp_path / "fixed.toml"
    path.write_text(MODEL.replace("{ 1 = 2, 3 = 1 }", "{ 3 = 1 }"), encoding="utf-8")
    result = CliRunner().invoke(main, ["draw", f"slot:{path}", "-n", "5"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "reel 3 always has the same height" in result.stderr


@pytest.mark.parametrize("name", ["reel-heights", "reel-stop-given-height"])
def test_segments_merged_equal_one_pass(model_path, name):
    from stats import registry
    from stats.registry import PlanContext

    kind = device_spec(f"slot:{model_path}").as_kind()
    entry = registry.entry(name)
    rows = _clean(np.random.default_rng(5), 6000)
    whole = entry.build(PlanContext(kind, len(rows), 1))
    whole.update(rows)
    parts = []
    for a, b in ((0, 1), (1, 2500), (2500, 6000)):
        acc = entry.build(PlanContext(kind, len(rows), 1))
        if a:
            acc.starting_at(a)
        acc.update(rows[a:b])
        parts.append(acc)
    merged = parts[0].merge(parts[1]).merge(parts[2])
    one, split = whole.result(), merged.result()
    assert (split.statistic, split.df, split.n) == (one.statistic, one.df, one.n)
