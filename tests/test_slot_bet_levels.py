"""Bet levels ([bet] levels): the RTP at every level, checked against a separate
analysis of the model at that bet; Japan's 4-3 for every single bet; New Jersey's
rule that a larger wager may not return less by more than 0.01 percentage point."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot.exact import analyse
from harness.slot.profiles import check
from slot_support import SMALL, model, refused

LEVELS = SMALL.replace("per_line = 2\n", "per_line = 2\nlevels = [1, 2, 10]\n")


def test_every_level_equals_the_analysis_of_the_model_at_that_bet():
    a = analyse(model(LEVELS))
    assert [b.level for b in a.bet_levels] == [1, 2, 10]
    assert a.bet_levels[0].rtp == a.rtp
    for b in a.bet_levels:
        at_bet = analyse(model(SMALL.replace("per_line = 2\n", f"per_line = {2 * b.level}\n")))
        assert (b.total_bet, b.rtp) == (at_bet.model.total_bet, at_bet.rtp), b.level
    # the progressive's reset is fixed in credits: its share falls as the bet grows
    assert a.bet_levels[0].rtp > a.bet_levels[1].rtp > a.bet_levels[2].rtp


def test_nj_larger_wager_rule():
    a = analyse(model(LEVELS))
    by_id = {c.rule.id: c for c in check(a, "nj")}
    rule = by_id["nj-1.28A(d)"]
    assert not rule.passed and rule.value == a.bet_levels[0].rtp - a.bet_levels[2].rtp
    assert "bet level 10" in rule.note
    flat = analyse(model(LEVELS.replace("reset = 500", "reset = 0")))  # no fixed-credit part: RTP alike
    assert len({b.rtp for b in flat.bet_levels}) == 1
    assert {c.rule.id: c for c in check(flat, "nj")}["nj-1.28A(d)"].passed
    single = analyse(model(SMALL))
    assert {c.rule.id: c for c in check(single, "nj")}["nj-1.28A(d)"].passed


def test_jp_rtp_rule_applies_to_every_single_bet():
    a = analyse(model(LEVELS))
    rtp_rule = check(a, "jp")[1]
    inside = [b for b in a.bet_levels if Fraction(9, 10) <= b.rtp < 1]
    assert rtp_rule.passed == (len(inside) == 3)
    assert rtp_rule.failing == tuple(f"bet level {b.level}" for b in a.bet_levels if b not in inside)
    assert "over 3 bet levels" in rtp_rule.note


def test_report_lists_the_levels(tmp_path):
    path = tmp_path / "levels.toml"
    path.write_text(LEVELS, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--json", "--profile", "nj"])
    report = json.loads(result.stdout)
    assert [b["level"] for b in report["bet_levels"]] == [1, 2, 10]
    assert report["bet_levels"][2]["total_bet"] == 10 * report["model"]["total_bet"]
    text = CliRunner().invoke(main, ["slot", str(path)]).stdout
    assert "Bet levels" in text and "x10: total bet 100" in text


@pytest.mark.parametrize("levels, where", [
    ("[2, 1]", "bet.levels"), ("[]", "bet.levels"), ("[1, 0]", "bet.levels"), ('["x"]', "bet.levels"),
    ("[1, 68719476736]", "bet.levels"),
])
def test_bad_levels_exit_2(tmp_path, levels, where):
    refused(tmp_path, LEVELS.replace("[1, 2, 10]", levels), where)
