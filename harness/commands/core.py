"""Core commands: ``stream`` (raw bytes), ``selftest`` and ``bench``."""
from __future__ import annotations

import json
import os
import sys

import click

from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import Count, emit, output_option, quiet_option
from harness.verdict import Outcome, item_verdict

CHUNK = 1 << 20  # bytes per write: large writes keep a pipe's consumer busy
# A replay stream is 2**64 blocks of 64 bytes (the 64-bit block counter): 2**70 bytes.
STREAM_BYTES = 64 << 64


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
@click.option("--bytes", "nbytes", type=Count(0, STREAM_BYTES, "2**70 bytes, the length of one replay stream"),
              default=None, metavar="N",
              help="Write exactly N bytes, then stop; 0 <= N <= 2**70, the length of one replay stream "
                   "(2**64 blocks of 64 bytes).")
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
    out = sys.stdout.buffer  # binary stdout (CliRunner swaps in its own)
    if out.isatty():
        raise click.UsageError("refusing to write binary data to a terminal; redirect or pipe it")
    _write_stream(out, rng.build(), nbytes)  # a closed pipe ends quietly, exit 0: see harness.cli


def _check_json(engine: str, check) -> dict:
    fields = {k: v for k, v in check.as_dict().items() if k != "passed"}
    return {"name": fields.pop("name"), "verdict": item_verdict(check.passed), **fields, "engine": engine}


@click.command("selftest")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@output_option
def selftest_command(as_json, output):
    """Known-answer, stability and continuous tests of this build; exit 1 on any failure.

    Runs every registered engine's known-answer tests (ChaCha20: all ten RFC
    8439 vectors on every keystream code path, the power-on self-test and a
    pin of the SHA-256 of the first MiB of a fixed replay stream), and checks
    that no 32-byte block of a production run equals either of the two before
    it (the engine's continuous test) and no 64-byte block the one before it.
    """
    from harness import selftest
    from rngcore.engines import engines

    by_engine = selftest.run_selftest()
    failed = [f"{name}/{c.name}" for name, checks in by_engine.items() for c in checks if not c.passed]
    outcome = Outcome.judge(not failed, reason=f"failed: {', '.join(failed)}" if failed else "every check passes")
    info = selftest.build_info()
    if as_json:
        emit(json.dumps(outcome.report({
            **provenance_block(None, build=info), "engines": list(by_engine),
            "checks": [_check_json(name, c) for name, checks in by_engine.items() for c in checks],
        }), indent=2), output)
    else:
        lines = [f"rngcert {info['version']}  core {info['core_sha256']}  kernels {info['kernels_sha256']}  "
                 f"keystream path: {info['keystream_path']}  bulk shuffle kernel: {info['bulk_shuffle_kernel']}"]
        known = engines()
        for name, checks in by_engine.items():
            lines.append(f"engine {name}: {known[name].summary}")
            lines += [f"  {'PASS' if check.passed else 'FAIL'}  {check.name:<26} {check.detail}" for check in checks]
        emit("\n".join(lines + [outcome.line()]), output)
    sys.exit(outcome.exit_code)


def _group_text(results, group_ratios) -> str:
    lines = [f"\n[{results[0].group}]"]
    lines += ["  " + r.describe() for r in results]
    lines += ["  " + q.describe() for q in group_ratios]
    return "\n".join(lines)


def _projections(results) -> list[dict]:
    """What the bench areas project from ``results`` (harness.projection), e.g. a 64-core node."""
    from harness.benchcases import discover_projections

    return [entry for function in discover_projections() for entry in function(results)]


@click.command("bench")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--group", "groups", multiple=True, metavar="G", help="Run only group G (repeatable).")
@click.option("--quick", is_flag=True, help="Fewer, shorter repeats (CI speed; rougher figures).")
@click.option("--smoke", is_flag=True,
              help="Run and check every case exactly once, with one rough timing each: proves the "
                   "benchmarks work on this installation; the figures are not meaningful.")
@click.option("--fail-on-missed", is_flag=True,
              help="Exit 1 when a speed target is missed (without it a missed target makes the verdict "
                   "FAIL but the exit status stays 0: timings on a shared machine are noisy).")
@quiet_option
@output_option
def bench_command(as_json, groups, quick, smoke, fail_on_missed, quiet, output):
    """Throughput of rngcert against baselines measured in the same run.

    Each case is timed as the median of several repeats (interleaved within a
    group so machine noise hits all alike); each rngcert case is reported as
    a ratio to every baseline of its group, with its target where one is set.
    The verdict is FAIL when a target is missed.  Progress goes to stderr
    (on a terminal).
    """
    import platform

    from harness.benchcases import discover_cases
    from harness.benchcases._base import CheckFailed, Timing, group_cases, ratios, run_group
    from harness.progress import Progress

    by_group = group_cases(discover_cases())
    unknown = [g for g in groups if g not in by_group]
    if unknown:
        raise click.BadParameter(
            f"unknown group {', '.join(map(repr, unknown))}; valid groups: {', '.join(by_group)}",
            param_hint="'--group'",
        )
    selected = {g: by_group[g] for g in (groups or by_group)}
    if quick and smoke:
        raise click.UsageError("--quick and --smoke exclude each other: choose one")
    timing = Timing.smoke() if smoke else Timing.quick() if quick else Timing.default()
    report = []
    interrupted = False
    try:
        for group, cases in selected.items():
            with Progress(f"bench {group}", timing.repeats, unit="repeats", quiet=quiet) as progress:
                results = run_group(cases, timing, progress=progress)
            group_ratios = ratios(results)
            report.append((results, group_ratios))
            if not as_json:
                emit(_group_text(results, group_ratios), output)
    except KeyboardInterrupt:  # keep what was measured
        interrupted = True
        click.echo(f"interrupted: reporting the {len(report)} group(s) completed", err=True)
    except CheckFailed as exc:  # a wrong answer voids every figure: no report
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    # Projections from the medians (not from one rough call each: --smoke makes none).
    projected = [] if smoke else _projections([r for results, _ in report for r in results])
    if projected and not as_json:
        from harness.projection import describe

        emit("\n[projection from this run's medians]\n" + "\n".join(
            line for entry in projected for line in describe(entry)), output)
    # One call per case cannot judge a speed target: --smoke judges the checks only.
    missed = [] if smoke else [f"{q.case} / {q.baseline}" for _, group_ratios in report
                               for q in group_ratios if q.met is False]
    outcome = Outcome.judge(not missed, interrupted=interrupted,
                            reason=(f"interrupted after {len(report)} of {len(selected)} groups" if interrupted
                                    else f"target missed: {', '.join(missed)}" if missed
                                    else "every case ran and passed its check; --smoke judges no speed target"
                                    if smoke else "no target missed"))
    if as_json:
        emit(json.dumps(outcome.report({
            **provenance_block(None),
            "machine": {"platform": platform.platform(), "processor": platform.processor(),
                        "cpus": os.cpu_count(), "python": platform.python_version()},
            "timing": {"repeats": timing.repeats, "min_seconds_per_repeat": timing.min_seconds,
                       "first_call_only": timing.first_call_only,
                       "statistic": "median seconds per call over repeats"},
            "groups": [{"group": results[0].group,
                        "cases": [r.as_dict() for r in results],
                        "ratios": [q.as_dict() for q in group_ratios]} for results, group_ratios in report],
            "projections": projected,
        }), indent=2), output)
    else:
        emit("\n" + outcome.line(), output)
    if interrupted or (missed and fail_on_missed):
        sys.exit(outcome.exit_code)


COMMANDS = [stream_command, selftest_command, bench_command]
