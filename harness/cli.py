"""The ``rngcert`` command line: one click group, commands discovered.

Each module in :mod:`harness.commands` that defines ``COMMANDS`` (a list of
``click.Command``) contributes those commands; adding a command never means
editing this file.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from harness import commands as _commands_pkg


class _OneLineErrorsGroup(click.Group):
    """A click group whose usage errors are one line on stderr, exit code 2.

    Click's default prints the usage synopsis, a hint and the error on three
    lines; a lab's script reading our stderr wants one line that names the
    command and what was wrong.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.format_message(), err=True)  # the group's help
            sys.exit(error.exit_code)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else (prog_name or "rngcert")
            click.echo(f"Error: {where}: {error.format_message()} (see '{where} --help')", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_OneLineErrorsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rngcert", prog_name="rngcert")
def main() -> None:
    """rngcert: certified random numbers and casino-game test harness."""


def _register() -> None:
    for info in sorted(pkgutil.iter_modules(_commands_pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{_commands_pkg.__name__}.{info.name}")
        for command in getattr(module, "COMMANDS", ()):
            main.add_command(command)


_register()
