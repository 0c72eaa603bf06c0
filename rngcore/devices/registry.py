"""The device registry: every device declared once, by its own module.

A device module lists its devices in a module-level ``DEVICES`` sequence of
:class:`Device` declarations (name, one-line summary, citation, how its
labels read, and a builder of :mod:`rngcore.devices.specs`, which fixes the
device's kind and its draw).  :data:`DEVICES` discovers every module of
:mod:`rngcore.devices` on first use; code elsewhere adds its own through
``DEVICES.register``, ``register_module`` or ``register_package`` (or the
``rngcert.devices`` entry-point group).  ``rngcert draw``'s help, the
docs' table of devices and :data:`DEVICE_NAMES` are read from it.

A declaration with a ``parameter`` is a family ``name:N`` (``dice:N``,
``shoe:N``); :func:`device_spec` parses the count and checks its range.  A
family whose ``argument`` is ``"path"`` takes any text after the colon, a
file its builder reads (``slot:MODEL``, a slot model).

:class:`DeviceSpec` is what the statistics battery and the games read:
labels, the exact law of one value, the bulk draw, and the kind
(:meth:`DeviceSpec.as_kind`, a :mod:`stats.kinds` instance carrying the
unit word, array shape and label codec).
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from rngcore.plugins import Registry
from rngcore.devices.specs import KIND_ORDER, Drawing


@dataclass(frozen=True)
class DeviceSpec:
    """One device: what it can show and with what exact probability.

    Attributes
    ----------
    name : str
        Canonical name, e.g. ``"shoe:8"``.
    kind : str
        The :mod:`stats.kinds` kind (``"categorical"``, ``"dice"``,
        ``"permutation"``, ``"k-of-n"``); :meth:`as_kind` gives its instance.
    labels : tuple of str
        Label of each category index.
    probabilities : tuple of Fraction
        Exact probability of each label index for ONE value: a wheel's
        symbol, one die's face, the item at any one position of a fresh
        shuffle, one drawn ball.
    width : int
        Values per outcome row (1 for wheels, N for dice, the stack size for
        permutations, K for K balls).
    multiset : tuple of int or None
        Permutation devices: label index of every physical item of the fresh
        stack, in fresh order (``len == width``).
    citation : str
        Where the equipment is defined.
    sections : tuple of int or None
        Wheels: the label index of every (non-void) section, clockwise.
    laws : tuple of tuple of Fraction, or None
        Devices whose values each have their own law (slot reels): the law
        of value ``i`` of a row (``probabilities`` is then their average).
    columns : tuple of (str, str), or None
        Slot reels: what each value of a row is (:class:`~rngcore.devices.specs.Drawing`).
    """

    name: str
    kind: str
    labels: tuple[str, ...]
    probabilities: tuple[Fraction, ...]
    width: int
    multiset: tuple[int, ...] | None
    citation: str
    _draw: Callable[[object, int], np.ndarray] = field(repr=False, compare=False)
    sections: tuple[int, ...] | None = None
    laws: tuple[tuple[Fraction, ...], ...] | None = None
    columns: tuple[tuple[str, str], ...] | None = None

    @functools.cached_property
    def _kind(self):
        from stats.kinds import kind_of

        return kind_of(self)

    def as_kind(self):
        """The :mod:`stats.kinds` instance of this device (unit word, shape, label codec)."""
        return self._kind

    def label_index(self, label: str) -> int:
        """Index of ``label`` (read by the kind's label codec); ValueError naming the valid labels."""
        return self._kind.label_index(label)

    def draw(self, generator, n: int) -> np.ndarray:
        """``n`` outcomes as label indices (uint8): shape (n,) for a wheel, (n, width) otherwise.

        Reproducible: the same generator state always gives the same array.
        """
        n = int(n)
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        return self._draw(generator, n)


@dataclass(frozen=True)
class Device:
    """A device declaration (see module doc).

    Attributes
    ----------
    name : str
        The device's name, or a family's prefix (``"shoe"`` of ``shoe:N``).
    summary : str
        One line for ``rngcert draw --help`` and the docs.
    citation : str
        Where the equipment is defined.
    build : callable
        ``build(name)`` (or ``build(name, N)`` for a family) -> :class:`Drawing`;
        normally a builder of :mod:`rngcore.devices.specs`.
    labels : str
        How the outcomes are labelled, for the help text.
    parameter : str or None
        A family's N: what it counts (``"decks"``); None for one device.
    low, high : int
        The range of N.
    argument : {"count", "path"}
        What follows the colon: a whole number N in ``low..high``, or a file
        path handed to ``build`` as text.
    sample : str
        ``"path"`` families: a file the family's example member reads (the
        listings and the registry's tests build it).
    """

    name: str
    summary: str
    citation: str
    build: Callable[..., Drawing] = field(repr=False, compare=False)
    labels: str = ""
    parameter: str | None = None
    low: int = 1
    high: int = 1
    argument: str = "count"
    sample: str = ""

    def __post_init__(self):
        if self.argument not in ("count", "path"):
            raise ValueError(f"device {self.name}: argument must be 'count' or 'path', got {self.argument!r}")
        if ":" in self.name:
            raise ValueError(f"device name {self.name!r}: a family is declared by its prefix and a parameter")
        if self.parameter is not None and not 0 <= self.low <= self.high:
            raise ValueError(f"device {self.name}: parameter range {self.low}..{self.high}")

    @property
    def example(self) -> str:
        """A name this declaration answers to (the family's smallest member, a path family's sample)."""
        if self.parameter is None:
            return self.name
        return f"{self.name}:{self.sample}" if self.argument == "path" else f"{self.name}:{self.low}"

    @property
    def kind(self) -> str:
        """The kind of the devices it declares."""
        return device_spec(self.example).kind

    @property
    def pattern(self) -> str:
        """The name as written on the command line (``shoe:N`` for a family)."""
        if self.parameter is None:
            return self.name
        return f"{self.name}:{self.parameter.upper()}" if self.argument == "path" else f"{self.name}:N"

    @property
    def counted(self) -> str:
        """The help text's note on a counted family's N (empty otherwise)."""
        return f" (N {self.parameter}, {self.low}..{self.high})" if self.parameter and self.argument == "count" else ""

    def spec(self, name: str) -> DeviceSpec:
        """The :class:`DeviceSpec` of ``name`` (this device, or a member ``prefix:N`` of the family)."""
        if self.parameter is None:
            if name != self.name:
                raise ValueError(f"device {name!r} is not {self.name!r}")
            args: tuple = ()
        elif self.argument == "path":
            path = name[len(self.name) + 1:]
            if not path:
                raise ValueError(f"device {name!r}: {self.pattern} needs a file after the colon")
            args = (path,)
        else:
            count = _parse_count(name, f"{self.name}:", self.low, self.high)
            name, args = f"{self.name}:{count}", (count,)
        drawing = self.build(name, *args)
        return DeviceSpec(name=name, kind=drawing.kind, labels=tuple(drawing.labels),
                          probabilities=tuple(drawing.probabilities), width=int(drawing.width),
                          multiset=drawing.multiset, citation=self.citation, _draw=drawing.draw,
                          sections=drawing.sections, laws=drawing.laws, columns=drawing.columns)


def _check(item) -> None:
    if not isinstance(item, Device):
        raise TypeError(f"{item!r} is not a rngcore.devices.registry.Device")


#: Every device declaration, by name (a read-only mapping, discovered on first use).
DEVICES: Registry[Device] = Registry("device", "DEVICES", ["rngcore.devices"], check=_check,
                                     entry_points="rngcert.devices")


def declarations() -> list[Device]:
    """Every declaration, grouped by kind (wheels, dice, stacks, balls, others), then in registry order."""
    def rank(device: Device) -> int:
        kind = device.kind
        return KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)

    return sorted(DEVICES.values(), key=rank)


def device_names() -> tuple[str, ...]:
    """Every device name as written on the command line (``dice:N`` for a family)."""
    return tuple(d.pattern for d in declarations())


def _parse_count(name: str, prefix: str, low: int, high: int) -> int:
    text = name[len(prefix):]
    if not text.isdigit():
        raise ValueError(f"device {name!r}: {prefix}N needs a whole number N, got {text!r}")
    count = int(text)
    if not low <= count <= high:
        raise ValueError(f"device {name!r}: N must be in {low}..{high}, got {count}")
    return count


_SPECS: dict[str, tuple[Device, DeviceSpec]] = {}
_SPECS_LOCK = threading.Lock()


def device_spec(name: str) -> DeviceSpec:
    """The :class:`DeviceSpec` for a device name (see :func:`device_names`).

    Raises
    ------
    ValueError
        For an unknown name (the message lists the valid ones) or a count out
        of range (``shoe:0``, ``shoe:13``, ``dice:0``, ``dice:65``).
    """
    if not isinstance(name, str):
        raise ValueError(f"device name must be a string; valid names: {', '.join(device_names())}")
    prefix, colon, _ = name.partition(":")
    device = DEVICES.get(prefix)
    if device is None or bool(colon) != (device.parameter is not None):
        raise ValueError(f"unknown device {name!r}; valid names: {', '.join(device_names())}")
    if device.argument == "path":  # a file may change between calls: never cached
        return device.spec(name)
    with _SPECS_LOCK:
        cached = _SPECS.get(name)
    if cached is not None and cached[0] is device:  # a device re-registered under the name is rebuilt
        return cached[1]
    spec = device.spec(name)
    with _SPECS_LOCK:
        if len(_SPECS) >= 256:
            _SPECS.clear()
        _SPECS[name] = (device, spec)
    return spec


def help_rows() -> list[tuple[str, str]]:
    """(name, what it is and how it is labelled) of every device, for ``--help``."""
    rows = []
    for d in declarations():
        rows.append((d.pattern, f"{d.summary}{d.counted}" + (f"; labels {d.labels}" if d.labels else "")))
    return rows


def _law(spec: DeviceSpec) -> str:
    values = spec.probabilities
    if len(set(values)) == 1:
        return f"{values[0]} each"
    if len(values) <= 8:
        return ", ".join(str(p) for p in values)
    return f"{min(values)} to {max(values)}"


def markdown_table() -> str:
    """The table of devices in the docs (checked against the registry by the tests)."""
    lines = ["| device | what | labels | kind | one value's law | source |", "|---|---|---|---|---|---|"]
    for d in declarations():
        law = "the model's stop law" if d.argument == "path" else _law(device_spec(d.example))
        lines.append(f"| `{d.pattern}` | {d.summary}{d.counted} | {d.labels or '—'} | {d.kind} | "
                     f"{law} | {d.citation} |")
    return "\n".join(lines) + "\n"
