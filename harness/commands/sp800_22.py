"""``rngcert sp800-22``: the NIST SP 800-22 Rev. 1a suite and its §4.2 assessment on raw bits.

The bits come from a capture file (``--input FILE``, ``-`` for stdin) of
packed bytes (``--format binary``; ``--bit-order msb``, the default, reads
each byte's most significant bit first, as NIST's ``assess`` reads binary
files; ``lsb`` the other way) or of ASCII ``0``/``1`` characters
(``--format ascii``, white space ignored, as NIST's data files), or are
drawn from rngcert's own engine (``--engine/--seed/--stream``).  The report
is the layout of NIST's ``finalAnalysisReport.txt``, or JSON with
``--json``.  ``--workers`` spreads the sequences over processes (one per
usable CPU by default); the report is the same for any number.  Exit 0
pass, 1 fail, 2 bad input, 130 interrupted (Ctrl-C or SIGTERM: the report
covers the test runs that finished and says INCOMPLETE).
"""
from __future__ import annotations

import json
import os
import pathlib

import click

from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import Alpha, InputPath, emit, output_option, quiet_option

BIT_ORDERS = ("msb", "lsb")
FORMATS = ("binary", "ascii")


def default_workers() -> int:
    """One worker per CPU this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _read_bits(path: str, fmt: str, bit_order: str, needed: int):
    import numpy as np

    data = pathlib.Path(path).read_bytes()
    if fmt == "ascii":
        text = np.frombuffer(data, dtype=np.uint8)
        text = text[~np.isin(text, np.frombuffer(b" \t\r\n", dtype=np.uint8))]
        bad = np.flatnonzero((text != ord("0")) & (text != ord("1")))
        if bad.size:
            raise click.UsageError(f"{path}: --format ascii holds only 0 and 1, found {chr(text[bad[0]])!r}")
        return (text[:needed] - ord("0")).astype(np.uint8)
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="big" if bit_order == "msb" else "little")
    return bits[:needed]


@click.command("sp800-22")
@click.option("--input", "input_path", type=InputPath(), default=None,
              help="Capture file of the bits ('-': stdin). Without it, draw from our engine.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="binary", show_default=True,
              help="binary: packed bytes; ascii: the characters 0 and 1.")
@click.option("--bit-order", type=click.Choice(BIT_ORDERS), default="msb", show_default=True,
              help="Bit order within a byte of a binary capture (msb: as NIST's assess reads it).")
@click.option("--sequences", type=click.IntRange(min=1), default=None, metavar="M",
              help="Sequences to test (default: 1 when drawing, all whole ones of a capture).")
@click.option("--bits", "length", type=click.IntRange(min=100), default=1_000_000, show_default=True, metavar="N",
              help="Bits per sequence.")
@click.option("--alpha", type=Alpha(), default=0.01,
              show_default=True, help="Significance level of each test.")
@click.option("--test", "tests", multiple=True, metavar="NAME",
              help="Run only this test (repeatable): a name of finalAnalysisReport.txt, e.g. Frequency.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Processes to spread the sequences over (default: one per usable CPU); "
                   "the report is the same for any N.")
@generator_options()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@quiet_option
@output_option
@click.pass_context
def sp800_22_command(ctx, input_path, fmt, bit_order, sequences, length, alpha, tests, workers, rng, as_json,
                     quiet, output):
    """Run the 15 tests of NIST SP 800-22 Rev. 1a on M sequences of N bits and assess them (§4.2).

    Each row is one P-value of a test (a template, a state): its P-values'
    counts in ten bins C1..C10, the uniformity P-value_T (from 55
    sequences) and the proportion of sequences passing.  A test whose
    validity conditions a sequence does not meet (too few cycles for the
    random excursion tests) does not count that sequence.  Exit 0 pass,
    1 fail, 2 bad input, 130 interrupted (Ctrl-C or SIGTERM: the report
    covers every test run that finished, says which tests did not run on
    every sequence, and says INCOMPLETE).
    """
    from stats._validate import InsufficientDataError
    from stats.sp800_22_suite import run_suite, suite_tests

    known = {e.name for e in suite_tests()}
    unknown = [t for t in tests if t not in known]
    if unknown:
        raise click.BadParameter(f"unknown test {unknown[0]!r}; valid tests: {', '.join(sorted(known))}",
                                 param_hint="--test")
    if input_path is not None:
        if rng.seed is not None:
            raise click.UsageError("--seed applies only when drawing from our own engine (no --input)")
        needed = None if sequences is None else sequences * length
        bits = _read_bits(input_path, fmt, bit_order, needed)
        what = f"{bits.size:,} bits read from {input_path} ({fmt}, {bit_order} first)" if fmt == "binary" \
            else f"{bits.size:,} bits read from {input_path} (ASCII 0/1)"
    else:
        import numpy as np

        m = 1 if sequences is None else sequences
        generator = rng.build()
        data = generator.random_bytes((m * length + 7) // 8)
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))[: m * length]
        what = f"{bits.size:,} bits drawn from rngcert's engine, {generator.provenance().describe()}"
    from harness.progress import Progress

    m = sequences if sequences is not None else bits.size // length
    runs = m * sum(1 for e in suite_tests() if not tests or e.name in tests)
    try:
        with Progress("SP 800-22", runs, unit="test runs", quiet=quiet) as progress:
            report = run_suite(bits, sequences=sequences, length=length, alpha=alpha, tests=tests or None,
                               progress=progress, workers=default_workers() if workers is None else workers)
    except InsufficientDataError as exc:
        raise click.UsageError(f"too few bits: {exc}") from None
    outcome = _outcome(report, progress.done, runs)
    if as_json:
        out = outcome.report(report.as_dict())  # the shared vocabulary keys first, as every report
        out["source"] = {"description": what, "input": input_path}
        out.update(provenance_block(rng.provenance()))
        emit(json.dumps(out, indent=2), output)
    else:
        emit(what + "\n" + report.table() + outcome.line(), output)
    if report.interrupted:
        click.echo(f"\ninterrupted after {progress.done:,} of {runs:,} test runs; partial report above "
                   "(INCOMPLETE)", err=True)
    ctx.exit(outcome.exit_code)


def _outcome(report, done: int, runs: int):
    """The report vocabulary (:mod:`harness.verdict`) of a suite report; an interrupted one says how far it
    got (``done`` of ``runs`` runs of one test on one sequence)."""
    from harness.verdict import Outcome

    if not report.interrupted:
        return Outcome.judge(report.passed)
    failed = sorted({r.test for r in report.rows if not r.ok})
    return Outcome.judge(report.passed, interrupted=True, reason=(
        f"interrupted after {done:,} of {runs:,} test runs; {len(report.not_run)} of {len(report.coverage)} "
        "tests not run"
        + (f"; {', '.join(failed)} outside §4.2's limits so far" if failed else "")))


COMMANDS = [sp800_22_command]
