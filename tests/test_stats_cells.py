"""Observed-vs-expected cells and the low-power warning of the battery's report."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from stats import chisquare
from stats.battery import run_battery
from stats.cells import cell_table
from stats.defects import biased_pocket
from stats.power import LOW_POWER_DELTA, Detectable
from tests.stats_support import draw, seed_hex


def test_residuals_are_pearsons_and_add_up_to_x2():
    observed = np.array([30, 10, 20, 45])
    result = chisquare(observed, 4)
    table = cell_table(result, labels=("a", "b", "c", "d"))
    expected = observed.sum() / 4
    assert table.residual.tolist() == pytest.approx(((observed - expected) / np.sqrt(expected)).tolist())
    assert float(np.sum(table.residual ** 2)) == pytest.approx(result.statistic)
    assert [table.label(i) for i in table.largest(2)] == ["d", "b"]
    assert table.to_json()["axes"] == [["a", "b", "c", "d"]]


def test_impossible_cell_comes_first_and_has_no_residual():
    class Result:
        observed = np.array([[5.0, 1.0], [0.0, 9.0]])
        expected = np.array([[5.0, 0.0], [1.0, 9.0]])

    table = cell_table(Result())
    assert table.largest(1) == [1] and table.label(1) == "#1 × #2"
    assert table.to_json()["residual"][1] is None
    assert "impossible" in "\n".join(table.lines())


def test_no_cells_for_a_result_without_arrays():
    assert cell_table(object()) is None


def _json_number_one_by_one(value):
    value = float(value)
    if not np.isfinite(value):
        return None
    return int(value) if value.is_integer() else value


@pytest.mark.parametrize("values", [
    np.arange(300_000, dtype=np.float64),                                  # counts: all whole
    np.array([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 1e300, 2.0**63, 2.0**62, 3.25e-7]),
])
def test_json_cells_hold_the_same_numbers_as_one_by_one(values):
    table = cell_table(type("R", (), {"observed": values, "expected": values})())
    got = table.to_json()
    for key in ("observed", "expected"):
        expected = [_json_number_one_by_one(v) for v in values]
        assert got[key] == expected and [type(v) for v in got[key]] == [type(v) for v in expected]
        assert json.dumps(got[key]) == json.dumps(expected)
    residual = [None if not np.isfinite(v) else round(float(v), 6) for v in table.residual]
    assert got["residual"] == residual and json.dumps(got["residual"]) == json.dumps(residual)


def test_biased_pocket_is_named_first_in_text_and_json(tmp_path):
    from rngcore.devices import device_spec

    label = device_spec("roulette-single").labels[17]  # a binary capture holds label indices
    path = tmp_path / "biased.bin"
    path.write_bytes(biased_pocket(100_000, seed=4, delta=0.5, pocket=17).tobytes())
    text = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--test", "frequency"])
    assert text.exit_code == 1, text.output
    lines = text.output.splitlines()
    header = lines.index(next(l for l in lines if l.startswith("frequency: the cells farthest")))
    first = lines[header + 2].split()
    assert first[0] == label and first[3].startswith("+") and float(first[4]) > 20
    report = json.loads(CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--test",
                                                  "frequency", "--json"]).stdout)
    cells = report["tests"][0]["cells"]
    assert cells["shape"] == [37] and cells["axes"][0][17] == label and cells["pooled"] == 0
    assert sum(cells["observed"]) == 100_000
    assert max(range(37), key=lambda i: cells["residual"][i]) == 17


def test_shoe_cells_are_position_by_card():
    spec, rows = draw("deck", 400, seed=3)
    result = run_battery(spec, rows, tests=["position-card", "adjacency"])
    position, adjacency = result.tests
    assert position.cells.shape == (52, 52) and position.cells.axes[1] == tuple(spec.labels)
    assert adjacency.cells.axes == (tuple(spec.labels),) * 2


def test_low_power_warning_names_weak_tests_and_the_n_they_need():
    spec, rows = draw("deck", 300, seed=5)
    result = run_battery(spec, rows)
    weak = result.low_power()
    assert weak and all(t.detectable.delta >= LOW_POWER_DELTA for t in weak)
    assert all(not t.low_power() for t in result.ran if t not in weak and t.detectable is not None)
    warning = result.power_warning()
    assert warning.startswith("warning: low power:") and weak[0].name in warning
    needed = weak[0].detectable.samples_for(result.n)
    assert f"about {needed:,} shuffles" in warning


def test_low_power_threshold_and_estimate():
    d = Detectable(2.0, "x", 0.01, 0.99)
    assert d.low() and not d.low(threshold=3.0)
    assert d.samples_for(1000) == 4000  # δ ~ 1/sqrt(n): half the δ takes four times the n
    assert Detectable(float("inf"), "x", 0.01, 0.99).low()


def test_well_powered_run_has_no_warning():
    r = CliRunner().invoke(main, ["test", "roulette-single", "--samples", "200000", "--seed", seed_hex(9),
                                  "--test", "frequency", "--test", "serial-pairs"])
    assert r.exit_code == 0 and "low power" not in r.output and "cells farthest" not in r.output
