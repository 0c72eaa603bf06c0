"""The base class of device kinds and the derived-stream declaration.

A device kind is the statistical shape of a device: what one outcome row is
(array shape), what it is called (unit word), how its labels read and write
(label codec), how many outcomes a default run tests, and which derived
streams the battery's tests read from its rows.  Devices (ours or a third
party's) are instances of a kind; the battery, the capture reader and the
CLI ask the kind, never a device name or a kind string.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, ClassVar

import numpy as np


@dataclass(frozen=True)
class Stream:
    """A derived stream a kind offers to the battery's tests.

    Attributes
    ----------
    name : str
        What battery entries name in ``stream=``.
    scale : callable
        ``scale(kind) -> int``: stream items per outcome row (dice: faces per
        roll; bits: bits per outcome).
    make : callable
        ``make(kind, seed) -> derive``; ``derive(rows, get)`` maps one chunk of
        rows to the stream's items (``get(other)`` gives another stream of the
        same chunk, derived once).  ``make`` is called once per battery run,
        so a deriver may keep state (a PIT jitter stream) across chunks; such
        a deriver has ``seek(row)``, its state at outcome row ``row`` (for a
        battery of a segment that starts there, :meth:`stats.battery.Battery.starting_at`).
        A deriver may also write every chunk's items into the same array
        (:class:`Reused`): a stream's items are valid while the tests take
        that chunk, and a test copies whatever it keeps past its ``update``.
    """

    name: str
    scale: Callable[[object], int]
    make: Callable[[object, int], Callable]


def stateless(function) -> Callable:
    """``make`` for a deriver with no per-run state: ``function(kind, rows, get)``."""
    return lambda kind, seed: lambda rows, get: function(kind, rows, get)


class Reused:
    """One array a deriver writes each chunk's items into (see :class:`Stream`), grown when a chunk
    is longer: a long run allocates and frees nothing per chunk (no page of it is returned to
    the system, zeroed and faulted in again for the next chunk)."""

    def __init__(self, dtype=np.float64):
        self._array = np.empty(0, dtype=dtype)

    def __call__(self, n: int) -> np.ndarray:
        """The first ``n`` items of the array (what the previous chunk held there is overwritten)."""
        if self._array.size < n:
            self._array = np.empty(int(n), dtype=self._array.dtype)
        return self._array[:n]


def seekable(derive: Callable, seek: Callable[[int], None]) -> Callable:
    """A stateful deriver with its ``seek(row)`` (see :class:`Stream`)."""
    derive.seek = seek
    return derive


def one(kind) -> int:
    return 1


class LabelCodec:
    """Labels as printed on the equipment <-> label indices.

    A token is read exactly, or case-folded when the folding is unambiguous
    (card labels are accepted in lower case).
    """

    def __init__(self, labels):
        self.labels = tuple(labels)
        self._exact = {label: i for i, label in enumerate(self.labels)}
        folded: dict[str, set] = {}
        for label, i in self._exact.items():
            folded.setdefault(label.upper(), set()).add(i)
        self._relaxed = {k: next(iter(v)) for k, v in folded.items() if len(v) == 1}

    def index(self, token: str) -> int | None:
        """The index of ``token`` read as a label, or None."""
        found = self._exact.get(token)
        return found if found is not None else self._relaxed.get(token.upper())

    def as_index(self, token: str) -> int | None:
        """``token`` read as a label index 0..L-1 (canonical decimal), or None."""
        if token.isdigit() and len(token) <= 6 and str(int(token)) == token and int(token) < len(self.labels):
            return int(token)
        return None

    def label(self, index: int) -> str:
        return self.labels[index]

    def describe(self, limit: int = 60) -> str:
        """The labels for a message (the first ``limit`` of them)."""
        return ", ".join(self.labels[:limit]) + (" ..." if len(self.labels) > limit else "")


class DeviceKind:
    """Statistical shape of a device (see module doc).

    Parameters
    ----------
    labels : sequence of str
        Label of each label index.
    probabilities : sequence of Fraction
        Exact law of ONE value: a wheel's symbol, one die's face, the item at
        any one position of a shuffle, one drawn ball.
    width : int
        Values per outcome row (1 for a wheel).
    name : str
        The device's name, used in messages.
    multiset : tuple of int, optional
        Permutation kinds: the label index of every item of the fresh stack.

    Class attributes
    ----------------
    kind : str
        Registry name of the kind (``rngcert test`` and battery entries use it).
    unit : str
        Plural word for one outcome row ("outcomes", "rolls", "shuffles").
    default_samples : int
        Rows a default run tests.
    streams : tuple of Stream
        Derived streams offered to battery entries (inherited and extended).
    syntax : str or None
        A device name pattern the kind parses itself (``bytes``,
        ``k-of-n:K:N``), for devices no registry defines; see :meth:`parse`.
    """

    kind: ClassVar[str] = "kind"
    unit: ClassVar[str] = "outcomes"
    default_samples: ClassVar[int] = 1_000_000
    streams: ClassVar[tuple] = (Stream("rows", one, stateless(lambda kind, rows, get: rows)),)
    syntax: ClassVar[str | None] = None
    summary: ClassVar[str] = ""
    #: What one value is called in the battery's power descriptions.
    value_word: ClassVar[str] = "outcome"

    def __init__(self, labels, probabilities, *, width: int = 1, name: str | None = None, multiset=None):
        self.labels = tuple(str(label) for label in labels)
        self.probabilities = tuple(Fraction(p) for p in probabilities)
        if len(self.labels) != len(self.probabilities) or not self.labels:
            raise ValueError(f"{name or self.kind}: {len(self.labels)} labels but "
                             f"{len(self.probabilities)} probabilities")
        if sum(self.probabilities) != 1:
            raise ValueError(f"{name or self.kind}: probabilities sum to {sum(self.probabilities)}, not 1")
        self.width = int(width)
        self.name = name or self.kind
        self.multiset = None if multiset is None else tuple(int(i) for i in multiset)
        self.codec = LabelCodec(self.labels)

    # -- what the kind is ------------------------------------------------------------------------

    @classmethod
    def is_a(cls, kind: str) -> bool:
        """True when this kind is ``kind`` or derives from it (a die is categorical)."""
        return any(getattr(c, "kind", None) == kind for c in cls.__mro__ if issubclass(c, DeviceKind))

    @classmethod
    def stream_table(cls) -> dict:
        """Every stream of the kind by name; a subclass's declaration wins over its base's."""
        table = {}
        for c in reversed(cls.__mro__):
            for s in vars(c).get("streams", ()):
                table[s.name] = s
        return table

    @classmethod
    def parse(cls, name: str):
        """The kind instance for a device name in :attr:`syntax`, None if the name is not one."""
        return None

    def label_index(self, label: str) -> int:
        """Index of ``label``; ValueError naming the valid labels otherwise."""
        found = self.codec.index(str(label))
        if found is None:
            raise ValueError(f"{label!r} is not a label of {self.name}; valid labels: {self.codec.describe()}")
        return found

    @property
    def unit_singular(self) -> str:
        return self.unit[:-1] if self.unit.endswith("s") else self.unit

    def shape(self, n: int) -> tuple:
        """Array shape of ``n`` outcome rows."""
        return (int(n), self.width) if self.row_shaped else (int(n),)

    #: Whether one outcome is a row of ``width`` values (dice:1 is (n, 1)); a wheel's is a scalar.
    row_shaped: ClassVar[bool] = True

    def rows_from_values(self, flat: np.ndarray) -> np.ndarray:
        """A flat run of values shaped as outcome rows."""
        return flat.reshape(self.shape(flat.size // self.width))

    def check_rows(self, rows: np.ndarray) -> None:
        """ValueError when ``rows`` is not an array of outcomes of this kind (shape only)."""
        expected = self.shape(len(rows))
        if rows.ndim != len(expected) or rows.shape[1:] != expected[1:]:
            what = "a 1-D array of outcomes" if len(expected) == 1 else f"rows of {self.width} values"
            raise ValueError(f"{self.name}: expected {what}, got shape {rows.shape}")

    def describe_row_error(self, row: np.ndarray) -> str | None:
        """Why one outcome row is impossible for this kind (None when it is possible)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # Legacy field read by callers that still hold device specs.
    @classmethod
    def from_spec(cls, spec):
        """The kind instance of a device spec with ``labels``, ``probabilities``, ``width``, ``multiset``."""
        return cls(spec.labels, spec.probabilities, width=spec.width, name=spec.name,
                   multiset=getattr(spec, "multiset", None))
