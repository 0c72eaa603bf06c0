"""Whatever is registered can be certified: toy modules (engine, device, game, battery test), each ONE
module registered through the public API, appear in a plan's run with no edit to `rngcert certify`."""
import json

import pytest
from click.testing import CliRunner

from certify_support import draw_figures_as_svg
from harness.cli import main
from test_core_engines import toy_engine  # noqa: F401  (fixtures: one toy module each)
from test_devices_declared import toy_devices  # noqa: F401
from test_games_registry import toy_games  # noqa: F401
from test_stats_registry import toy_package  # noqa: F401

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
PLAN = f'''format = 1
selftest = true
[jurisdiction]
profiles = ["jp"]
[engine]
name = "toy"
seed = "{SEED}"
[[devices]]
device = "toy-blower"
samples = 600
tests = ["ball-frequency"]
[[games]]
game = "toy-coin"
options = {{ flips = 2 }}
simulate = 2000
'''


@pytest.fixture(autouse=True)
def _svg_figures(monkeypatch):
    draw_figures_as_svg(monkeypatch)  # these tests check report.json; matplotlib's figures are tested elsewhere


def run(plan_text, tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(plan_text)
    result = CliRunner().invoke(main, ["certify", str(plan), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    return {s["key"]: s for s in report["sections"]}


def test_toy_engine_device_and_game_run_through_a_plan(toy_engine, toy_devices, toy_games, tmp_path,  # noqa: F811
                                                       monkeypatch):
    from harness import segments

    monkeypatch.setattr(segments, "MIN_SEGMENT", 200)
    sections = run(PLAN, tmp_path)
    assert list(sections) == ["selftest", "device:toy-blower", "game:toy-coin"]
    assert "toy" in sections["selftest"]["result"]["engines"]
    assert any(c["name"] == "toy-kat" and c["verdict"] == "pass" for c in sections["selftest"]["result"]["checks"])
    for key in ("device:toy-blower", "game:toy-coin"):
        assert sections[key]["verdict"] == "pass" and sections[key]["provenance"]["engine"] == "toy"
    blower = sections["device:toy-blower"]["result"]
    assert blower["n"] == 600 and blower["tests"][0]["cells"]["axes"] == [[str(i) for i in range(1, 21)]]
    coin = sections["game:toy-coin"]["result"]
    assert coin["options"] == {"flips": 2} and coin["simulation"]["rounds"] == 2000
    # The simulation's segments, convergence trace and cell table come with the game's declaration alone.
    convergence = coin["simulation"]["convergence"]
    assert [p["rounds"] for p in convergence["points"]] == segments.boundaries(2000)
    assert set(convergence["exact"]) == {b["name"] for b in coin["bets"]}
    assert sum(coin["simulation"]["outcome_chisquare"]["cell_table"]["observed"]) > 0


def test_toy_test_and_kind_run_through_a_plan(toy_package, tmp_path):  # noqa: F811
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(7))
    rows = [rng.permutation(20)[:3] + 1 for _ in range(2000)]  # a lab's capture of a 3-of-20 blower
    (tmp_path / "blower.csv").write_text("".join(",".join(map(str, r)) + "\n" for r in rows))
    plan = f'''selftest = false
[engine]
seed = "{SEED}"
[[devices]]
device = "toy-blower"
input = "blower.csv"
[[devices]]
device = "roulette-single"
samples = 400
tests = ["toy-mean"]
'''
    sections = run(plan, tmp_path)
    capture = sections["device:toy-blower"]
    assert capture["verdict"] == "pass" and capture["result"]["n"] == 2000 and capture["result"]["kind"] == "toy-blower"
    assert [t["name"] for t in sections["device:roulette-single"]["result"]["tests"]] == ["toy-mean"]
