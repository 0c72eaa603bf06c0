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
    assert "Verdict: PASS" in result.output


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
    assert by_rule["jp-3-3"]["pass"] is False and by_rule["jp-4-3"]["pass"] is True
    assert report["min_win_outcome"] == "5 x DIAMOND"
    # one DIAMOND on each of five 128-stop reels, 10 lines: 10 / 128**5 exactly
    assert report["min_win_probability"] == "5/17179869184"
    for profile in ("nj", "gli11"):
        res = run(EXAMPLES / "slot_rare_award.toml", "--profile", profile, "--json")
        assert res.exit_code == 1
        checks = json.loads(res.stdout)["checks"]
        assert any(not c["pass"] for c in checks)
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
        assert {"rule", "pass", "citation"} <= set(check)
        assert isinstance(check["pass"], bool)
    assert report["pass"] == all(c["pass"] for c in report["checks"])
    assert (result.exit_code == 0) == report["pass"]


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


def test_missing_file_and_bad_invocations(tmp_path):
    result = run(tmp_path / "nope.toml")
    assert result.exit_code == 2 and "cannot read the model" in result.output
    path = write(tmp_path, GAME)
    assert run(path, "--profile", "xx").exit_code == 2
    result = run(path, "--seed", SEED)
    assert result.exit_code == 2 and "--seed" in result.output and "--simulate" in result.output
    assert run(path, "--simulate", 0).exit_code == 2
    assert run(path, "--simulate", 10, "--seed", "abc").exit_code == 2
