"""Command pieces read from a registry when needed, not typed when the command is built.

A game or device registered after ``rngcert`` is imported (a lab's own
module, a test's toy) must still appear in the command's choices and
``--help``; so the help text is produced when it is shown, and a command's
registry-declared options when it parses.
"""
from __future__ import annotations

import textwrap
from typing import Callable, Iterable

import click


class GeneratedCommand(click.Command):
    """A click command whose help text (and extra options) come from callables.

    Parameters
    ----------
    help_text : callable, optional
        Returns the help text (click markup: ``\\b`` paragraphs) when it is
        shown; without it, the function's docstring as usual.
    extra_params : callable, optional
        Returns options inserted after the first parameter each time the
        command parses or shows help.
    epilog_text : callable, optional
        Returns the epilog when it is shown (e.g. one naming a shipped file,
        found only then rather than whenever the command module is imported).
    """

    def __init__(self, *args, help_text: Callable[[], str] | None = None,
                 extra_params: Callable[[], list] | None = None, epilog_text: Callable[[], str] | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self._help_text = help_text
        self._extra_params = extra_params
        self._epilog_text = epilog_text

    def get_params(self, ctx):
        params = super().get_params(ctx)
        if self._extra_params is None:
            return params
        return params[:1] + self._extra_params() + params[1:]

    def format_help_text(self, ctx, formatter):
        if self._help_text is not None:
            self.help = self._help_text()
        super().format_help_text(ctx, formatter)

    def format_epilog(self, ctx, formatter):
        if self._epilog_text is not None:
            self.epilog = self._epilog_text()
        super().format_epilog(ctx, formatter)


def rows_block(title: str, rows: Iterable[tuple[str, str]]) -> str:
    """A ``\\b`` block of ``name  text`` rows, wrapped to the help width (click does not rewrap it)."""
    rows = list(rows)
    width = max(len(name) for name, _ in rows) + 2
    lines = [textwrap.fill(f"{name:<{width}} {text}", 76, initial_indent="  ", subsequent_indent=" " * (width + 3),
                           break_on_hyphens=False) for name, text in rows]
    return "\b\n" + title + "\n" + "\n".join(lines)
