"""``rngcert slot`` through CliRunner: verdicts of the shipped examples, the
JSON schema, and a clear message (exit 2, no traceback) for every bad model."""
from __future__ import annotations

import json
import pathlib
import re
import textwrap

import pytest
from click.testing import CliRunner

from harness.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SEED = "5a" * 32

# A 5-reel game small enough to analyse in milliseconds.
GAME = textwrap.dedent("""\
    name = "five"
    [window]
    rows = 3
    reels = 5
    [bet]
    per_line = 1
    paylines = [[2, 2, 2, 2, 2], [1, 1, 1, 1, 1], [3, 3, 3, 3, 3]]
    [symbols.A]
    pays = { 3 = 5, 4 = 20, 5 = 100 }
    [symbols.K]
    pays = { 3 = 2, 4 = 10, 5 = 50 }
    [symbols.Q]
    pays = { 3 = 1, 4 = 5, 5 = 25 }
    [symbols.W]
    kind = "wild"
    [symbols.S]
    kind = "scatter"
    pays = { 3 = 2 }
    [reels]
    base = [
      "A K Q Q K A Q K W Q K Q A K Q S K Q K Q",
      "K Q A Q K Q K A Q W K Q K S Q K Q A Q K",
      "Q K Q A K Q K Q A K W Q K Q S K A Q K Q",
      "A Q K Q K A Q K Q K Q W K Q A K S Q K Q",
      "K Q K A Q K Q A K Q K Q W K Q A Q S K Q",
    ]
    [free_spins]
    spins = { 3 = 5 }
    retrigger = true
    """)


def run(*args):
    return CliRunner().invoke(main, ["slot", *map(str, args)])


def write(tmp_path, text, name="game.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_compliant_example_passes_jp():
    result = run(EXAMPLES / "slot_compliant.toml")
    assert result.exit_code == 0, result.output
    assert "PASS  jp-3-3" in result.output and "PASS  jp-4-3" in result.output
    assert "verdict: PASS" in result.output


def test_below_90_example_fails_jp_rtp_but_passes_nv():
    result = run(EXAMPLES / "slot_below_90.toml")
    assert result.exit_code == 1, result.output
    assert "FAIL  jp-4-3" in result.output and "PASS  jp-3-3" in result.output
    assert run(EXAMPLES / "slot_below_90.toml", "--profile", "nv").exit_code == 0


def test_rare_award_example_fails_the_one_in_100_million_rule():
    result = run(EXAMPLES / "slot_rare_award.toml", "--json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    by_rule = {c["rule"]: c for c in report["checks"]}
    assert by_rule["jp-3-3"]["verdict"] == "fail" and by_rule["jp-4-3"]["verdict"] == "pass"
    assert report["min_win_outcome"] == "5 x DIAMOND"
    # one DIAMOND on each of five 128-stop reels, 10 lines: 10 / 128**5 exactly
    assert report["min_win_probability"] == "5/17179869184"
    for profile in ("nj", "gli11"):
        res = run(EXAMPLES / "slot_rare_award.toml", "--profile", profile, "--json")
        assert res.exit_code == 1
        checks = json.loads(res.stdout)["checks"]
        assert any(c["verdict"] == "fail" for c in checks)
    gli = json.loads(run(EXAMPLES / "slot_rare_award.toml", "--profile", "gli11", "--json").stdout)
    assert gli["checks"][0]["failing"] == ["5 x DIAMOND"]


def test_json_schema(tmp_path):
    result = run(write(tmp_path, GAME), "--json")
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    for key in ("rtp", "rtp_float", "parts", "hit_frequency", "min_win_probability", "min_win_outcome", "checks"):
        assert key in report, key
    assert re.fullmatch(r"\d+/\d+", report["rtp"])
    assert re.fullmatch(r"\d+/\d+", report["min_win_probability"])
    assert set(report["parts"]) == {"lines", "scatters", "feature", "progressive"}
    num, den = map(int, report["rtp"].split("/"))
    assert report["rtp_float"] == pytest.approx(num / den)
    for check in report["checks"]:
        assert {"rule", "verdict", "citation"} <= set(check)
        assert check["verdict"] in ("pass", "fail")
    passed = all(c["verdict"] == "pass" for c in report["checks"])
    assert report["verdict"] == ("pass" if passed else "fail")
    assert (result.exit_code == 0) == passed


def test_simulation_agrees_with_exact(tmp_path):
    result = run(write(tmp_path, GAME), "--simulate", 200_000, "--seed", SEED, "--json")
    report = json.loads(result.stdout)
    sim = report["simulation"]
    assert sim["plays"] == 200_000
    assert sim["rtp_exact_inside"] and sim["hit_frequency_exact_inside"]
    lo, hi = sim["rtp_interval_999"]
    assert lo <= report["rtp_float"] <= hi
    # replay: the same seed gives the same run
    again = json.loads(run(write(tmp_path, GAME), "--simulate", 200_000, "--seed", SEED, "--json").stdout)
    assert again["simulation"]["rtp"] == sim["rtp"]


def test_rtp_of_100_percent_or_more_is_reported_failing(tmp_path):
    text = GAME.replace("pays = { 3 = 5, 4 = 20, 5 = 100 }", "pays = { 3 = 500, 4 = 2000, 5 = 10000 }")
    result = run(write(tmp_path, text))
    assert result.exit_code == 1, result.output
    assert "FAIL  jp-4-3" in result.output
    assert "Traceback" not in result.output


BAD = [
    ("unknown symbol", lambda t: t.replace('"Q K Q A K Q K Q A K W Q K Q S K A Q K Q"',
                                           '"Q K Q A K Q K Q A K W Q K Q S K ZZ Q K Q"'),
     "reels.base: reel 3, position 17: unknown symbol 'ZZ'"),
    ("payline row out of window", lambda t: t.replace("[1, 1, 1, 1, 1]", "[1, 1, 1, 4, 1]"),
     "bet.paylines, line 2: reel 4 points at row 4, but the window has 3 rows"),
    ("six of a kind on five reels", lambda t: t.replace("pays = { 3 = 5, 4 = 20, 5 = 100 }",
                                                       "pays = { 3 = 5, 4 = 20, 6 = 100 }"),
     "symbols.A.pays: pay for 6 of a kind on 5 reels: impossible"),
    ("empty reel", lambda t: t.replace('"K Q A Q K Q K A Q W K Q K S Q K Q A Q K"', '""'),
     "reels.base: reel 2: is empty"),
    ("negative pay", lambda t: t.replace("pays = { 3 = 2, 4 = 10, 5 = 50 }", "pays = { 3 = -2, 4 = 10, 5 = 50 }"),
     "symbols.K.pays: pay for count 3 is -2"),
    ("divergent retrigger", lambda t: t.replace("spins = { 3 = 5 }\nretrigger = true",
                                               "spins = { 3 = 5 }\nretrigger = { 1 = 30 }"),
     "free_spins.retrigger: each free spin awards on average"),
    ("TOML syntax error", lambda t: t.replace("per_line = 1", "per_line = = 1"),
     "TOML syntax: Invalid value (at line 6, column 12)"),
    ("missing section", lambda t: t.replace("[window]\nrows = 3\nreels = 5\n", ""),
     "window: missing [window] section"),
    ("missing key", lambda t: t.replace("rows = 3\n", ""), "window: missing 'rows'"),
    ("float contribution", lambda t: t + '[progressive]\nsymbol = "A"\ncount = 5\ncontribution = 0.01\nreset = 100\n',
     'progressive.contribution: write it as a string'),
    ("progressive never won", lambda t: t.replace("[symbols.W]", "[symbols.Z]\n[symbols.W]")
     + '[progressive]\nsymbol = "Z"\ncount = 5\ncontribution = "0.01"\nreset = 100\n',
     "progressive: 5 x Z can never appear on a payline of the base game"),
    ("nothing pays", lambda t: re.sub(r"pays = \{[^}]*\}\n", "", t).replace("[free_spins]\nspins = { 3 = 5 }\nretrigger = true\n", ""),
     "symbols: nothing pays"),
    ("key after a section header", lambda t: t.replace('name = "five"\n', "") + 'name = "five"\n',
     "did you mean the top-level 'name'?"),
    # Money limits: every amount and the largest win of one play at most 2**36 credits.
    ("pay of 2**64 or more", lambda t: t.replace("pays = { 3 = 5, 4 = 20, 5 = 100 }", "pays = { 3 = 99999999999999999999 }"),
     "symbols.A.pays: pay for count 3 is 99999999999999999999; it must be at most 2**36 = 68,719,476,736 credits"),
    ("bet per line 2**62", lambda t: t.replace("per_line = 1", "per_line = 4611686018427387904"),
     "bet.per_line: must be at most 2**36 = 68,719,476,736 credits"),
    ("total bet over the limit", lambda t: t.replace("per_line = 1", "per_line = 40000000000"),
     "bet: total bet = per_line 40,000,000,000 x 3 paylines = 120,000,000,000 credits exceeds the limit 2**36"),
    ("largest play win over the limit", lambda t: t.replace("per_line = 1", "per_line = 100000000"),
     "largest win of one play: 3 paylines x 100 (symbols.A.pays) x 100,000,000 (bet.per_line) + "
     "2 (symbols.S.pays) x 300,000,000 (total bet) + 5 (free_spins.spins) x 1 (free_spins.multiplier) x "
     "30,600,000,000 (that spin win) = 183,600,000,000 credits exceeds the limit 2**36"),
    ("multiplier over the limit", lambda t: t.replace("retrigger = true", "retrigger = true\nmultiplier = 68719476737"),
     "free_spins.multiplier: must be at most 2**36 = 68,719,476,736 credits"),
    ("progressive reset over the limit",
     lambda t: t + '[progressive]\nsymbol = "A"\ncount = 5\ncontribution = "0.01"\nreset = 18446744073709551616\n',
     "progressive.reset: must be at most 2**36 = 68,719,476,736 credits"),
    ("free spins award over the runaway guard", lambda t: t.replace("spins = { 3 = 5 }", "spins = { 3 = 5000000000 }"),
     "free_spins.spins: number of free spins for count 3 is 5000000000; it must be at most 100,000,000"),
]


@pytest.mark.parametrize("label,mutate,message", BAD, ids=[b[0] for b in BAD])
def test_bad_model_gets_a_clear_message(tmp_path, label, mutate, message):
    text = mutate(GAME)
    assert text != GAME, "the mutation must change the model"
    path = write(tmp_path, text)
    result = run(path)
    assert result.exit_code == 2, result.output
    assert message in result.output, result.output
    assert str(path) in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("per_line,pays", [(4611686018427387904, "{ 3 = 5, 4 = 20, 5 = 100 }"),
                                           (1, "{ 3 = 99999999999999999999 }")])
def test_money_beyond_64_bits_is_refused_before_simulating(tmp_path, per_line, pays):
    # Once: a traceback (pays) or a simulated RTP of 0.001 with the exact 0.608 "OUTSIDE" (per_line).
    text = GAME.replace("per_line = 1", f"per_line = {per_line}").replace("pays = { 3 = 5, 4 = 20, 5 = 100 }",
                                                                        f"pays = {pays}")
    result = run(write(tmp_path, text), "--simulate", 1000, "--seed", SEED)
    assert result.exit_code == 2, result.output
    assert "2**36" in result.output and "Simulation" not in result.output and "OUTSIDE" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_largest_play_win_at_the_limit_is_accepted(tmp_path):
    from harness.slot.model import MAX_PLAY_WIN, largest_play_win, parse_model

    # GAME: 3 lines x 100 x b + 2 x 3b per spin, 1 + 5 free spins: 1836 b.
    assert largest_play_win(parse_model(GAME))[0] == 1836
    per_line = MAX_PLAY_WIN // 1836
    at_limit = GAME.replace("per_line = 1", f"per_line = {per_line}")
    assert largest_play_win(parse_model(at_limit))[0] == 1836 * per_line <= MAX_PLAY_WIN
    result = run(write(tmp_path, at_limit), "--simulate", 1000, "--seed", SEED, "--json")
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    sim = report["simulation"]
    assert sim["rtp_exact_inside"] and 0 < sim["max_win_credits"] <= MAX_PLAY_WIN
    assert report["model"]["bet_per_line"] == per_line
    over = GAME.replace("per_line = 1", f"per_line = {per_line + 1}")
    result = run(write(tmp_path, over, "over.toml"))
    assert result.exit_code == 2 and "largest win of one play" in result.output


def _interrupt_after_first_chunk(monkeypatch):
    from harness.progress import Progress

    report = Progress.__call__

    def stop(self, done, total=None):  # Ctrl-C at the simulation's first progress report (after the first chunk)
        if self.label != "simulating":  # the exact analysis reports progress too
            return report(self, done, total)
        raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "__call__", stop)


def test_interrupted_simulation_exits_130_and_says_the_report_is_not_final(tmp_path, monkeypatch):
    _interrupt_after_first_chunk(monkeypatch)
    path = write(tmp_path, GAME)
    result = run(path, "--simulate", 5_000_000, "--seed", SEED)
    assert result.exit_code == 130, result.output
    assert "Simulation (1,048,576 plays" in result.output  # the first chunk of 2**20 spins
    assert "INTERRUPTED: figures cover the plays completed before Ctrl-C" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith(
        "verdict: INCOMPLETE (the simulation was interrupted")
    assert "verdict: PASS" not in result.output
    assert "interrupted after 1,048,576 of 5,000,000 spins" in result.stderr
    report = json.loads(run(path, "--simulate", 5_000_000, "--seed", SEED, "--json").stdout)
    assert report["interrupted"] is True and report["complete"] is False and report["verdict"] == "incomplete"
    assert report["simulation"]["interrupted"] is True and report["simulation"]["plays"] == 1 << 20
    monkeypatch.undo()
    finished = json.loads(run(path, "--simulate", 1000, "--seed", SEED, "--json").stdout)
    assert finished["interrupted"] is False and finished["complete"] is True


def test_simulation_interrupted_before_two_plays_still_exits_130(tmp_path, monkeypatch):
    import harness.slot.simulate as sim

    def interrupted(model, n, generator, *, progress=None, chunk=sim.CHUNK):
        return sim.SimulationResult(plays=0, interrupted=True)

    monkeypatch.setattr(sim, "simulate", interrupted)
    result = run(write(tmp_path, GAME), "--simulate", 100, "--seed", SEED)
    assert result.exit_code == 130, result.output
    assert "Simulation INTERRUPTED before two plays were complete" in result.output
    assert "verdict: INCOMPLETE" in result.output


def test_missing_file_and_bad_invocations(tmp_path):
    result = run(tmp_path / "nope.toml")
    assert result.exit_code == 2 and "cannot read the model" in result.output
    path = write(tmp_path, GAME)
    assert run(path, "--profile", "xx").exit_code == 2
    result = run(path, "--seed", SEED)
    assert result.exit_code == 2 and "--seed" in result.output and "--simulate" in result.output
    assert run(path, "--simulate", 0).exit_code == 2
    assert run(path, "--simulate", 10, "--seed", "abc").exit_code == 2


def test_profile_choices_come_from_the_profiles_alone():
    """--help lists the profiles from harness.slot.profiles; its sentence names none by hand."""
    import re

    from click.testing import CliRunner

    from harness.cli import main
    from harness.slot.profiles import PROFILE_NAMES

    option = next(p for p in main.commands["slot"].params if p.name == "profile")
    assert tuple(option.type.choices) == PROFILE_NAMES
    words = set(re.findall(r"[a-z0-9]+", option.help))
    assert not words & set(PROFILE_NAMES), option.help
    assert "[" + "|".join(PROFILE_NAMES) + "]" in CliRunner().invoke(main, ["slot", "--help"]).output
