"""Slot meters carried through rounds (harness/rounds/meters.py, harness/slot/meters.py).

Which meters a play hits is held to the model's rules written out here (a run on a payline, a
count of the jackpot symbol, the mystery draw's range); the meters' values are held to the rules
of docs/rounds.md: a settled round funds every meter by its exact share, carried in whole yen plus
an exact fraction; a hit pays the meter's value and resets it; a void round neither funds nor wins;
the values continue from round to round, through a table, a restart and a stop at any state.
"""
from __future__ import annotations

import json
import math
import shutil
from fractions import Fraction

import pytest
from click.testing import CliRunner

import rngcore
from harness.cli import main
from harness.rounds import Bet, Round, RoundError
from harness.rounds import recall as rc
from harness.rounds.journal import Journal
from harness.rounds.meters import MeterBank, MeterSpec, bank_of, conservation
from harness.rounds.table import rules_for
from harness.slot.model import load_model
from harness.slot.spin import Player

from tests.rounds_support import SEED, play_metered, step
from tests.slot_support import SMALL, model, reference_line
from tests.test_slot_cascade_features import GAME as CASCADE_FREE_SPINS

# SMALL's progressive (3 x A on a payline, wilds too: a few plays in a hundred) and two mystery levels
# hit often enough for every rule to be seen in a few hundred plays
METERED = SMALL + """
[[mystery]]
name = "MINI"
probability = "1/7"
contribution = "1/30"
reset = 20
[[mystery]]
name = "MAJOR"
probability = "2/39"
contribution = "0.01"
reset = 300
"""
STAKE = 10  # SMALL's total bet: 2 per line x 5 lines


@pytest.fixture
def metered(tmp_path):
    path = tmp_path / "metered.toml"
    path.write_text(METERED)
    return f"slot:{path}"


def _reference_hits(m, play) -> tuple[str, ...]:
    """The meters a play hits, by the rules of docs/slot_model.md read straight off its paid window."""
    window = [[m.symbol_index(x) for x in col] for col in play.spins[0].window]
    out = []
    if m.progressive is not None and any(
            reference_line(m, [window[r][row] for r, row in enumerate(path)])[2] for path in m.paylines):
        out.append("progressive")
    scatter = [lv for lv in m.jackpots if lv.on == "scatter"]
    if scatter:
        shown = sum(col.count(scatter[0].symbol) for col in window)
        won = [lv for lv in scatter if lv.count <= shown]
        if won:
            out.append(f"jackpot {max(won, key=lambda lv: lv.count).name}")
    line = [lv for lv in m.jackpots if lv.on == "line"]
    if line:  # the longest run of the symbol from reel 1 on any payline (these levels count no wilds)
        runs = []
        for path in m.paylines:
            symbols = [window[r][row] for r, row in enumerate(path)]
            runs.append(next((k for k, x in enumerate(symbols) if x != line[0].symbol), len(symbols)))
        won = [lv for lv in line if lv.count <= max(runs)]
        if won:
            out.append(f"jackpot {max(won, key=lambda lv: lv.count).name}")
    if m.mystery:
        den = math.lcm(*(lv.probability.denominator for lv in m.mystery))
        (draw,) = play.mystery
        low = Fraction(0)
        for lv in m.mystery:  # level i: the draw's fraction of the denominator falls in its range
            if low <= Fraction(draw, den) < low + lv.probability:
                out.append(f"mystery {lv.name}")
            low += lv.probability
    return tuple(out)


@pytest.mark.parametrize("source, plays", [(METERED, 600), ("examples/slot_jackpot_levels.toml", 600),
                                           ("examples/slot_jackpot_lines.toml", 600)])
def test_a_play_hits_the_meters_its_rules_say(source, plays):
    m = load_model(source) if source.endswith(".toml") else model(source)
    player = Player(m)
    g = rngcore.Generator(SEED, stream=2)
    seen = set()
    for _ in range(plays):
        play = player.spin(g)
        assert play.meters == _reference_hits(m, play)
        seen.update(play.meters)
        again = player.evaluate(play.stops, play.bonus, heights=play.heights, hold=play.hold,
                                refills=play.refills, mystery=play.mystery)
        assert again == play
    scatter_levels = {f"jackpot {lv.name}" for lv in m.jackpots if lv.on == "scatter"}
    assert seen >= ({"progressive"} if m.progressive else set()) | {f"mystery {lv.name}" for lv in m.mystery}
    assert seen & scatter_levels or not scatter_levels


def test_a_line_level_is_won_by_the_longest_run_on_a_payline():
    """Four SEVENs from reel 1 on the middle line win SUPER, five GRAND (stops chosen to show them)."""
    m = load_model("examples/slot_jackpot_lines.toml")
    player = Player(m)
    seven = m.symbol_index("SEVEN")
    shown = player.base.shown  # per reel, per stop: the column shown
    middle = [[s for s, col in enumerate(reel) if col[1] == seven] for reel in shown]
    other = [s for s, col in enumerate(shown[4]) if seven not in col]
    for stops, level in (([middle[r][0] for r in range(4)] + [other[0]], "jackpot SUPER"),
                         ([middle[r][0] for r in range(5)], "jackpot GRAND")):
        play = player.evaluate([stops])
        assert level in play.meters and play.meters == _reference_hits(m, play)


def _rounds(journal, game, n, generator, meters=None):
    bank = bank_of(rules_for(game), journal) if meters is None else meters
    for _ in range(n):
        step(journal, game, [Bet("ann", "spin", STAKE)], generator, meters=bank)
    return bank


def check_meters(rounds: dict, game: str) -> dict:
    """The meter invariants over a journal's rounds of ``game``: per round the conservation of
    harness.rounds.meters.conservation; across rounds each meter's before is its last after; the
    contributions exact (whole yen plus the last carry = share x stake per metered round); no meters
    record in a void round and exactly one in a settled one.  Returns the totals."""
    rules = rules_for(game)
    stake = rules.bets["spin"].stake
    specs = {s.name: s for s in rules.engine.meters}
    value = {name: (s.reset, 0, 1) for name, s in specs.items()}
    totals = {name: {"contributed": 0, "awarded": 0, "rounds": 0} for name in specs}
    for round_id, events in rounds.items():
        state = [e["state"] for e in events if e["kind"] == "state"][-1]
        records = [e for e in events if e["kind"] == "meters"]
        assert len(records) == (1 if state == "DONE" else 0), round_id
        c = conservation(events)
        assert c["staked"] == c["returned"] + c["collected"]
        assert c["jackpot"] == c["awarded"]
        assert c["meters_after"] == c["meters_before"] + c["contributed"] + c["seeded"] - c["awarded"]
        for record in records:
            for e in record["meters"]:
                before, carry, unit = value[e["meter"]]
                assert e["before"] == before and e["unit"] == (specs[e["meter"]].share * stake).denominator
                assert Fraction(carry, unit) + specs[e["meter"]].share * stake == e["contributed"] + \
                    Fraction(e["carry"], e["unit"])
                hit = e["awarded"] > 0
                assert e["awarded"] == (before + e["contributed"] if hit else 0)
                assert e["after"] == (specs[e["meter"]].reset if hit else before + e["contributed"])
                value[e["meter"]] = (e["after"], e["carry"], e["unit"])
                t = totals[e["meter"]]
                t["contributed"] += e["contributed"]
                t["awarded"] += e["awarded"]
                t["rounds"] += 1
    for name, t in totals.items():  # nothing lost to rounding: the whole yen and the carry are exact
        _, carry, unit = value[name]
        assert t["contributed"] + Fraction(carry, unit) == t["rounds"] * specs[name].share * stake
    return totals


def test_rounds_carry_the_meters_and_conserve_the_money(tmp_path, metered):
    with Journal(tmp_path / "m.sqlite", batch="round") as j:
        bank = _rounds(j, metered, 300, rngcore.Generator(SEED, stream=4))
        rounds = j.events()
        totals = check_meters(rounds, metered)
        assert all(t["awarded"] > 0 for t in totals.values())  # every meter was won and reset
        assert bank.shown() == bank_of(rules_for(metered), j).shown()  # the journal says what the bank holds
        hit = next(r for r, evs in rounds.items() if conservation(evs)["awarded"])
        assert rc.replay(j, hit, SEED).equal
        shown = next(s for s in rc.recall(j, 300) if s["round"] == hit)
        assert {m["meter"] for m in shown["meters"]} == {"progressive", "mystery MINI", "mystery MAJOR"}
        paid = next(m for m in shown["settlements"] if m.get("jackpot"))
        assert paid["jackpot"] == sum(m["awarded"] for m in shown["meters"]) and paid["paid"] >= paid["jackpot"]


def test_a_void_round_neither_funds_nor_wins_a_meter(tmp_path, metered):
    with Journal(tmp_path / "v.sqlite") as j:
        g = rngcore.Generator(SEED, stream=6)
        bank = _rounds(j, metered, 3, g)
        before = bank.shown()
        r = Round(metered, j.next_round_id(), sink=j.append, meters=bank)
        r.place(Bet("ann", "spin", STAKE))
        r.close()
        r.generate(g)
        r.fault("the display failed before the outcome was determined")
        assert r.state.value == "VOID" and bank.shown() == before
        _rounds(j, metered, 3, g, bank)
        check_meters(j.events(), metered)


def test_a_meters_record_that_does_not_continue_the_bank_is_refused(metered):
    bank = MeterBank("slot:x", [MeterSpec("progressive", Fraction(3, 200), 500)])
    entries = bank.entries(STAKE, ["progressive"])
    assert entries == [{"meter": "progressive", "before": 500, "contributed": 0, "carry": 3, "unit": 20,
                        "awarded": 500, "seeded": 500, "after": 500}]
    bank.absorb(1, entries)
    later = bank.entries(STAKE, [])
    bank.absorb(2, later)
    with pytest.raises(RoundError, match="round 3: meter 'progressive' goes 500 -> 500 but stood at 500"):
        bank.absorb(3, [dict(later[0], before=500, after=500, contributed=1)])
    for damaged in ({"unit": 0}, {"carry": 20}, {"carry": -1}, {"unit": "20"}):  # a carry is 0 <= carry < unit
        with pytest.raises(RoundError, match="round 3: meter 'progressive' carries .* expected"):
            bank.absorb(3, [dict(bank.entries(STAKE, [])[0], **damaged)])
    with pytest.raises(RoundError, match="not a meter of the game"):
        bank.entries(STAKE, ["mystery GRAND"])


@pytest.mark.parametrize("stop", ["OUTCOME_DETERMINED", "meters", "settlement"])
def test_a_round_stopped_in_its_settlement_is_metered_once(tmp_path, metered, stop):
    """A round stopped at its determination point, after its meters record or after its settlement
    record is finished on restart against the meters the rounds before it left, metered exactly once."""
    path = tmp_path / "s.sqlite"

    class Stop(Exception):
        pass

    with Journal(path) as j:
        g = rngcore.Generator(SEED, stream=7)
        bank = _rounds(j, metered, 20, g)

        def sink(event):
            j.append(event)
            if event["kind"] == stop or event.get("state") == stop:
                raise Stop

        r = Round(metered, j.next_round_id(), sink=sink, meters=bank)
        r.place(Bet("ann", "spin", STAKE))
        r.close()
        r.generate(g)
        with pytest.raises(Stop):
            r.determine()
            r.settle()
    with Journal(path) as j:
        assert rc.recover(j) == [(21, "OUTCOME_DETERMINED" if stop == "OUTCOME_DETERMINED" else "SETTLEMENT",
                                  "DONE")]
        assert rc.recover(j) == []
        _rounds(j, metered, 5, g)  # and play on against the meters as the restart left them
        check_meters(j.events(), metered)


def test_a_table_of_metered_plays_writes_what_round_by_round_play_writes(tmp_path, metered):
    from harness.rounds.batch import Table

    with Journal(tmp_path / "table.sqlite", batch="group", window=7) as a, \
            Journal(tmp_path / "by-hand.sqlite", batch="group") as b:
        Table(rules_for(metered), [Bet("ann", "spin", STAKE)], journal=a).play(rngcore.Generator(SEED, stream=5), 30)
        table = Table(rules_for(metered), [Bet("ann", "spin", STAKE)], journal=a)  # a second table reads them
        table.play(rngcore.Generator(SEED, stream=8), 30)
        bank = _rounds(b, metered, 30, rngcore.Generator(SEED, stream=5))
        _rounds(b, metered, 30, rngcore.Generator(SEED, stream=8), bank)
        b.commit()
        assert list(a.rows()) == list(b.rows()) and a.verify().ok
        check_meters(a.events(), metered)


def test_rngcert_play_carries_the_meters_across_sessions_and_recall_shows_them(tmp_path, metered):
    script = tmp_path / "bets.toml"
    script.write_text(f'[[bets]]\ncustomer = "ann"\nbet = "spin"\nstake = {STAKE}\n')
    journal = tmp_path / "p.sqlite"
    runner = CliRunner()
    for stream, batch in (("1", "group"), ("2", "event")):
        done = runner.invoke(main, ["play", metered, "--journal", str(journal), "--bets", str(script), "--rounds",
                                    "40", "--seed", SEED, "--stream", stream, "--batch", batch, "--json"])
        assert done.exit_code == 0, done.output
        report = json.loads(done.output)
        t, jackpots = report["totals"], [m.get("jackpot", 0) for r in report["rounds"] for m in r["settlements"]]
        assert t["staked"] == t["returned"] + t["collected"] == 40 * STAKE
        assert t["meters"]["awarded"] == sum(jackpots) > 0 and t["meters"]["contributed"] > 0
    text = runner.invoke(main, ["play", metered, "--journal", str(journal), "--bets", str(script), "--rounds", "3",
                                "--seed", SEED, "--stream", "4"])
    assert text.exit_code == 0 and "; meters: contributed " in text.output
    killed = runner.invoke(main, ["play", metered, "--journal", str(journal), "--bets", str(script), "--rounds", "1",
                                  "--seed", SEED, "--stream", "3", "--fault-at", "OUTCOME_DETERMINED", "--json"])
    assert killed.exit_code == 0, killed.output
    report = json.loads(killed.output)["rounds"][0]
    assert report["state"] == "DONE" and [m["meter"] for m in report["meters"]][0] == "progressive"
    with Journal(journal) as j:
        check_meters(j.events(), metered)
    recalled = runner.invoke(main, ["journal", "recall", "--journal", str(journal), "--last", "10"])
    assert recalled.exit_code == 0 and "meter mystery MAJOR: " in recalled.output


def test_recall_and_replay_of_an_example_jackpot_model(tmp_path):
    path = tmp_path / "levels.toml"
    shutil.copy("examples/slot_jackpot_levels.toml", path)
    game = f"slot:{path}"
    stake = rules_for(game).bets["spin"].stake
    with Journal(tmp_path / "l.sqlite", batch="round") as j:
        g = rngcore.Generator(SEED, stream=1)
        bank = bank_of(rules_for(game), j)
        for _ in range(80):
            step(j, game, [Bet("ann", "spin", stake)], g, meters=bank)
        won = [s for s in rc.recall(j, 80) if any(m["awarded"] for m in s["meters"])]
        assert won and all(rc.replay(j, s["round"], SEED).equal for s in won)
        assert all("hits jackpot" in s["outcome"]["shown"] for s in won)


def test_the_fault_study_of_a_metered_model_carries_its_meters(tmp_path, metered):
    """A certification plan's fault study (faults before and after the point, two stopped rounds and a
    restart) on a metered model: every check passes and the meters continue through all of it."""
    from harness.rounds.study import fault_study

    path = tmp_path / "study.sqlite"
    result = fault_study(rules_for(metered), [Bet("ann", "spin", STAKE)], rngcore.Generator(SEED, stream=9), path)
    assert all(c["ok"] for c in result["checks"]), result["checks"]
    with Journal(path) as j:
        rounds = j.events()
    check_meters(rounds, metered)
    unsettled = [e for evs in rounds.values() for e in evs if e["kind"] == "unsettled"]
    assert unsettled and all(e["customer"] == "ann" for e in unsettled)


def test_mystery_levels_beyond_one_draw_are_refused_naming_the_section(tmp_path):
    """The mystery outcome is one bounded draw below the levels' common denominator: above 2^32 - 1
    the model is refused (exit 2, one line), not drawn another way."""
    path = tmp_path / "wide.toml"
    path.write_text(METERED.replace('probability = "2/39"', 'probability = "1/4294967311"'))
    with pytest.raises(RoundError, match="mystery: the levels' probabilities have the common denominator "
                                         "30,064,771,177"):
        rules_for(f"slot:{path}")
    script = tmp_path / "bets.toml"
    script.write_text(f'[[bets]]\ncustomer = "ann"\nbet = "spin"\nstake = {STAKE}\n')
    done = CliRunner().invoke(main, ["play", f"slot:{path}", "--journal", str(tmp_path / "w.sqlite"),
                                     "--bets", str(script)])
    assert done.exit_code == 2 and "common denominator" in done.output and "Traceback" not in done.output


# ------------------------------------------------------------------ stops at every state --

# a tumble game with scatters and free spins (tests/test_slot_cascade_features.py) and a mystery level
TUMBLE = CASCADE_FREE_SPINS.replace("retrigger = false", "retrigger = { 2 = 1 }") + """
[[mystery]]
name = "TUMBLE"
probability = "1/9"
contribution = "1/40"
reset = 25
"""
STOPS = ["BETTING_OPEN", "BET", "BETTING_CLOSED", "OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT",
         "METERS", "DONE"]
QUICK = {("METERS", "after-commit"), ("OUTCOME_DETERMINED", "before-commit")}
GRID = [(t, h) if (t, h) in QUICK else pytest.param(t, h, marks=pytest.mark.slow)
        for t in STOPS for h in ("after-commit", "before-commit", "exception")]


@pytest.mark.parametrize("target,how", GRID)
def test_a_metered_round_stopped_at_every_state_is_finished_with_its_meters(tmp_path, metered, target, how):
    """A real process stopped (SIGKILL after the record's commit, SIGKILL between its write and its commit,
    an exception) at each state of a metered play, and at its meters record: the restart finishes it by
    5-1 and the meters are those of an unbroken run (two default cases; every one under -m slow)."""
    import os
    import signal
    import subprocess
    import sys

    from tests.test_rounds_journal import CHILD, check_recovered

    script = tmp_path / "child.py"
    script.write_text(CHILD.format(bets={metered: [("ann", "spin", STAKE, None)]}, seed=SEED))
    path = tmp_path / "killed.sqlite"
    done = subprocess.run([sys.executable, str(script), str(path), metered, target, how, "event"],
                          env=dict(os.environ, PYTHONSAFEPATH="1"), capture_output=True, text=True, timeout=120)
    assert done.returncode in (-signal.SIGKILL, 1), done.stderr
    finished, rounds = check_recovered(path, metered)
    check_meters(rounds, metered)
    if how == "after-commit" and target != "DONE":
        (round_id, _, final), = finished
        determined = STOPS.index(target) >= STOPS.index("OUTCOME_DETERMINED")
        assert round_id == 2 and final == ("DONE" if determined else "VOID")
    if target == "METERS" and how == "after-commit":  # found with its meters record: metered once, not again
        assert finished == [(2, "SETTLEMENT", "DONE")]
        assert sum(e["kind"] == "meters" for e in rounds[2]) == 1


@pytest.mark.slow
def test_a_thousand_random_power_losses_in_metered_plays(tmp_path):
    """1,000 random stop points (model, round, record, its meters record too; before or after its commit)
    in plays of four metered models (a progressive with mystery levels, scatter jackpot levels, scatter
    and line jackpot levels, a tumble game with free spins and a mystery level), each followed by a
    restart: the invariants of the rounds and of the meters hold, a second restart finds nothing, and
    every settled play pays the award its journaled draws re-derive plus its meters' awards."""
    import random

    from tests.test_rounds_journal import check_recovered, power_loss_trial

    games = []
    for name, text in (("metered", METERED), ("tumble", TUMBLE)):
        (tmp_path / f"{name}.toml").write_text(text)
        games.append(f"slot:{tmp_path / name}.toml")
    for name in ("slot_jackpot_levels", "slot_jackpot_lines"):
        shutil.copy(f"examples/{name}.toml", tmp_path / f"{name}.toml")
        games.append(f"slot:{tmp_path / name}.toml")
    rnd = random.Random(29)
    stopped_at = {}
    for trial in range(1000):
        game = rnd.choice(games)
        rules = rules_for(game)
        spin = [Bet("ann", "spin", rules.bets["spin"].stake)]
        path = tmp_path / f"{trial}.sqlite"
        power_loss_trial(rnd, path, trial, 4, lambda j, g: play_metered(rules, j, g, spin))
        finished, rounds = check_recovered(path, game)
        check_meters(rounds, game)
        for _, state, _ in finished:
            stopped_at[state] = stopped_at.get(state, 0) + 1
        for events in rounds.values():
            outcome = next((e for e in events if e["kind"] == "outcome"), None)
            settled = [e for e in events if e["kind"] == "settlement"]
            if outcome is None or not settled or settled[0]["result"] == "void":
                continue
            play_ = rules.engine.round_dealt("play", outcome["record"]).features
            jackpot = sum(m["awarded"] for m in next(e for e in events if e["kind"] == "meters")["meters"])
            assert settled[0]["returned"] + settled[0]["paid"] == play_["award"] + jackpot
    # the restarts found rounds stopped before the point (void) and in their settlement (metered there)
    assert stopped_at.get("SETTLEMENT", 0) > 20 and stopped_at.get("OUTCOME_GENERATION", 0) > 20
