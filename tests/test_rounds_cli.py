"""rngcert play and rngcert journal: scripted rounds, bad input (exit 2, one line), a broken chain
(exit 1), recall, replay, recovery after SIGKILL, and an interrupted session (exit 130, INCOMPLETE)."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.resources import shipped

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
BACCARAT = str(shipped("examples/bets_baccarat.toml"))
SIC_BO = str(shipped("examples/bets_sic_bo.json"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="rngcert")


def one_line(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), lines
    assert "Traceback" not in result.output


def test_play_journals_and_settles_every_round(tmp_path):
    journal = tmp_path / "r.sqlite"
    result = run("play", "baccarat", "--journal", journal, "--bets", BACCARAT, "--seed", SEED, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report)[:3] == ["verdict", "complete", "interrupted"] and report["verdict"] == "pass"
    assert [r["round"] for r in report["rounds"]] == [1, 2, 3]  # the script's rounds = 3
    t = report["totals"]
    assert t["staked"] == 3 * 30 == t["returned"] + t["collected"]
    for r in report["rounds"]:
        banker = next(m for m in r["settlements"] if m["bet"] == "banker")
        assert banker["paid"] in (0, 14)  # 15 at 19 to 20, truncated (000 第1 8-1)
    text = run("play", "baccarat", "--journal", journal, "--bets", BACCARAT, "--rounds", 2, "--seed", SEED)
    assert text.exit_code == 0 and text.stdout.rstrip().endswith("verdict: PASS (every round finished DONE or VOID)")
    assert "round 5: baccarat (etable) DONE" in text.stdout  # the journal continues its numbering


@pytest.mark.parametrize("script,words", [
    ('[[bets]]\ncustomer="a"\nbet="super_six"\nstake=10\n', ("not permitted", "13 (L363)")),
    ('[[bets]]\ncustomer="a"\nbet="lucky"\nstake=10\n', ("no bet 'lucky'",)),
    ('[[bets]]\ncustomer="a"\nbet="banker"\nstake=-5\n', ("whole number of yen", "-5")),
    ('[[bets]]\ncustomer="a"\nbet="banker"\nstake=5\nat="BETTING_CLOSED"\n', ("betting is closed",)),
    ('[[bets]]\ncustomer="a"\nstake=5\n', ("bet 1", "customer, bet, stake")),
    ('bets = 3\n', ("non-empty list",)),
    ('[[bets\n', ("not a valid TOML",)),
])
def test_a_bad_bet_script_is_one_line_and_writes_no_journal(tmp_path, script, words):
    path = tmp_path / "bets.toml"
    path.write_text(script)
    journal = tmp_path / "r.sqlite"
    one_line(run("play", "baccarat", "--journal", journal, "--bets", path, "--seed", SEED), "bets.toml", *words)
    assert not journal.exists()


def test_games_without_a_mode_or_an_engine_are_bad_input(tmp_path):
    one_line(run("play", "big-six", "--journal", tmp_path / "j", "--bets", BACCARAT), "no electronic table-game mode")
    from tests.rounds_support import declared_only

    for game in declared_only()[:1]:
        one_line(run("play", game, "--journal", tmp_path / "j", "--bets", BACCARAT), "no round engine yet")


def test_a_newer_or_corrupt_journal_is_bad_input(tmp_path):
    newer = tmp_path / "newer.sqlite"
    assert run("play", "sic-bo", "--journal", newer, "--bets", SIC_BO, "--rounds", 1, "--seed", SEED).exit_code == 0
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 99")
    db.close()
    for command in (["play", "sic-bo", "--bets", SIC_BO, "--seed", SEED], ["journal", "verify"],
                    ["journal", "recall"], ["journal", "recover"]):
        one_line(run(*command, "--journal", newer), "schema version 99 is newer")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(os.urandom(4096))
    one_line(run("journal", "verify", "--journal", junk), "not a round journal")
    one_line(run("journal", "recall", "--journal", tmp_path / "missing.sqlite"), "no such journal file")


def test_a_broken_chain_names_the_first_bad_record_and_exits_1(tmp_path):
    journal = tmp_path / "r.sqlite"
    run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--seed", SEED, "--batch", "round")
    ok = run("journal", "verify", "--journal", journal, "--json")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["records"] > 50
    db = sqlite3.connect(journal)
    db.execute("DROP TRIGGER records_no_update")
    db.execute("UPDATE records SET body = replace(body, '\"paid\":0', '\"paid\":1') WHERE seq = "
               "(SELECT MIN(seq) FROM records WHERE kind = 'settlement' AND body LIKE '%\"paid\":0%')")
    db.commit()
    bad_seq = db.execute("SELECT MIN(seq) FROM records WHERE kind = 'settlement' AND body LIKE '%\"paid\":1%'").fetchone()[0]
    db.close()
    broken = run("journal", "verify", "--journal", journal)
    assert broken.exit_code == 1
    assert f"the chain breaks at record {bad_seq}" in broken.stdout and "verdict: FAIL" in broken.stdout


def test_recall_and_replay(tmp_path):
    journal = tmp_path / "r.sqlite"
    run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 12, "--seed", SEED, "--stream", 4,
        "--batch", "round")
    recalled = json.loads(run("journal", "recall", "--journal", journal, "--last", 10, "--json").stdout)
    assert [r["round"] for r in recalled["rounds"]] == list(range(12, 2, -1))
    assert all(r["outcome"]["provenance"]["stream"] == 4 for r in recalled["rounds"])
    text = run("journal", "recall", "--journal", journal).stdout
    assert text.count("\nround ") + text.startswith("round ") == 10 and "bytes" in text
    same = run("journal", "replay", 7, "--journal", journal, "--seed", SEED)
    assert same.exit_code == 0 and "equals the journal" in same.stdout
    one_line(run("journal", "replay", 7, "--journal", journal, "--seed", SEED[::-1]), "fingerprint")
    one_line(run("journal", "replay", 70, "--journal", journal, "--seed", SEED), "round 70 is not in")
    one_line(run("journal", "replay", 7, "--journal", journal, "--seed", "xyz"), "replay")


def test_fault_injection_and_unreachable_customers(tmp_path):
    journal = tmp_path / "r.sqlite"
    before = json.loads(run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 1, "--seed", SEED,
                            "--fault-at", "OUTCOME_GENERATION", "--unreachable", "bob", "--json").stdout)
    (r,) = before["rounds"]
    assert r["state"] == "VOID" and r["fault"]["resolution"] == "void"
    assert [m["kind"] for m in r["settlements"]] == ["settlement", "unsettled", "settlement"]
    assert all(m["returned"] == m["stake"] and m["paid"] == 0 for m in r["settlements"])
    after = json.loads(run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 1, "--seed", SEED,
                           "--fault-at", "SETTLEMENT", "--json").stdout)
    clean = json.loads(run("play", "sic-bo", "--journal", tmp_path / "c.sqlite", "--bets", SIC_BO, "--rounds", 1,
                           "--seed", SEED, "--json").stdout)
    assert after["rounds"][0]["state"] == "DONE"
    assert after["rounds"][0]["settlements"] == clean["rounds"][0]["settlements"]


def _settled_rounds(journal) -> int:
    """Rounds a running session has committed to ``journal`` (a new journal's WAL alone is over 32 KiB,
    so its size says nothing about rounds)."""
    if not journal.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=1) as db:
            return db.execute("SELECT COUNT(*) FROM records WHERE kind = 'settlement'").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is still being created
        return 0


def _cli(*args, **kwargs):
    env = dict(os.environ, PYTHONSAFEPATH="1")
    return subprocess.Popen([sys.executable, "-c", "from harness.cli import main; main()", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **kwargs)


def test_kill_at_a_state_then_restart_finishes_the_round(tmp_path):
    journal = tmp_path / "r.sqlite"
    p = _cli("play", "baccarat", "--journal", journal, "--bets", BACCARAT, "--seed", SEED, "--kill-at", "SETTLEMENT")
    p.communicate(timeout=120)
    assert p.returncode == -signal.SIGKILL
    again = run("play", "baccarat", "--journal", journal, "--bets", BACCARAT, "--rounds", 1, "--seed", SEED, "--json")
    report = json.loads(again.stdout)
    assert report["recovered"] == [{"round": 3, "stopped_in": "SETTLEMENT", "finished": "DONE"}]
    assert run("journal", "verify", "--journal", journal).exit_code == 0
    states = [r["state"] for r in json.loads(run("journal", "recall", "--journal", journal, "--json").stdout)["rounds"]]
    assert states == ["DONE"] * 4


def test_an_interrupted_session_exits_130_incomplete_with_every_round_finished(tmp_path):
    journal = tmp_path / "r.sqlite"
    p = _cli("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 10**6, "--seed", SEED)
    deadline = time.time() + 60
    while time.time() < deadline and not _settled_rounds(journal):  # rounds are being journaled
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "verdict: INCOMPLETE" in out and "Traceback" not in err
    verified = json.loads(run("journal", "verify", "--journal", journal, "--json").stdout)
    assert verified["verdict"] == "pass"
    rounds = json.loads(run("journal", "recall", "--journal", journal, "--last", 10**6, "--json").stdout)["rounds"]
    assert rounds and all(r["state"] in ("DONE", "VOID") for r in rounds)
    assert run("journal", "recover", "--journal", journal).stdout.startswith("no open rounds")


def test_verify_against_an_earlier_tip(tmp_path):
    journal = tmp_path / "r.sqlite"
    run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 2, "--seed", SEED, "--batch", "round")
    tip = json.loads(run("journal", "verify", "--journal", journal, "--json").stdout)["tip"]
    assert run("journal", "verify", "--journal", journal, "--tip", tip).exit_code == 0
    db = sqlite3.connect(journal)
    db.execute("DROP TRIGGER records_no_delete")
    db.execute("DELETE FROM records WHERE seq = (SELECT MAX(seq) FROM records)")
    db.commit()
    db.close()
    assert run("journal", "verify", "--journal", journal).exit_code == 0
    cut = run("journal", "verify", "--journal", journal, "--tip", tip)
    assert cut.exit_code == 1 and "was cut after record" in cut.stdout
    one_line(run("journal", "verify", "--journal", journal, "--tip", "xyz"), "64 lowercase hex")


WAR = str(shipped("examples/bets_casino_war.toml"))
WAR_SURRENDER = str(shipped("examples/bets_casino_war_surrender.toml"))


def test_play_takes_the_games_round_options_and_journals_them(tmp_path):
    import rngcore

    journal = tmp_path / "w.sqlite"
    result = run("play", "casino-war", "--journal", journal, "--bets", WAR_SURRENDER, "--option", "strategy=surrender",
                 "--option", "decks=6", "--rounds", 40, "--seed", SEED, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert all(r["options"] == {"decks": 6, "strategy": "surrender"} for r in report["rounds"])
    # the provenance block every command's JSON has (docs/cli.md)
    assert report["build"]["core_sha256"] == rngcore.BUILD_INFO.sha256 and report["build"]["version"]
    assert report["provenance"]["engine"] == "chacha20" and report["provenance"]["mode"] == "replay"
    ties = [r for r in report["rounds"] if r["outcome"]["record"]["class"] == "surrender"]
    assert ties, "40 rounds without a tie: pick another seed"  # 2 of 13 or so rounds tie
    for r in ties:  # half the main stake lost (8-1-イ); the tie bet pays 10 to 1
        main = next(m for m in r["settlements"] if m["bet"] == "main")
        assert (main["returned"], main["collected"], main["paid"]) == (50, 50, 0)
    with sqlite3.connect(journal) as db:
        opened = [json.loads(b) for (b,) in db.execute("SELECT body FROM records WHERE kind = 'open'")]
    assert all(o["options"] == {"decks": 6, "strategy": "surrender"} for o in opened)
    replayed = run("journal", "replay", ties[0]["round"], "--journal", journal, "--seed", SEED)
    assert replayed.exit_code == 0, replayed.output  # replay deals by the journaled options


@pytest.mark.parametrize("script,options,words", [
    (WAR, ["strategy=surrender"], ("bets_casino_war.toml: bet 3", "8-1-イ", "refused")),
    (WAR_SURRENDER, [], ("bets_casino_war_surrender.toml: bet 1 (ann on main)", "8-1-ロ", "additional")),
    (WAR, ["decks=3"], ("decks", "4..8", "got 3")),
    (WAR, ["strategy=fold"], ("strategy", "war|surrender", "'fold'")),
    (WAR, ["burns=3"], ("casino-war rounds has no option 'burns'", "decks, strategy")),
    (WAR, ["decks"], ("NAME=VALUE",)),
    (WAR, ["decks=6", "decks=5"], ("given twice",)),
    (SIC_BO, ["decks=6"], ("sic-bo rounds has no option 'decks'", "none")),
])
def test_a_bad_round_option_or_a_bet_it_refuses_is_one_line(tmp_path, script, options, words):
    journal = tmp_path / "r.sqlite"
    game = "sic-bo" if script == SIC_BO else "casino-war"
    args = [a for o in options for a in ("--option", o)]
    one_line(run("play", game, "--journal", journal, "--bets", script, *args, "--seed", SEED), *words)
    assert not journal.exists()


def test_a_journal_write_that_fails_is_one_line_and_keeps_what_was_committed(tmp_path, monkeypatch):
    from harness.rounds import writer

    insert, calls = writer.Inline._insert, []

    def failing(self, rows):  # the disk fills up at the writer thread's third chunk
        calls.append(len(rows))
        if len(calls) == 3:
            raise sqlite3.OperationalError("database or disk is full")
        insert(self, rows)

    monkeypatch.setattr(writer.Inline, "_insert", failing)
    journal = tmp_path / "full.sqlite"
    result = run("play", "sic-bo", "--journal", journal, "--bets", SIC_BO, "--rounds", 200, "--batch", "group",
                 "--window", 16, "--seed", SEED)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "disk is full" in lines[0] and "not durable" in lines[0], lines
    assert "Traceback" not in result.output
    monkeypatch.setattr(writer.Inline, "_insert", insert)
    verified = run("journal", "verify", "--journal", journal, "--json")
    assert verified.exit_code == 0 and json.loads(verified.stdout)["records"] > 0  # the committed windows
