"""Every command that draws fails closed: when the OS cannot supply entropy
(injected with ``rngcore.testing.entropy_fault``) or the power-on self-test
has failed, it prints one line on stderr and exits nonzero -- no traceback,
and not a byte on stdout (a partial table or stream could be mistaken for a
result).  ``selftest`` is the one command whose report *is* the answer: it
reports the failure as a failed check, exit 1."""
import json
import pathlib

import pytest
from click.testing import CliRunner

from harness.cli import main
from rngcore.testing import entropy_fault, failed_selftest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED_HEX = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

# One invocation per command that draws, in production mode (OS entropy).
COMMANDS = {
    "stream": ["stream", "--bytes", "4096"],
    "draw": ["draw", "roulette-single", "-n", "10"],
    "test": ["test", "roulette-single", "--samples", "2000"],
    "game": ["game", "roulette-single", "--simulate", "1000"],
    "slot": ["slot", str(ROOT / "examples" / "slot_compliant.toml"), "--simulate", "1000"],
    "sp800-22": ["sp800-22", "--bits", "1000", "--test", "Frequency"],
    # the generator is built before the journal is opened, so this file is never created
    "play": ["play", "sic-bo", "--journal", str(ROOT / "never-created.sqlite"),
             "--bets", str(ROOT / "examples" / "bets_sic_bo.json")],
}
ENTROPY_FAULTS = ["fail", "empty", "eintr"]


def _invoke(args):
    return CliRunner().invoke(main, args)


def _assert_failed_closed(result, *words):
    assert result.exit_code not in (0, 2), (result.exit_code, result.output)
    assert "Traceback" not in result.stderr and result.exception is None or isinstance(
        result.exception, SystemExit), repr(result.exception)
    assert result.stdout_bytes == b"", f"stdout had output: {result.stdout[:200]!r}"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert all(word in lines[0] for word in words), lines[0]


def test_every_drawing_command_is_covered():
    # A command draws when it takes the shared generator options (--seed).
    drawing = {name for name, command in main.commands.items()
               if any(p.name == "seed" for p in command.params)}
    assert drawing == set(COMMANDS), drawing ^ set(COMMANDS)


@pytest.mark.parametrize("kind", ENTROPY_FAULTS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_entropy_failure_is_one_line_and_no_output(command, kind):
    with entropy_fault(kind):
        result = _invoke(COMMANDS[command])
    _assert_failed_closed(result, "entropy")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_failed_selftest_is_one_line_and_no_output(command):
    with failed_selftest():
        result = _invoke(COMMANDS[command])
    _assert_failed_closed(result, "self-test")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_failed_selftest_stops_replay_mode_too(command):
    with failed_selftest():
        result = _invoke(COMMANDS[command] + ["--seed", SEED_HEX])
    _assert_failed_closed(result, "self-test")


def test_selftest_reports_an_entropy_failure_as_a_failed_check():
    with entropy_fault("empty"):
        result = _invoke(["selftest", "--json"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "fail"
    failed = {c["name"]: c["detail"] for c in report["checks"] if c["verdict"] == "fail"}
    assert "continuous" in failed and "entropy" in failed["continuous"]


def _assert_only_the_selftest_failed(exit_code: int, stdout: str) -> None:
    assert exit_code == 1, stdout
    assert "Traceback" not in stdout
    failed = [line for line in stdout.splitlines() if line.lstrip().startswith("FAIL")]
    assert failed and all("self-test" in line for line in failed), failed
    assert stdout.rstrip().splitlines()[-1].startswith("verdict: FAIL")


def test_selftest_reports_a_failed_selftest_as_a_failed_check():
    with failed_selftest():
        result = _invoke(["selftest"])
    assert "Traceback" not in result.output
    _assert_only_the_selftest_failed(result.exit_code, result.stdout)


def test_a_failed_selftest_report_is_the_same_in_a_process_that_drew_nothing():
    """The report cannot depend on what the process drew before: every engine refuses output
    here, so the OS entropy check takes its own sample (it once failed in a fresh process only)."""
    import subprocess
    import sys

    script = ("import sys\nfrom click.testing import CliRunner\nfrom harness.cli import main\n"
              "from rngcore import lib\nfrom rngcore.testing import failed_selftest\n"
              "assert lib.rng_health_startups() == 0, 'this process drew OS entropy already'\n"
              "with failed_selftest():\n    result = CliRunner().invoke(main, ['selftest'])\n"
              "sys.stdout.write(result.stdout)\nsys.exit(result.exit_code)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    _assert_only_the_selftest_failed(result.returncode, result.stdout)
