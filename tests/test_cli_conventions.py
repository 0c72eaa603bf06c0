"""Conventions every ``rngcert`` command shares: the report vocabulary, closed
pipes, interrupts (Ctrl-C and SIGTERM, also during start-up), one-line errors,
bounded counts, the environment check, progress only on a terminal,
``--output``, ``-`` for stdin, and shell completion."""
import io
import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

import rngcore
from harness import verdict
from harness.cli import main
from harness.progress import Progress
from tests.signal_support import signal_when_entered

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
SLOT = "examples/slot_compliant.toml"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN_CLI = [sys.executable, "-c", "from harness.cli import main; main()"]


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="rngcert", **kwargs)


# --- the report vocabulary -------------------------------------------------------------

def test_outcome_rules():
    assert verdict.Outcome.judge(True).fields() == {"verdict": "pass", "complete": True, "interrupted": False}
    assert verdict.Outcome.judge(False).verdict == "fail"
    stopped = verdict.Outcome.judge(True, interrupted=True)
    assert (stopped.verdict, stopped.complete, stopped.exit_code) == ("incomplete", False, 130)
    short = verdict.Outcome.judge(True, complete=False, reason="too few")
    assert (short.verdict, short.exit_code, short.line()) == ("incomplete", 1, "verdict: INCOMPLETE (too few)")
    assert verdict.Outcome.judge(False).exit_code == 1 and verdict.Outcome.judge(True).exit_code == 0
    with pytest.raises(ValueError):
        verdict.Outcome("ok")
    with pytest.raises(ValueError):
        verdict.Outcome("pass", complete=False)


REPORTS = [
    ("selftest",),
    ("test", "deck", "--samples", "1000", "--seed", SEED),
    ("game", "craps"),
    ("game", "roulette-single", "--simulate", "100000", "--seed", SEED),
    ("slot", SLOT),
]


@pytest.mark.parametrize("args", REPORTS, ids=" ".join)
def test_every_report_speaks_one_vocabulary(args):
    as_json = run(*args, "--json")
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    assert list(report)[:3] == ["verdict", "complete", "interrupted"]
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("pass", True, False)
    for old in ("pass", "passed", "ok"):
        assert old not in report
    # One provenance block (issue 16, item 6): the build always, the generator where one of ours drew.
    assert report["build"]["core_sha256"] == rngcore.BUILD_INFO.sha256 and report["build"]["version"]
    assert "provenance" in report
    if "--seed" in args:
        assert report["provenance"]["engine"] == "chacha20"
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert text.stdout.rstrip().splitlines()[-1].startswith("verdict: PASS")


def test_simulation_verdict_replaces_ok():
    report = json.loads(run("game", "big-six", "--simulate", "50000", "--seed", SEED, "--json").stdout)
    assert report["simulation"]["verdict"] == "pass" and "ok" not in report["simulation"]


def test_a_simulation_too_short_to_test_is_incomplete_not_agreeing():
    result = run("game", "craps", "--simulate", "10", "--seed", SEED)
    assert result.exit_code == 1, result.output
    assert "agrees" not in result.output
    assert result.stdout.rstrip().splitlines()[-1].startswith("verdict: INCOMPLETE (10 rounds are too few")
    report = json.loads(run("game", "craps", "--simulate", "10", "--seed", SEED, "--json").stdout)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, False)
    assert report["simulation"]["verdict"] == "incomplete"


# --- closed pipes ----------------------------------------------------------------------

PIPED = [
    ("game", "craps"),
    ("game", "craps", "--json"),
    ("selftest",),
    ("slot", SLOT),
    ("draw", "roulette-single", "-n", "100000"),
    ("stream", "--bytes", "10000000"),
]


@pytest.mark.parametrize("args", PIPED, ids=" ".join)
def test_a_closed_pipe_ends_quietly_with_exit_0(args):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: every write fails with EPIPE
    try:
        result = subprocess.run(RUN_CLI + list(args), stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT,
                                timeout=120)
    finally:
        os.close(write_end)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""


def test_head_reads_one_line_and_the_command_exits_0():
    script = f"set -o pipefail; {' '.join(RUN_CLI[:2])} 'from harness.cli import main; main()' game craps | head -1"
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("craps") and result.stderr == ""


def test_a_broken_pipe_under_clirunner_exits_0(monkeypatch):
    import harness.commands.game as game_module

    def closed(text, output=None):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(game_module, "emit", closed)
    result = run("game", "craps")
    assert result.exit_code == 0 and result.output == ""


# --- interrupts --------------------------------------------------------------------------

def test_sigterm_is_handled_like_ctrl_c(monkeypatch):
    """A real SIGTERM in the middle of a simulation: partial report, INCOMPLETE, exit 130."""
    def terminate(self, done, total=None):
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(Progress, "__call__", terminate)
    result = run("game", "roulette-single", "--simulate", "100000000", "--seed", SEED, "--json")
    assert result.exit_code == 130, result.output
    report = json.loads(result.stdout)
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
    assert 0 < report["simulation"]["rounds"] < 100000000
    assert signal.getsignal(signal.SIGTERM) is not signal.default_int_handler  # restored afterwards


def test_sigterm_to_a_running_process_exits_130():
    """SIGTERM once the process is simulating (it says so as its second chunk of rounds begins:
    no fixed sleep, so a loaded machine cannot make the signal land during start-up)."""
    args = ["game", "roulette-single", "--simulate", "1000000000000", "--seed", SEED]
    code, out, err = signal_when_entered("harness.games._native:tally", args, signal.SIGTERM, call=2)
    assert code == 130, err
    assert "Traceback" not in err
    assert out.rstrip().splitlines()[-1].startswith("verdict: INCOMPLETE (simulation interrupted after")


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_an_interrupted_exact_slot_analysis_reports_incomplete(monkeypatch, as_json):
    """Ctrl-C in a stage of the exact analysis (here: after the base game's tables, in its thread):
    a report of the model and of how far the work got, INCOMPLETE, exit 130; no figure, no check."""
    import harness.slot.exact as exact

    real = exact.joint_moments

    def interrupted(reels, *args, progress, **kwargs):
        progress(sum(reels.lengths) << reels.rows)  # this stage's tables are built ...
        raise KeyboardInterrupt  # ... and then Ctrl-C

    monkeypatch.setattr(exact, "joint_moments", interrupted)
    result = run("slot", SLOT, *(["--json"] if as_json else []))
    monkeypatch.setattr(exact, "joint_moments", real)
    assert result.exit_code == 130, result.output
    assert "units of the exact analysis; verdict: INCOMPLETE" in result.stderr
    if as_json:
        report = json.loads(result.stdout)
        assert (report["verdict"], report["complete"], report["interrupted"]) == ("incomplete", False, True)
        assert report["checks"] == [] and "rtp" not in report and report["model"]["name"] == "Golden Meadow 50"
        assert 0 < report["analysis"]["done"] < report["analysis"]["total"]
    else:
        lines = result.stdout.rstrip().splitlines()
        assert lines[0].startswith("PAR sheet: Golden Meadow 50") and "Return to player" not in result.stdout
        assert "Exact analysis INTERRUPTED after " in result.stdout
        assert lines[-1].startswith("verdict: INCOMPLETE (the exact analysis was interrupted after ")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_an_exact_slot_analysis_gives_an_incomplete_report(signum, tmp_path):
    """A real signal to a running `rngcert slot` whose exact analysis takes seconds: it stops at once
    (the stages' threads do not keep it alive) with the INCOMPLETE report and exit 130."""
    from tests.slot_support import five_reel_text

    model = tmp_path / "big.toml"
    model.write_text(five_reel_text((20000, 20000, 10, 10, 4), 20))
    code, out, err = signal_when_entered("harness.slot.exact:joint_moments", ["slot", str(model), "--json"], signum)
    assert code == 130, err
    assert "Traceback" not in err
    report = json.loads(out)
    assert (report["verdict"], report["interrupted"]) == ("incomplete", True)
    assert report["analysis"]["done"] < report["analysis"]["total"] == 2 * (2 * 40024 << 3)  # 2 stages x 40,024 stops x 2**3 rows, twice


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupt_while_the_commands_load_exits_130(signum):
    script = (
        "import os, signal\n"
        "from harness import cli\n"
        "load = cli._RngcertGroup._register\n"
        "def interrupted(self):\n"
        f"    os.kill(os.getpid(), {int(signum)})\n"
        "    load(self)\n"
        "cli._RngcertGroup._register = interrupted\n"
        "cli.main(['selftest'])\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == "rngcert selftest: interrupted; verdict: INCOMPLETE"


def test_an_end_of_file_is_not_an_interrupt(monkeypatch):
    import harness.games.registry as registry

    def truncated(*args, **kwargs):
        raise EOFError("No data left in file")

    monkeypatch.setattr(registry.GAMES["craps"], "analyse", truncated, raising=False)
    result = run("game", "craps")
    assert result.exit_code == 2, result.output
    assert "Aborted" not in result.output
    assert result.stderr.strip().splitlines() == [
        "Error: rngcert game: unexpected end of input data: No data left in file (see 'rngcert game --help')"]


# --- usage errors ------------------------------------------------------------------------

def test_an_option_without_its_value_names_the_command():
    result = run("bench", "--group")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("Error: rngcert bench: Option '--group' requires an argument. "
                                     "(see 'rngcert bench --help')")


def test_a_missing_argument_is_one_line_plus_the_usage():
    result = run("game")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith("Error: rngcert game: Missing argument 'GAME'. Choose from: baccarat, ")
    assert lines[1] == "Usage: rngcert game [OPTIONS] GAME"


def test_a_bad_device_is_rejected_before_the_battery_is_imported():
    script = ("import sys\nfrom harness.cli import main\n"
              "try:\n    main(['test', 'no-such-device'])\n"
              "except SystemExit as e:\n    print(e.code, 'scipy' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.stdout.split() == ["2", "False"], result.stderr
    assert "unknown device 'no-such-device'" in result.stderr


def _loaded_by(*args: str) -> list[str]:
    """The modules of the C core, numpy, the statistics and the analyses that ``rngcert ARGS`` loads."""
    script = ("import json, sys\nfrom harness.cli import main\n"
              f"try:\n    main({list(args)!r})\nexcept SystemExit:\n    pass\n"
              "heavy = ('numpy', 'scipy', 'rngcore', 'stats', 'harness.slot.exact', 'harness.slot.model', 'harness.games')\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    return json.loads(result.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["bench", "--help"], ["certify", "--help"],
                                  ["journal", "--help"], ["selftest", "--help"]], ids=" ".join)
def test_help_loads_no_engine_and_no_analysis(args):
    """Every command module is imported to list the commands: they defer the C core, numpy
    and the analyses to when a command runs (or its help needs a registry, as --engine's does)."""
    assert _loaded_by(*args) == []


@pytest.mark.parametrize("command", ["slot", "play", "stream", "sp800-22"])
def test_a_drawing_commands_help_loads_the_engines_alone(command):
    """--engine's choices come from the engine registry, which needs the C core but not numpy,
    the generator or the command's analysis."""
    loaded = _loaded_by(command, "--help")
    assert "rngcore.engines" in loaded
    assert [m for m in loaded if not m.startswith("rngcore") or m == "rngcore.generator"] == []


# --- bounds ------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["stream", "--bytes", str(10**23)], "must be at most 2**70 bytes, the length of one replay stream"),
    (["stream", "--bytes", str(2**70 + 1)], "must be at most 2**70 bytes"),
    (["game", "craps", "--simulate", str(10**23)], "must be at most 2**60 rounds, what the 64-bit tallies hold"),
])
def test_absurd_counts_are_refused(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_the_bounds_are_in_the_help():
    assert "2**70" in " ".join(run("stream", "--help").stdout.split())
    assert "2**60" in " ".join(run("game", "--help").stdout.split())


@pytest.mark.parametrize("value", ["yes", "true", "2", " 1"])
def test_an_undocumented_force_portable_value_is_refused(value):
    env = {**os.environ, "RNGCERT_FORCE_PORTABLE": value}
    result = subprocess.run(RUN_CLI + ["selftest"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert f"RNGCERT_FORCE_PORTABLE={value!r} is not accepted" in line and "use 1" in line
    library = subprocess.run([sys.executable, "-c", "import rngcore"], capture_output=True, text=True, env=env)
    assert library.returncode != 0 and "EnvironmentSettingError" in library.stderr


@pytest.mark.parametrize("value, path", [("1", "portable"), ("", None), ("0", None)])
def test_documented_force_portable_values_are_accepted(value, path):
    env = {**os.environ, "RNGCERT_FORCE_PORTABLE": value}
    # Any command with a JSON report will do: the value is read at `import rngcore`, and every report
    # names the dispatched path (the self-test on the forced path: test_core_cli.py, portable_path_forced).
    result = subprocess.run(RUN_CLI + ["game", "craps", "--json"], capture_output=True, text=True, cwd=ROOT,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    if path is not None:
        assert json.loads(result.stdout)["build"]["keystream_path"] == path


# --- progress ---------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal(monkeypatch):
    monkeypatch.setattr("harness.progress.DELAY_SECONDS", 0.0)
    monkeypatch.setattr("harness.progress.REDRAW_SECONDS", 0.0)
    terminal = _Terminal()
    with Progress("simulating", 1000, unit="rounds", file=terminal) as report:
        for done in range(0, 1001, 250):
            report(done, 1000)
    shown = terminal.getvalue()
    assert "simulating (rounds)" in shown and "1000/1000" in shown and "100%" in shown
    for quiet, file in ((True, _Terminal()), (False, io.StringIO())):
        with Progress("simulating", 1000, quiet=quiet, file=file) as report:
            report(1000)
        assert file.getvalue() == ""


def test_reading_a_capture_shows_progress_chunk_by_chunk(monkeypatch, tmp_path):
    import stats.io
    from rngcore.devices import device_spec

    monkeypatch.setattr(stats.io, "PROGRESS_CHUNK", 4096)
    path = tmp_path / "spins.csv"
    path.write_text("# format: labels\n" + "\n".join(str(i % 37) for i in range(20_000)) + "\n")
    size = path.stat().st_size
    calls = []
    capture = stats.io.open_capture(path, device_spec("roulette-single"),
                                    progress=lambda done, total: calls.append((done, total)))
    assert capture.n == 20_000
    assert len(calls) >= size // 4096 and calls[-1] == (size, size) and {t for _, t in calls} == {size}
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    # on a terminal, rngcert test shows it as the one progress bar; --quiet and a log see nothing
    monkeypatch.setattr("harness.progress.DELAY_SECONDS", 0.0)
    monkeypatch.setattr("harness.progress._is_terminal", lambda file: True)
    shown = run("test", "roulette-single", "--input", path, "--test", "frequency")
    assert shown.exit_code == 0, shown.output
    assert "reading spins.csv (bytes)" in shown.stderr  # (click draws the bar itself only on a real terminal)
    quiet = run("test", "roulette-single", "--input", path, "--test", "frequency", "--quiet")
    assert quiet.exit_code == 0 and "reading" not in quiet.stderr


def test_no_progress_reaches_a_log():
    result = run("draw", "roulette-single", "-n", "2000000", "--seed", SEED)
    assert result.exit_code == 0 and result.stderr == ""
    assert "\r" not in result.output


@pytest.mark.parametrize("command", ["test", "draw", "game", "slot", "bench", "sp800-22"])
def test_every_long_command_has_quiet(command):
    assert "--quiet" in run(command, "--help").stdout


# --- standard streams --------------------------------------------------------------------

@pytest.mark.parametrize("args", [("selftest", "--json"), ("game", "craps"), ("slot", SLOT, "--json"),
                                  ("test", "roulette-single", "--samples", "100000", "--seed", SEED),
                                  ("test", "roulette-single", "--samples", "100000", "--seed", SEED, "--json")],
                         ids=" ".join)
def test_output_writes_the_report_to_a_file(tmp_path, args):
    target = tmp_path / "report.out"
    result = run(*args, "--output", target)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    written = target.read_text()
    assert written == run(*args).stdout or written.splitlines()[0] == run(*args).stdout.splitlines()[0]
    assert "verdict" in written


@pytest.mark.parametrize("command", [("selftest",), ("game", "craps"), ("slot", SLOT), ("bench", "--quick"),
                                     ("test", "roulette-single", "--samples", "1000", "--seed", SEED)],
                         ids=lambda c: c[0])
def test_an_unwritable_output_is_bad_input_before_any_work(tmp_path, command):
    """Once the report was computed and then lost with exit 1 ('Could not open file')."""
    for target, message in ((tmp_path / "no-such-dir" / "r.txt", "no such directory"),
                            (tmp_path, "is a directory")):
        result = run(*command, "--output", target)
        assert result.exit_code == 2, result.output
        assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
        assert "Invalid value for '--output'" in result.stderr and message in result.stderr


def test_every_command_with_a_json_report_takes_output():
    import click

    ctx = click.Context(main, info_name="rngcert")
    reporting = []
    for name in main.list_commands(ctx):
        options = {opt for p in main.get_command(ctx, name).params for opt in p.opts}
        if "--json" in options:
            reporting.append(name)
            assert "--output" in options, f"rngcert {name} has --json but no --output"
    assert {"selftest", "test", "game", "slot", "bench", "sp800-22"} <= set(reporting)
    nist = json.loads(run("sp800-22", "--bits", "1000", "--seed", SEED, "--json").stdout)
    assert list(nist)[:3] == ["verdict", "complete", "interrupted"] and nist["verdict"] in ("pass", "fail")


@pytest.mark.parametrize("command", [("test", "roulette-single"), ("sp800-22", "--bits", "1000")],
                         ids=lambda c: c[0])
@pytest.mark.parametrize("alpha", ["nan", "inf", "-0.1", "1", "x"])
def test_a_significance_level_is_a_number_strictly_between_0_and_1(command, alpha):
    result = run(*command, "--alpha", alpha, "--seed", SEED)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "Invalid value for '--alpha'" in result.stderr


def test_test_reads_a_capture_from_stdin():
    drawn = run("draw", "roulette-single", "-n", "50000", "--seed", SEED).stdout_bytes
    piped = run("test", "roulette-single", "--input", "-", "--format", "labels", "--json", input=drawn)
    assert piped.exit_code in (0, 1), piped.output
    assert json.loads(piped.stdout)["n"] == 50000


# --- shell completion --------------------------------------------------------------------

def _complete(words: str) -> list[str]:
    env = {**os.environ, "_RNGCERT_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    script = "from harness.cli import main; main(prog_name='rngcert')"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT,
                            timeout=60)
    return [line.split(",", 1)[1] for line in result.stdout.splitlines() if "," in line]


@pytest.mark.parametrize("words, expected", [
    ("rngcert draw roul", {"roulette-single", "roulette-double", "roulette-double-as-single"}),
    ("rngcert draw shoe:", {f"shoe:{n}" for n in range(1, 13)}),
    ("rngcert test by", {"bytes"}),
    ("rngcert game money-wheel --variant ", {"standard", "alternative"}),
    ("rngcert game cr", {"craps"}),
    ("rngcert game pai-gow --strategy ", {"house-way", "best-vs-house-way", "table"}),
    ("rngcert game casino-war --option su", {"surrender=yes", "surrender=no"}),
    ("rngcert game pai-gow --option ", {"seat=", "rules="}),
    ("rngcert slot x.toml --profile ", {"jp", "nj", "nv", "gli11", "pa", "ms", "il", "nm", "mt"}),
])
def test_shell_completion(words, expected):
    assert set(_complete(words)) == expected
