"""The slot:MODEL device: a model's reel stops as a reels-kind device, drawn, captured and tested."""
from __future__ import annotations

import pathlib
from fractions import Fraction

import numpy as np
from click.testing import CliRunner

from harness.cli import main
from rngcore.devices import device_spec
from slot_support import TWO_BY_TWO

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODEL = ROOT / "examples" / "slot_compliant.toml"  # 5 reels x 100 stops, unweighted
SEED = bytes(range(32)).hex()


def test_spec_is_the_models_stop_law():
    spec = device_spec(f"slot:{MODEL}")
    assert spec.kind == "reels" and spec.width == 5
    assert spec.labels == tuple(str(p) for p in range(1, 101))
    assert set(spec.probabilities) == {Fraction(1, 100)}
    assert spec.laws == ((Fraction(1, 100),) * 100,) * 5


def test_weighted_reels_draw_physical_stops_by_their_weights(tmp_path):
    path = tmp_path / "weighted.toml"
    weights = "[3, 1, 1, 2, 1, 1]"
    path.write_text(TWO_BY_TWO.replace('"K C A K C A C"', '"K C A K C A"')
                    + f"base_weights = [{weights}, {weights}]\n", encoding="utf-8")
    spec = device_spec(f"slot:{path}")
    assert spec.probabilities == tuple(Fraction(w, 9) for w in (3, 1, 1, 2, 1, 1))
    from rngcore import Generator

    rows = spec.draw(Generator(bytes(range(32))), 80_000)
    assert rows.shape == (80_000, 2)
    counts = np.bincount(rows.ravel(), minlength=6)
    expected = np.array([3, 1, 1, 2, 1, 1]) / 9 * rows.size
    assert np.all(np.abs(counts - expected) < 6 * np.sqrt(expected + 1))


def test_draw_then_test_the_capture(tmp_path):
    runner = CliRunner()
    drawn = runner.invoke(main, ["draw", f"slot:{MODEL}", "-n", "20000", "--seed", SEED])
    assert drawn.exit_code == 0, drawn.output
    lines = drawn.stdout.splitlines()
    assert len(lines) == 20000 and all(len(line.split(",")) == 5 for line in lines)
    assert {int(v) for line in lines[:500] for v in line.split(",")} <= set(range(1, 101))
    again = runner.invoke(main, ["draw", f"slot:{MODEL}", "-n", "20000", "--seed", SEED])
    assert again.stdout == drawn.stdout  # a replay
    capture = tmp_path / "stops.csv"
    capture.write_text(drawn.stdout, encoding="utf-8")
    tested = runner.invoke(main, ["test", f"slot:{MODEL}", "--input", str(capture), "--json"])
    assert tested.exit_code == 0, tested.output
    assert '"verdict": "pass"' in tested.stdout


def test_reels_with_different_laws_are_drawn_each_by_its_own(tmp_path):
    path = tmp_path / "uneven.toml"
    path.write_text(TWO_BY_TWO, encoding="utf-8")  # reels of 6 and 7 stops (once refused: one law for all)
    result = CliRunner().invoke(main, ["draw", f"slot:{path}", "-n", "3000", "--seed", SEED])
    assert result.exit_code == 0, result.output
    rows = np.array([[int(v) for v in line.split(",")] for line in result.stdout.splitlines()])
    assert rows.shape == (3000, 2) and set(rows[:, 0]) == set(range(1, 7)) and set(rows[:, 1]) == set(range(1, 8))


def test_a_stop_of_weight_0_is_refused(tmp_path):
    path = tmp_path / "zero.toml"
    path.write_text(TWO_BY_TWO.replace('"K C A K C A C"', '"K C A K C A"')
                    + "base_weights = [[1, 0, 1, 1, 1, 1], [1, 0, 1, 1, 1, 1]]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["draw", f"slot:{path}", "-n", "10"])
    assert result.exit_code == 2 and "stop 2 has weight 0" in result.stderr


def test_bad_model_and_missing_path_exit_2(tmp_path):
    runner = CliRunner()
    for name in (f"slot:{tmp_path / 'none.toml'}", "slot:"):
        result = runner.invoke(main, ["draw", name, "-n", "10"])
        assert result.exit_code == 2 and "slot:" in result.stderr and "Traceback" not in result.output


def test_reels_of_different_lengths_share_one_average_law(tmp_path):
    """The device's one-value law is the reels kind's (one home): the average of the reels' laws, a
    shorter reel's missing stops counting 0."""
    path = tmp_path / "uneven.toml"
    path.write_text(TWO_BY_TWO, encoding="utf-8")  # reels of 6 and 7 stops
    spec = device_spec(f"slot:{path}")
    kind = spec.as_kind()
    assert spec.probabilities == kind.probabilities
    assert spec.probabilities == (Fraction(13, 84),) * 6 + (Fraction(1, 14),)
