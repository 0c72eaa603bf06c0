"""``rngcert test``: run the certification battery on a device's outcomes.

Outcomes come from a capture file of any device (``--input``) or are drawn
from our own virtual device (``rngcore.Generator`` + ``DeviceSpec.draw``).
Exit codes: 0 pass, 1 fail, 2 bad input, 130 interrupted (partial report).
"""
from __future__ import annotations

import json

import click

from harness.commands._generator import generator_options

EXIT_INTERRUPTED = 130


def _spec(name: str):
    """The device to test: one a kind names itself (``bytes``, ``k-of-n:K:N``) or a registry device."""
    from stats.kinds import named_devices, parse_device

    try:
        kind = parse_device(name)
        if kind is not None:
            return kind
        from rngcore.devices import device_spec

        return device_spec(name)
    except ValueError as exc:
        raise click.UsageError(f"{exc} (or {', '.join(named_devices())})") from None


def _source(spec, input_path, fmt, samples, rng):
    """(n, chunks, description) for the outcomes to test."""
    from stats.kinds import kind_of

    kind = kind_of(spec)
    unit = kind.unit
    rows_per_chunk = max(1, (1 << 20) // int(kind.width))
    if input_path is not None:
        from stats.io import open_capture

        if rng.seed is not None:
            raise click.UsageError("--seed applies only when drawing from our own device (no --input)")
        try:
            capture = open_capture(input_path, spec, format=fmt)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        n = capture.n if samples is None else min(samples, capture.n)

        def chunks():
            done = 0
            for part in capture.chunks(rows_per_chunk):
                take = min(len(part), n - done)
                if take <= 0:
                    return
                yield part[:take]
                done += take

        what = f"{n:,} {unit} read from {input_path} ({capture.container}, {capture.reading})"
        return n, chunks(), what
    n = kind.default_samples if samples is None else samples
    generator = rng.build()
    mode = generator.provenance().describe()

    def draws():
        left = n
        while left > 0:
            take = min(left, rows_per_chunk)
            yield spec.draw(generator, take)
            left -= take

    return n, draws(), f"{n:,} {unit} drawn from rngcert's {spec.name}, {mode}"


def _fmt_number(value) -> str:
    if value is None or value != value:
        return "-"
    if value == float("inf"):
        return "inf"
    return f"{value:.4g}"


def _text_report(result, what: str, power: float) -> str:
    ran = [t for t in result.tests if t.verdict != "skipped"]
    m = max(len(ran), 1)
    lines = [
        f"rngcert test {result.device}: {what}",
        f"family-wise alpha = {result.alpha:g} (Holm over {len(ran)} tests); smallest deviations detected with "
        f"probability {power:g} at level alpha/{m} = {result.alpha / m:.3g}",
    ]
    if result.interrupted:
        lines.append(f"INTERRUPTED: results cover the first {result.n:,} outcomes only")
    lines.append("")
    header = f"{'test':<30} {'statistic':>11} {'df':>6} {'p-value':>10} {'Holm p':>8}  {'verdict':<8} detects"
    lines.append(header)
    lines.append("-" * len(header))
    for t in result.tests:
        df = "-" if t.df is None else str(t.df)
        detect = str(t.detectable) if t.detectable is not None else (t.note or "-")
        lines.append(f"{t.name:<30} {_fmt_number(t.statistic):>11} {df:>6} {_fmt_number(t.pvalue):>10} "
                     f"{_fmt_number(t.adjusted_pvalue):>8}  {t.verdict.upper():<8} {detect}")
    lines.append("")
    failed = [t.name for t in result.tests if t.verdict == "fail"]
    if result.verdict == "fail":
        lines.append(f"verdict: FAIL ({', '.join(failed)} rejected at family-wise alpha = {result.alpha:g})")
    else:
        lines.append(f"verdict: PASS (no test rejected at family-wise alpha = {result.alpha:g})")
    return "\n".join(lines)


@click.command("test")
@click.argument("device")
@click.option("--input", "input_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Capture file of outcomes (CSV/text, .npy or raw binary). Without it, draw from our device.")
@click.option("--samples", type=click.IntRange(min=1), default=None, metavar="N",
              help="Outcomes to test (rolls for dice, shuffles for shoes). With --input: the first N.")
@generator_options()
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.01,
              show_default=True, help="Family-wise significance level (Pennsylvania: 0.05).")
@click.option("--format", "fmt", type=click.Choice(["auto", "labels", "indices"]), default="auto",
              show_default=True, help="How values in a text capture are read.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@click.pass_context
def test_command(ctx, device, input_path, samples, rng, alpha, fmt, as_json):
    """Run the statistical battery on DEVICE's outcomes and give a verdict.

    DEVICE is a registry name: roulette-single, roulette-double, big-six,
    money-wheel, dice:N, shoe:N, deck, tiles, ... or "bytes" for a raw byte
    stream (e.g. a capture of `rngcert stream` output; its bits also get the
    spectral test).  Exit 0 pass, 1 fail, 2 bad input, 130 interrupted (the
    report covers what was tested).
    """
    from stats.battery import Battery, run_battery
    from stats.power import DEFAULT_POWER
    from stats._validate import InsufficientDataError

    from stats.kinds import kind_of

    spec = _spec(device)
    unit = kind_of(spec).unit
    n, chunks, what = _source(spec, input_path, fmt, samples, rng)
    try:
        Battery(spec, n, alpha=alpha)
    except InsufficientDataError as exc:
        raise click.UsageError(f"too few samples: {exc}") from None

    show_progress = n * int(kind_of(spec).width) > 4 * (1 << 20)

    def progress(done, total):
        if show_progress:
            click.echo(f"\r  tested {done:,} / {total:,} {unit}", err=True, nl=False)

    try:
        result = run_battery(spec, chunks, n=n, alpha=alpha, progress=progress)
    except ValueError as exc:  # a bad value deep in a capture file
        raise click.UsageError(str(exc)) from None
    if show_progress:
        click.echo("", err=True)
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        click.echo(_text_report(result, what, DEFAULT_POWER))
    if result.interrupted:
        click.echo(f"interrupted after {result.n:,} {unit}; partial results above", err=True)
        ctx.exit(EXIT_INTERRUPTED)
    if result.verdict == "fail":
        ctx.exit(1)


COMMANDS = [test_command]
