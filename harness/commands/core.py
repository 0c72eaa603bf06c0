"""Core commands: ``stream`` (raw bytes), ``selftest`` and ``bench``."""
from __future__ import annotations

import errno
import json
import os
import sys

import click

from harness.commands._generator import generator_options

CHUNK = 1 << 20  # bytes per write: large writes keep a pipe's consumer busy


def _silence_stdout() -> None:
    """After EPIPE, point fd 1 at /dev/null so the interpreter's final flush
    cannot raise again (the recipe in Python's `signal` documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, NotImplementedError):
        pass  # not a real file descriptor (e.g. under CliRunner)


def _write_stream(out, generator, nbytes: int | None) -> None:
    """Write ``nbytes`` (None: without end) of output in CHUNK-sized writes."""
    view = memoryview(bytearray(CHUNK))
    remaining = nbytes
    while remaining is None or remaining > 0:
        size = CHUNK if remaining is None else min(CHUNK, remaining)
        generator.fill(view[:size])
        out.write(view[:size])
        if remaining is not None:
            remaining -= size
    out.flush()


@click.command("stream")
@generator_options(report=False)
@click.option("--bytes", "nbytes", type=int, default=None, metavar="N", help="Write exactly N bytes, then stop.")
@click.option("--forever", is_flag=True, help="Write until the reader closes the pipe (exit 0).")
def stream_command(rng, nbytes, forever):
    """Write raw random bytes to stdout, for external test batteries.

    \b
    Examples:
      rngcert stream --forever | dieharder -g 200 -a
      rngcert stream --forever | RNG_test stdin
      rngcert stream --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --stream 7 --bytes 1048576 > replay.bin

    In replay mode the bytes are exactly the engine's output for the seed and
    stream id (chacha20: the ChaCha20 keystream, the audit contract).  A
    closed pipe ends quietly, exit 0.  If the generator refuses output
    (entropy, self-test) nothing is written: one line on stderr, exit 1.
    """
    if nbytes is not None and forever:
        raise click.UsageError("give either --bytes N or --forever, not both")
    if nbytes is None and not forever:
        raise click.UsageError("give --bytes N (how many bytes to write) or --forever")
    if nbytes is not None and nbytes < 0:
        raise click.BadParameter(f"must be >= 0, got {nbytes}", param_hint="'--bytes'")
    out = sys.stdout.buffer  # binary stdout (CliRunner swaps in its own)
    if out.isatty():
        raise click.UsageError("refusing to write binary data to a terminal; redirect or pipe it")
    try:
        _write_stream(out, rng.build(), nbytes)
    except BrokenPipeError:
        _silence_stdout()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        _silence_stdout()


@click.command("selftest")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def selftest_command(as_json):
    """Known-answer, stability and continuous tests of this build; exit 1 on any failure.

    Runs every registered engine's known-answer tests (ChaCha20: all ten RFC
    8439 vectors on every keystream code path, the power-on self-test and a
    pin of the SHA-256 of the first MiB of a fixed replay stream), and checks
    that no two consecutive 64-byte blocks of a production run are equal.
    """
    from harness import selftest
    from rngcore.engines import engines

    by_engine = selftest.run_selftest()
    passed = all(c.passed for checks in by_engine.values() for c in checks)
    info = selftest.build_info()
    if as_json:
        click.echo(json.dumps({
            "build": info, "passed": passed, "engines": list(by_engine),
            "checks": [dict(c.as_dict(), engine=name) for name, checks in by_engine.items() for c in checks],
        }, indent=2))
    else:
        click.echo(f"rngcert {info['version']}  core {info['core_sha256']}  kernels {info['kernels_sha256']}  "
                   f"keystream path: {info['keystream_path']}  bulk shuffle kernel: {info['bulk_shuffle_kernel']}")
        known = engines()
        for name, checks in by_engine.items():
            click.echo(f"engine {name}: {known[name].summary}")
            for check in checks:
                click.echo(f"  {'PASS' if check.passed else 'FAIL'}  {check.name:<26} {check.detail}")
        click.echo("selftest passed" if passed else "SELFTEST FAILED")
    if not passed:
        sys.exit(1)


def _print_group(results, group_ratios) -> None:
    click.echo(f"\n[{results[0].group}]")
    for r in results:
        click.echo("  " + r.describe())
    for q in group_ratios:
        click.echo("  " + q.describe())


@click.command("bench")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--group", "groups", multiple=True, metavar="G", help="Run only group G (repeatable).")
@click.option("--quick", is_flag=True, help="Fewer, shorter repeats (CI speed; rougher figures).")
def bench_command(as_json, groups, quick):
    """Throughput of rngcert against baselines measured in the same run.

    Each case is timed as the median of several repeats (interleaved within a
    group so machine noise hits all alike); each rngcert case is reported as
    a ratio to every baseline of its group, with its target where one is set.
    Progress goes to stderr.
    """
    import platform

    from harness.benchcases import discover_cases
    from harness.benchcases._base import Timing, group_cases, ratios, run_group
    from harness.selftest import build_info

    by_group = group_cases(discover_cases())
    unknown = [g for g in groups if g not in by_group]
    if unknown:
        raise click.BadParameter(
            f"unknown group {', '.join(map(repr, unknown))}; valid groups: {', '.join(by_group)}",
            param_hint="'--group'",
        )
    selected = {g: by_group[g] for g in (groups or by_group)}
    timing = Timing.quick() if quick else Timing.default()
    report = []
    interrupted = False
    try:
        for group, cases in selected.items():
            results = run_group(cases, timing, progress=lambda msg: click.echo(msg, err=True))
            group_ratios = ratios(results)
            report.append((results, group_ratios))
            if not as_json:
                _print_group(results, group_ratios)
    except KeyboardInterrupt:  # keep what was measured
        interrupted = True
        click.echo(f"interrupted: reporting the {len(report)} group(s) completed", err=True)
    if as_json:
        click.echo(json.dumps({
            "build": build_info(),
            "machine": {"platform": platform.platform(), "processor": platform.processor(),
                        "cpus": os.cpu_count(), "python": platform.python_version()},
            "timing": {"repeats": timing.repeats, "min_seconds_per_repeat": timing.min_seconds,
                       "statistic": "median seconds per call over repeats"},
            "interrupted": interrupted,
            "groups": [{"group": results[0].group,
                        "cases": [r.as_dict() for r in results],
                        "ratios": [q.as_dict() for q in group_ratios]} for results, group_ratios in report],
        }, indent=2))
    if interrupted:
        sys.exit(130)


COMMANDS = [stream_command, selftest_command, bench_command]
