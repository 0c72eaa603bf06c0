"""The battery's registry: every test declares its own battery entry, and is discovered.

A stats module that belongs in the battery defines ``BATTERY``, a list of
:class:`BatteryTest` declarations: the test's name, the device kinds it
applies to, the derived stream it reads, its accumulator (and the arguments
it takes for a given device and sample size), its power function and whether
it is required.  Every module of the :mod:`stats` package is discovered the
first time the battery is planned (``pkgutil``, as the CLI's commands are);
:func:`register` and :func:`discover` add entries (and device kinds) from
other packages.  The battery's plan, ``rngcert test --test`` choices and
the documentation's test lists are read from here.  A new test subclasses
:class:`Accumulator` (re-exported here: ``update``/``result``/``min_samples``
over chunks) and returns one of the result records of :mod:`stats`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from stats._accumulate import Accumulator
from stats._table import Table, declaring_modules
from stats.kinds import DeviceKind
from stats.kinds import discover as discover_kinds

#: Order of a declaration that gives none: after every shipped test, in registration order.
LAST = 10_000.0


@dataclass(frozen=True)
class PlanContext:
    """What an entry sees when the battery is planned: the device's kind, its n, the jitter seed.

    Attributes
    ----------
    kind : DeviceKind
    n : int
        Outcome rows the battery will be fed.
    seed : int
        PIT jitter seed of the run.
    """

    kind: DeviceKind
    n: int
    seed: int

    @property
    def probabilities(self) -> tuple:
        return self.kind.probabilities

    @property
    def labels(self) -> tuple:
        return self.kind.labels

    @property
    def word(self) -> str:
        """What one value of the kind is called in power descriptions ("outcome", "face")."""
        return self.kind.value_word

    def scale(self, stream: str) -> int:
        """Items of ``stream`` per outcome row."""
        return int(self.kind.stream_table()[stream].scale(self.kind))

    def items(self, stream: str) -> int:
        """Items of ``stream`` the planned n gives."""
        return self.n * self.scale(stream)


@dataclass(frozen=True)
class BatteryTest:
    """One battery entry, declared by the module of its test.

    Attributes
    ----------
    name : str
        Name in reports and in ``rngcert test --test``.
    kinds : tuple of str
        Device kinds it applies to; a kind derived from one (dice from
        categorical) is included.
    stream : str
        The derived stream of the kind it reads (``values``, ``uniform``,
        ``bits``, ``rows``, ``first`` ...; see :mod:`stats.kinds`).
    accumulator : callable
        Its streaming core (a class, or any factory).
    arguments : callable, optional
        ``arguments(ctx) -> tuple | dict | None``: what ``accumulator`` is
        called with for a :class:`PlanContext`; None when the test does not
        apply to that device or n.  Default: no arguments.
    power : callable, optional
        ``power(ctx, acc, result, alpha, power) -> Detectable | None``: the
        smallest deviation detected (``stats.power.Detectable``).
    required : bool or callable, optional
        Whether a sample too small for it stops the battery (default True);
        optional tests are left out below their n.  A callable takes ``ctx``.
    order : float, optional
        Position in the report (shipped tests use 100..700).
    function : callable, optional
        The public one-shot test; exported as ``stats.<its name>``.
    labelled : bool, optional
        Its result's cells are the device's labels along every axis as long
        as the list of labels (a frequency table, a position × card table),
        so reports name the cells by label (:mod:`stats.cells`).
    """

    name: str
    kinds: tuple
    stream: str
    accumulator: Callable
    arguments: Callable[[PlanContext], object] = field(default=lambda ctx: ())
    power: Callable | None = None
    required: bool | Callable = True
    order: float = LAST
    function: Callable | None = None
    labelled: bool = False

    def applies_to(self, kind) -> bool:
        return any(kind.is_a(k) for k in self.kinds)

    def build(self, ctx: PlanContext):
        """The accumulator for ``ctx``, or None when the test does not apply."""
        args = self.arguments(ctx)
        if args is None:
            return None
        return self.accumulator(**args) if isinstance(args, dict) else self.accumulator(*args)

    def is_required(self, ctx: PlanContext) -> bool:
        return bool(self.required(ctx) if callable(self.required) else self.required)


def _check_entry(entry) -> None:
    if not isinstance(entry, BatteryTest):
        raise ValueError(f"{entry!r} is not a BatteryTest declaration")


_TABLE = Table("battery test", lambda entry: entry.name, _check_entry)
_ENTRIES = _TABLE.items
_discovered = False


def register(entry: BatteryTest) -> BatteryTest:
    """Add an entry to the battery; returns it.

    Raises ValueError for something that is not a :class:`BatteryTest`, or a
    name another entry already holds (re-registering the same entry is a no-op).
    """
    return _TABLE.register(entry)


def unregister(name: str) -> BatteryTest:
    """Remove and return the entry called ``name`` (ValueError listing the valid names otherwise)."""
    _ensure_discovered()
    return _TABLE.unregister(name)


def discover(package) -> list:
    """Import every public module of ``package`` (a package or its name); register its
    ``BATTERY`` entries and its ``KINDS``.  Returns the entries found."""
    discover_kinds(package)
    return [register(entry) for module in declaring_modules(package) for entry in getattr(module, "BATTERY", ())]


def _ensure_discovered() -> None:
    global _discovered
    if not _discovered:
        _discovered = True
        import stats

        try:
            discover(stats)
        except BaseException:
            _discovered = False
            raise


def entries(kind=None) -> tuple:
    """Every registered entry in report order; only those applying to ``kind`` when given."""
    _ensure_discovered()
    ordered = sorted(enumerate(_ENTRIES.values()), key=lambda item: (item[1].order, item[0]))
    return tuple(e for _, e in ordered if kind is None or e.applies_to(kind))


def entry(name: str) -> BatteryTest:
    """The entry called ``name``; ValueError listing the valid names otherwise."""
    _ensure_discovered()
    if name not in _ENTRIES:
        raise ValueError(f"unknown battery test {name!r}; valid battery tests: {', '.join(test_names())}")
    return _ENTRIES[name]


def test_names() -> tuple:
    """Names of every registered entry, in report order."""
    return tuple(e.name for e in entries())


def markdown_table() -> str:
    """The table of battery tests in docs/statistics.md (checked against the registry by the tests)."""
    lines = ["| test | device kinds | reads | required | function |", "|---|---|---|---|---|"]
    for e in entries():
        required = "when n allows" if callable(e.required) or not e.required else "yes"
        function = f"`stats.{e.function.__name__}`" if e.function is not None else "—"
        lines.append(f"| `{e.name}` | {', '.join(e.kinds)} | `{e.stream}` | {required} | {function} |")
    return "\n".join(lines) + "\n"


__all__ = ["markdown_table", "BatteryTest", "PlanContext", "Accumulator", "register", "unregister", "discover", "entries", "entry",
           "test_names", "LAST"]
