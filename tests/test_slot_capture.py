"""Reel-stop capture for labs: ``rngcert test slot:MODEL --input FILE`` with a law per reel.

The device is the ``reels`` kind (stats/kinds/reels.py) and its battery
(stats/reelstops.py): each reel against its own stop law (weights included),
the reels of a play against each other, each reel against the play before.
The power tests plant one defect each in a capture written here (numpy draws
from the stated laws, not the device) and require the test aimed at it to
reject with p < 1e-9 at the stated n, and the clean capture to pass.
"""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from rngcore import Generator
from rngcore.devices import device_spec

SEED = bytes(range(32))
# Five reels of different lengths; reels 1 and 5 weighted (virtual reels of 16 and 30 stops).
WEIGHTS = ([1, 3, 1, 2, 1, 1, 4, 1, 1, 1], [1] * 12, [1] * 9, [1] * 11, [2, 1, 5, 1, 1, 3, 1, 1, 2, 1, 1, 2, 1, 1, 7])
STRIPS = ["A K " * 5, "K A Q " * 4, "A Q K " * 3, "Q A K K Q A A K Q K A", "A K Q " * 5]
MODEL = """
name = "uneven reels"
[window]
rows = 1
reels = 5
[bet]
per_line = 1
paylines = [[1, 1, 1, 1, 1]]
[symbols]
A = { pays = { 3 = 5, 5 = 50 } }
K = { pays = { 3 = 2, 5 = 20 } }
Q = { pays = { 5 = 10 } }
[reels]
base = [%s]
base_weights = [%s]
""" % (", ".join(f'"{s.strip()}"' for s in STRIPS), ", ".join(str(list(w)) for w in WEIGHTS))
PLAYS = 30_000  # the stated n of the power tests
LAWS = [np.array(w, dtype=float) / sum(w) for w in WEIGHTS]


@pytest.fixture(scope="module")
def model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("capture") / "uneven.toml"
    path.write_text(MODEL, encoding="utf-8")
    return path


def test_each_reel_has_its_own_law(model_path):
    spec = device_spec(f"slot:{model_path}")
    assert spec.kind == "reels" and spec.width == 5 and spec.labels == tuple(str(p) for p in range(1, 16))
    kind = spec.as_kind()
    assert kind.stops == tuple(len(w) for w in WEIGHTS)
    for law, w in zip(kind.reel_laws(), WEIGHTS):
        assert law == tuple(Fraction(x, sum(w)) for x in w)


def test_draws_are_the_simulations_bounded_integers_play_by_play(model_path):
    """Reels with different laws: play by play, reel 1 first, one bounded integer on the reel's
    virtual stops each (what Generator.integers draws), mapped to the physical stop."""
    rows = device_spec(f"slot:{model_path}").draw(Generator(SEED, 3), 400)
    g = Generator(SEED, 3)
    physical = [np.repeat(np.arange(len(w)), w) for w in WEIGHTS]
    expect = [[int(physical[r][g.integers(0, sum(w))]) for r, w in enumerate(WEIGHTS)] for _ in range(400)]
    assert rows.dtype == np.uint8 and rows.tolist() == expect


def _capture(tmp_path, rows, name="stops.csv"):
    path = tmp_path / name
    np.savetxt(path, rows + 1, fmt="%d", delimiter=",")  # labels: physical stops 1..L
    return path


def _run(model_path, capture):
    result = CliRunner().invoke(main, ["test", f"slot:{model_path}", "--input", str(capture), "--json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    return result.exit_code, {t["name"]: t["pvalue"] for t in report["tests"]}


def _clean(rng, n):
    return np.column_stack([rng.choice(len(law), size=n, p=law) for law in LAWS])


def test_a_drawn_capture_passes(model_path, tmp_path):
    drawn = CliRunner().invoke(main, ["draw", f"slot:{model_path}", "-n", str(PLAYS), "--seed", SEED.hex()])
    assert drawn.exit_code == 0, drawn.output
    capture = tmp_path / "drawn.csv"
    capture.write_text(drawn.stdout, encoding="utf-8")
    code, p = _run(model_path, capture)
    assert code == 0 and set(p) == {"reel-frequency", "reel-interplay", "reel-serial"}


def _one_reel_biased(rng):
    rows = _clean(rng, PLAYS)
    law = LAWS[2].copy()  # reel 3 (9 stops): stop 1 at 1.25 times its probability
    law[0] *= 1.25
    rows[:, 2] = rng.choice(len(law), size=PLAYS, p=law / law.sum())
    return rows


def _two_reels_correlated(rng):
    rows = _clean(rng, PLAYS)
    copy = (rng.random(PLAYS) < 0.05) & (rows[:, 1] < len(LAWS[3]))  # reel 4 shows reel 2's stop, 5% of plays
    rows[copy, 3] = rows[copy, 1]
    return rows


def _serially_correlated(rng):
    rows = _clean(rng, PLAYS)
    again = np.flatnonzero(rng.random(PLAYS) < 0.05)  # 5% of plays repeat the play before's stops
    again = again[again > 0]
    rows[again] = rows[again - 1]  # (a run of repeats repeats the first)
    return rows


@pytest.mark.parametrize("plant,caught", [(_one_reel_biased, "reel-frequency"),
                                          (_two_reels_correlated, "reel-interplay"),
                                          (_serially_correlated, "reel-serial")],
                         ids=["one reel biased", "two reels correlated", "plays serially correlated"])
def test_a_planted_defect_is_caught_at_the_stated_n(model_path, tmp_path, plant, caught):
    rng = np.random.default_rng(20261201)
    code, p = _run(model_path, _capture(tmp_path, plant(rng)))
    assert code == 1 and p[caught] < 1e-9, p


def test_a_stop_a_reel_does_not_have_is_refused(model_path, tmp_path):
    rows = _clean(np.random.default_rng(1), 200)
    rows[17, 2] = 11  # reel 3 has 9 stops; label 12 exists only on reels 2 and 5
    result = CliRunner().invoke(main, ["test", f"slot:{model_path}", "--input", str(_capture(tmp_path, rows))])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert "play 18: reel 3 shows stop '12', but it has only 9 stops" in result.stderr


@pytest.mark.parametrize("name", ["reel-frequency", "reel-serial", "reel-interplay"])
def test_segments_merged_equal_one_pass(model_path, name):
    """A capture tested in segments (workers) and merged gives the figures of one pass."""
    from stats import registry
    from stats.registry import PlanContext

    kind = device_spec(f"slot:{model_path}").as_kind()
    entry = registry.entry(name)
    rows = _serially_correlated(np.random.default_rng(5))[:9000]
    whole = entry.build(PlanContext(kind, len(rows), 1))
    whole.update(rows)
    cuts = [0, 1, 2500, 2501, 7000, len(rows)]
    parts = []
    for a, b in zip(cuts, cuts[1:]):
        acc = entry.build(PlanContext(kind, len(rows), 1))
        if a:
            acc.starting_at(a)
        acc.update(rows[a:b])
        parts.append(acc)
    merged = parts[0]
    for acc in parts[1:]:
        merged = merged.merge(acc)
    one, split = whole.result(), merged.result()
    assert (split.statistic, split.df, split.n) == (one.statistic, one.df, one.n)
