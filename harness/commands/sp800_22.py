"""``rngcert sp800-22``: the NIST SP 800-22 Rev. 1a suite and its §4.2 assessment on raw bits.

The bits come from a capture file (``--input FILE``, ``-`` for stdin) of
packed bytes (``--format binary``; ``--bit-order msb``, the default, reads
each byte's most significant bit first, as NIST's ``assess`` reads binary
files; ``lsb`` the other way) or of ASCII ``0``/``1`` characters
(``--format ascii``, white space ignored, as NIST's data files), or are
drawn from rngcert's own engine (``--engine/--seed/--stream``).
``rngcert test bytes --suite sp800-22`` is the same run (:func:`run_sp800_22`,
the one implementation; ``test`` only maps its options).  The report
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
from harness.commands._options import (NPY_MAGIC, Alpha, InputPath, emit, given, output_option, quiet_option,
                                       shown_input)

BIT_ORDERS = ("msb", "lsb")
FORMATS = ("binary", "ascii")
#: The characters an ASCII capture may hold besides 0 and 1 (ignored, as NIST's assess ignores them).
_SPACE = b" \t\r\n"


def default_workers() -> int:
    """One worker per CPU this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def read_bits(path: str, fmt: str, bit_order: str, needed: int | None):
    """The first ``needed`` bits (all of them for None) of a capture file, as a 0/1 uint8 array.

    ``binary``: packed bytes, each read most (``msb``) or least (``lsb``)
    significant bit first; only the bytes needed are read.  ``ascii``: the
    characters ``0`` and ``1``, white space ignored, read in chunks until
    ``needed`` bits are found.  A character that is neither is bad input,
    named with its byte offset, line and column.
    """
    import numpy as np

    name = shown_input(path)
    if fmt == "ascii":
        return _read_ascii(path, name, needed)
    with open(path, "rb") as capture:
        data = capture.read(-1 if needed is None else (needed + 7) // 8)
    if data.startswith(NPY_MAGIC):  # packed bytes are raw: a .npy header would be read as bits
        raise click.UsageError(f"{name}: a .npy file; --format binary reads raw bytes (write the array's bytes "
                               "with numpy's tofile)")
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="big" if bit_order == "msb" else "little")
    return bits[:needed]


#: Bytes of an ASCII capture read at a time: a lab's 10^9-character file is never held whole, only its bits.
ASCII_CHUNK = 1 << 26
#: Each byte of an ASCII capture: 0 or 1 a bit, 2 white space, 3 anything else.
_ASCII_KIND = bytes(0 if b == ord("0") else 1 if b == ord("1") else 2 if b in _SPACE else 3 for b in range(256))


def _read_ascii(path: str, name: str, needed: int | None):
    import numpy as np

    kinds = np.frombuffer(_ASCII_KIND, dtype=np.uint8)
    parts, have, offset, lines, line_start = [], 0, 0, 0, 0
    with open(path, "rb") as capture:
        while needed is None or have < needed:
            data = np.frombuffer(capture.read(ASCII_CHUNK), dtype=np.uint8)
            if not data.size:
                break
            kind = kinds[data]
            bad = np.flatnonzero(kind == 3)
            newlines = np.flatnonzero(data[: bad[0] if bad.size else data.size] == ord("\n"))
            if newlines.size:
                lines, line_start = lines + newlines.size, offset + int(newlines[-1]) + 1
            if bad.size:
                at = offset + int(bad[0])
                raise click.UsageError(f"{name}: byte offset {at:,} (line {lines + 1}, column {at - line_start + 1}) "
                                       f"is {_shown_byte(int(data[bad[0]]))}; --format ascii holds only 0, 1 and "
                                       "white space")
            bits = kind[kind < 2]
            parts.append(bits if needed is None else bits[: needed - have])
            have += parts[-1].size
            offset += data.size
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint8)


def _shown_byte(value: int) -> str:
    return repr(chr(value)) if 32 <= value < 127 else f"byte 0x{value:02x}"


def check_test_names(tests) -> None:
    """Refuse (exit 2) a ``--test`` that is not a report name of the suite."""
    from stats.sp800_22_suite import suite_tests

    known = {e.name for e in suite_tests()}
    unknown = [t for t in tests if t not in known]
    if unknown:
        raise click.BadParameter(f"unknown SP 800-22 test {unknown[0]!r}; valid tests: {', '.join(sorted(known))}",
                                 param_hint="--test")


def sp800_22_options(scope: str = ""):
    """``--bit-order``, ``--sequences M`` and ``--bits N``, shared by ``sp800-22`` and ``test --suite sp800-22``
    (``scope`` names the option that makes them apply, in their help)."""
    def decorate(command):
        for option in reversed([
            click.option("--bit-order", type=click.Choice(BIT_ORDERS), default="msb", show_default=True,
                         help=f"Bit order within a byte of a binary capture{scope} (msb: as NIST's assess reads "
                              "it)."),
            click.option("--sequences", type=click.IntRange(min=1), default=None, metavar="M",
                         help=f"Sequences to test{scope} (default: 1 when drawing, all whole ones of a "
                              "capture)."),
            click.option("--bits", "length", type=click.IntRange(min=100), default=1_000_000, show_default=True,
                         metavar="N", help=f"Bits per sequence{scope}."),
        ]):
            command = option(command)
        return command
    return decorate


@click.command("sp800-22")
@click.option("--input", "input_path", type=InputPath(), default=None,
              help="Capture file of the bits ('-': stdin). Without it, draw from our engine.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="binary", show_default=True,
              help="binary: packed bytes; ascii: the characters 0 and 1.")
@sp800_22_options()
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
    random excursion tests) does not count that sequence.  The same run as
    `rngcert test bytes --suite sp800-22`.  Exit 0 pass, 1 fail, 2 bad
    input, 130 interrupted (Ctrl-C or SIGTERM: the report covers every test
    run that finished, says which tests did not run on every sequence, and
    says INCOMPLETE).
    """
    run_sp800_22(ctx, input_path=input_path, fmt=fmt, bit_order=bit_order, sequences=sequences, length=length,
                 alpha=alpha, tests=tests, workers=workers, rng=rng, as_json=as_json, quiet=quiet, output=output)


def run_sp800_22(ctx, *, input_path, fmt, bit_order, sequences, length, alpha, tests, workers, rng, as_json,
                 quiet, output) -> None:
    """The one implementation of ``rngcert sp800-22`` and ``rngcert test bytes --suite sp800-22``: read or draw
    the bits, run the suite, write the report and exit with its code."""
    from stats._validate import InsufficientDataError
    from stats.sp800_22_suite import run_suite, suite_tests

    check_test_names(tests)
    if input_path is not None:
        rng.refuse_drawing("drawing from our own engine (no --input)")
        needed = None if sequences is None else sequences * length
        bits = read_bits(input_path, fmt, bit_order, needed)
        name = shown_input(input_path)
        what = f"{bits.size:,} bits read from {name} ({fmt}, {bit_order} first)" if fmt == "binary" \
            else f"{bits.size:,} bits read from {name} (ASCII 0/1)"
    else:
        import numpy as np

        m = 1 if sequences is None else sequences
        generator = rng.build()
        data = generator.random_bytes((m * length + 7) // 8)
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))[: m * length]
        what = f"{bits.size:,} bits drawn from rngcert's engine, {generator.provenance().describe()}"
    from harness.progress import Progress
    from stats._sp800_22_pool import keep_freed_memory

    keep_freed_memory()  # this process runs the tests too (--workers 1): reuse their temporaries, as workers do
    m = sequences if sequences is not None else bits.size // length
    runs = m * sum(1 for e in suite_tests() if not tests or e.name in tests)
    try:
        with Progress("SP 800-22", runs, unit="test runs", quiet=quiet) as progress:
            report = run_suite(bits, sequences=sequences, length=length, alpha=alpha, tests=tests or None,
                               progress=progress, workers=default_workers() if workers is None else workers)
    except InsufficientDataError as exc:
        where = f"{shown_input(input_path)}: " if input_path is not None else ""
        raise click.UsageError(f"{where}too few bits: {exc}") from None
    outcome = _outcome(report, progress.done, runs)
    if as_json:
        out = outcome.report(report.as_dict())  # the shared vocabulary keys first, as every report
        out["source"] = {"description": what, "input": None if input_path is None else shown_input(input_path)}
        out.update(provenance_block(rng.provenance()))
        emit(json.dumps(out, indent=2), output)
    else:
        emit(what + "\n" + report.table() + outcome.line(), output)
    if report.interrupted:
        click.echo(f"\ninterrupted after {progress.done:,} of {runs:,} test runs; partial report above "
                   "(INCOMPLETE)", err=True)
    ctx.exit(outcome.exit_code)


#: ``rngcert test`` options that apply only with ``--suite sp800-22`` (parameter name, option).
SUITE_OPTIONS = (("sequences", "--sequences"), ("length", "--bits"), ("bit_order", "--bit-order"))


def run_from_test(ctx, device: str, *, input_path, fmt, samples, scheduler, workers, **options) -> None:
    """``rngcert test bytes --suite sp800-22``: ``test``'s options mapped onto :func:`run_sp800_22`.

    The suite tests raw bits, so DEVICE is ``bytes``; ``--format auto`` is
    ``binary``; ``--workers`` left unset means one per usable CPU, as for
    ``rngcert sp800-22``.  The battery's own ``--samples``, ``--scheduler``
    and value formats are refused rather than ignored.
    """
    if device != "bytes":
        raise click.UsageError(f"--suite sp800-22 tests raw bits: DEVICE must be bytes, not {device!r}")
    if samples is not None:
        raise click.UsageError("--samples is the battery's; --suite sp800-22 takes --sequences M and --bits N")
    if scheduler is not None:
        raise click.UsageError("--scheduler is the battery's; --suite sp800-22 spreads sequences with --workers")
    if fmt not in ("auto",) + FORMATS:
        raise click.UsageError(f"--format {fmt} is the battery's; --suite sp800-22 reads binary (auto) or ascii")
    run_sp800_22(ctx, input_path=input_path, fmt="binary" if fmt == "auto" else fmt,
                 workers=workers if given(ctx, "workers") else None, **options)


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
