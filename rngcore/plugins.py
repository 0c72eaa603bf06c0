"""Declarations plus discovery: the one mechanism behind every extension point.

A *declaring module* states what it adds in a module-level sequence under an
agreed attribute (a game module's ``GAMES``, a device module's ``DEVICES``).
A :class:`Registry` imports every module of its packages the first time it
is read (:mod:`pkgutil`; module names starting with ``_`` are skipped), the
same way ``rngcert`` finds its commands and bench cases, and collects those
declarations.  So adding a game or a device is one new module; no list is
typed anywhere else.

Code outside this repository adds its own declarations through the public
API -- :meth:`Registry.register` (one item), :meth:`Registry.register_module`
or :meth:`Registry.register_package` -- or, for the command line, through
an installed distribution's entry point in the registry's group (the entry
point names a declaring module)::

    [project.entry-points."rngcert.games"]
    lab = "mylab.games.coin"
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Mapping
from types import ModuleType
from typing import Callable, Generic, Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")

__all__ = ["Registry"]


class Registry(Mapping, Generic[T]):
    """Named declarations of one kind, discovered on first use.

    Parameters
    ----------
    what : str
        What is registered, for messages (``"game"``).
    attribute : str
        The module attribute holding a module's declarations (``"GAMES"``).
    packages : sequence of str
        Packages whose modules are discovered on first use.
    check : callable, optional
        Called with every item before it is added; raises ``TypeError`` or
        ``ValueError`` for an item that is not a valid declaration.
    entry_points : str, optional
        Entry-point group whose entries name further declaring modules.

    Notes
    -----
    A registry is a read-only :class:`~collections.abc.Mapping` from name to
    item, in discovery order: packages in the order given, modules by name,
    items in declaration order, then entry points, then items registered
    later.  Names are unique; registering a second item under a taken name
    raises ``ValueError``.
    """

    def __init__(self, what: str, attribute: str, packages: Sequence[str], *,
                 check: Callable[[T], None] | None = None, entry_points: str | None = None) -> None:
        self.what = what
        self.attribute = attribute
        self._packages = tuple(packages)
        self._check = check
        self._entry_points = entry_points
        self._items: dict[str, T] = {}
        self._discovered = False
        self._lock = threading.RLock()

    # -- public registration API -------------------------------------------------

    def register(self, item: T) -> T:
        """Add one item under ``item.name``; returns it (usable as a decorator on instances)."""
        with self._lock:
            self._discover()
            self._add(item, "register()")
        return item

    def register_module(self, module: ModuleType | str) -> list[T]:
        """Add every item a declaring module lists under the registry's attribute."""
        with self._lock:
            self._discover()
            return self._add_module(module)

    def register_package(self, package: ModuleType | str) -> list[T]:
        """Add the declarations of every module of ``package`` (names starting with ``_`` skipped)."""
        with self._lock:
            self._discover()
            return self._add_package(package)

    def unregister(self, name: str) -> T:
        """Remove and return the item called ``name`` (KeyError if there is none)."""
        with self._lock:
            self._discover()
            return self._items.pop(name)

    def get_item(self, name: str) -> T:
        """The item called ``name``; ValueError listing the valid names otherwise."""
        try:
            return self[name]
        except KeyError:
            raise ValueError(f"unknown {self.what} {name!r}; valid {self.what}s: {', '.join(self)}") from None

    def names(self) -> tuple[str, ...]:
        """Every registered name, in registry order."""
        return tuple(self)

    # -- Mapping -------------------------------------------------------------------

    def __getitem__(self, name: str) -> T:
        self._discover()
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        self._discover()
        return iter(tuple(self._items))

    def __len__(self) -> int:
        self._discover()
        return len(self._items)

    def __repr__(self) -> str:
        return f"<Registry of {self.what}s: {', '.join(self)}>"

    # -- discovery -----------------------------------------------------------------

    def _discover(self) -> None:
        if self._discovered:
            return
        with self._lock:
            if self._discovered:
                return
            self._discovered = True  # set first: a declaring module may read the registry
            for package in self._packages:
                self._add_package(package)
            for module in self._entry_point_modules():
                self._add_module(module)

    def _entry_point_modules(self) -> Iterable[str]:
        if self._entry_points is None:
            return ()
        from importlib import metadata

        return [ep.value for ep in metadata.entry_points(group=self._entry_points)]

    def _add_package(self, package: ModuleType | str) -> list[T]:
        if isinstance(package, str):
            package = importlib.import_module(package)
        path = getattr(package, "__path__", None)
        if path is None:
            raise ValueError(f"{package.__name__} is a module, not a package; use register_module()")
        added: list[T] = []
        for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
            if not info.name.startswith("_"):
                added += self._add_module(f"{package.__name__}.{info.name}", required=False)
        return added

    def _add_module(self, module: ModuleType | str, required: bool = True) -> list[T]:
        if isinstance(module, str):
            module = importlib.import_module(module)
        items = getattr(module, self.attribute, None)
        if items is self:  # the module that holds this registry (it may share the attribute name)
            return []
        if items is None:
            if required:
                raise ValueError(f"module {module.__name__} declares no {self.attribute}")
            return []
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise TypeError(f"{module.__name__}.{self.attribute} must be a sequence of {self.what}s")
        added = []
        for item in items:
            self._add(item, f"{module.__name__}.{self.attribute}")
            added.append(item)
        return added

    def _add(self, item: T, where: str) -> None:
        if self._check is not None:
            self._check(item)
        name = getattr(item, "name", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"{where}: {item!r} has no name")
        if name in self._items and self._items[name] is not item:
            raise ValueError(f"{where}: a {self.what} called {name!r} is already registered")
        self._items[name] = item
