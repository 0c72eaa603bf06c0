"""One named table of declarations, filled from declaring modules: stats's kinds and battery entries.

(``stats`` depends on nothing of rngcore, so it keeps this small table of its
own rather than the devices' registry.)
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Callable


class Table:
    """Declarations by name, in registration order.

    Parameters
    ----------
    what : str
        What is registered, for messages ("device kind").
    key : callable
        The name of a declaration.
    check : callable
        Raises ValueError for something that is not a declaration.
    """

    def __init__(self, what: str, key: Callable, check: Callable):
        self.what, self._key, self._check = what, key, check
        self.items: dict = {}

    def register(self, item, held_by: Callable = lambda item: ""):
        """Add ``item`` (re-adding the same one is a no-op); ValueError for a taken name."""
        self._check(item)
        name = self._key(item)
        held = self.items.get(name)
        if held is not None and held is not item:
            raise ValueError(f"{self.what} {name!r} is already registered{held_by(held)}")
        self.items[name] = item
        return item

    def get(self, name: str):
        """The item called ``name``; ValueError listing the valid names otherwise."""
        try:
            return self.items[name]
        except KeyError:
            raise ValueError(f"unknown {self.what} {name!r}; valid {self.what}s: {', '.join(self.items)}") from None

    def unregister(self, name: str):
        """Remove and return the item called ``name``."""
        item = self.get(name)
        del self.items[name]
        return item


def declaring_modules(package):
    """Every public module of ``package`` (a package or its name), imported, by name."""
    if isinstance(package, str):
        package = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{package.__name__}.{info.name}")
