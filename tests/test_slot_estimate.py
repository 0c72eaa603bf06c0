"""Models beyond the exact analysis and its bounds (harness/slot/estimate.py): a stated-precision
simulation, labelled as such in the report and in every check, never a silent refusal.

The cascade examples are small enough to solve exactly; the tests lower the chain's limits so that
the same models are "beyond" them, then hold the estimate against the exact figures of the
unchanged limits (themselves checked against a brute force in tests/test_slot_cascade.py): the
exact RTP inside the simulated 99.9% interval, the rigorous lower bounds at or below the exact
figures they bound, each check saying what it rests on.
"""
from __future__ import annotations

import json
import pathlib
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot.errors import BeyondExact
from harness.slot.estimate import estimate, estimate_checks
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.simulate import SimulationResult

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
MEGAWAYS = EXAMPLES / "slot_cascade_megaways.toml"  # 1,452 paid-spin windows
BOUNDED = EXAMPLES / "slot_cascade_bounded.toml"  # 2,859 chain states
SEED = bytes(range(32)).hex()
PLAYS = 20_000
SIM_LABEL = "[rests on a stated-precision simulation, not a proof"
PROVED_LABEL = "[rests on rigorous lower bounds: the paid spin's window alone, solved exactly]"


@pytest.fixture
def few_windows(monkeypatch):
    """The cascade chain follows at most 10 paid-spin windows."""
    monkeypatch.setattr("harness.slot.cascade_walk.MAX_START_WINDOWS", 10)


@pytest.fixture
def few_states(monkeypatch):
    """The cascade chain follows at most 100 states."""
    monkeypatch.setattr("harness.slot.cascade_walk.MAX_CASCADE_BOUND_STATES", 100)


def _slot(*args):
    return CliRunner().invoke(main, ["slot", *map(str, args)])


def test_beyond_the_chain_is_refused_with_the_way_to_a_stated_precision_simulation(few_windows):
    with pytest.raises(BeyondExact, match="the paid spin can show 1,452 different windows"):
        analyse(load_model(MEGAWAYS))
    result = _slot(MEGAWAYS)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cascade: the paid spin can show 1,452 different windows" in result.output
    assert "--simulate N reports a stated-precision simulation instead" in result.output


@pytest.mark.parametrize("path,fixture", [(MEGAWAYS, "few_windows"), (BOUNDED, "few_states")])
def test_the_estimate_holds_the_exact_figures_and_labels_every_check(path, fixture, request):
    exact = analyse(load_model(path))  # the limits unchanged: exact or rigorously bounded
    request.getfixturevalue(fixture)
    with pytest.raises(BeyondExact):
        analyse(load_model(path))
    result = _slot(path, "--simulate", PLAYS, "--seed", SEED, "--json")
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    assert report["estimated"] is True and report["exact"] is False and report["simulation"]["plays"] == PLAYS
    lo, hi = report["simulation"]["rtp_interval_999"]
    top = exact.rtp if exact.rtp_upper is None else exact.rtp_upper
    assert lo <= top and exact.rtp <= hi, (lo, hi, float(exact.rtp))  # simulation inside the exact interval
    hlo, hhi = report["simulation"]["hit_frequency_interval_999"]
    assert hlo <= exact.hit_frequency <= hhi
    # the rigorous lower bounds: the paid spin's window, at or below the whole play's figures
    bounds = report["rigorous_lower_bounds"]
    assert Fraction(bounds["rtp"]) == exact.parts["lines"] <= exact.rtp
    per_play = {c.name: c.probability for c in exact.classes if c.kind == "line"}
    assert bounds["outcomes"] and set(bounds["outcomes"]) == set(per_play)
    for name, lower in bounds["outcomes"].items():
        assert Fraction(lower) <= per_play[name], name
    notes = [c["note"] for c in report["checks"]]
    assert notes and all(SIM_LABEL in n or PROVED_LABEL in n for n in notes), notes
    assert any(SIM_LABEL in n for n in notes) and any(PROVED_LABEL in n for n in notes)


def test_a_payline_game_past_the_cost_limit_is_simulated_with_no_bound_claimed(monkeypatch):
    """The cost estimate's limit (here lowered below the example's 8,000 table entries): the RTP
    from the simulation, and no probability rule passes, since nothing bounds an outcome."""
    path = EXAMPLES / "slot_compliant.toml"
    exact = analyse(load_model(path))
    monkeypatch.setattr("harness.slot.limits.MAX_TABLE_ENTRIES", 1000)
    assert _slot(path).exit_code == 2
    result = _slot(path, "--simulate", 200_000, "--seed", SEED, "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["estimated"] is True and "too large to analyse exactly" in report["why_estimated"]
    lo, hi = report["simulation"]["rtp_interval_999"]
    assert lo <= exact.rtp <= hi
    assert report["rigorous_lower_bounds"] == {"source": None, "rtp": None, "outcomes": {}}
    checks = {c["rule"]: c for c in report["checks"]}
    assert checks["jp-3-3"]["verdict"] == "fail" and "compliance cannot be established" in checks["jp-3-3"]["note"]
    assert SIM_LABEL in checks["jp-4-3"]["note"] and SIM_LABEL in checks["jp-3-3"]["note"]


def test_cascades_with_heights_and_a_scatter_beyond_the_chain_are_simulated_by_the_round_play(monkeypatch, tmp_path):
    """Cascades with reel heights and a scatter symbol: beyond the chain's limits the round's play
    (which draws each spin's heights) simulates them, and the exact RTP (within the limits) lies in
    the simulation's 99.9 % interval; every check says what it rests on."""
    text = MEGAWAYS.read_text(encoding="utf-8").replace(
        "[symbols.ROCK]", '[symbols.STAR]\nkind = "scatter"\npays = { 2 = 1 }\n[symbols.ROCK]').replace(
        '"RUBY ROCK JADE ROCK OPAL', '"RUBY STAR JADE ROCK OPAL')
    path = tmp_path / "scatter.toml"
    path.write_text(text, encoding="utf-8")
    exact = analyse(load_model(path))
    monkeypatch.setattr("harness.slot.cascade_walk.MAX_START_WINDOWS", 10)
    result = _slot(path, "--simulate", 5_000, "--seed", SEED, "--json")
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    report = json.loads(result.output)
    assert report["estimated"] is True and "1,848 different windows" in report["why_estimated"]
    lo, hi = report["simulation"]["rtp_interval_999"]
    assert lo <= exact.rtp <= hi
    assert report["rigorous_lower_bounds"]["rtp"] is not None
    notes = [c["note"] for c in report["checks"]]
    assert notes and all(SIM_LABEL in n or PROVED_LABEL in n for n in notes)
    rarest = next(c for c in report["checks"] if c["rule"] == "jp-3-3")  # the scatter award is not bounded
    assert rarest["verdict"] == "fail" and "compliance cannot be established" in rarest["note"]


def test_the_text_report_says_no_exact_analysis(few_windows):
    result = _slot(MEGAWAYS, "--simulate", 2000, "--seed", SEED)
    assert result.exit_code in (0, 1), result.output
    assert "NO EXACT ANALYSIS: the paid spin can show 1,452 different windows" in result.output
    assert "Figures marked ~ are a stated-precision simulation, not a proof: 2,000 plays" in result.output
    assert "rigorous lower bound" in result.output and SIM_LABEL in result.output


def _estimate_with_rtp(percent: int, plays: int = 10_000, bet: int = 10):
    """An estimate of the megaways example whose simulation returned ``percent``% with a variance
    of 24 credits^2 a play (a 99.9% half-width of about 1.6%)."""
    paid = percent * plays * bet // 100
    sim = SimulationResult(plays=plays, hits=plays // 10, line_win=paid, total_bet=bet,
                           win_sq=plays * 24 + paid * paid // plays)
    return estimate(load_model(MEGAWAYS), "a test", sim)


@pytest.mark.parametrize("percent,passes", [(95, True), (89, True), (99, False), (85, False)])
def test_an_rtp_rule_passes_only_on_the_whole_interval(percent, passes):
    """jp 4-3 (90% <= RTP < 100%): 95% +- 1.6% passes; 99%, whose interval crosses 100%, does not;
    89% passes only because the rigorous lower bound (about 90.5%) raises its interval's lower end
    past 90%, and 85%, whose whole interval lies below that bound, fails."""
    est = _estimate_with_rtp(percent)
    rule = next(c for c in estimate_checks(est, "jp") if c.rule.id == "jp-4-3")
    lo, hi = est.simulation.rtp_interval()
    assert 0.015 < (hi - lo) / 2 < 0.017
    assert rule.value == max(Fraction(lo), est.rtp_lower) and rule.value_upper == Fraction(hi)
    assert rule.passed is passes and SIM_LABEL in rule.note


def test_an_outcome_the_paid_window_never_pays_cannot_be_shown_to_pass():
    est = _estimate_with_rtp(95)
    never = dict(est.class_lower, **{"3 x RUBY": Fraction(0)})
    checks = estimate_checks(est.__class__(est.model, est.reason, est.simulation, est.rtp_lower, never), "gli11")
    assert not checks[0].passed and checks[0].failing == ("3 x RUBY",)
    assert "compliance cannot be established" in checks[0].note and PROVED_LABEL in checks[0].note
