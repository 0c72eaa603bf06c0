"""A plan's [[rounds]] section: rngcert's journaled round state machine faulted before and after the
determination point and restarted after a stop is the evidence of 000's e-table fault and record clauses."""
import json
import shutil

import jsonschema
import pytest
from click.testing import CliRunner

from certify_support import draw_figures_as_svg
from harness.certify.bundle import schema
from harness.cli import main
from harness.resources import shipped

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
HEAD = f'format = 1\nselftest = false\n[engine]\nseed = "{SEED}"\n'


@pytest.fixture(autouse=True)
def _svg_figures(monkeypatch):
    draw_figures_as_svg(monkeypatch)


def certify(tmp_path, body):
    plan = tmp_path / "plan.toml"
    plan.write_text(HEAD + body, encoding="utf-8")
    for name in ("bets_baccarat.toml", "bets_casino_war_surrender.toml"):
        shutil.copy(shipped(f"examples/{name}"), tmp_path / name)
    return CliRunner().invoke(main, ["certify", str(plan), "--out", str(tmp_path / "out"), "--quiet"])


def test_a_rounds_section_is_the_evidence_of_the_etable_fault_and_record_clauses(tmp_path):
    result = certify(tmp_path, '[[rounds]]\ngame = "baccarat"\nbets = "bets_baccarat.toml"\nrounds = 4\n'
                               '[[rounds]]\ngame = "casino-war"\nbets = "bets_casino_war_surrender.toml"\n'
                               'options = { strategy = "surrender" }\n')
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema()).validate(report)
    sections = {s["key"]: s for s in report["sections"]}
    assert list(sections) == ["rounds:baccarat", "rounds:casino-war"]
    baccarat = sections["rounds:baccarat"]
    assert baccarat["verdict"] == "pass" and all(c["ok"] for c in baccarat["result"]["checks"])
    assert baccarat["result"]["rounds"] == 4 + 4  # the ordinary rounds, two faulted, two stopped
    assert [f["finished"] for f in baccarat["result"]["faults"]] == ["VOID", "DONE"]
    assert [(r["stopped_in"], r["finished"]) for r in baccarat["result"]["recovered"]] == [
        ("OUTCOME_GENERATION", "VOID"), ("OUTCOME_DETERMINED", "DONE")]
    assert baccarat["inputs"][0]["role"] == "bet script" and baccarat["provenance"]["mode"] == "replay"
    assert sections["rounds:casino-war"]["result"]["options"] == {"strategy": "surrender"}
    clauses = {c["id"]: c for c in report["clauses"]}
    for clause in ("000-etable-fault", "000-etable-record"):
        assert clauses[clause]["status"] == "checked" and clauses[clause]["verdict"] == "pass"
        assert {e["section"] for e in clauses[clause]["evidence"]} == {"rounds:baccarat", "rounds:casino-war"}
    assert "the restart finishes the stopped rounds by the rule" in (tmp_path / "out" / "report.html").read_text(
        encoding="utf-8")


def test_a_failed_study_check_fails_the_section(tmp_path, monkeypatch):
    from harness.rounds import recall

    monkeypatch.setattr(recall, "recover", lambda journal: [])  # a restart that finishes nothing
    result = certify(tmp_path, '[[rounds]]\ngame = "baccarat"\nbets = "bets_baccarat.toml"\nrounds = 1\n')
    assert result.exit_code == 1, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    section = report["sections"][0]
    assert section["verdict"] == "fail" and "the restart finishes the stopped rounds" in section["reason"]


@pytest.mark.parametrize("body,message", [
    ('[[rounds]]\ngame = "big-six"\nbets = "bets_baccarat.toml"\n', "rounds[0].game"),
    ('[[rounds]]\ngame = "baccarat"\nbets = "missing.toml"\n', "rounds[0].bets: no such file"),
    ('[[rounds]]\ngame = "sic-bo"\nbets = "bets_baccarat.toml"\n', "rounds[0].bets"),
    ('[[rounds]]\ngame = "casino-war"\nbets = "bets_casino_war_surrender.toml"\n', "8-1-ロ"),
    ('[[rounds]]\ngame = "baccarat"\nbets = "bets_baccarat.toml"\noptions = { decks = 99 }\n', "decks"),
    ('[[rounds]]\ngame = "baccarat"\nbets = "bets_baccarat.toml"\nround = 3\n', "unknown key 'round'"),
])
def test_a_bad_rounds_section_is_one_line_and_exit_2(tmp_path, body, message):
    result = certify(tmp_path, body)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "out").exists()


def test_a_slot_rounds_section_is_the_evidence_of_000_10_5_only(tmp_path):
    shutil.copy(shipped("examples/slot_two_scatters.toml"), tmp_path / "model.toml")
    shutil.copy(shipped("examples/bets_slot.toml"), tmp_path / "bets_slot.toml")
    result = certify(tmp_path, '[[rounds]]\ngame = "slot:model.toml"\nbets = "bets_slot.toml"\nrounds = 3\n')
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema()).validate(report)
    section, = report["sections"]
    assert section["key"] == "rounds:slot:model.toml" and section["verdict"] == "pass"
    assert [i["role"] for i in section["inputs"]] == ["bet script", "slot model"]
    assert [(r["stopped_in"], r["finished"]) for r in section["result"]["recovered"]] == [
        ("OUTCOME_GENERATION", "VOID"), ("OUTCOME_DETERMINED", "DONE")]
    clauses = {c["id"]: c for c in report["clauses"]}
    assert clauses["000-10-5"]["status"] == "checked" and clauses["000-10-5"]["verdict"] == "pass"
    assert [e["section"] for e in clauses["000-10-5"]["evidence"]] == ["rounds:slot:model.toml"]
    for clause in ("000-etable-fault", "000-etable-record"):  # a slot play is not an e-table round
        assert clauses[clause]["status"] == "not in plan"
