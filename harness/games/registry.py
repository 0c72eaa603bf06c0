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
from harness.games.base import Analysis, Game, GameOption

__all__ = ["GAMES", "Analysis", "Game", "GameOption", "game", "register", "register_module", "register_package",
           "options", "markdown_table"]


def _check(item) -> None:
    if not isinstance(item, Game):
        raise TypeError(f"{item!r} is not a harness.games.base.Game")
    if not item.variants:
        raise ValueError(f"game {item.name!r} declares no variants")
    names = [o.name for o in item.options]
    if len(names) != len(set(names)) or "variant" in names:
        raise ValueError(f"game {item.name!r}: option names must be unique and not 'variant', got {names}")


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


def markdown_table() -> str:
    """The table of games in the docs (checked against the registry by the tests)."""
    lines = ["| game | what | variants (first = default) | options | rules |", "|---|---|---|---|---|"]
    for g in GAMES.values():
        opts = ", ".join(f"`--{o.name} {o.metavar}` ({o.low}..{o.high}, default {o.default})" for o in g.options)
        variants = ", ".join(f"`{v}`" for v in g.variants)
        lines.append(f"| `{g.name}` | {g.summary} | {variants} | {opts or '—'} | {g.rules} |")
    return "\n".join(lines) + "\n"
