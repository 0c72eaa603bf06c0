"""Device kinds: the statistical shape of a device, as classes, registered and discovered.

A kind carries its unit word, array shape, default sample size, label codec
and derived streams (:class:`DeviceKind`).  The kinds shipped here:

* :class:`Categorical` - one symbol per outcome, any number of faces (wheels);
* :class:`Dice` - N independent dice per roll, any number of faces;
* :class:`Permutation` - a shuffle of a multiset (shoes, decks, tiles);
* :class:`KOfN` - k distinct balls of n without replacement (``k-of-n:K:N``);
* :class:`Bytes` - a raw byte stream (``bytes``);
* :class:`~stats.kinds.reels.Reels` - the stops of N slot reels per play, each reel with its own law.

Every module of this package that defines ``KINDS`` (a list of kind
classes) is registered at import; :func:`register_kind` and
:func:`discover` add kinds from elsewhere.  Nothing here imports a device
registry: devices map themselves onto these classes, and :func:`kind_of`
reads either a kind instance or a spec that names its kind.
"""
from __future__ import annotations

from stats._table import Table, declaring_modules
from stats.kinds._base import DeviceKind, LabelCodec, Stream, stateless

def _check_kind(cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, DeviceKind)):
        raise ValueError(f"{cls!r} is not a DeviceKind subclass")


_TABLE = Table("device kind", lambda cls: cls.kind, _check_kind)
_KINDS = _TABLE.items


def register_kind(cls: type) -> type:
    """Register a kind class under ``cls.kind`` (usable as a class decorator); returns ``cls``.

    Raises ValueError for a class that is not a :class:`DeviceKind` or a
    name another class already holds.
    """
    return _TABLE.register(cls, lambda held: f" by {held.__module__}.{held.__name__}")


def unregister_kind(name: str) -> type:
    """Remove and return the kind class registered as ``name``."""
    return _TABLE.unregister(name)


def discover(package) -> list:
    """Import every public module of ``package`` (a module or its name) and register its ``KINDS``."""
    return [register_kind(cls) for module in declaring_modules(package) for cls in getattr(module, "KINDS", ())]


def kind_names() -> tuple[str, ...]:
    """Names of every registered kind, in registration order."""
    return tuple(_KINDS)


def kind_class(name: str) -> type:
    """The kind class registered as ``name``; ValueError listing the valid ones otherwise."""
    return _TABLE.get(name)


def kind_of(spec) -> DeviceKind:
    """The kind instance describing ``spec``.

    ``spec`` is a :class:`DeviceKind`, an object whose ``kind`` attribute is
    one, or a device spec whose ``kind`` names a registered kind and which has
    ``labels``, ``probabilities``, ``width`` and ``multiset`` (rngcore's
    ``DeviceSpec``).
    """
    if isinstance(spec, DeviceKind):
        return spec
    kind = getattr(spec, "kind", None)
    if isinstance(kind, DeviceKind):
        return kind
    if not isinstance(kind, str):
        raise ValueError(f"{spec!r} names no device kind")
    return kind_class(kind).from_spec(spec)


def named_devices() -> tuple[str, ...]:
    """Device-name patterns the kinds parse themselves (``bytes``, ``k-of-n:K:N``)."""
    return tuple(cls.syntax for cls in _KINDS.values() if cls.syntax)


def parse_device(name: str) -> DeviceKind | None:
    """The kind instance for a name a kind parses (see :func:`named_devices`), None for any other name.

    Raises ValueError for a name in a kind's syntax with bad parameters.
    """
    for cls in _KINDS.values():
        kind = cls.parse(name)
        if kind is not None:
            return kind
    return None


discover(__name__)

from stats.kinds.bytes import Bytes  # noqa: E402  (registered above)
from stats.kinds.categorical import Categorical, Dice  # noqa: E402
from stats.kinds.kofn import KOfN  # noqa: E402
from stats.kinds.permutation import Permutation  # noqa: E402

__all__ = ["DeviceKind", "Stream", "LabelCodec", "stateless", "Categorical", "Dice", "Permutation", "KOfN",
           "Bytes", "register_kind", "unregister_kind", "discover", "kind_names", "kind_class", "kind_of", "named_devices",
           "parse_device"]
