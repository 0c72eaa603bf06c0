"""The ``rngcert`` command line: one click group, commands discovered.

Each module in :mod:`harness.commands` that defines ``COMMANDS`` (a list of
``click.Command``) contributes those commands; adding a command never means
editing this file.
"""
from __future__ import annotations

import importlib
import pkgutil

import click

from harness import commands as _commands_pkg


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
