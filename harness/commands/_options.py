"""Options and parameter types shared by the commands.

* ``quiet_option``: ``--quiet`` on every long command (no progress bar);
* ``workers_option``, ``scheduler_option``: ``--workers N`` and ``--scheduler ADDRESS`` of the
  commands that run in partitions (``docs/scaling.md``);
* ``output_option``: ``--output FILE`` for a command's report (``-``: stdout);
* ``given``: whether the user set a parameter (not a default);
* ``parse_option_pairs``: ``--option NAME=VALUE`` texts against declared
  :class:`~harness.games.base.GameOption` s (``rngcert game``, ``rngcert play``); ``option_flag``:
  how a message names an option given so;
* ``Alpha``: a significance level (NaN and infinities refused);
* ``InputPath``: a file argument that also accepts ``-`` for stdin;
* ``complete_device`` and friends: shell completion of registry names.
"""
from __future__ import annotations

import atexit
import math
import os
import pathlib
import shutil
import sys
import tempfile

import click
from click.shell_completion import CompletionItem

quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="No progress bar on stderr (it is shown only on a terminal anyway).")


def workers_option(help: str, default=1):
    """``--workers N`` (1..256) with the command's own ``help`` (what is partitioned, and how)."""
    return click.option("--workers", type=click.IntRange(min=1, max=256), default=default,
                        show_default=default is not None, metavar="N", help=help)


scheduler_option = click.option(
    "--scheduler", default=None, metavar="ADDRESS",
    help="Run the partitions as Dask tasks (the dask extra): tcp://HOST:PORT of a running scheduler, or "
         "'local' for a LocalCluster of --workers N processes; the same result.")

checkpoint_option = click.option(
    "--checkpoint", "checkpoint", default=None, metavar="DIR", type=click.Path(file_okay=False),
    help="Keep each finished partition in DIR; run again with the same DIR to go on where a killed run "
         "stopped, with the result of the uninterrupted run (implies partitions: --workers 1 by default).")


class ReportFile(click.File):
    """A report's destination, opened when the report is written (so a run that fails on bad input
    leaves no empty file), but checked at once: a file that could not be written is bad input
    (exit 2, one line), not a failure after all the work is done."""

    def __init__(self):
        super().__init__("w", encoding="utf-8", lazy=True)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value != "-":
            path = pathlib.Path(value)
            folder = path.parent if str(path.parent) else pathlib.Path(".")
            if path.is_dir():
                self.fail(f"{value!r} is a directory", param, ctx)
            if not folder.is_dir():
                self.fail(f"{value!r}: no such directory {str(folder)!r}", param, ctx)
            if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
                self.fail(f"{value!r} is not writable", param, ctx)
        return super().convert(value, param, ctx)


output_option = click.option(
    "--output", "-o", "output", type=ReportFile(), default="-",
    metavar="FILE", help="Write the report to FILE instead of stdout ('-': stdout). Exit status is unchanged.")


def option_flag(name: str) -> str:
    """How a message names option ``name`` given as ``--option NAME=VALUE``: ``--option NAME``."""
    return f"--option {name}"


def parse_option_pairs(owner: str, declared, pairs) -> dict:
    """``--option NAME=VALUE`` texts as {declared name: value text}; UsageError naming ``owner`` (what
    takes the options: a game, a game's rounds) and its ``declared`` options (GameOption s)."""
    from harness.games.base import as_named, named_options

    def split():
        for pair in pairs:  # checked one at a time, as named_options reads them
            name, sep, value = pair.partition("=")
            if not sep or not name.strip():
                raise click.UsageError(f"--option takes NAME=VALUE, got {pair!r}")
            yield name.strip(), value

    try:
        return {option.name: value for option, value in named_options(owner, declared, split())}
    except ValueError as exc:
        raise click.UsageError(as_named(exc, option_flag)) from None


def given(ctx: click.Context, name: str) -> bool:
    """Whether the user set parameter ``name``: on the command line, through its environment
    variable or at a prompt; not a default (the option's own or the context's ``default_map``).

    The one test of "did the user ask for this", for options that are refused where they would be
    ignored (``--engine`` beside ``--input``, the suite's options without ``--suite sp800-22``) or
    that change a default (``--workers``).
    """
    from click.core import ParameterSource

    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT,
                                              ParameterSource.PROMPT)


def emit(text: str, output=None) -> None:
    """Write a report (text or JSON) to ``output`` (None: stdout), ending with a newline."""
    click.echo(text, file=output)
    if output is not None and output is not sys.stdout:
        output.flush()


class Count(click.ParamType):
    """A whole number in ``[low, high]``; the message names the bound and why it exists.

    Parameters
    ----------
    low, high : int
    why : str
        What ``high`` is, e.g. ``"2**70, the length of one replay stream"``.
    """

    name = "N"

    def __init__(self, low: int, high: int, why: str):
        self.low, self.high, self.why = low, high, why

    def convert(self, value, param, ctx):
        try:
            number = value if isinstance(value, int) else int(str(value).strip().replace("_", ""))
        except ValueError:
            self.fail(f"{str(value)[:40]!r} is not a valid integer", param, ctx)
        if number < self.low:
            self.fail(f"must be >= {self.low}, got {number}", param, ctx)
        if number > self.high:
            self.fail(f"must be at most {self.why} ({self.high:,}), got {number:.4g}", param, ctx)
        return number


class Alpha(click.ParamType):
    """A significance level strictly between 0 and 1 (NaN and infinities refused)."""

    name = "A"

    def convert(self, value, param, ctx):
        try:
            alpha = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not (math.isfinite(alpha) and 0 < alpha < 1):
            self.fail(f"{value!r} is not strictly between 0 and 1", param, ctx)
        return alpha


NPY_MAGIC = b"\x93NUMPY"


class InputPath(click.Path):
    """An existing file, or ``-`` for stdin.

    Stdin is copied to a temporary file first (removed at exit), because the
    readers check a file's size and kind before they read it; the copy is
    named ``stdin.npy`` when the data starts with the ``.npy`` magic and
    ``stdin`` otherwise, so readers that decide by suffix see the right kind.
    """

    def __init__(self):
        super().__init__(exists=True, dir_okay=False, allow_dash=True)

    def convert(self, value, param, ctx):
        if str(value) != "-":
            return super().convert(value, param, ctx)
        stdin = sys.stdin.buffer  # (CliRunner swaps in its own)
        head = stdin.read(len(NPY_MAGIC))
        folder = pathlib.Path(tempfile.mkdtemp(prefix="rngcert-stdin-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = folder / ("stdin.npy" if head == NPY_MAGIC else "stdin")
        with open(path, "wb") as out:
            out.write(head)
            shutil.copyfileobj(stdin, out, 1 << 20)
        _STDIN_COPIES.add(str(path))
        return str(path)


#: The files InputPath copied standard input to (messages name them "stdin").
_STDIN_COPIES: set = set()


def shown_input(path: str) -> str:
    """How a message names an InputPath value: "stdin" for the copy of standard input, else the path."""
    return "stdin" if str(path) in _STDIN_COPIES else str(path)


def _matching(names, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def device_names() -> list[str]:
    """Every device name ``draw`` accepts (``dice:N``, ``shoe:N`` spelled out for small N)."""
    from rngcore.devices import device_names as registry_names

    names = []
    for name in registry_names():
        if name.endswith(":N"):
            stem = name[:-1]
            names.extend(f"{stem}{n}" for n in (range(1, 13) if "shoe" in stem or "pontoon" in stem
                                                else range(1, 6)))
        else:
            names.append(name)
    return names


def complete_device(ctx, param, incomplete):
    """Shell completion of a DEVICE argument."""
    return _matching(device_names(), incomplete)


def complete_test_device(ctx, param, incomplete):
    """Shell completion of ``rngcert test``'s DEVICE: our devices or a kind's own (``bytes``, ...)."""
    from stats.kinds import named_devices

    return _matching(device_names() + [n for n in named_devices() if ":" not in n], incomplete)


def _typed_game(ctx):
    """The game ``rngcert game`` names on the command line being completed, or None."""
    from harness.games.registry import GAMES

    # While an option's value is being completed click leaves the positional
    # arguments unparsed, in ctx.args.
    typed = [ctx.params.get("game_name")] + list(ctx.args)
    return next((GAMES[name] for name in typed if name in GAMES), None)


def complete_variant(ctx, param, incomplete):
    """Shell completion of ``rngcert game``'s ``--variant``, for the GAME already typed."""
    game = _typed_game(ctx)
    return [] if game is None else _matching(game.variants, incomplete)


def complete_strategy(ctx, param, incomplete):
    """Shell completion of ``rngcert game``'s ``--strategy``: the typed GAME's declared strategies."""
    game = _typed_game(ctx)
    return [] if game is None else _matching([s.name for s in game.strategies], incomplete)


def complete_option(ctx, param, incomplete):
    """Shell completion of ``rngcert game``'s ``--option NAME=VALUE``: names, then a choice option's values."""
    game = _typed_game(ctx)
    if game is None:
        return []
    pairs = [f"{o.name}={c}" for o in game.options for c in o.choices]
    return _matching([f"{o.name}=" for o in game.options if not o.choices] + pairs, incomplete)
