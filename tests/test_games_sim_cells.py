"""``rngcert game --simulate``: the per-cell observed-vs-expected table of the simulation's chi-squares,
in the form ``rngcert test`` prints (one home: :mod:`stats.cells`)."""
import json
from fractions import Fraction as F

import numpy as np
from click.testing import CliRunner

from harness.cli import main
from harness.games.simulate import goodness_of_fit
from stats.cells import CellTable

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def test_fit_carries_named_cells_with_pearson_residuals():
    fit = goodness_of_fit([700, 200, 100], [F(1, 2), F(1, 4), F(1, 4)], ["win", "push", "lose"])
    table = fit.table
    assert isinstance(table, CellTable)
    assert table.axes == (("win", "push", "lose"),)
    np.testing.assert_allclose(table.expected, [500, 250, 250])
    np.testing.assert_allclose(table.residual, [200 / 500 ** 0.5, -50 / 250 ** 0.5, -150 / 250 ** 0.5])
    # X² is the sum of the squared residuals.
    assert abs(fit.statistic - float((table.residual ** 2).sum())) < 1e-9
    lines = fit.cell_lines("outcome chi-square")
    assert lines[0] == ("outcome chi-square: the cells farthest from expectation "
                        "(residual = (O - E)/sqrt(E); 3 cells)")
    assert lines[2].split()[:2] == ["lose", "100"]  # largest |residual| first
    as_json = fit.as_dict()
    assert as_json["cells"] == 3 and as_json["cell_table"]["residual"][0] == round(200 / 500 ** 0.5, 6)


def test_fit_drops_impossible_classes_from_the_cells():
    fit = goodness_of_fit([60, 40, 0], [F(1, 2), F(1, 2), F(0)], ["a", "b", "c"])
    assert fit.table.axes == (("a", "b"),) and fit.table.observed.tolist() == [60, 40]


def test_game_simulation_text_and_json_list_the_cells():
    args = ["game", "roulette-single", "--simulate", "50000", "--seed", SEED]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "outcome chi-square: the cells farthest from expectation (residual = (O - E)/sqrt(E); 37 cells)" \
        in text.output
    assert "... 27 more cells, |residual| <=" in text.output
    report = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    cells = report["simulation"]["outcome_chisquare"]["cell_table"]
    assert cells["shape"] == [37] and sum(cells["observed"]) == 50000
    observed, expected = np.array(cells["observed"]), np.array(cells["expected"])
    np.testing.assert_allclose(cells["residual"], (observed - expected) / np.sqrt(expected), atol=1e-6)
    assert abs(sum(r * r for r in cells["residual"]) - report["simulation"]["outcome_chisquare"]["statistic"]) < 1e-3
    straight = report["simulation"]["bets"][0]["chisquare"]["cell_table"]
    assert straight["axes"][0] is not None and sum(straight["observed"]) == 50000
