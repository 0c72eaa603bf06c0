"""The games of ``rngcert game``: declared by their modules, discovered here.

Every module of :mod:`harness.games` that lists its games in a module-level
``GAMES`` sequence (instances of :class:`harness.games.base.Game`) is
discovered on first use; so is every module an installed distribution names
in the ``rngcert.games`` entry-point group.  Code outside the repository
registers its own with :func:`register`, :func:`register_module` or
:func:`register_package`.  The command's choices, its ``--help`` (the list
of games, the variants, the options), the docs' table of games and the
tests' parametrization are all read from :data:`GAMES`.

>>> from harness.games.registry import GAMES
>>> GAMES["craps"].variants
('all', 'pa', 'jp')
"""
from __future__ import annotations

from rngcore.plugins import Registry
from harness.games.base import Analysis, Game, GameOption, Strategy

__all__ = ["GAMES", "Analysis", "Game", "GameOption", "Strategy", "game", "register", "register_module",
           "register_package", "options", "flag_options", "markdown_table", "options_table"]


def _check(item) -> None:
    if not isinstance(item, Game):
        raise TypeError(f"{item!r} is not a harness.games.base.Game")
    if not item.variants:
        raise ValueError(f"game {item.name!r} declares no variants")
    names = [o.name for o in item.options]
    keywords = {o.keyword for o in item.options}
    if len(keywords) != len(names) or keywords & _RESERVED:
        raise ValueError(f"game {item.name!r}: option names must be unique and none of "
                         f"{', '.join(sorted(_RESERVED))}, got {names}")
    strategies = [s.name for s in item.strategies]
    if len(strategies) != len(set(strategies)) or not all(isinstance(s, Strategy) for s in item.strategies):
        raise ValueError(f"game {item.name!r}: strategies must be distinct Strategy declarations, got {strategies}")


_RESERVED = frozenset({"variant", "strategy", "option"})  # the command's own words


#: Every game, by name (a read-only mapping, discovered on first use).
GAMES: Registry[Game] = Registry("game", "GAMES", ["harness.games"], check=_check, entry_points="rngcert.games")

register = GAMES.register
register_module = GAMES.register_module
register_package = GAMES.register_package


def game(name: str) -> Game:
    """The game called ``name``; ValueError listing the valid names."""
    return GAMES.get_item(name)


def options() -> dict[str, list[tuple[Game, GameOption]]]:
    """Every option name some game declares, with the (game, option) pairs declaring it."""
    found: dict[str, list[tuple[Game, GameOption]]] = {}
    for g in GAMES.values():
        for option in g.options:
            found.setdefault(option.name, []).append((g, option))
    return found


def flag_options() -> dict[str, list[tuple[Game, GameOption]]]:
    """The option names that are also a ``--<name>`` flag: those every declaring game makes a whole number
    (a flag is shared by the games declaring it, so its type must be one range)."""
    return {name: pairs for name, pairs in options().items() if all(o.kind == "whole" for _, o in pairs)}


def _cell(text: str) -> str:
    """Text for a markdown table cell (a choice list's ``|`` escaped)."""
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The table of games in the docs (checked against the registry by the tests)."""
    lines = ["| game | what | variants (first = default) | strategies (first = default) | options | rules |",
             "|---|---|---|---|---|---|"]
    flags = flag_options()
    for g in GAMES.values():
        opts = ", ".join((f"`--{o.name} {o.metavar}`" if o.name in flags else f"`{o.name}`")
                         + f" ({_cell(o.describe())})" for o in g.options)
        variants = ", ".join(f"`{v}`" for v in g.variants)
        strategies = ", ".join(f"`{s.name}`" for s in g.strategies)
        lines.append(f"| `{g.name}` | {g.summary} | {variants} | {strategies or '—'} | {opts or '—'} | {g.rules} |")
    return "\n".join(lines) + "\n"


def options_table() -> str:
    """The docs' table of every game's options and strategies, with what each means and its rule."""
    lines = ["| game | `--option NAME=VALUE` / `--strategy NAME` | values | meaning (rule) |", "|---|---|---|---|"]
    for g in GAMES.values():
        for o in g.options:
            lines.append(f"| `{g.name}` | `{o.name}` | {_cell(o.describe())} | {_cell(o.help)} |")
        for i, s in enumerate(g.strategies):
            lines.append(f"| `{g.name}` | strategy `{s.name}` | {'default' if i == 0 else '—'} | {_cell(s.help)} |")
    return "\n".join(lines) + "\n"
