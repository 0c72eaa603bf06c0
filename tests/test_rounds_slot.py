"""Slot plays as rounds (harness/rounds/engines/slot.py): 000 第10 5-1/5-2 in the round machine.

A play is journaled with its reel stops and the generator range they used, replays to the same
stops, and a stop at any state is finished by 5-1 on restart: void before the play's draws are
complete (the outcome record), settled on them after.
"""
import json
import shutil
import signal
import sqlite3

import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.rounds import Bet, Round, RoundError
from harness.rounds import recall as rc
from harness.rounds.journal import Journal
from harness.rounds.table import rules_for

from tests.rounds_support import SEED, step
from tests.test_rounds_journal import CHILD, STATES, check_recovered

MODEL = "examples/slot_two_scatters.toml"  # free spins with retriggers and a second scatter
STAKE = 243


def _heights_free_spins() -> str:
    """Reel heights per spin and free spins (tests/test_slot_ways_free.py), reel 3 all scatters so that every
    play starts free spins: each round journals every free spin's height draws."""
    from tests.test_slot_ways_free import GAME

    text = GAME.replace('"A S K W X"]\nbase_weights', '"S S S S S"]\nbase_weights').replace(
        "spins = { 2 = 2, 3 = 3 }", "spins = { 1 = 1, 2 = 2, 3 = 3 }")
    assert text.count("S S S S S") == 1 and "1 = 1, 2 = 2" in text
    return text


HEIGHTS_STAKE = 12  # bet.total of _heights_free_spins()


@pytest.fixture
def model(tmp_path):
    path = tmp_path / "model.toml"
    shutil.copy(MODEL, path)
    return str(path)


def _play(journal, game, rounds, stream=5):
    g = rngcore.Generator(SEED, stream=stream)
    for _ in range(rounds):
        step(journal, game, [Bet("ann", "spin", STAKE)], g)


def test_a_play_is_journaled_with_its_stops_and_replays_to_them(tmp_path, model):
    with Journal(tmp_path / "j.sqlite", batch="round") as j:
        _play(j, f"slot:{model}", 10, stream=1)  # round 5 of stream 1 triggers eight free spins
        assert j.verify().ok
        rounds = j.events()
        free = 0
        for round_id, events in rounds.items():
            outcome = next(e for e in events if e["kind"] == "outcome")
            stops = outcome["record"]["stops"]
            free += len(stops) > 1
            assert outcome["provenance"]["end"] - outcome["provenance"]["start"] == 4 * 5 * len(stops)
            settled = next(e for e in events if e["kind"] == "settlement")
            award = settled["returned"] + settled["paid"]
            assert f"award {award} credits" in outcome["shown"]
            assert rc.replay(j, round_id, SEED).equal
        assert rc.recall(j, 10)[0]["round"] == 10
    assert len(rounds) == 10 and free == 1


def test_the_award_settles_in_whole_yen_with_the_stake_conserved(tmp_path, model):
    rules = rules_for(f"slot:{model}")
    low = rules.settle(rules.bets["spin"], STAKE, {"award": 45})[1]
    high = rules.settle(rules.bets["spin"], STAKE, {"award": 431})[1]
    assert (low.returned, low.collected, low.paid) == (45, 198, 0)
    assert (high.returned, high.collected, high.paid) == (243, 0, 188)


def test_a_fault_before_the_draws_voids_and_after_settles(model):
    g = rngcore.Generator(SEED, stream=6)
    early = Round(f"slot:{model}", 1)
    early.place(Bet("ann", "spin", STAKE))
    early.close()
    early.fault("reel motor stalled")
    assert early.state.value == "VOID" and early.totals()["returned"] == STAKE
    late = Round(f"slot:{model}", 2)
    late.place(Bet("ann", "spin", STAKE))
    late.close()
    late.generate(g)
    late.determine()
    late.fault("display lost", unreachable=["ann"])  # 5-2: recorded, not paid
    assert late.state.value == "DONE"
    assert [e["kind"] for e in late.events if e["kind"] in ("settlement", "unsettled")] == ["unsettled"]


def test_a_bad_stake_a_second_customer_and_a_bad_model_are_refused(tmp_path, model):
    r = Round(f"slot:{model}", 1)
    with pytest.raises(RoundError, match="total bet of 243"):
        r.place(Bet("ann", "spin", 100))
    r.place(Bet("ann", "spin", STAKE))
    with pytest.raises(RoundError, match="one customer position"):
        r.place(Bet("bob", "spin", STAKE))
    with pytest.raises(RoundError, match="no bet 'red'"):
        r.place(Bet("ann", "red", STAKE))
    with pytest.raises(RoundError, match="cannot read the model"):
        rules_for(f"slot:{tmp_path / 'missing.toml'}")
    with pytest.raises(RoundError, match="no round engine builds games of the form nope"):
        rules_for("nope:x")


def test_a_changed_model_file_is_not_settled_as_the_journaled_one(tmp_path, model):
    with Journal(tmp_path / "j.sqlite", batch="round") as j:
        _play(j, f"slot:{model}", 1)
    text = open(model).read().replace("STAG OWL FOX A K A K", "STAG OWL FOX A K K A", 1)
    with open(model, "w") as out:
        out.write(text)
    from harness.rounds.engines import slot

    slot._rules.cache_clear()
    with Journal(tmp_path / "j.sqlite") as j:
        with pytest.raises(RoundError, match="SHA-256"):
            rc.replay(j, 1, SEED)


def test_rngcert_play_slot_model_and_its_errors(tmp_path, model):
    script = tmp_path / "bets.toml"
    script.write_text(f'rounds = 6\n[[bets]]\ncustomer = "ann"\nbet = "spin"\nstake = {STAKE}\n')
    journal = tmp_path / "p.sqlite"
    runner = CliRunner()
    done = runner.invoke(main, ["play", f"slot:{model}", "--journal", str(journal), "--bets", str(script),
                                "--seed", SEED, "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    assert report["verdict"] == "pass" and len(report["rounds"]) == 6
    replayed = runner.invoke(main, ["journal", "replay", "6", "--journal", str(journal), "--seed", SEED])
    assert replayed.exit_code == 0 and "equals the journal" in replayed.output
    script.write_text('[[bets]]\ncustomer = "ann"\nbet = "spin"\nstake = 5\n')
    bad = runner.invoke(main, ["play", f"slot:{model}", "--journal", str(journal), "--bets", str(script)])
    assert bad.exit_code == 2 and "total bet of 243" in bad.output and "Traceback" not in bad.output


QUICK = {("OUTCOME_DETERMINED", "before-commit")}  # a power loss at the point; the rest under -m slow


GRID = [(t, h) if (t, h) in QUICK else pytest.param(t, h, marks=pytest.mark.slow)
        for t in STATES for h in ("after-commit", "before-commit", "exception")]


@pytest.mark.parametrize("heights", [False, True], ids=["two-scatters", "heights-free-spins"])
@pytest.mark.parametrize("target,how", GRID)
def test_a_slot_round_stopped_at_every_state_is_finished_by_5_1(tmp_path, model, target, how, heights):
    """One in the default run; every state and kind of stop under -m slow.  The heights model's rounds all
    play free spins, each drawing its reels' heights again: a settled one pays what its record re-derives."""
    import os
    import subprocess
    import sys

    stake = HEIGHTS_STAKE if heights else STAKE
    if heights:
        model = tmp_path / "heights.toml"
        model.write_text(_heights_free_spins())
    game = f"slot:{model}"
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(bets={game: [("ann", "spin", stake, None)]}, seed=SEED))
    path = tmp_path / "killed.sqlite"
    done = subprocess.run([sys.executable, str(script), str(path), game, target, how, "event"],
                          env=dict(os.environ, PYTHONSAFEPATH="1"), capture_output=True, text=True, timeout=120)
    assert done.returncode in (-signal.SIGKILL, 1), done.stderr
    finished, rounds = check_recovered(path, game)
    lost_open = target == "BETTING_OPEN" and how == "before-commit"  # round 2's first record never committed
    assert len(rounds) == (1 if lost_open else 2)
    if target != "DONE" and how != "exception" and not lost_open:
        (round_id, stopped, final), = finished
        determined = stopped in ("OUTCOME_DETERMINED", "SETTLEMENT")
        assert round_id == 2 and final == ("DONE" if determined else "VOID")
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM records WHERE kind = 'outcome'").fetchone()[0] >= 1
    engine = rules_for(game).engine
    for events in rounds.values():
        outcome = next((e for e in events if e["kind"] == "outcome"), None)
        moves = [e for e in events if e["kind"] == "settlement"]
        if outcome is not None and heights:
            assert outcome["record"]["free_heights"] and len(outcome["record"]["free_heights"]) == \
                len(outcome["record"]["stops"]) - 1
        if outcome is not None and moves and moves[0]["result"] != "void":
            award = engine.round_dealt("play", outcome["record"]).features["award"]
            assert moves[0]["returned"] + moves[0]["paid"] == award


def test_a_bonus_play_journals_its_draws_and_replays_to_them(tmp_path):
    from tests.test_slot_spin import BONUS_MODEL

    path = tmp_path / "bonus.toml"
    path.write_text(BONUS_MODEL)
    game = f"slot:{path}"
    with Journal(tmp_path / "b.sqlite", batch="round") as j:
        g = rngcore.Generator(SEED, stream=8)
        for _ in range(8):
            step(j, game, [Bet("ann", "spin", 5)], g)
        records = [next(e for e in evs if e["kind"] == "outcome")["record"] for evs in j.events().values()]
        assert any(rec["bonus"] for rec in records) and all("bonus" in rec for rec in records)
        assert all(rc.replay(j, n, SEED).equal for n in range(1, 9))


@pytest.mark.parametrize("example, kind", [("slot_megaways", "heights"), ("slot_cascade", "refills"),
                                           ("slot_hold_and_spin", "hold")])
def test_a_feature_play_journals_its_draws_and_replays_to_them(tmp_path, example, kind):
    """Reel heights, cascade refills and hold-and-spin respins are journaled draw by draw, so a replay
    re-derives each play and a recovery settles it on its record alone."""
    path = tmp_path / f"{example}.toml"
    shutil.copy(f"examples/{example}.toml", path)
    game, stake = f"slot:{path}", rules_for(f"slot:{path}").bets["spin"].stake
    with Journal(tmp_path / "f.sqlite", batch="round") as j:
        g = rngcore.Generator(SEED, stream=3)
        for _ in range(40):
            step(j, game, [Bet("ann", "spin", stake)], g)
        records = [next(e for e in evs if e["kind"] == "outcome")["record"] for evs in j.events().values()]
        assert all(kind in rec for rec in records) and any(rec[kind] for rec in records)
        assert all(rc.replay(j, n, SEED).equal for n in range(1, 41))
        engine = rules_for(game).engine
        assert all(engine.round_dealt("play", rec).features["award"] >= 0 for rec in records)
        broken = dict(records[next(i for i, rec in enumerate(records) if rec[kind])])
        broken[kind] = broken[kind][:-1]
        with pytest.raises(ValueError, match="owes|is not"):
            engine.round_dealt("play", broken)


def test_free_spins_with_reel_heights_journal_every_spins_heights(tmp_path):
    """Each free spin's height draws are journaled (``free_heights``), recall shows every spin's heights,
    a replay re-derives them equal to the journal, and a record whose height draws are not one play is refused."""
    path = tmp_path / "heights.toml"
    path.write_text(_heights_free_spins())
    game = f"slot:{path}"
    engine = rules_for(game).engine
    with Journal(tmp_path / "h.sqlite", batch="round") as j:
        _play_bets = [Bet("ann", "spin", HEIGHTS_STAKE)]
        g = rngcore.Generator(SEED, stream=4)
        for _ in range(12):
            step(j, game, _play_bets, g)
        rounds = j.events()
        for round_id, events in rounds.items():
            outcome = next(e for e in events if e["kind"] == "outcome")
            rec = outcome["record"]
            assert len(rec["heights"]) == 3 and len(rec["free_heights"]) == len(rec["stops"]) - 1 >= 1
            assert all(len(h) == 3 for h in rec["free_heights"])
            shown = outcome["shown"]
            assert shown.startswith("heights ") and f"{len(rec['free_heights'])} free spins (heights " in shown
            replayed = rc.replay(j, round_id, SEED)
            assert replayed.equal and replayed.derived["free_heights"] == rec["free_heights"]
            settled = next(e for e in events if e["kind"] == "settlement")
            assert engine.round_dealt("play", rec).features["award"] == settled["returned"] + settled["paid"]
        recalled = rc.recall(j, 3)
        assert [r["round"] for r in recalled] == [12, 11, 10] and all(
            r["outcome"]["record"]["free_heights"] for r in recalled)
    rec = next(e for e in rounds[1] if e["kind"] == "outcome")["record"]
    spins = len(rec["stops"])
    for change, says in ((dict(free_heights=rec["free_heights"][:-1]), f"free spin {spins - 1}'s reel heights"),
                         (dict(free_heights=rec["free_heights"] + [[0, 0, 0]]), "spins' height draws are recorded"),
                         (dict(free_heights=[[9, 0, 0]] + rec["free_heights"][1:]), "free spin 1's reel heights owes"),
                         (dict(free_heights=7), "not a list per spin"),
                         (dict(heights=rec["heights"][:2]), "the paid spin's reel heights owes")):
        with pytest.raises(ValueError, match=says):
            engine.round_dealt("play", dict(rec, **change))


def test_a_version_4_journal_of_reel_heights_plays_replays_after_its_migration(tmp_path):
    """Schema 5 changes no earlier record: a reel-heights play without free spins journaled by a version-4
    rngcert (the paid spin's height draws in ``heights``) is migrated and still replays equal to it."""
    from tests.test_rounds_journal import _old_journal

    path = tmp_path / "slot_megaways.toml"
    shutil.copy("examples/slot_megaways.toml", path)
    game = f"slot:{path}"
    with Journal(tmp_path / "new.sqlite", batch="round") as j:
        g = rngcore.Generator(SEED, stream=3)
        for _ in range(4):
            step(j, game, [Bet("ann", "spin", rules_for(game).bets["spin"].stake)], g)
        old = [(r[1], r[3]) for r in j.rows()]
    _old_journal(tmp_path / "v4.sqlite", old, 4)
    with Journal(tmp_path / "v4.sqlite") as j:
        assert j.verify().ok and all(rc.replay(j, n, SEED).equal for n in range(1, 5))
        assert all("free_heights" not in next(e for e in evs if e["kind"] == "outcome")["record"]
                   for evs in j.events().values())
    assert sqlite3.connect(tmp_path / "v4.sqlite").execute("PRAGMA user_version").fetchone()[0] == 5


def test_rngcert_play_and_recall_show_each_free_spins_heights(tmp_path):
    path = tmp_path / "heights.toml"
    path.write_text(_heights_free_spins())
    script = tmp_path / "bets.toml"
    script.write_text(f'rounds = 3\n[[bets]]\ncustomer = "ann"\nbet = "spin"\nstake = {HEIGHTS_STAKE}\n')
    journal = tmp_path / "p.sqlite"
    runner = CliRunner()
    done = runner.invoke(main, ["play", f"slot:{path}", "--journal", str(journal), "--bets", str(script),
                                "--seed", SEED])
    assert done.exit_code == 0, done.output
    recalled = runner.invoke(main, ["journal", "recall", "--last", "3", "--journal", str(journal)])
    assert recalled.exit_code == 0 and recalled.output.count("free spins (heights ") == 3, recalled.output
    replayed = runner.invoke(main, ["journal", "replay", "3", "--journal", str(journal), "--seed", SEED])
    assert replayed.exit_code == 0 and "equals the journal" in replayed.output and "free_heights" in replayed.output


def test_a_table_of_plays_writes_what_round_by_round_play_writes(tmp_path, model):
    """The batch table builds each play's round once with its real range (no template): the same
    records, hence the same hash chain, as rounds played one by one."""
    from harness.rounds.batch import Table

    game = f"slot:{model}"
    with Journal(tmp_path / "table.sqlite", batch="group", window=7) as a, \
            Journal(tmp_path / "by-hand.sqlite", batch="group") as b:
        table = Table(rules_for(game), [Bet("ann", "spin", STAKE)], journal=a)
        totals = table.play(rngcore.Generator(SEED, stream=5), 25)
        _play(b, game, 25)
        b.commit()
        assert list(a.rows()) == list(b.rows()) and a.verify().ok
        assert totals.staked == totals.returned + totals.collected == 25 * STAKE


def test_production_plays_keep_exact_ranges_across_reseeds(tmp_path, model):
    from harness.rounds.batch import Table
    from rngcore.engines import engines

    g = rngcore.Generator(engines()["chacha20"](reseed_interval=150))
    with Journal(tmp_path / "p.sqlite", batch="group") as j:
        Table(rules_for(f"slot:{model}"), [Bet("ann", "spin", STAKE)], journal=j).play(g, 150)
        drawn = [json.loads(r[3])["provenance"] for r in j.rows() if r[2] == "outcome"]
        assert j.verify().ok
    assert all(p["mode"] == "production" for p in drawn) and drawn[-1]["epoch"] > drawn[0]["epoch"]
    # A batch whose plays ran past two reseeds (a long feature play can) cannot place the earlier one:
    # the play drawn across it is recorded in epochs epoch..end_epoch with its epoch positions None
    # (harness.rounds.batch._epoch_ranges); every other play's range is exact.
    placed = [p for p in drawn if p["epoch_start"] is not None]
    assert len(placed) > len(drawn) // 2
    for a, b in zip(drawn, drawn[1:]):
        assert a["end"] == b["start"]
        if a["epoch_start"] is None:
            continue
        if "end_epoch" not in a:
            assert a["epoch_end"] - a["epoch_start"] == a["end"] - a["start"]
            if a["epoch"] == b["epoch"] and b["epoch_start"] is not None:
                assert a["epoch_end"] == b["epoch_start"]


@pytest.mark.slow
def test_a_thousand_random_power_losses_in_feature_plays(tmp_path):
    """1,000 random stop points (model, round, record; before or after its commit) in plays with reel
    heights (with free spins too), cascades, hold and spin, a bonus and sticky-wild sessions, each followed by a restart: the
    invariants hold, a second restart finds nothing, and every settled play pays the award its
    journaled draws re-derive."""
    import random

    from tests.test_rounds_journal import power_loss_trial
    from tests.test_slot_sticky import RETRIGGERS

    models = []
    for name in ("slot_megaways", "slot_cascade", "slot_hold_and_spin", "slot_pick_bonus"):
        shutil.copy(f"examples/{name}.toml", tmp_path / f"{name}.toml")
        models.append(f"slot:{tmp_path / name}.toml")
    (tmp_path / "sticky.toml").write_text(RETRIGGERS)
    models.append(f"slot:{tmp_path / 'sticky.toml'}")
    (tmp_path / "heights.toml").write_text(_heights_free_spins())  # free spins drawing their heights again
    models.append(f"slot:{tmp_path / 'heights.toml'}")
    rnd = random.Random(19)
    for trial in range(1000):
        game = rnd.choice(models)
        rules = rules_for(game)
        stake = rules.bets["spin"].stake
        path = tmp_path / f"{trial}.sqlite"
        power_loss_trial(rnd, path, trial, 5, lambda j, g: step(j, rules, [Bet("ann", "spin", stake)], g))
        _, rounds = check_recovered(path, game)
        for events in rounds.values():
            outcome = next((e for e in events if e["kind"] == "outcome"), None)
            moves = [e for e in events if e["kind"] == "settlement"]
            if outcome is not None and moves and moves[0]["result"] != "void":
                award = rules.engine.round_dealt("play", outcome["record"]).features["award"]
                assert moves[0]["returned"] + moves[0]["paid"] == award, (trial, game)
