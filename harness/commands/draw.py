"""``rngcert draw``: outcomes of a virtual device, as labels (CSV) or indices (npy).

The devices and the help text's list of them come from the device registry
(:data:`rngcore.devices.DEVICES`), read when they are needed.
"""
from __future__ import annotations

import io
import sys

import click

from harness.commands._generated import GeneratedCommand, rows_block
from harness.commands._generator import generator_options
from harness.commands._options import complete_device, quiet_option

CHUNK_VALUES = 1 << 20  # values drawn and written per chunk: bounded memory for any N


class DeviceName(click.ParamType):
    """A device name from the registry (``roulette-single``, ``shoe:8``, ...)."""

    name = "DEVICE"

    def shell_complete(self, ctx, param, incomplete):
        return complete_device(ctx, param, incomplete)

    def convert(self, value, param, ctx):
        from rngcore.devices import device_spec

        try:
            return device_spec(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def _chunks(spec, n: int):
    """(start, rows) pairs covering n outcomes, about CHUNK_VALUES values each."""
    rows = max(1, CHUNK_VALUES // spec.width)
    for start in range(0, n, rows):
        yield start, min(rows, n - start)


def _csv_lines(spec, indices: np.ndarray) -> str:
    import numpy as np

    labels = np.array(spec.labels, dtype=object)[indices]
    if labels.ndim == 1:
        return "\n".join(labels) + "\n"
    return "\n".join(",".join(row) for row in labels) + "\n"


def _npy_header(spec, n: int) -> bytes:
    """The .npy header (magic included) of a C-order uint8 array of n outcomes."""
    import numpy as np

    from stats.kinds import kind_of

    shape = kind_of(spec).shape(n)
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint8)), "fortran_order": False, "shape": shape})
    return buf.getvalue()


def _write(out, spec, generator, n: int, fmt: str, progress) -> int:
    """Draw and write n outcomes chunk by chunk; return how many were written."""
    import numpy as np  # here, not at import: ``rngcert --help`` loads every command module

    written = 0
    if fmt == "npy":
        out.write(_npy_header(spec, n))
    for _, rows in _chunks(spec, n):
        indices = spec.draw(generator, rows)
        out.write(_csv_lines(spec, indices).encode() if fmt == "csv" else np.ascontiguousarray(indices).tobytes())
        written += rows
        progress(written)
    out.flush()
    return written


def _help_text() -> str:
    from rngcore.devices.registry import help_rows

    return "\n\n".join([
        "Write N outcomes of DEVICE to stdout.",
        rows_block("DEVICE is one of:", help_rows()),
        "\b\nExamples:\n"
        "  rngcert draw roulette-single -n 1000000 > spins.csv\n"
        "  rngcert draw shoe:8 -n 10 --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
        " --stream 3\n"
        "  rngcert draw dice:2 -n 1000000 --format npy > craps.npy",
    ])


@click.command("draw", cls=GeneratedCommand, help_text=_help_text,
               short_help="Write N outcomes of a virtual device to stdout.")
@click.argument("device", type=DeviceName())
@click.option("-n", "count", type=click.IntRange(min=0), default=1, show_default=True,
              help="Number of outcomes (spins, rolls of all the dice, shuffled shoes/decks/tile sets).")
@generator_options(report=False)
@click.option("--format", "fmt", type=click.Choice(["csv", "npy"]), default="csv", show_default=True,
              help="csv: labels as printed on the equipment, one outcome per line (a die roll or a "
                   "shoe comma-separated on one line); npy: a uint8 array of label indices.")
@quiet_option
def draw_command(device, count, rng, fmt, quiet):
    from harness.progress import Progress

    out = sys.stdout.buffer  # binary stdout (CliRunner swaps in its own)
    if fmt == "npy" and out.isatty():
        raise click.UsageError("refusing to write binary npy data to a terminal; redirect or pipe it")
    try:
        generator = rng.build()
        with Progress(f"drawing {device.name}", count, unit="outcomes", quiet=quiet) as progress:
            _write(out, device, generator, count, fmt, progress)
    except KeyboardInterrupt:
        out.flush()
        note = f"; the npy header announces all {count}, so the file is truncated" if fmt == "npy" else ""
        click.echo(f"\nrngcert draw: interrupted; the outcomes already written are whole lines{note}; "
                   f"verdict: INCOMPLETE", err=True)
        sys.exit(130)
    # A closed pipe (the reader has enough) ends quietly with exit 0: see harness.cli.


COMMANDS = [draw_command]
