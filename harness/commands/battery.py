"""``rngcert test``: run the certification battery on a device's outcomes.

Outcomes come from a capture file of any device (``--input``) or are drawn
from our own virtual device (``rngcore.Generator`` + ``DeviceSpec.draw``).
The device names, the kinds' own devices (``bytes``, ``k-of-n:K:N``) and
the ``--test`` choices are read from the registries (:mod:`stats.kinds`,
:mod:`stats.registry`), so a new kind or test appears here by itself.
Exit codes: 0 pass, 1 fail, 2 bad input, 130 interrupted (partial report,
verdict INCOMPLETE; SIGTERM is treated as Ctrl-C).
"""
from __future__ import annotations

import contextlib
import json
import pathlib
import signal
import threading

import click

from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import (Alpha, InputPath, complete_test_device, emit, given, output_option,
                                       quiet_option, scheduler_option, workers_option, checkpoint_option)
from harness.commands.sp800_22 import FORMATS as SP800_22_FORMATS, SUITE_OPTIONS, sp800_22_options

#: ``--suite``: the certification battery, or NIST SP 800-22 on raw bits (``harness.commands.sp800_22``).
SUITES = ("battery", "sp800-22")

#: Most values (outcomes × values per outcome) one run tests: every count and sum of the
#: battery stays exact in 64-bit integers and in the 53-bit mantissa of its statistics.
MAX_VALUES = 1 << 53


def _spec(name: str):
    """The device to test: one a kind names itself (``bytes``, ``k-of-n:K:N``) or a registry device."""
    from harness.sources import device_to_test
    from stats.kinds import named_devices

    try:
        return device_to_test(name)
    except ValueError as exc:
        raise click.UsageError(f"{exc} (or {', '.join(named_devices())})") from None


class _TestNames(click.Choice):
    """The battery's test names, read from :mod:`stats.registry` when needed (help, parsing)."""

    def __init__(self):
        self.case_sensitive = True

    @property
    def choices(self):
        from stats.registry import test_names
        from stats.sp800_22_suite import suite_tests

        return tuple(test_names()) + tuple(dict.fromkeys(e.name for e in suite_tests()))


class _TestCommand(click.Command):
    """``rngcert test`` with its devices, the kinds' own device names and the tests listed in its
    help, from the registries."""

    def format_epilog(self, ctx, formatter):
        from rngcore.devices.registry import help_rows
        from stats.kinds import kind_class, kind_names
        from stats.registry import entries

        with formatter.section("Devices (the device registry)"):
            formatter.write_dl(help_rows())
        rows = [(cls.syntax, cls.summary) for cls in map(kind_class, kind_names()) if cls.syntax]
        with formatter.section("Devices the kinds name themselves"):
            formatter.write_dl(rows)
        with formatter.section("Tests (--test), with the device kinds they apply to"):
            formatter.write_dl([(e.name, ", ".join(e.kinds)) for e in entries()])
        from stats.sp800_22_suite import suite_tests

        with formatter.section("SP 800-22 tests (--suite sp800-22 --test; DEVICE bytes)"):
            formatter.write_text(", ".join(dict.fromkeys(e.name for e in suite_tests())))
        super().format_epilog(ctx, formatter)


def _source(spec, input_path, fmt, samples, rng, quiet):
    """(n, chunks, description, capture or None, generator or None) for the outcomes to test."""
    from stats.kinds import kind_of

    from harness.sources import drawn, first, rows_per_chunk

    kind = kind_of(spec)
    unit = kind.unit
    rows = rows_per_chunk(kind)
    if input_path is not None:
        from stats.io import open_capture

        rng.refuse_drawing("drawing from our own device (no --input)")
        from harness.progress import Progress

        path = pathlib.Path(input_path)
        try:
            with Progress(f"reading {path.name}", path.stat().st_size, unit="bytes", quiet=quiet) as progress:
                capture = open_capture(input_path, spec, format=fmt, progress=progress)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        except KeyboardInterrupt as exc:  # (CaptureInterrupted says how far the check got)
            raise _ReadInterrupted(path, getattr(exc, "checked", 0), getattr(exc, "read", 0),
                                   path.stat().st_size) from None
        n = capture.n if samples is None else min(samples, capture.n)
        basis = f"--format {fmt}" if capture.basis == "as asked" else capture.basis
        what = f"{n:,} {unit} read from {input_path} ({capture.container}, read as {capture.reading}: {basis})"
        if samples is not None and samples > capture.n:
            what += f"; --samples {samples:,} asked for more than the file's {capture.n:,}"
        return n, first(capture.chunks(rows), n), what, capture, None
    if not hasattr(spec, "draw"):
        raise click.UsageError(f"{kind.name} is a device kind, not one of our devices: test a capture of it "
                               "with --input FILE")
    n = kind.default_samples if samples is None else samples
    generator = rng.build()
    mode = generator.provenance().describe()
    return n, drawn(spec, generator, n, rows), f"{n:,} {unit} drawn from rngcert's {kind.name}, {mode}", None, \
        generator


class _ReadInterrupted(Exception):
    """Ctrl-C or SIGTERM while a capture file was being opened and checked, before any test ran."""

    def __init__(self, path: pathlib.Path, checked: int, read: int, total: int):
        super().__init__(path.name)
        self.path, self.checked, self.read, self.total = path, checked, read, total

    def describe(self, unit: str) -> str:
        return (f"interrupted while reading {self.path.name}: {self.read:,} of {self.total:,} bytes read, "
                f"{self.checked:,} {unit} checked, none tested yet")


def _fmt_number(value) -> str:
    if value is None or value != value:
        return "-"
    if value == float("inf"):
        return "inf"
    return f"{value:.4g}"


def _outcome(result):
    """The report vocabulary (:mod:`harness.verdict`) of a battery result, with its reason in words."""
    from harness.verdict import Outcome

    ran, skipped = result.ran, result.skipped
    failed = [t.name for t in ran if t.verdict == "fail"]
    if result.interrupted and not result.tests:
        return Outcome.judge(True, interrupted=True, reason="interrupted before any test ran")
    if result.interrupted:
        return Outcome.judge(not failed, interrupted=True, reason=(
            f"interrupted after {result.n:,} {result.unit}; the figures above are exactly those of these "
            f"{result.n:,}" + (f"; {', '.join(failed)} rejected so far" if failed else "")))
    over = f"; over the {len(ran)} tests that ran, {len(skipped)} skipped for want of data" if skipped else ""
    if failed:
        return Outcome.judge(False, reason=f"{', '.join(failed)} rejected at family-wise alpha = {result.alpha:g}"
                                           f"{over}")
    return Outcome.judge(True, reason=f"no test rejected at family-wise alpha = {result.alpha:g}{over}")


def _text_report(result, what: str, power: float) -> str:
    ran = result.ran
    m = max(len(ran), 1)
    lines = [f"rngcert test {result.device}: {what}"]
    if not result.tests:  # interrupted before the battery was planned: nothing to tabulate
        return "\n".join(lines + ["INTERRUPTED: no test ran", "", _outcome(result).line()])
    lines.append(f"family-wise alpha = {result.alpha:g} (Holm over {len(ran)} tests); smallest deviations detected "
                 f"with probability {power:g} at level alpha/{m} = {result.alpha / m:.3g}")
    if result.interrupted:
        lines.append(f"INTERRUPTED: results cover the first {result.n:,} {result.unit} only")
    lines.append("")
    header = f"{'test':<30} {'statistic':>11} {'df':>6} {'p-value':>10} {'Holm p':>8}  {'verdict':<8} detects"
    lines.append(header)
    lines.append("-" * len(header))
    for t in result.tests:
        df = "-" if t.df is None else str(t.df)
        detect = str(t.detectable) if t.detectable is not None else (t.note or "-")
        if t.detectable is not None and t.note:
            detect += f"; {t.note}"
        lines.append(f"{t.name:<30} {_fmt_number(t.statistic):>11} {df:>6} {_fmt_number(t.pvalue):>10} "
                     f"{_fmt_number(t.adjusted_pvalue):>8}  {t.verdict.upper():<8} {detect}")
    cells = result.cell_lines()  # where a failed categorical test is off, and by how much
    if cells:
        lines += [""] + cells
    warning = result.power_warning()
    if warning:
        lines += ["", warning]
    lines.append("")
    lines.append(_outcome(result).line())
    return "\n".join(lines)


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """SIGTERM (a CI job's timeout, ``kill``) ends the run like Ctrl-C: a partial report, exit 130."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(number, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


@click.command("test", cls=_TestCommand)
@click.argument("device", shell_complete=complete_test_device)
@click.option("--input", "input_path", type=InputPath(), default=None,
              help="Capture file of outcomes (CSV/text, .npy or raw binary; '-': stdin). "
                   "Without it, draw from our device.")
@click.option("--samples", type=click.IntRange(min=1, max=MAX_VALUES), default=None, metavar="N",
              help="Outcomes to test (rolls for dice, shuffles for shoes), at most 2^53 values in all. "
                   "With --input: the first N (the report says so when the file holds fewer).")
@generator_options()
@click.option("--alpha", type=Alpha(), default=0.01, show_default=True,
              help="Family-wise significance level, strictly between 0 and 1 (Pennsylvania: 0.05).")
@click.option("--format", "fmt", type=click.Choice(["auto", "labels", "indices", *SP800_22_FORMATS]), default="auto",
              show_default=True,
              help="How values are read: labels as printed or label indices. An integer .npy of a device "
                   "whose labels are numbers (roulette, dice) needs labels or indices. With --suite "
                   "sp800-22: binary (packed bytes; auto means binary) or ascii (the characters 0 and 1).")
@click.option("--test", "tests", type=_TestNames(), multiple=True, metavar="TEST",
              help="Run only this test (repeatable): a battery test, or with --suite sp800-22 one of SP 800-22's "
                   "(both lists below).")
@workers_option("Processes testing the outcomes (a capture file's, or those drawn from our device): fixed "
                "partitions merged exactly, so the report is that of one pass for any N.")
@scheduler_option
@checkpoint_option
@click.option("--suite", type=click.Choice(SUITES), default="battery", show_default=True,
              help="battery: the certification battery; sp800-22: NIST SP 800-22 Rev. 1a on DEVICE bytes, "
                   "as `rngcert sp800-22` (--workers unset: one per usable CPU).")
@sp800_22_options(" (--suite sp800-22)")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@quiet_option
@output_option
@click.pass_context
def test_command(ctx, device, input_path, samples, rng, alpha, fmt, tests, workers, scheduler, checkpoint, suite,
                 bit_order, sequences, length, as_json, quiet, output):
    """Run the statistical battery on DEVICE's outcomes and give a verdict.

    DEVICE is a device of the registry or a device a kind names itself
    (both listed below), e.g. "bytes" for a raw byte stream (a capture of
    `rngcert stream` output; its bits also get the spectral test).  Tests
    too data-hungry for N are reported as skipped with the N they need, and
    the verdict is over the tests that ran.  Exit 0 pass, 1 fail, 2 bad
    input, 130 interrupted (the report covers exactly what was tested and
    says INCOMPLETE).  `--suite sp800-22` runs NIST SP 800-22 on raw bits
    instead (DEVICE bytes), exactly as `rngcert sp800-22`.
    """
    with _sigterm_as_interrupt():  # from start-up on: SIGTERM is Ctrl-C (exit 130), never a silent kill
        if suite == "sp800-22":
            if checkpoint is not None:
                raise click.UsageError("--checkpoint applies to the battery's partitions, not --suite sp800-22")
            from harness.commands.sp800_22 import run_from_test

            run_from_test(ctx, device, input_path=input_path, fmt=fmt, samples=samples, scheduler=scheduler,
                          workers=workers, bit_order=bit_order, sequences=sequences, length=length, alpha=alpha,
                          tests=tests, rng=rng, as_json=as_json, quiet=quiet, output=output)
            return
        for name, option in SUITE_OPTIONS:
            if given(ctx, name):
                raise click.UsageError(f"{option} applies only with --suite sp800-22")
        if fmt in SP800_22_FORMATS:
            raise click.UsageError(f"--format {fmt} applies only with --suite sp800-22")
        from stats.registry import test_names

        nist = [t for t in tests if t not in test_names()]
        if nist:  # (_TestNames also accepts the suite's names)
            raise click.UsageError(f"--test {nist[0]} is an SP 800-22 test: add --suite sp800-22 (DEVICE bytes)")
        _test(ctx, device, input_path, samples, rng, alpha, fmt, tests, workers, scheduler, checkpoint, as_json,
              quiet, output)


def _test(ctx, device, input_path, samples, rng, alpha, fmt, tests, workers, scheduler, checkpoint, as_json,
          quiet, output):
    from stats.kinds import kind_of

    spec = _spec(device)
    kind = kind_of(spec)
    if samples is not None and samples * kind.width > MAX_VALUES:
        raise click.BadParameter(f"{samples:,} {kind.unit} of {kind.width} values is more than the 2^53 values "
                                 "one run counts exactly", param_hint="--samples")

    from stats.battery import Battery, run_battery
    from stats._validate import InsufficientDataError

    try:
        n, chunks, what, capture, generator = _source(spec, input_path, fmt, samples, rng, quiet)
    except _ReadInterrupted as stop:
        from stats.battery import BatteryResult

        result = BatteryResult(kind.name, 0, alpha, "incomplete", (), True, kind.unit, kind.kind)
        source = {"input": input_path, "container": None, "reading": None, "reading_basis": None,
                  "requested": samples, "available": None,
                  "read": {"bytes": stop.read, "of": stop.total, "checked": stop.checked}}
        _report(ctx, result, stop.describe(kind.unit), source, None, as_json, output)
        return
    if capture is not None and samples is not None and samples > capture.n:
        click.echo(f"rngcert test: --samples {samples:,} is more than the {capture.n:,} {kind.unit} in "
                   f"{capture.path.name}; testing all {capture.n:,}", err=True)
    locate = capture.locate if capture is not None else None
    try:
        Battery(spec, n, alpha=alpha, tests=tests or None)
    except InsufficientDataError as exc:
        raise click.UsageError(f"too few samples: {exc}") from None
    except ValueError as exc:  # --test names that do not apply to this device
        raise click.UsageError(str(exc)) from None

    from harness.progress import Progress

    try:
        label = f"testing {spec.name}" + (f" (reading {capture.path.name})" if capture is not None else "")
        with Progress(label, n, unit=kind.unit, quiet=quiet) as progress:  # the one bar for every format
            partitioned = workers > 1 or scheduler is not None or checkpoint is not None
            if partitioned and capture is not None:
                from harness.partitions import run_partitioned

                result = run_partitioned(spec, device, capture, fmt, n, alpha=alpha, tests=tests or None,
                                         workers=workers, progress=progress, scheduler=scheduler,
                                         checkpoint=checkpoint)
            elif partitioned:
                from harness.partitions import run_drawn

                result = run_drawn(spec, device, generator, n, alpha=alpha, tests=tests or None,
                                   workers=workers, progress=progress, scheduler=scheduler, checkpoint=checkpoint)
            else:
                result = run_battery(spec, chunks, n=n, alpha=alpha, progress=progress, tests=tests or None,
                                     locate=locate)
    except ValueError as exc:  # a bad value deep in a capture file
        raise click.UsageError(str(exc)) from None
    source = {"input": input_path, "container": capture.container if capture else None,
              "reading": capture.reading if capture else None,
              "reading_basis": capture.basis if capture else None,
              "requested": samples, "available": capture.n if capture else None}
    _report(ctx, result, what, source, rng.provenance(), as_json, output)


def _report(ctx, result, what: str, source: dict, provenance, as_json: bool, output) -> None:
    """Write the report (text or JSON) and exit with its code; an interrupted one says so on stderr too."""
    from stats.power import DEFAULT_POWER

    outcome = _outcome(result)
    if as_json:
        report = outcome.report(result.to_json())
        report["source"] = {"description": what, **source}
        report.update(provenance_block(provenance))  # provenance None for a capture file: no generator of ours drew it
        emit(json.dumps(report, indent=2), output)
    else:
        emit(_text_report(result, what, DEFAULT_POWER), output)
    if result.interrupted:
        click.echo(f"interrupted after {result.n:,} {result.unit}; partial results above (INCOMPLETE)", err=True)
    ctx.exit(outcome.exit_code)


COMMANDS = [test_command]
