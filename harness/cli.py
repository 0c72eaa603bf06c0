"""The ``rngcert`` command line: one click group, commands discovered.

Each module in :mod:`harness.commands` that defines ``COMMANDS`` (a list of
``click.Command``) contributes those commands; adding a command never means
editing this file.  The group also keeps the conventions every command
shares, so that no command has to:

* a usage error is one line on stderr naming the command, exit 2;
* Ctrl-C or SIGTERM, even while the commands are still being imported,
  exits 130 and says INCOMPLETE (commands that can report partial results
  catch ``KeyboardInterrupt`` themselves first);
* a closed stdout (``rngcert game craps | head -1``) ends quietly, exit 0;
* ``RNGCERT_FORCE_PORTABLE`` must hold a documented value.
"""
from __future__ import annotations

import errno
import importlib
import os
import pkgutil
import signal
import sys

import click

from harness import commands as _commands_pkg



def silence_stdout() -> None:
    """After EPIPE, point fd 1 at /dev/null so the interpreter's final flush
    cannot raise again (the recipe in Python's `signal` documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, NotImplementedError):
        pass  # not a real file descriptor (e.g. under CliRunner)


def _is_broken_pipe(exc: BaseException) -> bool:
    return isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE)


def _check_environment() -> None:
    """Refuse an environment setting the C core would silently ignore (bad input, exit 2)."""
    if not any(name.startswith("RNGCERT_") for name in os.environ):
        return  # nothing to check: skip loading the extension
    try:
        import rngcore  # noqa: F401  (loading the extension checks the environment first)
    except ValueError as exc:  # rngcore._environment.EnvironmentSettingError
        raise click.UsageError(f"environment: {exc}") from None


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM ends a run exactly as Ctrl-C does (partial report, exit 130)


class _RngcertGroup(click.Group):
    """The ``rngcert`` group: discovered commands and the shared conventions."""

    _registered = False

    @property
    def commands(self) -> dict:
        """The commands, discovered on first use (so an early Ctrl-C is ours to report)."""
        self._register()
        return self._commands

    @commands.setter
    def commands(self, value: dict) -> None:
        self._commands = value

    def _register(self) -> None:
        if self._registered:
            return
        self._registered = True  # add_command reads self.commands
        try:
            for info in sorted(pkgutil.iter_modules(_commands_pkg.__path__), key=lambda m: m.name):
                if info.name.startswith("_"):
                    continue
                module = importlib.import_module(f"{_commands_pkg.__name__}.{info.name}")
                for command in getattr(module, "COMMANDS", ()):
                    self.add_command(command)
        except BaseException:
            self._registered = False
            raise

    def list_commands(self, ctx):
        self._register()
        return super().list_commands(ctx)

    def get_command(self, ctx, cmd_name):
        self._register()
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            # Click raises a subcommand's option-parsing errors without a context;
            # give them one so the message names the subcommand.
            if error.ctx is None and ctx.invoked_subcommand:
                command = self.get_command(ctx, ctx.invoked_subcommand)
                error.ctx = click.Context(command, info_name=ctx.invoked_subcommand, parent=ctx)
            raise
        except EOFError as error:  # end of a file, not Ctrl-C (click would report "Aborted!")
            sub = self.get_command(ctx, ctx.invoked_subcommand) if ctx.invoked_subcommand else None
            where = click.Context(sub, info_name=ctx.invoked_subcommand, parent=ctx) if sub else ctx
            raise click.UsageError(f"unexpected end of input data: {error or 'truncated file'}", where) from None
        except OSError as error:
            if not _is_broken_pipe(error):
                raise
            silence_stdout()
            raise click.exceptions.Exit(0) from None  # the reader has all it wanted

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        prog_name = prog_name or "rngcert"
        args = sys.argv[1:] if args is None else list(args)
        previous = _install_sigterm()
        try:
            code = self._main(args, prog_name, complete_var, **extra)
        finally:
            _restore_sigterm(previous)
        sys.exit(code)

    def _main(self, args, prog_name, complete_var, **extra) -> int:
        """Run the command; return the exit status (never raises but SystemExit)."""
        where = _command_path(prog_name, args)
        try:
            if os.environ.get(complete_var or f"_{prog_name.replace('-', '_').upper()}_COMPLETE") is None:
                _check_environment()  # before the commands load (they load the extension)
            self._register()
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()  # a closed pipe shows here, inside our handling
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.format_message(), err=True)  # the group's help
            return error.exit_code
        except click.UsageError as error:
            path = error.ctx.command_path if error.ctx is not None else where
            message = " ".join(error.format_message().split())  # one line, even for a list of choices
            click.echo(f"Error: {path}: {message} (see '{path} --help')", err=True)
            if isinstance(error, click.MissingParameter) and error.ctx is not None:
                click.echo(error.ctx.get_usage(), err=True)
            return error.exit_code
        except click.ClickException as error:
            error.show()
            return error.exit_code
        except (click.Abort, KeyboardInterrupt):
            click.echo(f"{where}: interrupted; verdict: INCOMPLETE", err=True)
            return 130
        except OSError as error:
            if not _is_broken_pipe(error):
                raise
            silence_stdout()
            return 0
        return code if isinstance(code, int) else 0


def _command_path(prog_name: str, args: list[str]) -> str:
    """``rngcert CMD`` for the first argument that is not an option (for
    messages about errors that happen before click has a context, even
    before the commands are loaded)."""
    for arg in args:
        if not arg.startswith("-"):
            return f"{prog_name} {arg}"
    return prog_name


def _install_sigterm():
    try:
        return signal.signal(signal.SIGTERM, _raise_interrupt)
    except (ValueError, OSError):  # not the main thread: leave signals alone
        return None


def _restore_sigterm(previous) -> None:
    if previous is not None:
        try:
            signal.signal(signal.SIGTERM, previous)
        except (ValueError, OSError):
            pass


@click.group(cls=_RngcertGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rngcert", prog_name="rngcert")
def main() -> None:
    """rngcert: certified random numbers and casino-game test harness.

    Exit status of every command: 0 pass, 1 a check failed, 2 bad input,
    130 interrupted (Ctrl-C or SIGTERM; the report says INCOMPLETE).
    Shell completion: see docs/cli.md.
    """
