"""The slot loader's edges: malformed and oversized models end in one located
line and exit 2, never a traceback; size limits are documented and checked
before the analysis starts; the model can come from standard input."""
from __future__ import annotations

import pathlib
import re
import time

import pytest

from harness.slot import limits
from harness.slot.errors import MAX_MESSAGE, ModelError
from harness.slot.exact import analyse
from harness.slot.model import load_model, parse_model
from test_slot_cli import GAME, run, write

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
PROGRESSIVE = '[progressive]\nsymbol = "A"\ncount = 5\ncontribution = "0.01"\nreset = 100\n'


def _fails_in_one_line(tmp_path, text: str, message: str) -> str:
    result = run(write(tmp_path, text))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output[:2000]
    assert message in lines[0], lines[0]
    return lines[0]


BAD = [
    ("deeply nested array", lambda t: "x = " + "[" * 3000 + "]" * 3000 + "\n" + t,
     "TOML syntax: arrays or inline tables nested too deeply"),
    ("deeply nested inline table", lambda t: "x = " + "{ a = " * 2000 + "1" + " }" * 2000 + "\n" + t,
     "TOML syntax: arrays or inline tables nested too deeply"),
    ("table inside a reel strip", lambda t: t.replace('  "A K Q Q K A Q K W Q K Q A K Q S K Q K Q",',
                                                      '  ["A", { x = 1 }, "K"],'),
     "reels.base: reel 1, position 2: unknown symbol {'x': 1}"),
    ("list as the progressive symbol", lambda t: t + PROGRESSIVE.replace('symbol = "A"', 'symbol = ["A"]'),
     "progressive.symbol: unknown symbol ['A']"),
    ("superscript digit in a fraction", lambda t: t + PROGRESSIVE.replace('"0.01"', '"1/²"'),
     "progressive.contribution: cannot read '1/²' as an exact decimal"),
    ("other scripts' digits in a decimal", lambda t: t + PROGRESSIVE.replace('"0.01"', '"٠.٠١"'),
     "progressive.contribution: cannot read"),
    ("4,400-digit decimal", lambda t: t + PROGRESSIVE.replace('"0.01"', '"0.' + "1" * 4400 + '"'),
     "progressive.contribution: '0.111"),
    ("4,400-digit integer", lambda t: t + PROGRESSIVE.replace("reset = 100", "reset = " + "7" * 4400),
     "TOML syntax: a number at line 34 has too many digits to read"),
    ("4,400-digit count", lambda t: t.replace("pays = { 3 = 2 }", "pays = { " + "3" * 4400 + " = 2 }"),
     "symbols.S.pays: key '333"),
    ("superscript count", lambda t: t.replace("pays = { 3 = 2 }", 'pays = { "³" = 2 }'),
     "symbols.S.pays: key '³' is not a count"),
    ("85 KB unknown key", lambda t: t.replace("[symbols.W]\n", "[symbols.W]\n" + "k" * 85000 + " = 1\n"),
     "symbols.W: unknown key 'kkk"),
    ("85 KB symbol name in a strip", lambda t: t.replace('  "A K Q Q K A Q K W Q K Q A K Q S K Q K Q",',
                                                         '  "' + "Z" * 85000 + ' K Q",'),
     "reels.base: reel 1, position 1: unknown symbol 'ZZZ"),
    ("symbol name with a line break", lambda t: t.replace("[symbols.W]", '[symbols."W\\nX"]'),
     "symbols.'W\\nX': symbol names are 1 to 64 letters"),
    ("paylines over the limit", lambda t: re.sub(r"paylines = \[.*\]", "paylines = [" + ", ".join(
        ["[1, 1, 1, 1, 1]"] * (limits.MAX_PAYLINES + 1)) + "]", t),
     "bet.paylines: 65,536 paylines; at most 65,535 are supported"),
    ("reel strip over the stop limit", lambda t: t.replace('  "A K Q Q K A Q K W Q K Q A K Q S K Q K Q",',
                                                           '  "' + "A K " * 50001 + '",'),
     "reels.base: reel 1: has more than 100,000 stops, the limit"),
    ("reel strip list over the stop limit", lambda t: t.replace('  "A K Q Q K A Q K W Q K Q A K Q S K Q K Q",',
                                                                "  [" + '"A", ' * 100_001 + "],"),
     "reels.base: reel 1: has more than 100,000 stops, the limit"),
]


@pytest.mark.parametrize("label,mutate,message", BAD, ids=[b[0] for b in BAD])
def test_malformed_model_ends_in_one_located_line(tmp_path, label, mutate, message):
    text = mutate(GAME)
    assert text != GAME
    line = _fails_in_one_line(tmp_path, text, message)
    assert len(line) <= MAX_MESSAGE + 200, len(line)


def test_model_error_is_always_one_short_line():
    err = ModelError("symbols.A\nB", "x" * 10_000 + "\n" + "y")
    assert "\n" not in str(err) and len(str(err)) <= MAX_MESSAGE and str(err).endswith("…")


def test_file_beyond_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "huge.toml"
    with path.open("wb") as f:  # a sparse file: what a 10**9-stop reel would be, and more
        f.truncate(limits.MAX_MODEL_BYTES + 1)
    started = time.perf_counter()
    _fails_in_one_line(tmp_path, "", "")  # (a trivially bad model: warms the CLI)
    result = run(path)
    assert result.exit_code == 2 and "larger than 16,777,216 bytes" in result.output, result.output
    assert time.perf_counter() - started < 10


def test_largest_model_file_is_refused_in_seconds(tmp_path):
    # 16 MiB of one reel strip (8 million stops, the most a file within the size limit can hold)
    head = GAME.split("[reels]")[0]
    strip = "A " * ((limits.MAX_MODEL_BYTES - len(head) - 100) // 2)
    text = head + '[reels]\nbase = ["' + strip + '", "A", "A", "A", "A"]\n'
    assert len(text) <= limits.MAX_MODEL_BYTES
    started = time.perf_counter()
    _fails_in_one_line(tmp_path, text, "reels.base: reel 1: has more than 100,000 stops")
    assert time.perf_counter() - started < 30


def test_analysis_beyond_the_cost_limit_is_refused_before_it_starts(tmp_path):
    # 8 rows x 5 reels of 3,600 stops: 18,000 stops x 2**8 = 4,608,000 table entries per stage.
    strip = " ".join(["A", "K", "Q", "W", "S"] * 720)
    text = GAME.replace("rows = 3", "rows = 8")
    text = re.sub(r"base = \[.*?\]", "base = [" + ", ".join([f'"{strip}"'] * 5) + "]", text, flags=re.S)
    model = parse_model(text)
    cost = limits.estimate(model)
    assert cost.table_entries == 2 * 18_000 * 256 and not cost.within_limits  # base and feature stages
    started = time.perf_counter()
    with pytest.raises(ModelError, match=r"^reels: too large to analyse exactly: .* 9,216,000 table entries"):
        analyse(model)
    assert time.perf_counter() - started < 1
    line = _fails_in_one_line(tmp_path, text, "too large to analyse exactly")
    assert "docs/slot_model.md, Limits" in line


def test_limits_are_documented_as_checked():
    section = DOC.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for figure in (f"{limits.MAX_MODEL_BYTES:,} bytes", f"{limits.MAX_PAYLINES:,}", f"{limits.MAX_REEL_STOPS:,}",
                   f"{limits.MAX_TABLE_ENTRIES:,} table entries", f"{limits.MAX_NAME} characters",
                   f"| {limits.MAX_DIGITS} |", f"{limits.MAX_ROWS} × {limits.MAX_REELS}",
                   f"{limits.MAX_SYMBOLS}", "2^64 − 1"):
        assert figure in section, figure
    for name, entries in (("slot_compliant.toml", 8000), ("slot_below_90.toml", 1280),
                          ("slot_rare_award.toml", 5120)):
        assert limits.estimate(load_model(ROOT / "examples" / name)).table_entries == entries
        assert f"{entries:,}" in section
    assert limits.MAX_SIMULATED_PLAYS == 2**64 - 1


@pytest.mark.parametrize("spins", [10**23, 2**64])
def test_simulate_beyond_the_play_counter_is_refused(tmp_path, spins):
    result = run(write(tmp_path, GAME), "--simulate", spins)
    assert result.exit_code == 2, result.output
    assert "--simulate" in result.output and "18446744073709551615" in result.output
    from harness.slot.simulate import simulate, simulate_numpy

    with pytest.raises(ValueError, match="from 1 to 2\\*\\*64 - 1"):
        simulate(parse_model(GAME), spins, None)
    with pytest.raises(ValueError, match="from 1 to 2\\*\\*64 - 1"):
        simulate_numpy(parse_model(GAME), spins, None)


def test_model_from_standard_input():
    from click.testing import CliRunner

    from harness.cli import main

    from_file = run(ROOT / "examples" / "slot_below_90.toml", "--json")
    from_stdin = CliRunner().invoke(main, ["slot", "-", "--json"],
                                    input=(ROOT / "examples" / "slot_below_90.toml").read_bytes())
    assert from_stdin.exit_code == from_file.exit_code == 1, from_stdin.output
    strip = re.compile(r'"(analysis_seconds|source|model_file)": [^\n]*')
    assert strip.sub("", from_stdin.output) == strip.sub("", from_file.output)
    bad = CliRunner().invoke(main, ["slot", "-"], input="[window]\nrows = 0\n")
    assert bad.exit_code == 2 and "stdin: window.rows: must be at least 1" in bad.output


def test_numbers_beyond_the_int_string_limit_from_python_are_shown_short():
    from harness.slot.model import model_from_dict

    with pytest.raises(ModelError, match=r"^window.rows: must be at most 8, got a whole number of about 5,000 digits$"):
        model_from_dict({"window": {"rows": 10**5000, "reels": 5}})


@pytest.mark.parametrize("engine", ["auto", "python"])
def test_exact_analysis_reports_progress_in_estimated_units(engine):
    model = parse_model(GAME)
    calls = []
    analysis = analyse(model, engine=engine, progress=lambda done, total: calls.append((done, total)))
    total = 2 * limits.estimate(model).table_entries
    assert calls and all(t == total for _, t in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] == total
    assert len(calls) >= 2 * model.reels  # every reel's tables, for each stage
    assert analysis.rtp == analyse(model, engine=engine).rtp
